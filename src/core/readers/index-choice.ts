/**
 * Which B-tree of a file holds a table's secondary index, by the index's name.
 *
 * A MySQL 8 file says it: its data dictionary (SDI) gives each index's id and root page. MariaDB and
 * MySQL 5.x files do not name their trees; InnoDB creates them in a known order (ha_innodb.cc,
 * create_table_info_t::create_table), and each gets the next index id, so the roots in index id
 * order (findIndexRoots) are: the clustered index; FTS_DOC_ID_INDEX when the table has a FULLTEXT
 * index and defines no such index itself (fts_create_common_tables); then every other index of the
 * definition in its order (SHOW CREATE TABLE's, the .frm's), FULLTEXT ones aside (their words are in
 * tables of their own). An index added later by ALTER TABLE has a higher id than the others, so the
 * definition's order (which puts UNIQUE keys first) may then differ from the trees': the tree the
 * order gives is checked against the table's rows (index-check.ts), and another taken if it holds
 * the index instead. A SPATIAL index's tree is told by its R-tree root (spatialTree).
 */
import { findIndexRoots, type IndexRoot } from '../btree/btree.ts';
import { treeHoldsIndex, type TreeVerdict } from './index-check.ts';
import { readSdi } from '../definitions/sdi/index.ts';
import { clusterKey } from '../records/clustered-index.ts';
import { indexNamed, isClusteredIndex } from '../records/secondary-index.ts';
import type { IndexDef, TableDef } from '../schema.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';
import { FIL_PAGE_TYPE, PageType, u16 } from '../pages/fil-header.ts';

export interface IndexTree {
  indexId: bigint;
  rootPage: number;
}

/** The hidden index InnoDB adds on FTS_DOC_ID for FULLTEXT search. */
const FTS_DOC_ID_INDEX = 'FTS_DOC_ID_INDEX';

/**
 * The name of the secondary index `name` names (its spelling in the definition), or null when it is
 * the clustered index (the PRIMARY KEY, or the UNIQUE key InnoDB clusters on). Throws an Error for an
 * index the table does not have.
 */
export function secondaryIndexName(table: TableDef, name: string): string | null {
  const index = indexNamed(table, name);
  return isClusteredIndex(table, index) ? null : index.name;
}

/**
 * The server's order of a table's keys (sql_table.cc sort_keys), in which it hands them to InnoDB:
 * UNIQUE keys first — those with no nullable part first, PRIMARY first among them, then those with no
 * prefix part — then the others, FULLTEXT last; otherwise as written. A definition read back from
 * the server (SHOW CREATE TABLE, a .frm) is in this order already; a hand-written one may not be.
 */
function serverKeyOrder(table: TableDef): IndexDef[] {
  const nullable = new Set(table.columns.filter((c) => c.nullable).map((c) => c.name.toLowerCase()));
  const rank = (i: IndexDef): number[] => {
    const unique = i.kind === 'primary' || i.kind === 'unique';
    const nulls = i.columns.some((c) => nullable.has(c.name.toLowerCase()));
    const prefix = i.columns.some((c) => c.prefix > 0);
    return unique ? [0, nulls ? 1 : 0, i.kind === 'primary' ? 0 : 1, prefix ? 1 : 0] : [1, i.kind === 'fulltext' ? 1 : 0, 0, 0];
  };
  const ranked = table.indexes.map((index, at) => ({ index, key: [...rank(index), at] }));
  ranked.sort((a, b) => a.key.reduce((d, v, k) => d || v - b.key[k], 0));
  return ranked.map((r) => r.index);
}

/** The names of the B-trees InnoDB builds for `table`, in the order it creates them (see above). */
export function treeOrder(table: TableDef): string[] {
  const key = clusterKey(table);
  const clustered = table.indexes.find((i) => isClusteredIndex(table, i));
  const order = [clustered?.name ?? (key.kind === 'row_id' ? 'GEN_CLUST_INDEX' : 'PRIMARY')];
  const named = (n: string) => table.indexes.some((i) => i.name.toLowerCase() === n.toLowerCase());
  if (table.indexes.some((i) => i.kind === 'fulltext') && !named(FTS_DOC_ID_INDEX)) order.push(FTS_DOC_ID_INDEX);
  for (const index of serverKeyOrder(table)) {
    if (index !== clustered && index.kind !== 'fulltext') order.push(index.name);
  }
  return order;
}

/**
 * Whether InnoDB's creation order may differ from the definition's: an ALTER TABLE adds its index
 * last, where the definition sorts UNIQUE keys (the NOT NULL ones first) before the others, and a
 * table rebuilt for its first FULLTEXT index gets FTS_DOC_ID_INDEX last.
 */
function orderInDoubt(table: TableDef): boolean {
  const kinds = new Set(table.indexes.filter((i) => !isClusteredIndex(table, i) && i.kind !== 'fulltext').map((i) => i.kind));
  return kinds.size > 1 || table.indexes.some((i) => i.kind === 'fulltext');
}

/** Where a secondary index's tree is, and why that may be wrong (null when it is known). */
export interface IndexTreeChoice extends IndexTree {
  doubt: string | null;
}

/**
 * The B-tree of secondary index `name` (as secondaryIndexName() spells it) in `ts`: the SDI's, else
 * the one InnoDB's creation order gives, checked against the table's rows (index-check.ts); when that
 * tree does not hold the index, the one tree that does. Throws an Error when none can be told.
 */
export async function secondaryTree(ts: Tablespace, table: TableDef, name: string): Promise<IndexTreeChoice> {
  const sdi = await readSdi(ts).catch(() => null);
  if (sdi !== null) {
    const own = sdi.tables.length === 1 ? sdi.tables[0] : sdi.tables.find((t) => t.table.name.toLowerCase() === table.name.toLowerCase());
    // A partition's trees are its own (MySQL 8 names them per partition, by tablespace).
    const trees = own?.partitions?.find((p) => p.spaceId === ts.fsp.spaceId)?.indexRoots ?? own?.indexRoots;
    const root = trees?.find((r) => r.name.toLowerCase() === name.toLowerCase());
    if (root) return { indexId: root.indexId, rootPage: root.rootPage, doubt: null };
  }
  const roots = await findIndexRoots(ts);
  if (indexNamed(table, name).kind === 'spatial') return spatialTree(ts, table, roots, name);
  const order = treeOrder(table);
  if (roots.length !== order.length) {
    throw new Error(`the file holds ${roots.length} index trees, but the definition gives ${order.length} (${order.join(', ')}): which one is \`${name}\` cannot be told`);
  }
  const tree = (r: IndexRoot, doubt: string | null = null): IndexTreeChoice => ({ indexId: r.header.indexId, rootPage: r.page, doubt });
  const ordered = roots[order.findIndex((n) => n.toLowerCase() === name.toLowerCase())];
  // A tree that holds the index's records is its tree (two indexes of the same columns hold the same).
  if ((await treeHoldsIndex(ts, table, name, ordered, roots[0])) === 'yes') return tree(ordered);
  const verdicts = await verdictsOf(ts, table, roots);
  const holding = roots.filter((r) => verdicts.get(r)?.get(name.toLowerCase()) === 'yes');
  if (holding.length === 1) return tree(holding[0]);
  if (holding.includes(ordered)) return tree(ordered);
  // Unchecked: the order's tree, unless the rows show it holds another index.
  const claimed = [...(verdicts.get(ordered)?.values() ?? [])].includes('yes');
  if (holding.length === 0 && !claimed) {
    return tree(ordered, orderInDoubt(table) ? `index \`${name}\` is taken to be the tree of index id ${ordered.header.indexId} by the order InnoDB creates indexes in, which an ALTER TABLE may have changed; its records could not be checked against the table's rows` : null);
  }
  throw new Error(`the tree InnoDB's creation order gives index \`${name}\` (index id ${ordered.header.indexId}) holds another index's records, and ${holding.length === 0 ? 'no other tree is seen to hold its own' : 'several others could'}: give the tree with --index-id (see --list-indexes)`);
}

/**
 * A SPATIAL index's tree: its root is an R-tree page (FIL_PAGE_RTREE), and the R-trees in index id
 * order are the SPATIAL indexes in InnoDB's creation order (treeOrder), whatever the B-trees between.
 */
async function spatialTree(ts: Tablespace, table: TableDef, roots: readonly IndexRoot[], name: string): Promise<IndexTreeChoice> {
  const rtrees: IndexRoot[] = [];
  for (const r of roots) if (u16((await ts.page(r.page)).bytes, FIL_PAGE_TYPE) === PageType.RTREE) rtrees.push(r);
  const spatial = treeOrder(table).filter((n) => table.indexes.some((i) => i.kind === 'spatial' && i.name.toLowerCase() === n.toLowerCase()));
  if (rtrees.length !== spatial.length) throw new Error(`the file holds ${rtrees.length} R-trees, but the definition gives ${spatial.length} SPATIAL indexes (${spatial.join(', ')}): which one is \`${name}\` cannot be told`);
  const root = rtrees[spatial.findIndex((n) => n.toLowerCase() === name.toLowerCase())];
  return { indexId: root.header.indexId, rootPage: root.page, doubt: null };
}

/** Per tree (the clustered one aside), whether it holds each secondary index of the definition (lower-case names). */
async function verdictsOf(ts: Tablespace, table: TableDef, roots: readonly IndexRoot[]): Promise<Map<IndexRoot, Map<string, TreeVerdict>>> {
  const names = table.indexes.filter((i) => !isClusteredIndex(table, i) && i.kind !== 'fulltext' && i.kind !== 'spatial').map((i) => i.name);
  const out = new Map<IndexRoot, Map<string, TreeVerdict>>();
  for (const root of roots.slice(1)) {
    const byName = new Map<string, TreeVerdict>();
    for (const n of names) byName.set(n.toLowerCase(), await treeHoldsIndex(ts, table, n, root, roots[0]));
    out.set(root, byName);
  }
  return out;
}
