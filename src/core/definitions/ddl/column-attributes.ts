/**
 * A column definition of a CREATE TABLE: its name, its type (column-types.ts) and the attributes
 * after the type — NULL / NOT NULL, DEFAULT as written, character set and collation, generated
 * columns, visibility, COMMENT, keys declared inline — with those that change nothing stored
 * (CHECK, REFERENCES, SRID, storage hints…) read and dropped.
 */
import { readColumnType, type ColumnDraft } from './column-types.ts';
import { inlineKey, type IndexDraft } from './keys.ts';
import type { TokenCursor } from './token-cursor.ts';

/** Reads one attribute, after its first keyword; keys it declares are added to `keys`. */
type AttributeReader = (p: TokenCursor, column: ColumnDraft, keys: IndexDraft[]) => void;

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
  ['DEFAULT', (p, c) => { c.defaultSql = defaultValue(p); }],
  // ON UPDATE CURRENT_TIMESTAMP(6) has the syntax of a default value
  ['ON', (p) => { p.expectWord('UPDATE'); defaultValue(p); }],
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
  ['GENERATED', (p, c) => { p.expectWord('ALWAYS'); p.expectWord('AS'); generated(p, c); }],
  ['AS', (p, c) => generated(p, c)],
  ['VIRTUAL', (_p, c) => { c.generated = 'virtual'; }],
  ['STORED', (_p, c) => { c.generated = 'stored'; }],
  ['PERSISTENT', (_p, c) => { c.generated = 'stored'; }],
  ['VISIBLE', (_p, c) => { c.invisible = false; }],
  ['INVISIBLE', (_p, c) => { c.invisible = true; }],
  ['PRIMARY', (p, c, keys) => { p.expectWord('KEY'); keys.push(inlineKey('primary', c)); }],
  ['KEY', (_p, c, keys) => { keys.push(inlineKey('primary', c)); }],
  ['UNIQUE', (p, c, keys) => { p.acceptWord('KEY', 'INDEX'); keys.push(inlineKey('unique', c)); }],
  ['CHECK', (p) => check(p)],
  ['CONSTRAINT', (p) => {
    if (!p.atWord('CHECK')) p.identifier('a constraint name');
    p.expectWord('CHECK');
    check(p);
  }],
  ['REFERENCES', (p) => references(p)],
  ['SRID', (p) => { p.integer('an SRID number'); }],
  ['REF_SYSTEM_ID', (p) => { p.acceptPunct('='); p.integer('an SRID number'); }],
  ['COLUMN_FORMAT', (p) => { p.identifier('FIXED, DYNAMIC or DEFAULT'); }],
  ['STORAGE', (p) => { p.identifier('DISK, MEMORY or DEFAULT'); }],
  ['ENGINE_ATTRIBUTE', (p) => { p.acceptPunct('='); p.stringLiteral('a quoted attribute'); }],
  ['SECONDARY_ENGINE_ATTRIBUTE', (p) => { p.acceptPunct('='); p.stringLiteral('a quoted attribute'); }],
  ['COMPRESSED', (p) => { if (p.acceptPunct('=')) p.identifier('a compression method'); }],
  ['WITH', (p) => { p.expectWord('SYSTEM'); p.expectWord('VERSIONING'); }],
  ['WITHOUT', (p) => { p.expectWord('SYSTEM'); p.expectWord('VERSIONING'); }],
  ['SERIAL', (p, c, keys) => {
    p.expectWord('DEFAULT');
    p.expectWord('VALUE');
    c.nullable = false;
    keys.push(inlineKey('unique', c));
  }],
]);

/** A column definition, up to the `,` or `)` after it; keys it declares are added to `keys`. */
export function readColumn(p: TokenCursor, keys: IndexDraft[]): ColumnDraft {
  const at = p.peek().start;
  const name = p.identifier('a column name or a key definition');
  const column = readColumnType(p, name, at, keys);
  while (!p.atPunct(',') && !p.atPunct(')') && p.peek().kind !== 'eof') {
    const token = p.peek();
    const read = token.kind === 'word' ? COLUMN_ATTRIBUTES.get(token.text.toUpperCase()) : undefined;
    if (!read) p.fail(`an attribute of column \`${name}\`, \`,\` or \`)\``);
    p.skip();
    read(p, column, keys);
  }
  return column;
}

/** DEFAULT value (ON UPDATE too): a literal, a function call or a parenthesised expression, as written. */
function defaultValue(p: TokenCursor): string {
  const first = p.peek();
  if (p.atPunct('(')) {
    p.group();
  } else {
    if (!p.acceptPunct('-')) p.acceptPunct('+');
    const token = p.next();
    if (token.kind === 'word') {
      // introducers and typed literals: _utf8mb4'x', N'x', X'0F', b'101', DATE '2020-01-01'
      if (p.peek().kind === 'string') p.skip();
      else if (p.atPunct('(')) p.group(); // current_timestamp(6), now()
    } else if (token.kind === 'string' || token.kind === 'dquote') {
      while (p.peek().kind === 'string' || p.peek().kind === 'dquote') p.skip();
    } else if (token.kind !== 'number' && token.kind !== 'backtick') {
      p.fail('a default value', token);
    }
  }
  return p.sql.slice(first.start, p.previous().end);
}

/** After [GENERATED ALWAYS] AS: `(expr)`, or MariaDB's system-versioning ROW START / ROW END (stored). */
function generated(p: TokenCursor, column: ColumnDraft): void {
  if (p.acceptWord('ROW')) {
    column.rowPeriod = p.atWord('START') ? 'start' : 'end';
    p.expectWord('START', 'END');
    return;
  }
  p.group('the expression of the generated column in parentheses');
  column.generated = 'virtual';
}

/** CHECK (expr) [[NOT] ENFORCED] */
function check(p: TokenCursor): void {
  p.group('the CHECK condition in parentheses');
  if (p.atWord('NOT') && p.isWord(p.peek(1), ['ENFORCED'])) p.skip(2);
  else p.acceptWord('ENFORCED');
}

/** REFERENCES t (cols) [MATCH …] [ON DELETE|UPDATE action]… — read and dropped. */
function references(p: TokenCursor): void {
  p.qualifiedName('the referenced table');
  if (p.atPunct('(')) p.group();
  for (;;) {
    if (p.acceptWord('MATCH')) {
      p.identifier('FULL, PARTIAL or SIMPLE');
    } else if (p.atWord('ON') && p.isWord(p.peek(1), ['DELETE', 'UPDATE']) &&
      p.isWord(p.peek(2), ['RESTRICT', 'CASCADE', 'SET', 'NO'])) {
      const twoWords = p.isWord(p.peek(2), ['SET', 'NO']); // SET NULL, SET DEFAULT, NO ACTION
      p.skip(twoWords ? 4 : 3);
    } else {
      return;
    }
  }
}
