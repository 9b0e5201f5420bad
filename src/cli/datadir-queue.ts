/**
 * Tables of `ibd-reader DIR -o OUTDIR` read several at a time (issue 38): a one-row table is mostly
 * waiting (opening its output file, reading its pages, closing), so while one waits others are read.
 * At most `size` tables are in flight; their lines are handed on in the order the tables were queued,
 * so tables.tsv reads as it did one by one, and no more than `size` finished lines wait for an earlier one.
 * A table of many leaf pages decodes over every worker thread: `wide` lets one such table at a time.
 */
export class TableQueue<T> {
  private readonly pending: Promise<T>[] = [];
  private wideTurn: Promise<void> = Promise.resolve();

  constructor(private readonly size: number, private readonly done: (result: T) => Promise<void>) {}

  /** Starts `task`; waits while `size` tables are in flight, handing on the oldest's result. */
  async add(task: () => Promise<T>): Promise<void> {
    const started = task();
    // Handled here so a failure waits for its turn in order instead of ending the process.
    started.catch(() => undefined);
    this.pending.push(started);
    if (this.pending.length >= this.size) await this.done(await (this.pending.shift() as Promise<T>));
  }

  /** Every table still in flight, handed on in order. */
  async drain(): Promise<void> {
    for (let next = this.pending.shift(); next !== undefined; next = this.pending.shift()) await this.done(await next);
  }

  /** Runs `body` when no other wide table is being read (their worker threads would share the cores). */
  async wide<R>(body: () => Promise<R>): Promise<R> {
    const before = this.wideTurn;
    let release = () => undefined as void;
    this.wideTurn = new Promise<void>((resolve) => (release = resolve));
    await before;
    try {
      return await body();
    } finally {
      release();
    }
  }
}
