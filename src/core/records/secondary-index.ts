/**
 * The record layout of a secondary index (dict0dict.cc, dict_index_build_internal_non_clust): the
 * index's own fields in order (a prefix key part holds only its first characters), then the
 * clustered key's fields that the index does not already hold whole — the PRIMARY KEY's columns, the
 * promoted UNIQUE key's, or the hidden DB_ROW_ID. No DB_TRX_ID nor DB_ROLL_PTR. Node pointer records
 * hold every one of these fields, then the child page number (dict_index_get_n_unique_in_tree).
 * Virtual generated columns are stored here when indexed. Each stored column is an output column,
 * named as in the table, in field order; DB_ROW_ID is not output. A SPATIAL index's R-tree records
 * (gis0rtree.cc) hold the geometry's minimum bounding rectangle (32 bytes, variable-length in the
 * record header as the geometry column is; output as `MBR(g)`) then
 * the clustered key; its node pointers the rectangle and the child page.
 */
import { renderMbr } from '../values/geometry.ts';
import { renderHex } from '../values/render.ts';
import { valueCheckFor } from '../values/value-check.ts';
import type { Column, IndexColumn, IndexDef, TableDef } from '../schema.ts';
import { clusterKey, prefixStorage, storageOf, type ClusteredLayout, type KeyColumn } from './clustered-index.ts';
import { checkedFields, type FieldSpec } from './field-spec.ts';

/** The index of `table` named `name` (case aside), or an Error saying which indexes there are. */
export function indexNamed(table: TableDef, name: string): IndexDef {
  const index = table.indexes.find((i) => i.name.toLowerCase() === name.toLowerCase());
  if (!index) throw new Error(`the table has no index named \`${name}\` (its indexes: ${table.indexes.map((i) => i.name).join(', ') || 'none'})`);
  return index;
}

/**
 * Whether reading index `index` means reading the clustered index: the PRIMARY KEY, or the UNIQUE
 * key InnoDB clusters on when there is none.
 */
export function isClusteredIndex(table: TableDef, index: IndexDef): boolean {
  if (index.kind === 'primary') return true;
  const key = clusterKey(table);
  return key.kind === 'unique' && key.cols === index.columns;
}

function columnOf(table: TableDef, part: IndexColumn, index: string): Column {
  const c = table.columns.find((col) => col.name.toLowerCase() === part.name.toLowerCase());
  if (!c) throw new Error(`index \`${index}\` names column \`${part.name}\`, which the table does not have`);
  return c;
}

/** The layout of secondary index `name` of `table` (REDUNDANT records with `redundant`). */
export function secondaryLayout(table: TableDef, name: string, redundant: boolean): ClusteredLayout {
  const index = indexNamed(table, name);
  if (index.kind === 'fulltext') throw new Error(`\`${index.name}\` is a FULLTEXT index: it has no B-tree in the table's file (its words are kept in the FTS_*_INDEX_* tables' files)`);
  if (isClusteredIndex(table, index)) throw new Error(`\`${index.name}\` is the clustered index: read the table without naming an index`);
  const columns: Column[] = [];
  const prefixes: number[] = [];
  const fields: FieldSpec[] = [];
  const keyParts: KeyColumn[] = [];
  const whole = new Set<string>();
  const add = (c: Column, part: IndexColumn, nullable: boolean): void => {
    const out = columns.length;
    const prefix = part.prefix;
    columns.push(c);
    prefixes.push(prefix);
    keyParts.push({ column: c, prefix, descending: part.descending, out });
    if (prefix > 0) fields.push({ name: c.name, out, nullable, ...prefixStorage(c, prefix, redundant), render: storageOf(c, redundant).render, check: null });
    else {
      fields.push({ name: c.name, out, nullable, ...storageOf(c, redundant), check: valueCheckFor(c, redundant) });
      whole.add(c.name.toLowerCase());
    }
  };
  const spatial = index.kind === 'spatial';
  for (const part of index.columns) {
    const c = columnOf(table, part, index.name);
    if (!spatial) add(c, part, c.nullable);
    else {
      // An R-tree record holds the geometry's bounding rectangle, not the geometry: named MBR(g).
      const out = columns.length;
      columns.push({ ...c, name: `MBR(${c.name})` });
      prefixes.push(0);
      keyParts.push({ column: c, prefix: 0, descending: false, out });
      // A variable-length field (a geometry column's type has no fixed size), always of MBR_BYTES.
      fields.push({ name: c.name, out, nullable: false, fixedLen: 0, bigCol: false, render: renderMbr, check: null });
    }
  }
  const key = clusterKey(table);
  for (const part of key.cols) {
    const c = columnOf(table, part, 'PRIMARY');
    // A clustered key column the index holds whole is not stored twice (a prefix of it does not count).
    if (!whole.has(c.name.toLowerCase())) add(c, part, false);
  }
  if (key.kind === 'row_id') fields.push({ name: 'DB_ROW_ID', out: -1, fixedLen: 6, bigCol: false, nullable: false, render: renderHex, check: null });
  return {
    fields,
    // An R-tree's node pointer holds the MBR alone before the child page (DICT_INDEX_SPATIAL_NODEPTR_SIZE).
    nUnique: spatial ? 1 : fields.length,
    nNullable: fields.filter((f) => f.nullable).length,
    checked: checkedFields(fields),
    columns: distinctNames(columns, prefixes),
    keyParts,
    keyKind: key.kind,
    secondary: index.name,
  };
}

/**
 * The output columns, a prefix part renamed `c(10)` where its column also comes whole (a prefix of a
 * primary key column), so that no two output columns share a name.
 */
function distinctNames(columns: Column[], prefixes: readonly number[]): Column[] {
  const counts = new Map<string, number>();
  for (const c of columns) counts.set(c.name.toLowerCase(), (counts.get(c.name.toLowerCase()) ?? 0) + 1);
  return columns.map((c, i) => ((counts.get(c.name.toLowerCase()) ?? 0) > 1 && prefixes[i] > 0 ? { ...c, name: `${c.name}(${prefixes[i]})` } : c));
}
