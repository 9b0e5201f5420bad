/**
 * Files from a drop (files and whole folders, walked through the DataTransfer entries) or from the
 * file / folder pickers, each with its path inside the dropped or picked folder.
 */
import type { InputFile } from './pairing.ts';

/** Files of a folder this deep or deeper are skipped (a datadir is 2 levels: db/table.ibd). */
const MAX_DEPTH = 8;
/** Stop walking after this many files: someone dropped their home folder. */
const MAX_FILES = 20_000;

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => {
    const all: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, prefix: string, depth: number, out: InputFile[]): Promise<void> {
  if (out.length >= MAX_FILES) return;
  if (entry.isFile) {
    const file = await fileOf(entry as FileSystemFileEntry);
    out.push({ file, path: prefix + file.name });
  } else if (entry.isDirectory && depth < MAX_DEPTH) {
    const children = await readAll((entry as FileSystemDirectoryEntry).createReader());
    for (const child of children) await walk(child, `${prefix}${entry.name}/`, depth + 1, out);
  }
}

/**
 * Everything dropped. Must be called during the drop event (the entries are only valid then); the
 * walk itself may finish later.
 */
export function collectDropped(dt: DataTransfer): Promise<InputFile[]> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(dt.items ?? [])) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
    else {
      const f = item.getAsFile();
      if (f) loose.push(f);
    }
  }
  if (entries.length === 0 && loose.length === 0) {
    return Promise.resolve(Array.from(dt.files ?? []).map((file) => ({ file, path: file.name })));
  }
  return (async () => {
    const out: InputFile[] = loose.map((file) => ({ file, path: file.name }));
    for (const entry of entries) await walk(entry, '', 0, out);
    return out;
  })();
}

/** Files from an <input type=file> (with or without webkitdirectory). */
export function collectPicked(files: FileList | null): InputFile[] {
  return Array.from(files ?? []).map((file) => ({ file, path: file.webkitRelativePath || file.name }));
}
