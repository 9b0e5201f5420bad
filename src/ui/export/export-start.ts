/**
 * An export of the table on screen, started from ExportPanel: where it goes (a file the user picks,
 * else a download streamed through the service worker, else one collected as a Blob; export.ts), and
 * which rows: the view's row mode with the rows of damaged pages left out (the default) or included,
 * each tagged in `_row_state` (damage.ts exportMode); all of them, or the grid's (`shown`: a filter's
 * matches, a sort; export-order.ts). Runs in an ExportRun of its own pool, while
 * the page's background work steps aside (export-hold.ts).
 */
import type { ExportOptions } from '../../../workers/viewer-api.ts';
import { damagedRowsOf, exportMode } from '../recovery/damage.ts';
import type { ExportHold } from './export-hold.ts';
import type { ExportOrder } from './export-order.ts';
import type { ExportRun } from './export-run.svelte.ts';
import { downloadTarget, exportFileName, pickSaveFile, streamTarget } from './export.ts';
import { plural } from '../format.ts';
import type { TableEntry } from '../tables/table-entry.svelte.ts';

/** The rows the grid shows, and how many. */
export interface ShownRows {
  order: ExportOrder;
  rows: number;
}

export async function startExport(hold: ExportHold, run: ExportRun, entry: TableEntry, options: ExportOptions, how: 'pick' | 'download', includeDamaged: boolean, shown: ShownRows | null = null): Promise<void> {
  const view = entry.view;
  if (!view) return;
  // An index's rows: `table.index.csv`.
  const name = view.spec.indexName === undefined ? view.spec.table.name : `${view.spec.table.name}.${view.spec.indexName}`;
  // SQL keeps TIMESTAMP in UTC, the zone its preamble sets, so that it loads back exactly, and so does
  // a CSV for LOAD DATA (its statement sets it); Parquet's TIMESTAMP is an instant (UTC-adjusted). The
  // zone is the other text formats' only: named in the file's name when not UTC and the table has TIMESTAMPs.
  const timeZone = options.format === 'sql' || options.format === 'parquet' || options.csv?.loadData ? 'UTC' : view.spec.timeZone;
  const zoned = timeZone !== 'UTC' && view.spec.table.columns.some((c) => c.type === 'timestamp');
  const fileName = exportFileName(zoned ? `${name} (TIMESTAMP in ${timeZone})` : name, options.format);
  const target = how === 'pick'
    ? await pickSaveFile(fileName, options.format)
    : ((await streamTarget(fileName, options.format, () => run.cancel())) ?? downloadTarget(fileName, options.format));
  if (!target) return;
  const mode = exportMode(entry.mode, includeDamaged);
  const damaged = entry.damage ? damagedRowsOf(entry.damage, entry.mode) : 0;
  const note = damaged === 0 || mode === 'damaged' ? null : `${plural(damaged, 'row')} of damaged pages ${includeDamaged ? 'included, tagged damaged' : 'left out'}`;
  const release = hold.begin();
  try {
    // Another mode than the view's has another row count, which only its own count would tell.
    const total = mode !== entry.mode ? null : shown ? shown.rows : entry.rows;
    await run.start({ spec: { ...view.spec, mode, timeZone }, leaves: view.map.leaves, total, options, target, note, owner: entry.key, ...(shown ? { order: shown.order } : {}) });
  } finally {
    release();
  }
}
