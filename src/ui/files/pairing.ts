/**
 * Which dropped files belong together. No DOM besides the `File` type: unit-tested in Node.
 *
 * Every `.ibd` is a table, and so is a file of another name whose start holds InnoDB index pages (a
 * raw disk image, a copy without page 0: `image`, detectImages), which the decoder reads by a scan. Its `.frm` (MySQL 5.x / MariaDB table definition) and `.cfg` (written by
 * FLUSH TABLES … FOR EXPORT) are the files with the same name in the same folder. Which definition
 * decodes it — the file's own data dictionary (MySQL 8), that .frm, or a CREATE TABLE of the `.sql`
 * files — is decided by the decoder worker (`resolveSchema`, src/core/definitions/schema-source.ts), given the
 * `.frm` and every `.sql`.
 *
 * File names are in MySQL's "filename" encoding: `@` + 4 hex digits for other ASCII characters and
 * for characters outside the 2-character table (`my@002dtable` is `my-table`), `@` + 2 characters
 * for accented and other letters (not decoded here). Partitions are `t#P#p0.ibd` (`t#p#p0.ibd` in
 * MySQL 8.0), sub-partitions `t#P#p0#SP#sp0.ibd`.
 *
 * A system tablespace (`ibdata1`) holds tables of its own: once a worker has read its data
 * dictionary (`SystemTable`, workers/system-methods.ts), each is a table here too, named `db/table`,
 * with its `.frm` from the datadir's database folder beside ibdata1 (`db/table.frm`) where there is one.
 */
import type { SystemTable } from '../../../workers/decoder-api.ts';
import { dblwrFilePageSize } from '../../core/log/doublewrite.ts';

export type FileKind = 'ibd' | 'frm' | 'sql' | 'cfg' | 'par' | 'system' | 'other';

/** A file and where it was in a dropped or picked folder ('' for loose files). */
export interface InputFile {
  file: File;
  /** Relative path, e.g. `db1/t.ibd` (or just the name). */
  path: string;
  /** Set when its content is an encryption key file (see keyFileKind). */
  key?: KeyFileKind;
  /** A file named otherwise whose start holds InnoDB index pages (detectImages): read as an .ibd. */
  image?: boolean;
  /** An ibdata1 whose further data files were dropped with it: their paths (`file` is them all, joined: data-files.ts). */
  dataFiles?: string[];
}

/**
 * Encryption key files, told by their content (their names are the user's choice):
 * MariaDB file_key_management `id;hexkey` lines, the same encrypted with a password
 * (openssl's `Salted__` header), or a MySQL keyring_file.
 */
export type KeyFileKind = 'mariadb' | 'mariadb-encrypted' | 'mysql';

/** Bytes of a file's start that keyFileKind looks at. */
const KEY_SNIFF_BYTES = 256;

/** What kind of key file starts with `head`, or null when it is none. */
export function keyFileKind(head: Uint8Array): KeyFileKind | null {
  const text = new TextDecoder('latin1').decode(head.subarray(0, KEY_SNIFF_BYTES));
  if (text.startsWith('Keyring file version:')) return 'mysql';
  if (text.startsWith('Salted__')) return 'mariadb-encrypted';
  // Comment lines, then a first key: `1;` and (at least) 32 hex digits.
  return /^(?:\s*#[^\n]*\n)*\s*\d+\s*;\s*[0-9a-fA-F]{32}/.test(text) ? 'mariadb' : null;
}

/** Marks the key files among `files` (small files whose extension says nothing else). */
export async function detectKeyFiles(files: readonly InputFile[]): Promise<InputFile[]> {
  return Promise.all(files.map(async (f) => {
    if (kindOf(f.file.name) !== 'other' || f.file.size > 1 << 20 || f.file.size < 16) return f;
    const kind = keyFileKind(new Uint8Array(await f.file.slice(0, KEY_SNIFF_BYTES).arrayBuffer()));
    return kind ? { ...f, key: kind } : f;
  }));
}

/** Bytes of a file's start that detectImages looks at for index pages. */
export const IMAGE_SNIFF_BYTES = 1 << 20;
/** Pages lie on 4 KiB boundaries whatever their size (4K…64K), in a file and in a disk image's blocks. */
const PAGE_ALIGN = 4096;
const FIL_PAGE_TYPE = 24;
const INDEX_PAGE_TYPES = [17855, 17854];
/** Where an index page's infimum record keeps its name: COMPACT, REDUNDANT. */
const INFIMUM_AT = [99, 101];
const INFIMUM = [0x69, 0x6e, 0x66, 0x69, 0x6d, 0x75, 0x6d, 0x00];

function infimumAt(bytes: Uint8Array, at: number): boolean {
  return INFIMUM.every((b, i) => bytes[at + i] === b);
}

/** Whether `bytes` hold an InnoDB index page at a 4 KiB boundary: its page type, and its infimum record where it goes. */
export function holdsIndexPage(bytes: Uint8Array): boolean {
  for (let at = 0; at + PAGE_ALIGN <= bytes.length; at += PAGE_ALIGN) {
    const type = (bytes[at + FIL_PAGE_TYPE] << 8) | bytes[at + FIL_PAGE_TYPE + 1];
    if (INDEX_PAGE_TYPES.includes(type) && INFIMUM_AT.some((o) => infimumAt(bytes, at + o))) return true;
  }
  return false;
}

/**
 * Marks the files among `files` that no name or key tells, whose first MiB holds InnoDB index pages.
 * MySQL's doublewrite files (`#ib_16384_0.dblwr`) hold page copies of many tables: read with their
 * datadir's log (redo-files.ts), never as an image.
 */
export async function detectImages(files: readonly InputFile[]): Promise<InputFile[]> {
  return Promise.all(files.map(async (f) => {
    if (f.key || kindOf(f.file.name) !== 'other' || f.file.size < PAGE_ALIGN || dblwrFilePageSize(f.file.name) !== null) return f;
    const head = new Uint8Array(await f.file.slice(0, IMAGE_SNIFF_BYTES).arrayBuffer());
    return holdsIndexPage(head) ? { ...f, image: true } : f;
  }));
}

export function kindOf(name: string): FileKind {
  if (/^ibdata\d+$/i.test(baseName(name))) return 'system';
  const m = /\.([a-z0-9]+)$/i.exec(name);
  const ext = m ? m[1].toLowerCase() : '';
  return ext === 'ibd' || ext === 'frm' || ext === 'sql' || ext === 'cfg' || ext === 'par' ? ext : 'other';
}

export function folderOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** File name without its extension. */
export function stemOf(name: string): string {
  const base = baseName(name);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

export interface TableFileName {
  /** The table name, decoded where possible (2-character escapes stay as written). */
  table: string;
  /** Partition (and sub-partition) name, e.g. `p0` or `p0 / sp1`, or null. */
  partition: string | null;
}

function decodePart(part: string): string {
  return part.replace(/@([0-9a-fA-F]{4})/g, (_all, hex: string) => String.fromCodePoint(parseInt(hex, 16)));
}

export function parseTableFileName(name: string): TableFileName {
  const stem = stemOf(name);
  const parts = stem.split(/#(?:sub)?p#|#sp#/i);
  const m = /#p#(.*?)(?:#sp#(.*))?$/i.exec(stem);
  let partition: string | null = null;
  if (m) partition = m[2] ? `${decodePart(m[1])} / ${decodePart(m[2])}` : decodePart(m[1]);
  return { table: decodePart(parts[0]), partition };
}

export interface PairedTable {
  /** Stable key: the .ibd's path. */
  key: string;
  ibd: InputFile;
  name: TableFileName;
  frm: InputFile | null;
  cfg: InputFile | null;
  /** A table inside a system tablespace (`ibd` is the ibdata1): what its data dictionary says of it. */
  system?: SystemTable;
  /** An .ibd without its .frm: the system tablespace of its datadir (`../ibdata1`), whose data dictionary may define it. */
  dictionary?: InputFile;
  /** A partitioned table: the files of its partitions (`ibd` is the first), and its .par (their order) if given. */
  partitions?: InputFile[];
  par?: InputFile | null;
}

export interface Pairing {
  tables: PairedTable[];
  sqls: InputFile[];
  /** System tablespaces (ibdata1): their tables are paired once their dictionaries are read (`systems` of pairFiles). */
  systemFiles: InputFile[];
  /** Encryption key files (InputFile.key set). */
  keys: InputFile[];
  /** Files that are none of .ibd / .frm / .sql / .cfg, nor key files, nor images with index pages in their first MiB. */
  ignored: InputFile[];
  /** .frm / .cfg without an .ibd of the same name. */
  orphans: InputFile[];
}

/**
 * Groups the files: each .ibd with its .frm and .cfg (without a .frm, with the ibdata1 of its datadir); each table of a system tablespace whose
 * dictionary was read (`systems`, by the ibdata1's path) with its .frm; the .sql files; the key files; the rest.
 */
export function pairFiles(files: readonly InputFile[], systems: ReadonlyMap<string, readonly SystemTable[]> = new Map()): Pairing {
  const ibds: InputFile[] = [];
  const sqls: InputFile[] = [];
  const systemFiles: InputFile[] = [];
  const side: InputFile[] = [];
  const ignored: InputFile[] = [];
  const keys: InputFile[] = [];
  for (const f of files) {
    const kind = kindOf(f.file.name);
    if (f.key) keys.push(f);
    else if (kind === 'ibd' || f.image) ibds.push(f);
    else if (kind === 'sql') sqls.push(f);
    else if (kind === 'frm' || kind === 'cfg' || kind === 'par') side.push(f);
    else if (kind === 'system') systemFiles.push(f);
    else ignored.push(f);
  }
  const used = new Set<InputFile>();
  // By kind, folder and name (a datadir has a .frm for each of thousands of .ibd files).
  const sideKey = (kind: FileKind, path: string, name: string) => `${kind}\u0000${folderOf(path)}\u0000${stemOf(name).toLowerCase()}`;
  const byKey = new Map<string, InputFile>();
  for (const f of side) {
    const key = sideKey(kindOf(f.file.name), f.path, f.file.name);
    if (!byKey.has(key)) byKey.set(key, f);
  }
  const sideFile = (ibd: InputFile, kind: FileKind, path = ibd.path): InputFile | null => {
    const found = byKey.get(sideKey(kind, path, path)) ?? null;
    if (found) used.add(found);
    return found;
  };
  const systemIn = new Map(systemFiles.map((f) => [folderOf(f.path), f]));
  const tables = ibds
    .filter((ibd) => parseTableFileName(ibd.file.name).partition === null)
    .map((ibd): PairedTable => {
      const frm = sideFile(ibd, 'frm');
      const dictionary = frm === null ? systemIn.get(folderOf(folderOf(ibd.path))) : undefined;
      return { key: ibd.path, ibd, name: parseTableFileName(ibd.file.name), frm, cfg: sideFile(ibd, 'cfg'), ...(dictionary && folderOf(ibd.path) !== '' ? { dictionary } : {}) };
    });
  tables.push(...partitionedTables(ibds, sideFile));
  tables.sort((a, b) => a.key.localeCompare(b.key));
  for (const ibdata of systemFiles) {
    for (const t of systems.get(ibdata.path) ?? []) tables.push(systemTable(ibdata, t, sideFile));
  }
  // A .frm in a database folder beside the datadir's ibdata1 may be a table inside ibdata1 (its
  // dictionary pairs it once read) or not InnoDB's at all (Aria's, MyISAM's): no .ibd is missing.
  const orphans = side.filter((f) => !used.has(f) && !(kindOf(f.file.name) === 'frm' && systemIn.has(folderOf(folderOf(f.path)))));
  return { tables, sqls, systemFiles, keys, ignored, orphans };
}

/**
 * Pairs the tables of system tablespaces as their listing hands them over, chunk by chunk, with their
 * .frm among `files` (indexed once): pairFiles again per chunk went over every file and table listed
 * so far, quadratic in a datadir of 50,000 tables. The same pairs pairFiles makes.
 */
export function systemPairer(files: readonly InputFile[]): (ibdata: InputFile, tables: readonly SystemTable[]) => PairedTable[] {
  const frms = new Map<string, InputFile>();
  for (const f of files) {
    const key = `${folderOf(f.path)}\u0000${stemOf(f.file.name).toLowerCase()}`;
    if (kindOf(f.file.name) === 'frm' && !frms.has(key)) frms.set(key, f);
  }
  const sideFile = (_ibd: InputFile, _kind: FileKind, path: string) => frms.get(`${folderOf(path)}\u0000${stemOf(path).toLowerCase()}`) ?? null;
  return (ibdata, tables) => tables.map((t) => systemTable(ibdata, t, sideFile));
}

/** A table of system tablespace `ibdata`, with its .frm (a partition's is its table's: `db/t.frm` for `db/t#P#p0`). */
function systemTable(ibdata: InputFile, t: SystemTable, sideFile: (ibd: InputFile, kind: FileKind, path: string) => InputFile | null): PairedTable {
  const folder = folderOf(ibdata.path);
  const frm = t.storedName === null ? null : sideFile(ibdata, 'frm', `${folder ? `${folder}/` : ''}${t.storedName.replace(/#p#.*$/i, '')}.frm`);
  // (a dropped table may have the name of a live one, created again: its clustered index tells them apart)
  const key = t.state === 'dropped' && t.source !== null ? `${ibdata.path}#${t.name}#${t.index?.indexId ?? ''}` : `${ibdata.path}#${t.name}`;
  return { key, ibd: ibdata, name: { table: t.name, partition: null }, frm, cfg: null, system: t };
}

/**
 * The partitioned tables among `ibds`: the partition files of one table in one folder (`t#P#p0.ibd`,
 * `t#p#p1.ibd`, `t#P#p0#SP#p0sp0.ibd`, the table's name compared without case) as one table, with
 * the table's .frm and .par (`t.frm`, `t.par`). Keyed by the folder and the table's file name.
 */
function partitionedTables(ibds: readonly InputFile[], sideFile: (ibd: InputFile, kind: FileKind, path: string) => InputFile | null): PairedTable[] {
  const groups = new Map<string, InputFile[]>();
  for (const ibd of ibds) {
    const stem = stemOf(ibd.file.name);
    const cut = stem.search(/#p#/i);
    if (cut < 0) continue;
    const key = `${folderOf(ibd.path)}\u0000${stem.slice(0, cut).toLowerCase()}`;
    groups.set(key, [...(groups.get(key) ?? []), ibd]);
  }
  return [...groups.values()].map((files) => {
    files.sort((a, b) => a.path.localeCompare(b.path));
    const first = files[0];
    const folder = folderOf(first.path);
    const base = `${folder ? `${folder}/` : ''}${stemOf(first.file.name).replace(/#p#.*$/i, '')}`;
    const name = { table: parseTableFileName(first.file.name).table, partition: null };
    return { key: `${base}.ibd`, ibd: first, name, frm: sideFile(first, 'frm', `${base}.frm`), cfg: null, partitions: files, par: sideFile(first, 'par', `${base}.par`) };
  });
}
