/**
 * Where a row comes from, and which rows a read returns. Every row has one state:
 * - `live`: from a leaf page that passed its checksum and every structural check;
 * - `delete-marked`: a deleted row still in the B-tree, not yet purged;
 * - `purged`: a deleted row purge already took off the record list, read back from the page's free list;
 * - `damaged`: read from a page that failed its checksum or a structural check; its values passed every
 *   check of their types, but nothing vouches for them, nor for its delete mark (a record of a damaged
 *   page is of this state whatever its delete mark says);
 * - `partial`: a row of a lost or damaged clustered leaf page, made from the secondary indexes' entries
 *   of its key (partial-rows.ts): the columns they hold, the others marked absent;
 * - `history-lost`: a row changed by a transaction whose changes are taken back (rolled back at a crash,
 *   or --before-trx), whose earlier version is no longer in the undo logs: shown as it is on disk.
 * A read (RowMode) returns the states it names; one that returns more than one adds the last column
 * `_row_state`, so that rows a user will import again never mix states unmarked.
 */

export type RowState = 'live' | 'delete-marked' | 'purged' | 'damaged' | 'partial' | 'history-lost';

/**
 * `live` (the table as the server shows it), `deleted` (delete-marked and purged), `both` (live and
 * deleted), `damaged` (the rows of damaged pages only), `partial` (the partial rows only) or `all`
 * (every state a record of the file has: all but `partial`, whose rows are made from other indexes'
 * records and asked for by name). A TableReader returns no partial row itself: its caller adds them
 * (partial-rows.ts).
 */
export type RowMode = 'live' | 'deleted' | 'both' | 'damaged' | 'partial' | 'all';

/** The modes a read returns rows of (a TableReader, the library, the page). */
export const ROW_MODES: readonly RowMode[] = ['live', 'deleted', 'both', 'damaged', 'all'];
/** With `partial`, whose rows the CLI adds (partial-rows.ts): what `--rows` takes. */
export const CLI_ROW_MODES: readonly RowMode[] = ['live', 'deleted', 'both', 'damaged', 'partial', 'all'];

const MODE_STATES: Record<RowMode, readonly RowState[]> = {
  live: ['live'],
  deleted: ['delete-marked', 'purged'],
  both: ['live', 'delete-marked', 'purged', 'history-lost'],
  damaged: ['damaged'],
  partial: ['partial'],
  all: ['live', 'delete-marked', 'purged', 'damaged', 'history-lost'],
};

/** The extra last column of the modes that return more than one state. */
export const ROW_STATE_COLUMN = '_row_state';

export function modeIncludes(mode: RowMode, state: RowState): boolean {
  return MODE_STATES[mode].includes(state);
}

/** Whether rows of `mode` carry the `_row_state` column. */
export function hasStateColumn(mode: RowMode): boolean {
  return MODE_STATES[mode].length > 1;
}

export function isRowMode(s: string): s is RowMode {
  return (CLI_ROW_MODES as readonly string[]).includes(s);
}
