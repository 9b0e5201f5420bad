/**
 * `ibd-reader DIR -o OUTDIR [--format csv|ndjson|parquet|sql]` (issue 38): every table of a datadir
 * (or any folder of table files) written to `OUTDIR/<db>/<table>.<ext>`: the tables inside ibdata1
 * (from its data dictionary, each with its .frm where there is one), the file-per-table ones (each
 * .ibd with its .frm, a partitioned table's partitions as one file), the dropped tables whose names
 * the dictionary still gives as `<db>/<table>.dropped.<ext>`, and the dropped trees whose table is
 * unknown as `#dropped/index-<id>.<ext>` (their columns guessed from the records). `OUTDIR/tables.tsv`
 * has a line per table: where its rows were, how many were written and withheld, its definition's
 * source and its problems. `--list-tables DIR` counts instead of writing (the same lines on stdout).
 *
 * The dictionary is read once and every dropped tree located by one scan of ibdata1 (InnodbFile keeps
 * it); files are paired by name through maps (datadir-walk.ts), so the cost grows with the tables.
 */
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pagesReplaced, recoveryAmiss, recoveryLines } from '../core/log/redo-recovery.ts';
import { fileSource } from '../node/file-source.ts';
import { openDatadirUndoAt } from '../node/undo-spaces.ts';
import { anythingAmiss } from '../core/readers/decode-stats.ts';
import { DefinitionMismatch } from '../core/readers/leaf-decoder.ts';
import type { DecodeStats } from '../core/readers/table-reader.ts';
import type { EncryptionKeys } from '../core/tablespace/encryption.ts';
import type { InnodbFile } from '../lib/innodb-file.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';
import type { TableEntry } from '../lib/table-entry.ts';
import type { TableDef } from '../core/schema.ts';
import type { DroppedIndex } from '../core/readers/dropped-indexes.ts';
import { openInnodb, openSharedRedoLog, type SharedRedoLog } from '../lib/node.ts';
import { datadirFiles, type FileTable } from './datadir-walk.ts';
import { tableRows, type OutFormat } from './datadir-rows.ts';
import { pooledCount } from './pooled-read.ts';
import { TableQueue } from './datadir-queue.ts';
import { PARALLEL_MIN_PAGES } from '../node/pool.ts';
import { serveRecoveredFile } from '../node/recovered-pages.ts';
import { problemLine } from './problem-lines.ts';
import { TableFiles } from './table-file.ts';
import { writePartitions } from './partitions.ts';
import { sqlIdent } from '../core/writers/output.ts';

export interface DatadirRun {
  dir: string;
  /** OUTDIR; null for --list-tables (counts on stdout). */
  out: string | null;
  format: OutFormat;
  threads: number;
  /** --json-strings: NDJSON values all strings, as CSV shows them. */
  jsonStrings: boolean;
  /** --system-columns: each table's rows end with DB_TRX_ID, DB_ROLL_PTR, page and heap number. */
  systemColumns?: boolean;
  keys: EncryptionKeys;
  timeZone: string;
  /** --schema with --index-id all: the definitions tried on each dropped tree whose own is lost (datadir-schema.ts). */
  given: readonly TableEntry[];
  /** stdout, for --list-tables. */
  write(text: string): Promise<void> | undefined;
  /** A line on stderr. */
  say(line: string): void;
}

/** A run with the output files it writes (their folders made once), and the datadir's redo log read once for all of its tables. */
type Run = DatadirRun & { files: TableFiles; sharedLog: SharedRedoLog | undefined };

/** A line of tables.tsv. */
interface TableLine {
  db: string;
  table: string;
  state: 'live' | 'dropped';
  /** The file its rows were read from, and the index when it is one of ibdata1's. */
  file: string;
  indexId: string;
  rows: number | null;
  withheld: number | null;
  definition: string;
  problems: string[];
  /** 0 all read, 2 some withheld or damaged, 1 nothing read. */
  status: number;
}

const TSV_HEADER = 'db\ttable\tstate\tfile\tindex_id\trows\trows_withheld\tdefinition\tproblems\n';
const cell = (v: string) => v.replace(/[\t\n\r\\]/g, (c) => ({ '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' })[c] ?? c);
const tsvLine = (t: TableLine) => `${[t.db, t.table, t.state, t.file, t.indexId, t.rows ?? '-', t.withheld ?? '-', t.definition, t.problems.join('; ')].map((v) => cell(String(v))).join('\t')}\n`;

/** A name as a file name: the path separators and NUL escaped the way the server escapes them (`@002f`). */
const fileName = (name: string) => name.replace(/[/\\\0]/g, (c) => `@${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const EXTENSIONS: Record<OutFormat, string> = { csv: 'csv', ndjson: 'ndjson', parquet: 'parquet', sql: 'sql' };

/** How often the progress line is said. */
const PROGRESS_MS = 2000;

class Progress {
  private said = Date.now();
  done = 0;
  constructor(private readonly run: Run, private total: number) {}
  /** More tables to do, found on the way. */
  add(n: number): void {
    this.total += n;
  }
  step(name: string): void {
    this.done++;
    if (Date.now() - this.said < PROGRESS_MS) return;
    this.said = Date.now();
    this.run.say(`${this.done} of ${this.total} tables ${this.run.out === null ? 'counted' : 'written'} (last: ${name})`);
  }
}

/** Tables read at once, per worker thread: enough to keep the threads busy while others wait on files. */
const TABLES_PER_THREAD = 4;

type Queue = TableQueue<TableLine>;

/** The rows of one opened table written to OUTDIR (or counted), its line's figures filled in; a table of many leaf pages alone on the worker threads. */
async function readOne(run: Run, queue: Queue, table: InnodbTable, paths: readonly string[], line: TableLine, path: string): Promise<void> {
  const wide = run.threads > 1 && (await table.reader.leafPages().catch(() => [])).length >= PARALLEL_MIN_PAGES;
  return wide ? queue.wide(() => readRows(run, table, paths, line, path)) : readRows(run, table, paths, line, path);
}

async function readRows(run: Run, table: InnodbTable, paths: readonly string[], line: TableLine, path: string): Promise<void> {
  try {
    await table.checkDefinition();
  } catch (e) {
    if (!(e instanceof DefinitionMismatch)) throw e;
    line.problems.push(`${e.message}; no row is decoded with it`);
    line.status = 1;
    return;
  }
  const space = await table.spaceDamage();
  line.problems.push(...space.warnings);
  let stats: DecodeStats;
  if (run.out === null) {
    const counted = await pooledCount(table, paths, run.threads);
    line.rows = counted.count.rows;
    stats = counted.stats;
  } else {
    const written = await run.files.with(path, (write) => tableRows(table, paths, { format: run.format, db: line.db.startsWith('#') ? null : line.db, threads: run.threads, jsonStrings: run.jsonStrings, file: path, write, warn: (m) => line.problems.push(m) }));
    line.rows = written.rows;
    stats = written.stats;
    if (written.amiss) line.status = Math.max(line.status, 2);
  }
  line.withheld = stats.damagedWithheld;
  line.problems.push(...stats.problems.map((p) => problemLine(table.info.file, p)));
  if (space.damaged || anythingAmiss(stats) || table.info.leafSource === 'scan') line.status = Math.max(line.status, 2);
}

function newLine(db: string, table: string, state: TableLine['state'], file: string, indexId: string, definition: string): TableLine {
  return { db, table, state, file, indexId, rows: null, withheld: null, definition, problems: [], status: 0 };
}

const splitName = (name: string): [string, string] => {
  const slash = name.indexOf('/');
  return slash < 0 ? ['', name] : [name.slice(0, slash), name.slice(slash + 1)];
};

/** Where a table's rows go: `db/table.ext`, `db/table.dropped.ext`, `#dropped/index-N.ext`. */
function outPath(run: Run, db: string, name: string): string {
  return join(run.out ?? '', fileName(db === '' ? '#nodb' : db), `${fileName(name)}.${EXTENSIONS[run.format]}`);
}

/**
 * Every table of the system tablespace's dictionary whose rows are in it, the dropped tables its
 * freed dictionary pages name, then its dropped trees no table names (all found by one read of the file).
 */
async function systemTables(run: Run, file: InnodbFile, queue: Queue, progress: Progress): Promise<void> {
  // Its path, not its name: the worker threads open it (a table of many leaf pages).
  const paths = [join(run.dir, file.name)];
  const named = new Set<string>();
  const used = new Set<string>();
  const dictionary = file.tables();
  for (const entry of dictionary) for (const i of entry.dictionary?.table.indexes ?? []) named.add(String(i.id));
  run.say(`${file.name}: looking for dropped tables and their trees (one read of the whole file)`);
  const trees = new Set((await file.droppedIndexes()).map((d) => String(d.indexId)));
  const recovered = (await file.recoveredTables()).filter((e) => !e.dictionary?.table.indexes.some((i) => named.has(String(i.id))));
  if (recovered.length > 0) run.say(`${file.name}: ${recovered.length} dropped tables named by the dictionary records on pages the server freed`);
  progress.add(recovered.length);
  for (const entry of [...dictionary, ...recovered]) {
    const t = entry.dictionary?.table;
    if (t === undefined || t.spaceId !== 0) continue;
    for (const i of t.indexes) named.add(String(i.id));
    const state = t.state === 'live' ? 'live' : 'dropped';
    const [db, name] = splitName(entry.name);
    const indexId = String(entry.clusteredIndex?.indexId ?? '-');
    const line = newLine(db, name, state, file.name, indexId, entry.source);
    line.problems.push(...entry.disagreements, ...(entry.dictionary?.notes ?? []));
    let path = outPath(run, db, state === 'live' ? name : `${name}.dropped`);
    if (used.has(path)) path = outPath(run, db, `${name}.dropped-${t.id}`);
    used.add(path);
    if (state === 'dropped' && !trees.has(indexId)) {
      line.problems.push(`no page of its clustered index ${indexId} is left in ${file.name}: its rows are gone`);
      line.status = 1;
      await queue.add(() => Promise.resolve(line));
    } else {
      const at = path;
      await queue.add(() => readEntry(run, queue, file, paths, entry, line, at));
    }
  }
  const unnamed = (await file.droppedIndexes()).filter((d) => !named.has(String(d.indexId)));
  progress.add(unnamed.length);
  for (const d of unnamed) await queue.add(() => unnamedTree(run, queue, file, paths, d));
}

/** A dropped tree no dictionary record names, read with the columns its records suggest. */
async function unnamedTree(run: Run, queue: Queue, file: InnodbFile, paths: readonly string[], d: DroppedIndex): Promise<TableLine> {
  const line = newLine('#dropped', `index-${d.indexId}`, 'dropped', file.name, String(d.indexId), 'guess');
  const path = outPath(run, '#dropped', `index-${d.indexId}`);
  try {
    const given = await fittingTable(run, file, d, line);
    if (given !== null) return (await readOne(run, queue, given, paths, line, path), line);
    const guessed = await file.guess(d.indexId, { compact: d.compact, rootLeaf: d.rootPage !== null && d.leafPages === 1 && d.pages === 1 ? d.rootPage : -1 });
    line.problems.push(`its table's dictionary rows are lost: the columns are guessed from the records (${guessed.definition.columns.length} columns), and it may be a secondary index`);
    if (guessed.guess.uncertain !== null) {
      line.problems.push(`the columns were only partly guessed: ${guessed.guess.uncertain.columns} left out of every row`);
      line.status = 2;
    }
    await readOne(run, queue, await file.table(guessed, { indexId: d.indexId, timeZone: run.timeZone, systemColumns: run.systemColumns }), paths, line, path);
  } catch (e) {
    line.problems.push(`not read: ${(e as Error).message}`);
    line.status = 1;
  }
  return line;
}

/** The first given table whose definition the tree's records fit, opened on it; why each did not fit goes to its line. */
async function fittingTable(run: Run, file: InnodbFile, d: DroppedIndex, line: TableLine): Promise<InnodbTable | null> {
  const misfits: string[] = [];
  for (const entry of run.given) {
    const table = await file.table(entry, { indexId: d.indexId, timeZone: run.timeZone, systemColumns: run.systemColumns });
    try {
      await table.checkDefinition();
      line.definition = `${entry.source} (${entry.file}: ${entry.name})`;
      line.problems.push(`its table's dictionary rows are lost: read with ${entry.name} of ${entry.file} (--schema), whose definition its records fit`);
      return table;
    } catch (e) {
      if (!(e instanceof DefinitionMismatch)) throw e;
      misfits.push(`${entry.name} of ${entry.file}: ${e.detail}`);
    }
  }
  const more = misfits.length > 3 ? `; and ${misfits.length - 3} more` : '';
  if (misfits.length > 0) line.problems.push(`no table of --schema fits its records (${misfits.slice(0, 3).join('; ')}${more})`);
  return null;
}

async function readEntry(run: Run, queue: Queue, file: InnodbFile, paths: readonly string[], entry: TableEntry, line: TableLine, path: string): Promise<TableLine> {
  try {
    await readOne(run, queue, await file.table(entry, { timeZone: run.timeZone, systemColumns: run.systemColumns }), paths, line, path);
  } catch (e) {
    line.problems.push(`not read: ${(e as Error).message}`);
    line.status = 1;
  }
  return line;
}

/** A table of its own file(s): one .ibd with its .frm (else the dictionary's definition of its space), or its partitions. */
async function fileTable(run: Run, queue: Queue, t: FileTable, system: string | null): Promise<TableLine> {
  const line = newLine(t.db, t.table, 'live', t.ibds.map((p) => p.slice(run.dir.length + 1)).join(' '), '-', t.frm !== null ? 'frm' : 'dictionary');
  const path = outPath(run, t.db, t.table);
  try {
    if (t.ibds.length > 1 || /#p#/i.test(t.ibds[0])) return await queue.wide(async () => partitioned(run, t, line, path, await partitionDictionary(run, t, system)));
    const file = await openInnodb(t.ibds[0], { files: t.frm === null ? [] : [t.frm], keys: run.keys, dictionary: system ?? undefined, sharedLog: run.sharedLog });
    try {
      const entry = file.definition(null);
      line.definition = entry.source;
      line.problems.push(...file.warnings, ...entry.disagreements);
      // Recovered pages are made in this thread; the worker threads' reads of the file are served from them.
      const served = await serveRecoveredFile(file, [t.ibds[0]]);
      try {
        await readOne(served === null ? recoveredRun(run, file) : run, queue, await file.table(entry, { timeZone: run.timeZone, systemColumns: run.systemColumns }), [t.ibds[0]], line, path);
      } finally {
        served?.();
      }
      sayRecovery(file, line);
    } finally {
      await file.close();
    }
  } catch (e) {
    line.problems.push(`not read: ${(e as Error).message}`);
    line.status = 1;
  }
  return line;
}

/** A partitioned table's partitions as one table (partitions.ts), its rows counted as they are written. */
async function partitioned(run: Run, t: FileTable, line: TableLine, path: string, definition: TableDef | undefined): Promise<TableLine> {
  const counter = new RecordCounter(run.format);
  let counted = '';
  const read = (write: (chunk: string | Uint8Array) => Promise<void> | undefined) => writePartitions({
    paths: t.ibds, sharedLog: run.sharedLog, schema: null, definition, table: null, keys: run.keys, rows: 'live', index: null, partitionColumn: false, timeZone: run.timeZone, threads: run.threads, range: null, jsonStrings: run.jsonStrings, systemColumns: run.systemColumns,
    format: run.format, output: path, count: run.out === null, write,
    say: (l) => (l.startsWith('warning: ') ? line.problems.push(l.slice(9)) : undefined),
  });
  // --list-tables: the count is what is written; else the rows, counted on their way out.
  if (run.out === null) {
    line.status = await read((chunk) => void (counted += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk)));
    line.rows = Number.parseInt(counted, 10);
  } else {
    line.status = await run.files.with(path, async (write) => {
      if (run.format === 'sql') await write(`CREATE DATABASE IF NOT EXISTS ${sqlIdent(t.db)};\nUSE ${sqlIdent(t.db)};\n`);
      return read((chunk) => (counter.add(chunk), write(chunk)));
    });
    line.rows = run.format === 'parquet' || run.format === 'sql' ? null : counter.rows();
  }
  return line;
}

/**
 * A partitioned table without its .frm: the definition ibdata1's dictionary gives its first
 * partition's space (the same columns in every partition; it keeps no PARTITION BY clause).
 */
async function partitionDictionary(run: Run, t: FileTable, system: string | null): Promise<TableDef | undefined> {
  if (t.frm !== null || system === null) return undefined;
  const file = await openInnodb(t.ibds[0], { files: [], keys: run.keys, dictionary: system, sharedLog: run.sharedLog });
  try {
    return { ...file.definition(null).definition, name: t.table };
  } finally {
    await file.close();
  }
}

/** Rows in CSV or NDJSON text as it is written: its records (a newline outside quotes), less CSV's header. */
class RecordCounter {
  private records = 0;
  private quoted = false;
  constructor(private readonly format: OutFormat) {}
  add(chunk: string | Uint8Array): void {
    const text = typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22 && this.format === 'csv') this.quoted = !this.quoted;
      else if (c === 0x0a && !this.quoted) this.records++;
    }
  }
  rows(): number {
    return this.format === 'csv' ? Math.max(0, this.records - 1) : this.records;
  }
}

/** Reads every table of `run.dir`; the exit status over all of them. */
export async function readDatadir(given: DatadirRun): Promise<number> {
  const found = datadirFiles(given.dir);
  if (found.system === null && found.tables.length === 0) throw new Error(`${given.dir}: no ibdata1 and no .ibd file in it or in its folders`);
  // Its census taken once, not a scan of the whole log for each table (and the doublewrite buffer read once).
  const sharedLog = (await openSharedRedoLog(given.dir)) ?? undefined;
  try {
    return await readTables({ ...given, files: new TableFiles(), sharedLog }, found);
  } finally {
    await sharedLog?.close();
  }
}

async function readTables(run: Run, found: ReturnType<typeof datadirFiles>): Promise<number> {
  if (run.out !== null) mkdirSync(run.out, { recursive: true });
  const tsv = run.out === null ? null : createWriteStream(join(run.out, 'tables.tsv'));
  const lines: TableLine[] = [];
  const progress = new Progress(run, found.tables.length);
  const queue = new TableQueue<TableLine>(Math.max(1, run.threads) * TABLES_PER_THREAD, async (line) => {
    lines.push({ ...line, problems: [] });
    const text = tsvLine(line);
    if (tsv === null) await run.write(text);
    else if (!tsv.write(text)) await new Promise<void>((resolve) => tsv.once('drain', resolve));
    progress.step(line.db === '' ? line.table : `${line.db}/${line.table}`);
  });
  try {
    if (tsv === null) await run.write(TSV_HEADER);
    else tsv.write(TSV_HEADER);
    if (found.system !== null) {
      const file = await openInnodb(found.system, { keys: run.keys, sharedLog: run.sharedLog });
      try {
        progress.add(file.tables().length);
        for (const w of file.warnings) run.say(`warning: ${w}`);
        await systemTables(recoveredRun(run, file), file, queue, progress);
        // Every table of the file read before it is closed.
        await queue.drain();
        if (file.recovery !== null && recoveryAmiss(file.recovery)) for (const l of recoveryLines(file.name, file.recovery)) run.say(`warning: ${l}`);
      } finally {
        await file.close();
      }
    }
    for (const t of found.tables) await queue.add(() => fileTable(run, queue, t, found.system));
    await queue.drain();
  } finally {
    if (tsv !== null) await new Promise<void>((resolve) => tsv.end(resolve));
  }
  const active = found.system === null ? [] : await activeAtCrash(run, found.system);
  if (active.length > 0) {
    run.say(`warning: transaction${active.length === 1 ? '' : 's'} ${active.join(', ')} ${active.length === 1 ? 'was' : 'were'} active at the crash: a folder's read does not roll ${active.length === 1 ? 'it' : 'them'} back, so the rows ${active.length === 1 ? 'it' : 'they'} changed are written as on disk; read a table alone (ibd-reader DB/T.ibd) for its rows as the server's recovery leaves them`);
  }
  return Math.max(summary(run, lines), active.length > 0 ? 2 : 0);
}

/** The run a file is read with: on this thread alone where the redo log recovered its pages and its worker threads' reads are not served from them. */
function recoveredRun(run: Run, file: InnodbFile): Run {
  return pagesReplaced(file.recovery) ? { ...run, threads: 1 } : run;
}

/** Where the datadir's redo log was not applied to a table's file, or failed some page: said on its line, status 2 (rows may be stale). */
function sayRecovery(file: InnodbFile, line: TableLine): void {
  if (file.recovery === null || !recoveryAmiss(file.recovery)) return;
  line.problems.push(...recoveryLines(file.name, file.recovery).filter((l) => / not applied| may be stale/.test(l)));
  line.status = Math.max(line.status, 2);
}

/** The transactions active at a crash (XA PREPARED ones the server keeps as they are), as the undo logs beside `system` (read through the datadir's redo log) hold them. */
async function activeAtCrash(run: Run, system: string): Promise<number[]> {
  const logPath = join(dirname(system), 'ib_logfile0');
  // The run's log, its census taken already, where it is this one.
  const shared = run.sharedLog?.path === resolve(logPath) ? run.sharedLog : null;
  const log = shared === null && existsSync(logPath) ? await fileSource(logPath) : undefined;
  try {
    const undo = await openDatadirUndoAt(system, shared?.log ?? log, run.keys, shared?.census);
    try {
      return undo.logs.logs.filter((l) => l.state === 'active').map((l) => l.header.trxId);
    } finally {
      await undo.close();
    }
  } catch (e) {
    run.say(`warning: the undo logs of ${system} cannot be read (${(e as Error).message}): transactions active at a crash, if any, are not known`);
    return [];
  } finally {
    await log?.close();
  }
}

/** The totals on stderr; 0 when every table was read whole, 1 when none could be, else 2. */
function summary(run: Run, lines: readonly TableLine[]): number {
  const failed = lines.filter((l) => l.status === 1).length;
  const amiss = lines.filter((l) => l.status === 2).length;
  const rows = lines.reduce((n, l) => n + (l.rows ?? 0), 0);
  const dropped = lines.filter((l) => l.state === 'dropped').length;
  run.say(`${run.dir}: ${lines.length} tables (${dropped} dropped), ${rows} rows ${run.out === null ? 'counted' : `written to ${run.out}`}; ${failed} not read, ${amiss} with rows withheld or damaged${run.out === null ? '' : ` (see ${join(run.out, 'tables.tsv')})`}`);
  if (lines.length > 0 && failed === lines.length) return 1;
  return failed + amiss > 0 ? 2 : 0;
}
