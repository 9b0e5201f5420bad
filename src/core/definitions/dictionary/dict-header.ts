/**
 * The data dictionary header of the system tablespace (dict0boot.h): page 7 of ibdata1, a page of
 * type SYS whose body holds the latest row, table, index and space ids handed out, and the root
 * pages of the four basic system tables' clustered indexes (SYS_TABLES, SYS_COLUMNS, SYS_INDEXES,
 * SYS_FIELDS) and of SYS_TABLES' secondary index on ID (SYS_TABLE_IDS). Their index ids are fixed.
 * Every server from MySQL 3.23 to 8.0 and every MariaDB writes it; MySQL 8.0 leaves those tables
 * empty (its dictionary is in mysql.ibd).
 */
import { FIL_NULL, FIL_PAGE_DATA, FIL_PAGE_TYPE, PageType, u16, u32, u64 } from '../../pages/fil-header.ts';
import type { Tablespace } from '../../tablespace/tablespace.ts';

/** FSP_DICT_HDR_PAGE_NO. */
export const DICT_HDR_PAGE_NO = 7;

/** The fixed index ids of the basic system tables (DICT_TABLES_ID …) and of SYS_TABLE_IDS. */
export const SYS_INDEX_IDS = { tables: 1n, columns: 2n, indexes: 3n, fields: 4n, tableIds: 5n } as const;

/** Ids below this one belong to the basic system tables (DICT_HDR_FIRST_ID). */
export const DICT_HDR_FIRST_ID = 10n;

/** Index ids of the change buffer trees start here (DICT_IBUF_ID_MIN), plus the space id. */
export const DICT_IBUF_ID_MIN = 0xffffffff00000000n;

/** Offsets in the header, from FIL_PAGE_DATA (DICT_HDR_ROW_ID …). */
const HDR = { rowId: 0, tableId: 8, indexId: 16, maxSpaceId: 24, tables: 32, tableIds: 36, columns: 40, indexes: 44, fields: 48 } as const;

export interface DictHeader {
  /** The latest row id, table id and index id handed out (row ids are written every 256). */
  maxRowId: bigint;
  maxTableId: bigint;
  maxIndexId: bigint;
  /** The latest space id handed out (a file-per-table tablespace, a general or undo tablespace). */
  maxSpaceId: number;
  /**
   * Root pages of the basic system tables' clustered indexes, and of SYS_TABLE_IDS; null when one
   * lies outside the file or is FIL_NULL (the tables are gone: nothing is read from them).
   */
  roots: { tables: number; columns: number; indexes: number; fields: number; tableIds: number } | null;
}

/** The dictionary header of a system tablespace, or null when the file has none: its space id is not 0, or page 7 is not a SYS page. */
export async function readDictHeader(ts: Tablespace): Promise<DictHeader | null> {
  if (ts.fsp.spaceId !== 0 || ts.pageCount <= DICT_HDR_PAGE_NO) return null;
  const page = await ts.page(DICT_HDR_PAGE_NO).catch(() => null);
  if (page === null || u16(page.bytes, FIL_PAGE_TYPE) !== PageType.SYS) return null;
  const b = page.bytes;
  const at = (field: number) => FIL_PAGE_DATA + field;
  const roots = {
    tables: u32(b, at(HDR.tables)),
    columns: u32(b, at(HDR.columns)),
    indexes: u32(b, at(HDR.indexes)),
    fields: u32(b, at(HDR.fields)),
    tableIds: u32(b, at(HDR.tableIds)),
  };
  const usable = Object.values(roots).every((r) => r !== FIL_NULL && r < ts.pageCount && r > DICT_HDR_PAGE_NO);
  return {
    maxRowId: u64(b, at(HDR.rowId)),
    maxTableId: u64(b, at(HDR.tableId)),
    maxIndexId: u64(b, at(HDR.indexId)),
    maxSpaceId: u32(b, at(HDR.maxSpaceId)),
    roots: usable ? roots : null,
  };
}
