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
 * definition's order (which puts UNIQUE keys first) may then differ from the trees'.
 */
import { findIndexRoots } from '../btree/btree.ts';
import { readSdi } from '../definitions/sdi/index.ts';
import { clusterKey } from '../records/clustered-index.ts';
import { indexNamed, isClusteredIndex } from '../records/secondary-index.ts';
import type { TableDef } from '../schema.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';

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

/** The names of the B-trees InnoDB builds for `table`, in the order it creates them (see above). */
export function treeOrder(table: TableDef): string[] {
  const key = clusterKey(table);
  const clustered = table.indexes.find((i) => isClusteredIndex(table, i));
  const order = [clustered?.name ?? (key.kind === 'row_id' ? 'GEN_CLUST_INDEX' : 'PRIMARY')];
  const named = (n: string) => table.indexes.some((i) => i.name.toLowerCase() === n.toLowerCase());
  if (table.indexes.some((i) => i.kind === 'fulltext') && !named(FTS_DOC_ID_INDEX)) order.push(FTS_DOC_ID_INDEX);
  for (const index of table.indexes) {
    if (index !== clustered && index.kind !== 'fulltext') order.push(index.name);
  }
  return order;
}

/** The B-tree of secondary index `name` (as secondaryIndexName() spells it) in `ts`, or an Error saying why it cannot be told. */
export async function secondaryTree(ts: Tablespace, table: TableDef, name: string): Promise<IndexTree> {
  const sdi = await readSdi(ts).catch(() => null);
  if (sdi !== null) {
    const own = sdi.tables.length === 1 ? sdi.tables[0] : sdi.tables.find((t) => t.table.name.toLowerCase() === table.name.toLowerCase());
    const root = own?.indexRoots.find((r) => r.name.toLowerCase() === name.toLowerCase());
    if (root) return { indexId: root.indexId, rootPage: root.rootPage };
  }
  const roots = await findIndexRoots(ts);
  const order = treeOrder(table);
  if (roots.length !== order.length) {
    throw new Error(`the file holds ${roots.length} index trees, but the definition gives ${order.length} (${order.join(', ')}): which one is \`${name}\` cannot be told`);
  }
  const root = roots[order.findIndex((n) => n.toLowerCase() === name.toLowerCase())];
  return { indexId: root.header.indexId, rootPage: root.page };
}
