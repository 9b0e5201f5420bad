/**
 * The tables inside a system tablespace (ibdata1), as the page lists them when a datadir is dropped:
 * each table of its InnoDB data dictionary whose rows are in the file (space 0), live or dropped,
 * with what the dictionary says of it (row format, indexes), its exact row count from its leaf pages,
 * and where its rows are (its clustered index: id, root page); then the indexes no live table owns
 * whose table is not listed (a dropped table whose dictionary rows are lost), with their pages and
 * records, to be read with a definition the user gives. Through the library (src/lib/: InnodbFile,
 * droppedIndexes), as the CLI's --list-tables does.
 *
 * `resolveSystem`: the definitions a table of it is opened with by the page's workers (the
 * dictionary's or its .frm's, and the CREATE TABLEs of the .sql files given, for a dropped index).
 *
 * Plain TypeScript over the decoder core, mixed into the decoder worker's API.
 */
import { truncationOf } from '../src/core/btree/truncation.ts';
import { shortName } from '../src/core/definitions/dictionary/dict-table-def.ts';
import { tableNameOfFile } from '../src/core/definitions/frm/index.ts';
import { INDEX_TYPE, type DictTable } from '../src/core/definitions/dictionary/dict-tables.ts';
import { clusteredIndexOf, frmsOf, systemCandidatesOf } from '../src/core/definitions/dictionary/system-schema.ts';
import { fileKind, resolveSchema, type DefinitionSourceKind, type ResolvedSchema } from '../src/core/definitions/schema-source.ts';
import { rootlessTarget, type DroppedIndex } from '../src/core/readers/dropped-indexes.ts';
import type { RawTarget } from '../src/core/tablespace/orphan-scan.ts';
import type { TableDef } from '../src/core/schema.ts';
import { blobSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { fileSource } from './redo-sources.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import { resolvedDefinitions } from '../src/lib/definitions.ts';
import { ownDictionary, systemDefinitions, systemEntry, withSpaceDictionary } from '../src/lib/system-definitions.ts';
import { InnodbFile } from '../src/lib/innodb-file.ts';
import { incompleteCount } from '../src/lib/innodb-table.ts';
import type { TableEntry } from '../src/lib/table-entry.ts';
import type { NamedBlob } from './schema-api.ts';

/** Where a table's rows are: the B-tree of its clustered index (a root of null: looked for by scanning). */
export interface SystemIndex {
  indexId: bigint;
  rootPage: number | null;
}

/** One table of a system tablespace, or an index of a dropped table whose dictionary rows are lost. */
export interface SystemTable {
  /** `db/table` as the dictionary names it; `dropped index N` for an index whose table is unknown. */
  name: string;
  /** As SYS_TABLES holds it (the file-name encoding: its .frm is `<storedName>.frm`); null for an unknown table. */
  storedName: string | null;
  state: 'live' | 'dropped';
  rowFormat: string | null;
  indexes: { name: string; id: bigint; clustered: boolean }[];
  /** Exact, from its leaf pages; null when it could not be counted (see `notes`) or has no definition. */
  rows: number | null;
  /** Why `rows` lacks some rows (leaves its count could not read, or found by a scan: past the file's end, in a data file not given, damaged); null: it does not. */
  countNote: string | null;
  /** Where its definition comes from; null: none is left (give one). */
  source: 'frm' | 'dictionary' | null;
  /** The .frm, or the system tablespace the dictionary is in. */
  file: string | null;
  /**
   * A live table listed by its dictionary's columns (its rows counted with them), its .frm (`file`) not
   * read: the listing leaves the .frm of a datadir's 50,000 tables untouched. It is read when the
   * table is opened or exported, and what it says of the table (how it and the dictionary differ) is
   * said then; `notes` has none of it.
   */
  frmUnread: boolean;
  columnCount: number;
  index: SystemIndex | null;
  /** A dropped index's pages, leaf pages and records, as a scan of every page finds them. */
  found: { pages: number; leafPages: number; records: number } | null;
  /** A dropped index whose root is lost: the file read as a raw image, its leaves found by scanning (ViewSpec.raw). */
  raw: RawTarget | null;
  /** What to know: what the dictionary does not keep of the columns, disagreements with the .frm, why it was not counted. */
  notes: string[];
  /**
   * A dropped table whose dictionary rows were read from the pages the server freed: the definition
   * they give (no other file has it; the page reads it as it is); null for the others.
   */
  definition: TableDef | null;
  /**
   * Named from the dictionary (SYS_TABLES) before its .frm is read and its rows counted: listed at once,
   * its definition and count to come (the same table again, not pending); `index` is already its own.
   */
  pending: boolean;
}

/** How far a listing is: tables listed so far, of how many the dictionary names, and what it does now. */
export interface SystemProgress {
  listed: number;
  /** The dictionary's tables, and the dropped ones found so far (grows as they are found). */
  total: number;
  phase: 'tables' | 'dropped';
}

/** Tables sent as they are listed (`listSystemTables`' `onTables`), in chunks of this many at most… */
const CHUNK_TABLES = 500;
/** …or of what was listed in this long, and at least a millisecond per this many tables of the listing: each chunk costs the page a pass over its list (50,000 tables at 300 ms: 900 chunks, the page's main thread busy 340 s of 400). */
const CHUNK_MS = 300;
const TABLES_PER_CHUNK_MS = 25;

export interface SystemListing {
  tables: SystemTable[];
  /** Why no table is listed: not a system tablespace, or one that keeps no dictionary (MySQL 8: it is in mysql.ibd). */
  error: string | null;
  /** What to know of the file as a whole: pages that are not in it (in further data files not given, ibdata2 …). */
  warnings: string[];
}

export interface SystemMethods {
  /**
   * The tables of system tablespace `ibd` (`frmNames`: the .frm files of its datadir, `db/table.frm`;
   * `frms`: those of the names asked for, the files). A live table the dictionary gives columns is
   * counted with them and its .frm left unread (`frmUnread`); the .frm of the others (a live table
   * only its .frm gives columns, a dropped one whose .frm is left) are asked for once the live tables
   * are counted. With `onTables`, they are handed over in chunks as they are counted (the listing's
   * `tables` is then empty).
   */
  listSystemTables(ibd: Blob, name: string, frmNames: readonly string[], frms: FrmFiles, onTables?: TablesSink): Promise<SystemListing>;
}

/** The .frm files of a datadir of the names given, asked for when the listing needs them (through comlink, a call on a port of its own). */
export type FrmFiles = (names: string[]) => NamedBlob[] | Promise<NamedBlob[]>;

/**
 * Where listed tables go: through comlink, a call on a port of its own, which returns a promise of
 * the page having taken them.
 */
export type TablesSink = (tables: SystemTable[], progress: SystemProgress) => void | Promise<void>;

/** InnoDB's own tables (SYS_*, no database) and a FULLTEXT index's helper tables are not the user's. */
function usersTable(name: string): boolean {
  return name.includes('/') && !/\/FTS_[0-9a-f]{16}_/i.test(name);
}

function indexesOf(t: DictTable): SystemTable['indexes'] {
  return t.indexes.map((i) => ({ name: i.name, id: i.id, clustered: (i.type & INDEX_TYPE.CLUSTERED) !== 0 }));
}

/** The table of `entry`, counted; a dropped one through the root the scan found (`dropped`, by index id). */
async function listedTable(file: InnodbFile, ts: Tablespace, entry: TableEntry, dropped: ReadonlyMap<bigint, DroppedIndex>, frmUnread: string | null = null): Promise<SystemTable> {
  const t = entry.dictionary?.table as DictTable;
  const live = t.state === 'live';
  const clustered = entry.clusteredIndex;
  const scanned = clustered === null ? undefined : dropped.get(clustered.indexId);
  const index = clustered === null ? null : { indexId: clustered.indexId, rootPage: live ? clustered.rootPage : scanned?.rootPage ?? null };
  const row: SystemTable = {
    name: entry.name, storedName: t.storedName, state: live ? 'live' : 'dropped', rowFormat: t.rowFormat, indexes: indexesOf(t), rows: null, countNote: null,
    source: entry.source === 'frm' || frmUnread !== null ? 'frm' : 'dictionary', file: frmUnread ?? entry.file, frmUnread: frmUnread !== null,
    columnCount: entry.definition.columns.length, index, found: scanned ? { pages: scanned.pages, leafPages: scanned.leafPages, records: scanned.records } : null,
    raw: index !== null && index.rootPage === null ? rootlessTarget(ts, index.indexId).raw ?? null : null,
    // (of the dictionary's definition, which the .frm not read yet replaces: nothing to say)
    notes: frmUnread !== null ? [] : [...(entry.dictionary?.notes ?? []), ...entry.disagreements], definition: null, pending: false,
  };
  if (index === null) return { ...row, notes: [...row.notes, 'the data dictionary names no index holding its rows'] };
  // (a leaf scan of the whole file per such table found none either: minutes for thousands of them)
  if (!live && scanned === undefined) return { ...row, notes: [...row.notes, `not counted: the read of the whole of ${file.name} found no intact page of its index ${index.indexId} (its pages were reused or zeroed)`] };
  try {
    const table = await file.table(entry, { target: { index, raw: row.raw ?? undefined } });
    const count = await table.count();
    row.rows = count.rows;
    row.countNote = incompleteCount(table, count);
    if (row.countNote !== null) row.notes.push(row.countNote);
  } catch (e) {
    row.notes.push(`not counted: ${(e as Error).message}`);
  }
  return row;
}

/** A live table as SYS_TABLES names it, its .frm not read yet nor its rows counted (`pending`). */
function namedTable(t: DictTable): SystemTable {
  const clustered = clusteredIndexOf(t);
  return {
    name: t.name, storedName: t.storedName, state: 'live', rowFormat: t.rowFormat, indexes: indexesOf(t), rows: null, countNote: null, source: null, file: null, frmUnread: false,
    columnCount: t.columns.length, index: clustered, found: null, raw: null, notes: [], definition: null, pending: true,
  };
}

/** An index no live table owns and no listed table claims: its table's dictionary rows are lost. */
function unknownTable(ts: Tablespace, d: DroppedIndex): SystemTable {
  return {
    name: `dropped index ${d.indexId}`, storedName: null, state: 'dropped', rowFormat: d.compact ? 'COMPACT or newer' : 'REDUNDANT',
    indexes: [], rows: null, countNote: null, source: null, file: null, frmUnread: false, columnCount: 0, index: { indexId: d.indexId, rootPage: d.rootPage },
    found: { pages: d.pages, leafPages: d.leafPages, records: d.records }, raw: d.rootPage === null ? rootlessTarget(ts, d.indexId).raw ?? null : null, notes: [], definition: null, pending: false,
  };
}

function sources(files: readonly NamedBlob[]): ByteSource[] {
  return files.map((f) => blobSource(f.blob, f.name));
}

/**
 * Tables listed, handed over in chunks (or kept for the answer when nobody listens). A chunk goes on
 * the callback's own port, which keeps no order with the answer's: the listing waits for every chunk
 * to be taken (`delivered`) before it answers, else the last chunks (the dropped tables) could come
 * after the page had ended the listing and closed its worker.
 */
class Chunker {
  readonly kept: SystemTable[] = [];
  #chunk: SystemTable[] = [];
  #sent = performance.now();
  #taken: Promise<unknown> = Promise.resolve();
  readonly progress: SystemProgress = { listed: 0, total: 0, phase: 'tables' };
  constructor(private readonly onTables?: TablesSink) {}

  /** Tables named before they are listed (pending), handed over at once. */
  name(tables: SystemTable[]): void {
    if (!this.onTables || tables.length === 0) return;
    this.#taken = Promise.all([this.#taken, this.onTables(tables, { ...this.progress })]);
  }

  add(t: SystemTable): void {
    this.progress.listed++;
    if (!this.onTables) this.kept.push(t);
    else if (this.#chunk.push(t) >= CHUNK_TABLES || performance.now() - this.#sent >= Math.max(CHUNK_MS, this.progress.total / TABLES_PER_CHUNK_MS)) this.flush();
  }

  flush(): void {
    if (!this.onTables) return;
    this.#taken = Promise.all([this.#taken, this.onTables(this.#chunk, { ...this.progress })]);
    this.#chunk = [];
    this.#sent = performance.now();
  }

  /** Once the page has taken every chunk handed over (a chunk it could not take rejects). */
  async delivered(): Promise<void> {
    await this.#taken;
  }
}

async function listSystem(ibd: Blob, name: string, frmNames: readonly string[], frms: FrmFiles, onTables?: TablesSink): Promise<SystemListing> {
  const out = new Chunker(onTables);
  try {
    return await listInto(out, ibd, name, frmNames, frms);
  } finally {
    // (a listing that fails midway also answers after its chunks)
    await out.delivered();
  }
}

async function listInto(out: Chunker, ibd: Blob, name: string, frmNames: readonly string[], frms: FrmFiles): Promise<SystemListing> {
  // The dictionary first: its tables are named at once, each definition built (with its .frm) as its
  // table comes. (openSource built every table's from the dictionary first, 50,000 entries kept unused.)
  const source = await fileSource(ibd, name);
  const dictionary = await ownDictionary(source);
  if (dictionary === null) return { tables: [], error: `${name} is not a system tablespace with an InnoDB data dictionary`, warnings: [] };
  const file = new InnodbFile(source, await systemDefinitions(source, dictionary, [], []), undefined, async () => {});
  const ts = await Tablespace.open(file.source);
  const cut = truncationOf(ts);
  const warnings = cut === null ? [] : [cut.message];
  if (dictionary.tables.length === 0) return { tables: [], error: file.error, warnings };
  const own = dictionary.tables.filter((t) => t.spaceId === 0 && usersTable(t.name));
  out.progress.total = own.length;
  // The live tables first: they need no read of the whole file (a dropped one's tree is found by it).
  // In the order of their root pages: neighbours share the block a read brings (blobSource), where the
  // dictionary's order (by name) read a block of the file per table.
  const rootOf = (t: DictTable) => clusteredIndexOf(t)?.rootPage ?? 0;
  const live = own.filter((t) => t.state === 'live').sort((a, b) => rootOf(a) - rootOf(b));
  // (those whose columns only a .frm may give are listed once it is read)
  const counted = live.filter((t) => t.columns.length > 0);
  out.name(counted.map(namedTable));
  // Each table's .frm by its name alone: a live table is counted with the dictionary's columns (the
  // same records), its .frm read when it is opened or exported. (Read here, 50,000 .frm were each
  // handed over, a synchronous look at the disk on the page's main thread, then read: minutes.)
  const paired = frmsOf(dictionary, frmNames.map((n) => ({ name: n })), own);
  const frmOf = new Map(own.map((t, i) => [t, paired[i]?.name ?? null]));
  for await (const c of systemCandidatesOf(name, dictionary, [], counted)) {
    const entry = systemEntry(c) as TableEntry;
    out.add(await listedTable(file, ts, entry, new Map(), frmOf.get(c.dictionary) ?? null));
  }
  const toRead = own.flatMap((t) => {
    const frm = frmOf.get(t) ?? null;
    return frm !== null && (t.state !== 'live' || t.columns.length === 0) ? [frm] : [];
  });
  const frmSources = sources(toRead.length === 0 ? [] : await frms(toRead));
  for await (const c of systemCandidatesOf(name, dictionary, frmSources, live.filter((t) => t.columns.length === 0))) {
    const entry = systemEntry(c);
    if (entry === null) out.progress.total--;
    else out.add(await listedTable(file, ts, entry, new Map()));
  }
  out.progress.phase = 'dropped';
  out.flush();
  const dropped = await file.droppedIndexes();
  // (by id: a search of the list per table was quadratic, 25,000 dropped tables)
  const droppedById = new Map(dropped.map((d) => [d.indexId, d]));
  const claimed = new Set(dictionary.tables.flatMap((t) => t.indexes.map((i) => i.id)));
  // Dropped tables the dictionary's trees no longer name: their rows on the pages the server freed.
  const recovered = (await file.recoveredTables()).filter((e) => e.dictionary?.table.spaceId === 0 && !e.dictionary.table.indexes.some((i) => claimed.has(i.id)));
  for (const e of recovered) for (const i of e.dictionary?.table.indexes ?? []) claimed.add(i.id);
  const unknown = dropped.filter((d) => !claimed.has(d.indexId) && d.leafPages > 0);
  out.progress.total += recovered.length + unknown.length;
  for await (const c of systemCandidatesOf(name, dictionary, frmSources, own.filter((t) => t.state !== 'live'))) {
    const entry = systemEntry(c);
    if (entry === null) out.progress.total--;
    else out.add(await listedTable(file, ts, entry, droppedById));
  }
  for (const entry of recovered) out.add({ ...(await listedTable(file, ts, entry, droppedById)), definition: entry.definition });
  for (const d of unknown) out.add(unknownTable(ts, d));
  out.flush();
  return { tables: out.kept, error: null, warnings };
}

/** A definition a table of a system tablespace can be opened with (a SchemaCandidate, of any source). */
export interface SystemCandidate {
  /** What it is chosen by, when not its definition's name: `db/table`, as the dictionary names it. */
  name?: string;
  table: TableDef;
  source: DefinitionSourceKind;
  file: string;
  clusteredIndex?: SystemIndex | null;
}

/** What resolveSchema finds, for a system tablespace too (its candidates may come from its dictionary, named `db/table`). */
export type Resolved = Omit<ResolvedSchema, 'candidates' | 'source'> & { candidates: SystemCandidate[]; source: DefinitionSourceKind | null };

/**
 * The definitions of the tables of system tablespace `ibd` (the dictionary's, or a .frm's among
 * `files`), then the CREATE TABLEs of the .sql files among them (parsed once: `cache`); none picked
 * (the page names the table). Null when `ibd` is not a system tablespace. With `chosen` (a table as
 * the page names it, to be opened), only the dictionary's tables of its name, that one picked: a
 * table opened while the list is named was given the definitions of all 50,000 (each built, then
 * sent to the page); all when that does not find it.
 */
export async function resolveSystem(ibd: ByteSource, files: readonly ByteSource[], cache: Parameters<typeof resolveSchema>[2], chosen: string | null = null): Promise<Resolved | null> {
  const dictionary = await ownDictionary(ibd);
  if (dictionary === null) return null;
  const sqls = files.filter((f) => fileKind(f.name) === 'sql');
  const given = sqls.length > 0 ? await resolveSchema(ibd, sqls, cache) : { candidates: [], warnings: [] };
  const resolved = async (tables: readonly DictTable[]): Promise<Resolved> => {
    const defs = await systemDefinitions(ibd, dictionary, files, tables);
    const own = defs.entries.filter((e) => usersTable(e.name)).map(candidateOf);
    return { ibd, table: null, source: null, file: null, candidates: [...own, ...given.candidates], warnings: [...defs.warnings, ...given.warnings], error: defs.error };
  };
  // (a name the choice made distinct, `db/t (ibdata1, #2)`, starts with the table's)
  const named = chosen === null ? [] : dictionary.tables.filter((t) => chosen === t.name || chosen.startsWith(`${t.name} (`));
  if (named.length > 0) {
    const few = await resolved(named);
    const picked = few.candidates[choiceNames(few.candidates).indexOf(chosen as string)];
    if (picked) return { ...few, table: picked.table, source: picked.source, file: picked.file, error: null };
  }
  return resolved(dictionary.tables);
}

function candidateOf(e: TableEntry): SystemCandidate {
  return { name: e.name, table: e.definition, source: e.source as DefinitionSourceKind, file: e.file, clusteredIndex: e.clusteredIndex };
}

/**
 * `resolved` (what resolveSchema found for a file-per-table .ibd) with the InnoDB data dictionary of
 * `dictionary`, the system tablespace of its datadir (as the CLI's --dictionary): the dictionary's
 * table of the file's space (matched by space id) is taken when neither the file's SDI nor a .frm
 * describes it, said so in the warnings with what the dictionary does not keep; else compared.
 */
export async function withDictionaryBeside(ibd: ByteSource, resolved: ResolvedSchema, dictionary: ByteSource): Promise<Resolved> {
  const defs = await withSpaceDictionary(ibd, resolvedDefinitions(resolved), dictionary);
  const picked = defs.picked;
  const own = picked?.source === 'dictionary' ? picked.dictionary?.table : undefined;
  // The space id is the server's own for the file; a name that differs says the file was renamed (or is another server's).
  const renamed = own && shortName(own).toLowerCase() !== tableNameOfFile(ibd.name).toLowerCase()
    ? [`${ibd.name}: the data dictionary names the table of its space \`${own.name}\`, not as the file is named: check that ${dictionary.name} is the one of this file's server`]
    : [];
  return {
    ibd, table: picked?.definition ?? null, source: picked === null ? null : (picked.source as DefinitionSourceKind), file: picked?.file ?? null,
    candidates: defs.entries.map(candidateOf), warnings: [...defs.warnings, ...renamed], error: defs.error,
  };
}

/** A system tablespace's first data file, by the names servers give them (ibdata1). */
export function isSystemFileName(name: string): boolean {
  return /^ibdata\d+$/i.test(name.slice(name.lastIndexOf('/') + 1));
}

export function createSystemMethods(): SystemMethods {
  return {
    listSystemTables: listSystem,
  };
}

/** The name a candidate is chosen by. */
function candidateName(c: SystemCandidate): string {
  return c.name ?? c.table.name;
}

/**
 * The names the candidates are chosen by, one per candidate: a table defined twice in the files
 * given (`tb04` in two dumps, or twice in one script that drops and creates it again) is named with
 * its file too, and its place in the file, else the choice could not tell them apart (and the page's
 * list of them, keyed by name, would not render at all).
 */
export function choiceNames(candidates: readonly SystemCandidate[]): string[] {
  const names = candidates.map(candidateName);
  const withFile = distinguish(names, (n, i) => `${n} (${candidates[i]!.file})`);
  const seen = new Map<string, number>();
  return distinguish(withFile, (n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return `${n.slice(0, -1)}, #${k})`;
  });
}

/** `names`, each that occurs more than once renamed by `rename` (a dump of 10,000 tables: counted once, not searched per name). */
function distinguish(names: string[], rename: (name: string, i: number) => string): string[] {
  const count = new Map<string, number>();
  for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  return names.map((n, i) => (count.get(n)! > 1 ? rename(n, i) : n));
}
