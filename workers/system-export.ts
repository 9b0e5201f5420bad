/**
 * "Export all tables" of a datadir's ibdata1 (issue 38): the definitions of its tables found once per
 * worker call, not once per table (resolving each table alone read the dictionary's thousands of
 * definitions again for every one of them: quadratic in the tables); the columns of a dropped tree
 * whose table is unknown guessed from its records, as the CLI's `DIR -o OUTDIR` does; and a table's
 * rows as SQL a server loads (the database created and used, its CREATE TABLE, INSERTs: the CLI's
 * `--format sql` made of the same writers, core/writers/output.ts).
 *
 * Plain TypeScript over the decoder core and the library, used by list-methods.ts's exportTables.
 */
import type { TableDef } from '../src/core/schema.ts';
import { batchRows, type RowBatch } from '../src/core/values/row-batch.ts';
import { sqlColumns, sqlIdent, sqlInserts, sqlPostamble, sqlPreamble } from '../src/core/writers/output.ts';
import { blobSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { foundDefinitions } from '../src/lib/definitions.ts';
import { ownDictionary, systemDefinitions } from '../src/lib/system-definitions.ts';
import type { Definitions } from '../src/lib/table-entry.ts';
import { guessColumns } from '../src/core/definitions/guess/index.ts';
import { guessedTable } from '../src/core/definitions/guess/result.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import type { NamedBlob } from './schema-api.ts';

/** A dropped tree whose table's dictionary rows are lost: what the listing's scan found of it, for the guess. */
export interface GuessTarget {
  indexId: bigint;
  compact: boolean;
  /** Its root when that is its only leaf; -1 when not known to be. */
  rootLeaf: number;
}

/**
 * The definitions of a system tablespace's tables by name (`db/table`), read once per call for the
 * items that share the file: those of the dictionary's tables the call's items name alone (each
 * definition built from the dictionary or its .frm; all 50,000 of the seed's datadir built for each
 * call of 200 tables made "Export all tables" quadratic in the tables).
 */
export class SystemDefinitions {
  readonly #byFile = new Map<string, Promise<Map<string, TableDef>>>();

  /** `frms`: the .frm files of the call's items (each named `db/table.frm`, as the listing gave them); `names`: the tables they are asked by. */
  constructor(
    private readonly frms: readonly NamedBlob[],
    private readonly names: ReadonlySet<string>,
  ) {}

  /** Table `name` of system tablespace `ibd` (null: its dictionary has no such table). */
  async of(ibd: ByteSource, name: string): Promise<TableDef | null> {
    const key = `${ibd.name}\u0000${ibd.size}`;
    let defs = this.#byFile.get(key);
    if (!defs) {
      defs = this.#found(ibd).then((d) => new Map(d.entries.map((e) => [e.name, e.definition])));
      this.#byFile.set(key, defs);
    }
    return (await defs).get(name) ?? null;
  }

  async #found(ibd: ByteSource): Promise<Definitions> {
    const frms = this.frms.map((f) => blobSource(f.blob, f.name));
    const dictionary = await ownDictionary(ibd);
    if (dictionary === null) return foundDefinitions(ibd, frms);
    return systemDefinitions(ibd, dictionary, frms, dictionary.tables.filter((t) => this.names.has(t.name)));
  }
}

/** The columns of dropped tree `target` guessed from its records (the table named `index_<id>`). */
export async function guessedDefinition(ibd: ByteSource, target: GuessTarget): Promise<TableDef> {
  const ts = await Tablespace.open(ibd);
  return guessedTable(await guessColumns(ts, `index_${target.indexId}`, target.indexId, { compact: target.compact, rootLeaf: target.rootLeaf }));
}

/**
 * Every row of `reader` as SQL: the database created and used (`db`, when there is one), the CREATE
 * TABLE (after `note` as a comment: what the dump changes of the table), INSERTs.
 */
export async function rowsSql(
  reader: { batches(o: { batchSize: number }): AsyncIterable<RowBatch>; columns: readonly string[] },
  table: TableDef,
  db: string | null,
  file: string,
  note: string | null = null,
): Promise<Uint8Array> {
  const columns = sqlColumns(table, reader.columns);
  const comment = note === null ? '' : `-- ${sqlIdent(table.name)}: ${note.replace(/[\r\n]/g, ' ')}\n`;
  const parts: string[] = [`${db !== null ? `CREATE DATABASE IF NOT EXISTS ${sqlIdent(db)};\nUSE ${sqlIdent(db)};\n` : ''}${comment}${sqlPreamble(table, file)}`];
  for await (const batch of reader.batches({ batchSize: 5000 })) parts.push(sqlInserts(table.name, columns, batchRows(batch)));
  parts.push(sqlPostamble());
  return new TextEncoder().encode(parts.join(''));
}
