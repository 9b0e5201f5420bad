/**
 * Datadirs of many small tables, the seed's workload (issue 38): N tables `t{i}` created in one
 * multi-statement exec, one row each, then (a second server on a copy) every table dropped before a
 * slow shutdown. With innodb_file_per_table=OFF every table is inside ibdata1 with its .frm in the
 * database folder; with ON each has its own .ibd. A few tables of other shapes ride along (two
 * databases, a composite key, text, a partitioned table in the file-per-table datadir), so that the
 * datadir reader is not checked on one shape alone. Every table's rows are taken with SELECT first.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';

/** `db/table` → its rows as the server's SELECT shows them (in primary key order), with its columns. */
export type Expected = Map<string, { columns: string[]; rows: (string | null)[][] }>;

export interface ManyTables {
  /** The datadir after a slow shutdown: ibdata1, the database folders with their .frm (and .ibd). */
  live: string;
  /** The same datadir after every table was dropped and a slow shutdown (absent unless asked). */
  dropped: string | null;
  expected: Expected;
  /** Removes the folders. */
  remove(): void;
}

/** The statements creating `n` tables t1 … tn of one row each in database `db`. */
export function manyTablesSql(n: number, db: string): string {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) out.push(`CREATE TABLE ${db}.t${i} (i INT PRIMARY KEY) ENGINE=InnoDB; INSERT INTO ${db}.t${i} VALUES (${i});`);
  return out.join('\n');
}

/**
 * The other shapes: a second database, a composite key, text and dates, a table of ~450 leaf pages
 * (decoded on the worker threads, which open the data file by its path); `partitioned` adds a partitioned table.
 */
function otherShapes(partitioned: boolean): string {
  return `CREATE DATABASE other;
    CREATE TABLE other.orders (cust INT NOT NULL, seq SMALLINT NOT NULL, note VARCHAR(40), day DATE, amount DECIMAL(9,2), PRIMARY KEY (cust, seq), KEY k_day (day));
    INSERT INTO other.orders SELECT seq DIV 5, seq % 5, IF(seq % 3 = 0, NULL, CONCAT('order ', seq, ' é')), DATE'2020-01-01' + INTERVAL seq DAY, seq / 7 FROM seq_1_to_600;
    CREATE TABLE other.nokey (a VARCHAR(10), b BIGINT) ROW_FORMAT=COMPACT;
    INSERT INTO other.nokey SELECT CONCAT('r', seq), seq * 1000003 FROM seq_1_to_50;
    CREATE TABLE other.wide (id INT PRIMARY KEY, pad CHAR(200));
    INSERT INTO other.wide SELECT seq, CONCAT('w', seq) FROM seq_1_to_30000;
    ${partitioned ? `CREATE TABLE other.parts (id INT PRIMARY KEY, v VARCHAR(10)) PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (100), PARTITION p1 VALUES LESS THAN MAXVALUE);
    INSERT INTO other.parts SELECT seq, CONCAT('v', seq) FROM seq_1_to_250;` : ''}`;
}

/** Every table's rows (SELECT * ORDER BY its key), many one-row tables per query. */
async function expectedRows(server: MariadbServer, db: string, n: number, partitioned: boolean): Promise<Expected> {
  const expected: Expected = new Map();
  for (let from = 1; from <= n; from += 500) {
    const parts: string[] = [];
    for (let i = from; i < Math.min(from + 500, n + 1); i++) parts.push(`SELECT ${i} AS n, i FROM ${db}.t${i}`);
    const { rows } = await server.query(parts.join(' UNION ALL '));
    for (const r of rows) expected.set(`${db}/t${r[0] as string}`, { columns: ['i'], rows: [[r[1]]] });
  }
  const others: [string, string][] = [['other/orders', 'SELECT * FROM other.orders ORDER BY cust, seq'], ['other/nokey', 'SELECT * FROM other.nokey ORDER BY a'], ['other/wide', 'SELECT * FROM other.wide ORDER BY id']];
  if (partitioned) others.push(['other/parts', 'SELECT * FROM other.parts ORDER BY id']);
  for (const [name, sql] of others) {
    const { columns, rows } = await server.query(sql);
    expected.set(name, { columns, rows });
  }
  return expected;
}

/** A copy of a stopped server's datadir in a folder of its own. */
function keep(datadir: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ibd-many-'));
  cpSync(datadir, dir, { recursive: true });
  return dir;
}

/**
 * Makes the datadir of `n` tables in database `seeda` (and the other shapes), takes every table's rows,
 * and with `drop` a second one where every table was dropped (those `dropOnly` picks, when given).
 */
export async function makeManyTables(n: number, options: { filePerTable: boolean; drop: boolean; dropOnly?: (i: number) => boolean; serverArgs?: string[] }): Promise<ManyTables> {
  const serverArgs = options.serverArgs ?? [];
  const server = await startMariadb({ extraArgs: [`--innodb-file-per-table=${options.filePerTable ? 'ON' : 'OFF'}`, '--table-open-cache=400', ...serverArgs] });
  let live: string;
  let expected: Expected;
  try {
    await server.exec(`CREATE DATABASE seeda; ${manyTablesSql(n, 'seeda')} ${otherShapes(options.filePerTable)}`);
    expected = await expectedRows(server, 'seeda', n, options.filePerTable);
    await server.slowShutdown();
    live = keep(server.datadir);
  } finally {
    await server.stop();
  }
  let dropped: string | null = null;
  if (options.drop) {
    const again = await startMariadb({ datadir: keep(live), extraArgs: ['--innodb-file-per-table=OFF', '--table-open-cache=400', ...serverArgs] });
    try {
      const drops: string[] = [];
      for (let i = 1; i <= n; i++) if (options.dropOnly?.(i) ?? true) drops.push(`DROP TABLE seeda.t${i};`);
      await again.exec(`${drops.join('\n')} DROP TABLE other.orders; DROP TABLE other.nokey;`);
      await again.slowShutdown();
      dropped = keep(again.datadir);
    } finally {
      await again.stop();
    }
  }
  const remove = () => {
    for (const dir of [live, dropped]) if (dir !== null) rmSync(dir, { recursive: true, force: true });
  };
  return { live, dropped, expected, remove };
}

/** The built CLI run on a datadir (`dist-cli/`, `npm run build`). */
export function datadirCli(args: string[]) {
  return spawnSync(process.execPath, [join(import.meta.dirname, '../../dist-cli/ibd-reader.mjs'), ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** Output folders handed out by outDir, for the test file's afterAll to remove (removeOutDirs). */
const outs: string[] = [];

/** A fresh OUTDIR path (not yet made: the CLI makes it). */
export function outDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ibd-out-'));
  outs.push(dir);
  return join(dir, 'out');
}

export function removeOutDirs(): void {
  for (const d of outs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** An NDJSON file's rows in `columns` order. */
export function ndjsonRows(path: string, columns: readonly string[]): (string | null)[][] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => {
    const o = JSON.parse(l) as Record<string, string | null>;
    return columns.map((c) => o[c]);
  });
}

/** Rows in a fixed order, to compare sets of rows. */
export const sorted = (rows: (string | null)[][]) => rows.map((r) => JSON.stringify(r)).sort().map((r) => JSON.parse(r) as (string | null)[]);

/** The harness's page size, and where an INDEX page says its type and its index id (FIL header, PAGE_INDEX_ID). */
const PAGE = 16384;
const FIL_PAGE_TYPE = 24;
const FIL_PAGE_INDEX = 17855;
const PAGE_INDEX_ID = 38 + 28;

/** A dropped one-row table of `seeda` that `--list-tables DIR` names (from its dictionary records), with its clustered index's id. */
export function namedDroppedTable(datadir: string, except?: string): { db: string; table: string; indexId: string } | undefined {
  const [head, ...lines] = datadirCli([datadir, '--list-tables']).stdout.split('\n').filter((l) => l !== '');
  const names = head.split('\t');
  const rows = lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [names[i], v])));
  const found = rows.find((r) => r.state === 'dropped' && r.db === 'seeda' && r.rows === '1' && /^\d+$/.test(r.index_id) && r.table !== except);
  return found && { db: found.db, table: found.table, indexId: found.index_id };
}

/** Zeroes every INDEX page of index `indexId` in the file at `path` (as if the server had reused them), giving how many. */
export function zeroIndexPages(path: string, indexId: string): number {
  const bytes = readFileSync(path);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let zeroed = 0;
  for (let at = 0; at + PAGE <= bytes.length; at += PAGE) {
    if (view.getUint16(at + FIL_PAGE_TYPE) !== FIL_PAGE_INDEX || view.getBigUint64(at + PAGE_INDEX_ID) !== BigInt(indexId)) continue;
    bytes.fill(0, at, at + PAGE);
    zeroed++;
  }
  writeFileSync(path, bytes);
  return zeroed;
}

/** Where a page says its own number and its records' layout (FIL header, PAGE_N_HEAP's compact flag, PAGE_N_RECS, PAGE_LEVEL, the infimum's next pointer). */
const FIL_PAGE_OFFSET = 4;
const PAGE_N_HEAP = 38 + 4;
const PAGE_N_RECS = 38 + 16;
const PAGE_LEVEL = 38 + 26;
const INFIMUM = 99;

/**
 * The INT keys of the one-record COMPACT leaf pages in the file at `path`, each at its own page number (a
 * doublewrite copy is elsewhere): the trees a dropped one-row table may have left. Read from the bytes by the
 * page layout alone, not by our reader, so that a row none of these holds is known gone with its page.
 */
export function oneRowLeafKeys(path: string): Set<number> {
  const bytes = readFileSync(path);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const keys = new Set<number>();
  for (let at = 0; at + PAGE <= bytes.length; at += PAGE) {
    if (view.getUint16(at + FIL_PAGE_TYPE) !== FIL_PAGE_INDEX || view.getUint32(at + FIL_PAGE_OFFSET) !== at / PAGE) continue;
    if ((view.getUint16(at + PAGE_N_HEAP) & 0x8000) === 0 || view.getUint16(at + PAGE_N_RECS) !== 1 || view.getUint16(at + PAGE_LEVEL) !== 0) continue;
    const first = INFIMUM + view.getInt16(at + INFIMUM - 2);
    if (first <= INFIMUM || first + 4 > PAGE) continue;
    keys.add(view.getUint32(at + first) ^ 0x80000000);
  }
  return keys;
}
