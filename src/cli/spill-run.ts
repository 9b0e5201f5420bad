/** The CLI's held run (core/writers/held-run.ts): beyond its bound, a temporary file. */
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpillingRun } from '../core/writers/held-run.ts';

export class SpillRun extends SpillingRun {
  private dir: string | null = null;
  private file: FileHandle | null = null;

  /** Removes the file (also when the read stops short). */
  async close(): Promise<void> {
    await this.file?.close();
    this.file = null;
    if (this.dir !== null) await rm(this.dir, { recursive: true, force: true });
    this.dir = null;
  }

  protected async append(text: string): Promise<void> {
    if (this.file === null) {
      this.dir = await mkdtemp(join(tmpdir(), 'ibd-reader-revert-'));
      this.file = await open(join(this.dir, 'run'), 'w');
    }
    await this.file.write(text);
  }

  protected async readBack(write: (text: string) => Promise<void> | undefined): Promise<void> {
    await this.file!.close();
    this.file = null;
    const stream = createReadStream(join(this.dir!, 'run'), { encoding: 'utf8', highWaterMark: 1 << 20 });
    for await (const chunk of stream) await write(chunk as string);
  }
}
