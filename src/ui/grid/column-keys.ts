/**
 * Which keys each column of the grid is part of, for its header (GridHeader.svelte): the primary key
 * (or the UNIQUE NOT NULL key InnoDB clusters the rows on), and the other indexes by their names in
 * the definition, with the column's place in a composite key.
 */
import type { IndexDef, TableDef } from '../../core/schema.ts';

export interface ColumnKey {
  /** The index's name as the definition spells it ('PRIMARY' for the primary key). */
  name: string;
  kind: IndexDef['kind'];
  /** The column's place in the index (1-based), and how many columns the index has. */
  part: number;
  parts: number;
}

/** For each output column (by name), the indexes it is part of, the primary key first. */
export function columnKeys(table: TableDef | null, columns: readonly string[]): ColumnKey[][] {
  const out = columns.map((): ColumnKey[] => []);
  if (!table) return out;
  const at = new Map(columns.map((name, i) => [name.toLowerCase(), i]));
  const ordered = [...table.indexes].sort((a, b) => Number(b.kind === 'primary') - Number(a.kind === 'primary'));
  for (const index of ordered) {
    index.columns.forEach((c, k) => {
      const i = at.get(c.name.toLowerCase());
      if (i !== undefined) out[i].push({ name: index.name, kind: index.kind, part: k + 1, parts: index.columns.length });
    });
  }
  return out;
}

/** A key as its header mark reads: `PK`, or the index name, with the column's place in a composite key. */
export function keyLabel(key: ColumnKey): string {
  const name = key.kind === 'primary' ? 'PK' : key.name;
  return key.parts > 1 ? `${name} ${key.part}/${key.parts}` : name;
}

/** A key in words, for the header's tooltip. */
export function keyTitle(key: ColumnKey): string {
  const what = { primary: 'primary key', unique: 'unique key', key: 'index', fulltext: 'fulltext index', spatial: 'spatial index' }[key.kind];
  const name = key.kind === 'primary' ? what : `${what} ${key.name}`;
  return key.parts > 1 ? `${name} (column ${key.part} of ${key.parts})` : name;
}
