/**
 * Tables the column guess is tried on (test/differential/guess-wide.test.ts): mixed types with mixed
 * NULL patterns (some columns NULL a tenth of the time, some half, some NULL-able but never NULL), 11
 * and 61 columns wide. Values come from a seeded generator, so a table is the same on every run.
 */
const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega Łódź café naïve Straße'.split(' ');
const words = (r: () => number, n: number) => Array.from({ length: 1 + Math.floor(r() * n) }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
const day = (r: () => number) => `${1950 + Math.floor(r() * 70)}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`;
const time = (r: () => number) => `${String(Math.floor(r() * 24)).padStart(2, '0')}:${String(Math.floor(r() * 60)).padStart(2, '0')}:${String(Math.floor(r() * 60)).padStart(2, '0')}`;

interface Kind {
  sql: string;
  value: (r: () => number) => string;
}

const maybe = (share: number) => (r: () => number, v: string) => (r() < share ? 'NULL' : v);
const rare = maybe(0.1);
const half = maybe(0.5);

const ELEVEN: Kind[] = [
  { sql: 'VARCHAR(40) NOT NULL', value: (r) => q(words(r, 4)) },
  { sql: 'DECIMAL(12,3) NULL', value: (r) => rare(r, (r() * 2e6 - 1e6).toFixed(3)) },
  { sql: 'DATE NULL', value: (r) => half(r, q(day(r))) },
  { sql: 'INT NULL', value: (r) => rare(r, String(Math.floor(r() * 2e5) - 1e5)) },
  { sql: 'VARCHAR(200) NULL', value: (r) => half(r, q(words(r, 20))) },
  { sql: 'DATETIME(6) NOT NULL', value: (r) => q(`${day(r)} ${time(r)}.${String(Math.floor(r() * 1e6)).padStart(6, '0')}`) },
  { sql: 'SMALLINT NOT NULL', value: (r) => String(Math.floor(r() * 2000) - 1000) },
  { sql: 'VARCHAR(12) NULL', value: (r) => q(words(r, 1)) },
  { sql: 'BIGINT NULL', value: (r) => rare(r, String(Math.floor(r() * 1e12))) },
  { sql: 'TEXT NULL', value: (r) => half(r, q(words(r, 60))) },
];

/** The wide table's twelve kinds: CHAR and NOT NULL integers among them, so its columns do not repeat the 11's. */
const WIDE: Kind[] = [
  ...ELEVEN,
  { sql: 'CHAR(10) NULL', value: (r) => rare(r, q(words(r, 1).slice(0, 10))) },
  { sql: 'INT NOT NULL', value: (r) => String(Math.floor(r() * 4e9) - 2e9) },
];

/**
 * The wide table with long latin1 VARCHARs in front: their 1-byte lengths of 128..250 read like the
 * first byte of a 2-byte length, so the header sizes do not tell which null bits are the variable
 * fields' (a table the guess can only partly read).
 */
const ASCII = WORDS.filter((w) => /^[a-z]+$/.test(w));
const LONG_LATIN: Kind[] = [
  { sql: 'VARCHAR(250) CHARACTER SET latin1 NOT NULL', value: (r) => q(Array.from({ length: 30 }, () => ASCII[Math.floor(r() * ASCII.length)]).join(' ').slice(0, 130 + Math.floor(r() * 120))) },
  ...WIDE.slice(1),
];

export interface Shape {
  name: string;
  columns: string[];
  rows: number;
  row: (r: () => number, i: number) => string;
}

/** `id` INT and n − 1 columns of `kinds` in turn; `pair`: a BIGINT `k` after `id`, the key (id, k). */
function shape(name: string, kinds: readonly Kind[], n: number, rows: number, pair = false): Shape {
  const key = pair ? ['`id` INT NOT NULL', '`k` BIGINT NOT NULL'] : ['`id` INT NOT NULL'];
  const columns = [...key, ...Array.from({ length: n - 1 }, (_, i) => `\`c${i + 2}\` ${kinds[i % kinds.length].sql}`), `PRIMARY KEY (${pair ? '`id`, `k`' : '`id`'})`];
  const keyValues = (r: () => number, i: number) => (pair ? [String(i + 1), String(Math.floor(r() * 2 ** 53) - 2 ** 52)] : [String(i + 1)]);
  return { name, columns, rows, row: (r, i) => `(${[...keyValues(r, i), ...Array.from({ length: n - 1 }, (_, k) => kinds[k % kinds.length].value(r))].join(', ')})` };
}

/** The 11 and 61 columns, the 61 behind a key of two columns (an INT and a BIGINT), and the 61 with long latin1 VARCHARs. */
export const SHAPES: Shape[] = [
  shape('eleven', ELEVEN, 11, 400), shape('sixtyone', WIDE, 61, 400), shape('sixtytwo', WIDE, 61, 400, true), shape('longlatin', LONG_LATIN, 61, 400),
];
