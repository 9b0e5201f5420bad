/**
 * The table of a sort test (sort-order.test.ts, sort-collations.test.ts): table `t` of a private
 * MariaDB, exported and opened as the page opens it (a TableView on an in-thread pool, counted), and
 * the server's own orders of its rows by id, to compare the sorts with.
 */
import { readFileSync } from 'node:fs';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import type { TableDef } from '../../src/core/schema.ts';
import { TableView } from '../../src/ui/grid/table-view.ts';
import type { ViewSpec } from '../../workers/viewer-api.ts';
import type { MariadbServer } from '../harness/mariadb.ts';
import { inThreadPool } from '../ui/in-thread-pool.ts';

export interface SortedTable {
  table: TableDef;
  spec: ViewSpec;
  view: TableView;
  /** The rows' ids in clustered (id) order: row number → id. */
  ids: number[];
}

export const lookup = (table: TableDef) => (name: string) => (name === table.name ? table : undefined);

/** The ids of a `SELECT id …` of the server, in its order. */
export async function serverIds(server: MariadbServer, sql: string): Promise<number[]> {
  return (await server.query(sql)).rows.map((r) => Number(r[0]));
}

/** Table `t` as the page opens it, counted. */
export async function openSortedTable(server: MariadbServer): Promise<SortedTable> {
  const table = parseCreateTables((await server.query('SHOW CREATE TABLE t')).rows[0][1] as string)[0];
  const ibd = new Blob([readFileSync(await server.exportTable('t'))]);
  const spec: ViewSpec = { ibd, name: 't.ibd', table, mode: 'live' };
  const view = await TableView.open(inThreadPool(lookup(table)), spec, () => undefined);
  await view.count(new AbortController().signal, () => Promise.resolve(), () => undefined);
  return { table, spec, view, ids: await serverIds(server, 'SELECT id FROM t ORDER BY id') };
}

/** The ids of the rows `view.sortBy(column)` orders, in runs of one leaf page. */
export async function sortedIds(t: SortedTable, column: string, filter: Parameters<TableView['sortBy']>[1] = null): Promise<number[]> {
  const rows = await t.view.sortBy({ column: t.view.view.columns.indexOf(column) }, filter, new AbortController().signal, () => undefined, 1);
  return Array.from(rows, (r) => t.ids[r]);
}
