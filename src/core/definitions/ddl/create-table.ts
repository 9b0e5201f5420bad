/**
 * Table definitions from CREATE TABLE statements: SHOW CREATE TABLE output of MySQL 5.x–9.x and
 * MariaDB, hand-written DDL, and whole mysqldump / mariadb-dump files, where every statement that is
 * not a CREATE TABLE is stepped over without being tokenised.
 *
 * What the decoder needs is resolved here, the way the server resolves it: synonyms become one type,
 * every text column gets its effective character set, PRIMARY KEY columns become NOT NULL, unnamed
 * keys get the server's names and keys are listed in the server's order.
 */
import type { Column, ColumnType, IndexColumn, IndexDef, TableDef } from '../../schema.ts';
import { charsetOfCollation, maxBytesPerChar, normaliseCharset, normaliseCollation } from './charsets.ts';
import { identifierValue, lineAt, statements, stringValue, tokenize, type Statement, type Token } from './lexer.ts';

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

/**
 * The table an .ibd file holds: the one named like the file, compared exactly, then ignoring case,
 * then with undecodable escapes in the file name (see `fileNamePattern`) matching any character.
 * When a script defines the name twice the later definition wins, as it would on the server. Null
 * when nothing (or more than one name) matches.
 */
export function pickTable(tables: TableDef[], ibdFileName: string): TableDef | null {
  const { name, pattern } = fileNamePattern(ibdFileName);
  const lower = name.toLowerCase();
  const tests: (() => (table: TableDef) => boolean)[] = [
    () => (t) => t.name === name,
    () => (t) => t.name.toLowerCase() === lower,
    // Made only when the names do not match (a RegExp costs ~10 µs; 10,000 tables are listed at once).
    () => {
      const re = new RegExp(`^${pattern}$`, 'isu');
      return (t) => re.test(t.name);
    },
  ];
  for (const test of tests) {
    const found = tables.filter(test());
    if (found.length === 0) continue;
    return found.every((t) => t.name === found[0].name) ? found[found.length - 1] : null;
  }
  return null;
}

/**
 * The table name in an .ibd file name. MySQL writes names in its "filename" character set: ASCII
 * letters, digits and `_` as they are, other characters as `@` + 4 hex digits (`@002d` is '-'), or,
 * for accented and other letters, `@` + 2 characters from a server table (`@0p` is 'é'). Partitions
 * are `t#P#p0.ibd` (`t#p#p0.ibd` in MySQL 8.0). The 2-character escapes are not decoded: in
 * `pattern` (a regular expression's source) each stands for any one character.
 */
function fileNamePattern(fileName: string): { name: string; pattern: string } {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const table = base.replace(/\.ibd$/i, '').replace(/#p#.*$/is, '');
  let name = '';
  let pattern = '';
  for (const [, hex, letter, plain] of table.matchAll(/@([0-9a-f]{4})|@(..)|([^@]+|@)/gis)) {
    const text = hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : (plain ?? `@${letter}`);
    name += text;
    pattern += letter !== undefined ? '.' : text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  }
  return { name, pattern };
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

/** Type keywords and the type they declare; multi-word spellings are finished by `typeSynonym`. */
const TYPE_KEYWORDS = new Map<string, ColumnType>(Object.entries({
  tinyint: 'tinyint', int1: 'tinyint', smallint: 'smallint', int2: 'smallint',
  mediumint: 'mediumint', int3: 'mediumint', middleint: 'mediumint',
  int: 'int', integer: 'int', int4: 'int', bigint: 'bigint', int8: 'bigint', serial: 'bigint',
  decimal: 'decimal', dec: 'decimal', numeric: 'decimal', fixed: 'decimal',
  float: 'float', float4: 'float', double: 'double', float8: 'double', real: 'double',
  bit: 'bit', bool: 'bool', boolean: 'bool',
  date: 'date', time: 'time', datetime: 'datetime', timestamp: 'timestamp', year: 'year',
  char: 'char', character: 'char', nchar: 'char', national: 'char',
  varchar: 'varchar', varcharacter: 'varchar', nvarchar: 'varchar',
  binary: 'binary', varbinary: 'varbinary',
  tinytext: 'tinytext', text: 'text', mediumtext: 'mediumtext', longtext: 'longtext', long: 'mediumtext',
  tinyblob: 'tinyblob', blob: 'blob', mediumblob: 'mediumblob', longblob: 'longblob',
  enum: 'enum', set: 'set', json: 'json',
  geometry: 'geometry', point: 'point', linestring: 'linestring', polygon: 'polygon',
  multipoint: 'multipoint', multilinestring: 'multilinestring', multipolygon: 'multipolygon',
  geometrycollection: 'geometrycollection', geomcollection: 'geometrycollection',
  inet4: 'inet4', inet6: 'inet6', uuid: 'uuid', vector: 'vector',
} satisfies Record<string, ColumnType>));

/** Types that hold text in a character set; every other type stores bytes or numbers. */
const TEXT_TYPES = new Set<ColumnType>(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);

/** What a text type is with CHARACTER SET binary: the server rewrites the type so. */
const BINARY_TWIN = new Map<ColumnType, ColumnType>([
  ['char', 'binary'], ['varchar', 'varbinary'], ['tinytext', 'tinyblob'],
  ['text', 'blob'], ['mediumtext', 'mediumblob'], ['longtext', 'longblob'],
]);

const SIZED_FAMILIES: Partial<Record<ColumnType, ColumnType[]>> = {
  text: ['tinytext', 'text', 'mediumtext', 'longtext'],
  blob: ['tinyblob', 'blob', 'mediumblob', 'longblob'],
};

/**
 * A column as written, before the table options (which follow the columns) settle its charset:
 * `charset` and `collation` hold the column's own CHARACTER SET / COLLATE, '' when absent.
 */
interface ColumnDraft extends Column {
  /** Offset of the column name, for messages. */
  at: number;
  /** The BINARY attribute of text types: the `_bin` collation of the column's charset. */
  binaryCollation: boolean;
  /** M of TEXT(M) / BLOB(M), which picks the smallest type of the family that holds M characters. */
  sizedLength: number | null;
  /** MariaDB system versioning: GENERATED ALWAYS AS ROW START / ROW END. */
  rowPeriod: 'start' | 'end' | null;
}

interface KeyPart extends IndexColumn {
  /** A `(expr)` key part: `name` is the expression's text. */
  functional: boolean;
  at: number;
}

interface IndexDraft {
  kind: IndexDef['kind'];
  /** null until the server's name for an unnamed key is given. */
  name: string | null;
  parts: KeyPart[];
  at: number;
}

type AttributeReader = (parser: TableParser, column: ColumnDraft) => void;

/** After CHARACTER or CHAR: SET name. */
const readCharacterSet: AttributeReader = (p, c) => {
  p.expectWord('SET');
  c.charset = p.nameOrString('a character set name');
};

/** Column attributes, by their first keyword (the type itself is read before them). */
const COLUMN_ATTRIBUTES = new Map<string, AttributeReader>([
  ['NOT', (p, c) => {
    if (p.acceptWord('SECONDARY')) return;
    p.expectWord('NULL');
    c.nullable = false;
  }],
  ['NULL', (_p, c) => { c.nullable = true; }],
  ['DEFAULT', (p, c) => { c.defaultSql = p.defaultValue(); }],
  // ON UPDATE CURRENT_TIMESTAMP(6) has the syntax of a default value
  ['ON', (p) => { p.expectWord('UPDATE'); p.defaultValue(); }],
  ['AUTO_INCREMENT', () => {}],
  ['UNSIGNED', (_p, c) => { c.unsigned = true; }],
  ['SIGNED', () => {}],
  ['ZEROFILL', (_p, c) => { c.zerofill = c.unsigned = true; }],
  ['CHARACTER', readCharacterSet],
  ['CHAR', readCharacterSet],
  ['CHARSET', (p, c) => { c.charset = p.nameOrString('a character set name'); }],
  ['COLLATE', (p, c) => { c.collation = p.nameOrString('a collation name'); }],
  ['BINARY', (_p, c) => { c.binaryCollation = true; }],
  ['ASCII', (_p, c) => { c.charset = 'latin1'; }],
  ['UNICODE', (_p, c) => { c.charset = 'ucs2'; }],
  ['BYTE', (_p, c) => { c.charset = 'binary'; }],
  ['COMMENT', (p, c) => { c.comment = p.stringLiteral('a quoted comment'); }],
  ['GENERATED', (p, c) => { p.expectWord('ALWAYS'); p.expectWord('AS'); p.generated(c); }],
  ['AS', (p, c) => p.generated(c)],
  ['VIRTUAL', (_p, c) => { c.generated = 'virtual'; }],
  ['STORED', (_p, c) => { c.generated = 'stored'; }],
  ['PERSISTENT', (_p, c) => { c.generated = 'stored'; }],
  ['VISIBLE', (_p, c) => { c.invisible = false; }],
  ['INVISIBLE', (_p, c) => { c.invisible = true; }],
  ['PRIMARY', (p, c) => { p.expectWord('KEY'); p.inlineKey('primary', c); }],
  ['KEY', (p, c) => p.inlineKey('primary', c)],
  ['UNIQUE', (p, c) => { p.acceptWord('KEY', 'INDEX'); p.inlineKey('unique', c); }],
  ['CHECK', (p) => p.check()],
  ['CONSTRAINT', (p) => {
    if (!p.atWord('CHECK')) p.identifier('a constraint name');
    p.expectWord('CHECK');
    p.check();
  }],
  ['REFERENCES', (p) => p.references()],
  ['SRID', (p) => { p.integer('an SRID number'); }],
  ['REF_SYSTEM_ID', (p) => { p.acceptPunct('='); p.integer('an SRID number'); }],
  ['COLUMN_FORMAT', (p) => { p.identifier('FIXED, DYNAMIC or DEFAULT'); }],
  ['STORAGE', (p) => { p.identifier('DISK, MEMORY or DEFAULT'); }],
  ['ENGINE_ATTRIBUTE', (p) => { p.acceptPunct('='); p.stringLiteral('a quoted attribute'); }],
  ['SECONDARY_ENGINE_ATTRIBUTE', (p) => { p.acceptPunct('='); p.stringLiteral('a quoted attribute'); }],
  ['COMPRESSED', (p) => { if (p.acceptPunct('=')) p.identifier('a compression method'); }],
  ['WITH', (p) => { p.expectWord('SYSTEM'); p.expectWord('VERSIONING'); }],
  ['WITHOUT', (p) => { p.expectWord('SYSTEM'); p.expectWord('VERSIONING'); }],
  ['SERIAL', (p, c) => {
    p.expectWord('DEFAULT');
    p.expectWord('VALUE');
    c.nullable = false;
    p.inlineKey('unique', c);
  }],
]);

/** Reads one CREATE TABLE statement. Members that are not private serve COLUMN_ATTRIBUTES. */
class TableParser {
  private readonly tokens: Token[];
  private pos = 0;
  private readonly columns: ColumnDraft[] = [];
  private readonly indexes: IndexDraft[] = [];
  private charset = '';
  private collation = '';
  private rowFormat = '';
  /** WITH SYSTEM VERSIONING (MariaDB). */
  private versioned = false;

  constructor(
    private readonly sql: string,
    private readonly statement: Statement,
  ) {
    this.tokens = tokenize(sql, statement.start, statement.end);
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

  // --- tokens ---

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)];
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.pos++;
    return token;
  }

  private isWord(token: Token, words: string[]): boolean {
    return token.kind === 'word' && words.includes(token.text.toUpperCase());
  }

  atWord(...words: string[]): boolean {
    return this.isWord(this.peek(), words);
  }

  acceptWord(...words: string[]): boolean {
    if (!this.atWord(...words)) return false;
    this.pos++;
    return true;
  }

  expectWord(...words: string[]): void {
    if (!this.acceptWord(...words)) this.fail(words.map((w) => `\`${w}\``).join(' or '));
  }

  private atPunct(text: string): boolean {
    const token = this.peek();
    return token.kind === 'punct' && token.text === text;
  }

  acceptPunct(text: string): boolean {
    if (!this.atPunct(text)) return false;
    this.pos++;
    return true;
  }

  private expectPunct(text: string, expected: string): void {
    if (!this.acceptPunct(text)) this.fail(expected);
  }

  private fail(expected: string, token = this.peek()): never {
    const found = token.kind === 'eof' ? 'the end of the statement' : `\`${token.text.length > 40 ? `${token.text.slice(0, 40)}…` : token.text}\``;
    this.problem(token.start, `expected ${expected}, found ${found}`);
  }

  private problem(at: number, message: string): never {
    throw new Error(`line ${lineAt(this.sql, at)}: ${message}`);
  }

  // --- names and literals ---

  identifier(expected: string): string {
    const token = this.peek();
    if (token.kind !== 'word' && token.kind !== 'backtick' && token.kind !== 'dquote') this.fail(expected);
    this.pos++;
    return identifierValue(token);
  }

  /** `name` or `db`.`name`: the database part is dropped. */
  private qualifiedName(expected: string): string {
    const name = this.identifier(expected);
    return this.acceptPunct('.') ? this.identifier(expected) : name;
  }

  /** Charset and collation names may be quoted as strings too. */
  nameOrString(expected: string): string {
    const token = this.peek();
    if (token.kind !== 'string') return this.identifier(expected);
    this.pos++;
    return stringValue(token);
  }

  /** A quoted string; adjacent ones are one string, as in SQL. */
  stringLiteral(expected: string): string {
    const isString = (t: Token) => t.kind === 'string' || t.kind === 'dquote';
    if (!isString(this.peek())) this.fail(expected);
    let value = '';
    while (isString(this.peek())) value += stringValue(this.next());
    return value;
  }

  integer(expected: string): number {
    const token = this.peek();
    if (token.kind !== 'number' || !/^\d+$/.test(token.text)) this.fail(expected);
    this.pos++;
    return Number(token.text);
  }

  /** Reads a parenthesised group, whatever it holds, and returns the source range inside the parentheses. */
  private group(expected = '`(`'): { start: number; end: number } {
    const open = this.peek();
    this.expectPunct('(', expected);
    for (let depth = 1; ; ) {
      const token = this.next();
      if (token.kind === 'eof') this.fail('a closing `)`', token);
      if (token.kind !== 'punct') continue;
      if (token.text === '(') depth++;
      else if (token.text === ')' && --depth === 0) return { start: open.end, end: token.start };
    }
  }

  /** Steps to the `,` or `)` that ends the current definition (for clauses that change nothing we keep). */
  private skipDefinition(): void {
    let depth = 0;
    for (let token = this.peek(); token.kind !== 'eof'; token = this.peek()) {
      if (token.kind === 'punct' && depth === 0 && (token.text === ',' || token.text === ')')) return;
      if (token.kind === 'punct' && token.text === '(') depth++;
      if (token.kind === 'punct' && token.text === ')') depth--;
      this.pos++;
    }
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
  private index(kind: IndexDef['kind'], symbol: string | null): void {
    const at = this.peek().start;
    const name = this.atPunct('(') || this.atIndexType() ? null : this.identifier('a key name or `(`');
    if (this.atIndexType()) this.pos += 2;
    const parts = this.keyParts();
    this.skipDefinition(); // options: USING, KEY_BLOCK_SIZE, COMMENT, [IN]VISIBLE, IGNORED, WITH PARSER…
    this.indexes.push({ kind, name: kind === 'primary' ? 'PRIMARY' : (name ?? symbol), parts, at });
  }

  /** USING BTREE, or the old TYPE BTREE, before the key columns. */
  private atIndexType(): boolean {
    return this.atWord('USING', 'TYPE') && this.peek(1).kind === 'word';
  }

  private keyParts(): KeyPart[] {
    this.expectPunct('(', 'the key columns in parentheses');
    const parts: KeyPart[] = [];
    do parts.push(this.keyPart()); while (this.acceptPunct(','));
    this.expectPunct(')', 'a `,` or `)` in the key column list');
    return parts;
  }

  private keyPart(): KeyPart {
    const at = this.peek().start;
    const part: KeyPart = { name: '', prefix: 0, descending: false, functional: this.atPunct('('), at };
    if (part.functional) {
      const inner = this.group();
      part.name = this.sql.slice(inner.start, inner.end).trim();
    } else {
      part.name = this.identifier('a key column name');
      if (this.acceptPunct('(')) {
        part.prefix = this.integer(`a prefix length for \`${part.name}\``);
        this.expectPunct(')', '`)` after the prefix length');
      }
    }
    part.descending = this.acceptWord('DESC');
    if (!part.descending) this.acceptWord('ASC');
    return part;
  }

  /** A key declared on the column itself (`id INT PRIMARY KEY`, `UNIQUE`, SERIAL). */
  inlineKey(kind: 'primary' | 'unique', column: ColumnDraft): void {
    const part: KeyPart = { name: column.name, prefix: 0, descending: false, functional: false, at: column.at };
    this.indexes.push({ kind, name: kind === 'primary' ? 'PRIMARY' : null, parts: [part], at: column.at });
  }

  // --- columns ---

  private column(): void {
    const at = this.peek().start;
    const name = this.identifier('a column name or a key definition');
    const column = this.columnType(name, at);
    while (!this.atPunct(',') && !this.atPunct(')') && this.peek().kind !== 'eof') {
      const token = this.peek();
      const read = token.kind === 'word' ? COLUMN_ATTRIBUTES.get(token.text.toUpperCase()) : undefined;
      if (!read) this.fail(`an attribute of column \`${name}\`, \`,\` or \`)\``);
      this.pos++;
      read(this, column);
    }
    this.columns.push(column);
  }

  private columnType(name: string, at: number): ColumnDraft {
    const token = this.peek();
    const keyword = token.kind === 'word' ? token.text.toLowerCase() : '';
    const type = TYPE_KEYWORDS.get(keyword);
    if (type === undefined) this.fail(`a column type after \`${name}\``);
    this.pos++;
    const column: ColumnDraft = {
      name, type, unsigned: false, zerofill: false, nullable: true, length: 0, precision: 0, scale: 0, fsp: 0,
      charset: '', collation: '', values: [], generated: null, invisible: false, defaultSql: null, comment: '',
      at, binaryCollation: false, sizedLength: null, legacyTemporal: false, rowPeriod: null,
    };
    this.typeSynonym(keyword, column);
    if (type === 'enum' || type === 'set') column.values = this.valueList(name);
    else this.typeArguments(column);
    column.legacyTemporal = (type === 'time' || type === 'datetime' || type === 'timestamp') && this.legacyMarkFollows();
    return column;
  }

  /** Whether the comment right after the type marks the pre-5.6 temporal storage format. */
  private legacyMarkFollows(): boolean {
    const previous = this.tokens[this.pos - 1];
    const gap = this.sql.slice(previous.end, this.peek().start);
    return /\/\*\s*(mariadb-5\.3|5\.5 binary format)\s*\*\//i.test(gap);
  }

  /** Finishes multi-word type names and the synonyms that say more than a type. */
  private typeSynonym(keyword: string, column: ColumnDraft): void {
    switch (keyword) {
      case 'double':
        this.acceptWord('PRECISION');
        break;
      case 'char':
      case 'character':
        if (this.acceptWord('VARYING')) column.type = 'varchar';
        break;
      case 'national': {
        const varchar = this.atWord('VARCHAR', 'VARCHARACTER');
        this.expectWord('CHAR', 'CHARACTER', 'VARCHAR', 'VARCHARACTER');
        if (this.acceptWord('VARYING') || varchar) column.type = 'varchar';
        column.charset = 'utf8mb3';
        break;
      }
      case 'nchar':
        if (this.acceptWord('VARCHAR', 'VARCHARACTER', 'VARYING')) column.type = 'varchar';
        column.charset = 'utf8mb3';
        break;
      case 'nvarchar':
        column.charset = 'utf8mb3';
        break;
      case 'long':
        this.longType(column);
        break;
      case 'serial': // BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE
        column.unsigned = true;
        column.nullable = false;
        this.inlineKey('unique', column);
        break;
    }
  }

  /** LONG, LONG VARCHAR, LONG CHAR VARYING (MEDIUMTEXT) and LONG VARBINARY (MEDIUMBLOB). */
  private longType(column: ColumnDraft): void {
    if (this.acceptWord('VARBINARY')) column.type = 'mediumblob';
    else if (this.acceptWord('VARCHAR', 'VARCHARACTER')) return;
    else if (this.atWord('CHAR', 'CHARACTER') && this.isWord(this.peek(1), ['VARYING'])) this.pos += 2;
  }

  private valueList(name: string): string[] {
    this.expectPunct('(', `\`(\` and the values of \`${name}\``);
    const values: string[] = [];
    do values.push(this.stringLiteral(`a quoted value in the list of \`${name}\``));
    while (this.acceptPunct(','));
    this.expectPunct(')', `a \`,\` or \`)\` in the list of \`${name}\``);
    return values;
  }

  /** (M), (M,D), (p) or (fsp) after the type. */
  private typeArguments(column: ColumnDraft): void {
    const numbers: number[] = [];
    if (this.acceptPunct('(')) {
      do numbers.push(this.integer(`a number in the size of \`${column.name}\``));
      while (this.acceptPunct(','));
      this.expectPunct(')', `a \`,\` or \`)\` in the size of \`${column.name}\``);
    } else if (column.type === 'varchar' || column.type === 'varbinary') {
      this.fail(`\`(\` and a length after the type of \`${column.name}\``);
    }
    applyTypeArguments(column, numbers);
  }

  /** DEFAULT value (ON UPDATE too): a literal, a function call or a parenthesised expression, as written. */
  defaultValue(): string {
    const first = this.peek();
    if (this.atPunct('(')) {
      this.group();
    } else {
      if (!this.acceptPunct('-')) this.acceptPunct('+');
      const token = this.next();
      if (token.kind === 'word') {
        // introducers and typed literals: _utf8mb4'x', N'x', X'0F', b'101', DATE '2020-01-01'
        if (this.peek().kind === 'string') this.pos++;
        else if (this.atPunct('(')) this.group(); // current_timestamp(6), now()
      } else if (token.kind === 'string' || token.kind === 'dquote') {
        while (this.peek().kind === 'string' || this.peek().kind === 'dquote') this.pos++;
      } else if (token.kind !== 'number' && token.kind !== 'backtick') {
        this.fail('a default value', token);
      }
    }
    return this.sql.slice(first.start, this.tokens[this.pos - 1].end);
  }

  /** After [GENERATED ALWAYS] AS: `(expr)`, or MariaDB's system-versioning ROW START / ROW END (stored). */
  generated(column: ColumnDraft): void {
    if (this.acceptWord('ROW')) {
      column.rowPeriod = this.atWord('START') ? 'start' : 'end';
      this.expectWord('START', 'END');
      return;
    }
    this.group('the expression of the generated column in parentheses');
    column.generated = 'virtual';
  }

  /** CHECK (expr) [[NOT] ENFORCED] */
  check(): void {
    this.group('the CHECK condition in parentheses');
    if (this.atWord('NOT') && this.isWord(this.peek(1), ['ENFORCED'])) this.pos += 2;
    else this.acceptWord('ENFORCED');
  }

  /** REFERENCES t (cols) [MATCH …] [ON DELETE|UPDATE action]… — read and dropped. */
  references(): void {
    this.qualifiedName('the referenced table');
    if (this.atPunct('(')) this.group();
    for (;;) {
      if (this.acceptWord('MATCH')) {
        this.identifier('FULL, PARTIAL or SIMPLE');
      } else if (this.atWord('ON') && this.isWord(this.peek(1), ['DELETE', 'UPDATE']) &&
        this.isWord(this.peek(2), ['RESTRICT', 'CASCADE', 'SET', 'NO'])) {
        const twoWords = this.isWord(this.peek(2), ['SET', 'NO']); // SET NULL, SET DEFAULT, NO ACTION
        this.pos += twoWords ? 4 : 3;
      } else {
        return;
      }
    }
  }

  // --- table ---

  /** `LIKE other` or `(LIKE other)`: the table copied, else null. */
  private likeSource(): string | null {
    if (this.acceptWord('LIKE')) return this.qualifiedName('the table to copy');
    if (!this.atPunct('(') || !this.isWord(this.peek(1), ['LIKE'])) return null;
    this.pos += 2;
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
      this.pos++;
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

function applyTypeArguments(column: ColumnDraft, [first, second]: number[]): void {
  switch (column.type) {
    case 'tinyint':
    case 'smallint':
    case 'mediumint':
    case 'int':
    case 'bigint':
    case 'year':
      // The display width: only ZEROFILL (and YEAR(2)) change what SELECT shows.
      column.length = first ?? 0;
      break;
    case 'decimal':
      column.precision = first ?? 10;
      column.scale = second ?? 0;
      break;
    case 'float':
    case 'double':
      if (second !== undefined) {
        column.precision = first;
        column.scale = second;
      } else if (first > 24) {
        column.type = 'double'; // FLOAT(p) means DOUBLE from p = 25 on
      }
      break;
    case 'time':
    case 'datetime':
    case 'timestamp':
      column.fsp = first ?? 0;
      break;
    case 'char':
    case 'binary':
    case 'bit':
      column.length = first ?? 1;
      break;
    case 'varchar':
    case 'varbinary':
      column.length = first;
      break;
    case 'vector':
      column.length = first ?? 2048;
      break;
    case 'text':
    case 'blob':
      column.sizedLength = first ?? null;
      break;
  }
}

/** Settles type, charset and collation from the column's own clauses and the table defaults. */
function resolveColumn(draft: ColumnDraft, table: { charset: string; collation: string }): Column {
  const { type, charset, collation } = storage(draft, table);
  return {
    name: draft.name, type, unsigned: draft.unsigned, zerofill: draft.zerofill, nullable: draft.nullable,
    length: draft.length, precision: draft.precision, scale: draft.scale, fsp: draft.fsp, charset, collation,
    values: draft.values, generated: draft.generated, invisible: draft.invisible, defaultSql: draft.defaultSql,
    comment: draft.comment, legacyTemporal: draft.legacyTemporal,
  };
}

function storage(draft: ColumnDraft, table: { charset: string; collation: string }): Pick<Column, 'type' | 'charset' | 'collation'> {
  // MySQL stores JSON in its own binary format, MariaDB as utf8mb4_bin text: utf8mb4 is right for both
  if (draft.type === 'json') return { type: 'json', charset: 'utf8mb4', collation: 'utf8mb4_bin' };
  if (!TEXT_TYPES.has(draft.type)) return { type: sizedType(draft.type, draft.sizedLength), charset: 'binary', collation: '' };
  const charset = normaliseCharset(draft.charset) || charsetOfCollation(draft.collation) || table.charset;
  if (charset === 'binary') {
    return { type: sizedType(BINARY_TWIN.get(draft.type) ?? draft.type, draft.sizedLength), charset, collation: '' };
  }
  const collation = draft.collation ? normaliseCollation(draft.collation)
    : draft.binaryCollation ? `${charset}_bin`
    : charset === table.charset ? table.collation : '';
  const bytes = draft.sizedLength === null ? null : draft.sizedLength * maxBytesPerChar(charset);
  return { type: sizedType(draft.type, bytes), charset, collation };
}

/** TEXT(M) / BLOB(M): the smallest type of the family that holds M bytes. */
function sizedType(type: ColumnType, bytes: number | null): ColumnType {
  const family = SIZED_FAMILIES[type];
  if (!family || bytes === null) return type;
  return family[bytes < 2 ** 8 ? 0 : bytes < 2 ** 16 ? 1 : bytes < 2 ** 24 ? 2 : 3];
}

/** The server names an unnamed key after its first column (`functional_index` for an expression), adding _2, _3… on a clash. */
function nameKeys(drafts: IndexDraft[]): (IndexDraft & { name: string })[] {
  const used = new Set<string>();
  return drafts.map((draft) => {
    const name = draft.name ?? unusedName(draft.parts[0].functional ? 'functional_index' : draft.parts[0].name, used);
    used.add(name.toLowerCase());
    return { ...draft, name };
  });
}

function unusedName(base: string, used: Set<string>): string {
  if (!used.has(base.toLowerCase()) && base.toLowerCase() !== 'primary') return base;
  for (let n = 2; ; n++) if (!used.has(`${base}_${n}`.toLowerCase())) return `${base}_${n}`;
}

/**
 * Orders keys as the server does before it creates them (and as SHOW CREATE TABLE lists them):
 * unique keys first — those without nullable columns before the others, PRIMARY first among them,
 * then those without column prefixes — then the other keys with FULLTEXT last, declaration order
 * otherwise. InnoDB builds the indexes in this order, and without a PRIMARY KEY the first key, if
 * unique and NOT NULL, is the clustered index.
 */
function serverOrder(drafts: (IndexDraft & { name: string })[], columns: Column[]): IndexDef[] {
  const byName = new Map(columns.map((c) => [c.name, c]));
  const rank = (draft: IndexDraft, position: number): number[] => {
    const partColumns = draft.parts.map((p) => (p.functional ? undefined : byName.get(p.name)));
    if (draft.kind !== 'primary' && draft.kind !== 'unique') return [1, 0, 0, draft.kind === 'fulltext' ? 1 : 0, position];
    // a functional key part is a hidden generated column, nullable as far as we can tell
    const nullable = partColumns.some((c) => c === undefined || c.nullable);
    const prefixed = draft.parts.some((p, i) => p.prefix > 0 && isPartial(p.prefix, partColumns[i]));
    return [0, nullable ? 1 : 0, draft.kind === 'primary' ? 0 : 1, prefixed ? 1 : 0, position];
  };
  return drafts
    .map((draft, position) => ({ draft, rank: rank(draft, position) }))
    .sort((a, b) => compareRanks(a.rank, b.rank))
    .map(({ draft }) => ({
      name: draft.name,
      kind: draft.kind,
      columns: draft.parts.map(({ name, prefix, descending }) => ({ name, prefix, descending })),
    }));
}

/** A prefix shorter than the column (TEXT and BLOB columns have no length and are always cut). */
function isPartial(prefix: number, column: Column | undefined): boolean {
  return column === undefined || column.length === 0 || prefix < column.length;
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
