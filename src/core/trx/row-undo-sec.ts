/**
 * A secondary index's entries as the rollback of transactions leaves them (row0uins.cc
 * row_undo_ins_remove_sec, row0umod.cc row_undo_mod_del_unmark_sec, row_undo_mod_upd_exist_sec,
 * row_undo_mod_upd_del_sec). Secondary records hold no DB_TRX_ID, so the changes are found from the
 * undo logs: each undo record of the table names its row's clustered key, and an update or delete
 * keeps the old values of every indexed column (its ordering fields). Per row the set changed, the
 * entry its version before the set had is what stays: shown live, or delete-marked when that version
 * was deleted; every other live entry of the row is one the set added, which the rollback removes; an
 * inserted row keeps no entry. The set only ever delete-marks entries, so the old one is on the page.
 *
 * Undo records carry a table id, not the table: the table's is learnt from its clustered index, where
 * a row the set changed has a DB_ROLL_PTR naming an undo record of this table. Pages whose
 * PAGE_MAX_TRX_ID is below every transaction of the set were not changed by it and are not looked at.
 */
import { searchPath, type IndexRoot } from '../btree/btree.ts';
import { IbdError } from '../errors.ts';
import { FIL_NULL, FIL_PAGE_NEXT, u32 } from '../pages/fil-header.ts';
import { PAGE_HEADER, recordOrigins } from '../pages/index-page.ts';
import type { ClusteredLayout } from '../records/clustered-index.ts';
import { compareRecordKey, type SearchKey } from '../records/key-compare.ts';
import { compactChildPage, keySpans, NULL_SPAN, redundantChildPage } from '../records/key-fields.ts';
import { compactRecordReadable, RecordError } from '../records/record.ts';
import type { Column } from '../schema.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';
import { charsetInfo } from '../values/charset.ts';
import { keyPart } from '../values/key-values.ts';
import { cjkCharLength } from '../values/multibyte.ts';
import { UndoRecordError } from './mach-compressed.ts';
import { readRollPtr, readTrxId } from './roll-ptr.ts';
import type { Located, RowVersions } from './row-vers.ts';
import { readOrdering, readUndoRec, TRX_UNDO_EMPTY, TRX_UNDO_INSERT_REC, undoRecHeader, type UndoRec } from './trx-rec.ts';

/** The table's clustered index, where rows are searched by key. */
export interface ClusteredTree {
  ts: Tablespace;
  root: IndexRoot;
  layout: ClusteredLayout;
  compact: boolean;
}

/** What the rollback makes of an entry (SecondaryUndo.verdict). */
export const ENTRY_AS_IS = -1;
export const ENTRY_REMOVED = 0;
export const ENTRY_LIVE = 1;
export const ENTRY_DELETE_MARKED = 2;
/** The row's entry before the set cannot be built: shown as on disk, marked. */
export const ENTRY_LOST = 3;

/** One row the set changed: its clustered key and what its entries become. */
type RowEntry = { trxId: number; pk: (Uint8Array | null)[] } & (
  | { kind: 'none' }
  | { kind: 'old'; deleted: boolean; fields: (Uint8Array | null)[] }
  | { kind: 'lost'; why: string }
);

/** REC_INFO_DELETED_FLAG in an undo record's info bits: the version before the change was delete-marked. */
const DELETED_BIT = 0x20;
/** PAGE_MAX_TRX_ID's low 6 bytes (the 8-byte field at PAGE_HEADER + 18). */
const MAX_TRX_ID_AT = PAGE_HEADER + 18 + 2;

export class SecondaryUndo {
  /** The transaction and reason of the last verdict other than ENTRY_AS_IS. */
  trxId = 0;
  why = '';
  private readonly spans: Int32Array;

  constructor(
    private readonly layout: ClusteredLayout,
    /** The fields of the entry holding the clustered key, in the clustered key's order. */
    private readonly pkFields: readonly number[],
    private readonly rows: ReadonlyMap<number, readonly RowEntry[]>,
    private readonly minTrx: number,
    /** A transaction of the set that inserted into the table when it was empty (TRX_UNDO_EMPTY): every entry is its, or -1. */
    private readonly emptiedBy: number,
    /** Undo records of the table that could not be read: their rows' entries may be as the set left them. */
    readonly problems: readonly string[],
  ) {
    this.spans = new Int32Array(2 * layout.fields.length);
  }

  /** What becomes of the entry at `origin` (`deleted`: its delete mark on the page): one of the ENTRY_ values. */
  verdict(page: Uint8Array, origin: number, compact: boolean, deleted: boolean): number {
    if ((this.rows.size === 0 && this.emptiedBy < 0) || readTrxId(page, MAX_TRX_ID_AT) < this.minTrx) return ENTRY_AS_IS;
    if (this.emptiedBy >= 0) {
      this.trxId = this.emptiedBy;
      return ENTRY_REMOVED;
    }
    const at = this.spans;
    try {
      keySpans(page, origin, this.layout, compact, true, this.layout.fields.length, at);
    } catch (e) {
      if (e instanceof RecordError) return ENTRY_AS_IS;
      throw e;
    }
    const row = this.rows.get(hashSpans(page, at, this.pkFields))?.find((r) => r.pk.every((v, i) => sameField(page, at, this.pkFields[i], v)));
    if (row === undefined) return ENTRY_AS_IS;
    this.trxId = row.trxId;
    if (row.kind === 'none') return ENTRY_REMOVED;
    if (row.kind === 'lost') {
      this.why = row.why;
      return ENTRY_LOST;
    }
    if (row.fields.every((v, i) => sameField(page, at, i, v))) return row.deleted ? ENTRY_DELETE_MARKED : ENTRY_LIVE;
    // Another entry of the row: the set's if live (the rollback removes it), an older delete-marked one's else.
    return deleted ? ENTRY_AS_IS : ENTRY_REMOVED;
  }
}

function sameField(page: Uint8Array, at: Int32Array, field: number, v: Uint8Array | null): boolean {
  const start = at[2 * field];
  if (start === NULL_SPAN || v === null) return start === NULL_SPAN && v === null;
  if (at[2 * field + 1] !== v.length) return false;
  for (let i = 0; i < v.length; i++) if (page[start + i] !== v[i]) return false;
  return true;
}

/** FNV-1a over the fields' bytes, each ended by its length. */
function hashSpans(page: Uint8Array, at: Int32Array, fields: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const f of fields) {
    const start = at[2 * f];
    const len = start === NULL_SPAN ? 0xffff : at[2 * f + 1];
    for (let i = 0; start !== NULL_SPAN && i < len; i++) h = Math.imul(h ^ page[start + i], 0x01000193);
    h = Math.imul(h ^ (len & 0xff), 0x01000193);
  }
  return h >>> 0;
}

function hashValues(values: readonly (Uint8Array | null)[]): number {
  let h = 0x811c9dc5;
  for (const v of values) {
    const len = v === null ? 0xffff : v.length;
    for (let i = 0; v !== null && i < len; i++) h = Math.imul(h ^ v[i], 0x01000193);
    h = Math.imul(h ^ (len & 0xff), 0x01000193);
  }
  return h >>> 0;
}

/** Bytes of the first `chars` characters of a stored value (dtype_get_at_most_n_mbchars). */
export function prefixBytes(column: Column, b: Uint8Array, chars: number): number {
  const { mbminlen, mbmaxlen } = charsetInfo(column.charset);
  if (mbmaxlen === 1 || mbminlen === mbmaxlen) return Math.min(b.length, chars * mbmaxlen);
  const cjk = cjkCharLength(column.charset);
  let i = 0;
  for (let n = 0; n < chars && i < b.length; n++) {
    if (cjk !== null) i += cjk(b, i);
    else if (column.charset === 'utf16') i += b[i] >= 0xd8 && b[i] <= 0xdb ? 4 : 2;
    else if (column.charset === 'utf16le') i += b[i + 1] >= 0xd8 && b[i + 1] <= 0xdb ? 4 : 2;
    else for (i++; i < b.length && (b[i] & 0xc0) === 0x80; i++);
  }
  return Math.min(i, b.length);
}

/** How each field of the entry is made from the clustered record: its field there, and a prefix's characters. */
interface FieldSource {
  clustered: number;
  prefix: number;
  column: Column;
}

function fieldSources(secondary: ClusteredLayout, clustered: ClusteredLayout): FieldSource[] | string {
  if (clustered.instant) return 'the table was altered with ALGORITHM=INSTANT, whose undo records this reader does not rebuild';
  if (clustered.keyKind === 'row_id' || clustered.keyParts.some((k) => k.prefix > 0)) return 'the table is clustered on a hidden row id or a column prefix, whose rows are not searched here';
  const out: FieldSource[] = [];
  for (let i = 0; i < secondary.fields.length; i++) {
    const part = secondary.keyParts[i];
    const name = secondary.fields[i].name.toLowerCase();
    const at = clustered.fields.findIndex((f) => f.name.toLowerCase() === name);
    if (part === undefined || at < 0) return `its field ${secondary.fields[i].name} is not a column of the table's records`;
    out.push({ clustered: at, prefix: part.prefix, column: part.column });
  }
  return out;
}

/** The clustered leaf record whose key is `key`, or null. */
async function rowOf(tree: ClusteredTree, key: SearchKey): Promise<{ page: Uint8Array; origin: number } | null> {
  const { ts, layout, compact } = tree;
  const childOf = (p: Uint8Array, o: number) => (compact ? compactChildPage(p, o, layout) : redundantChildPage(p, o));
  const path = await searchPath(ts, tree.root, childOf, (p, o) => compareRecordKey(p, o, layout, compact, false, key) < 0);
  // An equal key may open the next leaf, when a node pointer holds it.
  for (let no = path[path.length - 1], hops = 0; no !== FIL_NULL && hops < 2; hops++) {
    const page = (await ts.page(no)).bytes;
    const origins: number[] = [];
    recordOrigins(page, compact, origins);
    for (const origin of origins) {
      if (compact && !compactRecordReadable(page, origin, layout)) continue;
      const c = compareRecordKey(page, origin, layout, compact, true, key);
      if (c === 0) return { page, origin };
      if (c > 0) return null;
    }
    no = u32(page, FIL_PAGE_NEXT);
  }
  return null;
}

/**
 * The table id of the undo records the set wrote for this table, or null when it changed none of its
 * rows: per table id, one record's key searched in the clustered index; a row found that the set
 * changed names, through its DB_ROLL_PTR, an undo record of this table.
 */
async function tableIdOf(versions: RowVersions, tree: ClusteredTree, groups: Map<number, Located[]>): Promise<number | null> {
  const { layout, compact } = tree;
  const parts = layout.keyParts.map((k) => keyPart(k.column, k.prefix, k.descending));
  const spans = new Int32Array(2 * layout.nUnique + 4);
  for (const located of groups.values()) {
    for (const at of located.slice(0, 3)) {
      let rec: UndoRec;
      try {
        rec = readUndoRec(at.page, at.offset, layout.nUnique);
      } catch (e) {
        if (e instanceof UndoRecordError) continue;
        throw e;
      }
      if (rec.key.length !== layout.nUnique || rec.key.some((k) => k.bytes === null || k.external)) continue;
      const found = await rowOf(tree, { parts, values: rec.key.map((k) => k.bytes as Uint8Array) }).catch((e: unknown) => {
        if (e instanceof RecordError) return null;
        throw e;
      });
      if (found !== null) {
        keySpans(found.page, found.origin, layout, compact, true, layout.nUnique + 2, spans);
        if (versions.trxIds.has(readTrxId(found.page, spans[2 * layout.nUnique]))) {
          const roll = readRollPtr(found.page, spans[2 * layout.nUnique + 2]);
          const ours = versions.undoAt(roll.rsegId, roll.pageNo, roll.offset);
          if (ours !== undefined) return undoRecHeader(ours.page, ours.offset).tableId;
        }
      }
      break;
    }
  }
  return null;
}

/** Per row (by its key's bytes), the set's first undo record of it and the first that keeps the indexed columns' old values. */
interface RowUndo {
  trxId: number;
  first: UndoRec;
  /** null: none of its records changed an indexed column; a string: why one's old values cannot be read. */
  ordering: Map<number, Uint8Array | null> | string | null;
}

function entryOf(row: RowUndo, sources: readonly FieldSource[], nUnique: number): RowEntry | null {
  const pk = row.first.key.map((k) => k.bytes);
  if (row.first.type === TRX_UNDO_INSERT_REC) return { kind: 'none', trxId: row.trxId, pk };
  // No change of any indexed column: this row's entries are as they were.
  if (row.ordering === null) return null;
  if (typeof row.ordering === 'string') return { kind: 'lost', trxId: row.trxId, pk, why: row.ordering };
  const fields: (Uint8Array | null)[] = [];
  for (const s of sources) {
    const v = s.clustered < nUnique ? pk[s.clustered] : row.ordering.get(s.clustered);
    if (v === undefined) return { kind: 'lost', trxId: row.trxId, pk, why: `its undo record keeps no old value of column ${s.column.name}` };
    fields.push(v === null || s.prefix === 0 ? v : v.subarray(0, prefixBytes(s.column, v, s.prefix)));
  }
  return { kind: 'old', trxId: row.trxId, pk, deleted: (row.first.infoBits & DELETED_BIT) !== 0, fields };
}

/**
 * The rollback of the set's changes in secondary index `secondary` of the table whose clustered index
 * is `tree`; a string says why it cannot be had here (the entries are then as on disk).
 */
export async function secondaryUndo(versions: RowVersions, tree: ClusteredTree, secondary: ClusteredLayout): Promise<SecondaryUndo | string> {
  if (!versions.allLogged) return 'only the rollback of transactions whose undo logs are all at hand reaches a secondary index';
  if (secondary.nUnique === 1 && secondary.fields.length > 1 && secondary.columns[0]?.name.startsWith('MBR(')) return 'a SPATIAL index is not rolled back';
  const sources = fieldSources(secondary, tree.layout);
  if (typeof sources === 'string') return sources;
  const { nUnique } = tree.layout;
  const pkFields: number[] = [];
  for (let k = 0; k < nUnique; k++) {
    const f = sources.findIndex((s) => s.clustered === k && s.prefix === 0);
    if (f < 0) return `the index's entries do not hold the clustered key's column ${tree.layout.fields[k].name}`;
    pkFields.push(f);
  }
  const groups = new Map<number, Located[]>();
  const problems: string[] = [];
  for (const at of versions.undoRecords()) {
    try {
      const { tableId } = undoRecHeader(at.page, at.offset);
      const group = groups.get(tableId);
      if (group === undefined) groups.set(tableId, [at]);
      else group.push(at);
    } catch (e) {
      if (!(e instanceof UndoRecordError)) throw e;
      problems.push(`an undo record of transaction ${at.trxId} cannot be read (${e.message}): if it is of this table, its row's entries are as on disk`);
    }
  }
  const minTrx = Math.min(...versions.trxIds);
  const tableId = await tableIdOf(versions, tree, groups).catch((e: unknown) => {
    if (e instanceof IbdError) return e;
    throw e;
  });
  if (tableId instanceof IbdError) return `the clustered index cannot be searched for the rows the transactions changed (${tableId.message})`;
  const ours = tableId === null ? [] : (groups.get(tableId) ?? []);
  const byKey = new Map<string, RowUndo>();
  let emptiedBy = -1;
  for (const { at, rec } of ours.map((at) => ({ at, rec: readOrNull(at, nUnique, problems) })).filter((r) => r.rec !== null).sort((a, b) => a.at.trxId - b.at.trxId || a.rec!.undoNo - b.rec!.undoNo)) {
    const r = rec as UndoRec;
    if (r.type === TRX_UNDO_EMPTY) emptiedBy = at.trxId;
    if (r.key.length !== nUnique) continue;
    const key = r.key.map((k) => (k.bytes === null ? '-' : Array.from(k.bytes, (b) => b.toString(16).padStart(2, '0')).join(''))).join(',');
    let row = byKey.get(key);
    if (row === undefined) byKey.set(key, (row = { trxId: at.trxId, first: r, ordering: null }));
    row.ordering ??= orderingOf(at, nUnique);
  }
  const rows = new Map<number, RowEntry[]>();
  for (const row of byKey.values()) {
    const entry = entryOf(row, sources, nUnique);
    if (entry === null) continue;
    const h = hashValues(entry.pk);
    const list = rows.get(h);
    if (list === undefined) rows.set(h, [entry]);
    else list.push(entry);
  }
  return new SecondaryUndo(secondary, pkFields, rows, minTrx, emptiedBy, problems);
}

function readOrNull(at: Located, nUnique: number, problems: string[]): UndoRec | null {
  try {
    return readUndoRec(at.page, at.offset, nUnique);
  } catch (e) {
    if (!(e instanceof UndoRecordError)) throw e;
    problems.push(`an undo record of transaction ${at.trxId} for this table cannot be read (${e.message}): its row's entries are as on disk`);
    return null;
  }
}

function orderingOf(at: Located, nUnique: number): Map<number, Uint8Array | null> | string | null {
  try {
    return readOrdering(at.page, at.offset, nUnique);
  } catch (e) {
    if (!(e instanceof UndoRecordError)) throw e;
    return `its undo record's old values of the indexed columns cannot be read: ${e.message}`;
  }
}
