/**
 * How a column's value is stored in a record (dict0mem.cc dict_col_t, the lengths of
 * dict_col_get_fixed_size): fixed bytes or variable length, whether the length may take two bytes
 * (DATA_BIG_COL), and the renderer that turns the stored bytes into the text SELECT shows (TIMESTAMP
 * in UTC; zonedRender gives it in another zone).
 */
import { charsetInfo } from './charset.ts';
import type { Column } from '../schema.ts';
import { decimalRenderer, decimalSize } from './decimal.ts';
import { integerRenderer } from './integer.ts';
import { renderHex, zerofill, type Render } from './render.ts';
import { textRenderer } from './string.ts';
import { doubleRenderer, floatRenderer } from './float.ts';
import { enumRenderer, enumSize, setRenderer, setSize } from './enum-set.ts';
import { renderGeometry } from './geometry.ts';
import { jsonRenderer } from './json-binary.ts';
import { renderInet4, renderInet6, renderUuid } from './network.ts';
import { datetimeRenderer, fracBytes, renderDate, renderYear, renderYear2, timeRenderer, timestampRenderer } from './temporal.ts';
import { legacyTemporalRenderer, legacyTemporalSize, renderDatetime55 } from './temporal-legacy.ts';
import { UTC, type TimeZone } from './time-zone.ts';

const INT_BYTES: Record<string, number> = { tinyint: 1, bool: 1, smallint: 2, mediumint: 3, int: 4, bigint: 8 };
/** Display widths of ZEROFILL integers without an explicit one (they are unsigned). */
const INT_WIDTHS: Record<string, number> = { tinyint: 3, bool: 3, smallint: 5, mediumint: 8, int: 10, bigint: 20 };
const TEXT_BLOBS = new Set(['tinytext', 'text', 'mediumtext', 'longtext', 'tinyblob', 'blob', 'mediumblob', 'longblob']);
const GEOMETRIES = new Set(['geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection']);

export interface Storage {
  fixedLen: number;
  bigCol: boolean;
  render: Render;
}


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
  if (GEOMETRIES.has(c.type)) return variable(Infinity, renderGeometry);
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

/**
 * The renderer of column `c`'s values shown in `zone`: `render` (its storage's, in UTC) but for a
 * TIMESTAMP in another zone. DATETIME and the rest are zone-less.
 */
export function zonedRender(c: Column | null, render: Render, zone: TimeZone): Render {
  if (c === null || c.type !== 'timestamp' || zone === UTC) return render;
  return c.legacyTemporal ? legacyTemporalRenderer('timestamp', c.fsp, zone) : timestampRenderer(c.fsp, zone);
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
