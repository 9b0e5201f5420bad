/**
 * Test helpers: a Parquet file's physical values (hyparquet reading it with the logical and converted
 * types taken out of its schema, so that nothing is converted), and each physical value read as its
 * logical type says, into the text MariaDB's SELECT shows: an implementation of its own of the
 * Parquet spec's DECIMAL, DATE, TIMESTAMP and unsigned INTEGER, to compare with the server's rows.
 */
import { parquetMetadata, parquetRead, type FileMetaData, type SchemaElement } from 'hyparquet';

export type Physical = number | bigint | Uint8Array | null;

/** Every row's physical values, in column order. */
export async function readRaw(file: ArrayBuffer): Promise<{ meta: FileMetaData; rows: Physical[][] }> {
  const meta = parquetMetadata(file);
  const bare: FileMetaData = { ...meta, schema: meta.schema.map(({ converted_type: _c, logical_type: _l, ...rest }) => rest) };
  const rows = await new Promise<Physical[][]>((resolve, reject) => {
    parquetRead({ file, metadata: bare, utf8: false, onComplete: (r) => resolve(r as Physical[][]) }).catch(reject);
  });
  return { meta, rows };
}

const HEX = (b: Uint8Array) => '0x' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('').toUpperCase();
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** A two's-complement big-endian integer. */
function signedBytes(b: Uint8Array): bigint {
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return b.length > 0 && b[0] & 0x80 ? v - (1n << BigInt(8 * b.length)) : v;
}

function decimalText(unscaled: bigint, scale: number): string {
  const neg = unscaled < 0n;
  const digits = (neg ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const text = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return (neg ? '-' : '') + text;
}

/** Microseconds since 1970 as YYYY-MM-DD hh:mm:ss and as many fraction digits as `like` has. */
function timestampText(micros: bigint, like: string): string {
  // Whole seconds rounded down (before 1970 too), and the microseconds after them.
  let seconds = micros / 1_000_000n;
  if (seconds * 1_000_000n > micros) seconds -= 1n;
  const iso = new Date(Number(seconds) * 1000).toISOString();
  const fraction = like.length > 19 ? like.length - 20 : 0;
  const frac = (micros - seconds * 1_000_000n).toString().padStart(6, '0').slice(0, fraction);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction > 0 ? `.${frac}` : ''}`;
}

/**
 * The SELECT text of a physical value of column `e`. `server`: the server's text for the cell, for
 * what the value does not carry (a TIMESTAMP's fraction digits; a FLOAT's shortest text, which is
 * given back when the float32 equals the float32 nearest to it).
 */
export function parquetText(v: Physical, e: SchemaElement, server: string | null): string | null {
  if (v === null) return null;
  const logical = e.logical_type;
  if (logical?.type === 'DECIMAL') return decimalText(v instanceof Uint8Array ? signedBytes(v) : BigInt(v), logical.scale);
  if (logical?.type === 'DATE') return new Date(Number(v) * 86_400_000).toISOString().slice(0, 10);
  if (logical?.type === 'TIMESTAMP') return timestampText(BigInt(v as bigint), server ?? '');
  if (logical?.type === 'INTEGER') {
    const n = BigInt(v as number | bigint);
    const unsigned = logical.isSigned ? n : BigInt.asUintN(logical.bitWidth, n);
    // BIT columns: the server shows their bytes as hex.
    if (server?.startsWith('0x')) return HEX(bytesOf(unsigned, (server.length - 2) / 2));
    return server !== null && /^0\d/.test(server) ? unsigned.toString().padStart(server.length, '0') : unsigned.toString();
  }
  if (e.type === 'FLOAT') return server !== null && Math.fround(Number(server)) === v ? server : `float32 ${String(v)}`;
  if (e.type === 'DOUBLE') return server !== null && Number(server) === v ? server : `double ${String(v)}`;
  if (logical?.type === 'STRING' || logical?.type === 'JSON') return utf8.decode(v as Uint8Array);
  return HEX(v as Uint8Array);
}

function bytesOf(n: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--, n >>= 8n) out[i] = Number(n & 0xffn);
  return out;
}
