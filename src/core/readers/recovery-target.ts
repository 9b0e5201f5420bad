/**
 * Which index of a file to decode and how to reach it, for the front ends (CLI, worker): the
 * clustered index of a named table in a file with several tables' SDI (a general tablespace,
 * mysql.ibd), an index chosen by id, or an index of a raw image without page 0 (orphan-scan.ts).
 * Also the texts of the index list and of the recovery report.
 */
import { IbdError } from '../errors.ts';
import { rawTarget, scanOrphans, type IndexGroup, type OrphanScan } from '../tablespace/orphan-scan.ts';
import { readSdi, type SdiContents } from '../definitions/sdi/index.ts';
import type { ByteSource } from '../tablespace/source.ts';
import type { DecodeStats, OpenOptions } from './table-reader.ts';
import { Tablespace } from '../tablespace/tablespace.ts';

export interface TargetRequest {
  /** --index-id: the index to decode; null for the table's clustered index. */
  indexId: bigint | null;
  /** --page-size: forces reading the file as a raw image with this page size. */
  pageSize: number | null;
}

/**
 * The OpenOptions fields (`index`, `raw`) that point openTable at the wanted index. Nothing for an
 * ordinary one-table file; `warn` hears about guesses made on the way.
 */
export async function targetOptions(source: ByteSource, tableName: string, request: TargetRequest, warn: (message: string) => void): Promise<Pick<OpenOptions, 'index' | 'raw'>> {
  const ts = request.pageSize === null ? await Tablespace.open(source).catch(() => null) : null;
  if (ts !== null) {
    if (request.indexId !== null) return { index: { indexId: request.indexId } };
    return sdiTableIndex(ts, tableName);
  }
  // Without --index-id or --page-size a file that does not open stays an error (openTable says why):
  // reading any file as a raw image would turn every wrong file into a long scan.
  if (request.indexId === null && request.pageSize === null) return {};
  const scan = await scanOrphans(source, { pageSize: request.pageSize ?? undefined });
  const group = pickGroup(source, scan, request.indexId);
  if (request.indexId === null) warn(`${source.name} has no valid page 0; decoding index ${group.indexId} of space ${group.spaceId}, the lowest index id (the clustered index is created first); see --list-indexes`);
  return { raw: rawTarget(scan, group), index: { indexId: group.indexId, rootPage: group.root } };
}

async function sdiTableIndex(ts: Tablespace, name: string): Promise<Pick<OpenOptions, 'index'>> {
  const sdi = await readSdi(ts).catch(() => null);
  return sdi === null ? {} : sdiIndexOf(sdi, name);
}

/**
 * In a file with several tables' SDI (general tablespace, mysql.ibd), the clustered index of the table
 * named `name`; nothing for a one-table file, whose clustered index is found through page 0 as usual.
 */
export function sdiIndexOf(sdi: SdiContents, name: string): Pick<OpenOptions, 'index'> {
  if (sdi.tables.length < 2) return {};
  const own = sdi.tables.find((t) => t.table.name.toLowerCase() === name.toLowerCase());
  return own?.clusteredIndex ? { index: own.clusteredIndex } : {};
}

/** The group of index `indexId` (the largest if several spaces have one), or the only space's lowest index. */
function pickGroup(source: ByteSource, scan: OrphanScan, indexId: bigint | null): IndexGroup {
  if (indexId !== null) {
    const found = scan.groups.filter((g) => g.indexId === indexId).sort((a, b) => b.pages - a.pages)[0];
    if (!found) throw new IbdError(source.name, `no page of index ${indexId} was found (indexes found: ${scan.groups.map((g) => g.indexId).join(', ') || 'none'})`);
    return found;
  }
  const spaces = new Set(scan.groups.map((g) => g.spaceId));
  if (spaces.size !== 1) {
    throw new IbdError(source.name, `the file has no valid page 0 and holds pages of ${spaces.size} tablespaces; choose an index with --index-id (see --list-indexes)`);
  }
  return scan.groups[0];
}

/**
 * The index list of `--list-indexes`: one line per index, after a line on the page layout found;
 * with `names` (a system tablespace's data dictionary: dictionary/dict-tables.ts indexNames), the
 * table and index each id belongs to.
 */
export async function listIndexes(source: ByteSource, pageSize: number | null, names: ReadonlyMap<bigint, string> | null = null): Promise<string> {
  // The layout the file was opened with, so that the list agrees with the rows, the SDI and --page-map
  // (and ROW_FORMAT=COMPRESSED pages, which no guess from samples finds); guessed only for a raw image.
  const known = pageSize === null ? (await Tablespace.open(source).catch(() => null))?.layout ?? undefined : undefined;
  const scan = await scanOrphans(source, { pageSize: pageSize ?? undefined, layout: known });
  const { layout } = scan;
  const pages = `${layout.pageSize / 1024} KB ${layout.compressed === true ? 'compressed pages (ROW_FORMAT=COMPRESSED)' : 'pages'}`;
  const lines = [
    `${source.name}: ${pages} from byte ${layout.gridOffset}, ${layout.fullCrc32 ? 'full_crc32' : 'crc32/innodb'} checksums${known ? ', as the file opens' : ''}; ${scan.pagesScanned} pages read, ${scan.validPages} valid, ${scan.damagedPages} damaged index pages, ${scan.emptyPages} empty`,
  ];
  const header = ['space', 'index', 'pages', 'leaf', 'non-leaf', 'levels', 'records', 'format', 'root', 'damaged', 'copies', ...(names ? ['table.index'] : [])];
  const rows = scan.groups.map((g) => [
    String(g.spaceId), String(g.indexId), String(g.pages), String(g.leafPages), String(g.nonLeafPages),
    g.levels.join(','), String(g.records), g.compact ? 'COMPACT' : 'REDUNDANT', g.root === null ? '-' : String(g.root), String(g.damagedPages), String(g.copiesElsewhere),
    ...(names ? [g.spaceId === 0 ? names.get(g.indexId) ?? '-' : '-'] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [header, ...rows]) lines.push(r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
  if (rows.length === 0) lines.push('(no index page found)');
  return `${lines.join('\n')}\n`;
}

/** The recovery report every decode ends with; it says whether every leaf page could be read. */
export function recoveryReport(file: string, s: DecodeStats): string {
  // Rows of damaged pages (`--rows all`, `--rows damaged`) are not counted live: nothing vouches for them.
  const live = s.rowsDecoded - s.deletedRecovered - s.damagedRows;
  const leaves = s.pagesRead + s.pagesSkipped;
  const whole = s.pagesSkipped === 0 ? 'every leaf page read' : `INCOMPLETE: ${s.pagesSkipped} of ${leaves} leaf pages could not be read`;
  const damaged = s.damagedRows > 0 ? `, from damaged pages ${s.damagedRows}` : '';
  return `${file}: recovery report: pages read ${s.pagesRead}, damaged ${s.badChecksums}, skipped ${s.pagesSkipped}; `
    + `rows live ${live}${damaged}, deleted ${s.deletedRecovered} (${s.deletedSkipped} delete-marked left out); `
    + `records unreadable ${s.recordsFailed}, purged records unreadable ${s.purgedUnreadable}; ${whole}\n`;
}
