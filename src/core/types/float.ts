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

/**
 * Significant digits (no trailing zeros) and the decimal point position of |x|, from a JS exponential
 * string. `maxDigits` caps the digits, rounding half-to-even as dtoa does (JS rounds ties up).
 */
function digitsOf(x: number, maxDigits: number): { digits: string; decpt: number } {
  const abs = Math.abs(x);
  let s = abs.toExponential();
  let mantissa = s.slice(0, s.indexOf('e')).replace('.', '');
  if (mantissa.length > maxDigits) {
    s = roundedExponential(abs, maxDigits);
    mantissa = s.slice(0, s.indexOf('e')).replace('.', '');
  }
  const exp = Number(s.slice(s.indexOf('e') + 1));
  return { digits: mantissa.replace(/0+$/, '') || '0', decpt: exp + 1 };
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
