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
}

async function listed(file: InnodbFile, entry: TableEntry, countOf: ListOptions['count']): Promise<ListedTable> {
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

/** The dropped indexes whose table is not listed already (their dictionary rows are lost, or they are secondary). */
function unlisted(dropped: readonly DroppedIndex[], tables: readonly ListedTable[]): DroppedIndex[] {
  const listedIds = new Set(tables.flatMap((t) => t.indexes.map((i) => i.id)));
  return dropped.filter((d) => !listedIds.has(String(d.indexId)));
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

function textLines(file: InnodbFile, tables: readonly ListedTable[], dropped: readonly DroppedIndex[]): string[] {
  const dict = file.dictionary;
  const lines = [dict
    ? `${file.name}: system tablespace; its InnoDB data dictionary lists ${dict.tables.filter((t) => t.state === 'live').length} tables and ${dict.tables.filter((t) => t.state !== 'live').length} dropped, last table id ${dict.header.maxTableId}, last index id ${dict.header.maxIndexId}${dict.scrubbed ? `; ${dict.scrubbed} removed dictionary records were zeroed by the server (their names are lost)` : ''}`
    : `${file.name}: ${tables.length} ${tables.length === 1 ? 'table' : 'tables'}${tables.length === 0 && file.error ? ` (${file.error})` : ''}`];
  if (tables.length === 0 && dropped.length === 0) return lines;
  const header = ['table', 'state', 'id', 'rows in', 'format', 'rows', 'definition', 'indexes (id, root page)'];
  const cells = tables.map((t) => [
    t.name, t.state, t.tableId ?? '-', t.rowsIn, t.rowFormat ?? '-', t.rows === null ? '-' : String(t.rows), t.definition.source,
    t.indexes.map((i) => `${i.name} (${i.id}, ${i.rootPage ?? '-'})`).join(', '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  for (const c of [header, ...cells]) lines.push(c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]))).join('  ').trimEnd());
  for (const t of tables) for (const p of t.problems) lines.push(`  ${t.name}: ${p}`);
  for (const d of dropped) lines.push(droppedText(d));
  if (dict && dict.tables.length === 0) lines.push('(no table: a MySQL 8.0 or later system tablespace keeps no data dictionary; it is in mysql.ibd, each table\'s definition in its own .ibd)');
  return lines;
}

/** Writes the list of `--list-tables`. */
export async function listTables(file: InnodbFile, { format, count, write, warn }: ListOptions): Promise<void> {
  const cut = truncationOf(await Tablespace.open(file.source, { keys: file.keys ?? undefined }));
  if (cut !== null) warn(`${file.name}: ${cut.message}`);
  const tables: ListedTable[] = [];
  for (const entry of file.tables()) tables.push(await listed(file, entry, count));
  const dropped = unlisted(await file.droppedIndexes(), tables);
  if (format === 'ndjson') {
    for (const t of tables) await write(`${JSON.stringify(t)}\n`);
    for (const d of dropped) await write(`${JSON.stringify(droppedJson(d))}\n`);
    return;
  }
  await write(`${textLines(file, tables, dropped).join('\n')}\n`);
}
