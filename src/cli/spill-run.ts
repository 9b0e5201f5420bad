/**
 * Text written later, in the order it came, held in memory up to a bound and beyond it appended to a
 * temporary file (--revert-trx N holds its UPDATEs and INSERTs until its DELETEs are written: as many
 * as the rows N changed, which a transaction of millions of rows would not fit in memory).
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class SpillRun {
  private held: string[] = [];
  /** Characters in `held`. */
  private heldChars = 0;
  /** The most `held` ever had, for the tests' account. */
  maxHeldChars = 0;
  /** Characters written to the file. */
  spilledChars = 0;
  private dir: string | null = null;
  private file: FileHandle | null = null;

  constructor(private readonly limitChars: number) {}

  async push(text: string): Promise<void> {
    if (this.heldChars + text.length > this.limitChars) await this.spill();
    this.held.push(text);
    this.heldChars += text.length;
    this.maxHeldChars = Math.max(this.maxHeldChars, this.heldChars);
  }

  /** Everything pushed, in order, then the file removed. */
  async drain(write: (text: string) => Promise<void> | undefined): Promise<void> {
    try {
      if (this.file !== null) {
        await this.spill();
        await this.file.close();
        this.file = null;
        const stream = createReadStream(join(this.dir!, 'run'), { encoding: 'utf8', highWaterMark: 1 << 20 });
        for await (const chunk of stream) await write(chunk as string);
      }
      for (const text of this.held) await write(text);
      this.held = [];
      this.heldChars = 0;
    } finally {
      await this.close();
    }
  }

  /** Removes the file (also when the read stops short). */
  async close(): Promise<void> {
    await this.file?.close();
    this.file = null;
    if (this.dir !== null) await rm(this.dir, { recursive: true, force: true });
    this.dir = null;
  }

  private async spill(): Promise<void> {
    if (this.held.length === 0) return;
    if (this.file === null) {
      this.dir = await mkdtemp(join(tmpdir(), 'ibd-reader-revert-'));
      this.file = await open(join(this.dir, 'run'), 'w');
    }
    const text = this.held.join('');
    await this.file.write(text);
    this.spilledChars += text.length;
    this.held = [];
    this.heldChars = 0;
  }
}
