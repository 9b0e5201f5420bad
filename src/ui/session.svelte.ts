/**
 * The page's state machine: which files are loaded, which table is being read, the decoded rows and
 * the decoder's counters. The decoding itself runs in the worker (workers/decoder.worker.ts); this
 * class drives it and is what the components read.
 *
 *   idle ──files──▶ reading-schema ──match──▶ decoding ──▶ done | cancelled | error
 *                          └──several tables, none matches──▶ choosing ──choose──▶ decoding
 */
import { connectDecoder, sinkProxy } from '../../workers/decoder-api.ts';
import { fetchSample } from './sample.ts';
import type {
  DecodeStats,
  DecoderConnection,
  OpenedTable,
  Row,
  TableChoice,
} from '../../workers/decoder-api.ts';

export type Phase = 'idle' | 'reading-schema' | 'choosing' | 'decoding' | 'done' | 'cancelled' | 'error';

/** How long a cancel may take before the worker is killed outright. */
const CANCEL_GRACE_MS = 2000;

export function isSqlFile(file: File): boolean {
  return /\.sql$/i.test(file.name);
}

/** Plain-language text for anything thrown (IbdError messages already name file and page). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  return 'Something went wrong while reading the file.';
}

export class Session {
  phase = $state<Phase>('idle');
  ibdFile = $state.raw<File | null>(null);
  sqlFile = $state.raw<File | null>(null);
  /** Tables found in the .sql. */
  tables = $state.raw<TableChoice[]>([]);
  /** The table being (or to be) decoded. */
  tableName = $state<string | null>(null);
  opened = $state.raw<OpenedTable | null>(null);
  stats = $state.raw<DecodeStats | null>(null);
  /** Rows received so far; `rows` itself is not reactive (1M proxied rows would be far too slow). */
  rowCount = $state(0);
  rows: Row[] = [];
  /** Plain-language error for the page. */
  error = $state<string | null>(null);
  /** Non-error guidance, e.g. "add the .sql file". */
  notice = $state<string | null>(null);
  /** Milliseconds the last decode took. */
  elapsedMs = $state<number | null>(null);

  #conn: DecoderConnection | null = null;
  /** Bumped for every new run; callbacks of older runs are ignored. */
  #run = 0;
  #startedAt = 0;
  #cancelTimer: ReturnType<typeof setTimeout> | null = null;

  get busy(): boolean {
    return this.phase === 'reading-schema' || this.phase === 'decoding';
  }

  #connection(): DecoderConnection {
    this.#conn ??= connectDecoder();
    return this.#conn;
  }

  #killWorker(): void {
    this.#conn?.terminate();
    this.#conn = null;
  }

  /** Takes dropped or picked files: `.sql` is the schema, anything else the table file. */
  addFiles(files: File[]): void {
    if (files.length === 0) return;
    const sql = files.filter(isSqlFile);
    const data = files.filter((f) => !isSqlFile(f));
    const ignored: string[] = [];
    if (sql.length > 0) this.sqlFile = sql[0];
    if (data.length > 0) {
      // Prefer an .ibd when several non-.sql files arrive together.
      const ibd = data.find((f) => /\.ibd$/i.test(f.name)) ?? data[0];
      this.ibdFile = ibd;
      for (const f of data) if (f !== ibd) ignored.push(f.name);
    }
    for (const f of sql.slice(1)) ignored.push(f.name);
    const extra = ignored.length > 0 ? ` (ignored: ${ignored.join(', ')} — one table at a time)` : '';
    if (this.ibdFile && this.sqlFile) {
      this.notice = extra ? `Reading one .ibd and one .sql${extra}.` : null;
      void this.#begin();
    } else {
      this.#stopCurrent();
      this.phase = 'idle';
      this.error = null;
      this.#clearResults();
      this.notice = this.ibdFile
        ? `Now add the .sql file with the CREATE TABLE statement for ${this.ibdFile.name}${extra}.`
        : `Now add the .ibd table file${extra}.`;
    }
  }

  /** Fetches the bundled sample and opens it. */
  async openSample(baseUrl = './sample/'): Promise<void> {
    this.#stopCurrent();
    this.error = null;
    this.notice = 'Fetching the sample…';
    try {
      const files = await fetchSample(baseUrl);
      this.notice = null;
      this.addFiles(files);
    } catch (err) {
      this.notice = null;
      this.#fail(err);
    }
  }

  /** The user picked a table from the list (several tables, none named like the .ibd). */
  chooseTable(name: string): void {
    if (!this.tables.some((t) => t.name === name)) return;
    this.tableName = name;
    void this.#decode(this.#run);
  }

  /** Aborts the running decode; rows read so far stay on the page. */
  cancel(): void {
    if (this.phase !== 'decoding' && this.phase !== 'reading-schema') return;
    const run = this.#run;
    void this.#conn?.api.cancel();
    this.#cancelTimer = setTimeout(() => {
      // The worker did not stop in time (e.g. stuck in a long synchronous step): kill it.
      if (run !== this.#run || !this.busy) return;
      this.#killWorker();
      this.#finishCancelled();
    }, CANCEL_GRACE_MS);
  }

  /** Clears everything back to the empty page. */
  reset(): void {
    this.#stopCurrent();
    this.ibdFile = null;
    this.sqlFile = null;
    this.tables = [];
    this.tableName = null;
    this.#clearResults();
    this.error = null;
    this.notice = null;
    this.phase = 'idle';
  }

  #clearResults(): void {
    this.opened = null;
    this.stats = null;
    this.rows = [];
    this.rowCount = 0;
    this.elapsedMs = null;
  }

  /** Stops whatever is running (a new file set replaces it). */
  #stopCurrent(): void {
    this.#run++;
    if (this.#cancelTimer) clearTimeout(this.#cancelTimer);
    this.#cancelTimer = null;
    if (this.busy && this.#conn) void this.#conn.api.cancel();
  }

  #fail(err: unknown): void {
    this.error = describeError(err);
    this.phase = 'error';
  }

  #finishCancelled(): void {
    if (this.#cancelTimer) clearTimeout(this.#cancelTimer);
    this.#cancelTimer = null;
    this.elapsedMs = performance.now() - this.#startedAt;
    this.phase = 'cancelled';
  }

  async #begin(): Promise<void> {
    const ibd = this.ibdFile;
    const sql = this.sqlFile;
    if (!ibd || !sql) return;
    this.#stopCurrent();
    const run = this.#run;
    this.error = null;
    this.#clearResults();
    this.tables = [];
    this.tableName = null;
    this.phase = 'reading-schema';
    try {
      const schema = await this.#connection().api.readSchema(sql, ibd.name);
      if (run !== this.#run) return;
      this.tables = schema.tables;
      if (schema.tables.length === 0) {
        throw new Error(`${sql.name}: no CREATE TABLE statement was found in this file.`);
      }
      if (schema.picked === null) {
        this.phase = 'choosing';
        return;
      }
      this.tableName = schema.picked;
    } catch (err) {
      if (run === this.#run) this.#fail(err);
      return;
    }
    await this.#decode(run);
  }

  async #decode(run: number): Promise<void> {
    const ibd = this.ibdFile;
    const table = this.tableName;
    if (!ibd || !table || run !== this.#run) return;
    this.error = null;
    this.#clearResults();
    this.phase = 'decoding';
    this.#startedAt = performance.now();
    const sink = sinkProxy({
      opened: (t) => {
        if (run !== this.#run) return;
        this.opened = t;
      },
      batch: (rows, stats) => {
        if (run !== this.#run) return;
        const target = this.rows;
        for (let i = 0; i < rows.length; i++) target.push(rows[i]);
        this.stats = stats;
        this.rowCount = target.length;
      },
    });
    try {
      const result = await this.#connection().api.decode(ibd, ibd.name, table, sink);
      if (run !== this.#run) return;
      this.stats = result.stats;
      if (result.status === 'cancelled' || this.#cancelTimer) {
        this.#finishCancelled();
      } else {
        this.elapsedMs = performance.now() - this.#startedAt;
        this.phase = 'done';
      }
    } catch (err) {
      if (run !== this.#run) return;
      if (this.#cancelTimer) {
        // Errors after a cancel are the cancel's doing.
        this.#finishCancelled();
      } else {
        this.#fail(err);
      }
    }
  }
}
