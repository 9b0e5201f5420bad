/**
 * The keys of a CREATE TABLE: key definitions read as drafts (table-level ones and those declared on
 * a column), then given the names the server gives unnamed keys and put in the order the server
 * creates them, which decides the clustered index of a table without a PRIMARY KEY.
 */
import type { Column, IndexColumn, IndexDef } from '../../schema.ts';
import type { TokenCursor } from './token-cursor.ts';

export interface KeyPart extends IndexColumn {
  /** A `(expr)` key part: `name` is the expression's text. */
  functional: boolean;
  at: number;
}

export interface IndexDraft {
  kind: IndexDef['kind'];
  /** null until the server's name for an unnamed key is given. */
  name: string | null;
  parts: KeyPart[];
  at: number;
}

/**
 * A key definition after its PRIMARY KEY / UNIQUE / KEY… keywords. `symbol`: the CONSTRAINT name,
 * which names a UNIQUE key that has no name of its own.
 */
export function readIndex(p: TokenCursor, kind: IndexDef['kind'], symbol: string | null): IndexDraft {
  const at = p.peek().start;
  const name = p.atPunct('(') || atIndexType(p) ? null : p.identifier('a key name or `(`');
  if (atIndexType(p)) p.skip(2);
  const parts = keyParts(p);
  p.skipDefinition(); // options: USING, KEY_BLOCK_SIZE, COMMENT, [IN]VISIBLE, IGNORED, WITH PARSER…
  return { kind, name: kind === 'primary' ? 'PRIMARY' : (name ?? symbol), parts, at };
}

/** USING BTREE, or the old TYPE BTREE, before the key columns. */
function atIndexType(p: TokenCursor): boolean {
  return p.atWord('USING', 'TYPE') && p.peek(1).kind === 'word';
}

function keyParts(p: TokenCursor): KeyPart[] {
  p.expectPunct('(', 'the key columns in parentheses');
  const parts: KeyPart[] = [];
  do parts.push(keyPart(p)); while (p.acceptPunct(','));
  p.expectPunct(')', 'a `,` or `)` in the key column list');
  return parts;
}

function keyPart(p: TokenCursor): KeyPart {
  const at = p.peek().start;
  const part: KeyPart = { name: '', prefix: 0, descending: false, functional: p.atPunct('('), at };
  if (part.functional) {
    const inner = p.group();
    part.name = p.sql.slice(inner.start, inner.end).trim();
  } else {
    part.name = p.identifier('a key column name');
    if (p.acceptPunct('(')) {
      part.prefix = p.integer(`a prefix length for \`${part.name}\``);
      p.expectPunct(')', '`)` after the prefix length');
    }
  }
  part.descending = p.acceptWord('DESC');
  if (!part.descending) p.acceptWord('ASC');
  return part;
}

/** A key declared on the column itself (`id INT PRIMARY KEY`, `UNIQUE`, SERIAL). */
export function inlineKey(kind: 'primary' | 'unique', column: { name: string; at: number }): IndexDraft {
  const part: KeyPart = { name: column.name, prefix: 0, descending: false, functional: false, at: column.at };
  return { kind, name: kind === 'primary' ? 'PRIMARY' : null, parts: [part], at: column.at };
}

/** The server names an unnamed key after its first column (`functional_index` for an expression), adding _2, _3… on a clash. */
export function nameKeys(drafts: IndexDraft[]): (IndexDraft & { name: string })[] {
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
export function serverOrder(drafts: (IndexDraft & { name: string })[], columns: Column[]): IndexDef[] {
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
