/**
 * What the library lists of a file: each table definition it can be read with (TableEntry), and the
 * choice among them (Definitions). Found or given in definitions.ts, for a system tablespace in
 * system-definitions.ts.
 */
import type { DictTable, Dictionary } from '../core/definitions/dictionary/dict-tables.ts';
import type { DefinitionSourceKind } from '../core/definitions/schema-source.ts';
import type { TableDef } from '../core/schema.ts';

/** One table definition the file can be read with. */
export interface TableEntry {
  /** The table's name; `db/table` for a table of a system tablespace (ibdata1). */
  name: string;
  /**
   * Where it comes from: the file's own data dictionary (MySQL 8 SDI), a .frm, a CREATE TABLE, the
   * InnoDB data dictionary of a system tablespace, or a guess from the records.
   */
  source: DefinitionSourceKind | 'guess';
  /** The file it was read from (the .ibd itself for its data dictionary). */
  file: string;
  definition: TableDef;
  /**
   * In a file holding several tables (general tablespace, mysql.ibd, ibdata1): the table's clustered
   * index (a root page of null: the dictionary names none, it is looked for).
   */
  clusteredIndex: { rootPage: number | null; indexId: bigint } | null;
  /** A definition given outright: what the file's own data dictionary says otherwise, one message each. */
  disagreements: string[];
  /**
   * A table of a system tablespace: what its InnoDB data dictionary says of it (id, space, row
   * format, indexes; live or dropped), and what to know of the definition it is read with (what
   * the dictionary does not keep of its columns, what its .frm says).
   */
  dictionary?: { table: DictTable; notes: string[] };
}

/** Every definition to choose from, and the one taken when none is named. */
export interface Definitions {
  entries: TableEntry[];
  /** The table named like the .ibd, else the only one; null when the caller must choose. */
  picked: TableEntry | null;
  /** Sources that disagree with the chosen one, files that could not be read. */
  warnings: string[];
  /** Why nothing is picked, when `picked` is null. */
  error: string | null;
  /** The file is a system tablespace (ibdata1): its InnoDB data dictionary. */
  dictionary?: Dictionary;
}
