/**
 * The compressed integers of undo log records (mach0data: mach_read_compressed and its 64-bit forms),
 * read forward through a cursor over one undo page. A value that runs past the record's end is a
 * damaged record, said by an UndoRecordError, never a number guessed from the bytes beyond.
 */

/** An undo record whose bytes do not parse: damaged, or overwritten after its log was purged. */
export class UndoRecordError extends Error {}

/** A read position in an undo page, bounded by the end of the record being read. */
export interface UndoCursor {
  page: Uint8Array;
  pos: number;
  end: number;
}

function need(c: UndoCursor, n: number): void {
  if (c.pos + n > c.end) throw new UndoRecordError(`the undo record ends at offset ${c.end}, before a value of ${n} bytes at ${c.pos}`);
}

export function readByte(c: UndoCursor): number {
  need(c, 1);
  return c.page[c.pos++];
}

export function readFixed(c: UndoCursor, n: number): number {
  need(c, n);
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + c.page[c.pos + i];
  c.pos += n;
  return v;
}

/** mach_read_compressed: 1 to 5 bytes, the first byte's high bits giving the length. */
export function readCompressed(c: UndoCursor): number {
  need(c, 1);
  const b = c.page[c.pos];
  if (b < 0x80) {
    c.pos++;
    return b;
  }
  if (b < 0xc0) return readFixed(c, 2) - 0x8000;
  if (b < 0xe0) return readFixed(c, 3) - 0xc00000;
  if (b < 0xf0) return readFixed(c, 4) - 0xe0000000;
  if (b !== 0xf0) throw new UndoRecordError(`byte 0x${b.toString(16)} at offset ${c.pos} starts no compressed number`);
  c.pos++;
  return readFixed(c, 4);
}

/** mach_u64_read_much_compressed: a compressed low half, or 0xFF, the high half and the low half compressed. */
export function readMuchCompressed(c: UndoCursor): number {
  need(c, 1);
  if (c.page[c.pos] !== 0xff) return readCompressed(c);
  c.pos++;
  const high = readCompressed(c);
  return high * 2 ** 32 + readCompressed(c);
}

/** mach_u64_read_compressed: the high half compressed, the low half in 4 bytes (both returned: a roll pointer passes 2^53). */
export function readU64Compressed(c: UndoCursor): { high: number; low: number } {
  const high = readCompressed(c);
  return { high, low: readFixed(c, 4) };
}
