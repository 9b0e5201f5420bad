/**
 * Dropped tables by name from the dictionary's pages that left its B-trees (issue 38). When many
 * tables are dropped, purge removes their SYS_TABLES, SYS_COLUMNS, SYS_INDEXES and SYS_FIELDS rows
 * (MariaDB zeroes each removed record), and the trees shrink: pages emptied or merged into a
 * neighbour are freed with the records they held when they left, byte for byte (btr_page_free
 * marks the extent free, it does not wipe the page). A scan of the file that keeps the leaf pages
 * of index ids 1–4 (orphan-scan.ts keepLeaves) finds them; their records, read as removed rows, give
 * the names, columns and index ids of tables whose rows in the trees are gone, the way undrop tools
 * carve them. A row found twice (on the tree and on a page it left, or on two such pages) is one.
 */
import type { ServerFlavor } from '../../values/collations.ts';
import type { Tablespace } from '../../tablespace/tablespace.ts';
import { assembleTables, type DictTable, type Dictionary } from './dict-tables.ts';
import { SYS_INDEX_IDS } from './dict-header.ts';
import { readFreedSysRows, readSysRows, type SysRow } from './sys-records.ts';
import { SYS_COLUMNS, SYS_FIELDS, SYS_INDEXES, SYS_TABLES, type SysTable } from './sys-tables.ts';

/** Whether a scan is to keep the leaf pages of an index: the four basic system tables' of the system tablespace. */
export const isDictionaryTree = (spaceId: number, indexId: bigint): boolean => spaceId === 0 && indexId >= SYS_INDEX_IDS.tables && indexId <= SYS_INDEX_IDS.fields;

/** A system table's rows: its tree's (live, delete-marked, purged), then those of its leaves that left it. */
async function rowsOf(ts: Tablespace, table: SysTable, root: number, leaves: readonly number[]): Promise<SysRow[]> {
  const tree = await readSysRows(ts, table, root, true);
  const inTree = new Set(tree.leaves);
  const freed = await readFreedSysRows(ts, table, leaves.filter((no) => !inTree.has(no)));
  return [...tree.rows, ...freed.rows];
}

/**
 * The dropped tables the dictionary's freed leaves still describe and `dictionary` does not list
 * (their state `purged`); `keptLeaves`: the leaf pages of index ids 1–4 a scan of the file found.
 */
export async function recoveredTables(ts: Tablespace, dictionary: Dictionary, keptLeaves: ReadonlyMap<bigint, readonly number[]>): Promise<DictTable[]> {
  const roots = dictionary.header.roots;
  if (roots === null) return [];
  const leaves = (t: SysTable) => keptLeaves.get(t.indexId) ?? [];
  const [tables, columns, indexes, fields] = await Promise.all([
    rowsOf(ts, SYS_TABLES, roots.tables, leaves(SYS_TABLES)),
    rowsOf(ts, SYS_COLUMNS, roots.columns, leaves(SYS_COLUMNS)),
    rowsOf(ts, SYS_INDEXES, roots.indexes, leaves(SYS_INDEXES)),
    rowsOf(ts, SYS_FIELDS, roots.fields, leaves(SYS_FIELDS)),
  ]);
  const flavor: ServerFlavor = ts.fullCrc32 ? 'mariadb' : 'mysql';
  const known = new Set(dictionary.tables.map((t) => t.id));
  return assembleTables({ tables, columns, indexes, fields }, flavor).filter((t) => t.state !== 'live' && !known.has(t.id));
}
