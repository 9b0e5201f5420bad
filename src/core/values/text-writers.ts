/**
 * The write plan: which text writer a column gets, the fast path from page bytes to the UTF-8 text of
 * a cell, written straight into a BatchBuilder with no intermediate string for the common types
 * (integers, DECIMAL, dates, UTF-8 and single-byte text, binary as hex). Every other type goes
 * through its string renderer. Each writer produces exactly the text its renderer would (a unit test
 * holds them to it). What is known of the writer picked (fastWriteOf, quoteCheckOf) comes with it.
 */
import type { Column } from '../schema.ts';
import { singleByteTable, singleByteWriter, utf8Writer } from './charset-writers.ts';
import { decimalWriter, intWriter, writeHex } from './number-writers.ts';
import { renderHex, type Render } from './render.ts';
import { datetimeWriter, dateWriter } from './temporal-writers.ts';
import { appendString, type Write } from './writer-traits.ts';

const INT_BYTES: Record<string, number> = { tinyint: 1, bool: 1, smallint: 2, mediumint: 3, int: 4, bigint: 8 };
// Not JSON: MySQL stores it in a binary format that its renderer turns into text.
const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext']);

export function writerFor(c: Column | null, render: Render): Write {
  if (render === renderHex) return writeHex;
  if (c === null) return fromRender(render);
  const intBytes = INT_BYTES[c.type];
  if (intBytes !== undefined && !c.zerofill && intBytes <= 4) return intWriter(intBytes, c.unsigned);
  if (c.type === 'decimal' && !c.zerofill) return decimalWriter(c.precision, c.scale);
  if (c.type === 'date') return dateWriter(render);
  if (c.type === 'datetime') return datetimeWriter(c.fsp, render);
  if (TEXT_TYPES.has(c.type)) {
    const padded = c.type === 'char';
    if (c.charset === 'utf8mb4' || c.charset === 'utf8mb3') return utf8Writer(padded, render);
    const table = singleByteTable(c.charset);
    if (table !== null) return singleByteWriter(table, padded);
  }
  return fromRender(render);
}

function fromRender(render: Render): Write {
  return (b, o, len, out) => appendString(out, render(b, o, len));
}
