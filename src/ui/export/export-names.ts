/**
 * Where "Export all tables" writes each table, inside the folder or .zip: after the table, as the CLI's
 * `DIR -o OUTDIR` names its files, under the folders the files were dropped in:
 *  - a table of its own file: `db/t.csv` for `db/t.ibd`; a partitioned table after its table
 *    (`db/t.csv`), not its first partition's file;
 *  - a table inside ibdata1: `db/t.csv` beside the ibdata1's folder; a dropped one `db/t.dropped.csv`
 *    (its name from the dictionary, or from the dictionary pages the server freed);
 *  - a dropped tree whose table is unknown: `#dropped/index-<id>.csv`, or after the definition the
 *    user chose for it (`#dropped/<table>.csv`).
 * No DOM: unit-tested in Node.
 */
import type { PairedTable } from '../files/pairing.ts';

/** What a table's name is made of (a TableEntry's). */
export interface ExportNamed {
  /** The .ibd's path; a table of ibdata1's `folder/db/table`. */
  readonly path: string;
  readonly paired: PairedTable;
  /** The definition the user chose, if any. */
  readonly chosen: string | null;
}

/** A path safe as a file name on every system (each folder part on its own). */
function safePart(part: string): string {
  let out = '';
  for (const ch of part) out += ch < ' ' || '\\/:*?"<>|'.includes(ch) ? '_' : ch;
  out = out.trim();
  return out === '' || out === '.' || out === '..' ? '_' : out;
}

/** `path` (folders `/`-separated, `.ibd` dropped) with extension `ext`, each part safe. */
export function filePath(path: string, ext: string): string {
  const parts = path.split('/').filter(Boolean).map(safePart);
  const last = parts.pop() ?? 'table';
  parts.push(`${last.replace(/\.ibd$/i, '')}.${ext}`);
  return parts.join('/');
}

/** The folder a path is in, with its slash ('' for none). */
function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** The table's name in the export, without extension. */
export function exportName(t: ExportNamed): string {
  const { paired } = t;
  if (paired.partitions) return paired.key.replace(/\.ibd$/i, '');
  const system = paired.system;
  if (!system || system.state === 'live') return t.path;
  if (system.source !== null || system.definition !== null) return `${t.path}.dropped`;
  const own = t.chosen ? t.chosen.replace(/\//g, '.') : `index-${system.index?.indexId ?? '?'}`;
  return `${folderOf(paired.ibd.path)}#dropped/${own}`;
}

/** Paths handed out in one export, each once: a name taken again gets `-2`, `-3` … */
export class ExportPaths {
  readonly #used = new Set<string>();

  /** Where table `t` goes, with extension `ext`. */
  of(t: ExportNamed, ext: string): string {
    const base = exportName(t);
    let path = filePath(base, ext);
    for (let n = 2; this.#used.has(path); n++) path = filePath(`${base}-${n}`, ext);
    this.#used.add(path);
    return path;
  }
}
