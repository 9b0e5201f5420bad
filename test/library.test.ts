/**
 * The library as a program using it sees it: the built package (dist-lib/, `npm run build`) imported
 * by its name through package.json `exports`, and its declarations type-checked from outside the
 * project. On real MySQL 5.6 / 5.7 / 8.0 files it must list the same tables, give the same rows and
 * counts as the CLI (dist-cli/) does for the same files: of a file alone (MySQL 8's own definition),
 * with its .sql, in every row mode, with a damaged leaf page; and the browser entry the same from Files.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type NodeEntry = typeof import('../src/lib/node.ts');
type BrowserEntry = typeof import('../src/lib/index.ts');

const ROOT = join(import.meta.dirname, '..');
const FIXTURES = join(ROOT, 'test/fixtures/mysql-testsuite');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: { '.': Record<string, { types: string; default: string }> } };
const BUILT = ['dist-cli/ibd-reader.mjs', ...Object.values(PACKAGE.exports['.']).flatMap((c) => (typeof c === 'string' ? [c] : [c.types, c.default]))];

function cli(...args: string[]): { stdout: string; stderr: string; status: number | null } {
  return spawnSync(process.execPath, [CLI, ...args, '--threads', '1'], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

/** The library's rows as the CLI's NDJSON writes them: one JSON object per line, keyed by column name. */
async function ndjson(rows: AsyncIterable<Record<string, string | null>>): Promise<string> {
  let out = '';
  for await (const row of rows) out += `${JSON.stringify(row)}\n`;
  return out;
}

/** A copy of `ibd` in `dir` whose page `no` fails its checksum (its page type overwritten). */
function damagedCopy(ibd: string, dir: string, no: number): string {
  const bytes = new Uint8Array(readFileSync(ibd));
  new DataView(bytes.buffer).setUint16(no * 16384 + 24, 0);
  const copy = join(dir, 'damaged.ibd');
  writeFileSync(copy, bytes);
  return copy;
}

describe('the library, imported by its package name', () => {
  let lib: NodeEntry;
  let dir: string;

  beforeAll(async () => {
    const missing = BUILT.filter((f) => !existsSync(join(ROOT, f)));
    if (missing.length > 0) throw new Error(`the built package is missing (${missing.join(', ')}): run \`npm run build\` first`);
    lib = (await import(PACKAGE.name)) as NodeEntry;
    dir = mkdtempSync(join(tmpdir(), 'ibd-library-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('resolves to the built Node entry (exports "node")', async () => {
    const built = (await import(pathToFileURL(join(ROOT, PACKAGE.exports['.'].node.default)).href)) as NodeEntry;
    expect(lib.openInnodb).toBe(built.openInnodb);
    expect(lib.ROW_MODES).toEqual(['live', 'deleted', 'both', 'damaged', 'all']);
  });

  it.each(['mysql80/simple/tb01.ibd', 'mysql80/simple/emp.ibd', 'mysql80/nullcolumn/tb12.ibd'])('%s alone: its table, rows and count are the CLI\'s', async (rel) => {
    const path = join(FIXTURES, rel);
    const file = await lib.openInnodb(path);
    try {
      expect(file.tables().map((t) => [t.name, t.source])).toEqual([[rel.split('/').pop()!.replace('.ibd', ''), 'sdi']]);
      expect(`${file.definition().definition.createSql};\n`).toBe(cli(path, '--print-ddl').stdout);
      const table = await file.table();
      const rows = await ndjson(table.rows());
      expect(rows.split('\n').length).toBeGreaterThan(2);
      expect(rows).toBe(cli(path, '--format', 'ndjson', '--json-strings').stdout);
      expect(`${(await table.count()).rows}\n`).toBe(cli(path, '--count').stdout);
    } finally {
      await file.close();
    }
  });

  it.each(['mysql56', 'mysql57'])('a %s file with its .sql, given outright or as a companion: the CLI\'s rows', async (version) => {
    const path = join(FIXTURES, version, 'simple/emp.ibd');
    const sql = join(FIXTURES, 'mysql56/simple/emp.sql');
    const expected = cli(path, '--schema', sql, '--format', 'ndjson', '--json-strings').stdout;
    expect(expected.split('\n').length).toBeGreaterThan(10);
    for (const options of [{ schema: sql }, { files: [sql] }]) {
      const file = await lib.openInnodb(path, options);
      const table = await file.table();
      expect(await ndjson(table.rows())).toBe(expected);
      expect(table.stats.rowsDecoded).toBe(expected.split('\n').length - 1);
      await file.close();
    }
    const alone = await lib.openInnodb(path);
    if (existsSync(path.replace(/\.ibd$/, '.sql'))) {
      // FILE.sql beside FILE.ibd is its definition, found as the page pairs it.
      expect(await ndjson((await alone.table()).rows())).toBe(expected);
    } else {
      expect(alone.tables()).toEqual([]);
      expect(() => alone.definition()).toThrow(lib.NoDefinitionError);
      expect(alone.error).toMatch(/no \.frm or \.sql file describing it was given$/);
    }
    await alone.close();
  });

  it('deleted rows: every mode\'s rows and count are the CLI\'s, `_row_state` last where a mode has several states', async () => {
    const path = join(FIXTURES, 'mysql80/deletion/tb13.ibd');
    const file = await lib.openInnodb(path);
    for (const mode of lib.ROW_MODES) {
      const table = await file.table(null, { rows: mode });
      expect(table.columns.at(-1) === lib.ROW_STATE_COLUMN, mode).toBe(mode === 'deleted' || mode === 'both' || mode === 'all');
      expect(await ndjson(table.rows()), mode).toBe(cli(path, '--rows', mode, '--format', 'ndjson', '--json-strings').stdout);
      expect(`${(await table.count()).rows}\n`, mode).toBe(cli(path, '--rows', mode, '--count').stdout);
    }
    const both = await file.table(null, { rows: 'both' });
    await ndjson(both.rows());
    expect(both.stats.deletedRecovered).toBeGreaterThan(0);
    await file.close();
  });

  it('a damaged leaf page: its rows are withheld from live and counted, read as `damaged` in all, as by the CLI', async () => {
    const sql = join(FIXTURES, 'mysql56/deletion/tb13.sql');
    const ibd = join(FIXTURES, 'mysql56/deletion/tb13.ibd');
    const intact = await lib.openInnodb(ibd, { schema: sql });
    const leaves = await (await intact.table()).reader.leafPages();
    await intact.close();
    expect(leaves.length).toBeGreaterThan(2);
    const copy = damagedCopy(ibd, dir, leaves[leaves.length >> 1]);
    const file = await lib.openInnodb(copy, { schema: sql });
    const live = await file.table('tb13');
    const run = cli(copy, '--schema', sql, '--table', 'tb13', '--format', 'ndjson', '--json-strings');
    expect(run.status).toBe(2);
    expect(await ndjson(live.rows())).toBe(run.stdout);
    expect(live.stats.damagedPages).toBe(1);
    expect(live.stats.damagedWithheld).toBeGreaterThan(0);
    expect(run.stderr).toContain(`${live.stats.damagedWithheld} rows from damaged pages were withheld`);
    const all = await file.table('tb13', { rows: 'all' });
    const allRows = await ndjson(all.rows());
    expect(allRows).toBe(cli(copy, '--schema', sql, '--table', 'tb13', '--rows', 'all', '--format', 'ndjson', '--json-strings').stdout);
    expect(allRows.match(/"_row_state":"damaged"/g)?.length).toBe(live.stats.damagedWithheld);
    expect(`${(await all.count()).rows}\n`).toBe(cli(copy, '--schema', sql, '--table', 'tb13', '--rows', 'all', '--count').stdout);
    await file.close();
  });

  it('a dump of several tables: the tables the CLI lists, and the one named', async () => {
    const dump = join(dir, 'dump.sql');
    writeFileSync(dump, ['simple/tb01.sql', 'simple/emp.sql', 'deletion/tb13.sql'].map((f) => readFileSync(join(FIXTURES, 'mysql56', f), 'utf8')).join('\n'));
    const other = join(dir, 'other.ibd');
    writeFileSync(other, readFileSync(join(FIXTURES, 'mysql57/simple/emp.ibd')));
    const file = await lib.openInnodb(other, { schema: dump });
    const listed = /; tables: (.*) \(choose one with --table\)$/m.exec(cli(other, '--schema', dump).stderr)?.[1].split(', ');
    expect(file.tables().map((t) => t.name)).toEqual(listed);
    expect(listed).toEqual(['tb01', 'dept', 'emp', 'tb13']);
    expect(() => file.definition()).toThrow(lib.TableChoiceError);
    expect(await ndjson((await file.table('EMP')).rows())).toBe(cli(other, '--schema', dump, '--table', 'emp', '--format', 'ndjson', '--json-strings').stdout);
    await file.close();
  });

  it('the browser entry (exports "browser"), from Files: the rows of the Node entry', async () => {
    const browser = (await import(pathToFileURL(join(ROOT, PACKAGE.exports['.'].browser.default)).href)) as BrowserEntry;
    const ibd = new File([readFileSync(join(FIXTURES, 'mysql57/simple/emp.ibd'))], 'emp.ibd');
    const sql = new File([readFileSync(join(FIXTURES, 'mysql56/simple/emp.sql'))], 'emp.sql');
    const fromFiles = await browser.openInnodb(ibd, { files: [sql] });
    const fromPath = await lib.openInnodb(join(FIXTURES, 'mysql57/simple/emp.ibd'), { files: [join(FIXTURES, 'mysql56/simple/emp.sql')] });
    expect(await ndjson((await fromFiles.table()).rows())).toBe(await ndjson((await fromPath.table()).rows()));
    const bytes = await browser.openInnodb(new Uint8Array(readFileSync(join(FIXTURES, 'mysql80/simple/tb01.ibd'))), { name: 'tb01.ibd' });
    expect((await (await bytes.table()).count()).rows).toBe(10);
    await fromPath.close();
  });

  it('its declarations type-check in a program that depends on it', () => {
    const app = join(dir, 'app');
    mkdirSync(join(app, 'node_modules'), { recursive: true });
    symlinkSync(ROOT, join(app, 'node_modules', PACKAGE.name), 'dir');
    writeFileSync(join(app, 'package.json'), '{ "type": "module" }');
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, lib: ['ES2022', 'DOM'], types: [] },
      files: ['app.ts'],
    }));
    writeFileSync(join(app, 'app.ts'), `import { openInnodb, type RowObject } from '${PACKAGE.name}';
const file = await openInnodb('t.ibd', { files: ['t.frm'] });
const table = await file.table(null, { rows: 'all' });
const rows: RowObject[] = [];
for await (const row of table.rows()) rows.push(row);
const withheld: number = table.stats.damagedWithheld + (await table.count()).rows;
const bad: number = file.name;
void withheld; void bad;
`);
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: app, encoding: 'utf8' });
    // The one deliberate error, and only it: every other line checked against the declarations.
    expect(tsc.stdout.trim()).toMatch(/^app\.ts\(7,7\): error TS2322: Type 'string' is not assignable to type 'number'\.$/);
  });
});
