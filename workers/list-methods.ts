/**
 * Many tables at once (issue 6: 10,000 one-row tables and one mysqldump): the page hands a worker a
 * batch of table files per call instead of one call (or three) per file, and the worker keeps every
 * .sql it parsed, so a dump with 10,000 CREATE TABLEs is parsed once per worker, not once per file.
 *
 *  - `listTables`: for each file its summary and its table definition. Small files get the full
 *    summary (exact row count and every page's checksum: a few pages, cheaper than another round
 *    trip), and where it saw a damaged page, the live rows as a read counts them (a damaged page's
 *    rows are withheld); large ones only the quick one (page 0 and the roots), their full scan
 *    comes later. Tiny files (a few pages) also get their CSV, as "Export all tables" would make
 *    it: decoding their few rows costs about what their checksums do, while reading the file again
 *    later costs a Blob read.
 *  - `exportTables`: each table decoded whole into one CSV (header + rows), for "Export all tables",
 *    with what it left out (damaged pages and their rows withheld, records, pages).
 *
 * Reading: in Chromium every Blob read costs about a millisecond of the browser's own I/O thread,
 * whatever its size, so a file is read once per call, whole when small, and small files are read
 * several at a time, as one Blob made of them.
 *
 * Plain TypeScript over the decoder core, mixed into the decoder worker's API.
 */
import * as Comlink from 'comlink';
import { csvBytes } from '../src/core/writers/csv-bytes.ts';
import { csvHeader } from '../src/core/writers/output.ts';
import type { TableDef } from '../src/core/schema.ts';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { partitionNamesOfClause } from '../src/core/definitions/partitions.ts';
import { tableNameOfFile } from '../src/core/definitions/frm/index.ts';
import { fileKind, resolveSchema } from '../src/core/definitions/schema-source.ts';
import { blobSource, bytesSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { fileSource, rollbackOf, throughLog } from './redo-sources.ts';
import { PageMap, type PackedPageMap } from '../src/core/readers/page-map.ts';
import { quickSummary, summarize, type TablespaceSummary } from '../src/core/readers/summary.ts';
import { countLiveRows } from '../src/core/readers/leaf-counts.ts';
import { openTable, type OpenOptions, type TableReader } from '../src/core/readers/table-reader.ts';
import { openPartitionSources } from '../src/lib/partitioned-table.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import { readProblems } from '../src/ui/recovery/damage.ts';
import type { NamedBlob, ResolvedSchemaResult, TableChoice } from './schema-api.ts';
import { choiceNames, isSystemFileName, resolveSystem, withDictionaryBeside, type Resolved } from './system-methods.ts';
import type { EncryptionKeys } from '../src/core/tablespace/encryption.ts';
import { guessedDefinition, rowsSql, SystemDefinitions, type GuessTarget } from './system-export.ts';
import { NotInnodbError } from '../src/core/errors.ts';

/** One table file of a batch, with the file beside it that defines it (if any). */
export interface ListItem {
  ibd: Blob;
  name: string;
  /** Its .frm, else the ibdata1 of its datadir (whose data dictionary may define it). */
  frm: NamedBlob | null;
  /** The definition the user chose (exportTables), else the one resolveSchema picks. */
  chosen?: string | null;
  /**
   * exportTables: the definition the listing already found, when it came from a .sql (`picked` of
   * resolveSchema, source 'sql'): taken from the parsed .sql by name, without resolving again.
   */
  fromSql?: { file: string; table: string } | null;
  /** exportTables: the zone TIMESTAMP values are written in (default UTC, as the listing's CSVs are). */
  timeZone?: string;
  /** exportTables: the B-tree holding the rows, when page 0 does not lead to it (a table of a system tablespace). */
  index?: OpenOptions['index'];
  /** exportTables: read as a raw image (a system tablespace's dropped index whose root is lost). */
  raw?: OpenOptions['raw'];
  /** exportTables: a partitioned table's partitions (`ibd` is the first) and its .par, read as one table. */
  partitions?: NamedBlob[];
  companions?: NamedBlob[];
  /** exportTables: the definition to read it with, found by the listing (a dropped table's, from the dictionary pages the server freed). */
  definition?: TableDef | null;
  /** exportTables: a dropped tree whose table is unknown and no definition chosen: its columns guessed from its records. */
  guess?: GuessTarget | null;
  /** exportTables as SQL: the database it is created in (null: none). */
  db?: string | null;
}

/** What exportTables writes of each table: a CSV (header + rows), or SQL (database, CREATE TABLE, INSERTs). */
export type ExportFormat = 'csv' | 'sql';

export interface ListedTable {
  summary: TablespaceSummary | null;
  /** The CSV "Export all tables" would write (files of at most `csvBelow` bytes with a definition). */
  csv: ExportedTable | null;
  summaryError: string | null;
  /**
   * The definition found. When one is picked, `tables` holds only that one: a dump's 10,000 other
   * CREATE TABLEs are not copied into every table's answer (the page asks again when it opens one).
   */
  resolved: ResolvedSchemaResult | null;
  resolveError: string | null;
  /**
   * The live rows as a read counts them (leaf-counts.ts countLiveRows: a damaged page holds none),
   * where the full summary saw a damaged page, whose records it counts; null otherwise.
   */
  live: { rows: number; damagedPages: number; unreadablePages: number } | null;
  /** The page map the full summary filled (small files), for the summary worker's map of the file (page-map-methods.ts). */
  pageMap: PackedPageMap | null;
}

export interface ExportedTable {
  /** Name of the table definition used (null: none). */
  table: string | null;
  /** The CSV (header + rows, UTF-8), or null when the table could not be read. */
  bytes: Uint8Array | null;
  rows: number;
  /** Why there is no CSV, or what went wrong on the way (damaged pages, records). */
  problem: string | null;
}

export interface ListOptions {
  /** Files this small or smaller get the full summary (count + checksums). */
  fullBelow: number;
  /** Files this small or smaller also get their CSV (`ListedTable.csv`). */
  csvBelow: number;
  /** The encryption keys given so far (an encrypted file's summary reads its pages). */
  keys?: EncryptionKeys;
}

export interface ListMethods {
  listTables(items: ListItem[], sqls: NamedBlob[], options: ListOptions): Promise<ListedTable[]>;
  /**
   * The first tables of `items`, at least one, until their CSVs add up to EXPORT_BATCH_BYTES: the
   * page sends the rest again (memory stays bounded without the page reading each File's size).
   */
  exportTables(items: ListItem[], sqls: NamedBlob[], format?: ExportFormat): Promise<ExportedTable[]>;
}

/** .ibd files this small are read whole, in one read, in exportTables. */
const WHOLE_BELOW = 4 << 20;
/** exportTables answers once its CSVs add up to this much. */
const EXPORT_BATCH_BYTES = 32 << 20;
/** listTables makes CSVs until they add up to this much (the page keeps them). */
const LIST_CSV_BYTES = 8 << 20;
/** Small files read together, in one Blob read, up to this many bytes. */
const GROUP_BYTES = 8 << 20;

/**
 * Groups of consecutive items read together: small ones (at most `wholeBelow` bytes) up to
 * GROUP_BYTES a group; a larger one alone, read by slices as it is decoded.
 */
function readGroups(items: readonly ListItem[], wholeBelow: number): number[][] {
  const groups: number[][] = [];
  let bytes = GROUP_BYTES;
  items.forEach((item, i) => {
    const size = item.ibd.size;
    if (size > wholeBelow) {
      groups.push([i]);
      bytes = GROUP_BYTES;
      return;
    }
    if (bytes + size > GROUP_BYTES) {
      groups.push([]);
      bytes = 0;
    }
    groups[groups.length - 1].push(i);
    bytes += size;
  });
  return groups;
}

/** Each item's bytes, from one read of the Blob made of them all. */
async function readTogether(group: readonly ListItem[]): Promise<Uint8Array[]> {
  const all = new Uint8Array(await new Blob(group.map((item) => item.ibd)).arrayBuffer());
  const out: Uint8Array[] = [];
  let at = 0;
  for (const item of group) {
    out.push(all.subarray(at, at + item.ibd.size));
    at += item.ibd.size;
  }
  if (at !== all.length) throw new Error('a file changed size while it was read');
  return out;
}

/** A file's bytes as a ByteSource, or why it could not be read. */
type Read = ByteSource | Error;

/**
 * A large file, read by slices as it is decoded, through the worker's one source of it (`fileSource`:
 * read through its datadir's log, kept by name, size and date): the many tables of one ibdata1 share
 * its opened tablespace, its pages checked once and its chunks read once, instead of each table
 * opening the file afresh (at 5,000 dropped tables of the seed's datadir, two 1 MiB chunks read and
 * checksummed per table: 15 CPU-ms a table in "Export all tables").
 */
function isAlone(group: readonly ListItem[], wholeBelow: number): boolean {
  return group.length === 1 && group[0].ibd.size > wholeBelow;
}

/** One group's sources (a large file's through its log already). If the read of them all fails, each file alone: its own error, if any. */
async function readGroup(group: readonly ListItem[], wholeBelow: number): Promise<Read[]> {
  if (isAlone(group, wholeBelow)) return [await fileSource(group[0].ibd, group[0].name)];
  try {
    const bytes = await readTogether(group);
    return group.map((item, i) => bytesSource(bytes[i], item.name));
  } catch {
    return Promise.all(group.map(async (item) => {
      try {
        return bytesSource(new Uint8Array(await item.ibd.arrayBuffer()), item.name);
      } catch (err) {
        return err instanceof Error ? err : new Error(String(err));
      }
    }));
  }
}

/** Groups read ahead of the one being worked on (their reads overlap its decoding). */
const GROUPS_AHEAD = 1;

/**
 * Every item's ByteSource, its group read GROUPS_AHEAD groups before it is needed; items are asked
 * for in order, each once. A table's summary, definition and rows read its first pages several times
 * over: a small file is read whole, once.
 */
function readAhead(items: readonly ListItem[], wholeBelow: number): (i: number) => Promise<ByteSource> {
  const groups = readGroups(items, wholeBelow);
  const groupOf: number[] = [];
  groups.forEach((g, k) => {
    for (const i of g) groupOf[i] = k;
  });
  const reads: (Promise<Read[]> | undefined)[] = [];
  return async (i) => {
    const k = groupOf[i];
    for (let j = k; j < Math.min(groups.length, k + 1 + GROUPS_AHEAD); j++) reads[j] ??= readGroup(groups[j].map((n) => items[n]), wholeBelow);
    const read = (await reads[k]!)[groups[k].indexOf(i)];
    // The group's bytes are let go once its last file is handed out.
    if (i === groups[k][groups[k].length - 1]) reads[k] = Promise.resolve([]);
    if (read instanceof Error) throw read;
    return isAlone([items[i]], wholeBelow) ? read : throughLog(items[i].ibd, items[i].name, read);
  };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message || err.name : String(err);
}

/** The parsed .sql files, kept for the worker's life (a File arrives as a new object each call). */
const sqlCache: NonNullable<Parameters<typeof resolveSchema>[2]> = new Map();

interface ParsedSql {
  /** The ByteSource sqlCache knows the file by. */
  source: ByteSource;
  /** Its CREATE TABLEs by lower-case name. */
  byName: Promise<Map<string, TableDef[]>>;
}

/** By path, size and modification time (together they name the same file). */
const sqlFiles = new Map<string, ParsedSql>();
const MAX_SQL_FILES = 16;

function parsedSql(f: NamedBlob): ParsedSql {
  const key = `${f.name}\u0000${f.blob.size}\u0000${f.blob instanceof File ? f.blob.lastModified : ''}`;
  let p = sqlFiles.get(key);
  if (!p) {
    if (sqlFiles.size >= MAX_SQL_FILES) {
      const [oldKey, old] = sqlFiles.entries().next().value as [string, ParsedSql];
      sqlFiles.delete(oldKey);
      sqlCache.delete(old.source);
    }
    const source = blobSource(f.blob, f.name);
    // As schema-source.ts's own cache would parse it.
    const parsed = (async () => {
      try {
        return { tables: parseCreateTables(new TextDecoder('utf-8').decode(await source.read(0, source.size))), error: null };
      } catch (e) {
        return { tables: [] as TableDef[], error: `${source.name}: ${message(e)}` };
      }
    })();
    sqlCache.set(source, parsed);
    const byName = parsed.then(({ tables }) => {
      const m = new Map<string, TableDef[]>();
      for (const t of tables) {
        const k = t.name.toLowerCase();
        const list = m.get(k);
        if (list) list.push(t);
        else m.set(k, [t]);
      }
      return m;
    });
    p = { source, byName };
    sqlFiles.set(key, p);
  }
  return p;
}

/**
 * resolveSchema with the worker's parsed .sql files (each parsed once for the worker's life). A
 * dump holding a CREATE TABLE named like the .ibd stands in for resolveSchema as holding only
 * those: it picks the same table (an exact or case-blind name match comes first), without looking
 * through and copying the 10,000 others for every table (that made listing quadratic).
 */
export async function resolveCached(ibd: ByteSource, files: readonly NamedBlob[], chosen: string | null = null): Promise<Resolved> {
  const own = tableNameOfFile(ibd.name).toLowerCase();
  const stand: ByteSource[] = [];
  // The system tablespace of an .ibd's datadir, given when no .frm is (its dictionary may define it).
  const dictionary = files.find((f) => isSystemFileName(f.name));
  const others = await Promise.all(files.filter((f) => f !== dictionary).map(async (f) => {
    if (fileKind(f.name) !== 'sql') return blobSource(f.blob, f.name);
    const p = parsedSql(f);
    const named = (await p.byName).get(own);
    if (!named) return p.source;
    const s: ByteSource = { name: p.source.name, size: p.source.size, read: (o, l) => p.source.read(o, l) };
    sqlCache.set(s, Promise.resolve({ tables: named, error: null }));
    stand.push(s);
    return s;
  }));
  try {
    // A system tablespace (ibdata1, no .ibd name): the tables of its data dictionary.
    const system = fileKind(ibd.name) === 'other' ? await resolveSystem(ibd, others, sqlCache, chosen) : null;
    if (system) return system;
    const resolved = await resolveSchema(ibd, others, sqlCache);
    return dictionary ? await withDictionaryBeside(ibd, resolved, await fileSource(dictionary.blob, dictionary.name)) : resolved;
  } finally {
    for (const s of stand) sqlCache.delete(s);
  }
}

/** The definition `item.fromSql` names, if that .sql is among `sqls` and defines it once. */
async function knownTable(item: ListItem, sqls: readonly NamedBlob[]): Promise<TableDef | null> {
  const known = item.fromSql;
  if (!known || item.chosen) return null;
  const file = sqls.find((f) => f.name === known.file);
  if (!file) return null;
  const named = (await parsedSql(file).byName).get(known.table.toLowerCase())?.filter((t) => t.name === known.table) ?? [];
  return named.length === 1 ? named[0] : null;
}

function resolvedResult(r: Resolved): ResolvedSchemaResult {
  const picked = r.table ? r.candidates.find((c) => c.table === r.table) : undefined;
  // A dump's candidates are every CREATE TABLE in it; a file's own dictionary (several tables in a
  // general tablespace, an ibdata1's) stays whole, with the index of each (as the worker's resolveSchema gives it).
  const several = r.candidates.filter((c) => c.source === 'sdi').length > 1;
  const names = choiceNames(r.candidates);
  const choice = (c: (typeof r.candidates)[number]): TableChoice => ({
    name: names[r.candidates.indexOf(c)]!, columnCount: c.table.columns.length, source: c.source, file: c.file,
    ...(c.clusteredIndex && (several || c.source !== 'sdi') ? { clusteredIndex: c.clusteredIndex } : {}),
  });
  return {
    tables: picked && picked.source === 'sql' ? [choice(picked)] : r.candidates.map(choice),
    picked: r.table?.name ?? null,
    source: r.source,
    file: r.file,
    warnings: r.warnings,
    error: r.error,
  };
}

/**
 * The table decoded whole into one CSV (header + rows), as "Export all tables" writes it, or into SQL
 * (`sql`: its database); of a crashed datadir, the transactions active at the crash rolled back
 * (`item`'s file: redo-sources.ts).
 */
async function tableCsv(item: ListItem, ibd: ByteSource, table: TableDef, target: Pick<OpenOptions, 'index' | 'raw'>, timeZone = 'UTC', sql?: { db: string | null }): Promise<ExportedTable> {
  const versions = (await rollbackOf(item.ibd, item.name))?.taken?.versions ?? null;
  const reader = await openTable(ibd, table, { ...target, timeZone, versions });
  // A definition that does not fit gives no CSV (its verdict is the problem), not rows of garbage.
  await reader.checkDefinition();
  if (!sql) return rowsCsv(reader, table);
  const bytes = await rowsSql(reader, table, sql.db, ibd.name);
  return { table: table.name, bytes, rows: reader.stats.rowsDecoded, problem: readProblems(reader.stats) };
}

/** The definition an item of exportTables is read with: given, the .sql's, its system tablespace's, guessed, or resolved. */
async function exportDefinition(item: ListItem, ibd: ByteSource, sqls: readonly NamedBlob[], system: SystemDefinitions): Promise<TableDef> {
  const table = item.definition ?? (await knownTable(item, sqls))
    ?? (item.chosen && isSystemFileName(item.name) ? await system.of(ibd, item.chosen) : null)
    ?? (item.guess && !item.chosen ? await guessedDefinition(ibd, item.guess) : null);
  if (table) return table;
  const r = await resolveCached(ibd, item.frm ? [item.frm, ...sqls] : sqls);
  const chosen = item.chosen ? r.candidates[choiceNames(r.candidates).indexOf(item.chosen)]?.table : undefined;
  const found = chosen ?? r.table;
  if (!found) throw new Error(r.error ?? `no table definition for ${item.name}`);
  return found;
}

/**
 * A partitioned table's partitions (`item.partitions`, in the order of its .par or definition) read as
 * one table (a crash's open transactions rolled back in every partition): one CSV, each row ending
 * with its partition; or with `sql`, the statements of the CLI's `--format sql`: its CREATE TABLE with
 * the PARTITION BY clause the definition keeps (a .frm does; else unpartitioned, said), then INSERTs,
 * which the server puts back in their partitions.
 */
async function partitionedRows(item: ListItem, table: TableDef, sql?: { db: string | null }): Promise<ExportedTable> {
  const named = (f: NamedBlob) => blobSource(f.blob, f.name);
  const parts = await Promise.all((item.partitions ?? []).map((f) => fileSource(f.blob, f.name, () => named(f))));
  const first = item.partitions?.[0];
  const versions = first ? ((await rollbackOf(first.blob, first.name))?.taken?.versions ?? null) : null;
  const opened = await openPartitionSources(parts, (item.companions ?? []).map(named), { definition: table, partitionColumn: !sql, timeZone: item.timeZone, versions });
  if (!sql) return rowsCsv(opened, table);
  const files = parts.map((p) => p.name).join(', ');
  const unpartitioned = partitionNamesOfClause(table.createSql) === null ? `no definition found gives its PARTITION BY clause: it is created unpartitioned, with the same rows` : null;
  const bytes = await rowsSql(opened, table, sql.db, files, unpartitioned);
  return { table: table.name, bytes, rows: opened.stats.rowsDecoded, problem: [unpartitioned, readProblems(opened.stats)].filter((p) => p).join('; ') || null };
}

/** Every row of `reader` (a table, or a partitioned table's partitions) into one CSV. */
async function rowsCsv(reader: Pick<TableReader, 'batches' | 'stats'> & { columns: readonly string[] }, table: TableDef): Promise<ExportedTable> {
  const parts: Uint8Array[] = [new TextEncoder().encode(csvHeader(reader.columns))];
  let size = parts[0].length;
  for await (const batch of reader.batches({ batchSize: 5000, separated: true })) {
    const bytes = csvBytes(batch);
    parts.push(bytes);
    size += bytes.length;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { table: table.name, bytes, rows: reader.stats.rowsDecoded, problem: readProblems(reader.stats) };
}

/** One file of listTables: summary, definition, and the CSV when `csv` (the file is tiny). */
async function listOne(item: ListItem, ibd: ByteSource, sqls: readonly NamedBlob[], options: ListOptions, csv: boolean): Promise<ListedTable> {
  const row: ListedTable = { summary: null, csv: null, summaryError: null, resolved: null, resolveError: null, live: null, pageMap: null };
  try {
    if (item.ibd.size <= options.fullBelow) {
      const pageMap = new PageMap();
      row.summary = await summarize(ibd, { keys: options.keys, pageMap });
      row.pageMap = pageMap.pack();
    } else row.summary = await quickSummary(ibd, options.keys);
  } catch (err) {
    row.summaryError = message(err);
    // No InnoDB page at all: that is the answer, not a missing table definition.
    if (err instanceof NotInnodbError) return { ...row, resolveError: row.summaryError };
  }
  const s = row.summary;
  if (s?.rows != null && (s.checksums.bad > 0 || s.problems.length > 0)) {
    const live = await countLiveRows(await Tablespace.open(ibd, { keys: options.keys })).catch(() => null);
    if (live) row.live = { rows: live.rows, damagedPages: live.damaged, unreadablePages: live.uncounted };
  }
  let table: TableDef | null = null;
  try {
    const r = await resolveCached(ibd, item.frm ? [item.frm, ...sqls] : sqls);
    row.resolved = resolvedResult(r);
    table = r.table;
  } catch (err) {
    row.resolveError = message(err);
  }
  // Only a CSV made whole is kept: a failure is left to the export, which reports it.
  if (csv && table) row.csv = await tableCsv(item, ibd, table, {}).catch(() => null);
  return row;
}

export function createListMethods(): ListMethods {
  return {
    async listTables(items, sqls, options) {
      const out: ListedTable[] = [];
      const buffers: ArrayBuffer[] = [];
      const source = readAhead(items, options.fullBelow);
      let csvBytesLeft = LIST_CSV_BYTES;
      for (let i = 0; i < items.length; i++) {
        let ibd: ByteSource;
        try {
          ibd = await source(i);
        } catch (err) {
          const text = message(err);
          out.push({ summary: null, csv: null, summaryError: text, resolved: null, resolveError: text, live: null, pageMap: null });
          continue;
        }
        const row = await listOne(items[i], ibd, sqls, options, csvBytesLeft > 0 && items[i].ibd.size <= options.csvBelow);
        if (row.csv?.bytes) {
          csvBytesLeft -= row.csv.bytes.length;
          buffers.push(row.csv.bytes.buffer as ArrayBuffer);
        }
        out.push(row);
      }
      return Comlink.transfer(out, buffers);
    },

    async exportTables(items, sqls, format = 'csv') {
      const out: ExportedTable[] = [];
      const buffers: ArrayBuffer[] = [];
      const source = readAhead(items, WHOLE_BELOW);
      // (the tables of an ibdata1: its dictionary's definitions found once for the whole call)
      const system = new SystemDefinitions(items.flatMap((i) => (i.frm && isSystemFileName(i.name) ? [i.frm] : [])), new Set(items.flatMap((i) => (i.chosen ? [i.chosen] : []))));
      let total = 0;
      for (let i = 0; i < items.length && total < EXPORT_BATCH_BYTES; i++) {
        const item = items[i];
        let row: ExportedTable;
        try {
          const ibd = await source(i);
          const table = await exportDefinition(item, ibd, sqls, system);
          const sql = format === 'sql' ? { db: item.db ?? null } : undefined;
          row = item.partitions ? await partitionedRows(item, table, sql) : await tableCsv(item, ibd, table, { index: item.index, raw: item.raw }, item.timeZone, sql);
        } catch (err) {
          row = { table: null, bytes: null, rows: 0, problem: message(err) };
        }
        if (row.bytes) {
          total += row.bytes.length;
          buffers.push(row.bytes.buffer as ArrayBuffer);
        }
        out.push(row);
      }
      return Comlink.transfer(out, buffers);
    },
  };
}
