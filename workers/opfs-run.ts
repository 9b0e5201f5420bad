/**
 * The page's held run (core/writers/held-run.ts): beyond its bound, a file of the origin-private file
 * system (OPFS, a dedicated worker's synchronous access), read back in order and removed.
 */
import { SpillingRun } from '../src/core/writers/held-run.ts';

/** Bytes read back at a time. */
const READ_BYTES = 1 << 20;

export class OpfsRun extends SpillingRun {
  private file: { name: string; handle: FileSystemSyncAccessHandle; at: number } | null = null;

  async close(): Promise<void> {
    if (this.file === null) return;
    const { name, handle } = this.file;
    this.file = null;
    handle.close();
    await (await navigator.storage.getDirectory()).removeEntry(name).catch(() => undefined);
  }

  protected async append(text: string): Promise<void> {
    if (this.file === null) {
      if (typeof navigator.storage?.getDirectory !== 'function') {
        throw new Error(`the revert holds more than ${this.limitChars >> 20} Mi characters of statements until its DELETEs are written, and this browser gives the page no private storage to keep them in: use the command line's --revert-trx`);
      }
      const name = `ibd-reader-revert-${crypto.randomUUID()}`;
      const entry = await (await navigator.storage.getDirectory()).getFileHandle(name, { create: true });
      this.file = { name, handle: await entry.createSyncAccessHandle(), at: 0 };
    }
    this.file.at += this.file.handle.write(new TextEncoder().encode(text), { at: this.file.at });
  }

  protected async readBack(write: (text: string) => Promise<void> | undefined): Promise<void> {
    const { handle, at: end } = this.file!;
    const decoder = new TextDecoder();
    const buffer = new Uint8Array(READ_BYTES);
    for (let at = 0; at < end; ) {
      const n = handle.read(buffer, { at });
      if (n <= 0) throw new Error('the revert\'s held statements could not be read back from the page\'s private storage');
      at += n;
      await write(decoder.decode(buffer.subarray(0, n), { stream: at < end }));
    }
  }
}
