/**
 * "Guess the columns" against a real MariaDB: tables of common shapes in every row format, exported
 * and read with no schema at all. The guess must find the right number of fields and the key, its
 * types must decode every row (the columns it typed exactly equal the server's SELECT; for the others
 * the bytes it shows are the column's stored bytes), and the true types, entered as a user's
 * correction, must decode every value exactly.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { compile } from 'svelte/compiler';
import { render } from 'svelte/server';
import type { Component } from 'svelte';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusteredLayout } from '../src/core/records/clustered-index.ts';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { createGuessMethods } from '../workers/guess-methods.ts';
import { formatGuess, guessedTable, tableFromColumns, type ColumnEdit, type GuessResult } from '../src/core/definitions/guess/index.ts';
import type { TableDef } from '../src/core/schema.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';
import { decodeRows, guessFile } from './differential/guess-decode.ts';
import { rng } from './differential/random-data.ts';

interface Shape {
  name: string;
  /** Column definitions in table order; key columns come first, as the guess lists them. */
  columns: { name: string; sql: string }[];
  primaryKey: string[];
  row: (r: () => number, i: number) => string[];
}

const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const word = (r: () => number, min: number, max: number) => {
  const letters = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZé0123456789';
  const n = min + Math.floor(r() * (max - min + 1));
  return Array.from({ length: n }, () => letters[Math.floor(r() * letters.length)]).join('').trim() || 'x';
};
const day = (r: () => number) => `${1950 + Math.floor(r() * 70)}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`;
const maybe = (r: () => number, v: string) => (r() < 0.2 ? 'NULL' : v);

const SHAPES: Shape[] = [
  {
    name: 'people',
    columns: [
      { name: 'id', sql: 'INT NOT NULL' },
      { name: 'name', sql: 'VARCHAR(40) NOT NULL' },
      { name: 'born', sql: 'DATE NOT NULL' },
      { name: 'amount', sql: 'DECIMAL(10,2) NOT NULL' },
    ],
    primaryKey: ['id'],
    row: (r, i) => [String(i * 3 + 1), q(word(r, 2, 38)), q(day(r)), (r() * 2e6 - 1e6).toFixed(2)],
  },
  {
    name: 'documents',
    columns: [
      { name: 'id', sql: 'BIGINT NOT NULL' },
      { name: 'code', sql: 'CHAR(8) CHARACTER SET latin1 NOT NULL' },
      { name: 'body', sql: 'TEXT' },
      { name: 'n', sql: 'INT NULL' },
      { name: 'd', sql: 'DATE NULL' },
      { name: 's', sql: 'VARCHAR(20) NULL' },
    ],
    primaryKey: ['id'],
    row: (r, i) => [
      String(1000000 + i * 7),
      q(`K${Math.floor(r() * 1e6)}`.slice(0, 1 + Math.floor(r() * 8))),
      // mostly short, some over 127 bytes (2-byte lengths), a few long enough to go off-page
      maybe(r, q(r() < 0.03 ? word(r, 9000, 12000) : r() < 0.3 ? word(r, 130, 600) : word(r, 1, 100))),
      maybe(r, String(Math.floor(r() * 20000) - 10000)),
      maybe(r, q(day(r))),
      maybe(r, q(word(r, 1, 20))),
    ],
  },
  {
    name: 'events',
    columns: [
      { name: 'a', sql: 'INT NOT NULL' },
      { name: 'b', sql: 'VARCHAR(30) NOT NULL' },
      { name: 'c', sql: 'DATETIME NOT NULL' },
    ],
    primaryKey: [],
    row: (r) => [String(Math.floor(r() * 1e6)), q(word(r, 1, 30)), q(`${day(r)} ${String(Math.floor(r() * 24)).padStart(2, '0')}:${String(Math.floor(r() * 60)).padStart(2, '0')}:${String(Math.floor(r() * 60)).padStart(2, '0')}`)],
  },
  {
    name: 'pairs',
    columns: [
      { name: 'k1', sql: 'INT NOT NULL' },
      { name: 'k2', sql: 'VARCHAR(12) NOT NULL' },
      { name: 'v', sql: 'INT NOT NULL' },
      { name: 'note', sql: 'VARCHAR(50) NULL' },
    ],
    primaryKey: ['k1', 'k2'],
    row: (r, i) => [String(Math.floor(i / 4)), q(`k${i % 4}${word(r, 0, 8)}`), String(Math.floor(r() * 1e5) - 5e4), maybe(r, q(word(r, 1, 50)))],
  },
  {
    name: 'mixed',
    columns: [
      { name: 'id', sql: 'INT NOT NULL' },
      { name: 'a', sql: 'TINYINT NOT NULL' },
      { name: 'b', sql: 'SMALLINT NULL' },
      { name: 'c', sql: 'DOUBLE NOT NULL' },
      { name: 'd', sql: 'DATETIME(3) NULL' },
      { name: 'e', sql: 'VARCHAR(100) NULL' },
      { name: 'f', sql: 'CHAR(4) NOT NULL' },
      { name: 'g', sql: 'INT UNSIGNED NULL' },
      { name: 'h', sql: 'VARBINARY(16) NULL' },
    ],
    primaryKey: ['id'],
    row: (r, i) => [
      String(i + 1),
      // Full-range random bytes on both sides of a boundary look the same wherever it is put: like most
      // real data, these small numbers leave their high bytes nearly constant.
      String(Math.floor(r() * 100)),
      maybe(r, String(Math.floor(r() * 4000) - 2000)),
      (r() * 1e4 - 5e3).toFixed(3),
      maybe(r, q(`${day(r)} 12:${String(Math.floor(r() * 60)).padStart(2, '0')}:0${Math.floor(r() * 10)}.${Math.floor(r() * 1000)}`)),
      maybe(r, q(word(r, 0, 100))),
      q(word(r, 1, 4)),
      maybe(r, String(Math.floor(r() * 4e9))),
      maybe(r, `0x${Array.from({ length: 1 + Math.floor(r() * 16) }, () => Math.floor(r() * 256).toString(16).padStart(2, '0')).join('')}`),
    ],
  },
  wideShape(),
  {
    // NULL-able columns that are never NULL: a null bitmap of zeros, which must not be read as lengths
    name: 'sparse',
    columns: [
      { name: 'id', sql: 'INT NOT NULL' },
      { name: 'a', sql: 'VARCHAR(20) NULL' },
      { name: 'b', sql: 'INT NULL' },
      { name: 'c', sql: 'DATE NULL' },
    ],
    primaryKey: ['id'],
    row: (r, i) => [String(i * 5), q(word(r, 1, 20)), String(Math.floor(r() * 1e5)), q(day(r))],
  },
];

/** Many columns, a third of them NULL-able, of the common types in turn: a bigger search. */
function wideShape(): Shape {
  const kinds: { sql: string; value: (r: () => number) => string }[] = [
    { sql: 'INT NULL', value: (r) => maybe(r, String(Math.floor(r() * 2e6) - 1e6)) },
    { sql: 'VARCHAR(20) NOT NULL', value: (r) => q(word(r, 1, 20)) },
    { sql: 'DATE NOT NULL', value: (r) => q(day(r)) },
    { sql: 'BIGINT NOT NULL', value: (r) => String(Math.floor(r() * 1e12)) },
    { sql: 'VARCHAR(200) NULL', value: (r) => maybe(r, q(word(r, 0, 200))) },
    { sql: 'SMALLINT NOT NULL', value: (r) => String(Math.floor(r() * 60000) - 30000) },
  ];
  const columns = [{ name: 'id', sql: 'INT NOT NULL' }, ...Array.from({ length: 24 }, (_, i) => ({ name: `w${i}`, sql: kinds[i % kinds.length].sql }))];
  return {
    name: 'wide',
    columns,
    primaryKey: ['id'],
    row: (r, i) => [String(i + 1), ...Array.from({ length: 24 }, (_, k) => kinds[k % kinds.length].value(r))],
  };
}

const ROW_FORMATS = ['REDUNDANT', 'COMPACT', 'DYNAMIC'] as const;
const ROWS = 300;

function createSql(shape: Shape, table: string, rowFormat: string): string {
  const cols = shape.columns.map((c) => `\`${c.name}\` ${c.sql}`);
  if (shape.primaryKey.length > 0) cols.push(`PRIMARY KEY (${shape.primaryKey.join(', ')})`);
  return `CREATE TABLE \`${table}\` (${cols.join(', ')}) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=${rowFormat}`;
}



/** The type family a value's text depends on: where the guess matches it, values must be equal. */
function family(type: string): string {
  const t = type.toLowerCase().trim();
  const base = t.split(/[\s(]/)[0];
  if (['tinyint', 'smallint', 'mediumint', 'int', 'bigint'].includes(base)) return `${base}${t.includes('unsigned') ? ' unsigned' : ''}`;
  if (['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext'].includes(base)) return 'string';
  return base;
}

/** Hex text (as the decoder renders binary values) back to bytes. */
function unhex(text: string): Uint8Array {
  const h = text.startsWith('0x') ? text.slice(2) : text;
  return Uint8Array.from({ length: h.length / 2 }, (_, i) => parseInt(h.slice(2 * i, 2 * i + 2), 16));
}

describe('guess the columns of a table with no schema (MariaDB)', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const cases = ROW_FORMATS.flatMap((rowFormat) => SHAPES.map((shape) => ({ rowFormat, shape })));
  it.each(cases)('$shape.name, ROW_FORMAT=$rowFormat', async ({ rowFormat, shape }) => {
    const table = `${shape.name}_${rowFormat.toLowerCase()}`;
    const r = rng(table.length * 7919 + rowFormat.length);
    const values = Array.from({ length: ROWS }, (_, i) => `(${shape.row(r, i).join(', ')})`);
    await server.exec(`${createSql(shape, table, rowFormat)}; INSERT IGNORE INTO \`${table}\` VALUES ${values.join(', ')};`);
    await expectGuess(server, shape, table, rowFormat);
  });

  it.each(ROW_FORMATS)('rows inserted out of order, then some deleted and updated (pages with garbage), ROW_FORMAT=%s', async (rowFormat) => {
    const shape = SHAPES[0];
    const table = `churn_${rowFormat.toLowerCase()}`;
    const r = rng(rowFormat.length * 31);
    const rows = Array.from({ length: 2000 }, (_, i) => `(${shape.row(r, i).join(', ')})`);
    for (let i = rows.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [rows[i], rows[j]] = [rows[j], rows[i]];
    }
    await server.exec(`${createSql(shape, table, rowFormat)}; INSERT INTO \`${table}\` VALUES ${rows.join(', ')};`
      + `DELETE FROM \`${table}\` WHERE id % 10 = 3; UPDATE \`${table}\` SET name = CONCAT(LEFT(name, 30), 'xyz') WHERE id % 10 = 5; UPDATE \`${table}\` SET name = LEFT(name, 2) WHERE id % 10 = 7;`);
    await expectGuess(server, shape, table, rowFormat);
  });


  it('the worker methods: a structured-clone-friendly guess, and the edited table registered by name', async () => {
    const shape = SHAPES[0];
    const table = 'worker_guess';
    const r = rng(7);
    const values = Array.from({ length: 50 }, (_, i) => `(${shape.row(r, i).join(', ')})`);
    await server.exec(`${createSql(shape, table, 'COMPACT')}; INSERT INTO \`${table}\` VALUES ${values.join(', ')};`);
    const ibd = await server.exportTable(table);
    const registered: TableDef[] = [];
    const methods = createGuessMethods((t) => registered.push(t));
    const guess = await methods.guessColumns(new Blob([readFileSync(ibd)]), `${table}.ibd`);
    expect(structuredClone(guess)).toEqual(guess);
    expect(guess.tableName).toBe(table);
    expect(registered.map((t) => t.name)).toEqual([table]);
    const edited = guess.columns.map((c, i) => ({ ...c, name: shape.columns[i].name }));
    const info = await methods.tableFromGuess(table, edited);
    expect(info.columnCount).toBe(shape.columns.length);
    expect(registered[1].columns.map((c) => c.name)).toEqual(shape.columns.map((c) => c.name));
    await expect(methods.tableFromGuess(table, [{ ...edited[0], type: 'no such type(' }])).rejects.toThrow();
  });

  it('the command line guesses with --guess when no schema is found, and decodes with the guess', async () => {
    const shape = SHAPES[0];
    const table = 'cli_guess';
    const r = rng(42);
    const values = Array.from({ length: ROWS }, (_, i) => `(${shape.row(r, i).join(', ')})`);
    await server.exec(`${createSql(shape, table, 'DYNAMIC')}; INSERT INTO \`${table}\` VALUES ${values.join(', ')};`);
    const expected = await server.query(`SELECT * FROM \`${table}\` ORDER BY id`);
    const ibd = await server.exportTable(table);
    rmSync(ibd.replace(/\.ibd$/, '.frm'), { force: true }); // no schema source at all
    const dir = mkdtempSync(join(tmpdir(), 'guess-cli-'));
    try {
      const cli = join(dir, 'ibd-reader.mjs');
      await build({ entryPoints: ['src/cli.ts'], outfile: cli, bundle: true, platform: 'node', target: 'node20', format: 'esm', logLevel: 'warning' });
      const without = spawnSync(process.execPath, [cli, ibd, '--threads', '1'], { encoding: 'utf8' });
      expect(without.status).toBe(1);
      const run = spawnSync(process.execPath, [cli, ibd, '--guess', '--threads', '1', '--format', 'ndjson', '--json-strings'], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/CREATE TABLE `cli_guess`/);
      expect(run.stderr).toMatch(/DB_TRX_ID/);
      const rows = run.stdout.trim().split('\n').map((line) => Object.values(JSON.parse(line) as Record<string, string | null>));
      expect(rows.length).toBe(expected.rows.length);
      // the key (an INT) and the VARCHAR are typed exactly by the guess
      expect(rows.map((row) => [row[0], row[1]])).toEqual(expected.rows.map((row) => [row[0], row[1]]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Exports `table`, guesses its columns with no schema and checks the guess against the server (see the file header). */
async function expectGuess(server: MariadbServer, shape: Shape, table: string, rowFormat: string): Promise<void> {
  const orderBy = shape.primaryKey.length > 0 ? ` ORDER BY ${shape.primaryKey.join(', ')}` : '';
  const expected = await server.query(`SELECT * FROM \`${table}\`${orderBy}`);
  const ibd = await server.exportTable(table);

  const guess = await guessFile(ibd, table);
  if (process.env.GUESS_DEBUG) console.log(formatGuess(guess));
  const summary = guess.fields.map((f) => `${f.name}:${f.type || 'sys'}:${f.minLength}-${f.maxLength}`).join(' ');
  // the number of fields and the key split
  expect(guess.columns.length, summary).toBe(shape.columns.length);
  expect(guess.columns.filter((c) => c.key).length, summary).toBe(shape.primaryKey.length);
  expect(guess.fields.some((f) => f.name === 'DB_ROW_ID'), summary).toBe(shape.primaryKey.length === 0);
  // COMPACT and DYNAMIC records differ only in how off-page values are kept
  const offPage = guess.fields.some((f) => f.externs > 0);
  expect(offPage || rowFormat === 'REDUNDANT' ? guess.rowFormat : guess.rowFormat !== 'REDUNDANT').toBe(offPage || rowFormat === 'REDUNDANT' ? rowFormat : true);

  // the guessed types decode every row
  const guessed = await decodeRows(ibd, guessedTable(guess));
  expect(guessed.problems, summary).toEqual([]);
  expect(guessed.rows.length).toBe(expected.rows.length);
  const exact = guess.columns.map((c, i) => family(c.type) === family(shape.columns[i].sql));
  // columns typed otherwise are shown as hex of their stored bytes: decode those bytes with the true type
  const asBytes: ColumnEdit[] = guess.columns.map((c, i) => (exact[i] ? c : { ...c, type: hexType(guess, i) }));
  const hexRows = (await decodeRows(ibd, tableFromColumns(table, asBytes, guess.rowFormat))).rows;
  const truth = parseCreateTables(createSql(shape, table, rowFormat))[0];
  const layout = clusteredLayout(truth, rowFormat === 'REDUNDANT');
  const renderers = truth.columns.map((c) => layout.fields.find((f) => f.name === c.name)?.render);
  for (let row = 0; row < expected.rows.length; row++) {
    for (let col = 0; col < shape.columns.length; col++) {
      const want = expected.rows[row][col];
      if (exact[col]) {
        expect(guessed.rows[row][col], `${shape.columns[col].name} (${guess.columns[col].type}), row ${row}`).toBe(want);
      } else {
        const cell = hexRows[row][col];
        const bytes = cell === null ? null : unhex(cell);
        const render = renderers[col];
        const shown = bytes === null || render === undefined ? null : render(bytes, 0, bytes.length);
        expect(shown, `${shape.columns[col].name} (guessed ${guess.columns[col].type}), row ${row}`).toBe(want);
      }
    }
  }

  // the user's correction: the true types under the guessed names decode every value exactly
  const corrected: ColumnEdit[] = guess.columns.map((c, i) => ({
    ...c, type: shape.columns[i].sql.replace(/\s+(NOT\s+)?NULL$/i, ''), nullable: !/NOT NULL/i.test(shape.columns[i].sql), key: shape.primaryKey.includes(shape.columns[i].name),
  }));
  const fixed = await decodeRows(ibd, tableFromColumns(table, corrected, guess.rowFormat));
  expect(fixed.problems).toEqual([]);
  expect(fixed.rows).toEqual(expected.rows);
}

/** A hex-rendered type of the same storage as the guessed column: binary(n) for fixed fields, else a blob. */
function hexType(guess: GuessResult, column: number): string {
  const f = guess.fields.filter((x) => !x.system)[column];
  if (f.fixed) return `binary(${f.maxLength})`;
  return f.externs > 0 || f.maxLength > 255 ? 'blob' : 'varbinary(255)';
}

describe.each([4096, 65536])('guess the columns on %i-byte pages', (pageSize) => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const cases = (['COMPACT', 'DYNAMIC'] as const).flatMap((rowFormat) => SHAPES.filter((s) => ['documents', 'wide'].includes(s.name)).map((shape) => ({ rowFormat, shape })));
  it.each(cases)('$shape.name, ROW_FORMAT=$rowFormat', async ({ rowFormat, shape }) => {
    const table = `${shape.name}_${rowFormat.toLowerCase()}`;
    const r = rng(pageSize + table.length);
    const values = Array.from({ length: ROWS }, (_, i) => `(${shape.row(r, i).join(', ')})`);
    await server.exec(`SET SESSION innodb_strict_mode=OFF; ${createSql(shape, table, rowFormat)}; INSERT IGNORE INTO \`${table}\` VALUES ${values.join(', ')};`);
    await expectGuess(server, shape, table, rowFormat);
  });
});

describe('GuessEditor.svelte (server-rendered)', () => {
  it('shows every field with its lengths, samples and an editable type', async () => {
    const source = readFileSync('src/ui/recovery/GuessEditor.svelte', 'utf8');
    const internal = pathToFileURL(createRequire(import.meta.url).resolve('svelte/internal/server')).href;
    const js = compile(source, { generate: 'server', filename: 'GuessEditor.svelte' }).js.code.replaceAll("'svelte/internal/server'", `'${internal}'`);
    const dir = mkdtempSync(join(tmpdir(), 'guess-editor-'));
    try {
      const file = join(dir, 'GuessEditor.mjs');
      writeFileSync(file, js);
      const component = (await import(pathToFileURL(file).href)) as { default: Component<{ guess: GuessResult; onapply: (columns: ColumnEdit[]) => void }> };
      const field = (name: string, system: boolean, type: string) => ({
        name, system, key: name === 'c1', fixed: true, minLength: 4, maxLength: 4, nulls: 0, externs: 0, records: 10,
        samples: ['80000001'], type, nullable: false, confidence: 'high' as const, note: `${name} note`,
      });
      const guess: GuessResult = {
        tableName: 't', rowFormat: 'DYNAMIC', pagesSampled: 1, recordsSampled: 10,
        fields: [field('c1', false, 'int'), field('DB_TRX_ID', true, ''), field('c2', false, 'varchar(20)')],
        columns: [{ name: 'c1', type: 'int', nullable: false, key: true }, { name: 'c2', type: 'varchar(20)', nullable: true, key: false }],
        createSql: 'CREATE TABLE t (c1 int)', notes: ['a note for the user'], uncertain: null,
      };
      const html = render(component.default, { props: { guess, onapply: () => undefined } }).body;
      expect(html).toContain('DB_TRX_ID');
      expect(html).toContain('value="varchar(20)"');
      expect(html).toContain('80000001');
      expect(html).toContain('a note for the user');
      expect(html).toContain('Decode with these columns');
      expect(html).not.toContain('guess-partial');
      // a partial guess: what is not decoded is named, marked, and no value stands for it
      const partial = render(component.default, { props: { guess: { ...guess, uncertain: { columns: 'every column after DB_ROLL_PTR', why: 'the search was cut' } }, onapply: () => undefined } }).body;
      expect(partial).toMatch(/data-testid="guess-partial"[^>]*>[^]*partial<\/span> Only the columns below could be worked out; not decoded:\s*every column after DB_ROLL_PTR: the search was cut./);
      expect(partial).toMatch(/<tr class="uncertain[^]*uncertain<\/span> not decoded: every column after DB_ROLL_PTR/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
