/**
 * The opt-in columns a forensic read adds after the others (issue 41): what InnoDB stores beside a
 * row's values and where the row lies. DB_TRX_ID (the transaction that wrote the row's version, as
 * the server numbers transactions) and DB_ROLL_PTR (its 7 bytes as `0x` + hex: the insert flag, the
 * rollback segment, the undo page and offset of the version before: trx/roll-ptr.ts), both read
 * from the clustered record after its key (dict_index_build_internal_clust), and the leaf page and
 * the record's heap number (its slot in the page's heap: rem0rec.h REC_NEW_HEAP_NO / REC_OLD_HEAP_NO).
 *
 * A cell the record does not have stays NULL, never made up: a secondary index's records hold no
 * DB_TRX_ID nor DB_ROLL_PTR; a record whose key fields do not measure gives neither.
 */
import { u16 } from '../pages/fil-header.ts';
import type { ClusteredLayout } from '../records/clustered-index.ts';
import type { Column, ColumnType } from '../schema.ts';
import { readTrxId } from '../trx/roll-ptr.ts';
import { renderHex } from '../values/render.ts';
import type { BatchBuilder } from '../values/row-batch.ts';
import { trxIdOffset } from './leaf-versions.ts';

/** The columns, in this order, after every other of a read (`_row_state`, a history's). */
export const SYSTEM_COLUMNS = ['_db_trx_id', '_db_roll_ptr', '_page', '_heap'] as const;

/** What a system column's name takes when the table has a column of that name (then `_sys2`, `_sys3` …). */
const CLASH_SUFFIX = '_sys';
const RENAMED = new RegExp(`^(${SYSTEM_COLUMNS.join('|')})(?:${CLASH_SUFFIX}\\d*)?$`);

/**
 * The system columns' names for a read whose other columns are `taken`: each as SYSTEM_COLUMNS names
 * it unless a column of the table (compared as the server compares column names, letter case aside)
 * already has that name; then with `_sys` after it (or `_sys2` …), so that no output has two columns
 * of one name and no user column is taken for one of ours.
 */
export function systemColumnNames(taken: readonly string[]): string[] {
  const used = new Set(taken.map((n) => n.toLowerCase()));
  return SYSTEM_COLUMNS.map((name) => {
    let out: string = name;
    for (let n = 1; used.has(out.toLowerCase()); n++) out = `${name}${CLASH_SUFFIX}${n === 1 ? '' : n}`;
    used.add(out.toLowerCase());
    return out;
  });
}

/**
 * Which system column (index into SYSTEM_COLUMNS) an output column that is none of the table's is,
 * by its name as systemColumnNames gives it; -1 for another.
 */
export function systemColumnOf(name: string): number {
  const m = RENAMED.exec(name);
  return m === null ? -1 : SYSTEM_COLUMNS.indexOf(m[1] as (typeof SYSTEM_COLUMNS)[number]);
}

/** The warning for a table whose own columns take system columns' names: what ours are called instead. */
export function renamedSystemColumns(names: readonly string[]): string | null {
  const moved = names.flatMap((name, i) => (name === SYSTEM_COLUMNS[i] ? [] : [`${SYSTEM_COLUMNS[i]} is ${name}`]));
  return moved.length === 0 ? null : `the table has columns named like the system columns: ours are renamed (${moved.join(', ')})`;
}

/** Bytes of DB_TRX_ID, which DB_ROLL_PTR (7 bytes) follows. */
const TRX_ID_LEN = 6;
const ROLL_PTR_LEN = 7;

/**
 * The system columns as column definitions, for what compares, filters or labels cells by type:
 * DB_TRX_ID a BIGINT UNSIGNED, DB_ROLL_PTR a BINARY(7), the page an INT UNSIGNED, the heap number a
 * SMALLINT UNSIGNED (13 bits); `names`: theirs in the read (systemColumnNames).
 */
export function systemColumnDefs(names: readonly string[] = SYSTEM_COLUMNS): Column[] {
  const types: [ColumnType, number][] = [['bigint', 0], ['binary', ROLL_PTR_LEN], ['int', 0], ['smallint', 0]];
  return names.map((name, i) => ({
    name, type: types[i][0], unsigned: i !== 1, zerofill: false, nullable: true, length: types[i][1], precision: 0, scale: 0, fsp: 0,
    charset: 'binary', collation: '', values: [], generated: null, invisible: false, legacyTemporal: false, defaultSql: null, comment: '',
  }));
}

/** A record's heap number: 13 bits of its header, 4 bytes before its origin in COMPACT, 5 in REDUNDANT. */
export function recordHeapNo(page: Uint8Array, origin: number, compact: boolean): number {
  return u16(page, origin - (compact ? 4 : 5)) >>> 3;
}

/** Writes a row's system cells; made once per read that asks for them (none otherwise: no cost). */
export class SystemCells {
  private readonly spans = new Int32Array(128);
  private readonly secondary: boolean;

  /** `first`: the row's cell of `_db_trx_id`, the others after it. */
  constructor(private readonly layout: ClusteredLayout, private readonly compact: boolean, private readonly first: number) {
    this.secondary = layout.secondary !== undefined;
  }

  /**
   * The cells of the row starting at cell `base`: DB_TRX_ID and DB_ROLL_PTR of the record at
   * `rec`/`recOrigin` (the row's version: the record itself, or an earlier version rebuilt from an
   * undo log), the page number and the heap number of the record on the page, at `origin` in `page`.
   */
  write(out: BatchBuilder, base: number, rec: Uint8Array, recOrigin: number, pageNo: number, page: Uint8Array, origin: number): void {
    const cell = base + this.first;
    if (!this.secondary) {
      const at = trxIdOffset(rec, recOrigin, this.layout, this.compact, this.spans);
      if (at >= 0 && at + TRX_ID_LEN + ROLL_PTR_LEN <= rec.length) {
        out.setString(cell, String(readTrxId(rec, at)));
        out.setString(cell + 1, renderHex(rec, at + TRX_ID_LEN, ROLL_PTR_LEN));
      }
    }
    out.setString(cell + 2, String(pageNo));
    out.setString(cell + 3, String(recordHeapNo(page, origin, this.compact)));
  }
}
