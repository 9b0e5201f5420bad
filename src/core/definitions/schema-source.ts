/**
 * Which table definition to decode an .ibd with, from whatever the user gave: the .ibd itself, a
 * .frm beside it, .sql scripts or dumps, or a whole folder of them.
 *
 * The most trustworthy source wins: the data dictionary inside the file (MySQL 8 SDI) describes the
 * very records in it; a .frm of the same name was written with the table; a .sql may be older or
 * newer than the file. When more than one source describes the table and they disagree on what the
 * records hold (columns, their order, types, charsets, the key), the answer says so.
 */
import { parseCreateTables, pickTable } from './ddl/create-table.ts';
import { readFrm, tableNameOfFile } from './frm/index.ts';
import type { Column, TableDef } from '../schema.ts';
import { readSdi, type SdiContents } from './sdi/index.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { Tablespace } from '../tablespace/tablespace.ts';

export type SchemaSourceKind = 'sdi' | 'frm' | 'sql';
/** Every source of a definition: the three above, and the InnoDB data dictionary of a system tablespace (definitions/dictionary/). */
export type DefinitionSourceKind = SchemaSourceKind | 'dictionary';

export interface SchemaCandidate {
  table: TableDef;
  source: SchemaSourceKind;
  /** The file it was read from (the .ibd for SDI). */
  file: string;
  /**
   * From the SDI only: the table's clustered index (root page, index id). In a file with several
   * tables (general tablespace, mysql.ibd) it says which B-tree to decode: OpenOptions.index.
   */
  clusteredIndex?: { rootPage: number; indexId: bigint } | null;
}

export interface ResolvedSchema {
  ibd: ByteSource;
  /** The definition to decode with, or null when no source describes this table. */
  table: TableDef | null;
  source: SchemaSourceKind | null;
  /** The file the chosen definition comes from. */
  file: string | null;
  /**
   * Every definition of the best source that could be chosen instead: the tables of a general
   * tablespace's SDI, or of a .sql when none is named like the file. The UI lets the user pick.
   */
  candidates: SchemaCandidate[];
  /** Disagreements between sources, and sources that could not be read. */
  warnings: string[];
  /** Why there is no definition, when `table` is null. */
  error: string | null;
}

export type FileKind = 'ibd' | 'frm' | 'sql' | 'other';

/** What a dropped file is, by its extension (mysqldump output is often .sql.txt or .dump). */
export function fileKind(name: string): FileKind {
  const lower = name.toLowerCase();
  if (lower.endsWith('.ibd')) return 'ibd';
  if (lower.endsWith('.frm')) return 'frm';
  if (/\.(sql|ddl|dump)(\.txt)?$/.test(lower) || lower.endsWith('.sql.txt')) return 'sql';
  return 'other';
}

/** The name an .ibd or .frm stands for, compared without case (file systems may fold it). */
function sameTable(a: string, b: string): boolean {
  return tableNameOfFile(a).toLowerCase() === tableNameOfFile(b).toLowerCase();
}

/** Parsed .sql files are shared by every .ibd of one resolveSchemas call. */
type SqlCache = Map<ByteSource, Promise<{ tables: TableDef[]; error: string | null }>>;

async function sqlTables(source: ByteSource, cache: SqlCache): Promise<{ tables: TableDef[]; error: string | null }> {
  let parsed = cache.get(source);
  if (!parsed) {
    parsed = (async () => {
      try {
        const text = new TextDecoder('utf-8').decode(await source.read(0, source.size));
        return { tables: parseCreateTables(text), error: null };
      } catch (e) {
        return { tables: [], error: `${source.name}: ${(e as Error).message}` };
      }
    })();
    cache.set(source, parsed);
  }
  return parsed;
}

/**
 * The definition for one .ibd, looked for in the file's SDI, then a .frm named like it among
 * `others`, then the .sql files among `others`.
 */
export async function resolveSchema(ibd: ByteSource, others: readonly ByteSource[], cache: SqlCache = new Map()): Promise<ResolvedSchema> {
  const warnings: string[] = [];
  const found: SchemaCandidate[][] = [];

  // 1. the file's own data dictionary
  const own = await sdiCandidates(ibd, warnings);
  if (own.tables.length > 0) found.push(own.tables);

  // 2. a .frm of the same name
  const frms = others.filter((s) => fileKind(s.name) === 'frm' && sameTable(s.name, ibd.name));
  const frmTables: SchemaCandidate[] = [];
  for (const frm of frms) {
    try {
      const def = await readFrm(frm);
      for (const w of def.warnings) warnings.push(`${frm.name}: ${w}`);
      frmTables.push({ table: def.table, source: 'frm', file: frm.name });
    } catch (e) {
      warnings.push(`${frm.name} cannot be read: ${(e as Error).message}`);
    }
  }
  if (frmTables.length > 0) found.push(frmTables);

  // 3. CREATE TABLE statements in .sql files
  const sqlCandidates: SchemaCandidate[] = [];
  for (const sql of others.filter((s) => fileKind(s.name) === 'sql')) {
    const { tables, error } = await sqlTables(sql, cache);
    if (error) warnings.push(error);
    for (const table of tables) sqlCandidates.push({ table, source: 'sql', file: sql.name });
  }
  if (sqlCandidates.length > 0) found.push(sqlCandidates);

  for (const candidates of found) {
    const chosen = choose(candidates, ibd.name);
    if (!chosen) continue;
    // the lower-ranked sources that also describe this table, for the comparison
    for (const other of found) {
      if (other === candidates) continue;
      const alike = choose(other, ibd.name, false);
      if (alike) warnings.push(...disagreements(chosen, alike));
    }
    return { ibd, table: chosen.table, source: chosen.source, file: chosen.file, candidates, warnings, error: null };
  }
  const candidates = found.flat();
  const error = candidates.length > 0
    ? `none of the table definitions given (${candidates.map((c) => `\`${c.table.name}\``).join(', ')}) is named like ${ibd.name}; choose one`
    : `${own.missing}, and no .frm or .sql file describing it was given`;
  return { ibd, table: null, source: null, file: null, candidates, warnings, error };
}

/**
 * The tables of the file's own data dictionary (SDI), and when there are none, why: the file cannot
 * be read, its SDI cannot be, or it has none (not a MySQL 8 file). What could not be read is warned.
 */
async function sdiCandidates(ibd: ByteSource, warnings: string[]): Promise<{ tables: SchemaCandidate[]; missing: string }> {
  let ts: Tablespace;
  try {
    ts = await Tablespace.open(ibd);
  } catch (e) {
    // Said once, as why there is no definition (reading the rows says it again otherwise).
    return { tables: [], missing: (e as Error).message };
  }
  let sdi: SdiContents | null;
  try {
    sdi = await readSdi(ts);
  } catch (e) {
    const why = (e as Error).message;
    warnings.push(`${ibd.name}: its data dictionary (SDI) cannot be read: ${why}`);
    return { tables: [], missing: `${ibd.name} is a MySQL 8 file, but its data dictionary (SDI) could not be read (${why})` };
  }
  if (sdi === null) {
    const lost = ts.page0Damaged !== null ? ' that could be found (page 0 is damaged, and no SDI page was found: it is not a MySQL 8 file, or its SDI is lost)' : ' of its own (it is not a MySQL 8 file)';
    return { tables: [], missing: `${ibd.name} carries no table definition${lost}` };
  }
  for (const e of sdi.errors) warnings.push(`${ibd.name}: the data dictionary's definition of \`${e.table}\` cannot be used: ${e.message}`);
  const tables = sdi.tables.map((t) => {
    for (const w of t.warnings) warnings.push(`${ibd.name}: \`${t.table.name}\`: ${w}`);
    return { table: t.table, source: 'sdi' as const, file: ibd.name, clusteredIndex: t.clusteredIndex };
  });
  return { tables, missing: `${ibd.name} is a MySQL 8 file, but no table definition in its data dictionary (SDI) can be used` };
}

/** The candidate named like the .ibd; else the only one when `loneOne` (a single-table source). */
function choose(candidates: SchemaCandidate[], ibdName: string, loneOne = true): SchemaCandidate | null {
  const picked = pickTable(candidates.map((c) => c.table), ibdName);
  if (picked) return candidates.find((c) => c.table === picked) ?? null;
  // a file-per-table SDI or a .frm holds one table; a .sql with one CREATE TABLE was likely made for this file
  const distinct = new Set(candidates.map((c) => c.table.name));
  return loneOne && distinct.size === 1 ? candidates[candidates.length - 1] : null;
}

/** What each source of a definition is called where it is named (a disagreement, the CLI's note of the one used). */
export const SOURCE_NAMES: Record<DefinitionSourceKind, string> = {
  sdi: "the file's own data dictionary",
  frm: 'the .frm',
  sql: 'the CREATE TABLE',
  dictionary: 'the InnoDB data dictionary',
};

/** Types whose length changes the stored bytes (an integer's display width does not, nor YEAR(4)'s). */
const SIZED_TYPES = new Set(['char', 'varchar', 'binary', 'varbinary', 'bit', 'vector']);

/** The type as stored: BOOL is TINYINT(1); display widths are left out. */
function typeText(c: Column): string {
  const type = c.type === 'bool' ? 'tinyint' : c.type;
  const size = SIZED_TYPES.has(type) || (type === 'year' && c.length === 2) ? `(${c.length})` : c.precision ? `(${c.precision},${c.scale})` : c.fsp ? `(${c.fsp})` : '';
  return `${type}${size}${c.unsigned ? ' unsigned' : ''}${c.legacyTemporal ? ' (pre-5.6 format)' : ''}`;
}

const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);

/** A definition and where it comes from, as disagreements() compares them. */
export interface DefinitionOf {
  table: TableDef;
  source: DefinitionSourceKind;
  file: string;
}

/** What the two definitions disagree on that changes how records are read, one message each. */
export function disagreements(chosen: DefinitionOf, other: DefinitionOf): string[] {
  const a = chosen.table;
  const b = other.table;
  const aName = `${SOURCE_NAMES[chosen.source]} (${chosen.file})`;
  const bName = `${SOURCE_NAMES[other.source]} (${other.file})`;
  const out: string[] = [];
  const stored = (t: TableDef) => t.columns.filter((c) => c.generated !== 'virtual');
  const as = stored(a);
  const bs = stored(b);
  if (as.length !== bs.length) {
    out.push(`${bName} gives \`${b.name}\` ${bs.length} stored columns, ${aName} ${as.length}; using ${SOURCE_NAMES[chosen.source]}`);
  }
  const n = Math.min(as.length, bs.length);
  for (let i = 0; i < n; i++) {
    const x = as[i];
    const y = bs[i];
    const where = `column ${i + 1}`;
    if (x.name.toLowerCase() !== y.name.toLowerCase()) {
      out.push(`${where} is \`${x.name}\` in ${aName} but \`${y.name}\` in ${bName}`);
      continue;
    }
    if (typeText(x) !== typeText(y)) out.push(`\`${x.name}\` is ${typeText(x)} in ${aName} but ${typeText(y)} in ${bName}`);
    else if (TEXT_TYPES.has(x.type) && x.charset !== y.charset) out.push(`\`${x.name}\` is in ${x.charset} in ${aName} but in ${y.charset} in ${bName}`);
    if (x.nullable !== y.nullable) out.push(`\`${x.name}\` is ${x.nullable ? '' : 'NOT '}NULL in ${aName} but ${y.nullable ? '' : 'NOT '}NULL in ${bName}`);
    if ((x.type === 'enum' || x.type === 'set') && x.values.join('\u0000') !== y.values.join('\u0000')) {
      out.push(`\`${x.name}\` has the members (${x.values.join(', ')}) in ${aName} but (${y.values.join(', ')}) in ${bName}`);
    }
  }
  const key = (t: TableDef) => t.indexes.find((i) => i.kind === 'primary')?.columns.map((c) => c.name.toLowerCase() + (c.prefix ? `(${c.prefix})` : '')).join(', ') ?? '';
  if (key(a) !== key(b)) out.push(`the PRIMARY KEY is (${key(a) || 'none'}) in ${aName} but (${key(b) || 'none'}) in ${bName}`);
  return out;
}

/**
 * A definition for every .ibd among `files`, each resolved against all the other files (.frm and
 * .sql); in the order the .ibd files were given.
 */
export async function resolveSchemas(files: readonly ByteSource[]): Promise<ResolvedSchema[]> {
  const cache: SqlCache = new Map();
  const others = files.filter((f) => fileKind(f.name) !== 'ibd');
  const out: ResolvedSchema[] = [];
  for (const ibd of files.filter((f) => fileKind(f.name) === 'ibd')) out.push(await resolveSchema(ibd, others, cache));
  return out;
}
