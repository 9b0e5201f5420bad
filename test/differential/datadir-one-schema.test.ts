/**
 * Issue 38: one definition for many dropped trees. Tables of one shape inside ibdata1 are dropped
 * (slow shutdown: purge removes their dictionary rows), then the pages the dictionary's trees freed
 * are zeroed, so no dictionary record names them: every tree is `#dropped/index-N`. Read with
 * `--schema shape.sql --index-id all`, each tree of that shape comes back with its rows equal to the
 * server's SELECT before the drop; the trees of other shapes (another table, a secondary index) are
 * listed with why the given table does not fit, and keep their guessed columns. `--schema FOLDER`
 * tries each of its files' tables in turn.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb } from '../harness/mariadb.ts';
import { datadirCli as cli, ndjsonRows, outDir, removeOutDirs, sorted } from './many-tables-setup.ts';

/** Enough tables that the dictionary's trees grow past their roots, and free pages as purge empties them. */
const TABLES = 150;
const SHAPE = 'CREATE TABLE s (id INT PRIMARY KEY, v VARCHAR(20), d DATE, n DECIMAL(8,2))';

let dropped: string;
let schemaFile: string;
/** The shape as the server shows it (SHOW CREATE TABLE of s1: its character set too), what a DBA would give. */
let shapeSql: string;
/** `other`'s SHOW CREATE TABLE and rows, for --schema FOLDER. */
let otherSql: string;
let otherRows: (string | null)[][];
/** Each table's rows as its SELECT gave them, by name. */
const expected = new Map<string, (string | null)[][]>();
const cleanup: (() => Promise<void> | void)[] = [];

interface TsvLine { db: string; table: string; state: string; index_id: string; rows: string; definition: string; problems: string }

function tsv(text: string): TsvLine[] {
  const [head, ...lines] = text.split('\n').filter((l) => l !== '');
  const names = head.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [names[i], v])) as unknown as TsvLine);
}

/**
 * Zeroes the leaf pages of the dictionary's four basic tables (index ids 1–4) that are no longer
 * their trees' roots: the pages the trees freed as purge emptied them. The roots are read from the
 * dictionary header (page 7: SYS_TABLES, SYS_COLUMNS, SYS_INDEXES, SYS_FIELDS at 32, 40, 44, 48 of
 * its data); each must be a leaf, the tree one page, else the test says so.
 */
function zeroFreedDictionaryPages(ibdata1: string): number {
  const bytes = readFileSync(ibdata1);
  const page = 16384;
  const header = 7 * page + 38;
  const roots = new Set([32, 40, 44, 48].map((at) => bytes.readUInt32BE(header + at)));
  for (const root of roots) expect(bytes.readUInt16BE(root * page + 38 + 26), `dictionary root ${root} is a leaf`).toBe(0);
  let zeroed = 0;
  for (let no = 0; no < bytes.length / page; no++) {
    const at = no * page;
    const indexPage = bytes.readUInt16BE(at + 24) === 17855;
    const indexId = bytes.readBigUInt64BE(at + 38 + 28);
    if (!indexPage || indexId < 1n || indexId > 4n || roots.has(no)) continue;
    bytes.fill(0, at, at + page);
    zeroed++;
  }
  writeFileSync(ibdata1, bytes);
  return zeroed;
}

beforeAll(async () => {
  const server = await startMariadb({ extraArgs: ['--innodb-file-per-table=OFF'] });
  cleanup.push(() => server.stop());
  const creates: string[] = ['CREATE DATABASE d; USE d;'];
  for (let t = 1; t <= TABLES; t++) {
    creates.push(`${SHAPE.replace('TABLE s', `TABLE s${t}`)};`);
    creates.push(`INSERT INTO s${t} SELECT seq * ${t}, IF(seq % 4 = 0, NULL, CONCAT('t${t} row ', seq, ' é')), DATE'2021-03-01' + INTERVAL seq * ${t} DAY, seq * ${t} / 3 FROM seq_1_to_${(t % 9) + 1};`);
  }
  creates.push('CREATE TABLE other (a BIGINT PRIMARY KEY, b TEXT, c DOUBLE); INSERT INTO other SELECT seq << 33, REPEAT(\'x\', seq), seq / 7 FROM seq_1_to_40;');
  creates.push(`${SHAPE.replace('TABLE s', 'TABLE keyed').replace(/\)$/, ', KEY k_v (v))')}; INSERT INTO keyed SELECT seq, CONCAT('k', seq), DATE'2020-01-01', seq FROM seq_1_to_90;`);
  await server.exec(creates.join('\n'));
  for (const name of [...Array.from({ length: TABLES }, (_, i) => `s${i + 1}`), 'keyed']) expected.set(name, (await server.query(`SELECT * FROM d.${name} ORDER BY id`)).rows);
  shapeSql = (await server.query('SHOW CREATE TABLE d.s1')).rows[0][1] as string;
  otherSql = (await server.query('SHOW CREATE TABLE d.other')).rows[0][1] as string;
  otherRows = (await server.query('SELECT * FROM d.other ORDER BY a')).rows;
  // The dictionary's pages on disk before the drops (a second server on the copy): pages it frees then keep their records.
  await server.slowShutdown();
  const again = await startMariadb({ datadir: server.copyDatadir(), extraArgs: ['--innodb-file-per-table=OFF'] });
  cleanup.push(() => again.stop());
  await again.exec([...expected.keys(), 'other'].map((t) => `DROP TABLE d.${t};`).join('\n'));
  await again.slowShutdown();
  dropped = again.copyDatadir();
  cleanup.push(() => rmSync(dropped, { recursive: true, force: true }));
  expect(zeroFreedDictionaryPages(join(dropped, 'ibdata1'))).toBeGreaterThan(0);
  schemaFile = join(dropped, 'shape.sql');
  writeFileSync(schemaFile, `${shapeSql};\n`);
}, 600_000);

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  removeOutDirs();
});

describe('one definition for many dropped trees', () => {
  it('without it: no dropped table is named, every tree is #dropped/index-N', () => {
    const run = cli([dropped, '--list-tables']);
    expect(run.status, run.stderr).toBe(2);
    const lines = tsv(run.stdout).filter((l) => l.state === 'dropped');
    expect(lines.length).toBeGreaterThanOrEqual(TABLES + 2);
    expect(lines.every((l) => l.db === '#dropped')).toBe(true);
  });

  it('--schema shape.sql --index-id all: each tree of the shape equal to one table\'s SELECT; the others say why not', () => {
    const out = outDir();
    const run = cli([dropped, '-o', out, '--format', 'ndjson', '--json-strings', '--schema', schemaFile, '--index-id', 'all']);
    expect(run.status, run.stderr).toBe(2);
    const lines = tsv(readFileSync(join(out, 'tables.tsv'), 'utf8')).filter((l) => l.db === '#dropped');
    const fitted = lines.filter((l) => l.definition === 'sql (shape.sql: s1)');
    const got = fitted.map((l) => ndjsonRows(join(out, '#dropped', `${l.table}.ndjson`), ['id', 'v', 'd', 'n']));
    // Names are lost: each tree matched to the table of its rows; every table found once, the keyed one's clustered tree too.
    expect(sorted(got.map((rows) => [JSON.stringify(rows)]))).toEqual(sorted([...expected.values()].map((rows) => [JSON.stringify(rows)])));
    for (const l of fitted) expect(l.problems).toContain('read with s1 of shape.sql (--schema)');
    const misfits = lines.filter((l) => l.definition === 'guess');
    // `other`'s clustered tree and `keyed`'s secondary index: not read with the shape.
    expect(misfits.length).toBeGreaterThanOrEqual(2);
    for (const l of misfits) expect(l.problems).toContain('no table of --schema fits its records (s1 of shape.sql:');
    expect(readdirSync(join(out, '#dropped')).length).toBe(fitted.length + misfits.filter((l) => l.rows !== '-').length);
  });

  it('--schema without --index-id all is a usage error for a folder', () => {
    const run = cli([dropped, '-o', outDir(), '--schema', schemaFile]);
    expect(run.status).toBe(64);
    expect(run.stderr).toContain('--index-id all');
  });

  it('--schema FOLDER: each tree read with the first of its .sql files\' tables that fits', () => {
    const folder = join(dropped, 'schemas');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a-shape.sql'), `${shapeSql};\n`);
    writeFileSync(join(folder, 'b-other.sql'), `${otherSql};\n`);
    const out = outDir();
    const run = cli([dropped, '-o', out, '--format', 'ndjson', '--json-strings', '--schema', folder, '--index-id', 'all']);
    expect(run.status, run.stderr).toBe(2);
    const lines = tsv(readFileSync(join(out, 'tables.tsv'), 'utf8')).filter((l) => l.db === '#dropped');
    expect(lines.filter((l) => l.definition === 'sql (a-shape.sql: s1)').length).toBe(TABLES + 1);
    const other = lines.filter((l) => l.definition === 'sql (b-other.sql: other)');
    expect(other.length).toBe(1);
    expect(ndjsonRows(join(out, '#dropped', `${other[0].table}.ndjson`), ['a', 'b', 'c'])).toEqual(otherRows);
  });
});
