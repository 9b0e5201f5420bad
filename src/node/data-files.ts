/**
 * The data files of a system tablespace on disk (core/tablespace/data-files.ts): given ibdata1 alone,
 * the files that continue it are found beside it by the names servers give them (ibdata2, ibdata3 …,
 * the default innodb_data_file_path's scheme), as many as the space header's FSP_SIZE needs. Other
 * names are given after ibdata1 (the CLI: `ibd-reader ibdata1 more1 more2`).
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { dataFilesSource } from '../core/tablespace/data-files.ts';
import { Tablespace } from '../core/tablespace/tablespace.ts';
import { fileSource, type FileSource } from './file-source.ts';

/** The bytes the space header of a system tablespace says it has (FSP_SIZE pages), or null for any other file. */
async function systemSpaceBytes(source: FileSource): Promise<number | null> {
  const ts = await Tablespace.open(source).catch(() => null);
  return ts !== null && ts.fsp.spaceId === 0 && ts.page0Damaged === null ? ts.fsp.size * ts.physicalSize : null;
}

/** ibdataN beside `path` (named ibdataM), N = M+1, M+2 … while they exist. */
function numberedAfter(path: string): string[] {
  const m = /^(ibdata)(\d+)$/i.exec(basename(path));
  if (m === null) return [];
  const names = new Map<number, string>();
  for (const name of readdirSync(dirname(path))) {
    const n = /^ibdata(\d+)$/i.exec(name);
    if (n !== null) names.set(Number(n[1]), name);
  }
  const out: string[] = [];
  for (let n = Number(m[2]) + 1; names.has(n); n++) out.push(join(dirname(path), names.get(n) as string));
  return out;
}

/**
 * The data files of the tablespace `path` begins: `more` when given and `path` is a system
 * tablespace, else the numbered files beside it its header asks for; [path] for any other file.
 */
export async function dataFilePaths(path: string, more: readonly string[] = []): Promise<string[]> {
  const first = await fileSource(path);
  try {
    const bytes = await systemSpaceBytes(first);
    if (bytes === null) return [path];
    if (more.length > 0) return [path, ...more];
    const out = [path];
    let size = first.size;
    for (const next of numberedAfter(path)) {
      if (size >= bytes) break;
      out.push(next);
      size += statSync(next).size;
    }
    return out;
  } finally {
    await first.close();
  }
}

/** The data files as one source, each through its own file handle; closing it closes them all. */
export async function dataFilesOf(paths: readonly string[]): Promise<FileSource> {
  const files = await Promise.all(paths.map((p) => fileSource(p)));
  if (files.length === 1) return files[0];
  return { ...dataFilesSource(files), close: async () => void (await Promise.all(files.map((f) => f.close()))) };
}
