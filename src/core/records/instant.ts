/**
 * Tables altered with ALGORITHM=INSTANT: records no longer all have the fields the table definition
 * gives, so the clustered index layout is completed with what the file records about the ALTERs.
 *
 * MariaDB 10.3+ (btr0cur.cc btr_cur_instant_init_low, rem0rec.cc, dict0mem.cc):
 *  - the clustered index root has page type 18 (FIL_PAGE_TYPE_INSTANT; Tablespace presents it as an
 *    INDEX page) and PAGE_INSTANT (page header bytes 12-13, above the 3 direction bits) gives
 *    n_core_fields: the fields every record has;
 *  - the first record of the leftmost leaf is a hidden metadata record (info bit MIN_REC, status
 *    REC_STATUS_INSTANT): its fields beyond n_core_fields hold the default values of the added
 *    columns;
 *  - a COMPACT record with status REC_STATUS_INSTANT (4) stores after its 5-byte header the number of
 *    fields it has beyond n_core_fields, minus one (1 byte, or 2 when ≥ 128); an ordinary record has
 *    exactly n_core_fields, with a null bitmap sized for them; REDUNDANT records give their field
 *    count in the header;
 *  - 10.4+ instant DROP COLUMN and ADD COLUMN ... FIRST/AFTER: the metadata record is also delete-
 *    marked and carries, right after DB_ROLL_PTR, a 20-byte reference to a BLOB page holding the
 *    physical order of the non-key fields: a 4-byte count, then 2 bytes per field, either the index of
 *    the table column it holds (bits 0-9) or, with bit 15 set, a dropped column's storage (bit 14
 *    NOT NULL; bits 0-9: 0 variable ≤ 255 bytes, 1 variable longer, else fixed length + 1). Dropped
 *    columns stay in older records (skipped); added columns are appended physically. The root's
 *    infimum and supremum are then zero, supremum byte 7 giving the null bitmap size of ordinary records.
 *
 * MySQL 8.0 (from the documented record format; see the README): records with info bit 0x80
 * (8.0.12-8.0.28 instant ADD) store their field count after the header (1 byte, or 2 with bit 0x80 of
 * the first); records with info bit 0x40 (8.0.29+ row versions) store their row version (1 byte),
 * and hold the fields added at or before that version and not dropped at or before it, in physical
 * order. Versions, physical positions and defaults come from the SDI's column se_private_data.
 */
import { readExternValue } from '../pages/blob-page.ts';
import { checkedFields, columnStorage, type ClusteredLayout, type FieldChecks, type FieldSpec } from './clustered-index.ts';
import { IbdError } from '../errors.ts';
import { FIL_NULL, FIL_PAGE_DATA, FIL_PAGE_TYPE, PageType, u16, u32 } from '../pages/fil-header.ts';
import {
  compactInfoBits, compactStatus, PAGE_HEADER, PAGE_LEVEL, PAGE_NEW_INFIMUM, PAGE_NEW_SUPREMUM, PAGE_OLD_INFIMUM, PAGE_OLD_SUPREMUM, recordOrigins,
  redundantInfoBits, REC_INFO_DELETED, REC_INFO_MIN_REC,
} from '../pages/index-page.ts';
import { compactChildPage, redundantChildPage } from './record.ts';
import type { Column } from '../schema.ts';
import { readSdiRecords } from '../btree/sdi-pages.ts';
import { parseKeyValues, sdiTableDef, type DdTable } from '../definitions/sdi/sdi-table.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';
import { renderHex } from '../values/render.ts';

/** PAGE_INSTANT (MariaDB): shares 2 bytes with PAGE_DIRECTION_B. */
const PAGE_INSTANT = 12;
const TRX_ROLL_LEN = 13;
const FIELD_REF_SIZE = 20;
const DROPPED = 0x8000;
const DROPPED_NOT_NULL = 0x4000;
const FIELD_IND = 0x3ff;
/** MariaDB record status of the metadata record and of records with added fields. */
const REC_STATUS_INSTANT = 4;

/** The value shown for a field a record does not store: its bytes, text (a DDL DEFAULT), or SQL NULL. */
export type InstantDefault = { bytes: Uint8Array } | { text: string } | null;

/** Which fields a record stores, in order, and the size of its null bitmap. */
export interface RecordShape {
  fields: Int32Array;
  nullBytes: number;
  /** The stored fields with a check (FieldSpec.check). */
  checked: FieldChecks;
  /** Output fields (out ≥ 0) the record does not store: they get their instant default. */
  absent: Int32Array;
}

/**
 * What the decoder needs about instant ALTERs, attached to ClusteredLayout.instant. Record shapes are
 * computed once per field count or row version and cached.
 */
export class InstantInfo {
  private readonly shapes = new Map<string, RecordShape>();

  constructor(
    readonly kind: 'mariadb' | 'mysql',
    readonly fields: readonly FieldSpec[],
    /** Fields every record has (MariaDB n_core_fields; MySQL: the fields of records without flags). */
    readonly nCore: number,
    /** Null bitmap bytes of a record without instant information. */
    readonly nCoreNullBytes: number,
    /** Per field index: the value shown when a record lacks the field. */
    readonly defaults: readonly InstantDefault[],
    /** MySQL 8.0.29+: per field index, the row versions it was added and dropped in (0 = never). */
    readonly versions: readonly { added: number; dropped: number }[] | null = null,
  ) {}

  /** Null bitmap bytes of node pointer records: they hold key fields only, with the core bitmap. */
  get nodePtrNullBytes(): number {
    return this.nCoreNullBytes;
  }

  private shape(key: string, present: (i: number) => boolean, nullBytes?: number): RecordShape {
    let s = this.shapes.get(key);
    if (!s) {
      const fields: number[] = [];
      const absent: number[] = [];
      let nullable = 0;
      this.fields.forEach((f, i) => {
        if (present(i)) {
          fields.push(i);
          if (f.nullable) nullable++;
        } else if (f.out >= 0) {
          absent.push(i);
        }
      });
      s = { fields: Int32Array.from(fields), nullBytes: nullBytes ?? (nullable + 7) >> 3, checked: checkedFields(this.fields, fields), absent: Int32Array.from(absent) };
      this.shapes.set(key, s);
    }
    return s;
  }

  /** A record storing the first `n` fields (MariaDB; MySQL records with the instant bit). */
  prefix(n: number): RecordShape {
    if (n > this.fields.length) throw new RangeError(`the record has ${n} fields, the table at most ${this.fields.length}`);
    return this.shape(`n${n}`, (i) => i < n);
  }

  /** A record without instant information. */
  core(): RecordShape {
    if (this.versions) return this.version(0);
    return this.shape('core', (i) => i < this.nCore, this.nCoreNullBytes);
  }

  /** A MySQL record of row version `v`. */
  version(v: number): RecordShape {
    const versions = this.versions;
    if (!versions) throw new RangeError('the record has a row version, but the table has no versioned columns');
    return this.shape(`v${v}`, (i) => {
      const { added, dropped } = versions[i];
      return added <= v && (dropped === 0 || dropped > v);
    });
  }
}

/** Fields of a record, as bounds relative to its origin (for reading the metadata record). */
interface FieldBounds {
  start: number;
  len: number;
  isNull: boolean;
  external: boolean;
}

/**
 * The clustered index layout of a MariaDB table, completed with its instant ALTER metadata (the same
 * layout when the table was never altered instantly). Needs the root page number (from the B-tree);
 * with an unknown root (-1) the layout is returned as is.
 */
export async function readInstantLayout(ts: Tablespace, rootNo: number, layout: ClusteredLayout, compact: boolean): Promise<ClusteredLayout> {
  if (ts.fsp.flags.sdi) return (await mysqlLayoutFromFile(ts, layout)) ?? layout;
  if (rootNo < 0) return layout;
  const file = ts.source.name;
  const root = (await ts.page(rootNo)).bytes;
  const nCore = u16(root, PAGE_HEADER + PAGE_INSTANT) >> 3;
  if (nCore === 0) return layout;
  const nUnique = layout.nUnique;
  if (nCore < nUnique + 2 || nCore > 1023) throw new IbdError(file, `the root page records ${nCore} original fields for instant ALTER TABLE, which cannot be`, rootNo);
  const infimum = compact ? PAGE_NEW_INFIMUM : PAGE_OLD_INFIMUM;
  const supremum = compact ? PAGE_NEW_SUPREMUM : PAGE_OLD_SUPREMUM;
  const zeroed = root.subarray(infimum, infimum + 8).every((b) => b === 0) && root.subarray(supremum, supremum + 7).every((b) => b === 0);

  // The leftmost leaf, along the first node pointers. Node pointers hold key fields only, which
  // instant ALTER never changes, behind a null bitmap sized for the original fields.
  const coreNullBytes = zeroed ? root[supremum + 7] : (layout.fields.slice(0, nCore).filter((f) => f.nullable).length + 7) >> 3;
  const nodeLayout: ClusteredLayout = { ...layout, nNullable: coreNullBytes * 8 };
  const origins: number[] = [];
  let page = root;
  let pageNo = rootNo;
  for (let guard = 0; u16(page, PAGE_HEADER + PAGE_LEVEL) > 0; guard++) {
    const damage = recordOrigins(page, compact, origins);
    if (damage !== null || origins.length === 0 || guard > 64) throw new IbdError(file, `cannot reach the instant ALTER metadata record: ${damage ?? 'a node pointer page is empty'}`, pageNo);
    pageNo = compact ? compactChildPage(page, origins[0], nodeLayout) : redundantChildPage(page, origins[0]);
    page = (await ts.page(pageNo)).bytes;
  }
  const damage = recordOrigins(page, compact, origins);
  const rec = origins[0];
  const info = rec === undefined ? 0 : compact ? compactInfoBits(page, rec) : redundantInfoBits(page, rec);
  if (damage !== null || rec === undefined || !(info & REC_INFO_MIN_REC)) {
    // MariaDB may set the root fields for an ALTER that was then rolled back: no metadata, no change.
    if (nCore === layout.fields.length) return layout;
    throw new IbdError(file, `the table was altered with instant ADD/DROP COLUMN, but the metadata record is missing from the first leaf page${damage ? ` (${damage})` : ''}`, pageNo);
  }
  if (compact && compactStatus(page, rec) !== REC_STATUS_INSTANT) throw new IbdError(file, 'the instant ALTER metadata record has an unknown format', pageNo);
  const withBlob = (info & REC_INFO_DELETED) !== 0;

  // The physical field order: the table definition's, or the metadata BLOB's map.
  let fields = layout.fields;
  if (withBlob) fields = await physicalFields(ts, page, pageNo, rec, layout, compact, file);
  const nNullable = fields.filter((f) => f.nullable).length;
  if (nCore > fields.length) throw new IbdError(file, `the root page records ${nCore} original fields, more than the ${fields.length} the table definition and metadata give: check the CREATE TABLE`, rootNo);
  const nCoreNullBytes = zeroed ? root[supremum + 7] : (fields.slice(0, nCore).filter((f) => f.nullable).length + 7) >> 3;

  // The metadata record's own fields: the added columns' default values.
  const bounds = compact ? compactMetadataBounds(page, rec, fields, nCore, nUnique, withBlob) : redundantBounds(page, rec);
  const shift = withBlob ? 1 : 0;
  const defaults: InstantDefault[] = new Array<InstantDefault>(fields.length).fill(null);
  for (let i = nCore; i < fields.length; i++) {
    const b = bounds[i + shift];
    if (!b) throw new IbdError(file, `the instant ALTER metadata record has no default for field ${i} (\`${fields[i].name}\`)`, pageNo);
    if (b.isNull) continue;
    let value: Uint8Array = page.slice(rec + b.start, rec + b.start + b.len);
    if (b.external) value = await readExternValue(value, async (no) => (await ts.page(no)).bytes);
    defaults[i] = { bytes: value };
  }
  const instant = new InstantInfo('mariadb', fields, nCore, nCoreNullBytes, defaults);
  return { ...layout, fields, nNullable, checked: checkedFields(fields), instant };
}

/** The non-key field order from the metadata BLOB (dict_table_t::deserialise_columns). */
async function physicalFields(ts: Tablespace, page: Uint8Array, pageNo: number, rec: number, layout: ClusteredLayout, compact: boolean, file: string): Promise<FieldSpec[]> {
  const nUnique = layout.nUnique;
  let trxOffset = 0;
  if (compact) {
    // Variable-length key fields are written empty in the metadata record.
    for (let i = 0; i < nUnique; i++) trxOffset += layout.fields[i].fixedLen;
  } else {
    const short = (page[rec - 3] & 1) !== 0;
    trxOffset = short ? page[rec - 7 - (nUnique - 1)] & 0x7f : u16(page, rec - 8 - 2 * (nUnique - 1)) & 0x3fff;
  }
  const ref = rec + trxOffset + TRX_ROLL_LEN;
  const blobPage = u32(page, ref + 4);
  const len = u32(page, ref + 16);
  if (u32(page, ref + 12) !== 0 || len < 4 || u32(page, ref + 8) !== FIL_PAGE_DATA || blobPage === FIL_NULL) {
    throw new IbdError(file, 'the instant ALTER metadata record has an unreadable column map reference', pageNo);
  }
  const blob = (await ts.page(blobPage)).bytes;
  if (u16(blob, FIL_PAGE_TYPE) !== PageType.BLOB || u32(blob, FIL_PAGE_DATA) !== len || FIL_PAGE_DATA + 8 + len > blob.length) {
    throw new IbdError(file, `the instant ALTER column map (page ${blobPage}) is not a BLOB page of ${len} bytes`, blobPage);
  }
  const map = blob.subarray(FIL_PAGE_DATA + 8, FIL_PAGE_DATA + 8 + len);
  const n = u32(map, 0);
  if (4 + 2 * n !== len) throw new IbdError(file, `the instant ALTER column map lists ${n} fields in ${len} bytes`, blobPage);
  const byColumn = new Map<number, FieldSpec>();
  for (const f of layout.fields.slice(nUnique + 2)) if (f.out >= 0) byColumn.set(f.out, f);
  const fields = layout.fields.slice(0, nUnique + 2);
  for (let k = 0; k < n; k++) {
    const e = u16(map, 4 + 2 * k);
    if (e & DROPPED) {
      const code = e & FIELD_IND;
      fields.push({ name: `(dropped column ${k + 1})`, out: -1, fixedLen: code <= 1 ? 0 : code - 1, bigCol: code === 1, nullable: (e & DROPPED_NOT_NULL) === 0, render: renderHex, check: null });
      continue;
    }
    const f = byColumn.get(e & FIELD_IND);
    if (!f) {
      throw new IbdError(file, `the instant ALTER column map places table column ${(e & FIELD_IND) + 1}, which is not a non-key column of the CREATE TABLE given (${layout.columns.length} columns): check that it is this table's current definition`, blobPage);
    }
    fields.push(f);
    byColumn.delete(e & FIELD_IND);
  }
  if (byColumn.size > 0) {
    const names = [...byColumn.values()].map((f) => `\`${f.name}\``).join(', ');
    throw new IbdError(file, `the CREATE TABLE has column${byColumn.size > 1 ? 's' : ''} ${names} that the table's instant ALTER metadata does not: check that it is this table's current definition`, blobPage);
  }
  return fields;
}

/** Field bounds of the COMPACT metadata record (rec_init_offsets_comp_ordinary with its BLOB field). */
function compactMetadataBounds(page: Uint8Array, rec: number, fields: readonly FieldSpec[], nCore: number, nUnique: number, withBlob: boolean): FieldBounds[] {
  let p = rec - 6;
  let nAdd = page[p--];
  if (nAdd & 0x80) nAdd = (nAdd & 0x7f) | (page[p--] << 7);
  const nRecFields = nCore + 1 + nAdd;
  const nIndexFields = nRecFields - (withBlob ? 1 : 0);
  if (nIndexFields > fields.length) throw new RangeError(`the metadata record has ${nIndexFields} fields, the table ${fields.length}`);
  let nullable = 0;
  for (let i = 0; i < nIndexFields; i++) if (fields[i].nullable) nullable++;
  let nullPtr = p;
  let bit = 1;
  let lenPtr = p - ((nullable + 7) >> 3);
  let offs = 0;
  const out: FieldBounds[] = [];
  const blobAt = nUnique + 2;
  for (let i = 0, f = 0; i < nRecFields; i++) {
    if (withBlob && i === blobAt) {
      out.push({ start: offs, len: FIELD_REF_SIZE, isNull: false, external: true });
      offs += FIELD_REF_SIZE;
      continue;
    }
    const spec = fields[f++];
    if (spec.nullable) {
      const isNull = (page[nullPtr] & bit) !== 0;
      bit <<= 1;
      if (bit === 0x100) { bit = 1; nullPtr--; }
      if (isNull) {
        out.push({ start: offs, len: 0, isNull: true, external: false });
        continue;
      }
    }
    let len = spec.fixedLen;
    let external = false;
    if (len === 0) {
      len = page[lenPtr--];
      if (spec.bigCol && len & 0x80) {
        external = (len & 0x40) !== 0;
        len = ((len & 0x3f) << 8) | page[lenPtr--];
      }
    }
    out.push({ start: offs, len, isNull: false, external });
    offs += len;
  }
  return out;
}

/** Field bounds of a REDUNDANT record from its end-offset array. */
function redundantBounds(page: Uint8Array, rec: number): FieldBounds[] {
  const n = (u16(page, rec - 4) >> 1) & 0x3ff;
  const short = (page[rec - 3] & 1) !== 0;
  const out: FieldBounds[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const v = short ? page[rec - 7 - i] : u16(page, rec - 8 - 2 * i);
    const end = short ? v & 0x7f : v & 0x3fff;
    const isNull = short ? (v & 0x80) !== 0 : (v & 0x8000) !== 0;
    out.push({ start, len: end - start, isNull, external: !short && (v & 0x4000) !== 0 });
    start = end;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// MySQL 8.0

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

/** SDI column `hidden` values: visible and SQL-layer hidden columns are part of the table. */
const DD_HIDDEN_SE = 2;

/** The instant ALTER facts of an SDI table object (dd::Table JSON). */
export function mysqlInstantTable(dd: DdTable): MysqlInstantTable {
  const tableSe = parseKeyValues(dd.se_private_data);
  const instantCol = tableSe.get('instant_col');
  // Dropped columns are not part of the table definition: a copy of the object where they are
  // ordinary columns gives their types (and so their storage).
  const renamed = (i: number): string => `dropped_column_${i}`;
  const clone: DdTable = {
    ...dd,
    columns: dd.columns.map((c, i) => {
      const se = parseKeyValues(c.se_private_data);
      if (!se.has('version_dropped')) return c;
      se.delete('version_dropped');
      return { ...c, name: renamed(i), hidden: 1, se_private_data: [...se].map(([k, v]) => `${k}=${v};`).join('') };
    }),
  };
  const cloneColumns = new Map(sdiTableDef(clone).table.columns.map((c) => [c.name, c]));
  const columns: MysqlInstantColumn[] = [];
  dd.columns.forEach((c, i) => {
    const se = parseKeyValues(c.se_private_data);
    if (c.is_virtual) return;
    const dropped = se.has('version_dropped');
    if (c.hidden === DD_HIDDEN_SE && !dropped) return; // DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR, FTS_DOC_ID
    columns.push({ name: c.name, se, nullable: c.is_nullable, column: dropped ? cloneColumns.get(renamed(i)) : undefined });
  });
  return { instantCols: instantCol === undefined ? null : Number(instantCol), columns };
}

/** The instant layout of a MySQL 8 file from its own SDI; null when it has none or no instant columns. */
async function mysqlLayoutFromFile(ts: Tablespace, layout: ClusteredLayout): Promise<ClusteredLayout | null> {
  let records;
  try {
    records = await readSdiRecords(ts);
  } catch {
    return null; // an unreadable SDI: records from instant ALTERs will be reported as unreadable
  }
  for (const r of records ?? []) {
    let doc: { dd_object_type?: string; dd_object?: DdTable };
    try {
      doc = JSON.parse(r.json) as typeof doc;
    } catch {
      continue;
    }
    if (doc.dd_object_type !== 'Table' || !doc.dd_object) continue;
    const names = new Set(doc.dd_object.columns.map((c) => c.name.toLowerCase()));
    // The SDI table this CREATE TABLE describes (a general tablespace holds several).
    if (!layout.columns.every((c) => names.has(c.name.toLowerCase()))) continue;
    return mysqlInstantLayout(layout, mysqlInstantTable(doc.dd_object));
  }
  return null;
}
