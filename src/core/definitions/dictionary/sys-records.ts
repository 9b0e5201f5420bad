/**
 * The rows of a basic system table (sys-tables.ts), read by the record decoder (records/record.ts)
 * with the table's clustered layout, from the leaves of its B-tree in key order: as text cells, each
 * row with its state. A live row is in a page's record list, a delete-marked one too (a DROP TABLE
 * or ALTER not yet purged); a purged one is in the page's free list, its bytes left where purge put
 * them until the space is reused (those are checked value by value, nothing vouching for them).
 *
 * The dictionary is small (a few pages per thousand tables): its rows are read whole.
 */
import { leafPageNumbers } from '../../btree/btree.ts';
import { scanLeafPages } from '../../btree/page-scan.ts';
import { IbdError } from '../../errors.ts';
import { FIL_PAGE_TYPE, PageType, u16 } from '../../pages/fil-header.ts';
import { freeListOrigins, readIndexHeader, recordOrigins, redundantInfoBits, REC_INFO_DELETED, REC_INFO_MIN_REC } from '../../pages/index-page.ts';
import { clusteredLayout, type ClusteredLayout } from '../../records/clustered-index.ts';
import { InstantInfo } from '../../records/instant.ts';
import { redundantChildPage } from '../../records/key-fields.ts';
import { decodeRedundant, fieldColumns, RecordError, type ExternField, type RecordSink } from '../../records/record.ts';
import type { Page, Tablespace } from '../../tablespace/tablespace.ts';
import { BatchBuilder, cellText, releaseBatch } from '../../values/row-batch.ts';
import { writerFor } from '../../values/text-writers.ts';
import { fastWriteOf } from '../../values/writer-traits.ts';
import type { SysTable } from './sys-tables.ts';

export type SysRowState = 'live' | 'delete-marked' | 'purged';

/** A row of a system table: its cells by column name (SQL NULL is null). */
export interface SysRow {
  state: SysRowState;
  cells: Map<string, string | null>;
  /** The leaf page it was read from. */
  page: number;
}

export interface SysRead {
  rows: SysRow[];
  /** What could not be read: pages, records (one line each). */
  problems: string[];
}

/** The layout of a system table, with the fields of records written before a column was added left NULL. */
function sysLayout(table: SysTable): ClusteredLayout {
  const layout = clusteredLayout(table.definition, true);
  if (table.coreFields >= layout.fields.length) return layout;
  return { ...layout, instant: new InstantInfo('mariadb', layout.fields, table.coreFields, 0, layout.fields.map(() => null)) };
}

/** The leaf pages of the table's B-tree from `root`; when it cannot be walked, the leaves found by scanning the file. */
async function leavesOf(ts: Tablespace, table: SysTable, root: number, problems: string[]): Promise<number[]> {
  const page = await ts.page(root);
  const header = readIndexHeader(page.bytes);
  try {
    if (u16(page.bytes, FIL_PAGE_TYPE) !== PageType.INDEX || header.indexId !== table.indexId) {
      throw new IbdError(ts.source.name, `page ${root} is not the root of ${table.definition.name} (index ${table.indexId})`, root);
    }
    return await leafPageNumbers(ts, { page: root, header }, redundantChildPage);
  } catch (e) {
    if (!(e instanceof IbdError) && !(e instanceof RecordError)) throw e;
    problems.push(`${table.definition.name}: its B-tree cannot be walked (${e.message}); its leaf pages were found by scanning the file`);
    return (await scanLeafPages(ts, table.indexId)).pages;
  }
}

/**
 * Every row of `table` whose B-tree root is page `root`: live and delete-marked ones, and with
 * `purged` those of the pages' free lists too; `leaves` the pages they were read from.
 */
export async function readSysRows(ts: Tablespace, table: SysTable, root: number, purged: boolean): Promise<SysRead & { leaves: number[] }> {
  const problems: string[] = [];
  const leaves = await leavesOf(ts, table, root, problems);
  const read = await decodeSysPages(ts, table, leaves, { purged, freed: false }, problems);
  return { ...read, leaves };
}

/**
 * The rows of `table` on `pages`, leaves of its index that left its B-tree (freed as the tree shrank,
 * or with a dropped table's segment): every record on them, in their record lists and free lists, is
 * a removed row (`purged`): what the dictionary held when the page was freed. Each value is checked.
 */
export function readFreedSysRows(ts: Tablespace, table: SysTable, pages: readonly number[]): Promise<SysRead> {
  return decodeSysPages(ts, table, pages, { purged: true, freed: true }, []);
}

async function decodeSysPages(ts: Tablespace, table: SysTable, pages: readonly number[], how: { purged: boolean; freed: boolean }, problems: string[]): Promise<SysRead> {
  const layout = sysLayout(table);
  const names = layout.columns.map((c) => c.name);
  const writers = layout.fields.map((f) => writerFor(f.out >= 0 ? layout.columns[f.out] : null, f.render));
  const out = new BatchBuilder(names.length);
  const sink: RecordSink = { out, base: 0, writers, fast: writers.map(fastWriteOf), ...fieldColumns(layout.fields) };
  const states: { state: SysRowState; page: number }[] = [];
  const origins: number[] = [];
  const externs: ExternField[] = [];
  const decode = (page: Page, origin: number, state: SysRowState, check: boolean) => {
    const mark = out.mark();
    sink.base = out.startRow();
    externs.length = 0;
    try {
      decodeRedundant(page.bytes, origin, layout, sink, externs, check);
      out.endRow();
      states.push({ state, page: page.no });
    } catch (e) {
      if (!(e instanceof RecordError)) throw e;
      out.rollback(mark);
      if (state !== 'purged') problems.push(`${table.definition.name}, page ${page.no}, record at ${origin}: ${e.message}`);
    }
  };
  for (const no of pages) {
    const page = await ts.page(no).catch((e: unknown) => {
      if (!(e instanceof IbdError)) throw e;
      if (!how.freed) problems.push(`${table.definition.name}: ${e.message}`);
      return null;
    });
    if (page === null || !isLeafOf(page, table)) continue;
    const damaged = page.checksum === 'bad';
    if (damaged && how.freed) continue;
    if (damaged) problems.push(`${table.definition.name}, page ${no}: the page fails its checksum; its records are read with every value checked`);
    const broken = recordOrigins(page.bytes, false, origins);
    if (broken !== null && !how.freed) problems.push(`${table.definition.name}, page ${no}: ${broken}; the records before are read`);
    for (const origin of origins) {
      const info = redundantInfoBits(page.bytes, origin);
      if (info & REC_INFO_MIN_REC) continue;
      // on a page that left the tree every record is a removed one
      decode(page, origin, how.freed ? 'purged' : info & REC_INFO_DELETED ? 'delete-marked' : 'live', damaged || how.freed);
    }
    if (!how.purged) continue;
    freeListOrigins(page.bytes, false, origins);
    for (const origin of origins) decode(page, origin, 'purged', true);
  }
  const batch = releaseBatch(out);
  const rows = states.map(({ state, page }, r): SysRow => ({ state, page, cells: new Map(names.map((n, c) => [n, cellText(batch, r, c)])) }));
  return { rows, problems };
}

function isLeafOf(page: Page, table: SysTable): boolean {
  const h = readIndexHeader(page.bytes);
  return u16(page.bytes, FIL_PAGE_TYPE) === PageType.INDEX && h.indexId === table.indexId && h.level === 0 && !h.compact;
}

/** A cell read as a number (4-byte DATA_INT columns); null for SQL NULL or no number. */
export function intCell(row: SysRow, column: string): number | null {
  const text = row.cells.get(column);
  return text === null || text === undefined || !/^\d+$/.test(text) ? null : Number(text);
}

/** A cell read as an id (8-byte DATA_BINARY columns). */
export function idCell(row: SysRow, column: string): bigint | null {
  const text = row.cells.get(column);
  return text === null || text === undefined || !/^\d+$/.test(text) ? null : BigInt(text);
}

export function textCell(row: SysRow, column: string): string | null {
  return row.cells.get(column) ?? null;
}
