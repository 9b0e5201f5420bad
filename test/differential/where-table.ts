/**
 * The table of the typed-filter tests (where-filter.test.ts: the page's filter; cli-where.test.ts:
 * the CLI's --where) and the conditions both compare with the server's WHERE: 1,200 rows with NULLs
 * and duplicates in integers, DECIMAL, DOUBLE, FLOAT, FLOAT(7,3), DATE, DATETIME(3), TIME, YEAR, ENUM
 * and text in four collations, ids odd from 1.
 */
import type { MariadbServer } from '../harness/mariadb.ts';

const TEXTS = ['a', 'A', 'á', 'b', 'B ', 'ß', 'ss', 'ä', 'å', 'ö', 'æble', 'aeble', 'Æble', 'e', 'É', 'x_1', 'x1', '', ' ', 'apple', 'Apple ', 'Äpfel', 'b%c', 'z'];

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function rowValues(id: number, rnd: () => number): string {
  const pick = <T,>(a: readonly T[]) => a[Math.floor(rnd() * a.length)];
  const maybe = (v: string) => (rnd() < 0.1 ? 'NULL' : v);
  const text = () => maybe(`'${pick(TEXTS)}'`);
  const n = Math.floor(rnd() * 200) - 100;
  return `(${id}, ${text()}, ${text()}, ${maybe(`'${pick(TEXTS.filter((x) => !/[æÆß]/.test(x)))}'`)}, ${text()}, ${maybe(String(n))},
    ${maybe((n * 37.125).toFixed(3))}, ${maybe(pick(['0', '2.5', '-2.5', '12345.678', '1e300', String(n)]))},
    ${maybe(`'20${10 + (id % 20)}-0${1 + (n & 7)}-1${n & 7}'`)}, ${maybe(`'2024-02-29 1${n & 7}:0${id % 10}:00.${n & 7}'`)},
    ${maybe(pick(["'-838:59:59'", "'-01:00:00'", "'00:00:00'", "'12:30:00'", "'100:00:00'", "'12:30:00.5'"]))}, ${maybe(String(1990 + (n & 15)))},
    ${maybe(pick(["'b'", "'a'", "'c'"]))}, ${rnd() < 0.5 ? 'NULL' : `'n${id % 7}'`}, ${maybe("X'00FF'")}, ${FLOATS[id % FLOATS.length]}, ${FLOATS[(id * 7) % 11]})`;
}

/** FLOAT values (taken by id, not from the random sequence the other columns' values come from). */
const FLOATS = ['1.1', '0.1', '2.5', '-1.1', '0.123456789', '100.1', '0.3', '1e-10', 'NULL', '33.333', '1', '3.4e38', '-2.5'];

/** Conditions typed as a DBA types them after WHERE; each is run by the server as typed. */
export const CONDITIONS = [
  'n > 50', 'n <= -3', 'n = 0', 'n <> 5', 'n != 5', 'n BETWEEN -10 AND 10', 'n NOT BETWEEN -10 AND 10', 'n IN (1, 2, 3, -100)',
  'n NOT IN (1, 2)', 'n > 5.5', 'n >= -7.25', 'n IS NULL', 'n IS NOT NULL',
  'd > 100.5', 'd = 37.125', "d = '37.1250'", 'd BETWEEN -100 AND 100.25', 'd < -1000', 'd >= 0',
  'f > 2.5', 'f = -2.5', 'f <= 0', 'f > 1e3',
  "dd >= '2015-01-01' AND dd < '2020-01-01'", "dd BETWEEN '2012-03-01' AND '2018-06-30'", "dd = '2014-05-15'", "dd <> '2014-05-15'",
  "dt >= '2024-02-29 13:00:00'", "dt > '2024-02-29'", "dt = '2024-02-29 12:05:00.3'", "dt < '2024-02-29 13:05:00.5'", "dt >= '2024-02-29 13:05:00.30001'",
  "tm < '00:00:00'", "tm >= '12:30:00'", "tm = '-01:00:00'", "tm > '-100:00:00'", "tm = '12:30:00.5'", "tm BETWEEN '00:00:00' AND '99:00:00'",
  'yr > 1995', 'yr IN (1990, 2000)',
  "g = 'a'", "g = 'A '", "g > 'b'", "g < 'ss'", "g = 'ss'", "g LIKE 'a%'", "g LIKE '_'", "g LIKE '%s%'", "g NOT LIKE 'a%'",
  "g IN ('ß', 'e')", "g BETWEEN 'a' AND 'c'", "g LIKE 'x\\_%'", "g LIKE 'b\\%%'", "g LIKE '% '", "g = ''", "g LIKE ''",
  "bn = 'a'", "bn > 'a'", "bn LIKE 'A%'", "bn = 'B'", "bn LIKE '%e'",
  "lat = 'a'", "lat < 'b'", "lat LIKE 'ä%'", "lat > 'y'",
  "u = 'a'", "u LIKE 'æ%'", "u > 'ö'", "u = 'aeble'", "u LIKE 'AE%'",
  "e = 'a'", "e > 'a'", "e IN ('b', 'c')", "e LIKE 'c'",
  // FLOAT compares as its stored single-precision value (1.1 is 1.100000023841858), FLOAT(7,3) to its decimals.
  'fl = 1.1', 'fl = 2.5', "fl = '1.1'", 'fl < 1.1', 'fl >= 1.1', 'fl <> 1.1', 'fl IN (1.1, 2.5, 0.1)', 'fl BETWEEN 0.1 AND 1.1', 'fl > 1e-10',
  'fl = 1.100000023841858', 'fl < 0.2', 'fl NOT IN (2.5)', 'fl BETWEEN -2.5 AND 1',
  'fx = 1.1', 'fx = 0.1', "fx = '0.1'", 'fx > 0.1', 'fx < 0.3', 'fx >= 0.3', 'fx <= 100.1', 'fx IN (1.1, 0.1, 0.3)', 'fx IN (0.1)', 'fx NOT IN (0.1)', 'fx NOT IN (0.1, 1.1)',
  'fx BETWEEN 0 AND 0.1', 'fx BETWEEN 0.3 AND 1', 'fx = 0.1004', 'fx <> 0.1', 'fx = 33.333', 'fx = 33.33349', 'fx > -2.5e0',
  'n > 0 AND g LIKE \'a%\' AND dd IS NOT NULL', 'note IS NULL', "note = 'n3' AND n < 0",
];

/** Table `t` of `server`, its 1,200 rows. */
export async function createWhereTable(server: MariadbServer): Promise<void> {
  await server.query(`CREATE TABLE t (
    id INT PRIMARY KEY,
    g VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci,
    bn VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    lat VARCHAR(20) CHARACTER SET latin1 COLLATE latin1_swedish_ci,
    u VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_ai_ci,
    n INT, d DECIMAL(12,3), f DOUBLE, dd DATE, dt DATETIME(3), tm TIME(1), yr YEAR, e ENUM('b','a','c'), note VARCHAR(10), vb VARBINARY(4), fl FLOAT, fx FLOAT(7,3)
  ) ENGINE=InnoDB`);
  const rnd = random(11);
  const rows = Array.from({ length: 1200 }, (_, i) => rowValues(i * 2 + 1, rnd));
  await server.query(`INSERT INTO t VALUES ${rows.join(',\n')}`);
}
