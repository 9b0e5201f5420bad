/**
 * Column chunks written here rather than by hyparquet-writer, for the kinds that fill most tables:
 * whole numbers (INT32), DECIMALs of up to 15 digits (INT32 / INT64), DATEs, and UTF-8 text. The
 * library takes one JS value per cell (a string, a bigint: an allocation each), then converts,
 * re-encodes and copies them through growing writers several times; profiled on LINEITEM, that was
 * most of a Parquet export's CPU. Here a row group's cells are parsed once from the batch's bytes
 * into typed arrays (numbers as doubles, text as its UTF-8 bytes: no string per cell) and written
 * from there.
 *
 * The bytes are those hyparquet-writer writes for the same values (writeColumn in its column.js, with
 * the options parquet-rows.ts gives it): the same dictionary decision (a sample of 1,000 values spread
 * over the chunk, then the whole chunk: kept when it halves the PLAIN bytes), the dictionary in order
 * of first use, pages cut at the same estimated 1 MiB, DATA_PAGE_V2 with definition levels and
 * Snappy, the same statistics and offset index. Every other kind still goes through the library. The kinds' own parts are in parquet-chunk-kinds.ts.
 */
import type { ColumnChunk, OffsetIndex } from 'hyparquet';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import type { Writer } from 'hyparquet-writer/src/types.js';
import { snappyEncode } from '../codecs/snappy-encode.ts';
import { bitWidth, PageBytes, writeHybrid } from './parquet-encoding.ts';
import { ROWS_NAMED, type NotHeld } from './parquet-row-groups.ts';
import type { ParquetColumn } from './parquet-columns.ts';
import type { RowBatch } from '../values/row-batch.ts';

/** hyparquet-writer's page size (its default), by its estimate of the values' bytes. */
const PAGE_SIZE = 1 << 20;
/** Values sampled for the dictionary decision, and the sample's share of distinct bytes that rejects it. */
const SAMPLE = 1000;
const SAMPLE_REJECTION = 0.9;

/** A chunk as hyparquet-writer's writeColumn returns it (no column index, no bloom filter). */
export interface ChunkWritten {
  chunk: ColumnChunk;
  offsetIndex?: OffsetIndex;
}

export const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** Counts a cell its column's type cannot hold (written as null), naming the first ones. */
export function noteNotHeld(note: NotHeld, text: Uint8Array, start: number, end: number, row: number): void {
  if (note.count++ === 0) note.example = utf8.decode(text.subarray(start, end));
  if (note.rows.length < ROWS_NAMED) note.rows.push(row);
}

// Scratch space shared by every chunk (one is written at a time).
const levelOut = new PageBytes();
const pageOut = new PageBytes();
let pageIndexes = new Int32Array(1024);

export function grown(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (n <= a.length) return a;
  const b = new Int32Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

/** A column's cells of one row group, and how they are written as a chunk. */
export abstract class ChunkColumn {
  /** Cells held (rows of the group). */
  n = 0;
  /** Definition level of each cell: 1 a value, 0 a null. */
  levels = new Int32Array(1024);
  /** Dictionary index of each cell (when a dictionary is used). */
  protected indexes = new Int32Array(1024);
  /** The cell each dictionary entry was first seen in. */
  protected entries = new Int32Array(1024);
  /** The dictionary's hash set: an entry + 1 per slot, 0 for none (open addressing, linear probing). */
  protected slots = new Int32Array(1024);
  /** The dictionary's entries. */
  protected size = 0;

  constructor(readonly column: ParquetColumn, readonly physicalBytes: number) {}

  protected hold(n: number): void {
    this.levels = grown(this.levels, n);
  }

  /**
   * Moves cells [from, from + count), written past those held (parquet-leaf.ts) and left over when
   * the row group was written (none held now), to the front: still past those held, now none.
   */
  carry(from: number, count: number): void {
    this.levels.copyWithin(0, from, from + count);
    this.carryValues(from, count);
  }

  protected abstract carryValues(from: number, count: number): void;

  /** Takes rows [r0, r1) of the batch's column `c`; cells it cannot hold are nulls noted in `note` (rows numbered from `firstRow`). */
  abstract take(batch: RowBatch, c: number, r0: number, r1: number, firstRow: number, note: NotHeld): void;
  protected abstract hash(i: number): number;
  protected abstract same(i: number, j: number): boolean;
  /** hyparquet-writer's estimate of a value's bytes where it decides on a dictionary. */
  protected abstract dictionaryBytes(i: number): number;
  /** The sum of dictionaryBytes() over the `values` cells that are not null. */
  protected abstract allDictionaryBytes(values: number): number;
  /** Its estimate of a PLAIN value's bytes, where it cuts pages. */
  protected abstract plainBytes(i: number): number;
  /** At least the sum of plainBytes() over the cells held from `from` on (a null's are 0). */
  protected abstract plainBytesFrom(from: number): number;
  protected abstract plain(out: PageBytes, i: number): void;
  protected abstract statistic(i: number, isMin: boolean): number | bigint | string;

  /** Writes the chunk of the cells held, then lets them go. */
  write(writer: Writer): ChunkWritten {
    const n = this.n;
    const start = writer.offset;
    let uncompressed = 0;
    const entries = this.#dictionary();
    let dictionary_page_offset: bigint | undefined;
    if (entries >= 0) {
      dictionary_page_offset = BigInt(writer.offset);
      pageOut.length = 0;
      for (let e = 0; e < entries; e++) this.plain(pageOut, this.entries[e]);
      const compressed = snappyEncode(pageOut.view(), true);
      const head = writer.offset;
      writePageHeader(writer, { type: 'DICTIONARY_PAGE', uncompressed_page_size: pageOut.length, compressed_page_size: compressed.length, dictionary_page_header: { num_values: entries, encoding: 'PLAIN' } });
      uncompressed += writer.offset - head + pageOut.length;
      writer.appendBytes(compressed);
    }
    const data_page_offset = BigInt(writer.offset);
    const locations: OffsetIndex['page_locations'] = [];
    let nulls = 0;
    let pages = 0;
    for (let from = 0; from < n;) {
      const to = this.#pageEnd(from, entries >= 0);
      const pageOffset = writer.offset;
      levelOut.length = 0;
      writeHybrid(levelOut, this.levels, from, to, 1);
      pageOut.length = 0;
      const pageNulls = entries >= 0 ? this.#indexPage(from, to) : this.#plainPage(from, to);
      const compressed = snappyEncode(pageOut.view(), true);
      writePageHeader(writer, {
        type: 'DATA_PAGE_V2',
        uncompressed_page_size: levelOut.length + pageOut.length,
        compressed_page_size: levelOut.length + compressed.length,
        data_page_header_v2: {
          num_values: to - from, num_nulls: pageNulls, num_rows: to - from, encoding: entries >= 0 ? 'RLE_DICTIONARY' : 'PLAIN',
          definition_levels_byte_length: levelOut.length, repetition_levels_byte_length: 0, is_compressed: true,
        },
      });
      uncompressed += writer.offset - pageOffset + levelOut.length + pageOut.length;
      writer.appendBytes(levelOut.view());
      writer.appendBytes(compressed);
      locations.push({ offset: BigInt(pageOffset), compressed_page_size: writer.offset - pageOffset, first_row_index: BigInt(from) });
      nulls += pageNulls;
      pages++;
      from = to;
    }
    const encoding = entries >= 0 ? 'RLE_DICTIONARY' : 'PLAIN';
    const encoding_stats = [
      ...(entries >= 0 ? [{ page_type: 'DICTIONARY_PAGE', encoding: 'PLAIN', count: 1 } as const] : []),
      { page_type: 'DATA_PAGE_V2', encoding, count: pages } as const,
    ];
    const chunk: ColumnChunk = {
      meta_data: {
        type: this.column.element.type ?? 'BYTE_ARRAY',
        encodings: entries >= 0 ? ['PLAIN', 'RLE_DICTIONARY'] : ['PLAIN'],
        path_in_schema: [this.column.name],
        codec: 'SNAPPY',
        num_values: BigInt(n),
        total_compressed_size: BigInt(writer.offset - start),
        total_uncompressed_size: BigInt(uncompressed),
        data_page_offset,
        dictionary_page_offset,
        statistics: { ...this.#minMax(entries), null_count: BigInt(nulls) },
        encoding_stats,
      },
      file_offset: BigInt(start),
    };
    this.n = 0;
    return pages > 1 ? { chunk, offsetIndex: { page_locations: locations } } : { chunk };
  }

  /** Where the page that begins at cell `from` ends: once the estimated bytes reach PAGE_SIZE, the cell that reaches them begins the next. */
  #pageEnd(from: number, indexed: boolean): number {
    // Most chunks are one page: all their bytes, a bound on any page's, below the size.
    if ((indexed ? 4 * (this.n - from) : this.plainBytesFrom(from)) < PAGE_SIZE) return this.n;
    let bytes = 0;
    for (let i = from; i < this.n; i++) {
      const size = this.levels[i] === 0 ? 0 : indexed ? 4 : this.plainBytes(i);
      bytes += size;
      if (bytes >= PAGE_SIZE && i > from) return i;
    }
    return this.n;
  }

  /** A page's values as dictionary indexes (their bit width, then the hybrid); its nulls. */
  #indexPage(from: number, to: number): number {
    const { levels, indexes } = this;
    let nulls = 0;
    let max = 0;
    for (let i = from; i < to; i++) {
      if (levels[i] === 0) nulls++;
      else if (indexes[i] > max) max = indexes[i];
    }
    const bits = bitWidth(max);
    pageOut.room(1);
    pageOut.bytes[pageOut.length++] = bits;
    if (nulls === 0) {
      writeHybrid(pageOut, indexes, from, to, bits);
      return 0;
    }
    // The values' indexes only, nulls left out.
    pageIndexes = grown(pageIndexes, to - from);
    let k = 0;
    for (let i = from; i < to; i++) if (levels[i] !== 0) pageIndexes[k++] = indexes[i];
    writeHybrid(pageOut, pageIndexes, 0, k, bits);
    return nulls;
  }

  /** A page's values in PLAIN; its nulls. */
  #plainPage(from: number, to: number): number {
    let nulls = 0;
    for (let i = from; i < to; i++) {
      if (this.levels[i] === 0) nulls++;
      else this.plain(pageOut, i);
    }
    return nulls;
  }

  /** The statistics' least and greatest values: over the dictionary's entries when there is one (each the first cell of its value). */
  #minMax(entries: number): { min_value?: number | bigint | string; max_value?: number | bigint | string } {
    const [min, max] = entries >= 0 ? this.extremes(this.entries, entries) : this.extremes(null, this.n);
    return min < 0 ? {} : { min_value: this.statistic(min, true), max_value: this.statistic(max, false) };
  }

  /**
   * The cells of the least and the greatest value (Parquet's order; the first of equals), -1 when all
   * are null: among cells[0, count) (in order), or among cells [0, count) when `cells` is null.
   */
  protected abstract extremes(cells: Int32Array | null, count: number): [number, number];

  /**
   * Fills the dictionary (entries and each cell's index) and gives its size, or -1 where
   * hyparquet-writer would write PLAIN: when the sample's distinct bytes exceed 90% of its bytes,
   * or when the dictionary and its indexes would not halve the PLAIN bytes.
   */
  #dictionary(): number {
    const n = this.n;
    const prefix = this.physicalBytes === 0 ? 4 : 0;
    const sampleSize = Math.min(n, SAMPLE);
    this.#clear(sampleSize);
    let sampleDistinct = 0;
    let sampleTotal = 0;
    for (let s = 0; s < sampleSize; s++) {
      const i = sampleSize === 1 ? 0 : Math.floor(s * (n - 1) / (sampleSize - 1));
      // A null counts as a value of no bytes.
      if (this.levels[i] === 0) continue;
      const size = this.dictionaryBytes(i) + prefix;
      if (this.#find(i) === this.size) {
        this.entries[this.size++] = i;
        sampleDistinct += size;
      }
      sampleTotal += size;
    }
    if (!sampleTotal || sampleDistinct / sampleTotal > SAMPLE_REJECTION) return -1;
    this.#clear(n);
    this.indexes = grown(this.indexes, n);
    let values = 0;
    for (let i = 0; i < n; i++) values += this.levels[i];
    this.#values = values;
    this.#prefix = prefix;
    this.#total = this.allDictionaryBytes(values) + values * prefix;
    this.#distinct = 0;
    return this.indexAll() ? this.size : -1;
  }

  // The full pass's figures, for admit().
  #values = 0;
  #prefix = 0;
  #total = 0;
  #distinct = 0;

  /**
   * The full pass over the cells held (each kind its own, the hash and equality inlined): each value's
   * entry in `indexes`, a value equal to the cell before it (runs of a key's rows) taking that one's
   * without a lookup; a value not in `slots` becomes an entry through admit(). False as soon as admit() is.
   */
  protected abstract indexAll(): boolean;

  /**
   * Cell i's value, not yet in the dictionary (its slot taken), becomes the next entry; false where the
   * entries so far and their indexes' bytes no longer halve the PLAIN bytes (both only grow: PLAIN).
   */
  protected admit(i: number): boolean {
    this.entries[this.size++] = i;
    this.#distinct += this.dictionaryBytes(i) + this.#prefix;
    return 2 * (this.#distinct + Math.ceil(this.#values * Math.ceil(Math.log2(this.size)) / 8)) <= this.#total;
  }

  /** An empty hash set for up to `n` entries. */
  #clear(n: number): void {
    let slots = 1024;
    while (slots < 2 * n) slots *= 2;
    if (this.slots.length !== slots) this.slots = new Int32Array(slots);
    else this.slots.fill(0);
    this.entries = grown(this.entries, n);
    this.size = 0;
  }

  /** The entry whose value is cell i's, or size (a new entry's, its slot taken) when there is none. */
  #find(i: number): number {
    const mask = this.slots.length - 1;
    for (let h = this.hash(i) & mask; ; h = (h + 1) & mask) {
      const e = this.slots[h] - 1;
      if (e < 0) {
        this.slots[h] = this.size + 1;
        return this.size;
      }
      if (this.same(this.entries[e], i)) return e;
    }
  }
}
