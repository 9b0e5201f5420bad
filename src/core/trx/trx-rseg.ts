/**
 * A rollback segment header (trx0rseg: TRX_RSEG on its page): the history list (committed undo logs
 * that purge has yet to process, newest first) and the undo slots (the first page of each undo
 * segment in use: an active, prepared or cached transaction's; a committed log whose segment was not
 * cached is reached only through the history list).
 */
import { FIL_NULL, FIL_PAGE_DATA, u32 } from '../pages/fil-header.ts';
import { readFlstBase, type FilAddress } from './flst.ts';

const TRX_RSEG_HISTORY_SIZE = 4;
const TRX_RSEG_HISTORY = 8;
const TRX_RSEG_UNDO_SLOTS = 34;

export interface RsegHeader {
  /** Pages the history list's logs take. */
  historySize: number;
  historyLength: number;
  /** The newest log of the history list: the address of its TRX_UNDO_HISTORY_NODE. */
  historyFirst: FilAddress | null;
  /** First pages of the undo segments in the slots. */
  undoSlots: number[];
}

export function readRsegHeader(page: Uint8Array, pageSize: number): RsegHeader {
  const base = readFlstBase(page, FIL_PAGE_DATA + TRX_RSEG_HISTORY);
  const undoSlots: number[] = [];
  // TRX_RSEG_N_SLOTS: srv_page_size / 16.
  for (let i = 0; i < pageSize / 16; i++) {
    const no = u32(page, FIL_PAGE_DATA + TRX_RSEG_UNDO_SLOTS + 4 * i);
    if (no !== FIL_NULL) undoSlots.push(no);
  }
  return { historySize: u32(page, FIL_PAGE_DATA + TRX_RSEG_HISTORY_SIZE), historyLength: base.length, historyFirst: base.first, undoSlots };
}
