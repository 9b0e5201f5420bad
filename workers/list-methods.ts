/**
 * Many tables at once (issue 6: 10,000 one-row tables and one mysqldump): the page hands a worker a
 * batch of table files per call instead of one call (or three) per file, and the worker keeps every
 * .sql it parsed, so a dump with 10,000 CREATE TABLEs is parsed once per worker, not once per file.
 *
 *  - `listTables`: for each file its summary and its table definition. Small files get the full
 *    summary (exact row count and every page's checksum: a few pages, cheaper than another round
 *    trip); large ones only the quick one (page 0 and the roots), their full scan comes later.
 *  - `exportTables`: each table decoded whole into one CSV (header + rows), for "Export all tables".
 *
 * Plain TypeScript over the decoder core, mixed into the decoder worker's API.
 */
import * as Comlink from 'comlink';
import { csvBytes } from '../src/core/csv-bytes.ts';
import { csvHeader } from '../src/core/output.ts';
import type { TableDef } from '../src/core/schema.ts';
import { parseCreateTables } from '../src/core/ddl/create-table.ts';
import { tableNameOfFile } from '../src/core/frm/index.ts';
import { fileKind, resolveSchema } from '../src/core/schema-source.ts';
import { blobSource, bytesSource, type ByteSource } from '../src/core/source.ts';
import { quickSummary, summarize, type TablespaceSummary } from '../src/core/summary.ts';
import { openTable } from '../src/core/table-reader.ts';
import type { NamedBlob, ResolvedSchemaResult, TableChoice } from './decoder-api.ts';
import type { EncryptionKeys } from '../src/core/encryption.ts';

/** One table file of a batch, with the .frm beside it (if any). */
export interface ListItem {
  ibd: Blob;
  name: string;
  frm: NamedBlob | null;
  /** The definition the user chose (exportTables), else the one resolveSchema picks. */
  chosen?: string | null;
  /**
   * exportTables: the definition the listing already found, when it came from a .sql (`picked` of
   * resolveSchema, source 'sql'): taken from the parsed .sql by name, without resolving again.
   */
  fromSql?: { file: string; table: string } | null;
}

export interface ListedTable {
  summary: TablespaceSummary | null;
  summaryError: string | null;
  /**
   * The definition found. When one is picked, `tables` holds only that one: a dump's 10,000 other
   * CREATE TABLEs are not copied into every table's answer (the page asks again when it opens one).
   */
  resolved: ResolvedSchemaResult | null;
  resolveError: string | null;
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

export interface ListMethods {
  /**
   * `fullBelow`: files this small or smaller get the full summary (count + checksums). `keys`: the
   * encryption keys given so far (an encrypted file's summary reads its pages).
   */
  listTables(items: ListItem[], sqls: NamedBlob[], fullBelow: number, keys?: EncryptionKeys): Promise<ListedTable[]>;
  /**
   * The first tables of `items`, at least one, until their CSVs add up to EXPORT_BATCH_BYTES: the
   * page sends the rest again (memory stays bounded without the page reading each File's size).
   */
  exportTables(items: ListItem[], sqls: NamedBlob[]): Promise<ExportedTable[]>;
}

/** .ibd files this small are read whole, in one read, in exportTables. */
const WHOLE_BELOW = 4 << 20;
/** exportTables answers once its CSVs add up to this much. */
const EXPORT_BATCH_BYTES = 32 << 20;

/**
 * The file as a ByteSource: a small one read whole at once. Every Blob read is a round trip to the
 * browser's blob store (about a millisecond), and a table's summary, definition and rows read its
 * first pages several times over: for a one-row table that was most of its time.
 */
async function tableSource(item: ListItem, wholeBelow: number): Promise<ByteSource> {
  if (item.ibd.size > wholeBelow) return blobSource(item.ibd, item.name);
  return bytesSource(new Uint8Array(await item.ibd.arrayBuffer()), item.name);
}

/** Files read ahead of the one being worked on (their reads overlap its decoding). */
const READ_AHEAD = 16;

/** tableSource of every item, each started READ_AHEAD items before it is needed. */
function readAhead(items: readonly ListItem[], wholeBelow: number): (i: number) => Promise<ByteSource> {
  const reads: (Promise<ByteSource> | undefined)[] = [];
  const start = (i: number) => {
    const p = tableSource(items[i], wholeBelow);
    p.catch(() => undefined);
    return p;
  };
  return (i) => {
    for (let j = i; j < Math.min(items.length, i + READ_AHEAD); j++) reads[j] ??= start(j);
    const p = reads[i]!;
    reads[i] = undefined;
    return p;
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
export async function resolveCached(ibd: ByteSource, files: readonly NamedBlob[]): Promise<Awaited<ReturnType<typeof resolveSchema>>> {
  const own = tableNameOfFile(ibd.name).toLowerCase();
  const stand: ByteSource[] = [];
  const others = await Promise.all(files.map(async (f) => {
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
    return await resolveSchema(ibd, others, sqlCache);
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

function resolvedResult(r: Awaited<ReturnType<typeof resolveSchema>>): ResolvedSchemaResult {
  const picked = r.table ? r.candidates.find((c) => c.table === r.table) : undefined;
  // A dump's candidates are every CREATE TABLE in it; a file's own dictionary (several tables in a
  // general tablespace) stays whole, with the index of each (as the worker's resolveSchema gives it).
  const several = r.candidates.filter((c) => c.source === 'sdi').length > 1;
  const choice = (c: (typeof r.candidates)[number]): TableChoice => ({
    name: c.table.name, columnCount: c.table.columns.length, source: c.source,
    ...(c.clusteredIndex && several ? { clusteredIndex: c.clusteredIndex } : {}),
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

export function createListMethods(): ListMethods {
  return {
    async listTables(items, sqls, fullBelow, keys) {
      const out: ListedTable[] = [];
      const source = readAhead(items, fullBelow);
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        const row: ListedTable = { summary: null, summaryError: null, resolved: null, resolveError: null };
        let ibd: ByteSource;
        try {
          ibd = await source(i);
        } catch (err) {
          row.summaryError = row.resolveError = message(err);
          out.push(row);
          continue;
        }
        try {
          row.summary = item.ibd.size <= fullBelow ? await summarize(ibd, { keys }) : await quickSummary(ibd, keys);
        } catch (err) {
          row.summaryError = message(err);
        }
        try {
          row.resolved = resolvedResult(await resolveCached(ibd, item.frm ? [item.frm, ...sqls] : sqls));
        } catch (err) {
          row.resolveError = message(err);
        }
        out.push(row);
      }
      return out;
    },

    async exportTables(items, sqls) {
      const encoder = new TextEncoder();
      const out: ExportedTable[] = [];
      const buffers: ArrayBuffer[] = [];
      const source = readAhead(items, WHOLE_BELOW);
      let total = 0;
      for (let i = 0; i < items.length && total < EXPORT_BATCH_BYTES; i++) {
        const item = items[i];
        const row: ExportedTable = { table: null, bytes: null, rows: 0, problem: null };
        try {
          const ibd = await source(i);
          let table = await knownTable(item, sqls);
          if (!table) {
            const r = await resolveCached(ibd, item.frm ? [item.frm, ...sqls] : sqls);
            table = r.table;
            if (item.chosen) table = r.candidates.find((c) => c.table.name === item.chosen)?.table ?? table;
            if (!table) throw new Error(r.error ?? `no table definition for ${item.name}`);
          }
          row.table = table.name;
          const reader = await openTable(ibd, table);
          const parts: Uint8Array[] = [encoder.encode(csvHeader(reader.columns))];
          let size = parts[0].length;
          for await (const batch of reader.batches({ batchSize: 5000 })) {
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
          row.bytes = bytes;
          total += bytes.length;
          buffers.push(bytes.buffer);
          const s = reader.stats;
          row.rows = s.rowsDecoded;
          if (s.recordsFailed + s.pagesSkipped + s.badChecksums > 0) {
            row.problem = `${s.recordsFailed} records unreadable, ${s.pagesSkipped} pages skipped, ${s.badChecksums} bad checksums`;
          }
        } catch (err) {
          row.problem = message(err);
        }
        out.push(row);
      }
      return Comlink.transfer(out, buffers);
    },
  };
}
