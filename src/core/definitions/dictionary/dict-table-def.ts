/**
 * A table of the InnoDB data dictionary (dict-tables.ts) as the table model every schema source
 * produces, and as CREATE TABLE text (which the DDL reader reads back, so that a user can correct
 * what the dictionary does not keep and give it with --schema): the columns in table order, the
 * clustered index first (PRIMARY, or the UNIQUE key InnoDB clusters on; none for GEN_CLUST_INDEX),
 * then the secondary indexes with their column prefixes (in characters) and DESC parts.
 *
 * InnoDB's own FTS_DOC_ID column and FTS_DOC_ID_INDEX, which a FULLTEXT index makes it add, are not
 * the table's: they are left out, as the clustered layout adds the column itself. Each column the
 * dictionary describes only in part carries its note, as a comment in the text and in `notes`.
 */
import type { Column, IndexColumn, IndexDef, TableDef } from '../../schema.ts';
import { charsetInfo } from '../../values/charset.ts';
import { quoteIdentifier } from '../create-sql.ts';
import { tableNameOfFile } from '../frm/index.ts';
import type { DictColumn } from './dict-columns.ts';
import { INDEX_TYPE, type DictIndex, type DictTable } from './dict-tables.ts';

export interface DictTableDef {
  table: TableDef;
  /** What the dictionary does not say, per column (`name`: what), and about the table. */
  notes: string[];
}

/** The name InnoDB gives the clustered index of a table without a key, and FULLTEXT's own index. */
const GEN_CLUST_INDEX = 'GEN_CLUST_INDEX';
const FTS_DOC_ID = 'FTS_DOC_ID';
const FTS_DOC_ID_INDEX = 'FTS_DOC_ID_INDEX';

const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext']);
/** The table's name without its database and partition (`shop/t#P#p0` → `t`). */
export function shortName(table: DictTable): string {
  return tableNameOfFile(table.storedName.slice(table.storedName.indexOf('/') + 1));
}

/** A hidden FTS_DOC_ID is InnoDB's (a BIGINT it typed as LONG); one the user declared is a BIGINT. */
function hiddenDocId(c: DictColumn, table: DictTable): boolean {
  return c.column.name === FTS_DOC_ID && table.indexes.some((i) => i.type & INDEX_TYPE.FTS) && c.fieldType !== 8;
}

/**
 * A clustered index not named PRIMARY is the UNIQUE key the server promoted (its columns NOT NULL);
 * InnoDB's own tables (FULLTEXT's) cluster on columns they declare NULL: theirs is taken as the key.
 */
function indexKind(index: DictIndex, columns: ReadonlyMap<string, Column>): IndexDef['kind'] {
  if (index.type & INDEX_TYPE.CLUSTERED) {
    const notNull = index.fields.every((f) => columns.get(f.column.toLowerCase())?.nullable === false);
    return index.name === 'PRIMARY' || !notNull ? 'primary' : 'unique';
  }
  if (index.type & INDEX_TYPE.FTS) return 'fulltext';
  if (index.type & INDEX_TYPE.SPATIAL) return 'spatial';
  return index.type & INDEX_TYPE.UNIQUE ? 'unique' : 'key';
}

function indexDef(index: DictIndex, columns: ReadonlyMap<string, Column>): IndexDef {
  const parts = index.fields.map((f): IndexColumn => {
    const c = columns.get(f.column.toLowerCase());
    const perChar = c && TEXT_TYPES.has(c.type) ? charsetInfo(c.charset).mbmaxlen : 1;
    return { name: f.column, prefix: Math.floor(f.prefixBytes / perChar), descending: f.descending };
  });
  const kind = indexKind(index, columns);
  return { name: kind === 'primary' ? 'PRIMARY' : index.name, kind, columns: parts };
}

/** The table's definition from its dictionary rows. */
export function dictTableDef(table: DictTable): DictTableDef {
  const kept = table.columns.filter((c) => !hiddenDocId(c, table));
  const hidDocId = kept.length < table.columns.length;
  const columns = kept.map((c) => c.column);
  const byName = new Map(columns.map((c) => [c.name.toLowerCase(), c]));
  const wanted = table.indexes.filter((i) => i.name !== GEN_CLUST_INDEX && !(hidDocId && i.name === FTS_DOC_ID_INDEX) && !(i.type & INDEX_TYPE.IBUF));
  // the clustered index first: the decoder clusters on the PRIMARY KEY, else the first UNIQUE
  wanted.sort((a, b) => (b.type & INDEX_TYPE.CLUSTERED) - (a.type & INDEX_TYPE.CLUSTERED));
  const indexes = wanted.map((i) => indexDef(i, byName));
  const notes = kept.filter((c) => c.note !== null).map((c) => `\`${c.column.name}\`: ${c.note}`);
  const name = shortName(table);
  const charset = columns.find((c) => TEXT_TYPES.has(c.type))?.charset ?? 'latin1';
  const lines = [...kept.map(columnLine), ...indexes.map(keyLine)];
  const createSql = `CREATE TABLE ${quoteIdentifier(name)} (\n  ${lines.join(',\n  ')}\n) ENGINE=InnoDB ROW_FORMAT=${table.rowFormat}`
    + ` /* rebuilt from the InnoDB data dictionary (table id ${table.id}): defaults, comments, AUTO_INCREMENT, ENUM and SET members, DECIMAL precision and the table's default charset are not kept there */`;
  return { table: { name, columns, indexes, rowFormat: table.rowFormat, charset, createSql }, notes };
}

function typeText(c: Column): string {
  const unsigned = c.unsigned ? ' unsigned' : '';
  switch (c.type) {
    case 'char':
    case 'varchar':
    case 'binary':
    case 'varbinary':
    case 'bit': return `${c.type}(${c.length})`;
    case 'time':
    case 'datetime':
    case 'timestamp': return `${c.type}${c.fsp ? `(${c.fsp})` : ''}${c.legacyTemporal ? ' /* mariadb-5.3 */' : ''}`;
    default: return `${c.type}${unsigned}`;
  }
}

function columnLine(d: DictColumn): string {
  const c = d.column;
  let text = `${quoteIdentifier(c.name)} ${typeText(c)}`;
  if (TEXT_TYPES.has(c.type) && c.charset !== 'binary') text += ` CHARACTER SET ${c.charset}${c.collation ? ` COLLATE ${c.collation}` : ''}`;
  if (c.generated === 'virtual') text += ' GENERATED ALWAYS AS (NULL) VIRTUAL';
  else text += c.nullable ? (c.type === 'timestamp' ? ' NULL' : '') : ' NOT NULL';
  return d.note === null ? text : `${text} /* ${d.note.replace(/\*\//g, '* /')} */`;
}

function keyLine(index: IndexDef): string {
  const parts = index.columns.map((k) => `${quoteIdentifier(k.name)}${k.prefix ? `(${k.prefix})` : ''}${k.descending ? ' DESC' : ''}`).join(',');
  const head = { primary: 'PRIMARY KEY', unique: 'UNIQUE KEY', key: 'KEY', fulltext: 'FULLTEXT KEY', spatial: 'SPATIAL KEY' }[index.kind];
  return index.kind === 'primary' ? `${head} (${parts})` : `${head} ${quoteIdentifier(index.name)} (${parts})`;
}
