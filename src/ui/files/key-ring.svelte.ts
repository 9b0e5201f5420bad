/**
 * The encryption keys given with the files (src/core/tablespace/encryption.ts reads them): MariaDB
 * file_key_management key files, plain or encrypted with a password (such a file waits in `locked`
 * until the user types it), and MySQL keyring files. The keys themselves go to the workers with each
 * table opened or listed; the page shows only which files they came from.
 */
import type { EncryptionKeys } from '../../../workers/decoder-api.ts';
import { loadKeyFile, parseMysqlKeyring } from '../../core/tablespace/encryption.ts';
import { describeError } from '../format.ts';
import type { InputFile } from './pairing.ts';

/** A key file that needs its password before its keys can be used. */
export interface LockedKeyFile {
  path: string;
  file: File;
  /** Why the last password did not work, if one was tried. */
  error: string | null;
}

export class KeyRing {
  /** Key files read so far (paths), for display. */
  files = $state.raw<string[]>([]);
  /** Key files waiting for their password. */
  locked = $state.raw<LockedKeyFile[]>([]);
  #keys: EncryptionKeys = {};

  /** Every key read so far. */
  get keys(): EncryptionKeys {
    return this.#keys;
  }

  /**
   * Reads key files (InputFile.key set; those with a password wait in `locked`). `added`: keys were
   * added; `errors`: the files that could not be read, and why.
   */
  async read(files: readonly InputFile[]): Promise<{ added: boolean; errors: string[] }> {
    let added = false;
    const errors: string[] = [];
    for (const f of files) {
      if (f.key === 'mariadb-encrypted') {
        this.locked = [...this.locked.filter((l) => l.path !== f.path), { path: f.path, file: f.file, error: null }];
        continue;
      }
      try {
        await this.#add(f.file, f.key === 'mysql' ? 'mysql' : 'mariadb');
        this.files = [...this.files, f.path];
        added = true;
      } catch (err) {
        errors.push(`${f.path}: ${describeError(err)}`);
      }
    }
    return { added, errors };
  }

  /** The password of a locked key file; true when its keys were read (else `locked` says why not). */
  async unlock(path: string, password: string): Promise<boolean> {
    const locked = this.locked.find((l) => l.path === path);
    if (!locked) return false;
    try {
      await this.#add(locked.file, 'mariadb', password);
    } catch (err) {
      this.locked = this.locked.map((l) => (l === locked ? { ...l, error: describeError(err) } : l));
      return false;
    }
    this.locked = this.locked.filter((l) => l !== locked);
    this.files = [...this.files, path];
    return true;
  }

  reset(): void {
    this.#keys = {};
    this.files = [];
    this.locked = [];
  }

  async #add(file: Blob, kind: 'mariadb' | 'mysql', password?: string): Promise<void> {
    const bytes = new Uint8Array(await file.arrayBuffer());
    // Plain Maps: the keys go to the workers, nothing on the page renders them.
    /* eslint-disable svelte/prefer-svelte-reactivity */
    if (kind === 'mysql') this.#keys = { ...this.#keys, mysql: new Map([...(this.#keys.mysql ?? []), ...parseMysqlKeyring(bytes)]) };
    else this.#keys = { ...this.#keys, mariadb: new Map([...(this.#keys.mariadb ?? []), ...(await loadKeyFile(bytes, password))]) };
    /* eslint-enable svelte/prefer-svelte-reactivity */
  }
}
