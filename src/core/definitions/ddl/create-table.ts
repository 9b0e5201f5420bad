/**
 * Table definitions from CREATE TABLE statements: SHOW CREATE TABLE output of MySQL 5.x–9.x and
 * MariaDB, hand-written DDL, and whole mysqldump / mariadb-dump files, where every statement that is
 * not a CREATE TABLE is stepped over without being tokenised.
 *
 * What the decoder needs is resolved here, the way the server resolves it: synonyms become one type,
 * every text column gets its effective character set, PRIMARY KEY columns become NOT NULL, unnamed
 * keys get the server's names and keys are listed in the server's order.
 *
 * This module walks the statements and reads the table as a whole (its definitions in order, LIKE,
 * the table options, system versioning); columns are read by column-attributes.ts and
 * column-types.ts, keys by keys.ts. It is the entry of the DDL reader: `pickTable`
 * (ibd-file-name.ts) is exported from here too.
 */
import type { TableDef } from '../../schema.ts';
import { charsetOfCollation, normaliseCharset, normaliseCollation } from './charsets.ts';
import { readColumn } from './column-attributes.ts';
import { resolveColumn, type ColumnDraft } from './column-types.ts';
import { nameKeys, readIndex, serverOrder, type IndexDraft } from './keys.ts';
import { statements, tokenize, type Statement } from './lexer.ts';
import { TokenCursor } from './token-cursor.ts';

export { pickTable } from './ibd-file-name.ts';

/**
 * Every CREATE TABLE in `sql`, in text order ([] when there is none). Throws an Error naming the line
 * when a CREATE TABLE cannot be parsed.
 */
export function parseCreateTables(sql: string): TableDef[] {
  const tables: TableDef[] = [];
  for (const statement of statements(sql)) {
    // mysqldump puts only view placeholders (`/*!50001 CREATE TABLE v …*/`) inside conditional comments
    if (statement.conditional || !isCreateTable(sql, statement)) continue;
    tables.push(new TableParser(sql, statement).parse(tables));
  }
  return tables;
}

/** CREATE [OR REPLACE] [TEMPORARY] TABLE … */
function isCreateTable(sql: string, statement: Statement): boolean {
  const words = tokenize(sql, statement.start, statement.end, 5).map((t) => (t.kind === 'word' ? t.text.toUpperCase() : ''));
  let i = 0;
  if (words[i++] !== 'CREATE') return false;
  if (words[i] === 'OR' && words[i + 1] === 'REPLACE') i += 2;
  if (words[i] === 'TEMPORARY') i++;
  return words[i] === 'TABLE';
}

/** Reads one CREATE TABLE statement. */
class TableParser extends TokenCursor {
  private readonly columns: ColumnDraft[] = [];
  private readonly indexes: IndexDraft[] = [];
  private charset = '';
  private collation = '';
  private rowFormat = '';
  /** WITH SYSTEM VERSIONING (MariaDB). */
  private versioned = false;

  constructor(
    sql: string,
    private readonly statement: Statement,
  ) {
    super(sql, statement.start, statement.end);
  }

  /** `earlier`: the tables read before this one, which CREATE TABLE … LIKE may copy. */
  parse(earlier: readonly TableDef[]): TableDef {
    this.expectWord('CREATE');
    if (this.acceptWord('OR')) this.expectWord('REPLACE');
    this.acceptWord('TEMPORARY');
    this.expectWord('TABLE');
    if (this.acceptWord('IF')) {
      this.expectWord('NOT');
      this.expectWord('EXISTS');
    }
    const name = this.qualifiedName('a table name');
    const original = this.likeSource();
    if (original !== null) return this.copy(name, original, earlier);
    this.expectPunct('(', `\`(\` after the table name \`${name}\``);
    do this.definition(); while (this.acceptPunct(','));
    this.expectPunct(')', 'a `,` or `)` after a column or key definition');
    this.tableOptions();
    return this.build(name);
  }

  // --- definitions ---

  private definition(): void {
    const token = this.peek();
    switch (token.kind === 'word' ? token.text.toUpperCase() : '') {
      case 'CONSTRAINT':
        return this.constraint();
      case 'PRIMARY':
        this.next();
        this.expectWord('KEY');
        return this.index('primary', null);
      case 'UNIQUE':
        this.next();
        this.acceptWord('KEY', 'INDEX');
        return this.index('unique', null);
      case 'KEY':
      case 'INDEX':
        this.next();
        return this.index('key', null);
      case 'FULLTEXT':
      case 'SPATIAL':
        this.next();
        this.acceptWord('KEY', 'INDEX');
        return this.index(token.text.toLowerCase() === 'fulltext' ? 'fulltext' : 'spatial', null);
      case 'FOREIGN':
      case 'CHECK':
        return this.skipDefinition();
      case 'PERIOD': // MariaDB: PERIOD FOR SYSTEM_TIME (start, end)
        return this.isWord(this.peek(1), ['FOR']) ? this.skipDefinition() : this.column();
      default:
        return this.column();
    }
  }

  private constraint(): void {
    this.next();
    const symbol = this.atWord('PRIMARY', 'UNIQUE', 'FOREIGN', 'CHECK') ? null : this.identifier('a constraint name');
    if (this.acceptWord('PRIMARY')) {
      this.expectWord('KEY');
      return this.index('primary', null);
    }
    if (this.acceptWord('UNIQUE')) {
      this.acceptWord('KEY', 'INDEX');
      return this.index('unique', symbol);
    }
    if (!this.atWord('FOREIGN', 'CHECK')) this.fail('PRIMARY KEY, UNIQUE, FOREIGN KEY or CHECK after CONSTRAINT');
    this.skipDefinition();
  }

  /** `symbol`: the CONSTRAINT name, which names a UNIQUE key that has no name of its own. */
  private index(kind: IndexDraft['kind'], symbol: string | null): void {
    this.indexes.push(readIndex(this, kind, symbol));
  }

  private column(): void {
    this.columns.push(readColumn(this, this.indexes));
  }

  // --- table ---

  /** `LIKE other` or `(LIKE other)`: the table copied, else null. */
  private likeSource(): string | null {
    if (this.acceptWord('LIKE')) return this.qualifiedName('the table to copy');
    if (!this.atPunct('(') || !this.isWord(this.peek(1), ['LIKE'])) return null;
    this.skip(2);
    const name = this.qualifiedName('the table to copy');
    this.expectPunct(')', '`)`');
    return name;
  }

  private copy(name: string, original: string, earlier: readonly TableDef[]): TableDef {
    const source = [...earlier].reverse().find((t) => t.name.toLowerCase() === original.toLowerCase());
    if (!source) this.problem(this.statement.start, `CREATE TABLE \`${name}\` LIKE \`${original}\`: \`${original}\` is not defined before it`);
    return { ...structuredClone(source), name, createSql: this.createSql() };
  }

  /**
   * Table options are read loosely: only the character set, collation and row format matter, the
   * rest (ENGINE, COMMENT, backquoted MariaDB engine options…) is stepped over.
   */
  private tableOptions(): void {
    for (let token = this.peek(); token.kind !== 'eof'; token = this.peek()) {
      if (this.atPunct('(')) {
        this.group();
        continue;
      }
      this.skip();
      const option = token.kind === 'word' ? token.text.toUpperCase() : '';
      // each partition's file holds rows like the table's: nothing after PARTITION BY changes them
      if (option === 'PARTITION') return;
      if (option === 'SELECT' || option === 'AS') {
        this.problem(token.start, 'CREATE TABLE … SELECT is not supported: its columns come from the query');
      }
      if (option === 'CHARSET' || (option === 'CHARACTER' && this.acceptWord('SET'))) this.charset = this.optionValue();
      else if (option === 'COLLATE') this.collation = this.optionValue();
      else if (option === 'ROW_FORMAT') this.rowFormat = this.optionValue().toUpperCase();
      else if (option === 'WITH' && this.atWord('SYSTEM')) this.versioned = true;
    }
  }

  private optionValue(): string {
    this.acceptPunct('=');
    return this.nameOrString('an option value');
  }

  private createSql(): string {
    return this.sql.slice(this.statement.start, this.statement.end).trimEnd();
  }

  private build(name: string): TableDef {
    const charset = normaliseCharset(this.charset) || charsetOfCollation(this.collation) || 'latin1';
    const table = { charset, collation: normaliseCollation(this.collation) };
    if (this.versioned) this.addRowPeriod();
    this.resolveKeyColumns();
    const columns = this.columns.map((c) => resolveColumn(c, table));
    return { name, columns, indexes: serverOrder(nameKeys(this.indexes), columns), rowFormat: this.rowFormat, charset, createSql: this.createSql() };
  }

  /**
   * A MariaDB system-versioned table stores every version of a row: it has ROW START / ROW END columns
   * (when the DDL does not name them, hidden ones `row_start`, `row_end` after the others, which
   * SHOW CREATE TABLE does not print), and ROW END is appended to the primary and unique keys, so the
   * clustered index record holds it after the key columns. History rows are real records: they are
   * decoded like current ones, told apart by `row_end` (a past time; current rows have the maximum).
   */
  private addRowPeriod(): void {
    let end = this.columns.find((c) => c.rowPeriod === 'end');
    if (!end) {
      const at = this.statement.start;
      const hidden = (name: string, rowPeriod: 'start' | 'end'): ColumnDraft => ({
        name, type: 'timestamp', unsigned: false, zerofill: false, nullable: false, length: 0, precision: 0, scale: 0, fsp: 6,
        charset: '', collation: '', values: [], generated: null, invisible: true, defaultSql: null, comment: '',
        at, binaryCollation: false, sizedLength: null, legacyTemporal: false, rowPeriod,
      });
      end = hidden('row_end', 'end');
      this.columns.push(hidden('row_start', 'start'), end);
    }
    const name = end.name.toLowerCase();
    for (const index of this.indexes) {
      if ((index.kind === 'primary' || index.kind === 'unique') && !index.parts.some((p) => !p.functional && p.name.toLowerCase() === name)) {
        index.parts.push({ name: end.name, prefix: 0, descending: false, functional: false, at: end.at });
      }
    }
  }

  /** Checks that key columns exist, spells them as the column is spelt, and makes PRIMARY KEY columns NOT NULL. */
  private resolveKeyColumns(): void {
    const primaries = this.indexes.filter((index) => index.kind === 'primary');
    if (primaries.length > 1) this.problem(primaries[1].at, 'the table has more than one PRIMARY KEY');
    const byName = new Map(this.columns.map((c) => [c.name.toLowerCase(), c]));
    for (const index of this.indexes) {
      for (const part of index.parts.filter((p) => !p.functional)) {
        const column = byName.get(part.name.toLowerCase());
        if (!column) this.problem(part.at, `the key names column \`${part.name}\`, which the table does not have`);
        part.name = column.name;
        if (index.kind === 'primary') column.nullable = false;
      }
    }
  }
}
