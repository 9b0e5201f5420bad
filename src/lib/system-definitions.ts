/**
 * The definitions the library lists for a system tablespace (ibdata1) and the InnoDB data
 * dictionary's part for a file-per-table .ibd beside one (definitions.ts hands these over):
 *  - ibdata1: one entry per table its dictionary knows, live ones first, then the dropped ones whose
 *    columns survive, each named `db/table`, read with its .frm among the companion files where there
 *    is one, else with the dictionary's definition (system-schema.ts); a definition given outright
 *    (a .frm, CREATE TABLEs) is the one of the dictionary tables of its name;
 *  - an .ibd: the dictionary's table of the file's space, which is taken when neither the file's own
 *    SDI nor a .frm describes it, and is compared with what does.
 */
import { dictTableDef, shortName } from '../core/definitions/dictionary/dict-table-def.ts';
import { INDEX_TYPE, type DictTable, type Dictionary } from '../core/definitions/dictionary/dict-tables.ts';
import { clusteredIndexOf, dictionaryDisagreements, spaceCandidate, systemCandidates, systemDictionary, type SystemCandidate } from '../core/definitions/dictionary/system-schema.ts';
import type { DefinitionSourceKind, SchemaSourceKind } from '../core/definitions/schema-source.ts';
import type { TableDef } from '../core/schema.ts';
import type { ByteSource } from '../core/tablespace/source.ts';
import { Tablespace } from '../core/tablespace/tablespace.ts';
import type { Definitions, TableEntry } from './table-entry.ts';

/**
 * The dictionary of `ibd` when it is a system tablespace without an SDI of its own (a MySQL 8
 * ibdata1 that holds tables carries one: it is read as a general tablespace), else null.
 */
export async function ownDictionary(ibd: ByteSource): Promise<Dictionary | null> {
  const ts = await Tablespace.open(ibd).catch(() => null);
  if (ts === null || ts.fsp.spaceId !== 0 || ts.fsp.flags.sdi) return null;
  return systemDictionary(ibd);
}

/** Why no table is picked in a system tablespace: there are many, or (MySQL 8) none. */
function systemError(ibd: ByteSource, dictionary: Dictionary, entries: readonly TableEntry[]): string {
  if (dictionary.tables.length === 0) {
    return `${ibd.name} is a system tablespace whose data dictionary lists no table: that of MySQL 8.0 or later, which keeps its data dictionary in mysql.ibd and each table's definition in its own .ibd (SDI)`;
  }
  return `a system tablespace: its data dictionary lists ${entries.length} tables; choose one by its name (db/table)`;
}

/**
 * The entries of a system tablespace's tables (`tables` of its dictionary: all unless said), each with
 * its .frm among `files` where there is one.
 */
export async function systemDefinitions(ibd: ByteSource, dictionary: Dictionary, files: readonly ByteSource[], tables: readonly DictTable[] = dictionary.tables): Promise<Definitions> {
  const warnings = [...dictionary.problems];
  const frms = files.filter((f) => f.name.toLowerCase().endsWith('.frm'));
  const candidates = await systemCandidates(ibd.name, dictionary, frms, tables);
  const entries = candidates.map(systemEntry).filter((e) => e !== null);
  entries.sort((a, b) => Number(a.dictionary?.table.state !== 'live') - Number(b.dictionary?.table.state !== 'live'));
  return { entries, picked: null, warnings, error: systemError(ibd, dictionary, entries), dictionary };
}

/** The entry of a system tablespace's table (a candidate of systemCandidates); null when nothing gives its columns. */
export function systemEntry(c: SystemCandidate): TableEntry | null {
  if (c.table === null) return null;
  return {
    name: c.name, source: c.source, file: c.file, definition: c.table, clusteredIndex: c.clusteredIndex, disagreements: c.disagreements,
    dictionary: { table: c.dictionary, notes: c.notes },
  };
}

/**
 * The entries of definitions given outright for a system tablespace: each given table is the
 * dictionary's tables of its name (in whichever database), live ones first.
 */
export function givenSystemDefinitions(ibd: ByteSource, dictionary: Dictionary, tables: readonly TableDef[], kind: SchemaSourceKind, file: string): Definitions {
  const entries: TableEntry[] = [];
  for (const table of tables) {
    const matches = dictionary.tables.filter((t) => shortName(t).toLowerCase() === table.name.toLowerCase()).sort((a, b) => Number(a.state !== 'live') - Number(b.state !== 'live'));
    for (const t of matches) {
      const own = t.columns.length > 0 ? dictTableDef(t) : null;
      const differ = own === null ? [] : dictionaryDisagreements({ table, source: kind, file }, { table: own.table, source: 'dictionary', file: ibd.name });
      entries.push({ name: t.name, source: kind, file, definition: table, clusteredIndex: clusteredIndexOf(t), disagreements: differ, dictionary: { table: t, notes: [] } });
    }
  }
  const names = tables.map((t) => `\`${t.name}\``).join(', ');
  if (entries.length === 0) {
    // a dropped table whose dictionary rows are lost: its index is to be named by its id
    const plain = tables.map((table): TableEntry => ({ name: table.name, source: kind, file, definition: table, clusteredIndex: null, disagreements: [] }));
    const warning = `the data dictionary of ${ibd.name} lists no table named ${names}: the index holding its rows is to be given by its id`;
    return { entries: plain, picked: plain.length === 1 ? plain[0] : null, warnings: [warning], error: plain.length === 1 ? null : warning, dictionary };
  }
  const live = entries.filter((e) => e.dictionary?.table.state === 'live');
  const picked = live.length === 1 ? live[0] : entries.length === 1 ? entries[0] : null;
  const error = `the data dictionary of ${ibd.name} lists ${entries.length} tables named ${names} (${entries.map((e) => e.name).join(', ')}); choose one by its name (db/table)`;
  return { entries, picked, warnings: [], error: picked === null ? error : null, dictionary };
}

/**
 * `found` (the definitions resolveSchema found for an .ibd) with the dictionary's table of the
 * file's space: taken when nothing better describes the file (no SDI, no .frm), else compared.
 */
export async function withSpaceDictionary(ibd: ByteSource, found: Definitions, dictionarySource: ByteSource): Promise<Definitions> {
  const spaceId = (await Tablespace.open(ibd).catch(() => null))?.fsp.spaceId ?? null;
  const dictionary = spaceId === null ? null : await systemDictionary(dictionarySource);
  const own = spaceId === null || dictionary === null ? null : spaceCandidate(dictionary, spaceId, dictionarySource.name);
  if (own === null) return found;
  const picked = found.picked === null ? null : { table: found.picked.definition, source: found.picked.source as DefinitionSourceKind, file: found.picked.file };
  if (picked !== null && (picked.source === 'sdi' || picked.source === 'frm')) return { ...found, warnings: [...found.warnings, ...dictionaryDisagreements(picked, own)] };
  const entry: TableEntry = {
    name: own.table.name, source: 'dictionary', file: own.file, definition: own.table, clusteredIndex: null, disagreements: [],
    dictionary: { table: own.dictionary, notes: own.notes },
  };
  const warnings = [
    ...found.warnings,
    `${ibd.name}: the table definition is the InnoDB data dictionary's: \`${own.dictionary.name}\` of ${dictionarySource.name}, whose rows are in space ${spaceId}, this file's`,
    ...own.notes.map((n) => `${ibd.name}: ${n}`),
  ];
  if (picked !== null) warnings.push(...dictionaryDisagreements(picked, own));
  return { entries: [entry, ...found.entries], picked: entry, warnings, error: null };
}

/**
 * Whether the recovered rows define the table whole: its columns, and every index's fields as many as
 * SYS_INDEXES.N_FIELDS says (a key read without its fields would read other bytes as its values).
 */
function wholeDefinition(t: DictTable): boolean {
  return t.columns.length > 0 && t.indexes.some((i) => i.type & INDEX_TYPE.CLUSTERED) && t.indexes.every((i) => i.nFields !== null && i.fields.length === i.nFields);
}

/**
 * The entries of dropped tables recovered from the dictionary's freed pages (dict-freed.ts), read with
 * the definition their recovered rows give; those whose columns are not recovered are left out.
 */
export function recoveredEntries(ibd: ByteSource, tables: readonly DictTable[]): TableEntry[] {
  return tables.filter(wholeDefinition).map((t): TableEntry => {
    const own = dictTableDef(t);
    const notes = [`its data dictionary rows were read from pages the server freed (dropped table)`, ...own.notes];
    return { name: t.name, source: 'dictionary', file: ibd.name, definition: own.table, clusteredIndex: clusteredIndexOf(t), disagreements: [], dictionary: { table: t, notes } };
  });
}
