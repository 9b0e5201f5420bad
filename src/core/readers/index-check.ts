/**
 * Whether a B-tree holds a given secondary index, checked against the table's rows: a few records
 * of its first leaf page are read with the index's layout, the row of each one's primary key is
 * searched in the clustered index, and the index's columns compared byte for byte with the row's
 * (a prefix part with the start of the column). Where InnoDB's creation order and the definition's
 * order of indexes may differ (index-choice.ts), this tells the trees apart. Raw bytes only: nothing
 * is decoded, so that any column type compares; a primary key whose order is not modelled (a
 * collation's weights) cannot be searched, and the answer is then 'unknown'.
 */
import { middlePath, searchPath, type IndexRoot } from '../btree/btree.ts';
import { FIL_NULL, FIL_PAGE_NEXT, u32 } from '../pages/fil-header.ts';
import { compactInfoBits, recordOrigins, redundantInfoBits, REC_INFO_DELETED, REC_INFO_MIN_REC } from '../pages/index-page.ts';
import { clusteredLayout, type ClusteredLayout } from '../records/clustered-index.ts';
import { compareRecordKey, type SearchKey } from '../records/key-compare.ts';
import { compactChildPage, keySpans, NULL_SPAN, redundantChildPage } from '../records/key-fields.ts';
import { compactRecordReadable, RecordError } from '../records/record.ts';
import { indexNamed, secondaryLayout } from '../records/secondary-index.ts';
import type { TableDef } from '../schema.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';
import { keyPart } from '../values/key-values.ts';
import { IbdError } from '../errors.ts';

export type TreeVerdict = 'yes' | 'no' | 'unknown';

/** Index records compared with their rows. */
const SAMPLE = 8;
/** Types whose clustered value may lie off-page (then not comparable here). */
const LONG_TYPES = /text|blob|json|geometry|point|linestring|polygon|vector/;

interface Probe {
  ts: Tablespace;
  compact: boolean;
  index: ClusteredLayout;
  clustered: ClusteredLayout;
  clusteredRoot: IndexRoot;
  /** Per clustered key part, the index field holding it. */
  pkFields: number[];
  pk: SearchKey['parts'];
  /** The index's own fields (before the primary key's) and, per each, the clustered field of its column. */
  own: { field: number; clustered: number; prefix: boolean }[];
}

const childOf = (layout: ClusteredLayout, compact: boolean) => (p: Uint8Array, o: number) => (compact ? compactChildPage(p, o, layout) : redundantChildPage(p, o));

function probeFor(ts: Tablespace, table: TableDef, name: string, clusteredRoot: IndexRoot, compact: boolean): Probe | null {
  const index = secondaryLayout(table, name, !compact);
  const clustered = clusteredLayout(table, !compact);
  const pk = clustered.keyParts.map((k) => keyPart(k.column, k.prefix, k.descending));
  if (pk.length === 0 || pk.some((p) => p.order === null)) return null;
  // A prefix of a primary key column would have to be cut by characters: not searched here.
  if (clustered.keyParts.some((k) => k.prefix > 0)) return null;
  const whole = (name: string) => index.keyParts.findIndex((p) => p.prefix === 0 && p.column.name.toLowerCase() === name.toLowerCase());
  const pkFields = clustered.keyParts.map((k) => whole(k.column.name));
  if (pkFields.some((f) => f < 0)) return null;
  const nOwn = indexNamed(table, name).columns.length;
  const own = index.keyParts.slice(0, nOwn).map((p, field) => ({
    field,
    clustered: clustered.fields.findIndex((f) => f.out >= 0 && f.name.toLowerCase() === p.column.name.toLowerCase()),
    prefix: p.prefix > 0,
  })).filter((o) => o.clustered >= 0 && !LONG_TYPES.test(index.keyParts[o.field].column.type));
  return { ts, compact, index, clustered, clusteredRoot, pkFields, pk, own };
}

/**
 * Records of a leaf from the middle of the tree (its first leaves may hold NULLs only, which tell
 * nothing) that are rows (not delete-marked), spread over the page.
 */
async function sampleRecords(probe: Probe, root: IndexRoot): Promise<{ page: Uint8Array; origins: number[] } | null> {
  const path = await middlePath(probe.ts, root, childOf(probe.index, probe.compact));
  const page = (await probe.ts.page(path[path.length - 1])).bytes;
  const origins: number[] = [];
  if (recordOrigins(page, probe.compact, origins) !== null) return null;
  const info = (o: number) => (probe.compact ? compactInfoBits(page, o) : redundantInfoBits(page, o));
  const rows = origins.filter((o) => !(info(o) & (REC_INFO_DELETED | REC_INFO_MIN_REC)));
  const step = Math.max(1, Math.floor(rows.length / SAMPLE));
  return { page, origins: rows.filter((_, i) => i % step === 0).slice(0, SAMPLE) };
}

/** The clustered leaf record whose key is `key`, searched from the root; null when there is none. */
async function rowOf(probe: Probe, key: SearchKey): Promise<{ page: Uint8Array; origin: number } | null> {
  const { ts, compact, clustered } = probe;
  const path = await searchPath(ts, probe.clusteredRoot, childOf(clustered, compact), (p, o) => compareRecordKey(p, o, clustered, compact, false, key) < 0);
  // An equal key may open the next leaf, when a node pointer holds it.
  for (let no = path[path.length - 1], hops = 0; no !== FIL_NULL && hops < 2; hops++) {
    const page = (await ts.page(no)).bytes;
    const origins: number[] = [];
    recordOrigins(page, compact, origins);
    for (const origin of origins) {
      if (compact && !compactRecordReadable(page, origin, clustered)) continue;
      const c = compareRecordKey(page, origin, clustered, compact, true, key);
      if (c === 0) return { page, origin };
      if (c > 0) return null;
    }
    no = u32(page, FIL_PAGE_NEXT);
  }
  return null;
}

function sameBytes(a: Uint8Array, ao: number, al: number, b: Uint8Array, bo: number, bl: number, prefix: boolean): boolean {
  if (prefix ? al > bl : al !== bl) return false;
  for (let i = 0; i < al; i++) if (a[ao + i] !== b[bo + i]) return false;
  return true;
}

/** Whether one index record's columns are its row's; null when they are all NULL (which tells nothing). */
async function recordMatches(probe: Probe, page: Uint8Array, origin: number): Promise<boolean | null> {
  const { index, compact, clustered } = probe;
  const at = new Int32Array(2 * index.fields.length);
  keySpans(page, origin, index, compact, true, index.fields.length, at);
  if (probe.own.every((o) => at[2 * o.field] === NULL_SPAN)) return null;
  const values = probe.pkFields.map((f) => page.slice(at[2 * f], at[2 * f] + at[2 * f + 1]));
  const row = await rowOf(probe, { parts: probe.pk, values });
  if (row === null) return false;
  const n = Math.max(0, ...probe.own.map((o) => o.clustered + 1));
  const rowAt = new Int32Array(2 * n);
  keySpans(row.page, row.origin, clustered, compact, true, n, rowAt);
  return probe.own.every((o) => {
    const a = at[2 * o.field];
    const b = rowAt[2 * o.clustered];
    if (a === NULL_SPAN || b === NULL_SPAN) return a === b;
    return sameBytes(page, a, at[2 * o.field + 1], row.page, b, rowAt[2 * o.clustered + 1], o.prefix);
  });
}

/** A record that does not even lay out with the index's layout does not match. */
function misfit(e: unknown): false {
  if (e instanceof RecordError || e instanceof IbdError) return false;
  throw e;
}

/** Whether the tree at `root` holds secondary index `name` of `table` (see the header). */
export async function treeHoldsIndex(ts: Tablespace, table: TableDef, name: string, root: IndexRoot, clusteredRoot: IndexRoot): Promise<TreeVerdict> {
  try {
    const probe = probeFor(ts, table, name, clusteredRoot, root.header.compact);
    if (probe === null || probe.own.length === 0) return 'unknown';
    const sample = await sampleRecords(probe, root);
    if (sample === null || sample.origins.length === 0) return 'unknown';
    let matches = 0;
    let misses = 0;
    for (const origin of sample.origins) {
      const match = await recordMatches(probe, sample.page, origin).catch(misfit);
      if (match === true) matches++;
      else if (match === false) misses++;
    }
    return matches > 0 && misses === 0 ? 'yes' : misses > matches ? 'no' : 'unknown';
  } catch (e) {
    if (e instanceof IbdError || e instanceof RecordError) return 'unknown';
    throw e;
  }
}
