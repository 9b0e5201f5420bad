/**
 * The line an export shows while it runs (ExportPanel.svelte): what is written, how many rows of how
 * many, the rate and the time left once there is something to measure (the first run of pages takes
 * a moment to come back: until then it says so, rather than "0 rows · 0 rows/s").
 */
import { formatBytes, formatCount, formatDuration } from '../format.ts';
import type { ExportProgress } from './export-run.svelte.ts';

/** A rate is shown after this long: before, one run's arrival swings it wildly. */
const RATE_AFTER_MS = 1000;

export function progressText(p: ExportProgress): string {
  const verb = p.state === 'finishing' ? 'Finishing' : 'Writing';
  if (p.rows === 0 && p.state === 'running') return `${verb} ${p.fileName}: decoding the first pages…`;
  const parts = [`${formatCount(p.rows)}${p.total !== null ? ` of ${formatCount(p.total)}` : ''} rows`];
  if (p.elapsedMs >= RATE_AFTER_MS) parts.push(`${formatCount(Math.round(p.rate))} rows/s`);
  parts.push(formatBytes(p.bytes));
  if (p.etaMs !== null && p.elapsedMs >= RATE_AFTER_MS) parts.push(`about ${formatDuration(p.etaMs)} left`);
  return `${verb} ${p.fileName}: ${parts.join(' · ')}`;
}
