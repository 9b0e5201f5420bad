/**
 * The transaction system header (trx0sys: page 5 of the system tablespace, TRX_SYS): the largest
 * transaction id handed out, and the rollback segment slots, each the (space, page) of a rollback
 * segment header. MariaDB keeps every rollback segment here (space 0, or an undo tablespace
 * undo001…); MySQL 8 keeps only the system one here and the others in its undo tablespaces' RSEG_ARRAY
 * pages, which this reader does not read (said by the caller).
 */
import { FIL_NULL, FIL_PAGE_DATA, FIL_PAGE_TYPE, u16, u32 } from '../pages/fil-header.ts';

/** FSP_TRX_SYS_PAGE_NO. */
export const TRX_SYS_PAGE_NO = 5;
/** FIL_PAGE_TYPE_TRX_SYS. */
const TRX_SYS_PAGE_TYPE = 7;
/** TRX_SYS_TRX_ID_STORE, then the segment header (10 bytes), then the slots (TRX_SYS_RSEGS). */
const TRX_SYS_RSEGS = FIL_PAGE_DATA + 8 + 10;
const TRX_SYS_N_RSEGS = 128;

export interface RsegSlot {
  /** The slot's number: the rollback segment id of roll pointers. */
  id: number;
  spaceId: number;
  pageNo: number;
}

export interface TrxSys {
  /** TRX_SYS_TRX_ID_STORE: at least every transaction id given out before the last write of the page. */
  maxTrxId: number;
  rsegs: RsegSlot[];
}

/** TRX_SYS of page 5 of a system tablespace, or why the page is not one. */
export function readTrxSys(page: Uint8Array): TrxSys | string {
  const type = u16(page, FIL_PAGE_TYPE);
  if (type !== TRX_SYS_PAGE_TYPE) return `page ${TRX_SYS_PAGE_NO} is of type ${type}, not the transaction system header (type ${TRX_SYS_PAGE_TYPE})`;
  const rsegs: RsegSlot[] = [];
  for (let id = 0; id < TRX_SYS_N_RSEGS; id++) {
    const at = TRX_SYS_RSEGS + 8 * id;
    const pageNo = u32(page, at + 4);
    if (pageNo !== FIL_NULL && pageNo !== 0) rsegs.push({ id, spaceId: u32(page, at), pageNo });
  }
  return { maxTrxId: u32(page, FIL_PAGE_DATA) * 2 ** 32 + u32(page, FIL_PAGE_DATA + 4), rsegs };
}
