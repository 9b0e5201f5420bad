/**
 * The encrypted variant of crash-recovery-setup.ts, shared by the CLI test
 * (crash-recovery-encrypted.test.ts) and the page's (test/browser/crash-recovery-encrypted.test.ts):
 * the file_key_management key files, and a MariaDB 10.11 server with innodb_encrypt_log=ON (the log's
 * mini-transactions encrypted with key 1) and innodb_encrypt_tables=ON (the tables with key 2),
 * killed mid-work with a transaction left open; a second server recovers a copy by itself.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { crashMidWork, SERVER_ARGS, type Crashed } from './crash-recovery-setup.ts';

/** Key 1 encrypts the log, key 2 the tables. */
export const KEY1 = '1;5c4b1ff1a0a1e2d9f7b0c3a4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708\n';
export const KEY2 = '2;0123456789abcdef0123456789abcdef\n';
/** A key 1 that is not the log's. */
export const WRONG1 = '1;00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n';

/** Writes `text` as `dir/name`; its path. */
export function writeKeyFile(dir: string, name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

/** The server options that encrypt the log and the tables with the keys of `keyFile`. */
export function encryptionArgs(keyFile: string): string[] {
  return ['--plugin-load-add=file_key_management', `--file-key-management-filename=${keyFile}`, '--innodb-encrypt-log=ON', '--innodb-encrypt-tables=ON', '--innodb-default-encryption-key-id=2'];
}

export interface CrashedEncrypted extends Crashed {
  /** A copy of the crashed datadir, as the crash left it. */
  copy: string;
  /** A second server that recovered another copy by itself: the truth. */
  recovered: MariadbServer;
}

/** The encrypted datadir killed mid-work (a transaction left open, synced), one copy kept, another recovered. */
export async function crashEncrypted(keyFile: string): Promise<CrashedEncrypted> {
  const args = encryptionArgs(keyFile);
  const crashed = await crashMidWork(true, true, args);
  const copy = crashed.server.copyDatadir();
  const recovered = await startMariadb({ datadir: crashed.server.copyDatadir(), extraArgs: [...SERVER_ARGS, ...args] });
  return { ...crashed, copy, recovered };
}
