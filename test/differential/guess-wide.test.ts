/**
 * "Guess the columns" on what issue 41 found it failing on: the bundled sample (DECIMAL between a DATE
 * and a VARCHAR, a NULL-able INT after a NOT NULL VARCHAR, a VARBINARY that is never NULL and always 4
 * bytes), and MariaDB tables of mixed types with mixed NULL patterns (guess-shapes.ts), COMPACT and
 * DYNAMIC, their .ibd read with no definition. Every row the guess decodes must equal the server's
 * SELECT with no type corrected: what the records cannot tell comes out with the same storage and the
 * same values (DECIMAL(12,3) as decimal(10,3), TEXT as varchar(500), a NULL-able column never NULL as
 * NOT NULL, a null bit never set given to a neighbour).
 * The 61-column table (40 NULL-able columns, 25 of variable length) is guessed whole: the variable
 * fields' null bits told by the header sizes of the pages' first records, their order by how their
 * lengths follow the other null bits (var-bits.ts, var-order.ts), the fields placed with every record
 * read where it is (null-placement.ts); behind a key of two fixed-size columns, the key as its raw bytes
 * (where its columns end is not certain), equal to the server's stored bytes. Where the header sizes
 * do not tell (long latin1 VARCHARs, whose 1-byte lengths of 128..250 read like 2-byte ones), a partial
 * guess: the key decoded equal to the server's in every row, every other column named uncertain and not
 * shown, with the reason (the search was cut, not that no arrangement fits).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGuess, guessedTable, type GuessResult } from '../../src/core/definitions/guess/index.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { decodeRows, guessFile } from './guess-decode.ts';
import { SHAPES, type Shape } from './guess-shapes.ts';
import { rng } from './random-data.ts';

const ROOT = join(import.meta.dirname, '..', '..');



/** Decodes `ibd` with its guess, as it is (no type corrected), and expects every row to equal `want`. */
async function expectRows(ibd: string, name: string, want: (string | null)[][]): Promise<GuessResult> {
  const guess = await guessFile(ibd, name);
  const summary = guess.columns.map((c) => c.type).join(', ');
  expect(guess.columns.length, summary).toBe(want[0].length);
  const table = guessedTable(guess);
  const { rows, problems } = await decodeRows(ibd, table);
  expect(problems, summary).toEqual([]);
  expect(rows.length).toBe(want.length);
  for (let r = 0; r < want.length; r++) expect(rows[r], `row ${r + 1} (${summary})`).toEqual(want[r]);
  return guess;
}

describe('Guess the columns: the sample (issue 41)', () => {
  it('decodes every row of public/sample/employees.ibd equal to the server, DECIMAL included', async () => {
    // the server's SELECT of the sample, saved with NULL as \N (scripts/make-sample.test.ts)
    const csv = Papa.parse<string[]>(readFileSync(join(ROOT, 'test/fixtures/sample-employees.csv'), 'utf8').trim(), { newline: '\n' }).data.slice(1);
    const want = csv.map((row) => row.map((v) => (v === '\\N' ? null : v)));
    const guess = await expectRows(join(ROOT, 'public/sample/employees.ibd'), 'employees', want);
    expect(guess.columns[5].type).toMatch(/^decimal\(\d+,2\)$/);
  });
});

const [ELEVEN, SIXTY_ONE, PAIR_KEY, LONG_LATIN] = SHAPES;

describe.each(['COMPACT', 'DYNAMIC'])('Guess the columns: MariaDB tables of mixed types and NULL patterns, %s (issue 41)', (format) => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb();
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function table(s: Shape): Promise<{ ibd: string; want: (string | null)[][] }> {
    const r = rng(s.name.length * 7907 + s.rows);
    // COMPACT keeps 768 bytes of each TEXT in the record: the 61 columns' CREATE is refused in strict mode, their rows fit
    await server.exec(`SET SESSION innodb_strict_mode = 0; CREATE TABLE \`${s.name}\` (${s.columns.join(', ')}) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=${format}; `
      + `INSERT INTO \`${s.name}\` VALUES ${Array.from({ length: s.rows }, (_, i) => s.row(r, i)).join(', ')};`);
    const want = (await server.query(`SELECT * FROM \`${s.name}\` ORDER BY id`)).rows;
    return { ibd: await server.exportTable(s.name), want };
  }

  it('11 columns: every row equal to the server', async () => {
    const { ibd, want } = await table(ELEVEN);
    // with no off-page value and MariaDB's full_crc32 flags, COMPACT and DYNAMIC records read alike: either format decodes them
    await expectRows(ibd, ELEVEN.name, want);
  });

  it('61 columns: every row equal to the server', async () => {
    const { ibd, want } = await table(SIXTY_ONE);
    const guess = await expectRows(ibd, SIXTY_ONE.name, want);
    expect(guess.uncertain).toBeNull();
    // a rarely NULL CHAR(10) beside the next block's NOT NULL VARCHAR: their lengths barely tell their order, and the guess says so
    expect(guess.notes.join('\n')).toMatch(/NOT NULL variable-length columns sit among the NULL-able ones is not proven by the records' lengths/);
  });

  it('61 columns behind a key of an INT and a BIGINT: the key as its raw bytes (its cut is not certain), every other column equal to the server', async () => {
    const { ibd, want } = await table(PAIR_KEY);
    const guess = await guessFile(ibd, PAIR_KEY.name);
    expect(guess.uncertain).toBeNull();
    expect(guess.columns[0]).toEqual({ name: 'c1', type: 'binary(12)', nullable: false, key: true });
    expect(guess.columns.length).toBe(61);
    expect(guess.notes.join('\n')).toMatch(/the key's 12 bytes look like \d+ columns, but where they end is not certain .* shown as its raw bytes/);
    const { rows, problems } = await decodeRows(ibd, guessedTable(guess));
    expect(problems).toEqual([]);
    // InnoDB stores a signed integer big-endian with its sign bit flipped: the server's (id, k) as those 12 bytes
    const stored = (v: string, bytes: number) => (BigInt(v) + (1n << BigInt(8 * bytes - 1))).toString(16).toUpperCase().padStart(2 * bytes, '0');
    expect(rows).toEqual(want.map((w) => [`0x${stored(w[0] as string, 4)}${stored(w[1] as string, 8)}`, ...w.slice(2)]));
  });

  it('61 columns whose header sizes do not tell the null bits: a partial guess, the key decoded equal to the server, the other columns named uncertain and not shown', async () => {
    const { ibd, want } = await table(LONG_LATIN);
    const guess = await guessFile(ibd, LONG_LATIN.name);
    // the search says it was cut, not that no arrangement fits; what is left out is named
    expect(guess.uncertain?.why).toMatch(/not found within the search's bound .*only the key \(the first 4 bytes of every record\)/i);
    expect(guess.uncertain?.columns).toMatch(/every column after DB_ROLL_PTR/);
    expect(guess.fields.map((f) => f.name)).toEqual(['c1', 'DB_TRX_ID', 'DB_ROLL_PTR']);
    expect(guess.columns).toEqual([{ name: 'c1', type: 'int', nullable: false, key: true }]);
    expect(formatGuess(guess)).toContain('not decoded: every column after DB_ROLL_PTR');
    // the one column called certain: the server's `id`, in every row; nothing else is shown
    const { rows, problems } = await decodeRows(ibd, guessedTable(guess));
    expect(problems).toEqual([]);
    expect(rows).toEqual(want.map((w) => [w[0]]));
    // the command line: the same rows, what is left out said in a warning, the output called incomplete (2)
    rmSync(ibd.replace(/\.ibd$/, '.frm'), { force: true }); // no schema source at all
    const dir = mkdtempSync(join(tmpdir(), 'guess-wide-cli-'));
    try {
      const cli = join(dir, 'ibd-reader.mjs');
      await build({ entryPoints: ['src/cli.ts'], outfile: cli, bundle: true, platform: 'node', target: 'node20', format: 'esm', logLevel: 'warning' });
      const run = spawnSync(process.execPath, [cli, ibd, '--guess', '--threads', '1', '--format', 'ndjson', '--json-strings'], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/\(uncertain\) +not decoded: every column after DB_ROLL_PTR/);
      expect(run.stderr).toMatch(/warning: .*the columns were only partly guessed: every column after DB_ROLL_PTR .* left out of every row/);
      const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, string | null>);
      expect(lines).toEqual(want.map((w) => ({ c1: w[0] })));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
