/**
 * MySQL 8.0's instant columns (8.0.12+ instant ADD, 8.0.29+ row versions): the clustered layout
 * completed from the SDI's column se_private_data, or from a CREATE TABLE alone (ddlInstantLayout).
 * The record format is described in instant.ts.
 */
import type { Column } from '../schema.ts';
import { columnStorage } from '../values/column-storage.ts';
import { renderHex } from '../values/render.ts';
import type { ClusteredLayout } from './clustered-index.ts';
import { checkedFields, type FieldSpec } from './field-spec.ts';
import { InstantInfo, type InstantDefault } from './instant.ts';

/** The parts of an SDI column this needs (dd::Column JSON). */
export interface MysqlInstantColumn {
  name: string;
  /** se_private_data: `version_added`, `version_dropped`, `physical_pos`, `default` (hex), `default_null`. */
  se: ReadonlyMap<string, string>;
  /** For dropped columns, which are not in the table definition: how the column is stored. */
  column?: Column;
  nullable: boolean;
}

export interface MysqlInstantTable {
  /** Table se_private_data `instant_col` (8.0.12-8.0.28): user columns before the first instant ADD. */
  instantCols: number | null;
  /** Every non-virtual column, including dropped ones, in SDI order. */
  columns: MysqlInstantColumn[];
}

const hexBytes = (h: string): Uint8Array => {
  const b = new Uint8Array(h.length >> 1);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return b;
};

/**
 * The layout of a MySQL 8.0 table with instant columns, from its SDI metadata (null when the table
 * has none). Fields are put in physical order (physical_pos) when the table has row versions.
 */
export function mysqlInstantLayout(layout: ClusteredLayout, table: MysqlInstantTable): ClusteredLayout | null {
  const versioned = table.columns.some((c) => c.se.has('version_added') || c.se.has('version_dropped'));
  if (!versioned && table.instantCols === null) return null;
  const byName = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]));
  const keyAndSystem = layout.fields.slice(0, layout.nUnique + 2);
  let rest = layout.fields.slice(layout.nUnique + 2);
  // Dropped columns are still stored (as hidden fields) in the records written before the drop.
  for (const c of table.columns) {
    if (!c.se.has('version_dropped')) continue;
    if (!c.column) throw new Error(`dropped column \`${c.name}\` has no type information`);
    const s = columnStorage(c.column, false);
    rest.push({ name: c.name, out: -1, nullable: c.nullable, fixedLen: s.fixedLen > 768 ? 0 : s.fixedLen, bigCol: s.fixedLen > 768 || s.bigCol, render: renderHex, check: null });
  }
  const meta = (f: FieldSpec): MysqlInstantColumn | undefined => byName.get(f.name.toLowerCase());
  if (versioned) {
    const pos = (f: FieldSpec): number => Number(meta(f)?.se.get('physical_pos') ?? Number.MAX_SAFE_INTEGER);
    rest = [...rest].sort((a, b) => pos(a) - pos(b));
  }
  const fields = [...keyAndSystem, ...rest];
  const defaults: InstantDefault[] = fields.map((f) => {
    const m = meta(f);
    if (!m || m.se.has('default_null')) return null;
    const d = m.se.get('default');
    return d !== undefined ? { bytes: hexBytes(d) } : null;
  });
  let versions: { added: number; dropped: number }[] | null = null;
  let nCore: number;
  if (versioned) {
    versions = fields.map((f) => {
      const m = meta(f);
      return { added: Number(m?.se.get('version_added') ?? 0), dropped: Number(m?.se.get('version_dropped') ?? 0) };
    });
    nCore = versions.filter((v) => v.added === 0).length;
  } else {
    // instant_col counts the table's columns before the first instant ADD; the key columns are among them.
    const keyColumns = layout.fields.slice(0, layout.nUnique).filter((f) => f.out >= 0).length;
    nCore = layout.nUnique + 2 + (table.instantCols ?? 0) - keyColumns;
  }
  const nullableCore = versions ? fields.filter((f, i) => f.nullable && versions![i].added === 0).length : fields.slice(0, nCore).filter((f) => f.nullable).length;
  const instant = new InstantInfo('mysql', fields, nCore, (nullableCore + 7) >> 3, defaults, versions);
  return { ...layout, fields, nNullable: fields.filter((f) => f.nullable).length, checked: checkedFields(fields), instant };
}

/**
 * Without the SDI (a CREATE TABLE alone): `nCore` fields are the ones every record has, and the
 * others show their DDL DEFAULT when a record lacks them. The caller must know nCore (e.g. from
 * the record counts of the first page); the defaults are the DEFAULT clause's text, unquoted.
 */
export function ddlInstantLayout(layout: ClusteredLayout, nCore: number): ClusteredLayout {
  const defaults: InstantDefault[] = layout.fields.map((f) => {
    const c = f.out >= 0 ? layout.columns[f.out] : null;
    const sql = c?.defaultSql ?? null;
    if (sql === null || /^null$/i.test(sql)) return null;
    const m = /^'((?:[^']|'')*)'$/.exec(sql);
    return { text: m ? m[1].replace(/''/g, "'") : sql };
  });
  const nullable = layout.fields.slice(0, nCore).filter((f) => f.nullable).length;
  return { ...layout, instant: new InstantInfo('mysql', layout.fields, nCore, (nullable + 7) >> 3, defaults) };
}
