/**
 * Undo log records (trx0rec: trx_undo_rec_get_pars, trx_undo_update_rec_get_sys_cols,
 * trx_undo_update_rec_get_update). Each begins with the offset of the next record, then a type byte
 * (the type, the compiler info × 16, TRX_UNDO_UPD_EXTERN), the undo number and the table id; an
 * update or delete-mark adds the record's info bits, its old DB_TRX_ID and DB_ROLL_PTR, then (as an
 * insert) the clustered key's fields, then (an update) the update vector: each changed field's number
 * in the clustered index and its old value. Values are length-prefixed: UNIV_SQL_NULL for NULL, and a
 * length past UNIV_EXTERN_STORAGE_FIELD for a value stored off-page (its local part, the 20-byte
 * reference last), with a longer prefix when the column is indexed.
 */
import { u16 } from '../pages/fil-header.ts';
import { readByte, readCompressed, readFixed, readMuchCompressed, readU64Compressed, UndoRecordError, type UndoCursor } from './mach-compressed.ts';
import { rollPtrOf, type RollPtr } from './roll-ptr.ts';

export const TRX_UNDO_RENAME_TABLE = 9;
export const TRX_UNDO_INSERT_METADATA = 10;
export const TRX_UNDO_INSERT_REC = 11;
export const TRX_UNDO_UPD_EXIST_REC = 12;
export const TRX_UNDO_UPD_DEL_REC = 13;
export const TRX_UNDO_DEL_MARK_REC = 14;
/** MariaDB 10.6+: an insert into an empty table under a table lock, undone by emptying it. */
export const TRX_UNDO_EMPTY = 15;
const TRX_UNDO_UPD_EXTERN = 128;
/** MySQL 8's TRX_UNDO_MODIFY_BLOB: a flags byte follows, and LOB changes are logged as partial updates (not read here). */
const TRX_UNDO_MODIFY_BLOB = 64;
const TRX_UNDO_CMPL_INFO_MULT = 16;
/** UPD_NODE_NO_ORD_CHANGE (row0upd.h): the update changed no column any index orders by. */
const UPD_NODE_NO_ORD_CHANGE = 1;

/** UNIV_SQL_NULL and UNIV_EXTERN_STORAGE_FIELD (UNIV_SQL_NULL - UNIV_PAGE_SIZE_DEF). */
const SQL_NULL = 0xffffffff;
const EXTERN_STORAGE_FIELD = SQL_NULL - 16384;
/** The spatial status bits of an off-page value's length (SPATIAL_STATUS_MASK). */
const SPATIAL_STATUS_MASK = 3 << 12;
const REF_SIZE = 20;
/** REC_MAX_N_FIELDS: field numbers at or past it are virtual columns. */
const REC_MAX_N_FIELDS = 1023;

/** A field's value as the undo record keeps it: SQL NULL, bytes, or the local part of an off-page value. */
export interface UndoValue {
  bytes: Uint8Array | null;
  external: boolean;
}

export interface UndoRecHeader {
  /** Where it lies on its page. */
  offset: number;
  type: number;
  cmplInfo: number;
  updExtern: boolean;
  undoNo: number;
  tableId: number;
}

export interface UndoRec extends UndoRecHeader {
  /** Info bits of the record before the change (its delete mark): update and delete-mark records only. */
  infoBits: number;
  /** The record's DB_TRX_ID and DB_ROLL_PTR before the change: update and delete-mark records only. */
  oldTrxId: number;
  oldRollPtr: RollPtr | null;
  /** The clustered key's fields. */
  key: UndoValue[];
  /** The fields an update changed, with their old values (field numbers of the clustered index); null for an insert or a delete-mark. */
  update: { fieldNo: number; value: UndoValue }[] | null;
}

export function typeName(type: number): string {
  switch (type) {
    case TRX_UNDO_INSERT_REC: return 'insert';
    case TRX_UNDO_UPD_EXIST_REC: return 'update';
    case TRX_UNDO_UPD_DEL_REC: return 'update of a deleted row';
    case TRX_UNDO_DEL_MARK_REC: return 'delete';
    case TRX_UNDO_EMPTY: return 'insert into an empty table';
    case TRX_UNDO_RENAME_TABLE: return 'rename table';
    case TRX_UNDO_INSERT_METADATA: return 'instant ALTER metadata';
    default: return `type ${type}`;
  }
}

/** A cursor over the data of the undo record at `offset`: from its type byte to before its trailing 2-byte back pointer. */
function cursorAt(page: Uint8Array, offset: number): UndoCursor {
  const next = u16(page, offset);
  if (next < offset + 5 || next > page.length - 8) throw new UndoRecordError(`the undo record at offset ${offset} says the next one is at ${next}`);
  return { page, pos: offset + 2, end: next - 2 };
}

/** The undo record's type, undo number and table (trx_undo_rec_get_pars). */
export function undoRecHeader(page: Uint8Array, offset: number): UndoRecHeader {
  return headerAt(cursorAt(page, offset), offset);
}

function headerAt(c: UndoCursor, offset: number): UndoRecHeader {
  const typeCmpl = readByte(c);
  if (typeCmpl & TRX_UNDO_MODIFY_BLOB) throw new UndoRecordError('it is in MySQL 8\'s format for changes of LOB columns (TRX_UNDO_MODIFY_BLOB), which this reader does not read');
  const type = typeCmpl & (TRX_UNDO_CMPL_INFO_MULT - 1);
  return { offset, type, cmplInfo: (typeCmpl & ~TRX_UNDO_UPD_EXTERN) >> 4, updExtern: (typeCmpl & TRX_UNDO_UPD_EXTERN) !== 0, undoNo: readMuchCompressed(c), tableId: readMuchCompressed(c) };
}

/** One length-prefixed value (trx_undo_rec_get_col_val). */
function readValue(c: UndoCursor): UndoValue {
  const len = readCompressed(c);
  if (len === SQL_NULL) return { bytes: null, external: false };
  if (len < EXTERN_STORAGE_FIELD) return { bytes: take(c, len), external: false };
  if (len === EXTERN_STORAGE_FIELD) {
    // An indexed column: its original local length, then a longer prefix fetched from the BLOB and
    // the reference. The record held the first (original - 20) bytes and the reference.
    const original = readCompressed(c);
    const stored = take(c, readCompressed(c) & ~SPATIAL_STATUS_MASK);
    if (original < REF_SIZE || stored.length < original) throw new UndoRecordError(`an off-page value keeps ${stored.length} bytes for a local part of ${original}`);
    const local = new Uint8Array(original);
    local.set(stored.subarray(0, original - REF_SIZE));
    local.set(stored.subarray(stored.length - REF_SIZE), original - REF_SIZE);
    return { bytes: local, external: true };
  }
  const local = take(c, (len - EXTERN_STORAGE_FIELD) & ~SPATIAL_STATUS_MASK);
  // SPATIAL_ONLY keeps only the minimum bounding rectangle: not the value.
  if (local.length < REF_SIZE) throw new UndoRecordError('an off-page value of a spatial index keeps only its bounding rectangle, not its reference');
  return { bytes: local, external: true };
}

function take(c: UndoCursor, n: number): Uint8Array {
  if (c.pos + n > c.end) throw new UndoRecordError(`a value of ${n} bytes at offset ${c.pos} runs past the undo record's end (${c.end})`);
  const out = c.page.subarray(c.pos, c.pos + n);
  c.pos += n;
  return out;
}

/** The whole undo record at `offset` of a clustered index whose key has `nUnique` fields. */
export function readUndoRec(page: Uint8Array, offset: number, nUnique: number): UndoRec {
  return readRec(cursorAt(page, offset), offset, nUnique);
}

/**
 * The values, before the record's change, of every column some index orders by (trx0rec's
 * trx_undo_page_report_modify writes them, trx_undo_rec_get_partial_row reads them), by field number
 * of the clustered index: those an update changed are in its update vector (not written twice), the
 * others after it; null when the record holds none (an insert, or an update that changed no such
 * column). An off-page value gives the prefix the record keeps of it (its local part, or the longer
 * prefix written for an indexed column), which covers any index prefix of it.
 */
export function readOrdering(page: Uint8Array, offset: number, nUnique: number): Map<number, Uint8Array | null> | null {
  const c = cursorAt(page, offset);
  const head = headerAt(c, offset);
  const update = head.type === TRX_UNDO_UPD_EXIST_REC || head.type === TRX_UNDO_UPD_DEL_REC;
  if (!update && head.type !== TRX_UNDO_DEL_MARK_REC) return null;
  if (update && head.cmplInfo & UPD_NODE_NO_ORD_CHANGE) return null;
  readByte(c);
  readU64Compressed(c);
  readU64Compressed(c);
  for (let i = 0; i < nUnique; i++) readValue(c);
  const out = new Map<number, Uint8Array | null>();
  const n = update ? readCompressed(c) : 0;
  for (let i = 0; i < n; i++) ordering(c, out);
  const start = c.pos;
  const end = start + readFixed(c, 2);
  if (end > c.end) throw new UndoRecordError(`its indexed columns' values say they take ${end - start} bytes, past the record's end`);
  while (c.pos < end) ordering(c, out);
  return out;
}

/** A field number and its value, into `out`. */
function ordering(c: UndoCursor, out: Map<number, Uint8Array | null>): void {
  const fieldNo = readCompressed(c);
  if (fieldNo >= REC_MAX_N_FIELDS) throw new UndoRecordError('it holds an indexed virtual column, whose undo layout this reader does not read');
  out.set(fieldNo, readPrefix(c));
}

/** One value of the ordering part: its bytes, or an off-page value's stored prefix (its 20-byte reference left out). */
function readPrefix(c: UndoCursor): Uint8Array | null {
  const len = readCompressed(c);
  if (len === SQL_NULL) return null;
  if (len < EXTERN_STORAGE_FIELD) return take(c, len);
  if (len === EXTERN_STORAGE_FIELD) readCompressed(c);
  const stored = take(c, (len === EXTERN_STORAGE_FIELD ? readCompressed(c) : len - EXTERN_STORAGE_FIELD) & ~SPATIAL_STATUS_MASK);
  if (stored.length < REF_SIZE) throw new UndoRecordError('an off-page value of a spatial index keeps only its bounding rectangle');
  return stored.subarray(0, stored.length - REF_SIZE);
}

function readRec(c: UndoCursor, offset: number, nUnique: number): UndoRec {
  const head = headerAt(c, offset);
  const rec: UndoRec = { ...head, infoBits: 0, oldTrxId: 0, oldRollPtr: null, key: [], update: null };
  const modify = head.type === TRX_UNDO_UPD_EXIST_REC || head.type === TRX_UNDO_UPD_DEL_REC || head.type === TRX_UNDO_DEL_MARK_REC;
  if (!modify && head.type !== TRX_UNDO_INSERT_REC) return rec;
  if (modify) {
    rec.infoBits = readByte(c);
    const trx = readU64Compressed(c);
    rec.oldTrxId = trx.high * 2 ** 32 + trx.low;
    const roll = readU64Compressed(c);
    rec.oldRollPtr = rollPtrOf(roll.high, roll.low);
  }
  for (let i = 0; i < nUnique; i++) rec.key.push(readValue(c));
  if (head.type === TRX_UNDO_INSERT_REC || head.type === TRX_UNDO_DEL_MARK_REC) return rec;
  const n = readCompressed(c);
  rec.update = [];
  for (let i = 0; i < n; i++) {
    const fieldNo = readCompressed(c);
    // A virtual column's old value (indexed virtual columns): no stored field of the record.
    if (fieldNo >= REC_MAX_N_FIELDS) throw new UndoRecordError('the update changed an indexed virtual column, whose undo layout this reader does not read');
    rec.update.push({ fieldNo, value: readValue(c) });
  }
  return rec;
}
