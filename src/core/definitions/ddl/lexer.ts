/**
 * A MySQL/MariaDB lexer for SQL scripts (mysqldump output, SHOW CREATE TABLE text).
 *
 * Two speeds: `statements()` only finds where statements start and end, stepping over strings and
 * comments one character at a time without building tokens (dumps are mostly huge INSERTs that
 * nobody needs tokenised); `tokenize()` then turns the few statements worth reading into tokens.
 *
 * Comments follow the server: `# …`, `-- …` (the dashes must be followed by a blank or control
 * character), `/* … *\/`. The content of the versioned comments `/*!NNNNN … *\/` and `/*M!NNNNNN … *\/`
 * is code — only their markers are skipped — because mysqldump and SHOW CREATE TABLE put real table
 * syntax in them (`/*!50100 PARTITION BY …*\/`, `/*!80023 INVISIBLE *\/`).
 */

export type TokenKind =
  | 'word' // unquoted identifier, keyword, or a number glued to letters (0x1F, 1e5x)
  | 'backtick' // `identifier`
  | 'dquote' // "string", or an identifier under ANSI_QUOTES: the parser decides from context
  | 'string' // 'string'
  | 'number' // 12, 1.5, .5, 1e-3
  | 'punct' // any other single character
  | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** The token exactly as written, quotes included. */
  readonly text: string;
  /** Offsets in the whole SQL text. */
  readonly start: number;
  readonly end: number;
}

export interface Statement {
  /** Offset of the statement's first token. */
  start: number;
  /** Offset where its delimiter (or the text) ends it. */
  end: number;
  /** The statement begins inside a `/*!…*\/` comment. */
  conditional: boolean;
}

const TAB = 9, SPACE = 32, DQUOTE = 34, HASH = 35, QUOTE = 39, STAR = 42, DASH = 45;
const DOT = 46, SLASH = 47, BACKSLASH = 92, BACKTICK = 96, LOWER_E = 101, UPPER_E = 69;
const UPPER_M = 77, BANG = 33, PLUS = 43, BOM = 0xfeff;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Characters of unquoted identifiers: ASCII letters, digits, `_`, `$` and anything non-ASCII. */
function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 95 || c === 36 || c >= 128;
}

/** Blanks, and the byte-order mark some editors put at the start of a file. */
function isBlank(c: number): boolean {
  return c === SPACE || (c >= TAB && c <= 13) || c === BOM;
}

/** The mysql client command that changes the statement delimiter; the rest of its line is ignored. */
const DELIMITER_COMMAND = /delimiter[ \t]+(\S+)[^\n]*/iy;

class Scanner {
  /** Inside a `/*!…*\/` comment, whose closing `*\/` is therefore trivia rather than an error. */
  conditional = false;

  constructor(
    readonly sql: string,
    public pos: number,
    readonly end: number,
  ) {}

  private code(at: number): number {
    return at < this.end ? this.sql.charCodeAt(at) : NaN;
  }

  /** Moves over blanks, comments and conditional-comment markers. */
  skipTrivia(): void {
    while (this.pos < this.end) {
      const c = this.sql.charCodeAt(this.pos);
      if (isBlank(c)) this.pos++;
      else if (!this.skipComment(c)) return;
    }
  }

  /** If a comment or a conditional-comment marker starts at `pos` (whose code is `c`), moves past it. */
  skipComment(c: number): boolean {
    const next = this.code(this.pos + 1);
    if (c === HASH || (c === DASH && next === DASH && !(this.code(this.pos + 2) > SPACE))) {
      const eol = this.sql.indexOf('\n', this.pos);
      this.pos = eol < 0 || eol > this.end ? this.end : eol + 1;
      return true;
    }
    if (c === SLASH && next === STAR) {
      this.skipBlockComment();
      return true;
    }
    if (c === STAR && next === SLASH && this.conditional) {
      this.conditional = false;
      this.pos += 2;
      return true;
    }
    return false;
  }

  private skipBlockComment(): void {
    let p = this.pos + 2;
    if (this.code(p) === UPPER_M) p++;
    if (this.code(p) === BANG) {
      p++;
      while (isDigit(this.code(p))) p++;
      // MariaDB dumps open with `/*M!999999\- enable the sandbox mode */`: a client command, not SQL
      if (this.code(p) !== BACKSLASH) {
        this.conditional = true;
        this.pos = p;
        return;
      }
    }
    const close = this.sql.indexOf('*/', this.pos + 2);
    this.pos = close < 0 || close + 2 > this.end ? this.end : close + 2;
  }

  /** Moves past the quoted string or identifier starting at `pos`; an unterminated one runs to the end. */
  skipQuoted(quote: number): void {
    let p = this.pos + 1;
    while (p < this.end) {
      const c = this.sql.charCodeAt(p);
      if (c === BACKSLASH && quote !== BACKTICK) p += 2;
      else if (c !== quote) p++;
      else if (this.code(p + 1) === quote) p += 2; // doubled quote stands for itself
      else {
        this.pos = p + 1;
        return;
      }
    }
    this.pos = this.end;
  }

  /** Moves to the start of the next `delimiter` outside strings and comments (or the end) and returns that offset. */
  skipStatement(delimiter: string): number {
    const first = delimiter.charCodeAt(0);
    const { sql, end } = this;
    while (this.pos < end) {
      const c = sql.charCodeAt(this.pos);
      if (c === first && sql.startsWith(delimiter, this.pos)) return this.pos;
      if (c === QUOTE || c === DQUOTE || c === BACKTICK) this.skipQuoted(c);
      else if (!((c === HASH || c === DASH || c === SLASH || c === STAR) && this.skipComment(c))) this.pos++;
    }
    return end;
  }

  /** At a statement start: reads the mysql client's `DELIMITER xx` command and returns `xx`, else null. */
  readDelimiterCommand(): string | null {
    DELIMITER_COMMAND.lastIndex = this.pos;
    const found = DELIMITER_COMMAND.exec(this.sql);
    if (!found) return null;
    this.pos = DELIMITER_COMMAND.lastIndex;
    return found[1];
  }

  readToken(): Token {
    this.skipTrivia();
    const start = this.pos;
    if (start >= this.end) return { kind: 'eof', text: '', start: this.end, end: this.end };
    const c = this.sql.charCodeAt(start);
    let kind: TokenKind;
    if (c === QUOTE || c === DQUOTE || c === BACKTICK) {
      this.skipQuoted(c);
      kind = c === QUOTE ? 'string' : c === DQUOTE ? 'dquote' : 'backtick';
    } else if (isDigit(c) || (c === DOT && isDigit(this.code(start + 1)) && !isIdentChar(this.sql.charCodeAt(start - 1)))) {
      kind = this.readNumber();
    } else if (isIdentChar(c)) {
      this.readWord();
      kind = 'word';
    } else {
      this.pos++;
      kind = 'punct';
    }
    return { kind, text: this.sql.slice(start, this.pos), start, end: this.pos };
  }

  private readWord(): void {
    while (isIdentChar(this.code(this.pos))) this.pos++;
  }

  /** Reads digits, fraction and exponent; digits glued to letters (`0x1F`, `1abc`) make a word. */
  private readNumber(): TokenKind {
    while (isDigit(this.code(this.pos))) this.pos++;
    if (this.code(this.pos) === DOT && isDigit(this.code(this.pos + 1))) {
      this.pos++;
      while (isDigit(this.code(this.pos))) this.pos++;
    }
    const e = this.code(this.pos);
    if (e === LOWER_E || e === UPPER_E) {
      let p = this.pos + 1;
      if (this.code(p) === PLUS || this.code(p) === DASH) p++;
      if (isDigit(this.code(p))) {
        this.pos = p;
        while (isDigit(this.code(this.pos))) this.pos++;
      }
    }
    if (!isIdentChar(this.code(this.pos))) return 'number';
    this.readWord();
    return 'word';
  }
}

/**
 * Every statement of a script, honouring the mysql client's `DELIMITER` command (so procedure and
 * trigger bodies stay in one piece). Linear in the text length.
 */
export function* statements(sql: string): Generator<Statement> {
  const scanner = new Scanner(sql, 0, sql.length);
  let delimiter = ';';
  for (;;) {
    scanner.skipTrivia();
    if (scanner.pos >= sql.length) return;
    const start = scanner.pos;
    const conditional = scanner.conditional;
    const newDelimiter = scanner.readDelimiterCommand();
    if (newDelimiter !== null) {
      delimiter = newDelimiter;
      continue;
    }
    const end = scanner.skipStatement(delimiter);
    scanner.pos = Math.min(end + delimiter.length, sql.length);
    if (end > start) yield { start, end, conditional };
  }
}

/** The tokens of `sql[start, end)`, at most `limit` of them, always followed by one 'eof' token. */
export function tokenize(sql: string, start: number, end: number, limit = Infinity): Token[] {
  const scanner = new Scanner(sql, start, end);
  const tokens: Token[] = [];
  for (;;) {
    const token = scanner.readToken();
    if (token.kind === 'eof' || tokens.length === limit) {
      tokens.push({ kind: 'eof', text: '', start: token.start, end: token.start });
      return tokens;
    }
    tokens.push(token);
  }
}

const ESCAPES: Record<string, string> = { '0': '\0', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a' };

/** The value of a quoted string token: backslash escapes and doubled quotes resolved. */
export function stringValue(token: Token): string {
  const quote = token.text[0];
  return token.text.slice(1, -1).replace(/\\(.)|(['"])\2/gs, (all, escaped: string | undefined, doubled: string | undefined) => {
    if (doubled !== undefined) return doubled === quote ? doubled : all;
    const c = escaped as string;
    // The server keeps the backslash of \% and \_ (they are LIKE escapes)
    if (c === '%' || c === '_') return all;
    return ESCAPES[c] ?? c;
  });
}

/** The name an identifier token stands for: quotes removed, doubled quote characters undoubled. */
export function identifierValue(token: Token): string {
  if (token.kind === 'backtick') return token.text.slice(1, -1).replaceAll('``', '`');
  if (token.kind === 'dquote') return token.text.slice(1, -1).replaceAll('""', '"');
  return token.text;
}

/** 1-based line number of an offset. */
export function lineAt(sql: string, offset: number): number {
  let line = 1;
  for (let nl = sql.indexOf('\n'); nl >= 0 && nl < offset; nl = sql.indexOf('\n', nl + 1)) line++;
  return line;
}
