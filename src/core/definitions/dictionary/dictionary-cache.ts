/**
 * The InnoDB data dictionaries read lately, kept for the next ask of the same system tablespace.
 * A datadir whose .frm files are lost defines each of its .ibd files from the one ibdata1 beside
 * them: reading its SYS_ tables anew for every .ibd costs ~0.4 s and 8 MB of reads per file at 600
 * tables, so listing such a datadir grew with the square of its tables. A dictionary is kept only
 * for a source whose version is known (ByteSource.version: a File's lastModified, a file's inode and
 * mtime), and reused only while the source's page 0 and page 7 (the dictionary header) hold the same
 * bytes as when it was read: two copies of a server's ibdata1 taken at different times differ
 * there, whatever their names. The dictionary is shared between callers: they never change it.
 */
import type { ByteSource } from '../../tablespace/source.ts';
import type { Dictionary } from './dict-tables.ts';

/** The dictionary header's page number (DICT_HDR_PAGE_NO). */
const DICT_HDR_PAGE = 7;
/** Dictionaries kept: one datadir's ibdata1 at a time is the use; two spare a second datadir dropped beside it. */
const KEPT = 2;

interface Kept {
  /** Page 0 then page 7, as read when the dictionary was. */
  pages: Uint8Array;
  dictionary: Promise<Dictionary | null>;
}

const kept = new Map<string, Kept>();

/** Page 0 and the dictionary header page of `source`, one after the other. */
async function headerPages(source: ByteSource, pageSize: number): Promise<Uint8Array> {
  const [first, header] = await Promise.all([source.read(0, pageSize), source.read(DICT_HDR_PAGE * pageSize, pageSize)]);
  const out = new Uint8Array(first.length + header.length);
  out.set(first);
  out.set(header, first.length);
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The dictionary `read` gives for `source`, read once per source name, size, version and header pages. */
export async function keptDictionary(source: ByteSource, pageSize: number, read: () => Promise<Dictionary | null>): Promise<Dictionary | null> {
  if (source.version === undefined) return read();
  const key = `${source.name}\0${source.size}\0${source.version}`;
  const pages = await headerPages(source, pageSize);
  const found = kept.get(key);
  if (found && sameBytes(found.pages, pages)) {
    // Re-inserted so the Map's order is least-recently-used first.
    kept.delete(key);
    kept.set(key, found);
    return found.dictionary;
  }
  const entry: Kept = { pages, dictionary: read() };
  kept.delete(key);
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(key, entry);
  // A read that failed is not kept: the next ask tries again.
  entry.dictionary.catch(() => kept.get(key) === entry && kept.delete(key));
  return entry.dictionary;
}
