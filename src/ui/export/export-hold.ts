/**
 * While an export runs, the page's background work steps aside: the full summary scans
 * (summary/listing.ts) and the row count of the table on screen (tables/on-screen.ts) would each take
 * a core from it, and the cores are few. An export holds it (`begin()`, released when the export
 * ends); the background work waits for `released()` before its next step, and reads `held` to tell a
 * stop for an export from a failure. Work that must stop at once (a summary scan under way) is
 * stopped through `onHold`; the count's tasks already running finish, the next ones wait.
 */
export class ExportHold {
  #exports = 0;
  #waiters: (() => void)[] = [];
  readonly #stops: (() => void)[] = [];

  /** An export is running. */
  get held(): boolean {
    return this.#exports > 0;
  }

  /** Resolves at once when no export runs, else when the last one ends. */
  released(): Promise<void> {
    return this.#exports === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** `stop` is called whenever an export begins. */
  onHold(stop: () => void): void {
    this.#stops.push(stop);
  }

  /** An export is beginning: returns the function to call when it ends (later calls do nothing). */
  begin(): () => void {
    this.#exports++;
    for (const stop of this.#stops) stop();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#exports--;
      if (this.#exports > 0) return;
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const w of waiters) w();
    };
  }
}
