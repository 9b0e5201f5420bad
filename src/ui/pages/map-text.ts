/** The page map's words: what a tooltip says of one page (its PageMapEntry) or of a run of pages (its PageBucket). */
import type { PageBucket, PageMapEntry } from '../../../workers/decoder-api.ts';
import { formatCount } from '../format.ts';
import { statesText } from './page-colours.ts';

export function entryText(e: PageMapEntry): string {
  const parts = [`Page ${formatCount(e.page)}`, e.typeName ?? '—', e.state];
  if (e.indexId !== null) parts.push(`index ${e.indexId}`, `level ${e.level}`);
  if (e.records !== null) parts.push(`${formatCount(e.records)} records`);
  if (e.fill !== null) parts.push(`${Math.round(e.fill * 100)}% full`);
  return parts.join(' · ');
}

export function bucketText(b: PageBucket): string {
  const types = Object.entries(b.types).map(([name, n]) => `${formatCount(n)} ${name}`).join(', ');
  const parts = [`Pages ${formatCount(b.first)}–${formatCount(b.first + b.pages - 1)}`, statesText(b)];
  if (types) parts.push(types);
  if (b.btreePages > 0) parts.push(`${formatCount(b.btreePages)} B-tree pages`, `${formatCount(b.records)} records`);
  if (b.fill !== null) parts.push(`${Math.round(b.fill * 100)}% full on average`);
  return parts.join(' · ');
}
