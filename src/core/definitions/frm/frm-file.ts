/**
 * The binary layout of a .frm file (MySQL 5.x, MariaDB), as sql/unireg.cc writes it and
 * sql/table.cc (init_from_binary_frm_image) reads it. All numbers are little-endian.
 *
 *   0      64-byte header: magic FE 01, version, engine, where the key info is, record length, ...
 *   64     MariaDB "extra2" segment (typed values: table version, field flags, data type names...),
 *          ended by the 4-byte position of the forminfo block
 *   key    key info: keys with their parts, key names, key comments
 *   +      the record holding every column's default value (with the null bitmap first)
 *   +      "extra" segment: connect string, engine name, partitioning, parser names, long comment
 *   form   288-byte forminfo: column count, name/interval/comment lengths, short table comment
 *   +      17 bytes per column, column names, ENUM/SET value lists, column comments, then the
 *          expressions (generated columns, DEFAULT expressions, CHECK constraints)
 */

export const FRM_HEADER_SIZE = 64;
export const FRM_FORMINFO_SIZE = 288;
const FIELD_RECORD_SIZE = 17;
/** Older .frm files (MySQL 3.x/4.0) used 11-byte column records; not read here. */
const FRM_VER = 6;
/** Header of the expressions block in MariaDB 10.2+ files (FRM_VCOL_NEW_BASE_SIZE). */
const FRM_VCOL_NEW_BASE_SIZE = 16;
/** MariaDB 10.2+ .frm version, whose expressions block has typed, named entries. */
export const FRM_VER_EXPRESSIONS = FRM_VER + 5;
/** MySQL 5.7 marks generated columns in unireg_check. */
export const MYSQL57_GENERATED_FIELD = 128;
/** The column type code MariaDB 10.0/10.1 wrote for a virtual column (its real type is in the expression block). */
const MYSQL_TYPE_VIRTUAL = 245;

/** MariaDB's hash-based UNIQUE key over long columns (enum ha_key_alg). */
export const HA_KEY_ALG_LONG_HASH = 5;

/** MariaDB extra2 value types. */
export const Extra2 = {
  TABLEDEF_VERSION: 0, DEFAULT_PART_ENGINE: 1, GIS: 2, APPLICATION_TIME_PERIOD: 3, PERIOD_FOR_SYSTEM_TIME: 4,
  INDEX_FLAGS: 5, ENGINE_TABLEOPTS: 128, FIELD_FLAGS: 129, FIELD_DATA_TYPE_INFO: 130, PERIOD_WITHOUT_OVERLAPS: 131,
} as const;

/** Expression kinds in the expressions block (enum_vcol_info_type). */
export const VcolType = {
  GENERATED_VIRTUAL: 0, GENERATED_STORED: 1, DEFAULT: 2, CHECK_FIELD: 3, CHECK_TABLE: 4, USING_HASH: 5,
} as const;

export interface FrmField {
  name: string;
  /** Display length for numbers, bytes for strings, bits for BIT. */
  length: number;
  /** 1-based offset of the value in the default-values record. */
  recpos: number;
  packFlag: number;
  unireg: number;
  /** 1-based ENUM/SET value list number, 0 for none. */
  intervalNr: number;
  /** MYSQL_TYPE_* */
  type: number;
  /** Collation id (low byte at 14, high byte at 11), or the geometry subtype for GEOMETRY. */
  charsetId: number;
  geometryType: number;
  comment: string;
  /** Visibility from extra2 (0 visible, 1 INVISIBLE, 2 system, 3 fully hidden). */
  invisible: number;
  /** WITHOUT SYSTEM VERSIONING (extra2 field flag VERS_OPTIMIZED_UPDATE, the bit above visibility). */
  unversioned: boolean;
  /** A MariaDB data type plugin name (inet6, uuid...), from extra2. */
  typeName: string | null;
  /** Generated column: expression and whether it is stored. */
  generated: { expr: string; stored: boolean } | null;
  /** DEFAULT (expression), MariaDB 10.2+. */
  defaultExpr: string | null;
  /** Column CHECK constraint, MariaDB 10.2+. */
  check: string | null;
  /** MariaDB's hidden hash column behind a long UNIQUE key. */
  hashField: boolean;
}

export interface FrmKeyPart {
  /** 0-based column number. */
  field: number;
  /** Key length in bytes. */
  length: number;
  flags: number;
}

export interface FrmKey {
  name: string;
  flags: number;
  algorithm: number;
  blockSize: number;
  comment: string;
  parts: FrmKeyPart[];
  /** MariaDB IGNORED index. */
  ignored: boolean;
}

export interface FrmImage {
  version: number;
  legacyDbType: number;
  /** Server version that wrote the file (MYSQL_VERSION_ID, e.g. 50744 or 101119). */
  mysqlVersion: number;
  createOptions: number;
  tableCharsetId: number;
  rowType: number;
  avgRowLength: number;
  minRows: number;
  maxRows: number;
  keyBlockSize: number;
  statsSamplePages: number;
  statsAutoRecalc: number;
  /** byte 39: Aria TRANSACTIONAL / PAGE_CHECKSUM / SEQUENCE. */
  ariaOptions: number;
  engine: string;
  connectString: string;
  partitionInfo: string;
  comment: string;
  fields: FrmField[];
  keys: FrmKey[];
  /** The default-values record (record[0] of the table with every column at its default). */
  defaults: Uint8Array;
  /** ENUM/SET value lists, as stored: in the column's charset, or in hex for ucs2/utf16/utf32 columns. */
  intervals: Uint8Array[][];
  /** Table CHECK constraints: name and expression. */
  checks: { name: string; expr: string }[];
  /** System-versioning columns (0-based), when the table is WITH SYSTEM VERSIONING. */
  systemVersioning: { start: number; end: number } | null;
}

/** Thrown for a .frm whose layout is damaged or older than this reader knows. */
export class FrmError extends Error {}

class Reader {
  constructor(readonly b: Uint8Array) {}

  check(at: number, len: number, what: string): void {
    if (at < 0 || at + len > this.b.length) throw new FrmError(`the ${what} (bytes ${at}-${at + len}) lies past the end of the file (${this.b.length} bytes): the .frm is truncated or damaged`);
  }

  u8(at: number): number {
    this.check(at, 1, 'header');
    return this.b[at];
  }

  u16(at: number): number {
    this.check(at, 2, 'header');
    return this.b[at] | (this.b[at + 1] << 8);
  }

  u24(at: number): number {
    this.check(at, 3, 'header');
    return this.b[at] | (this.b[at + 1] << 8) | (this.b[at + 2] << 16);
  }

  u32(at: number): number {
    this.check(at, 4, 'header');
    return (this.b[at] | (this.b[at + 1] << 8) | (this.b[at + 2] << 16) | (this.b[at + 3] << 24)) >>> 0;
  }

  bytes(at: number, len: number, what: string): Uint8Array {
    this.check(at, len, what);
    return this.b.subarray(at, at + len);
  }
}

/**
 * Names in the .frm are in the server's system charset (utf8mb3); comments and expressions too
 * (MariaDB 10.2+ converts expressions to utf8 before writing them).
 */
const utf8 = new TextDecoder('utf-8');
function text(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/** Splits a `sep name sep name sep … \0` list whose first byte is its separator. */
function splitList(bytes: Uint8Array, what: string): { items: Uint8Array[]; end: number } {
  const sep = bytes[0];
  const items: Uint8Array[] = [];
  let start = 1;
  for (let i = 1; i < bytes.length; i++) {
    if (bytes[i] !== sep) continue;
    items.push(bytes.subarray(start, i));
    start = i + 1;
    if (bytes[start] === 0) return { items, end: start + 1 };
  }
  throw new FrmError(`the ${what} list is not terminated`);
}

/** A MariaDB length-encoded integer (net_field_length). */
function lenenc(b: Uint8Array, pos: { at: number }): number {
  const first = b[pos.at++];
  if (first < 251) return first;
  const size = first === 252 ? 2 : first === 253 ? 3 : 8;
  let v = 0;
  for (let i = 0; i < size; i++) v += b[pos.at + i] * 2 ** (8 * i);
  pos.at += size;
  return v;
}

export function parseFrm(b: Uint8Array): FrmImage {
  const r = new Reader(b);
  if (b.length < FRM_HEADER_SIZE + FRM_FORMINFO_SIZE || b[0] !== 0xfe || b[1] !== 0x01) {
    throw new FrmError(b.length >= 2 && b[0] === 0x54 && b[1] === 0x59 ? 'this .frm describes a view, not a table' : 'this is not a .frm table definition (the file does not start with FE 01)');
  }
  const version = b[2];
  if (version - FRM_VER < 2) throw new FrmError(`this .frm has format version ${version}, from MySQL 4.0 or older, which this reader does not read`);
  if (b[32] !== 0) throw new FrmError('this .frm is from MySQL 3.22 or older, which this reader does not read');

  // extra2 (MariaDB 10.0+); older files have a '/' here and no extra2
  const extra2Len = r.u16(4);
  const extra2: Map<number, Uint8Array> = new Map();
  if (extra2Len > 0 && b[FRM_HEADER_SIZE] !== 0x2f) {
    const end = FRM_HEADER_SIZE + extra2Len;
    r.check(FRM_HEADER_SIZE, extra2Len, 'extra2 segment');
    let at = FRM_HEADER_SIZE;
    while (at + 3 <= end) {
      const type = b[at++];
      let len = b[at++];
      if (len === 0) {
        len = r.u16(at);
        at += 2;
      }
      if (at + len > end) throw new FrmError('the extra2 segment is damaged');
      extra2.set(type, b.subarray(at, at + len));
      at += len;
    }
  }
  const formPos = r.u32(FRM_HEADER_SIZE + extra2Len);
  const form = r.bytes(formPos, FRM_FORMINFO_SIZE, 'forminfo block');
  const f16 = (at: number) => form[at] | (form[at + 1] << 8);

  const mysqlVersion = r.u32(51);
  const keyInfoPos = r.u16(6);
  const keyInfoLen = r.u16(14) === 0xffff ? r.u32(47) : r.u16(14);
  const recLength = r.u16(16);
  const defaults = r.bytes(keyInfoPos + keyInfoLen, recLength, 'default values record');

  // extra segment: connect string, engine name, partitioning, (parser names), long comment
  const extraLen = r.u32(55);
  let engine = '';
  let connectString = '';
  let partitionInfo = '';
  let longComment: string | null = null;
  const keys = parseKeys(b, r, keyInfoPos);
  if (extraLen > 0) {
    const start = keyInfoPos + keyInfoLen + recLength;
    const end = start + extraLen;
    r.check(start, extraLen, 'extra segment');
    let at = start;
    const connLen = r.u16(at);
    connectString = text(b.subarray(at + 2, at + 2 + connLen));
    at += 2 + connLen;
    if (at + 2 < end) {
      const engineLen = r.u16(at);
      engine = text(b.subarray(at + 2, at + 2 + engineLen));
      at += 2 + engineLen;
    }
    if (at + 5 < end) {
      const partLen = r.u32(at);
      partitionInfo = text(b.subarray(at + 4, at + 4 + partLen));
      at += 5 + partLen;
    }
    if (mysqlVersion >= 50110 && at < end) at++; // auto-partitioned flag
    for (const key of keys) {
      // HA_USES_PARSER: a fulltext parser plugin name, NUL-terminated
      if (key.flags & 0x4000) {
        while (at < end && b[at] !== 0) at++;
        at++;
      }
    }
    if (form[46] === 255 && at + 2 <= end) {
      const len = r.u16(at);
      longComment = text(r.bytes(at + 2, len, 'table comment'));
    }
  }

  const fieldCount = f16(258);
  const screensLen = f16(260);
  const namesLen = f16(268);
  const intervalLen = f16(274);
  const commentsLen = f16(284);
  const exprLen = f16(286);
  const fieldsPos = formPos + FRM_FORMINFO_SIZE + screensLen;
  const records = r.bytes(fieldsPos, fieldCount * FIELD_RECORD_SIZE, 'column definitions');
  let at = fieldsPos + fieldCount * FIELD_RECORD_SIZE;
  const names = splitList(r.bytes(at, namesLen, 'column names'), 'column name').items.map(text);
  if (names.length !== fieldCount) throw new FrmError(`the .frm lists ${names.length} column names for ${fieldCount} columns`);
  at += namesLen;
  const intervalBytes = r.bytes(at, intervalLen, 'ENUM/SET values');
  at += intervalLen;
  const comments = r.bytes(at, commentsLen, 'column comments');
  at += commentsLen;
  const expressions = r.bytes(at, exprLen, 'expressions');

  // ENUM/SET value lists: each `sep value sep value … sep \0`, with its own separator
  const intervalItems: Uint8Array[][] = [];
  for (let p = 0; p < intervalBytes.length;) {
    const { items, end } = splitList(intervalBytes.subarray(p), 'ENUM/SET value');
    intervalItems.push(items);
    p += end;
  }

  const flags = extra2.get(Extra2.FIELD_FLAGS);
  const typeNames = dataTypeNames(extra2.get(Extra2.FIELD_DATA_TYPE_INFO), fieldCount);
  const fields: FrmField[] = [];
  let commentAt = 0;
  for (let i = 0; i < fieldCount; i++) {
    const rec = records.subarray(i * FIELD_RECORD_SIZE, (i + 1) * FIELD_RECORD_SIZE);
    const commentLen = rec[15] | (rec[16] << 8);
    const type = rec[13];
    fields.push({
      name: names[i],
      length: rec[3] | (rec[4] << 8),
      recpos: rec[5] | (rec[6] << 8) | (rec[7] << 16),
      // FIELDFLAG_LONG_DECIMAL (decimals above 31) exists since MariaDB 10.2; before, that bit meant something else
      packFlag: (rec[8] | (rec[9] << 8)) & (mysqlVersion >= 100200 ? 0xffff : ~0x2000),
      unireg: rec[10],
      intervalNr: type === MYSQL_TYPE_VIRTUAL ? 0 : rec[12],
      type,
      charsetId: rec[14] | (rec[11] << 8),
      geometryType: rec[14],
      comment: text(comments.subarray(commentAt, commentAt + commentLen)),
      invisible: flags ? flags[i] & 7 : 0,
      unversioned: flags ? (flags[i] & 8) !== 0 : false,
      typeName: typeNames[i] ?? null,
      generated: null, defaultExpr: null, check: null, hashField: false,
    });
    commentAt += commentLen;
  }
  const checks: { name: string; expr: string }[] = [];
  readExpressions(version, mysqlVersion, expressions, fields, records, checks);
  // each long UNIQUE (HA_KEY_ALG_LONG_HASH) has a hidden virtual hash column; they are the last columns
  const hashKeys = keys.filter((k) => k.algorithm === HA_KEY_ALG_LONG_HASH).length;
  for (const f of fields.slice(fields.length - hashKeys)) {
    f.hashField = true;
    f.generated ??= { expr: '', stored: false };
  }

  const period = extra2.get(Extra2.PERIOD_FOR_SYSTEM_TIME);
  return {
    version, legacyDbType: b[3], mysqlVersion, createOptions: r.u16(30),
    tableCharsetId: b[38] | (b[41] << 8), rowType: b[40], avgRowLength: r.u32(34), minRows: r.u32(22), maxRows: r.u32(18),
    keyBlockSize: r.u16(62), statsSamplePages: r.u16(42), statsAutoRecalc: b[44], ariaOptions: b[39],
    engine, connectString, partitionInfo,
    comment: longComment ?? text(form.subarray(47, 47 + form[46])),
    fields, keys: applyIndexFlags(keys, extra2.get(Extra2.INDEX_FLAGS)), defaults, intervals: intervalItems, checks,
    systemVersioning: period && period.length >= 4 ? { start: period[0] | (period[1] << 8), end: period[2] | (period[3] << 8) } : null,
  };
}

function dataTypeNames(bytes: Uint8Array | undefined, count: number): (string | undefined)[] {
  const out: (string | undefined)[] = new Array(count);
  if (!bytes) return out;
  const pos = { at: 0 };
  while (pos.at < bytes.length) {
    const field = lenenc(bytes, pos);
    const len = lenenc(bytes, pos);
    if (field >= count || pos.at + len > bytes.length) throw new FrmError('the column data type names (extra2) are damaged');
    out[field] = text(bytes.subarray(pos.at, pos.at + len));
    pos.at += len;
  }
  return out;
}

function parseKeys(b: Uint8Array, r: Reader, pos: number): FrmKey[] {
  let count = r.u8(pos);
  if (count & 0x80) count = (r.u8(pos + 1) << 7) | (count & 0x7f);
  let at = pos + 6;
  const keys: FrmKey[] = [];
  for (let k = 0; k < count; k++) {
    r.check(at, 8, 'key definitions');
    const flags = r.u16(at) ^ 1; // stored XOR HA_NOSAME
    const nParts = b[at + 4];
    const algorithm = b[at + 5];
    const blockSize = r.u16(at + 6);
    at += 8;
    const parts: FrmKeyPart[] = [];
    for (let p = 0; p < nParts; p++, at += 9) {
      r.check(at, 9, 'key parts');
      parts.push({ field: (r.u16(at) & 0x3fff) - 1, length: r.u16(at + 7), flags: b[at + 4] });
    }
    keys.push({ name: '', flags, algorithm, blockSize, comment: '', parts, ignored: false });
  }
  if (count === 0) return keys;
  // key names `\xff name \xff name … \xff \0`, then a 2-byte length and text per key with a comment
  const namesLen = r.u16(pos + 4);
  const { items, end } = splitList(r.bytes(at, namesLen, 'key names'), 'key name');
  if (items.length !== count) throw new FrmError(`the .frm names ${items.length} keys but defines ${count}`);
  let commentAt = at + end;
  keys.forEach((key, i) => {
    key.name = text(items[i]);
    if (key.flags & 0x1000) { // HA_USES_COMMENT
      const len = r.u16(commentAt);
      key.comment = text(r.bytes(commentAt + 2, len, 'key comment'));
      commentAt += 2 + len;
    }
  });
  return keys;
}

function applyIndexFlags(keys: FrmKey[], flags: Uint8Array | undefined): FrmKey[] {
  if (flags) keys.forEach((key, i) => { key.ignored = (flags[i] & 1) !== 0; });
  return keys;
}

/**
 * The expressions block. MariaDB 10.2+ (format 11): a 16-byte header, then per expression its type,
 * column number, length, name and text. MariaDB 10.0/10.1 and MySQL 5.7 keep one entry per generated
 * column, in column order, with shorter headers.
 */
function readExpressions(version: number, mysqlVersion: number, bytes: Uint8Array, fields: FrmField[], records: Uint8Array, checks: { name: string; expr: string }[]): void {
  if (bytes.length === 0) return;
  const u16 = (at: number) => bytes[at] | (bytes[at + 1] << 8);
  if (version >= FRM_VER_EXPRESSIONS) {
    for (let at = FRM_VCOL_NEW_BASE_SIZE; at < bytes.length;) {
      if (at + 6 > bytes.length) throw new FrmError('the expressions block of the .frm is damaged');
      const type = bytes[at];
      const field = u16(at + 1);
      const len = u16(at + 3);
      const nameLen = bytes[at + 5];
      const name = text(bytes.subarray(at + 6, at + 6 + nameLen));
      const expr = text(bytes.subarray(at + 6 + nameLen, at + 6 + nameLen + len));
      at += 6 + nameLen + len;
      if (type === VcolType.CHECK_TABLE) {
        checks.push({ name, expr });
        continue;
      }
      const f = fields[field];
      if (!f) throw new FrmError(`an expression names column number ${field}, which the table does not have`);
      if (type === VcolType.GENERATED_VIRTUAL || type === VcolType.GENERATED_STORED) f.generated = { expr, stored: type === VcolType.GENERATED_STORED };
      else if (type === VcolType.DEFAULT) f.defaultExpr = expr;
      else if (type === VcolType.CHECK_FIELD) f.check = expr;
      else if (type === VcolType.USING_HASH) {
        f.generated = { expr, stored: false };
        f.hashField = true;
      }
    }
    return;
  }
  let at = 0;
  fields.forEach((f, i) => {
    const rec = records.subarray(i * FIELD_RECORD_SIZE);
    if (rec[13] === MYSQL_TYPE_VIRTUAL && mysqlVersion >= 100000) {
      // MariaDB 10.0/10.1: [1|2] [real type] [stored flag] [interval id if 2] expression; its length is byte 12
      const entryLen = rec[12];
      const withInterval = bytes[at] === 2;
      const header = withInterval ? 4 : 3;
      f.type = bytes[at + 1];
      if (withInterval) f.intervalNr = bytes[at + 3];
      f.generated = { expr: text(bytes.subarray(at + header, at + entryLen)), stored: (bytes[at + 2] & 1) !== 0 };
      at += entryLen;
    } else if (f.unireg & MYSQL57_GENERATED_FIELD) {
      // MySQL 5.7: [1] [2-byte length] [stored flag] expression
      const len = u16(at + 1);
      f.generated = { expr: text(bytes.subarray(at + 4, at + 4 + len)), stored: bytes[at + 3] !== 0 };
      f.unireg &= ~MYSQL57_GENERATED_FIELD;
      at += 4 + len;
    }
  });
}
