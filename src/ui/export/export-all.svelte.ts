/**
 * "Export all tables": every table's rows as CSV (header row, the default CSV options), decoded in
 * batches across the page's worker pool (`exportTables`, workers/list-methods.ts: one call decodes
 * many small tables, the .sql parsed once per worker).
 *
 * Where the files go — what a user expects from "all tables as CSV" is one CSV file per table, named
 * after the table, in a folder, ready for a spreadsheet or LOAD DATA; so:
 *  - where the browser can write into a folder the user picks (`showDirectoryPicker`: Chrome, Edge),
 *    each table's CSV is written there as it is decoded (`db/t.csv` for `db/t.ibd`: the dropped
 *    folders are kept, so two tables of the same name in two databases do not collide);
 *  - elsewhere (Firefox, Safari) one download, `tables.zip`, holding the same files: a .zip opens
 *    into that same folder everywhere. A concatenation of all CSVs with a header line per table
 *    would be one file, but no CSV tool reads it, and splitting it again is the user's work.
 *    The .zip is STORED (zip.ts, with fflate) and kept as Blob parts, which the browser holds
 *    outside the page's heap.
 * Each table is decoded whole in one worker call: memory goes with the largest table's CSV (a worker
 * answers once its CSVs reach 32 MiB); a 10 GB table is better exported on its own (streamed).
 * Tiny tables come with their CSV from the listing (TableEntry.listedCsv): those are written as they
 * are, without reading their files again.
 */
import type { ExportedTable, ListItem } from '../../../workers/decoder-api.ts';
import { definitionBlob, partitionFiles } from '../files/file-set.svelte.ts';
import type { Api } from '../pool.ts';
import { PoolStopped } from '../pool.ts';
import type { TableEntry } from '../tables/table-entry.svelte.ts';
import type { Workspace } from '../workspace.svelte.ts';
import { saveBlob } from './export.ts';
import { ZipWriter } from './zip.ts';

/** Tables per worker call (the worker answers early once their CSVs add up to 32 MiB). */
const BATCH_TABLES = 200;
/** Listed CSVs written between two looks at the event loop (the page stays responsive). */
const LISTED_CHUNK = 500;

interface AllTarget {
  readonly kind: 'folder' | 'zip';
  /** Where it went, for the status line. */
  readonly where: string;
  add(path: string, bytes: Uint8Array): Promise<void>;
  finish(): Promise<void>;
}

interface DirectoryPickerWindow {
  showDirectoryPicker?: (options?: { mode?: 'read' | 'readwrite'; id?: string }) => Promise<FileSystemDirectoryHandle>;
}

export function canPickDirectory(): boolean {
  return typeof (globalThis as DirectoryPickerWindow).showDirectoryPicker === 'function';
}

/** A path safe as a file name on every system (each folder part on its own). */
function safePart(part: string): string {
  let out = '';
  for (const ch of part) out += ch < ' ' || '\\/:*?"<>|'.includes(ch) ? '_' : ch;
  out = out.trim();
  return out === '' || out === '.' || out === '..' ? '_' : out;
}

/** `db/t.ibd` → `db/t.csv`. */
export function csvPathOf(ibdPath: string): string {
  const parts = ibdPath.split('/').filter(Boolean).map(safePart);
  const last = parts.pop() ?? 'table.ibd';
  parts.push(`${last.replace(/\.ibd$/i, '')}.csv`);
  return parts.join('/');
}

async function folderTarget(): Promise<AllTarget | null> {
  const show = (globalThis as DirectoryPickerWindow).showDirectoryPicker;
  if (!show) return null;
  let root: FileSystemDirectoryHandle;
  try {
    root = await show.call(globalThis, { mode: 'readwrite', id: 'ibd-reader-export' });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return null;
    throw err;
  }
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not rendered
  const dirs = new Map<string, Promise<FileSystemDirectoryHandle>>([['', Promise.resolve(root)]]);
  const dirOf = (path: string): Promise<FileSystemDirectoryHandle> => {
    let d = dirs.get(path);
    if (!d) {
      const cut = path.lastIndexOf('/');
      const parent = cut < 0 ? '' : path.slice(0, cut);
      d = dirOf(parent).then((h) => h.getDirectoryHandle(path.slice(cut + 1), { create: true }));
      dirs.set(path, d);
    }
    return d;
  };
  return {
    kind: 'folder',
    where: `the folder ${root.name}`,
    async add(path, bytes) {
      const cut = path.lastIndexOf('/');
      const dir = await dirOf(cut < 0 ? '' : path.slice(0, cut));
      const file = await dir.getFileHandle(path.slice(cut + 1), { create: true });
      const w = await file.createWritable();
      await w.write(bytes as Uint8Array<ArrayBuffer>);
      await w.close();
    },
    async finish() {},
  };
}

/** The CSV the listing made, if it was made with the definition and the time zone (UTC) the export would use. */
function listedCsv(t: TableEntry, timeZone: string): ExportedTable | null {
  const csv = t.listedCsv;
  return csv && timeZone === 'UTC' && csv.table === (t.chosen ?? t.resolved?.picked ?? null) ? csv : null;
}

function itemOf(t: TableEntry, timeZone: string): ListItem {
  return {
    timeZone,
    ibd: t.file,
    name: t.file.name,
    frm: definitionBlob(t.paired),
    chosen: t.chosen,
    index: t.index,
    raw: t.raw,
    ...partitionFiles(t.paired),
    fromSql: t.resolved?.source === 'sql' && t.resolved.file && t.resolved.picked ? { file: t.resolved.file, table: t.resolved.picked } : null,
  };
}

function zipTarget(): AllTarget {
  const zip = new ZipWriter();
  return {
    kind: 'zip',
    where: 'tables.zip (downloaded)',
    add(path, bytes) {
      zip.add(path, bytes);
      return Promise.resolve();
    },
    finish() {
      saveBlob(zip.finish(), 'tables.zip');
      return Promise.resolve();
    },
  };
}

/** One export: where it writes, the problems met, and the writes queued so far. */
interface Run {
  readonly target: AllTarget;
  readonly problems: string[];
  writing: Promise<void>;
}

export class ExportAll {
  running = $state(false);
  total = $state(0);
  done = $state(0);
  rows = $state(0);
  /** Tables that could not be exported (or only partly), first few: "path: why". */
  problems = $state.raw<string[]>([]);
  failed = $state(0);
  elapsedMs = $state<number | null>(null);
  where = $state<string | null>(null);
  error = $state<string | null>(null);
  #stop = false;
  /** Close all files came during the run: its outcome is not shown. */
  #cleared = false;

  constructor(readonly ws: Workspace) {}

  cancel(): void {
    this.#stop = true;
  }

  /**
   * Close all files: a running export stops (the pool it runs in is killed too), and the outcome of
   * the last one goes, which was of files no longer open.
   */
  clear(): void {
    this.#stop = true;
    this.#cleared = true;
    this.#forget();
  }

  #forget(): void {
    this.total = 0;
    this.done = 0;
    this.rows = 0;
    this.failed = 0;
    this.problems = [];
    this.where = null;
    this.elapsedMs = null;
    this.error = null;
  }

  /** Exports every table; `how`: into a folder the user picks, or one .zip download. */
  async start(how: 'folder' | 'zip'): Promise<void> {
    if (this.running) return;
    this.error = null;
    let target: AllTarget | null;
    try {
      target = how === 'folder' ? await folderTarget() : zipTarget();
    } catch (err) {
      this.error = `The export could not start: ${err instanceof Error ? err.message : String(err)}`;
      return;
    }
    if (!target) return;
    const tables = this.ws.tables.slice();
    this.running = true;
    this.#stop = false;
    this.#cleared = false;
    this.#forget();
    this.total = tables.length;
    const started = performance.now();
    const release = this.ws.exportHold.begin();
    const run: Run = { target, problems: [], writing: Promise.resolve() };
    try {
      const zone = this.ws.files.timeZone.zone;
      const rest = tables.filter((t) => listedCsv(t, zone) === null);
      const lanes = Array.from({ length: Math.max(1, this.ws.poolSize) }, () => this.#lane(run, rest));
      await Promise.all([this.#writeListed(run, tables.filter((t) => listedCsv(t, zone) !== null)), ...lanes]);
      await run.writing;
      if (this.#stop) {
        this.error = target.kind === 'zip' ? 'Stopped: nothing was saved.' : `Stopped: the tables done so far are in ${target.where}.`;
        return;
      }
      await target.finish();
      this.where = target.where;
      this.elapsedMs = performance.now() - started;
    } catch (err) {
      this.error = `The export failed: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      this.problems = run.problems;
      release();
      this.running = false;
      if (this.#cleared) this.#forget();
    }
  }

  /** Writes the tables' results after those written before (in the order they arrive). */
  #write(run: Run, entries: readonly TableEntry[], results: readonly ExportedTable[]): Promise<void> {
    run.writing = run.writing.then(async () => {
      let failed = 0;
      let rows = 0;
      for (let i = 0; i < entries.length; i++) {
        const r = results[i];
        const path = entries[i].path;
        if (r.bytes) await run.target.add(csvPathOf(path), r.bytes);
        else failed++;
        if (r.problem && run.problems.length < 50) run.problems.push(`${path}: ${r.problem}`);
        rows += r.rows;
      }
      // once per batch: the progress bar is redrawn per batch, not per table
      this.failed += failed;
      this.rows += rows;
      this.done += entries.length;
    });
    return run.writing;
  }

  /** The CSVs the listing made, written in chunks (the page stays responsive). */
  async #writeListed(run: Run, listed: readonly TableEntry[]): Promise<void> {
    for (let i = 0; i < listed.length && !this.#stop; i += LISTED_CHUNK) {
      const chunk = listed.slice(i, i + LISTED_CHUNK);
      await this.#write(run, chunk, chunk.map((t) => listedCsv(t, 'UTC')!));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /** Decodes batches of `rest` in a pool worker (taken from its front, shared by every lane) until none is left. */
  async #lane(run: Run, rest: TableEntry[]): Promise<void> {
    const sqls = this.ws.files.sqlBlobs();
    for (let batch = rest.splice(0, BATCH_TABLES); batch.length > 0 && !this.#stop; ) {
      const items = batch.map((t) => itemOf(t, this.ws.files.timeZone.zone));
      let results: ExportedTable[];
      try {
        results = await this.ws.runInPool((api: Api) => api.exportTables(items, sqls));
      } catch (err) {
        if (err instanceof PoolStopped) {
          this.#stop = true;
          return;
        }
        const text = err instanceof Error ? err.message : String(err);
        results = batch.map(() => ({ table: null, bytes: null, rows: 0, problem: text }));
      }
      await this.#write(run, batch.slice(0, results.length), results);
      // The worker stopped early (its CSVs filled its budget): the rest of the batch again.
      batch = results.length > 0 && results.length < batch.length ? batch.slice(results.length) : rest.splice(0, BATCH_TABLES);
    }
  }
}
