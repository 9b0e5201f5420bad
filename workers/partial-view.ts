/**
 * The open table with its partial rows among its rows (ViewSpec.partial; issue 26): the rows of each
 * run of lost clustered leaves, made from the secondary indexes (partial-methods.ts), take the place
 * of the first leaf of that run, so that they come in key order between the intact leaves' rows (the
 * key range of a run lies between the last key before it and the first after it: partial-rows.ts).
 * Everything that reads rows through the view reader — the grid, the count's corrections, filters,
 * sorts, Go to's search and exports — has them, each run's rows packed once. Every row ends with
 * `_row_state` (live, or partial): never a row of two states unmarked. In live mode only, where a lost
 * or damaged leaf gives no row of its own (in the other modes a damaged leaf's records would come
 * twice, carved and partial). Memory: the partial rows, which are those of the lost leaves.
 */
import { SYSTEM_COLUMNS, systemColumnOf } from '../src/core/readers/system-columns.ts';
import { ROW_STATE_COLUMN, type DecodePagesOptions, type Row, type TableReader } from '../src/core/readers/table-reader.ts';
import { appendColumn, concatBatches, packRows } from '../src/core/values/batch-edit.ts';
import type { RowBatch } from '../src/core/values/row-batch.ts';
import type { ViewReader } from './partition-view.ts';
import type { PartialGrid } from './viewer-api.ts';

export class PartialView implements ViewReader {
  readonly columns: string[];
  /** Per lost leaf page that carries partial rows, its rows as a batch. */
  readonly #byPage = new Map<number, RowBatch>();

  constructor(private readonly inner: ViewReader, grid: PartialGrid) {
    this.columns = [...inner.columns, ROW_STATE_COLUMN];
    const rowsOf = new Map<number, (string | null)[][]>();
    // The system columns, when the rows have them, are NULL in a partial row: no record of its own is behind it.
    // (ours are the last four, in their order; a table's own column of such a name is not ours: system-columns.ts)
    const tail = inner.columns.slice(-SYSTEM_COLUMNS.length);
    const system = tail.length === SYSTEM_COLUMNS.length && tail.every((c, i) => systemColumnOf(c) === i) ? inner.columns.length - SYSTEM_COLUMNS.length : -1;
    const nulls = new Array<null>(system < 0 ? 0 : SYSTEM_COLUMNS.length).fill(null);
    grid.pages.forEach((page, r) => {
      const list = rowsOf.get(page) ?? [];
      const row = grid.rows[r];
      list.push(system < 0 ? row : [...row.slice(0, system), ...nulls, ...row.slice(system)]);
      rowsOf.set(page, list);
    });
    for (const [page, rows] of rowsOf) this.#byPage.set(page, packRows(rows, this.columns.length));
  }

  /** How many partial rows page `page` carries (0 for any other page). */
  rowsOn(page: number): number {
    return this.#byPage.get(page)?.rows ?? 0;
  }

  /** A partitioned table's key order across its partitions (partition-view.ts). */
  get keyOrder(): ViewReader['keyOrder'] {
    return this.inner.keyOrder;
  }

  get info(): TableReader['info'] {
    return this.inner.info;
  }

  get stats(): TableReader['stats'] {
    return this.inner.stats;
  }

  leafPages(): Promise<number[]> {
    return this.inner.leafPages();
  }

  firstLeafPage(): Promise<number | null> {
    return this.inner.firstLeafPage();
  }

  checkDefinition(): Promise<void> {
    return this.inner.checkDefinition();
  }

  readRun(pageNos: ArrayLike<number>): ReturnType<TableReader['readRun']> {
    return this.inner.readRun(pageNos);
  }

  releaseRun(run: Parameters<TableReader['releaseRun']>[0]): void {
    this.inner.releaseRun(run);
  }

  /**
   * The rows of `pageNos` in order, `_row_state` live, a carrying page's partial rows in its place
   * (the page itself, lost or damaged, gives no live row). A caller's builder (`into`) is sized for
   * this view's columns, one more than the table's: the pieces are decoded into builders of their own.
   */
  async decodePages(pageNos: readonly number[], given: DecodePagesOptions = {}): Promise<RowBatch> {
    const { into: _, ...options } = given;
    const pieces: RowBatch[] = [];
    let from = 0;
    for (let i = 0; i <= pageNos.length; i++) {
      const partial = i < pageNos.length ? this.#byPage.get(pageNos[i]) : undefined;
      if (i < pageNos.length && partial === undefined) continue;
      // Pages [from, i) decoded as one; the carrying page i too, for its statistics.
      const to = Math.min(i + 1, pageNos.length);
      if (to > from) pieces.push(appendColumn(await this.inner.decodePages(pageNos.slice(from, to), { ...options, first: options.first === true && from === 0 }), 'live'));
      if (partial !== undefined) pieces.push(partial);
      from = to;
    }
    return pieces.length === 0 ? appendColumn(await this.inner.decodePages([], options), 'live') : concatBatches(pieces);
  }
}

/**
 * SQL of rows among which partial ones may be (state in column `state`): a partial row's INSERT is
 * written commented out, so that a re-import loads the whole rows only and never a row whose absent
 * columns would take the mark's text or a default; the partial rows stay in the file, in key order,
 * for the DBA to complete and load by hand. `inserts` writes INSERTs of some rows.
 */
export function sqlKeepingPartial(rows: readonly Row[], state: number, inserts: (rows: Row[]) => string): string {
  let out = '';
  let from = 0;
  for (let r = 0; r <= rows.length; r++) {
    const cut = r === rows.length || (r > from && (rows[r][state] === 'partial') !== (rows[from][state] === 'partial'));
    if (!cut) continue;
    const run = rows.slice(from, r);
    if (run.length > 0) {
      const text = inserts(run);
      out += run[0][state] === 'partial' ? `-- partial rows (not loaded: columns no secondary index holds were not recovered)\n${text.replace(/^(?=.)/gm, '-- ')}` : text;
    }
    from = r;
  }
  return out;
}
