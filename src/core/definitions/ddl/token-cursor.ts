/**
 * A cursor over the tokens of one statement, with the reads every clause of a CREATE TABLE is made
 * of: keywords and punctuation expected or accepted, names, literals, parenthesised groups read
 * whole, and errors that name the line. The table parser extends it; the column and key readers
 * (column-types.ts, column-attributes.ts, keys.ts) take it as their argument.
 */
import { identifierValue, lineAt, stringValue, tokenize, type Token } from './lexer.ts';

export class TokenCursor {
  private readonly tokens: Token[];
  private pos = 0;

  /** The tokens of `sql` from `start` to `end`. */
  constructor(
    readonly sql: string,
    start: number,
    end: number,
  ) {
    this.tokens = tokenize(sql, start, end);
  }

  // --- tokens ---

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)];
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.pos++;
    return token;
  }

  /** The token read last. */
  previous(): Token {
    return this.tokens[this.pos - 1];
  }

  /** Steps over `count` tokens the caller has looked at. */
  skip(count = 1): void {
    this.pos += count;
  }

  isWord(token: Token, words: string[]): boolean {
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

  atPunct(text: string): boolean {
    const token = this.peek();
    return token.kind === 'punct' && token.text === text;
  }

  acceptPunct(text: string): boolean {
    if (!this.atPunct(text)) return false;
    this.pos++;
    return true;
  }

  expectPunct(text: string, expected: string): void {
    if (!this.acceptPunct(text)) this.fail(expected);
  }

  fail(expected: string, token = this.peek()): never {
    const found = token.kind === 'eof' ? 'the end of the statement' : `\`${token.text.length > 40 ? `${token.text.slice(0, 40)}…` : token.text}\``;
    this.problem(token.start, `expected ${expected}, found ${found}`);
  }

  protected problem(at: number, message: string): never {
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
  qualifiedName(expected: string): string {
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
  group(expected = '`(`'): { start: number; end: number } {
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
  skipDefinition(): void {
    let depth = 0;
    for (let token = this.peek(); token.kind !== 'eof'; token = this.peek()) {
      if (token.kind === 'punct' && depth === 0 && (token.text === ',' || token.text === ')')) return;
      if (token.kind === 'punct' && token.text === '(') depth++;
      if (token.kind === 'punct' && token.text === ')') depth--;
      this.pos++;
    }
  }
}
