/**
 * Test helpers for secondary indexes: the server's view of an index's records (what
 * `SELECT … FORCE INDEX (k) ORDER BY …` returns: the index's columns, prefixes cut as the index cuts
 * them, then the primary key's columns it stores, in the index's order), written from the table
 * definition independently of the decoder's layout.
 */
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { openTable, type Row, type RowMode, type TableReader } from '../../src/core/readers/table-reader.ts';
import type { TableDef } from '../../src/core/schema.ts';
import { fileSource } from '../../src/node/file-source.ts';
import type { MariadbServer, QueryResult } from '../harness/mariadb.ts';

export interface IndexQuery {
  /** The columns the decoder should name, in order. */
  names: string[];
  sql: string;
}

const q = (name: string) => `\`${name}\``;

/**
 * The query of index `name` of `table`. `tieBreak`: for a table without a primary key, a column
 * that grows with the hidden DB_ROW_ID (insertion order), to order equal keys as the index does.
 */
export function indexQuery(table: TableDef, name: string, where = '', tieBreak: string | null = null): IndexQuery {
  const index = table.indexes.find((i) => i.name === name);
  if (!index) throw new Error(`no index ${name}`);
  // The clustered key: PRIMARY, else the first UNIQUE key of NOT NULL whole columns.
  const notNull = (c: { name: string; prefix: number }) => c.prefix === 0 && table.columns.some((col) => col.name === c.name && !col.nullable);
  const primary = table.indexes.find((i) => i.kind === 'primary') ?? table.indexes.find((i) => i.kind === 'unique' && i.columns.every(notNull));
  const names: string[] = [];
  const select: string[] = [];
  const order: string[] = [];
  const whole = new Set<string>();
  for (const c of index.columns) {
    const expr = c.prefix > 0 ? `LEFT(${q(c.name)}, ${c.prefix})` : q(c.name);
    if (c.prefix === 0) whole.add(c.name);
    names.push(c.name);
    select.push(expr);
    order.push(`${expr}${c.descending ? ' DESC' : ''}`);
  }
  for (const c of primary?.columns ?? []) {
    if (whole.has(c.name)) continue;
    const expr = c.prefix > 0 ? `LEFT(${q(c.name)}, ${c.prefix})` : q(c.name);
    names.push(c.name);
    select.push(expr);
    order.push(expr);
  }
  if (tieBreak !== null) order.push(q(tieBreak));
  return { names, sql: `SELECT ${select.join(', ')} FROM ${q(table.name)} FORCE INDEX (${q(name)})${where} ORDER BY ${order.join(', ')}` };
}

export async function tableDef(server: MariadbServer, table: string): Promise<TableDef> {
  const ddl = (await server.query(`SHOW CREATE TABLE ${q(table)}`)).rows[0][1] as string;
  return parseCreateTables(ddl)[0];
}

export async function indexRows(server: MariadbServer, table: TableDef, name: string, where = '', tieBreak: string | null = null): Promise<QueryResult & { names: string[] }> {
  const query = indexQuery(table, name, where, tieBreak);
  return { ...(await server.query(query.sql)), names: query.names };
}

/** Decodes index `index` of the table in `ibdPath` (every row of `mode`). */
export async function decodeIndex(ibdPath: string, table: TableDef, index: string, mode: RowMode = 'live'): Promise<{ reader: TableReader; rows: Row[] }> {
  const source = await fileSource(ibdPath);
  try {
    const reader = await openTable(source, table, { mode, indexName: index });
    await reader.checkDefinition();
    const rows: Row[] = [];
    for await (const batch of reader.rows({ batchSize: 700 })) rows.push(...batch);
    return { reader, rows };
  } finally {
    await source.close();
  }
}
