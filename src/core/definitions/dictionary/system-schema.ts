/**
 * Which definition each table of a system tablespace is read with, and the dictionary's definition
 * of a file-per-table .ibd whose .frm is lost.
 *
 * A table of ibdata1: its .frm among the files given (named `db/table.frm`, or `table.frm` when one
 * table only has that name; a partition's is its table's), which the server wrote with the table and
 * which keeps what the dictionary does not (ENUM members, DECIMAL precision, defaults); else the
 * dictionary's own (dict-table-def.ts). Where both describe the table and disagree on what the
 * records hold, it is said. An .ibd: the dictionary table whose SYS_TABLES.SPACE is the file's space.
 */
import type { TableDef } from '../../schema.ts';
import type { ByteSource } from '../../tablespace/source.ts';
import { Tablespace } from '../../tablespace/tablespace.ts';
import { readFrm, tableNameOfFile } from '../frm/index.ts';
import { disagreements, type DefinitionOf } from '../schema-source.ts';
import { asDictionaryKeeps } from './dict-columns.ts';
import { dictTableDef, shortName } from './dict-table-def.ts';
import { keptDictionary } from './dictionary-cache.ts';
import { INDEX_TYPE, readDictionary, type DictTable, type Dictionary } from './dict-tables.ts';
import { intCell, readSysRows, textCell } from './sys-records.ts';

/** A table of a system tablespace with the definition it is read with (null: its columns are lost). */
export interface SystemCandidate {
  /** `db/table` as the dictionary names it (dict-tables.ts). */
  name: string;
  dictionary: DictTable;
  table: TableDef | null;
  source: 'frm' | 'dictionary';
  /** The .frm, or the system tablespace the dictionary is in. */
  file: string;
  /** The clustered index: its id, and its root page when the dictionary still names one. */
  clusteredIndex: { indexId: bigint; rootPage: number | null } | null;
  /** What to know of the definition: what the dictionary does not keep of the columns, or what the .frm says. */
  notes: string[];
  /** Where the .frm and the dictionary disagree on what the records hold. */
  disagreements: string[];
}

/**
 * The dictionary of `source` when it is a system tablespace, with the files of its tablespaces, else
 * null (no page 7 dictionary header, or unreadable).
 */
export async function systemDictionary(source: ByteSource): Promise<Dictionary | null> {
  const ts = await Tablespace.open(source).catch(() => null);
  if (ts === null) return null;
  return keptDictionary(source, ts.physicalSize, async () => {
    const dictionary = await readDictionary(ts).catch(() => null);
    if (dictionary !== null) dictionary.files = await tablespaceFiles(ts, dictionary).catch(() => new Map<number, string>());
    return dictionary;
  });
}

/**
 * Where each tablespace's file is, by space id, from the dictionary's own tables that keep it (they
 * are InnoDB's, defined in the dictionary like any table): SYS_TABLESPACES.NAME (`db/t`, or a
 * general tablespace's name; its file is NAME.ibd), then SYS_DATAFILES.PATH (`./db/t.ibd`, or
 * where DATA DIRECTORY put it). MariaDB 10.6 dropped both tables.
 */
async function tablespaceFiles(ts: Tablespace, dictionary: Dictionary): Promise<Map<number, string>> {
  const files = new Map<number, string>();
  const kept: [string, string, (v: string) => string][] = [['SYS_TABLESPACES', 'NAME', (n) => `${n}.ibd`], ['SYS_DATAFILES', 'PATH', (p) => p]];
  for (const [name, column, asFile] of kept) {
    const table = dictionary.tables.find((t) => t.name === name && t.state === 'live');
    const index = table ? clusteredIndexOf(table) : null;
    if (!table || index === null || index.rootPage === null) continue;
    const sys = { definition: dictTableDef(table).table, indexId: index.indexId, coreFields: Number.MAX_SAFE_INTEGER };
    for (const row of (await readSysRows(ts, sys, index.rootPage, false)).rows) {
      const space = intCell(row, 'SPACE');
      const value = textCell(row, column);
      if (space !== null && space !== 0 && value) files.set(space, asFile(value));
    }
  }
  return files;
}

/** The table name of a .frm's file name, with its database when the name has one (`shop/t.frm`). */
function frmTableName(fileName: string): { db: string | null; table: string } {
  const parts = fileName.split(/[\\/]/);
  return { db: parts.length > 1 ? tableNameOfFile(parts[parts.length - 2]) : null, table: tableNameOfFile(fileName) };
}

const databaseOf = (t: DictTable) => (t.name.includes('/') ? t.name.slice(0, t.name.indexOf('/')) : '');

/** The .frm files by `db/table` and by table name alone (lower case), so that each table finds its own in one look-up. */
interface FrmIndex<F> {
  byFullName: Map<string, F>;
  byName: Map<string, F>;
}

function frmIndex<F extends { readonly name: string }>(frms: readonly F[]): FrmIndex<F> {
  const index: FrmIndex<F> = { byFullName: new Map(), byName: new Map() };
  for (const f of frms) {
    const n = frmTableName(f.name);
    const table = n.table.toLowerCase();
    if (n.db !== null && !index.byFullName.has(`${n.db.toLowerCase()}/${table}`)) index.byFullName.set(`${n.db.toLowerCase()}/${table}`, f);
    if (n.db === null && !index.byName.has(table)) index.byName.set(table, f);
  }
  return index;
}

/** The .frm that belongs to `table`: by database and name, or by name alone where only one table has it. */
function frmFor<F>(table: DictTable, frms: FrmIndex<F>, sameName: number): F | null {
  const want = shortName(table).toLowerCase();
  return frms.byFullName.get(`${databaseOf(table).toLowerCase()}/${want}`) ?? (sameName === 1 ? frms.byName.get(want) ?? null : null);
}

/** The clustered index of a dictionary table: PRIMARY, the promoted UNIQUE, or GEN_CLUST_INDEX. */
export function clusteredIndexOf(table: DictTable): SystemCandidate['clusteredIndex'] {
  const index = table.indexes.find((i) => i.type & INDEX_TYPE.CLUSTERED);
  return index ? { indexId: index.id, rootPage: index.rootPage } : null;
}

/**
 * Where a definition of another source and the dictionary's disagree on what the records hold, once
 * the dictionary's losses are applied to the other (asDictionaryKeeps): one message each.
 */
export function dictionaryDisagreements(other: DefinitionOf, dictionary: DefinitionOf): string[] {
  const kept = { ...other, table: { ...other.table, columns: other.table.columns.map(asDictionaryKeeps) } };
  return disagreements(kept, dictionary);
}

/** .frm files read once each (every partition of a table shares its table's). */
type FrmCache = Map<ByteSource, Promise<Awaited<ReturnType<typeof readFrm>>>>;

/** The candidates of `tables` (every table of the dictionary, live and dropped, unless said), each with its .frm among `frms` where there is one. */
export async function systemCandidates(ibdName: string, dictionary: Dictionary, frms: readonly ByteSource[], tables: readonly DictTable[] = dictionary.tables): Promise<SystemCandidate[]> {
  const out: SystemCandidate[] = [];
  for await (const c of systemCandidatesOf(ibdName, dictionary, frms, tables)) out.push(c);
  return out;
}

/**
 * The candidates of `tables` (of `dictionary`), in their order, each given as soon as its .frm is read:
 * a datadir's listing shows each table with its definition as it comes (50,000 .frm read first kept
 * the first table from the page for minutes).
 */
export async function* systemCandidatesOf(ibdName: string, dictionary: Dictionary, frms: readonly ByteSource[], tables: readonly DictTable[]): AsyncGenerator<SystemCandidate> {
  const cache: FrmCache = new Map();
  const frmOf = frmsOf(dictionary, frms, tables);
  let ahead = 0;
  for (let i = 0; i < tables.length; i++) {
    // A .frm read is mostly a wait on its file (a Blob read in a browser worker costs milliseconds):
    // the next few are read meanwhile (5,000 .frm: 10 s one after another in Chromium).
    for (; ahead < Math.min(tables.length, i + FRM_READS_AHEAD); ahead++) startFrm(frmOf[ahead], cache);
    const t = tables[i];
    const own = t.columns.length > 0 ? dictTableDef(t) : null;
    const base: SystemCandidate = {
      name: t.name, dictionary: t, table: own?.table ?? null, source: 'dictionary', file: ibdName, clusteredIndex: clusteredIndexOf(t), notes: own?.notes ?? [], disagreements: [],
    };
    const frm = frmOf[i];
    yield frm === null ? base : await withFrm(base, frm, cache);
    // (read once: a table's partitions share it, and are next to each other in the dictionary's order)
    if (frm !== null && i + 1 < tables.length && frmOf[i + 1] !== frm) cache.delete(frm);
  }
}

/**
 * The .frm of each of `tables` (of `dictionary`) among `frms`, by their names alone (none is read):
 * the pairs systemCandidatesOf reads. A datadir's listing names the .frm of 50,000 tables this way,
 * their files neither handed over nor looked at.
 */
export function frmsOf<F extends { readonly name: string }>(dictionary: Dictionary, frms: readonly F[], tables: readonly DictTable[]): (F | null)[] {
  // (none given: the dictionary's names are not gone over, 50,000 of them for each call)
  if (frms.length === 0) return tables.map(() => null);
  const byShortName = new Map<string, number>();
  for (const t of dictionary.tables) byShortName.set(shortName(t).toLowerCase(), (byShortName.get(shortName(t).toLowerCase()) ?? 0) + 1);
  const index = frmIndex(frms);
  return tables.map((t) => frmFor(t, index, byShortName.get(shortName(t).toLowerCase()) ?? 0));
}

/** .frm files read at once by systemCandidates. */
const FRM_READS_AHEAD = 16;

/** Starts reading `frm` into `cache` (its failure is withFrm's to say, when it gets there). */
function startFrm(frm: ByteSource | null, cache: FrmCache): void {
  if (frm === null || cache.has(frm)) return;
  const read = readFrm(frm);
  read.catch(() => undefined);
  cache.set(frm, read);
}

/** The candidate read with its .frm; the dictionary's definition is then only compared with it. */
async function withFrm(base: SystemCandidate, frm: ByteSource, cache: FrmCache): Promise<SystemCandidate> {
  try {
    startFrm(frm, cache);
    const def = await (cache.get(frm) as ReturnType<typeof readFrm>);
    // a partitioned table's .frm names the partition engine: its partitions are InnoDB's all the same
    const notes = def.warnings.filter((w) => !/partition/.test(w)).map((w) => `${frm.name}: ${w}`);
    const differ = base.table === null ? [] : dictionaryDisagreements(
      { table: def.table, source: 'frm', file: frm.name },
      { table: base.table, source: 'dictionary', file: base.file },
    );
    return { ...base, table: def.table, source: 'frm', file: frm.name, notes, disagreements: differ };
  } catch (e) {
    return { ...base, notes: [`${frm.name} cannot be read (${(e as Error).message}): the data dictionary's definition is used`, ...base.notes] };
  }
}

/**
 * The dictionary's definition of the table whose rows are in tablespace `spaceId` (a file-per-table
 * .ibd beside the system tablespace), as a schema candidate; null when it names no such live table.
 */
export function spaceCandidate(dictionary: Dictionary, spaceId: number, file: string): (DefinitionOf & { notes: string[]; dictionary: DictTable }) | null {
  const table = dictionary.tables.find((t) => t.state === 'live' && t.spaceId === spaceId && t.columns.length > 0);
  if (table === undefined || spaceId === 0) return null;
  const def = dictTableDef(table);
  return { table: def.table, source: 'dictionary', file, notes: def.notes, dictionary: table };
}
