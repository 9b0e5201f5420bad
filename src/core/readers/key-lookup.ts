/**
 * Rows by key through the B-tree: the rows whose key lies between two keys (inclusive; either may be
 * missing, a point lookup gives the same key twice), reading only the pages on the path — one page per
 * level down to the leaf where the first such row would be, then the leaves after it along their
 * FIL_PAGE_NEXT links until one ends past the upper key. The result is what
 * `SELECT … WHERE key BETWEEN a AND b` returns, in key order: the leaves' rows (of the reader's mode),
 * each kept when its key, read back from its decoded cells, lies in the range.
 *
 * Keys compare exactly as InnoDB compares them (key-values.ts, key-compare.ts). A key part whose
 * order is not modelled (a collation's weights) cannot bound a search: a point lookup on it searches
 * on the parts before it and compares the decoded value exactly (a note says so); a range on it is
 * refused. A damaged B-tree on the way is no reason to miss rows either: the rest of the leaf level is
 * then read in key order (TableReader.leafPages) with the same filter, and a note says that too (a
 * caller with a faster way to read every leaf, the page's worker pool, asks for the path alone and
 * is told why it ended: `offPath`).
 *
 * A point lookup on every part of the key names one record at most (an index's key parts end with the
 * primary key's), so it descends to the child whose node pointer is not above the key: the record a
 * node pointer copies is the first of its child, and no other page can hold it. One page per level,
 * the leaf included, where a search for the first record not below the key could land on the leaf
 * before it and need that leaf's successor too.
 */
import { searchPath, type ChildOf, type IndexRoot } from '../btree/btree.ts';
import { IbdError } from '../errors.ts';
import { FIL_NULL, FIL_PAGE_NEXT, u32 } from '../pages/fil-header.ts';
import { compactInfoBits, recordOrigins, redundantInfoBits, REC_INFO_MIN_REC } from '../pages/index-page.ts';
import type { ClusteredLayout } from '../records/clustered-index.ts';
import { comparePart, compareRecordKey, type SearchKey } from '../records/key-compare.ts';
import { RecordError } from '../records/record.ts';
import type { Page, Tablespace } from '../tablespace/tablespace.ts';
import { selectRows } from '../values/batch-edit.ts';
import { keyPart, type KeyPart } from '../values/key-values.ts';
import { cellText, type RowBatch } from '../values/row-batch.ts';
import type { TimeZone } from '../values/time-zone.ts';

/** Key values as text, one per key part from the first; null for no bound. */
export interface KeyRange {
  from: readonly string[] | null;
  to: readonly string[] | null;
}

/** What a table reader gives a lookup: its index and a decode of one leaf page (counted in its stats). */
export interface LookupSource {
  ts: Tablespace;
  root: IndexRoot;
  layout: ClusteredLayout;
  compact: boolean;
  childOf: ChildOf;
  /** The rows of one leaf page, of the reader's mode. */
  decodeLeaf(pageNo: number): Promise<RowBatch>;
  /** Every leaf page in key order. */
  leafPages(): Promise<number[]>;
  /** Whether the reader's mode returns purged rows (read from the free lists of the pages it reads). */
  purged: boolean;
  /** The zone the reader shows TIMESTAMP in: a TIMESTAMP key given as text is read in it. */
  zone: TimeZone;
  /**
   * The rows decodeLeaf gave for `page`, one for one, with TIMESTAMP in UTC: a row's key is read back
   * from its text, which in a zone with summer time repeats an hour. Null where the rows' own text
   * serves (no TIMESTAMP key part shown in another zone).
   */
  decodeKeys: ((page: Page) => Promise<RowBatch>) | null;
}

export interface KeyLookup {
  /** How the answer is found where that is not the plain search: said to the user. Grows while reading. */
  readonly notes: string[];
  /** The pages read so far: the node pages from the root down, then each leaf page. */
  readonly path: number[];
  /**
   * Why the search left the path from the root for the leaf level in key order (the B-tree cannot be
   * searched, a leaf on the path is damaged), or null. With `pathOnly` it ends there instead.
   */
  readonly offPath: string | null;
  batches(signal?: AbortSignal, options?: LookupReadOptions): AsyncGenerator<RowBatch>;
}

export interface LookupReadOptions {
  /** Read only the pages on the path: where the rest of the leaf level would be read, end (`offPath` says why). */
  pathOnly?: boolean;
}

/** A key given as text: each part's stored value, or null for a part compared by its decoded text. */
type Bound = { texts: readonly string[]; values: (Uint8Array | null)[] };

const utf8 = new TextEncoder();

function sameTexts(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/** Plans a lookup of `range` (throws an Error for a key that is not one of the index, or a range it cannot bound). */
export function planLookup(src: LookupSource, range: KeyRange): KeyLookup {
  const parts = src.layout.keyParts.map((k) => keyPart(k.column, k.prefix, k.descending, src.zone));
  if (parts.length === 0) throw new Error('the table has no key to look up: InnoDB clusters its rows on a hidden DB_ROW_ID');
  const used = Math.max(range.from?.length ?? 0, range.to?.length ?? 0);
  const names = parts.map((p) => p.column.name).join(', ');
  if (used > parts.length) throw new Error(`the key (${names}) has ${parts.length} parts, ${used} values were given`);
  const point = range.from !== null && range.to !== null && sameTexts(range.from, range.to);
  const inexact = parts.slice(0, used).findIndex((p) => p.order === null);
  if (inexact >= 0 && !point) throw new Error(`${parts[inexact].why}: no range can be looked up on it (a single key can, by comparing decoded values)`);
  const bound = (texts: readonly string[] | null): Bound | null => texts && { texts, values: texts.map((t, i) => (parts[i].order === null ? null : parts[i].encode(t))) };
  // Rows' keys are read back from their text, in UTC where decodeKeys gives it.
  const readBack = src.decodeKeys === null ? parts : src.layout.keyParts.map((k) => keyPart(k.column, k.prefix, k.descending));
  let [from, to] = [bound(range.from), bound(range.to)];
  const reversed = from && to ? reversedAt(parts, from, to) : -1;
  // Bounds are in the index's order; on a descending part that is the values' order backwards, which
  // a user giving the smaller value first (as in BETWEEN) does not mean: an empty answer would hide the rows.
  if (reversed >= 0 && parts[reversed].descending) [from, to] = [to, from];
  const lookup = new Lookup(src, parts, readBack, from, to, inexact);
  if (reversed >= 0) lookup.notes.push(parts[reversed].descending
    ? `\`${parts[reversed].column.name}\` is a descending key part: the range is read in the index's order, from ${from?.texts.join(', ')} to ${to?.texts.join(', ')}`
    : `the lower key (${range.from?.join(', ')}) is above the upper (${range.to?.join(', ')}): no key lies between them`);
  return lookup;
}

/** The key part where bound `from` sorts after `to` in the index's order (the first where they differ), or -1. */
function reversedAt(parts: readonly KeyPart[], from: Bound, to: Bound): number {
  const n = Math.min(from.values.length, to.values.length);
  for (let i = 0; i < n; i++) {
    const [a, b] = [from.values[i], to.values[i]];
    if (a === null || b === null) return -1;
    const c = comparePart(parts[i], a, b);
    if (c !== 0) return c > 0 ? i : -1;
  }
  return -1;
}

class Lookup implements KeyLookup {
  readonly notes: string[] = [];
  readonly path: number[] = [];
  offPath: string | null = null;
  /** Where the search goes down to and where the walk stops: the parts before the first inexact one. */
  private readonly low: SearchKey | null;
  private readonly high: SearchKey | null;
  /** Key parts the bounds give. */
  private readonly used: number;
  /** The UTF-8 text (as cells hold it) of each inexact part's value. */
  private readonly texts: (Uint8Array | null)[];
  /** Whether a key part the bounds give may be NULL. */
  private readonly nullable: boolean;
  /** A point lookup on every key part, each compared by its order: one record at most (see above). */
  private readonly single: boolean;

  constructor(
    private readonly src: LookupSource,
    private readonly parts: readonly KeyPart[],
    /** The parts' encoders of the text the rows' keys are read back from (decodeKeys). */
    private readonly readBack: readonly KeyPart[],
    private readonly from: Bound | null,
    private readonly to: Bound | null,
    /** The first part compared by its decoded text, or -1. */
    private readonly inexact: number,
  ) {
    const searchable = (b: Bound | null): SearchKey | null => {
      const values = b?.values.slice(0, inexact >= 0 ? inexact : undefined) as Uint8Array[] | undefined;
      return values === undefined || values.length === 0 ? null : { parts, values };
    };
    this.low = searchable(from);
    this.high = searchable(to);
    this.used = Math.max(from?.texts.length ?? 0, to?.texts.length ?? 0);
    this.nullable = parts.slice(0, this.used).some((p) => p.column.nullable);
    this.single = inexact < 0 && this.used === parts.length && from !== null && to !== null && sameTexts(from.texts, to.texts) && !src.purged;
    this.texts = parts.map((p, i) => (p.order === null && from !== null && i < from.texts.length ? utf8.encode(from.texts[i]) : null));
    for (const p of parts.slice(0, this.used)) {
      if (p.prefix > 0) this.notes.push(`\`${p.column.name}\` is a prefix key part: the index holds its first ${p.prefix} characters, and the key given is compared on those`);
    }
    if (inexact >= 0) {
      const scope = inexact === 0 ? 'every leaf page of the index is read' : `the search goes by the parts before it, then the leaves of those are read`;
      this.notes.push(`${parts[inexact].why}: ${scope} and the decoded values compared exactly, so a row whose value the collation would call equal (letter case, accents, trailing spaces) is not found`);
    }
    if (src.purged) this.notes.push('purged rows are looked for only on the leaf pages read');
  }

  async *batches(signal?: AbortSignal, options: LookupReadOptions = {}): AsyncGenerator<RowBatch> {
    const start = await this.startLeaf();
    if (start === null) {
      if (!options.pathOnly) yield* this.listed(await this.src.leafPages(), 0, signal);
      return;
    }
    const { ts } = this.src;
    let no = start;
    for (let visited = 0; no !== FIL_NULL; visited++) {
      signal?.throwIfAborted();
      if (visited > ts.pageCount) throw new IbdError(ts.source.name, 'the chain of leaf pages loops', no);
      const { batch, page } = await this.leaf(no);
      if (batch.rows > 0) yield batch;
      if (page === null || !this.intact(page)) {
        this.offPath = `leaf page ${no} on the path is damaged`;
        this.notes.push(`leaf page ${no} on the path is damaged, so its link to the next is not trusted: the leaves after it are read in key order from the level above`);
        if (options.pathOnly) return;
        const all = await this.src.leafPages();
        yield* this.listed(all, all.indexOf(no) + 1, signal);
        return;
      }
      // A single record's leaf is the only one that can hold it.
      if (this.single || this.endsPast(page)) return;
      no = u32(page.bytes, FIL_PAGE_NEXT);
    }
  }

  /** The leaf to start from, by searching the B-tree; null (said in a note) when it cannot be searched. */
  private async startLeaf(): Promise<number | null> {
    const { ts, root, childOf, layout, compact } = this.src;
    if (this.inexact === 0) {
      this.offPath = this.parts[0].why;
      return null;
    }
    if (root.page < 0) {
      this.offPath = 'the B-tree has no root (its leaves were found by scanning the file)';
      this.notes.push(`${this.offPath}: every leaf page is read`);
      return null;
    }
    const low = this.low;
    const notAbove = this.single ? 1 : 0;
    try {
      const path = await searchPath(ts, root, childOf, (page, origin) => low !== null && compareRecordKey(page, origin, layout, compact, false, low) < notAbove);
      this.path.push(...path.slice(0, -1));
      return path[path.length - 1];
    } catch (e) {
      if (!(e instanceof IbdError) && !(e instanceof RecordError)) throw e;
      this.offPath = `the B-tree cannot be searched (${e instanceof IbdError ? `page ${e.page}: ${e.detail}` : e.message})`;
      this.notes.push(`${this.offPath}: every leaf page is read`);
      return null;
    }
  }

  /** The leaves `pages` from `first` on, in order, until one ends past the range. */
  private async *listed(pages: readonly number[], first: number, signal?: AbortSignal): AsyncGenerator<RowBatch> {
    for (let i = first; i < pages.length; i++) {
      signal?.throwIfAborted();
      const { batch, page } = await this.leaf(pages[i]);
      if (batch.rows > 0) yield batch;
      if (page !== null && this.intact(page) && this.endsPast(page)) return;
    }
  }

  /** Decodes leaf `no` (its rows in the range) and reads it as stored, to follow or stop at it. */
  private async leaf(no: number): Promise<{ batch: RowBatch; page: Page | null }> {
    this.path.push(no);
    const rows = await this.src.decodeLeaf(no);
    const page = await this.src.ts.page(no).catch(() => null);
    // Within the range from its first record to its last, a page's rows need only their inexact parts
    // checked; not where a key part may be NULL (such a row sorts first but is in no range).
    const within = page !== null && !this.nullable && this.intact(page) && !this.src.purged && this.within(page);
    if (within && this.inexact < 0) return { batch: rows, page };
    const keys = await this.keysOf(no, rows, page);
    const keep: number[] = [];
    for (let r = 0; r < rows.rows; r++) if (this.inRange(rows, keys, r, !within)) keep.push(r);
    return { batch: keep.length === rows.rows ? rows : selectRows(rows, keep), page };
  }

  /** The rows whose cells the keys are read back from: `rows` themselves, or their UTC twins (decodeKeys). */
  private async keysOf(no: number, rows: RowBatch, page: Page | null): Promise<RowBatch> {
    const { decodeKeys } = this.src;
    if (decodeKeys === null || rows.rows === 0) return rows;
    const keys = page === null ? null : await decodeKeys(page);
    if (keys === null || keys.rows !== rows.rows) throw new IbdError(this.src.ts.source.name, 'the keys of the rows read cannot be read back in UTC to compare them', no);
    return keys;
  }

  private intact(page: Page): boolean {
    return page.checksum !== 'bad' && recordOrigins(page.bytes, this.src.compact, []) === null;
  }

  /** The page's first and last user records (not MariaDB's instant metadata record), or null when it has none. */
  private ends(page: Page): [number, number] | null {
    const { compact } = this.src;
    const origins: number[] = [];
    recordOrigins(page.bytes, compact, origins);
    const user = origins.filter((o) => !((compact ? compactInfoBits(page.bytes, o) : redundantInfoBits(page.bytes, o)) & REC_INFO_MIN_REC));
    return user.length === 0 ? null : [user[0], user[user.length - 1]];
  }

  /** Compares the page's record at `origin` with `key`; null when it cannot be read. */
  private compare(page: Page, origin: number, key: SearchKey): number | null {
    try {
      return compareRecordKey(page.bytes, origin, this.src.layout, this.src.compact, true, key);
    } catch (e) {
      if (e instanceof RecordError) return null;
      throw e;
    }
  }

  /** Whether every record of the (intact) page lies between the search keys. */
  private within(page: Page): boolean {
    const ends = this.ends(page);
    if (ends === null) return true;
    const low = this.low === null ? 0 : this.compare(page, ends[0], this.low);
    const high = this.high === null ? 0 : this.compare(page, ends[1], this.high);
    return low !== null && high !== null && low >= 0 && high <= 0;
  }

  /** Whether the page's last record sorts after the upper key: no later page holds a row of the range. */
  private endsPast(page: Page): boolean {
    const ends = this.ends(page);
    const past = ends === null || this.high === null ? null : this.compare(page, ends[1], this.high);
    return past !== null && past > 0;
  }

  /**
   * Whether row `r` of a leaf's rows has its key in the range, read back from its cells (in `keys`,
   * keysOf) and compared part by part as keys compare; an inexact part (a point lookup) by its text as
   * shown (in `batch`), byte for byte. `exact`: compare the parts before an inexact one too (a page
   * not known to hold only that prefix).
   */
  private inRange(batch: RowBatch, keys: RowBatch, r: number, exact: boolean): boolean {
    const { parts, from, to } = this;
    const keyParts = this.src.layout.keyParts;
    let low = from !== null;
    let high = to !== null;
    for (let i = 0; i < this.used && (low || high); i++) {
      const cell = r * batch.cols + keyParts[i].out;
      const isNull = batch.nulls[cell] !== 0;
      if (parts[i].order === null) {
        if (isNull || !sameBytes(batch.text, batch.cells[2 * cell], batch.cells[2 * cell + 1], this.texts[i])) return false;
        continue;
      }
      if (!exact && i < this.inexact) continue;
      const value = isNull ? null : this.encodeCell(keys, r, i);
      // As in SQL, NULL compares with nothing: such a row is never between bounds.
      if (value === null && ((low && from !== null && i < from.values.length) || (high && to !== null && i < to.values.length))) return false;
      if (low && from !== null && i < from.values.length) {
        const c = comparePart(parts[i], value, from.values[i] as Uint8Array);
        if (c < 0) return false;
        if (c > 0) low = false;
      }
      if (high && to !== null && i < to.values.length) {
        const c = comparePart(parts[i], value, to.values[i] as Uint8Array);
        if (c > 0) return false;
        if (c < 0) high = false;
      }
    }
    return true;
  }

  /** A key cell's stored value, from its text (what the index stores renders back to it). */
  private encodeCell(batch: RowBatch, r: number, i: number): Uint8Array {
    const text = cellText(batch, r, this.src.layout.keyParts[i].out) ?? '';
    try {
      return this.readBack[i].encode(text);
    } catch (e) {
      throw new Error(`the key value '${text}' of a row read cannot be compared: ${(e as Error).message}`);
    }
  }
}

/** Whether text[start, end) holds exactly `bytes`. */
function sameBytes(text: Uint8Array, start: number, end: number, bytes: Uint8Array | null): boolean {
  if (bytes === null || end - start !== bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (text[start + i] !== bytes[i]) return false;
  return true;
}
