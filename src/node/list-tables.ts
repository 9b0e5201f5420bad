/**
 * The CLI's `--list-tables`: every table a file holds and where its rows are, each counted exactly
 * from its clustered index's leaf pages (leaf-counts.ts; a big table over the worker threads, as
 * --count counts it). For a system tablespace (ibdata1) the tables of its InnoDB data dictionary
 * (id, space, row format, indexes; dropped ones too) and the indexes no live table owns, found by
 * reading every page; for a MySQL 8 general tablespace or mysql.ibd the tables of its SDI; for any
 * other file its one table. As text (one line a table) or NDJSON (one object a table or dropped index).
 */
import { truncationOf } from '../core/btree/truncation.ts';
import { Tablespace } from '../core/tablespace/tablespace.ts';
import type { DroppedIndex } from '../core/readers/dropped-indexes.ts';
import type { DictTable } from '../core/definitions/dictionary/dict-tables.ts';
import { INDEX_TYPE } from '../core/definitions/dictionary/dict-tables.ts';
import type { InnodbFile } from '../lib/innodb-file.ts';
import { incompleteCount, type InnodbTable, type RowCount } from '../lib/innodb-table.ts';
import type { TableEntry } from '../lib/table-entry.ts';

/** One table as listed. */
export interface ListedTable {
  name: string;
  state: 'live' | 'dropped';
  tableId: string | null;
  spaceId: number | null;
  /** Where its rows are: this file, or the .ibd of its own tablespace. */
  rowsIn: string;
  rowFormat: string | null;
  /** Exact, from the leaf pages; null where the rows are in another file or could not be counted. */
  rows: number | null;
  leafPages: number | null;
  /** False when `rows` lacks rows (`problems` says why); true where counted whole, or not counted. */
  countComplete: boolean;
  definition: { source: string; file: string };
  indexes: { name: string; id: string; rootPage: number | null; kind: string }[];
  /** What to know of its definition: what the dictionary does not keep of its columns, what its .frm says. */
  notes: string[];
  /** Where its .frm and the dictionary disagree; why it could not be counted. */
  problems: string[];
}

function indexKind(type: number): string {
  if (type & INDEX_TYPE.CLUSTERED) return 'clustered';
  if (type & INDEX_TYPE.FTS) return 'fulltext';
  if (type & INDEX_TYPE.SPATIAL) return 'spatial';
  return type & INDEX_TYPE.UNIQUE ? 'unique' : 'secondary';
}

/**
 * Where a dictionary table's rows are: the system tablespace, or the file of its own tablespace (as
 * the dictionary keeps it, else as the server names a file-per-table .ibd).
 */
function rowsIn(file: InnodbFile, t: DictTable): string {
  if (t.spaceId === 0) return file.name;
  return `${file.dictionary?.files?.get(t.spaceId) ?? `${t.storedName}.ibd`} (space ${t.spaceId})`;
}

/** How the list is written, and how a table's rows are counted (the CLI's counts over its worker threads). */
export interface ListOptions {
  /** 'csv' means the text table. */
  format: 'csv' | 'ndjson';
  count(table: InnodbTable): Promise<RowCount>;
  write(text: string): Promise<void> | undefined;
  warn(line: string): void;
  /** How far the listing is (stderr), said every few seconds. */
  progress?(line: string): void;
}

/**
 * A table as listed, counted; `trees`: the ids of the dropped trees a scan found (a dropped table
 * whose clustered index is not among them has no page left to count: it is said, not searched for).
 */
async function listed(file: InnodbFile, entry: TableEntry, countOf: ListOptions['count'], trees: ReadonlySet<string> | null): Promise<ListedTable> {
  const t = entry.dictionary?.table ?? null;
  const row: ListedTable = {
    name: entry.name,
    state: t === null || t.state === 'live' ? 'live' : 'dropped',
    tableId: t === null ? null : String(t.id),
    spaceId: t?.spaceId ?? null,
    rowsIn: t === null ? file.name : rowsIn(file, t),
    rowFormat: t?.rowFormat ?? null,
    rows: null,
    leafPages: null,
    countComplete: true,
    definition: { source: entry.source, file: entry.file },
    indexes: (t?.indexes ?? []).map((i) => ({ name: i.name, id: String(i.id), rootPage: i.rootPage, kind: indexKind(i.type) })),
    notes: entry.dictionary?.notes ?? [],
    problems: [...entry.disagreements],
  };
  if (t !== null && t.spaceId !== 0) return row;
  const clustered = String(entry.clusteredIndex?.indexId);
  if (row.state === 'dropped' && trees !== null && !trees.has(clustered)) {
    row.problems.push(`not counted: no page of its clustered index ${clustered} is left in the file`);
    return row;
  }
  try {
    const table = await file.table(entry);
    const count = await countOf(table);
    row.rows = count.rows;
    row.leafPages = count.leafPages;
    const incomplete = incompleteCount(table, count);
    row.countComplete = incomplete === null;
    if (incomplete !== null) row.problems.push(incomplete);
    row.rowFormat ??= table.info.rowFormat;
    if (t === null) row.indexes = [{ name: 'clustered', id: String(table.info.indexId), rootPage: table.info.rootPage < 0 ? null : table.info.rootPage, kind: 'clustered' }];
  } catch (e) {
    row.problems.push(`not counted: ${(e as Error).message}`);
  }
  return row;
}

function droppedJson(d: DroppedIndex): Record<string, unknown> {
  return {
    droppedIndex: String(d.indexId), rootPage: d.rootPage, pages: d.pages, leafPages: d.leafPages, records: d.records,
    format: d.compact ? 'COMPACT' : 'REDUNDANT', table: d.table?.name ?? null, index: d.indexName,
  };
}

function droppedText(d: DroppedIndex): string {
  const owner = d.table ? ` (index ${d.indexName} of ${d.table.name}, dropped)` : ' (its table\'s dictionary rows are lost)';
  return `dropped index ${d.indexId}${owner}: ${d.pages} pages, ${d.leafPages} leaf pages, ${d.records} records, ${d.compact ? 'COMPACT' : 'REDUNDANT'}, root ${d.rootPage ?? 'not found'}; decode with --index-id ${d.indexId} and its --schema (or --guess)`;
}

/** The text list's first line: what the file is. */
function headLine(file: InnodbFile, entries: number): string {
  const dict = file.dictionary;
  if (dict === null) return `${file.name}: ${entries} ${entries === 1 ? 'table' : 'tables'}${entries === 0 && file.error ? ` (${file.error})` : ''}`;
  return `${file.name}: system tablespace; its InnoDB data dictionary lists ${dict.tables.filter((t) => t.state === 'live').length} tables and ${dict.tables.filter((t) => t.state !== 'live').length} dropped, last table id ${dict.header.maxTableId}, last index id ${dict.header.maxIndexId}${dict.scrubbed ? `; ${dict.scrubbed} removed dictionary records were zeroed by the server (their names are lost)` : ''}`;
}

const HEADER = ['table', 'state', 'id', 'rows in', 'format', 'rows', 'definition', 'indexes (id, root page)'];

function cellsOf(t: ListedTable): string[] {
  return [
    t.name, t.state, t.tableId ?? '-', t.rowsIn, t.rowFormat ?? '-', t.rows === null ? '-' : String(t.rows), t.definition.source,
    t.indexes.map((i) => `${i.name} (${i.id}, ${i.rootPage ?? '-'})`).join(', '),
  ];
}

/**
 * The text columns' widths, known before any table is counted (so that each line is written as its
 * table is done): from what the dictionary says of every entry; the row counts get 10 digits.
 */
function widthsOf(file: InnodbFile, entries: readonly TableEntry[]): number[] {
  const widths = HEADER.map((h) => h.length);
  for (const e of entries) {
    const t = e.dictionary?.table ?? null;
    const known = [e.name, 'dropped', t === null ? '-' : String(t.id), t === null ? file.name : rowsIn(file, t), t?.rowFormat ?? 'COMPRESSED', '1234567890', e.source];
    known.forEach((v, i) => (widths[i] = Math.max(widths[i], v.length)));
  }
  return widths;
}

const line = (cells: readonly string[], widths: readonly number[]) => cells.map((v, i) => (i === cells.length - 1 ? v : v.padEnd(widths[i]))).join('  ').trimEnd();

/** How often the progress line is said on stderr while tables are counted. */
const PROGRESS_MS = 2000;

/**
 * Writes the list of `--list-tables`, each table as soon as it is counted (stderr says how far it is
 * every few seconds), then the dropped indexes no listed table owns (one scan of the file).
 */
export async function listTables(file: InnodbFile, { format, count, write, warn, progress }: ListOptions): Promise<void> {
  const cut = truncationOf(await Tablespace.open(file.source, { keys: file.keys ?? undefined }));
  if (cut !== null) warn(`${file.name}: ${cut.message}`);
  const entries = file.tables();
  const widths = widthsOf(file, entries);
  const text = format !== 'ndjson';
  if (text) await write(`${headLine(file, entries.length)}\n${entries.length > 0 ? `${line(HEADER, widths)}\n` : ''}`);
  const ids = new Set<string>();
  const problems: string[] = [];
  let said = Date.now();
  let done = 0;
  let total = entries.length;
  const one = async (entry: TableEntry, trees: ReadonlySet<string> | null) => {
    const t = await listed(file, entry, count, trees);
    done++;
    for (const i of t.indexes) ids.add(i.id);
    for (const p of t.problems) problems.push(`  ${t.name}: ${p}`);
    await write(text ? `${line(cellsOf(t), widths)}\n` : `${JSON.stringify(t)}\n`);
    if (Date.now() - said < PROGRESS_MS) return;
    said = Date.now();
    progress?.(`${file.name}: ${done} of ${total} tables listed`);
  };
  // the live tables first: their roots are known, no read of the whole file is needed
  const isLive = (e: TableEntry) => e.dictionary === undefined || e.dictionary.table.state === 'live';
  for (const entry of entries.filter(isLive)) await one(entry, null);
  if (file.dictionary !== null) progress?.(`${file.name}: looking for dropped tables and their trees (one read of the whole file)`);
  const trees = await file.droppedIndexes();
  const treeIds = new Set(trees.map((d) => String(d.indexId)));
  for (const entry of entries.filter((e) => !isLive(e))) await one(entry, treeIds);
  // dropped tables whose names the dictionary's trees lost, named by their records on freed pages
  const recovered = (await file.recoveredTables()).filter((e) => !e.dictionary?.table.indexes.some((i) => ids.has(String(i.id))));
  total += recovered.length;
  for (const entry of recovered) await one(entry, treeIds);
  const dropped = trees.filter((d) => !ids.has(String(d.indexId)));
  if (!text) {
    for (const d of dropped) await write(`${JSON.stringify(droppedJson(d))}\n`);
    return;
  }
  const tail = [...problems, ...dropped.map(droppedText)];
  if (file.dictionary && file.dictionary.tables.length === 0) tail.push('(no table: a MySQL 8.0 or later system tablespace keeps no data dictionary; it is in mysql.ibd, each table\'s definition in its own .ibd)');
  if (tail.length > 0) await write(`${tail.join('\n')}\n`);
}
