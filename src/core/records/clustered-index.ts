/**
 * The clustered index record layout of a table (dict0dict.cc, dict_index_build_internal_clust):
 * the key columns, then DB_TRX_ID and DB_ROLL_PTR, then every other stored column in table order.
 * The key is the PRIMARY KEY, else the first UNIQUE index whose columns are all NOT NULL, else a
 * hidden 6-byte DB_ROW_ID. Virtual generated columns are not stored; FULLTEXT adds a hidden FTS_DOC_ID.
 */
import { charsetInfo } from '../values/charset.ts';
import type { InstantInfo } from './instant.ts';
import type { Column, IndexColumn, TableDef } from '../schema.ts';
import { decimalRenderer, decimalSize } from '../values/decimal.ts';
import { integerRenderer } from '../values/integer.ts';
import { renderHex, zerofill, type Render } from '../values/render.ts';
import { textRenderer } from '../values/string.ts';
import { doubleRenderer, floatRenderer } from '../values/float.ts';
import { enumRenderer, enumSize, setRenderer, setSize } from '../values/enum-set.ts';
import { jsonRenderer } from '../values/json-binary.ts';
import { renderInet4, renderInet6, renderUuid } from '../values/network.ts';
import { datetimeRenderer, fracBytes, renderDate, renderYear, renderYear2, timeRenderer, timestampRenderer } from '../values/temporal.ts';
import { legacyTemporalRenderer, legacyTemporalSize, renderDatetime55 } from '../values/temporal-legacy.ts';
import { inlineCheckOf, valueCheckFor, type DecimalGroups, type ValueCheck } from '../values/value-check.ts';

export interface FieldSpec {
  /** Column name, or DB_ROW_ID / DB_TRX_ID / DB_ROLL_PTR. */
  name: string;
  /** Output column this field fills, or -1 (system fields, column prefixes in the key). */
  out: number;
  /** Bytes for fixed-size fields, 0 for variable-size ones. */
  fixedLen: number;
  /** Variable-size field whose length may take 2 bytes in a COMPACT header (DATA_BIG_COL). */
  bigCol: boolean;
  nullable: boolean;
  render: Render;
  /** Whether the stored bytes are a value of the column (value-check.ts); null when any bytes are, or the field is not output. */
  check: ValueCheck | null;
}

export interface ClusteredLayout {
  fields: FieldSpec[];
  /** Key fields: what a node pointer record holds before the child page number. */
  nUnique: number;
  /** Nullable fields in the leaf record: the COMPACT null bitmap has one bit for each. */
  nNullable: number;
  /** The fields with a check (checkedFields): the decoder visits only these. */
  checked: FieldChecks;
  /** Output columns: every stored, non-virtual column in table order. */
  columns: Column[];
  /** How the key was chosen, for the summary. */
  keyKind: 'primary' | 'unique' | 'row_id';
  /**
   * Set for tables altered with ALGORITHM=INSTANT (instant.ts): which fields each record stores and
   * the defaults of those it lacks. `fields` is then in physical order, with dropped columns (out -1).
   */
  instant?: InstantInfo;
}

const INT_BYTES: Record<string, number> = { tinyint: 1, bool: 1, smallint: 2, mediumint: 3, int: 4, bigint: 8 };
/** Display widths of ZEROFILL integers without an explicit one (they are unsigned). */
const INT_WIDTHS: Record<string, number> = { tinyint: 3, bool: 3, smallint: 5, mediumint: 8, int: 10, bigint: 20 };
const TEXT_BLOBS = new Set(['tinytext', 'text', 'mediumtext', 'longtext', 'tinyblob', 'blob', 'mediumblob', 'longblob']);
const GEOMETRIES = new Set(['geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection']);

interface Storage {
  fixedLen: number;
  bigCol: boolean;
  render: Render;
}

/** Not yet in Column: set for TIME/DATETIME/TIMESTAMP columns in the pre-5.6 formats (see temporal-legacy.ts). */

const fixed = (fixedLen: number, render: Render): Storage => ({ fixedLen, bigCol: false, render });
const variable = (maxBytes: number, render: Render): Storage => ({ fixedLen: 0, bigCol: maxBytes > 255, render });

/** How a column is stored in a COMPACT/DYNAMIC (or, with `redundant`, REDUNDANT) record. */
export function columnStorage(c: Column, redundant: boolean): Storage {
  const intBytes = INT_BYTES[c.type];
  if (intBytes) {
    const render = integerRenderer(intBytes, c.unsigned);
    return fixed(intBytes, c.zerofill ? zerofill(render, c.length || INT_WIDTHS[c.type]) : render);
  }
  if (TEXT_BLOBS.has(c.type)) return variable(Infinity, stringRenderer(c, false));
  if (GEOMETRIES.has(c.type)) return variable(Infinity, renderHex); // SELECT returns the stored SRID + WKB bytes
  switch (c.type) {
    case 'decimal': return fixed(decimalSize(c.precision, c.scale), withZerofill(c, decimalRenderer(c.precision, c.scale), c.precision + (c.scale > 0 ? 1 : 0)));
    case 'float': return fixed(4, withZerofill(c, floatRenderer(c.scale, c.precision > 0), c.precision > 0 ? c.precision : 12));
    case 'double': return fixed(8, withZerofill(c, doubleRenderer(c.scale, c.precision > 0), c.precision > 0 ? c.precision : 22));
    case 'date': return fixed(3, renderDate);
    case 'datetime':
    case 'timestamp':
    case 'time': return temporalStorage(c);
    case 'year': return fixed(1, c.length === 2 ? renderYear2 : renderYear);
    case 'bit': return fixed((Math.max(1, c.length) + 7) >> 3, renderHex);
    case 'enum': return fixed(enumSize(c.values.length), enumRenderer(c.values));
    case 'set': return fixed(setSize(c.values.length), setRenderer(c.values));
    case 'binary': return fixed(c.length, renderHex);
    case 'varbinary': return variable(c.length, renderHex);
    case 'char': return charStorage(c, redundant);
    case 'varchar': return variable(c.length * charsetInfo(c.charset).mbmaxlen, stringRenderer(c, false));
    case 'json': return variable(Infinity, jsonRenderer(textRenderer('utf8mb4', false)));
    case 'inet4': return fixed(4, renderInet4);
    case 'inet6': return fixed(16, renderInet6);
    case 'uuid': return fixed(16, renderUuid);
    // MySQL 9: a BLOB of float32s underneath (Field_vector is a Field_blob); SELECT returns the bytes.
    case 'vector': return variable(Infinity, renderHex);
    default: throw new Error(`column \`${c.name}\`: type ${String(c.type).toUpperCase()} is not supported yet`);
  }
}

function withZerofill(c: Column, render: Render, width: number): Render {
  return c.zerofill ? zerofill(render, width) : render;
}

function stringRenderer(c: Column, padded: boolean): Render {
  return c.charset === 'binary' ? renderHex : textRenderer(c.charset, padded);
}

function charStorage(c: Column, redundant: boolean): Storage {
  const cs = charsetInfo(c.charset);
  const render = stringRenderer(c, true);
  // COMPACT stores CHAR in variable-width charsets as variable-length (at least `length` bytes).
  if (redundant || cs.mbmaxlen === cs.mbminlen) return fixed(c.length * cs.mbmaxlen, render);
  return variable(c.length * cs.mbmaxlen, render);
}

function temporalStorage(c: Column): Storage {
  const type = c.type as 'time' | 'datetime' | 'timestamp';
  if (c.legacyTemporal) return fixed(legacyTemporalSize(type, c.fsp), legacyTemporalRenderer(type, c.fsp));
  const frac = fracBytes(c.fsp);
  if (type === 'time') return fixed(3 + frac, timeRenderer(c.fsp));
  if (type === 'timestamp') return fixed(4 + frac, timestampRenderer(c.fsp));
  const current = datetimeRenderer(c.fsp);
  // REDUNDANT records give every field's length: an 8-byte DATETIME is MySQL 5.5's format.
  const render: Render = c.fsp === 0 ? (b, o, len) => (len === 8 ? renderDatetime55(b, o, len) : current(b, o, len)) : current;
  return fixed(5 + frac, render);
}

const systemField = (name: string, len: number): FieldSpec => ({
  name, out: -1, fixedLen: len, bigCol: false, nullable: false, render: renderHex, check: null,
});

/**
 * The fields of a record that have a check, and each one's inline test (value-check.ts InlineCheck),
 * laid out for the decoder's loop.
 */
export interface FieldChecks {
  /** Field indexes, in field order. */
  fields: Int32Array;
  kinds: Uint8Array;
  min: Float64Array;
  max: Float64Array;
  decimals: (DecimalGroups | null)[];
}

/** The FieldChecks of `fields` (or of those listed in `stored`, the fields a record has). */
export function checkedFields(fields: readonly FieldSpec[], stored?: ArrayLike<number>): FieldChecks {
  const all = stored === undefined ? fields.map((_, i) => i) : Array.from(stored);
  const indexes = all.filter((i) => fields[i].check !== null);
  const inline = indexes.map((i) => inlineCheckOf(fields[i].check as ValueCheck));
  return {
    fields: Int32Array.from(indexes),
    kinds: Uint8Array.from(inline, (t) => t.kind),
    min: Float64Array.from(inline, (t) => t.min),
    max: Float64Array.from(inline, (t) => t.max),
    decimals: inline.map((t) => t.decimal),
  };
}

/** The index InnoDB clusters on: PRIMARY, else the first all-NOT-NULL UNIQUE without prefixes. */
function clusterKey(table: TableDef): { kind: ClusteredLayout['keyKind']; cols: IndexColumn[] } {
  const primary = table.indexes.find((i) => i.kind === 'primary');
  if (primary) return { kind: 'primary', cols: primary.columns };
  const byName = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]));
  const unique = table.indexes.find((i) => i.kind === 'unique' && i.columns.every((k) => {
    const c = byName.get(k.name.toLowerCase());
    return c !== undefined && !c.nullable && k.prefix === 0 && c.generated !== 'virtual';
  }));
  if (unique) return { kind: 'unique', cols: unique.columns };
  return { kind: 'row_id', cols: [] };
}

/** dict_index_add_col(): fixed columns longer than 768 bytes are laid out as variable-length ones. */
const DICT_MAX_FIXED_COL_LEN = 768;

function storageOf(c: Column, redundant: boolean): Storage {
  const s = columnStorage(c, redundant);
  return s.fixedLen > DICT_MAX_FIXED_COL_LEN ? { fixedLen: 0, bigCol: true, render: s.render } : s;
}

export function clusteredLayout(table: TableDef, redundant: boolean): ClusteredLayout {
  const columns = table.columns.filter((c) => c.generated !== 'virtual');
  const outIndex = new Map(columns.map((c, i) => [c.name.toLowerCase(), i]));
  const spec = (c: Column, out: number): FieldSpec => ({ name: c.name, out, nullable: c.nullable, ...storageOf(c, redundant), check: valueCheckFor(c, redundant) });
  const key = clusterKey(table);
  const fields: FieldSpec[] = [];
  const inKey = new Set<string>();
  for (const k of key.cols) {
    const name = k.name.toLowerCase();
    const i = outIndex.get(name);
    if (i === undefined) throw new Error(`the ${key.kind === 'primary' ? 'PRIMARY KEY' : 'UNIQUE key'} names column \`${k.name}\`, which the table does not have`);
    const c = columns[i];
    if (k.prefix > 0) {
      // A prefix key part holds only the first characters; the whole column follows with the rest.
      const prefixBytes = k.prefix * charsetInfo(c.charset).mbmaxlen;
      const whole = storageOf(c, redundant);
      const fixedLen = whole.fixedLen === 0 ? 0 : Math.min(whole.fixedLen, prefixBytes);
      fields.push({ name: c.name, out: -1, nullable: false, fixedLen, bigCol: fixedLen === 0 && whole.bigCol, render: renderHex, check: null });
    } else {
      fields.push({ ...spec(c, i), nullable: false });
      inKey.add(name);
    }
  }
  if (key.kind === 'row_id') fields.push(systemField('DB_ROW_ID', 6));
  const nUnique = fields.length;
  fields.push(systemField('DB_TRX_ID', 6), systemField('DB_ROLL_PTR', 7));
  columns.forEach((c, i) => {
    if (!inKey.has(c.name.toLowerCase())) fields.push(spec(c, i));
  });
  // A FULLTEXT index makes InnoDB add a hidden FTS_DOC_ID BIGINT UNSIGNED column after the user's
  // columns, unless the table defines one itself.
  if (table.indexes.some((i) => i.kind === 'fulltext') && !outIndex.has('fts_doc_id')) fields.push(systemField('FTS_DOC_ID', 8));
  return { fields, nUnique, nNullable: fields.filter((f) => f.nullable).length, checked: checkedFields(fields), columns, keyKind: key.kind };
}
