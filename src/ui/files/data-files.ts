/**
 * The data files of a system tablespace dropped together (innodb_data_file_path=ibdata1:12M;ibdata2:…):
 * ibdata1 with the ibdata2, ibdata3 … of its folder after it, numbered on without a gap, as one File.
 * Its page numbers run on across the files (core/tablespace/data-files.ts), and a File made of
 * Files is the browser's own concatenation of them: it holds references to each File, no byte is
 * copied, and a worker's Blob.slice() of it reads the ranges of each file it covers. Every worker
 * method (the dictionary's listing, the views, the counts, the exports, the page map) so reads the
 * one tablespace the server sees, from a handle that crosses to a worker like any File.
 *
 * No DOM besides the `File` type: unit-tested in Node.
 */
import { folderOf, type InputFile } from './pairing.ts';

/** The number N of a file called ibdataN, else null. */
function dataFileNumber(f: InputFile): number | null {
  const m = /^ibdata(\d+)$/i.exec(f.file.name);
  return m === null ? null : Number(m[1]);
}

/** A system tablespace as dropped: ibdata1 and the data files that follow it in its folder. */
export interface SystemSpace {
  first: InputFile;
  /** ibdata2 … in order (empty: ibdata1 alone). */
  more: InputFile[];
}

/** The system tablespaces among `files`: each ibdata1 with ibdata2 … of its folder (a gap ends them). */
export function systemSpaces(files: readonly InputFile[]): SystemSpace[] {
  const byFolder = new Map<string, Map<number, InputFile>>();
  for (const f of files) {
    const n = dataFileNumber(f);
    if (n === null || f.key) continue;
    const folder = byFolder.get(folderOf(f.path)) ?? new Map<number, InputFile>();
    folder.set(n, f);
    byFolder.set(folderOf(f.path), folder);
  }
  const out: SystemSpace[] = [];
  for (const numbered of byFolder.values()) {
    const first = numbered.get(1);
    if (first === undefined) continue;
    const more: InputFile[] = [];
    for (let n = 2; numbered.has(n); n++) more.push(numbered.get(n) as InputFile);
    out.push({ first, more });
  }
  return out;
}

/** What identifies a dropped file: a file given again with the same path, size and time is the same. */
function signature(files: readonly InputFile[]): string {
  return files.map((f) => `${f.path}\u0000${f.file.size}\u0000${f.file.lastModified}`).join('\u0001');
}

/**
 * `files` with each system tablespace's further data files joined to its ibdata1 (one InputFile, at
 * ibdata1's path and name) and left out themselves. `joined` keeps the Files made, by the files they
 * join, so that the same files give the same File (a table is kept open while its file stays the same).
 */
export function withDataFilesJoined(files: readonly InputFile[], joined: Map<string, File>): InputFile[] {
  const spaces = systemSpaces(files).filter((s) => s.more.length > 0);
  if (spaces.length === 0) return files.slice();
  const replaced = new Map<InputFile, InputFile | null>();
  for (const { first, more } of spaces) {
    const key = signature([first, ...more]);
    let file = joined.get(key);
    if (file === undefined) {
      file = new File([first.file, ...more.map((f) => f.file)], first.file.name, { lastModified: first.file.lastModified });
      joined.set(key, file);
    }
    replaced.set(first, { ...first, file, dataFiles: more.map((f) => f.path) });
    for (const f of more) replaced.set(f, null);
  }
  return files.flatMap((f) => {
    const r = replaced.get(f);
    return r === undefined ? [f] : r === null ? [] : [r];
  });
}
