/**
 * The page's HeldRun (core/writers/revert-run.ts): text held in memory up to a bound, beyond it
 * appended to a file of the origin-private file system (OPFS, a dedicated worker's synchronous
 * access), read back in order and removed. The CLI's SpillRun does the same with a temporary file:
 * a revert of millions of rows holds as many UPDATEs and INSERTs until its DELETEs are written.
 */
import type { HeldRun } from '../src/core/writers/revert-run.ts';

/** Bytes read back at a time. */
const READ_BYTES = 1 << 20;

export class OpfsRun implements HeldRun {
  private held: string[] = [];
  private heldChars = 0;
  spilledChars = 0;
  private file: { name: string; handle: FileSystemSyncAccessHandle; at: number } | null = null;

  constructor(private readonly limitChars: number) {}

  async push(text: string): Promise<void> {
    if (this.heldChars + text.length > this.limitChars) await this.spill();
    this.held.push(text);
    this.heldChars += text.length;
  }

  async drain(write: (text: string) => Promise<void> | undefined): Promise<void> {
    try {
      if (this.file !== null) {
        await this.spill();
        const { handle, at: end } = this.file;
        const decoder = new TextDecoder();
        const buffer = new Uint8Array(READ_BYTES);
        for (let at = 0; at < end; ) {
          const n = handle.read(buffer, { at });
          if (n <= 0) throw new Error('the revert\'s held statements could not be read back from the page\'s private storage');
          at += n;
          await write(decoder.decode(buffer.subarray(0, n), { stream: at < end }));
        }
      }
      for (const text of this.held) await write(text);
      this.held = [];
      this.heldChars = 0;
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    if (this.file === null) return;
    const { name, handle } = this.file;
    this.file = null;
    handle.close();
    await (await navigator.storage.getDirectory()).removeEntry(name).catch(() => undefined);
  }

  private async spill(): Promise<void> {
    if (this.held.length === 0) return;
    if (this.file === null) {
      if (typeof navigator.storage?.getDirectory !== 'function') {
        throw new Error(`the revert holds more than ${this.limitChars >> 20} Mi characters of statements until its DELETEs are written, and this browser gives the page no private storage to keep them in: use the command line's --revert-trx`);
      }
      const name = `ibd-reader-revert-${crypto.randomUUID()}`;
      const entry = await (await navigator.storage.getDirectory()).getFileHandle(name, { create: true });
      this.file = { name, handle: await entry.createSyncAccessHandle(), at: 0 };
    }
    const bytes = new TextEncoder().encode(this.held.join(''));
    this.file.at += this.file.handle.write(bytes, { at: this.file.at });
    this.spilledChars += this.heldChars;
    this.held = [];
    this.heldChars = 0;
  }
}
