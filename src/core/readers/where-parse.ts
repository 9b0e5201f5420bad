/**
 * A typed filter as a DBA types it after WHERE: conditions on columns joined by AND
 * (`salary > 100000 AND hired BETWEEN '2020-01-01' AND '2020-12-31' AND note IS NOT NULL`).
 * Parsed in the page (so a typo is said at once, naming where), evaluated in the workers by the
 * columns' types (where.ts). Each condition is one column against literals: `= <> != < <= > >=`,
 * `[NOT] BETWEEN a AND b`, `[NOT] IN (a, b, …)`, `[NOT] LIKE 'p%'`, `IS [NOT] NULL`. Literals are
 * quoted strings or numbers; no expressions, functions or OR (the filter says so rather than guess).
 */

export type WhereTest = '=' | '<>' | '<' | '<=' | '>' | '>=' | 'between' | 'not between' | 'in' | 'not in' | 'like' | 'not like' | 'null' | 'not null';

/**
 * One condition: output column `column` against `values` (none for the NULL tests, two for BETWEEN);
 * `numeric[i]`: value i was written as a number, not quoted (the server compares a FLOAT(M,D) with
 * a number to its decimals, with a quoted text exactly: where.ts).
 */
export interface WhereCondition {
  column: number;
  test: WhereTest;
  values: string[];
  numeric: boolean[];
}

/** A word, a quoted literal, a number, or punctuation. */
interface Token {
  kind: 'word' | 'quoted' | 'number' | 'op' | 'punct';
  text: string;
  at: number;
}

const TOKEN = /\s*(?:(`(?:[^`]|``)+`)|('(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*")|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|(<=|>=|<>|!=|[=<>])|([(),])|([A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*))/y;

function tokenize(input: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < input.length) {
    if (/^\s*$/.test(input.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(input);
    if (!m) throw new Error(`cannot read the condition at “${input.slice(at).trimStart().slice(0, 20)}”`);
    const start = at + (m[0].length - m[0].trimStart().length);
    if (m[1]) out.push({ kind: 'word', text: m[1].slice(1, -1).replace(/``/g, '`'), at: start });
    else if (m[2]) out.push({ kind: 'quoted', text: unquote(m[2]), at: start });
    else if (m[3]) out.push({ kind: 'number', text: m[3], at: start });
    else if (m[4]) out.push({ kind: 'op', text: m[4] === '!=' ? '<>' : m[4], at: start });
    else if (m[5]) out.push({ kind: 'punct', text: m[5], at: start });
    else out.push({ kind: 'word', text: m[6], at: start });
    at = TOKEN.lastIndex;
  }
  return out;
}

/** A quoted literal's text: doubled quotes and backslash escapes as the server reads them. */
function unquote(q: string): string {
  const mark = q[0];
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', Z: '\x1a' };
  return q.slice(1, -1).replace(mark === "'" ? /''|\\(.)/gs : /""|\\(.)/gs, (_all, ch: string | undefined) => {
    if (ch === undefined) return mark;
    // LIKE's own escapes (\% \_) stay escaped for the pattern, as the server keeps them.
    if (ch === '%' || ch === '_') return `\\${ch}`;
    return escapes[ch] ?? ch;
  });
}

/** The conditions of `input` over columns named `columns` (matched ignoring case); throws an Error saying what does not fit. */
export function parseWhere(input: string, columns: readonly string[]): WhereCondition[] {
  const tokens = tokenize(input);
  let i = 0;
  const peekWord = (w: string) => tokens[i]?.kind === 'word' && tokens[i].text.toUpperCase() === w;
  const expectWord = (w: string) => {
    if (!peekWord(w)) throw new Error(`expected ${w} ${where()}`);
    i++;
  };
  const where = () => (i < tokens.length ? `at “${tokens[i].text}”` : 'at the end');
  /** The literals of the condition being read, and whether each is a number. */
  let values: string[] = [];
  let numeric: boolean[] = [];
  const literal = (): void => {
    const t = tokens[i];
    if (t?.kind !== 'quoted' && t?.kind !== 'number') throw new Error(`expected a value (a number or a quoted text) ${where()}`);
    i++;
    values.push(t.text);
    numeric.push(t.kind === 'number');
  };
  const out: WhereCondition[] = [];
  for (;;) {
    const name = tokens[i];
    if (name?.kind !== 'word') throw new Error(`expected a column name ${where()}`);
    const column = columns.findIndex((c) => c.toLowerCase() === name.text.toLowerCase());
    if (column < 0) throw new Error(`no column is named ${name.text}`);
    i++;
    values = [];
    numeric = [];
    out.push({ column, test: test(), values, numeric });
    if (i >= tokens.length) return out;
    if (peekWord('OR')) throw new Error('OR is not offered: conditions are joined by AND');
    expectWord('AND');
  }

  function test(): WhereTest {
    const t = tokens[i];
    if (t?.kind === 'op') {
      i++;
      literal();
      return t.text as WhereTest;
    }
    if (peekWord('IS')) {
      i++;
      const not = peekWord('NOT');
      if (not) i++;
      expectWord('NULL');
      return not ? 'not null' : 'null';
    }
    const not = peekWord('NOT');
    if (not) i++;
    if (peekWord('BETWEEN')) {
      i++;
      literal();
      expectWord('AND');
      literal();
      return not ? 'not between' : 'between';
    }
    if (peekWord('LIKE')) {
      i++;
      literal();
      return not ? 'not like' : 'like';
    }
    if (peekWord('IN')) {
      i++;
      if (tokens[i]?.text !== '(') throw new Error(`expected ( ${where()}`);
      i++;
      literal();
      while (tokens[i]?.text === ',') {
        i++;
        literal();
      }
      if (tokens[i]?.text !== ')') throw new Error(`expected ) ${where()}`);
      i++;
      return not ? 'not in' : 'in';
    }
    throw new Error(`expected a comparison (=, <, >, BETWEEN, IN, LIKE, IS NULL) ${where()}`);
  }
}
