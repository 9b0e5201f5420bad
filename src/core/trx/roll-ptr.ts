/**
 * The roll pointer (DB_ROLL_PTR, trx0types.h roll_ptr_t): 7 bytes naming the undo record that holds a
 * clustered record's previous version: an insert flag (the record was inserted: no previous version),
 * the rollback segment's id (its slot in TRX_SYS), the undo page and the record's offset in it.
 */

export interface RollPtr {
  insert: boolean;
  rsegId: number;
  pageNo: number;
  offset: number;
}

/** The roll pointer of 7 bytes at `at`. */
export function readRollPtr(b: Uint8Array, at: number): RollPtr {
  return {
    insert: (b[at] & 0x80) !== 0,
    rsegId: b[at] & 0x7f,
    pageNo: ((b[at + 1] << 24) | (b[at + 2] << 16) | (b[at + 3] << 8) | b[at + 4]) >>> 0,
    offset: (b[at + 5] << 8) | b[at + 6],
  };
}

/** The roll pointer of an undo record's compressed 64-bit form (its top 24 bits, its low 32). */
export function rollPtrOf(high: number, low: number): RollPtr {
  return { insert: (high & 0x800000) !== 0, rsegId: (high >> 16) & 0x7f, pageNo: (((high & 0xffff) << 16) | (low >>> 16)) >>> 0, offset: low & 0xffff };
}

/** The roll pointer's 7 bytes, written at `at` (a rebuilt previous version's DB_ROLL_PTR). */
export function writeRollPtr(p: RollPtr, b: Uint8Array, at: number): void {
  b[at] = (p.insert ? 0x80 : 0) | p.rsegId;
  b[at + 1] = p.pageNo >>> 24;
  b[at + 2] = (p.pageNo >>> 16) & 0xff;
  b[at + 3] = (p.pageNo >>> 8) & 0xff;
  b[at + 4] = p.pageNo & 0xff;
  b[at + 5] = p.offset >> 8;
  b[at + 6] = p.offset & 0xff;
}

/** A key for a rollback segment's map of undo records: page and offset in one safe integer. */
export function undoAddress(pageNo: number, offset: number): number {
  return pageNo * 65536 + offset;
}

/** A 6-byte transaction id (DB_TRX_ID) at `at`. */
export function readTrxId(b: Uint8Array, at: number): number {
  return ((b[at] << 8) | b[at + 1]) * 2 ** 32 + (((b[at + 2] << 24) | (b[at + 3] << 16) | (b[at + 4] << 8) | b[at + 5]) >>> 0);
}
