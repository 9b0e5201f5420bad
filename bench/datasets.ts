/**
 * The three benchmark tables, in a private MariaDB (test/harness/mariadb.ts, default 16K pages and
 * full_crc32), exported with FLUSH TABLES … FOR EXPORT:
 *
 *  - lineitem: TPC-H LINEITEM (bench/lineitem.ts), SF 1 = 6,001,215 rows, loaded with LOAD DATA;
 *  - sbtest1: sysbench's table, 2,000,000 rows (bench/sbtest.ts);
 *  - many: 10,000 one-row tables `t{i} (i INT PRIMARY KEY)`.
 *
 * lineitem and sbtest1 take minutes to make, so their export (.ibd + .cfg + CREATE TABLE) is kept in
 * .cache/bench/datasets/<name>-<version>-<rows>/ and, on later runs, put back into the fresh server
 * with DISCARD / IMPORT TABLESPACE (seconds), because the reference tools need the table live in a
 * server. Bump a version string when its generator changes. `many` is made anew each run (~40 s):
 * importing 10,000 tablespaces would be no faster than creating them.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection } from 'mariadb';
import { startMariadb, type MariadbServer } from '../test/harness/mariadb.ts';
import { LINEITEM_DDL, writeLineitemTsv } from './lineitem.ts';
import { makeSbtest } from './sbtest.ts';

export type DatasetName = 'lineitem' | 'sbtest1' | 'many';
export const DATASETS: DatasetName[] = ['lineitem', 'sbtest1', 'many'];

/** Change when bench/lineitem.ts (or sbtest.ts) would make different rows: old caches are then ignored. */
const VERSIONS: Record<'lineitem' | 'sbtest1', string> = { lineitem: 'v1', sbtest1: 'v1' };

export interface Prepared {
  name: DatasetName;
  /** The table (for `many`: '' — the tables are t1 … tN in database MANY_DB). */
  table: string;
  /** The exported .ibd file(s) the decoders read. */
  ibds: string[];
  /** The CREATE TABLE(s), as given to the decoders. */
  sqlPath: string;
  /** Rows in the server's table(s), from COUNT(*). */
  rows: number;
  /** Total size of `ibds`. */
  ibdBytes: number;
  /** How the data got here, e.g. "cache (made 2026-01-01 in 95 s); imported in 12 s". */
  prep: string;
}

interface CacheMeta {
  version: string;
  rows: number;
  ibdBytes: number;
  madeAt: string;
  makeSeconds: number;
  how: string;
}

/** Server settings for the benchmark. */
export function startBenchServer(): Promise<MariadbServer> {
  return startMariadb({
    extraArgs: [
      // lineitem (~1 GB) and sbtest1 fit in the buffer pool, so the reference tools read warm pages.
      '--innodb-buffer-pool-size=3G',
      '--innodb-log-file-size=512M',
      // LOAD DATA INFILE and mariadb-dump --tab read and write files anywhere.
      '--secure-file-priv=',
      // 10,000 tables open at once (FLUSH … FOR EXPORT in chunks, mariadb-dump's LOCK TABLES).
      '--open-files-limit=65535',
      '--table-open-cache=20000',
      '--table-definition-cache=20000',
      '--innodb-open-files=20000',
      // A throw-away server: without fsync, creating 10,000 tables takes ~20 s instead of ~200 s.
      '--debug-no-sync',
      '--innodb-flush-method=nosync',
    ],
  });
}

async function countRows(server: MariadbServer, table: string): Promise<number> {
  // FORCE INDEX (PRIMARY) walks the clustered index, which also brings every row page into the
  // buffer pool before the reference tools are timed.
  const r = await server.query(`SELECT COUNT(*) FROM \`${table}\` FORCE INDEX (PRIMARY)`);
  return Number(r.rows[0][0]);
}

function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch {
    copyFileSync(from, to);
    rmSync(from, { force: true });
  }
}

async function showCreate(server: MariadbServer, table: string): Promise<string> {
  return `${(await server.query(`SHOW CREATE TABLE \`${table}\``)).rows[0][1]};\n`;
}

/** Puts a cached export back into `server` (the server's copy is its own; the cache stays as is). */
async function importCached(server: MariadbServer, table: string, dir: string): Promise<void> {
  await server.exec(`${readFileSync(join(dir, `${table}.sql`), 'utf8')}\nALTER TABLE \`${table}\` DISCARD TABLESPACE`);
  for (const ext of ['.ibd', '.cfg']) {
    const src = join(dir, table + ext);
    if (existsSync(src)) copyFileSync(src, join(server.datadir, 'test', table + ext));
  }
  await server.exec(`ALTER TABLE \`${table}\` IMPORT TABLESPACE`);
}

/**
 * lineitem or sbtest1 in `server`, and its export in the cache: imported from the cache when there,
 * else made (and cached).
 */
export async function prepareCachedTable(server: MariadbServer, cacheRoot: string, name: 'lineitem' | 'sbtest1', rows: number): Promise<Prepared> {
  const version = VERSIONS[name];
  const dir = join(cacheRoot, 'datasets', `${name}-${version}-${rows}`);
  const metaPath = join(dir, 'meta.json');
  const started = performance.now();
  let prep: string;
  let meta: CacheMeta;
  if (existsSync(metaPath)) {
    meta = JSON.parse(readFileSync(metaPath, 'utf8')) as CacheMeta;
    console.log(`bench: ${name}: importing the cached export (${dir})`);
    await importCached(server, name, dir);
    prep = `cached (made ${meta.madeAt.slice(0, 10)} in ${meta.makeSeconds.toFixed(0)} s: ${meta.how}); imported in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  } else {
    const partial = `${dir}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    let how: string;
    if (name === 'lineitem') {
      const tsv = join(partial, 'lineitem.tsv');
      console.log(`bench: lineitem: generating ${rows.toLocaleString('en-US')} rows`);
      const gen = writeLineitemTsv(tsv, rows);
      const genS = (performance.now() - started) / 1000;
      console.log(`bench: lineitem: ${(gen.bytes / 1e6).toFixed(0)} MB of TSV in ${genS.toFixed(1)} s; loading`);
      const loadStart = performance.now();
      // One session: the SETs apply to the LOAD DATA. Rows arrive in key order, so no sorting.
      await server.exec(`${LINEITEM_DDL}; SET unique_checks = 0, foreign_key_checks = 0; LOAD DATA INFILE '${tsv}' INTO TABLE lineitem`);
      const loadS = (performance.now() - loadStart) / 1000;
      rmSync(tsv, { force: true });
      how = `generated in ${genS.toFixed(0)} s, LOAD DATA in ${loadS.toFixed(0)} s`;
    } else {
      console.log(`bench: sbtest1: sysbench prepare, ${rows.toLocaleString('en-US')} rows`);
      how = await makeSbtest(server, rows, join(partial, 'sbtest1.tsv'));
    }
    const exportStart = performance.now();
    const exported = await server.exportTable(name);
    for (const ext of ['.ibd', '.cfg']) {
      const src = exported.replace(/\.ibd$/, ext);
      if (existsSync(src)) moveFile(src, join(partial, name + ext));
    }
    writeFileSync(join(partial, `${name}.sql`), await showCreate(server, name));
    const makeSeconds = (performance.now() - started) / 1000;
    how += `, exported in ${((performance.now() - exportStart) / 1000).toFixed(0)} s`;
    meta = { version, rows, ibdBytes: statSync(join(partial, `${name}.ibd`)).size, madeAt: new Date().toISOString(), makeSeconds, how };
    writeFileSync(join(partial, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
    prep = `made now in ${makeSeconds.toFixed(0)} s (${how}); cached`;
  }
  const counted = await countRows(server, name);
  if (name === 'lineitem' && counted !== rows) throw new Error(`lineitem: the server holds ${counted} rows, expected ${rows}`);
  const ibd = join(dir, `${name}.ibd`);
  return { name, table: name, ibds: [ibd], sqlPath: join(dir, `${name}.sql`), rows: counted, ibdBytes: statSync(ibd).size, prep };
}

/** The database holding the `many` tables. */
export const MANY_DB = 'many';

/** 10,000 (`count`) one-row tables t1 … tN, exported into `outDir` with their CREATE TABLEs in many.sql. */
export async function prepareMany(server: MariadbServer, outDir: string, count: number): Promise<Prepared> {
  const started = performance.now();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  console.log(`bench: many: creating ${count.toLocaleString('en-US')} tables`);
  // A database of their own, so dumping "all tables of the database" means exactly these.
  await server.exec(`DROP DATABASE IF EXISTS ${MANY_DB}; CREATE DATABASE ${MANY_DB}`);
  const conn = await createConnection({ socketPath: server.socket, user: 'root', database: MANY_DB, multipleStatements: true });
  try {
    for (let first = 1; first <= count; first += 500) {
      let sql = '';
      for (let i = first; i < first + 500 && i <= count; i++) sql += `CREATE TABLE t${i} (i INT PRIMARY KEY) ENGINE=InnoDB; INSERT INTO t${i} VALUES (${i});\n`;
      await conn.query(sql);
    }
    const createS = (performance.now() - started) / 1000;
    // FLUSH … FOR EXPORT holds its lock until UNLOCK TABLES in the same session: copy in between.
    const exportStart = performance.now();
    const dbDir = join(server.datadir, MANY_DB);
    for (let first = 1; first <= count; first += 1000) {
      const names: string[] = [];
      for (let i = first; i < first + 1000 && i <= count; i++) names.push(`t${i}`);
      await conn.query(`FLUSH TABLES ${names.join(', ')} FOR EXPORT`);
      try {
        for (const n of names) copyFileSync(join(dbDir, `${n}.ibd`), join(outDir, `${n}.ibd`));
      } finally {
        await conn.query('UNLOCK TABLES');
      }
    }
    const exportS = (performance.now() - exportStart) / 1000;
    // The schema file a user would bring: every table's CREATE TABLE. They differ only in the name,
    // so SHOW CREATE TABLE runs once (mariadb-dump --no-data needs ~10 minutes for 10,000 tables:
    // it queries information_schema per table).
    const sqlPath = join(outDir, 'many.sql');
    const [first] = (await conn.query({ sql: 'SHOW CREATE TABLE t1', rowsAsArray: true })) as string[][];
    const template = first[1];
    if (!template.startsWith('CREATE TABLE `t1` ')) throw new Error(`many: unexpected SHOW CREATE TABLE output: ${template}`);
    const creates: string[] = [];
    for (let i = 1; i <= count; i++) creates.push(`CREATE TABLE \`t${i}\` ${template.slice('CREATE TABLE `t1` '.length)};\n`);
    writeFileSync(sqlPath, creates.join('\n'));
    const ibds = readdirSync(outDir).filter((f) => f.endsWith('.ibd')).map((f) => join(outDir, f));
    const ibdBytes = ibds.reduce((sum, f) => sum + statSync(f).size, 0);
    const [{ n }] = (await conn.query(`SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = '${MANY_DB}'`)) as { n: bigint }[];
    if (Number(n) !== count || ibds.length !== count) throw new Error(`many: ${n} tables in the server, ${ibds.length} exported, expected ${count}`);
    return {
      name: 'many',
      table: '',
      ibds,
      sqlPath,
      rows: count,
      ibdBytes,
      prep: `made now: CREATE + INSERT in ${createS.toFixed(0)} s, FLUSH … FOR EXPORT + copy in ${exportS.toFixed(0)} s`,
    };
  } finally {
    await conn.end();
  }
}
