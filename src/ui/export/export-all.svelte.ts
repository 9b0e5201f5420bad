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
import type { ExportedTable, ExportFormat, ListItem } from '../../../workers/decoder-api.ts';
import { definitionBlob, partitionFiles } from '../files/file-set.svelte.ts';
import type { Api } from '../pool.ts';
import { PoolStopped } from '../pool.ts';
import type { TableEntry } from '../tables/table-entry.svelte.ts';
import type { Workspace } from '../workspace.svelte.ts';
import { saveBlob } from './export.ts';
import { ZipWriter } from './zip.ts';
import { BlobParts } from './blob-parts.ts';
import { ExportPaths, filePath } from './export-names.ts';
import { parseTableFileName } from '../files/pairing.ts';

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

/** `db/t.ibd` → `db/t.csv`. */
export function csvPathOf(ibdPath: string): string {
  return filePath(ibdPath, 'csv');
}

/** The folder the user picks (null: none picked). */
async function pickFolder(): Promise<FileSystemDirectoryHandle | null> {
  const show = (globalThis as DirectoryPickerWindow).showDirectoryPicker;
  if (!show) return null;
  try {
    return await show.call(globalThis, { mode: 'readwrite', id: 'ibd-reader-export' });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return null;
    throw err;
  }
}

/** Writes `data` into file `name` of folder `dir`. */
async function writeFile(dir: FileSystemDirectoryHandle, name: string, data: Uint8Array | Blob): Promise<void> {
  const file = await dir.getFileHandle(name, { create: true });
  const w = await file.createWritable();
  await w.write(data as Uint8Array<ArrayBuffer>);
  await w.close();
}

function folderTarget(root: FileSystemDirectoryHandle): AllTarget {
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
      await writeFile(await dirOf(cut < 0 ? '' : path.slice(0, cut)), path.slice(cut + 1), bytes);
    },
    async finish() {},
  };
}

/**
 * One `tables.sql` of every table, in the order they come (each creates and uses its database):
 * downloaded, or written into the folder picked. Its parts are folded into Blobs (outside the page's heap).
 */
function sqlTarget(root: FileSystemDirectoryHandle | null): AllTarget {
  const parts = new BlobParts();
  return {
    kind: root ? 'folder' : 'zip',
    where: root ? `tables.sql in the folder ${root.name}` : 'tables.sql (downloaded)',
    add(_path, bytes) {
      parts.push(bytes);
      return Promise.resolve();
    },
    async finish() {
      const all = parts.take('application/sql');
      if (root) await writeFile(root, 'tables.sql', all);
      else saveBlob(all, 'tables.sql');
    },
  };
}

/** The CSV the listing made, if it was made with the definition and the time zone (UTC) the export would use. */
function listedCsv(t: TableEntry, timeZone: string): ExportedTable | null {
  const csv = t.listedCsv;
  return csv && timeZone === 'UTC' && csv.table === (t.chosen ?? t.resolved?.picked ?? null) ? csv : null;
}

/** A dropped tree of ibdata1 whose table is unknown and no definition chosen: its columns are guessed, as the CLI's are. */
function guessOf(t: TableEntry): ListItem['guess'] {
  const s = t.paired.system;
  if (!s || s.source !== null || s.definition !== null || t.chosen || !s.index || !s.found) return null;
  const rootLeaf = s.index.rootPage !== null && s.found.pages === 1 && s.found.leafPages === 1 ? s.index.rootPage : -1;
  return { indexId: s.index.indexId, compact: s.rowFormat !== 'REDUNDANT', rootLeaf };
}

/** The database a table's SQL creates and uses: a table of ibdata1's `db/`, else its file's folder (none for an unknown dropped tree). */
function dbOf(t: TableEntry): string | null {
  const s = t.paired.system;
  if (s) return s.source === null && s.definition === null && !s.pending ? null : s.name.slice(0, Math.max(0, s.name.indexOf('/'))) || null;
  const folder = t.paired.ibd.path.split('/').slice(-2, -1)[0];
  return folder ? parseTableFileName(folder).table : null;
}

/**
 * Why a dropped table of ibdata1 has no rows to write, without reading: the listing's one read of the
 * whole file found no page of its clustered index (reused or zeroed), and no other tree was chosen
 * for it. Read, its leaves would be looked
 * for by scanning the whole file again, a table at a time (the seed's 50,000: hundreds of such tables,
 * each a read of the 945 MB file). The CLI's `DIR -o` says the same.
 */
function goneRows(t: TableEntry): string | null {
  const s = t.paired.system;
  if (!s || s.state !== 'dropped' || s.found !== null || s.index === null || t.target) return null;
  return `no page of its clustered index ${s.index.indexId} is left in ${t.file.name}: its rows are gone`;
}

function itemOf(t: TableEntry, timeZone: string): ListItem {
  return {
    definition: t.paired.system?.definition ?? null,
    guess: guessOf(t),
    db: dbOf(t),
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
  readonly format: ExportFormat;
  /** Each table's file, after its table (export-names.ts). */
  readonly paths: ExportPaths;
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
  /** What the last export wrote: a CSV per table, or one tables.sql. */
  format = $state<ExportFormat>('csv');
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

  /**
   * Exports every table; `how`: into a folder the user picks, or one download (tables.zip of CSVs,
   * or tables.sql); `format`: a CSV per table, or one SQL file of them all.
   */
  async start(how: 'folder' | 'zip', format: ExportFormat = 'csv'): Promise<void> {
    if (this.running) return;
    this.error = null;
    let target: AllTarget | null;
    try {
      const root = how === 'folder' ? await pickFolder() : null;
      if (how === 'folder' && !root) return;
      target = format === 'sql' ? sqlTarget(root) : root ? folderTarget(root) : zipTarget();
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
    this.format = format;
    this.total = tables.length;
    const started = performance.now();
    const release = this.ws.exportHold.begin();
    const run: Run = { target, format, paths: new ExportPaths(), problems: [], writing: Promise.resolve() };
    try {
      // (the listing's CSVs are CSVs: SQL is made anew)
      const zone = format === 'csv' ? this.ws.files.timeZone.zone : '';
      const gone = tables.filter((t) => goneRows(t) !== null);
      const rest = tables.filter((t) => listedCsv(t, zone) === null && goneRows(t) === null);
      const lanes = Array.from({ length: Math.max(1, this.ws.poolSize) }, () => this.#lane(run, rest));
      const unread = this.#write(run, gone, gone.map((t) => ({ table: null, bytes: null, rows: 0, problem: goneRows(t) })));
      await Promise.all([unread, this.#writeListed(run, tables.filter((t) => listedCsv(t, zone) !== null)), ...lanes]);
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
        const path = run.paths.of(entries[i], run.format);
        if (r.bytes) await run.target.add(path, r.bytes);
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
        results = await this.ws.runInPool((api: Api) => api.exportTables(items, sqls, run.format));
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
