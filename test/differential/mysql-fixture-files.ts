/**
 * The real MySQL 5.6 / 5.7 / 8.0 files of test/fixtures/mysql-testsuite (see its SOURCE.md):
 * each table's `.sql` lives in the mysql56 tree and serves every version that has the `.ibd`; the
 * script MariaDB runs to compute a table's expected rows (expectedScript, adapted as
 * mysql-fixtures.test.ts says) and the client that runs it (source).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { MariadbServer } from '../harness/mariadb.ts';

export const FIXTURES_ROOT = join(import.meta.dirname, '../fixtures/mysql-testsuite');
export const VERSIONS = ['mysql56', 'mysql57', 'mysql80'] as const;

export interface FixtureTable {
  /** Path of the table below a version's folder, without extension (e.g. `column/int/tb02`). */
  rel: string;
  /** Its `.sql`. */
  sql: string;
  /** The versions that have its `.ibd`. */
  versions: (typeof VERSIONS)[number][];
}

function sqlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sqlFiles(p);
    return p.endsWith('.sql') ? [p] : [];
  });
}

/** Every fixture table with at least one .ibd. Throws when the fixtures are missing. */
export function fixtureTables(): FixtureTable[] {
  if (!existsSync(FIXTURES_ROOT)) throw new Error(`the MySQL fixtures are missing: expected ${FIXTURES_ROOT}`);
  return sqlFiles(join(FIXTURES_ROOT, 'mysql56')).map((sql) => {
    const rel = relative(join(FIXTURES_ROOT, 'mysql56'), sql).replace(/\.sql$/, '');
    const versions = VERSIONS.filter((v) => existsSync(join(FIXTURES_ROOT, v, rel + '.ibd')));
    return { rel, sql, versions };
  }).filter((c) => c.versions.length > 0);
}

/** The `.ibd` of a fixture table written by one version. */
export function fixtureIbd(version: string, rel: string): string {
  return join(FIXTURES_ROOT, version, rel + '.ibd');
}

/**
 * A table's script as the files were filled with it: its `--insert …` lines (not a comment for MySQL,
 * which needs a space after `--`) run as the INSERTs they are, and column/char/tb04.sql without its
 * part for an 8.0 file that is not among the fixtures.
 */
export function readScript(rel: string): string {
  return readFileSync(join(FIXTURES_ROOT, 'mysql56', rel + '.sql'), 'utf8')
    .replace(/^--insert /gm, 'insert ')
    .split('-- below is test data for mysql8.0')[0];
}

const DATA_FROM: Record<string, string> = { 'pk/tb24_sk': 'pk/tb24' };

/** The script MariaDB runs to compute the expected rows (see the adaptations above). */
export function expectedScript(rel: string, table: string): string {
  const own = readScript(rel).replace(/varchar\((\d{5,})\)/gi, 'MEDIUMTEXT');
  const from = DATA_FROM[rel];
  if (from === undefined) return own;
  return `${readScript(from)}\n${own}\nINSERT IGNORE INTO \`${table}\` SELECT * FROM \`${basename(from)}\`;`;
}

/**
 * Runs a script with the mariadb client (it understands `delimiter`, which the protocol does not);
 * --force goes on past statements strict mode refuses, as MySQL 5.7/8.0 did when the files were made.
 */
export function source(server: MariadbServer, db: string, script: string, sqlMode: string): string {
  const res = spawnSync('mariadb', ['--socket', server.socket, '-uroot', '--force', '--default-character-set=utf8mb4', db], {
    input: `SET SESSION sql_mode='${sqlMode}';\n${script}`,
    encoding: 'utf8',
  });
  if (res.status === null) throw new Error(`mariadb client failed to run: ${res.error?.message}`);
  return res.stderr;
}
