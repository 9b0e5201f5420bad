/**
 * The table definitions an .ibd can be read with, as the library lists them, and the choice of one.
 *
 * Two ways in, as the CLI has always had them:
 *  - found (resolveSchema, schema-source.ts): the file's own data dictionary (MySQL 8 SDI), else a
 *    .frm named like it among the companion files, else the CREATE TABLEs of the .sql among them;
 *  - given outright (a .sql or a .frm the caller names): it wins over the file's own dictionary,
 *    and where the two disagree on what the records hold, the entry says so.
 * A name picks a table (case aside); without one, the table named like the .ibd, else the only one.
 */
import { parseCreateTables, pickTable } from '../core/definitions/ddl/create-table.ts';
import { readFrm } from '../core/definitions/frm/index.ts';
import { disagreements, resolveSchema, type ResolvedSchema, type SchemaSourceKind } from '../core/definitions/schema-source.ts';
import { readSdi } from '../core/definitions/sdi/index.ts';
import type { TableDef } from '../core/schema.ts';
import { givenSystemDefinitions, ownDictionary, systemDefinitions, withSpaceDictionary } from './system-definitions.ts';
import type { Definitions, TableEntry } from './table-entry.ts';
import type { ByteSource } from '../core/tablespace/source.ts';
import { Tablespace } from '../core/tablespace/tablespace.ts';

export type { Definitions, TableEntry } from './table-entry.ts';

/** No definition of the table was found or given. */
export class NoDefinitionError extends Error {}

/** The definitions hold no table of the name asked for, or (none asked for) none named like the .ibd. */
export class TableChoiceError extends Error {
  constructor(
    /** The file the definitions come from. */
    readonly file: string,
    /** What is missing, and the tables there are. */
    readonly detail: string,
  ) {
    super(`${file}: ${detail}`);
  }
}

/**
 * The definitions resolveSchema finds for `ibd` in the file itself and among `files`; for a system
 * tablespace, those of the tables of its data dictionary; with `dictionary` (the system tablespace
 * beside the file), the dictionary's table of the file's space too (system-definitions.ts).
 */
export async function foundDefinitions(ibd: ByteSource, files: readonly ByteSource[], dictionary: ByteSource | null = null): Promise<Definitions> {
  const system = await ownDictionary(ibd);
  if (system !== null) return systemDefinitions(ibd, system, files);
  const found = resolvedDefinitions(await resolveSchema(ibd, files));
  return dictionary === null ? found : withSpaceDictionary(ibd, found, dictionary);
}

/** What resolveSchema found, as the library lists it. */
export function resolvedDefinitions(resolved: ResolvedSchema): Definitions {
  const entries = resolved.candidates.map((c): TableEntry => ({
    name: c.table.name, source: c.source, file: c.file, definition: c.table, clusteredIndex: c.clusteredIndex ?? null, disagreements: [],
  }));
  const picked = entries.find((e) => e.definition === resolved.table) ?? null;
  return { entries, picked, warnings: resolved.warnings, error: resolved.error };
}

/** A .frm starts with FE 01 whatever it is called. */
async function isFrm(source: ByteSource): Promise<boolean> {
  if (source.name.toLowerCase().endsWith('.frm')) return true;
  const head = await source.read(0, 2).catch(() => new Uint8Array(0));
  return head[0] === 0xfe && head[1] === 0x01;
}

/** The definitions of `schema` (a .frm, or CREATE TABLE statements), given outright for `ibd`. */
export async function givenDefinitions(ibd: ByteSource, schema: ByteSource): Promise<Definitions> {
  const warnings: string[] = [];
  let kind: SchemaSourceKind;
  let tables: TableDef[];
  if (await isFrm(schema)) {
    const frm = await readFrm(schema);
    for (const w of frm.warnings) warnings.push(`${schema.name}: ${w}`);
    kind = 'frm';
    tables = [frm.table];
  } else {
    kind = 'sql';
    tables = parseCreateTables(new TextDecoder('utf-8').decode(await schema.read(0, schema.size)));
    if (tables.length === 0) throw new Error(`${schema.name}: no CREATE TABLE statement found`);
  }
  const system = await ownDictionary(ibd);
  if (system !== null) {
    const defs = givenSystemDefinitions(ibd, system, tables, kind, schema.name);
    return { ...defs, warnings: [...warnings, ...system.problems] };
  }
  const own = await ownTables(ibd);
  const entries = tables.map((table): TableEntry => {
    const sdi = own.get(table.name.toLowerCase());
    const differ = sdi ? disagreements({ table, source: kind, file: schema.name }, { table: sdi, source: 'sdi', file: ibd.name }) : [];
    return { name: table.name, source: kind, file: schema.name, definition: table, clusteredIndex: null, disagreements: differ };
  });
  const picked = kind === 'frm' ? entries[0] : entryOf(entries, pickTable(tables, ibd.name) ?? (tables.length === 1 ? tables[0] : null));
  return { entries, picked, warnings, error: null };
}

/** The tables of the file's own data dictionary by lower-case name (none when it has none or it cannot be read). */
async function ownTables(ibd: ByteSource): Promise<Map<string, TableDef>> {
  const sdi = await Tablespace.open(ibd).then(readSdi).catch(() => null);
  return new Map((sdi?.tables ?? []).map((t) => [t.table.name.toLowerCase(), t.table]));
}

function entryOf(entries: readonly TableEntry[], table: TableDef | null | undefined): TableEntry | null {
  return entries.find((e) => e.definition === table) ?? null;
}

/**
 * The entry named `name` (case aside); without a name, the one picked, else the one named like the
 * .ibd, else the only one. Throws NoDefinitionError when there is none at all, TableChoiceError
 * when none fits.
 */
export function chooseEntry(defs: Definitions, ibdName: string, name: string | null = null): TableEntry {
  if (name === null && defs.picked) return defs.picked;
  if (defs.entries.length === 0) throw new NoDefinitionError(defs.error ?? 'no table definition found');
  const named = name === null ? undefined : defs.entries.find((e) => e.name.toLowerCase() === name.toLowerCase());
  if (named) return named;
  if (defs.dictionary) return systemEntry(defs, ibdName, name);
  const tables = defs.entries.map((e) => e.definition);
  const table = name !== null
    ? tables.find((t) => t.name.toLowerCase() === name.toLowerCase())
    : pickTable(tables, ibdName) ?? (tables.length === 1 ? tables[0] : undefined);
  const entry = entryOf(defs.entries, table);
  if (entry) return entry;
  const missing = name !== null ? `no table named ${name}` : `no table matches ${ibdName}`;
  throw new TableChoiceError(defs.entries[0].file, `${missing}; tables: ${tables.map((t) => t.name).join(', ')}`);
}

/**
 * The entry of a system tablespace named `name` without its database (`customers` for
 * `shop/customers`), when one table only has that name. Throws TableChoiceError otherwise.
 */
function systemEntry(defs: Definitions, file: string, name: string | null): TableEntry {
  if (name === null) throw new TableChoiceError(file, defs.error ?? 'choose a table by its name (db/table)');
  const lower = name.toLowerCase();
  const found = defs.entries.filter((e) => e.name.slice(e.name.indexOf('/') + 1).toLowerCase() === lower);
  const live = found.filter((e) => e.dictionary?.table.state === 'live');
  if (live.length === 1 || found.length === 1) return live[0] ?? found[0];
  const detail = found.length === 0 ? `its data dictionary lists no table named ${name}` : `several tables are named ${name}: ${found.map((e) => e.name).join(', ')}`;
  throw new TableChoiceError(file, `${detail}; name it as db/table`);
}
