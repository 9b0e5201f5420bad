/**
 * Text written later, in the order it came (core/writers/revert-run.ts holds a revert's UPDATEs and
 * INSERTs until its DELETEs are written: as many as the rows it changed, which millions of rows would
 * not fit in memory). Kept in memory up to a bound; beyond it appended to a store the host provides
 * (the CLI's temporary file, cli/spill-run.ts; the page's origin-private file system,
 * workers/opfs-run.ts), read back in order and released.
 */

/** What the revert writer holds its statements in. */
export interface HeldRun {
  push(text: string): Promise<void>;
  /** Everything pushed, in order, then what held it released. */
  drain(write: (text: string) => Promise<void> | undefined): Promise<void>;
  /** Releases what held it (also when the read stops short). */
  close(): Promise<void>;
  /** Characters that went beyond memory, for the account. */
  readonly spilledChars: number;
}

/** The memory half of a HeldRun; a subclass gives the store beyond the bound. */
export abstract class SpillingRun implements HeldRun {
  private held: string[] = [];
  /** Characters in `held`. */
  private heldChars = 0;
  /** The most `held` ever had, for the tests' account. */
  maxHeldChars = 0;
  /** Characters appended to the store. */
  spilledChars = 0;
  /** Whether the store was written to (and so has to be read back and released). */
  private stored = false;

  constructor(protected readonly limitChars: number) {}

  async push(text: string): Promise<void> {
    if (this.heldChars + text.length > this.limitChars) await this.spill();
    this.held.push(text);
    this.heldChars += text.length;
    this.maxHeldChars = Math.max(this.maxHeldChars, this.heldChars);
  }

  async drain(write: (text: string) => Promise<void> | undefined): Promise<void> {
    try {
      if (this.stored) {
        await this.spill();
        await this.readBack(write);
      }
      for (const text of this.held) await write(text);
      this.held = [];
      this.heldChars = 0;
    } finally {
      await this.close();
    }
  }

  abstract close(): Promise<void>;

  /** Appends `text` to the store (made on the first call). */
  protected abstract append(text: string): Promise<void>;

  /** Gives everything appended, in order. */
  protected abstract readBack(write: (text: string) => Promise<void> | undefined): Promise<void>;

  private async spill(): Promise<void> {
    if (this.held.length === 0) return;
    const text = this.held.join('');
    await this.append(text);
    this.stored = true;
    this.spilledChars += text.length;
    this.held = [];
    this.heldChars = 0;
  }
}
