/**
 * A record cut into fields: the spans the type guesses read, and the COMPACT record header (null
 * bitmap and variable-field lengths, stored backwards from the origin) read under a hypothesis of
 * which fields there are, for the structure search and for the layout it settles on.
 */

/** One field of one record: where its bytes are, or that it is NULL / stored off-page. */
export interface Span {
  at: number;
  len: number;
  isNull: boolean;
  extern: boolean;
}

export interface RecordFields {
  bytes: Uint8Array;
  spans: Span[];
}

/** A field of the inferred layout (COMPACT; REDUNDANT's fields have no null bit and no length width). */
export interface LayoutField {
  /** Bytes for fixed fields; -1 for variable-length ones. */
  fixedLen: number;
  big: boolean;
  /** Null-bitmap bit, or -1 for NOT NULL fields. */
  bit: number;
  role: 'key' | 'row_id' | 'trx' | 'roll' | 'column';
}

/** A variable-length field of a hypothesis: its null bit (-1: NOT NULL), and whether its length may take 2 bytes. */
export interface VarSpec {
  bit: number;
  big: boolean;
}

export const isNullBit = (b: Uint8Array, o: number, bit: number): boolean => (b[o - 6 - (bit >> 3)] & (1 << (bit & 7))) !== 0;

/**
 * A 2-byte length as InnoDB writes it: only for 128 bytes or more (shorter ones take 1 byte), at most
 * what fits in a page, and for an off-page value (0x40) the 20-byte pointer, after a 768-byte prefix in COMPACT.
 */
export function validLongLength(first: number, second: number, pageSize: number): boolean {
  const len = ((first & 0x3f) << 8) | second;
  if (first & 0x40) return len === 20 || len === 788;
  return len >= 128 && len <= pageSize / 2;
}

/** COMPACT: decodeCompact()'s walk over an inferred layout. Null when the record runs off the page. */
export function compactSpans(b: Uint8Array, o: number, fields: readonly LayoutField[], nullBytes: number): Span[] | null {
  let lenPtr = o - 6 - nullBytes;
  let p = o;
  const spans: Span[] = [];
  for (const f of fields) {
    if (f.bit >= 0 && isNullBit(b, o, f.bit)) {
      spans.push({ at: p, len: 0, isNull: true, extern: false });
      continue;
    }
    let len = f.fixedLen;
    let extern = false;
    if (len < 0) {
      len = b[lenPtr--];
      if (f.big && len & 0x80) {
        extern = (len & 0x40) !== 0;
        len = ((len & 0x3f) << 8) | b[lenPtr--];
      }
    }
    if (p + len > b.length - 8 || lenPtr < 0) return null;
    spans.push({ at: p, len, isNull: false, extern });
    p += len;
  }
  return spans;
}

/** Per record, under a hypothesis: its extra (header) bytes, variable lengths and extern flags. */
export interface Parsed {
  extra: number;
  lens: number[];
  externs: boolean[];
}

export function parseVars(b: Uint8Array, o: number, nullBytes: number, vars: readonly VarSpec[]): Parsed | null {
  let ptr = o - 6 - nullBytes;
  const lens: number[] = [];
  const externs: boolean[] = [];
  for (const v of vars) {
    if (v.bit >= 0 && isNullBit(b, o, v.bit)) {
      lens.push(0);
      externs.push(false);
      continue;
    }
    if (ptr < 0) return null;
    let len = b[ptr--];
    let ext = false;
    if (v.big && len & 0x80) {
      ext = (len & 0x40) !== 0;
      len = ((len & 0x3f) << 8) | b[ptr--];
    }
    lens.push(len);
    externs.push(ext);
  }
  return { extra: o - (ptr + 1), lens, externs };
}

/** The null bits of the NULL-able variable fields. */
export const varNullBits = (vars: readonly VarSpec[]): Set<number> => new Set(vars.filter((v) => v.bit >= 0).map((v) => v.bit));

/** The null bits set in a record that are not variable fields' bits: NULL fixed-size columns. */
export function fixedNullBits(b: Uint8Array, o: number, nullBytes: number, varBits: ReadonlySet<number>): number[] {
  const bits: number[] = [];
  for (let bit = 0; bit < nullBytes * 8; bit++) if (!varBits.has(bit) && isNullBit(b, o, bit)) bits.push(bit);
  return bits;
}
