/**
 * NDJSON's numbers against MariaDB: every integer type at its limits and about ±2^53, DECIMALs of a few and
 * of 65 digits, FLOAT and DOUBLE at their edges and at random, BIT(1/9/64). Each line is read back with
 * JSON.parse and compared with the server's SELECT: a JSON number must be the server's text itself
 * (as written) and the double it parses to must be the server's value (Number of its text, exact for
 * integers); a value written as a string must be the server's text, and one that no double holds
 * exactly. BIT is `SELECT col+0`'s number. --json-strings writes the NDJSON of before, byte for byte
 * (every value the server's text, BIT as 0x hex), and the library's table.ndjson() what the CLI writes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjsonRows } from '../../src/core/writers/output.ts';
import { openInnodb } from '../../src/lib/node.ts';
import { startMariadb, type MariadbServer, type QueryResult } from '../harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const INTEGERS = ['ti', 'tu', 'si', 'mi', 'i', 'iu', 'bi', 'bu'];
const DECIMALS = ['d2', 'd25', 'd65', 'f', 'g'];
const BITS = ['b1', 'b9', 'b64'];

describe('NDJSON numbers, against MariaDB', () => {
  let server: MariadbServer;
  let dir: string;
  let ibd: string;
  let expected: QueryResult;
  /** `SELECT col+0` of the BIT columns, by id. */
  let bits: Map<string, (string | null)[]>;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb();
    dir = mkdtempSync(join(tmpdir(), 'ibd-ndjson-'));
    await server.exec(`CREATE TABLE n (id INT PRIMARY KEY, ti TINYINT, tu TINYINT UNSIGNED, si SMALLINT, mi MEDIUMINT, i INT, iu INT UNSIGNED,
        bi BIGINT, bu BIGINT UNSIGNED, d2 DECIMAL(10,2), d25 DECIMAL(30,25), d65 DECIMAL(65,0), f FLOAT, g DOUBLE,
        b1 BIT(1), b9 BIT(9), b64 BIT(64), s VARCHAR(20));
      INSERT INTO n VALUES
        (1, -128, 255, -32768, -8388608, -2147483648, 4294967295, -9223372036854775808, 18446744073709551615, -99999999.99,
           0.1234567890123456789012345, 99999999999999999999999999999999999999999999999999999999999999999, 3.40282e38, 1.7976931348623157e308, 1, 511, 18446744073709551615, '12'),
        (2, 127, 0, 32767, 8388607, 2147483647, 0, 9223372036854775807, 9007199254740993, 1.50,
           1.0000000000000000000000000, -123, 1.17549e-38, 2.2250738585072014e-308, 0, 0, 9007199254740992, '-1.50'),
        (3, 0, 1, 0, 0, 0, 1, 9007199254740992, 9007199254740992, 0.00,
           12345.0000000000000000000001, 0, -1e-10, 5e-324, 1, 281, 9007199254740993, NULL),
        (4, NULL, NULL, NULL, NULL, NULL, NULL, -9007199254740992, 0, -0.01,
           -0.0000000000000000000000001, NULL, 3.14159, 0.1, NULL, 256, 1, 'x'),
        (5, 1, 2, 3, 4, 5, 6, -9007199254740993, 1, 12345678.90, 0, 1, 1e-10, 1e300, 0, 1, 0, ''),
        (6, 1, 2, 3, 4, 5, 6, 1, 1, 0.10, 0.5, 2, 100, 1.2345678901234568e20, 1, 2, 4611686018427387904, 'y');
      INSERT INTO n SELECT 100 + k, k % 256 - 128, k % 256, 0, 0, k * 7919, k, (k - 500) * 9007199254741, k * 18446744073709,
        (RAND(k) - 0.5) * 199999999.98, RAND(k + 1) * 10000, (k - 500) * 1000000000000000000000000000, (RAND(k + 2) - 0.5) * POW(10, k % 40 - 20),
        (RAND(k + 3) - 0.5) * POW(10, k % 600 - 300), k % 2, k % 512, k * 18446744073709, CONCAT('r', k)
        FROM (SELECT CAST(seq AS SIGNED) AS k FROM seq_1_to_1000) AS q;`);
    expected = await server.query('SELECT * FROM n ORDER BY id');
    const bitRows = await server.query(`SELECT id, ${BITS.map((b) => `${b}+0`).join(', ')} FROM n ORDER BY id`);
    bits = new Map(bitRows.rows.map((r) => [r[0] as string, r.slice(1)]));
    ibd = join(dir, 'n.ibd');
    writeFileSync(ibd, readFileSync(await server.exportTable('n')));
    writeFileSync(join(dir, 'n.sql'), (await server.query('SHOW CREATE TABLE n')).rows[0][1] as string);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ibd, '--format', 'ndjson', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

  it('integers, DECIMAL, FLOAT, DOUBLE: a JSON number where a double holds the server\'s value exactly, else its text; BIT as col+0', () => {
    const run = cli();
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(expected.rows.length);
    const seen = { numbers: 0, strings: 0 };
    lines.forEach((line, r) => {
      const got = JSON.parse(line) as Record<string, unknown>;
      const want = expected.rows[r];
      const at = (name: string) => want[expected.columns.indexOf(name)];
      const where = `row ${at('id')}`;
      expect(Object.keys(got), where).toEqual(expected.columns);
      for (const name of [...INTEGERS, ...DECIMALS]) {
        const text = at(name);
        const value = got[name];
        if (text === null) {
          expect(value, `${where} ${name}`).toBeNull();
        } else if (typeof value === 'number') {
          seen.numbers++;
          // The server's text itself is the number, and its double is the server's value.
          expect(line, `${where} ${name}`).toContain(`"${name}":${text},`);
          if (INTEGERS.includes(name)) expect(BigInt(value), `${where} ${name}`).toBe(BigInt(text));
          else expect(value, `${where} ${name}`).toBe(Number(text));
        } else {
          seen.strings++;
          expect(value, `${where} ${name}`).toBe(text);
          // Only what a double cannot hold: an integer from ±2^53 on, a decimal of more than 15 digits.
          if (INTEGERS.includes(name)) expect(BigInt(text) >= 2n ** 53n || BigInt(text) <= -(2n ** 53n), `${where} ${name}`).toBe(true);
          else expect(text.replace(/^-|e.*$/gi, '').replace(/\./, '').replace(/^0+/, '').replace(/0+$/, '').length, `${where} ${name}`).toBeGreaterThan(15);
        }
      }
      BITS.forEach((name, b) => {
        const number = bits.get(at('id') as string)?.[b] ?? null;
        const value = got[name];
        if (number === null) expect(value, `${where} ${name}`).toBeNull();
        else if (BigInt(number) < 2n ** 53n) expect(value, `${where} ${name}`).toBe(Number(number));
        else expect(value, `${where} ${name}`).toBe(number);
      });
      expect(got.s, where).toBe(at('s'));
    });
    // Both ways were taken, many times.
    expect(seen.numbers).toBeGreaterThan(5000);
    expect(seen.strings).toBeGreaterThan(300);
  });

  it('--json-strings writes every value as the server\'s text (BIT as 0x hex), as NDJSON did before', () => {
    const run = cli('--json-strings');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(ndjsonRows(expected.columns, expected.rows));
  });

  it('the library\'s table.ndjson() writes what the CLI writes, and the strings with { strings: true }', async () => {
    const file = await openInnodb(ibd);
    try {
      const table = await file.table();
      let typed = '';
      for await (const chunk of table.ndjson()) typed += chunk;
      let strings = '';
      for await (const chunk of table.ndjson({ strings: true })) strings += chunk;
      expect(typed).toBe(cli().stdout);
      expect(strings).toBe(ndjsonRows(expected.columns, expected.rows));
    } finally {
      await file.close();
    }
  });
});
