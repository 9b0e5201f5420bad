/**
 * Deterministic random table contents for the differential tests: a seeded generator and SQL
 * literals for each column kind, with edge values (min/max, zero, empty, NULL, emoji, trailing
 * spaces, quotes and backslashes) mixed in on purpose.
 */

/** mulberry32: small, fast, seedable. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Gen = (r: () => number) => string;

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: () => number, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** Sometimes NULL, sometimes an edge value, else a random one. */
export function withEdges(gen: Gen, edges: readonly string[], nullable = true): Gen {
  return (r) => {
    const x = r();
    if (nullable && x < 0.08) return 'NULL';
    if (x < 0.2 && edges.length > 0) return pick(r, edges);
    return gen(r);
  };
}

export function integer(bits: number, unsigned: boolean): Gen {
  const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
  const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
  const random: Gen = (r) => {
    const span = max - min + 1n;
    let v = 0n;
    for (let i = 0; i < 4; i++) v = (v << 16n) | BigInt(Math.floor(r() * 65536));
    // Mostly small numbers, like real data, with full-range ones mixed in.
    const lo = Number(min > -500n ? min : -500n);
    const hi = Number(max < 500n ? max : 500n);
    return r() < 0.5 ? String(int(r, lo, hi)) : String(min + (v % span));
  };
  return withEdges(random, [String(min), String(max), '0', unsigned ? '1' : '-1']);
}

export function decimal(precision: number, scale: number): Gen {
  const digits = (r: () => number, n: number) => Array.from({ length: n }, () => int(r, 0, 9)).join('');
  const random: Gen = (r) => {
    const i = digits(r, int(r, 1, Math.max(1, precision - scale)));
    const f = scale > 0 ? '.' + digits(r, int(r, 0, scale)) : '';
    return (r() < 0.4 ? '-' : '') + (precision - scale > 0 ? i : '0') + f;
  };
  const nines = '9'.repeat(precision - scale) + (scale > 0 ? '.' + '9'.repeat(scale) : '');
  const tiny = scale > 0 ? '0.' + '0'.repeat(scale - 1) + '1' : '1';
  return withEdges(random, [nines, '-' + nines, '0', '-0', tiny, '-' + tiny]);
}

function sqlString(s: string): string {
  return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
}

const LATIN1_CHARS = 'abcdefghijklmnopqrstuvwxyzABC XYZ 0123456789 éèàçÉÀüöß€£¥©®±µ¿¡ñÑ\'"\\%_,;';
const UTF8_CHARS = [...'abcdefghijklmnopqrstuvwxyz ABCXYZ 0123', 'é', 'ß', '€', 'Ω', 'Ж', 'ש', 'م', '中', '文', '字', '日本', 'ㅎ', '"', "'", '\\', '\t'];
const EMOJI = ['😀', '🎉', '👍🏽', '🇫🇷', '𝄞', '🧑‍💻'];

export function text(maxChars: number, charset: 'latin1' | 'utf8mb3' | 'utf8mb4', opts: { longChance?: number; nullable?: boolean } = {}): Gen {
  const pool = charset === 'latin1' ? [...LATIN1_CHARS] : charset === 'utf8mb3' ? UTF8_CHARS : [...UTF8_CHARS, ...EMOJI];
  const build = (r: () => number, n: number) => {
    let s = '';
    let chars = 0;
    while (chars < n) {
      const c = pick(r, pool);
      chars += [...c].length;
      if (chars > n) break;
      s += c;
    }
    return s;
  };
  const random: Gen = (r) => {
    const long = r() < (opts.longChance ?? 0);
    return sqlString(build(r, long ? maxChars : int(r, 0, Math.min(maxChars, 40))));
  };
  const full = (r: () => number) => sqlString(build(r, maxChars));
  return (r) => {
    const x = r();
    if (x < 0.03) return sqlString('');
    if (x < 0.05) return sqlString('ab  '.slice(0, maxChars));
    if (x < 0.07) return sqlString('NULL'.slice(0, maxChars));
    if (x < 0.09) return full(r);
    return withEdges(random, [], opts.nullable ?? true)(r);
  };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

export function date(): Gen {
  const random: Gen = (r) => `'${int(r, 1000, 9999)}-${pad2(int(r, 1, 12))}-${pad2(int(r, 1, 28))}'`;
  return withEdges(random, ["'1000-01-01'", "'9999-12-31'", "'2024-02-29'", "'0000-00-00'"]);
}

function fraction(r: () => number, fsp: number): string {
  return fsp === 0 ? '' : '.' + Array.from({ length: fsp }, () => int(r, 0, 9)).join('');
}

export function datetime(fsp: number): Gen {
  const random: Gen = (r) => `'${int(r, 1000, 9999)}-${pad2(int(r, 1, 12))}-${pad2(int(r, 1, 28))} ${pad2(int(r, 0, 23))}:${pad2(int(r, 0, 59))}:${pad2(int(r, 0, 59))}${fraction(r, fsp)}'`;
  const nines = fsp === 0 ? '' : '.' + '9'.repeat(fsp);
  return withEdges(random, [`'1000-01-01 00:00:00'`, `'9999-12-31 23:59:59${nines}'`, `'0000-00-00 00:00:00'`]);
}

export function timestamp(fsp: number): Gen {
  const random: Gen = (r) => `'${int(r, 1971, 2037)}-${pad2(int(r, 1, 12))}-${pad2(int(r, 1, 28))} ${pad2(int(r, 0, 23))}:${pad2(int(r, 0, 59))}:${pad2(int(r, 0, 59))}${fraction(r, fsp)}'`;
  const nines = fsp === 0 ? '' : '.' + '9'.repeat(fsp);
  return withEdges(random, [`'1970-01-01 00:00:01'`, `'2038-01-19 03:14:07${nines}'`, `'0000-00-00 00:00:00'`]);
}

/** INSERT statements of `rows` rows (in chunks, to keep each statement reasonable). */
export function inserts(table: string, columns: string[], gens: Gen[], rows: number, seed: number, firstKey = 1): string {
  const r = rng(seed);
  const out: string[] = [];
  for (let start = 0; start < rows; start += 200) {
    const values: string[] = [];
    for (let i = start; i < Math.min(rows, start + 200); i++) values.push(`(${[String(firstKey + i), ...gens.map((g) => g(r))].join(',')})`);
    out.push(`INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(',')}) VALUES ${values.join(',')};`);
  }
  return out.join('\n');
}

/** FLOAT/DOUBLE literals: random magnitudes over the whole exponent range, and the awkward ones. */
export function real(maxExp: number): Gen {
  const random: Gen = (r) => {
    const mantissa = ((r() * 2 - 1) * 10).toFixed(int(r, 0, 16));
    return r() < 0.5 ? mantissa : `${mantissa}e${int(r, -maxExp, maxExp)}`;
  };
  return withEdges(random, ['0', '-0', '0.1', '-0.1', '0.125', '0.375', '2.5', '3.5', '1e15', '1e16', '1e-14', '1e-15', '123456789', '1234565', '16777217', '3.1415926535', '-1.5e-10', `3e${maxExp}`, `1.5e-${maxExp}`]);
}
