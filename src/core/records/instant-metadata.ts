/**
 * MariaDB 10.3+'s instant ALTER metadata (btr0cur.cc btr_cur_instant_init_low): PAGE_INSTANT of the
 * clustered index root gives n_core_fields, and the hidden metadata record first in the leftmost leaf
 * gives the added columns' defaults and, after 10.4's instant DROP/reorder, the BLOB with the
 * physical field order (see instant.ts for the record format). Read once when a table is opened.
 */
import { EXTERN_REF_SIZE, readExternValue } from '../pages/blob-page.ts';
import { IbdError } from '../errors.ts';
import { FIL_NULL, FIL_PAGE_DATA, FIL_PAGE_TYPE, PageType, u16, u32 } from '../pages/fil-header.ts';
import {
  compactInfoBits, compactStatus, PAGE_HEADER, PAGE_LEVEL, PAGE_NEW_INFIMUM, PAGE_NEW_SUPREMUM, PAGE_OLD_INFIMUM, PAGE_OLD_SUPREMUM, recordOrigins,
  redundantInfoBits, REC_INFO_DELETED, REC_INFO_MIN_REC,
} from '../pages/index-page.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';
import { renderHex } from '../values/render.ts';
import type { ClusteredLayout } from './clustered-index.ts';
import { checkedFields, type FieldSpec } from './field-spec.ts';
import { InstantInfo, type InstantDefault } from './instant.ts';
import { compactChildPage, redundantChildPage } from './key-fields.ts';
/** PAGE_INSTANT (MariaDB): shares 2 bytes with PAGE_DIRECTION_B. */
const PAGE_INSTANT = 12;
const TRX_ROLL_LEN = 13;
const DROPPED = 0x8000;
const DROPPED_NOT_NULL = 0x4000;
const FIELD_IND = 0x3ff;
/** MariaDB record status of the metadata record and of records with added fields. */
const REC_STATUS_INSTANT = 4;

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
      out.push({ start: offs, len: EXTERN_REF_SIZE, isNull: false, external: true });
      offs += EXTERN_REF_SIZE;
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
