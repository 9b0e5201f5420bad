/**
 * FLOAT and DOUBLE: IEEE 754 values stored little-endian (mach_float_read / mach_double_read), shown
 * the way the server's my_gcvt() prints them: DOUBLE with the shortest digits that read back as the
 * same value, FLOAT with at most 6 significant digits (FLT_DIG) rounded half-to-even; plain notation
 * for decimal exponents -14..15 (or when the digits reach past the point), else `1.5e-20` notation.
 * FLOAT(M,D) / DOUBLE(M,D) print exactly D decimals (my_fcvt), also rounded half-to-even.
 */
import type { Render } from './render.ts';

const view = new DataView(new ArrayBuffer(8));
const bytes = new Uint8Array(view.buffer);

function readFloat(b: Uint8Array, o: number): number {
  for (let i = 0; i < 4; i++) bytes[i] = b[o + i];
  return view.getFloat32(0, true);
}

function readDouble(b: Uint8Array, o: number): number {
  for (let i = 0; i < 8; i++) bytes[i] = b[o + i];
  return view.getFloat64(0, true);
}

/** my_gcvt's MAX_DECPT_FOR_F_FORMAT (DBL_DIG): beyond it plain notation only if digits remain after the point. */
const MAX_DECPT_FOR_F_FORMAT = 15;
const FLT_DIG = 6;

/** Shortest round-trip digits of |x| (no leading or trailing zeros) and the decimal point position. */
function shortestDigits(abs: number): { digits: string; decpt: number } {
  // String() gives the shortest digits that read back as the same double, like dtoa mode 0.
  const str = String(abs);
  const e = str.indexOf('e');
  const mantissa = e < 0 ? str : str.slice(0, e);
  const dot = mantissa.indexOf('.');
  let digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  let decpt = (dot < 0 ? mantissa.length : dot) + (e < 0 ? 0 : Number(str.slice(e + 1)));
  let lead = 0;
  while (lead < digits.length - 1 && digits.charCodeAt(lead) === 48) lead++;
  digits = digits.slice(lead);
  decpt -= lead;
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 48) end--;
  return { digits: digits.slice(0, end), decpt };
}

/**
 * Significant digits and decimal point position of |x|, as dtoa mode 4 gives them: the shortest
 * round-trip digits if there are at most `maxDigits`, else |x| correctly rounded to `maxDigits`,
 * an exact tie going to the even neighbour (JS would round it up).
 */
function digitsOf(x: number, maxDigits: number): { digits: string; decpt: number } {
  const abs = Math.abs(x);
  const shortest = shortestDigits(abs);
  if (shortest.digits.length <= maxDigits) return shortest;
  // Only a value whose shortest form is exactly one digit longer, ending in 5, can be a tie.
  const maybeTie = shortest.digits.length === maxDigits + 1 && shortest.digits.endsWith('5');
  const s = maybeTie ? roundedExponential(abs, maxDigits) : abs.toExponential(maxDigits - 1);
  const e = s.indexOf('e');
  const mantissa = s.slice(0, e).replace('.', '');
  let end = mantissa.length;
  while (end > 1 && mantissa.charCodeAt(end - 1) === 48) end--;
  return { digits: mantissa.slice(0, end), decpt: Number(s.slice(e + 1)) + 1 };
}

/** Digits of |x| to 30 places past `n` significant ones: enough to see whether it ends there. */
function wideMantissa(abs: number, n: number): { mantissa: string; exp: string } {
  const wide = abs.toExponential(Math.min(100, n + 30));
  return { mantissa: wide.slice(0, wide.indexOf('e')).replace('.', ''), exp: wide.slice(wide.indexOf('e')) };
}

/**
 * |x| to n significant digits in exponential form. JS rounds an exact tie up; dtoa keeps the even
 * neighbour, i.e. rounds up only when the lower candidate's last digit is odd.
 */
function roundedExponential(abs: number, n: number): string {
  const { mantissa, exp } = wideMantissa(abs, n);
  const tie = mantissa[n] === '5' && /^0*$/.test(mantissa.slice(n + 1));
  if (!tie || Number(mantissa[n - 1]) % 2 === 1) return abs.toExponential(n - 1);
  return `${mantissa[0]}${n > 1 ? '.' + mantissa.slice(1, n) : ''}${exp}`;
}

/** my_gcvt() with a field width wide enough for every FLOAT/DOUBLE (the server's is). */
export function gcvt(x: number, maxDigits: number): string {
  if (x === 0 || !Number.isFinite(x)) return '0';
  const { digits, decpt } = digitsOf(x, maxDigits);
  const sign = x < 0 ? '-' : '';
  const len = digits.length;
  if (decpt >= -MAX_DECPT_FOR_F_FORMAT + 1 && (decpt <= MAX_DECPT_FOR_F_FORMAT || len > decpt)) {
    if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
    if (decpt < len) return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
    return sign + digits + '0'.repeat(decpt - len);
  }
  const exp = decpt - 1;
  return `${sign}${digits[0]}${len > 1 ? '.' + digits.slice(1) : ''}e${exp < 0 ? '-' : ''}${Math.abs(exp)}`;
}

/** my_fcvt(): exactly `dec` decimals, ties to even (see roundedExponential). */
export function fcvt(x: number, dec: number): string {
  const abs = Math.abs(x);
  let s = abs.toFixed(dec);
  const wide = abs.toFixed(Math.min(100, dec + 30));
  const rest = wide.slice(wide.length - 30);
  const lower = wide.slice(0, wide.length - 30).replace(/\.$/, '');
  if (rest[0] === '5' && /^0*$/.test(rest.slice(1)) && Number(lower[lower.length - 1]) % 2 === 0) s = lower;
  return (x < 0 && /[1-9]/.test(s) ? '-' : '') + s;
}

export function floatRenderer(scale: number, fixed: boolean): Render {
  return fixed ? (b, o) => fcvt(readFloat(b, o), scale) : (b, o) => gcvt(readFloat(b, o), FLT_DIG);
}

export function doubleRenderer(scale: number, fixed: boolean): Render {
  return fixed ? (b, o) => fcvt(readDouble(b, o), scale) : (b, o) => gcvt(readDouble(b, o), 17);
}
