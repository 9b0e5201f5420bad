/**
 * The clustered index record layout of a table (dict0dict.cc, dict_index_build_internal_clust):
 * the key columns, then DB_TRX_ID and DB_ROLL_PTR, then every other stored column in table order.
 * The key is the PRIMARY KEY, else the first UNIQUE index whose columns are all NOT NULL, else a
 * hidden 6-byte DB_ROW_ID. Virtual generated columns are not stored; FULLTEXT adds a hidden FTS_DOC_ID.
 */
import { charsetInfo } from '../values/charset.ts';
import { columnStorage, type Storage } from '../values/column-storage.ts';
import { renderHex } from '../values/render.ts';
import { valueCheckFor } from '../values/value-check.ts';
import type { Column, IndexColumn, TableDef } from '../schema.ts';
import { checkedFields, type FieldChecks, type FieldSpec } from './field-spec.ts';
import type { InstantInfo } from './instant.ts';

export interface ClusteredLayout {
  fields: FieldSpec[];
  /** Key fields: what a node pointer record holds before the child page number. */
  nUnique: number;
  /** Nullable fields in the leaf record: the COMPACT null bitmap has one bit for each. */
  nNullable: number;
  /** The fields with a check (checkedFields): the decoder visits only these. */
  checked: FieldChecks;
  /** Output columns: every stored, non-virtual column in table order. */
  columns: Column[];
  /** The key fields (the first keyParts.length fields), for comparing keys: none on a DB_ROW_ID. */
  keyParts: KeyColumn[];
  /** How the key was chosen, for the summary. */
  keyKind: 'primary' | 'unique' | 'row_id';
  /**
   * Set for tables altered with ALGORITHM=INSTANT (instant.ts): which fields each record stores and
   * the defaults of those it lacks. `fields` is then in physical order, with dropped columns (out -1).
   */
  instant?: InstantInfo;
  /**
   * Set, to the index's name, when this is the layout of a secondary index (secondary-index.ts): its
   * records hold the index's columns and the clustered key, with no DB_TRX_ID nor DB_ROLL_PTR.
   */
  secondary?: string;
  /** The table's partialRecord: its records go on with fields the layout does not describe. */
  partialRecord?: string;
}

/** A key field's definition: its column, prefix and order, and the output column showing its value (its whole column's, for a prefix). */
export interface KeyColumn {
  column: Column;
  /** Characters of a prefix key part (bytes for binary strings); 0 for the whole column. */
  prefix: number;
  descending: boolean;
  out: number;
}

const systemField = (name: string, len: number): FieldSpec => ({
  name, out: -1, fixedLen: len, bigCol: false, nullable: false, render: renderHex, check: null,
});

/** The index InnoDB clusters on: PRIMARY, else the first all-NOT-NULL UNIQUE without prefixes. */
export function clusterKey(table: TableDef): { kind: ClusteredLayout['keyKind']; cols: IndexColumn[] } {
  const primary = table.indexes.find((i) => i.kind === 'primary');
  if (primary) return { kind: 'primary', cols: primary.columns };
  const byName = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]));
  const unique = table.indexes.find((i) => i.kind === 'unique' && i.columns.every((k) => {
    const c = byName.get(k.name.toLowerCase());
    return c !== undefined && !c.nullable && k.prefix === 0 && c.generated !== 'virtual';
  }));
  if (unique) return { kind: 'unique', cols: unique.columns };
  return { kind: 'row_id', cols: [] };
}

/** dict_index_add_col(): fixed columns longer than 768 bytes are laid out as variable-length ones. */
const DICT_MAX_FIXED_COL_LEN = 768;

export function storageOf(c: Column, redundant: boolean): Storage {
  const s = columnStorage(c, redundant);
  return s.fixedLen > DICT_MAX_FIXED_COL_LEN ? { fixedLen: 0, bigCol: true, render: s.render } : s;
}

/**
 * How a prefix key part (KEY (c(10))) is stored (dict_index_add_field with a prefix_len): at most
 * `prefix` characters' bytes when the column is fixed-size; the length bytes stay the column's own
 * (DATA_BIG_COL looks at the column, not the field).
 */
export function prefixStorage(c: Column, prefix: number, redundant: boolean): Omit<Storage, 'render'> {
  const prefixBytes = prefix * charsetInfo(c.charset).mbmaxlen;
  const whole = storageOf(c, redundant);
  const fixedLen = whole.fixedLen === 0 ? 0 : Math.min(whole.fixedLen, prefixBytes);
  return { fixedLen, bigCol: fixedLen === 0 && whole.bigCol };
}

export function clusteredLayout(table: TableDef, redundant: boolean): ClusteredLayout {
  const columns = table.columns.filter((c) => c.generated !== 'virtual');
  const outIndex = new Map(columns.map((c, i) => [c.name.toLowerCase(), i]));
  const spec = (c: Column, out: number): FieldSpec => ({ name: c.name, out, nullable: c.nullable, ...storageOf(c, redundant), check: valueCheckFor(c, redundant) });
  const key = clusterKey(table);
  const fields: FieldSpec[] = [];
  const keyParts: KeyColumn[] = [];
  const inKey = new Set<string>();
  for (const k of key.cols) {
    const name = k.name.toLowerCase();
    const i = outIndex.get(name);
    if (i === undefined) throw new Error(`the ${key.kind === 'primary' ? 'PRIMARY KEY' : 'UNIQUE key'} names column \`${k.name}\`, which the table does not have`);
    const c = columns[i];
    keyParts.push({ column: c, prefix: k.prefix, descending: k.descending, out: i });
    if (k.prefix > 0) {
      // A prefix key part holds only the first characters; the whole column follows with the rest.
      fields.push({ name: c.name, out: -1, nullable: false, ...prefixStorage(c, k.prefix, redundant), render: renderHex, check: null });
    } else {
      fields.push({ ...spec(c, i), nullable: false });
      inKey.add(name);
    }
  }
  if (key.kind === 'row_id') fields.push(systemField('DB_ROW_ID', 6));
  const nUnique = fields.length;
  fields.push(systemField('DB_TRX_ID', 6), systemField('DB_ROLL_PTR', 7));
  columns.forEach((c, i) => {
    if (!inKey.has(c.name.toLowerCase())) fields.push(spec(c, i));
  });
  // A FULLTEXT index makes InnoDB add a hidden FTS_DOC_ID BIGINT UNSIGNED column after the user's
  // columns, unless the table defines one itself.
  if (table.indexes.some((i) => i.kind === 'fulltext') && !outIndex.has('fts_doc_id')) fields.push(systemField('FTS_DOC_ID', 8));
  const layout: ClusteredLayout = { fields, nUnique, nNullable: fields.filter((f) => f.nullable).length, checked: checkedFields(fields), columns, keyParts, keyKind: key.kind };
  if (table.partialRecord !== undefined) layout.partialRecord = table.partialRecord;
  return layout;
}
