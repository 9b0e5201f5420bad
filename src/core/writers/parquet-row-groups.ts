/**
 * A Parquet file made of row groups encoded apart (one run of leaf pages per worker, in parallel) and
 * laid out in order by whoever writes the file. Parquet's layout is `PAR1`, the row groups' column
 * chunks, then the FileMetaData (every row group's metadata, with the file offsets of its chunks and
 * pages), its length and `PAR1`: a run's bytes do not depend on where they land, only their
 * metadata's offsets do. So a run hands out its bytes with its metadata (a ParquetPart, offsets as if
 * it were the only part, right after the head), the writer places the parts in key order
 * (ParquetLayout: the offsets moved to where each part lands, the values not held renumbered from the
 * file's first row), and the footer is encoded from the layout (parquet-rows.ts parquetFooter).
 *
 * Only metadata is kept here: a few objects per column chunk, never the rows or their bytes.
 */
import type { ColumnChunk, OffsetIndex, RowGroup } from 'hyparquet';
import type { PageColumnIndex } from 'hyparquet-writer/src/types.js';

/** The file's head (and tail): `PAR1`. */
export const PARQUET_MAGIC = Uint8Array.of(0x50, 0x41, 0x52, 0x31);
/** Rows named per column in the notes of values not held. */
export const ROWS_NAMED = 10;

/** The cells of a column its Parquet type could not hold, written as nulls. */
export interface NotHeld {
  column: string;
  count: number;
  /** The first rows (numbered from 0) holding one. */
  rows: number[];
  /** The first cell's text. */
  example: string;
}

/** A column chunk's page indexes (hyparquet-writer's PageIndexes but the chunk, which is its row group's). */
export interface ChunkIndexes {
  columnIndex?: PageColumnIndex;
  offsetIndex?: OffsetIndex;
}

/** What a file's footer is made from: its row groups in order, each chunk's indexes (in the same order), rows, and where the footer begins. */
export interface ParquetGroups {
  rowGroups: RowGroup[];
  indexes: ChunkIndexes[];
  rows: number;
  /** The file offset after the last row group. */
  offset: number;
  notHeld: NotHeld[];
}

/** A run's row groups: their metadata, with offsets as if their bytes (`size` of them) began right after the head; rows not held numbered from the run's first. */
export type ParquetPart = ParquetGroups & { size: number };

/** A note of values not held, for a warning: the column, how many, the first one and its rows. */
export function describeNotHeld(n: NotHeld): string {
  const rows = `${n.count === 1 ? 'row' : 'rows'} ${n.rows.join(', ')}${n.count > n.rows.length ? ', …' : ''}`;
  return `column \`${n.column}\`: ${n.count} ${n.count === 1 ? 'value' : 'values'} its Parquet type cannot hold, written as null (${JSON.stringify(n.example)}; ${rows}, counted from 0)`;
}

const shifted = (v: bigint | undefined, by: bigint) => (v === undefined ? undefined : v + by);

/** A chunk's offsets moved `by` bytes (its pages' offsets are its indexes'). */
function shiftChunk(chunk: ColumnChunk, by: bigint): ColumnChunk {
  const m = chunk.meta_data;
  const meta_data = m && {
    ...m, data_page_offset: m.data_page_offset + by, dictionary_page_offset: shifted(m.dictionary_page_offset, by), index_page_offset: shifted(m.index_page_offset, by), bloom_filter_offset: shifted(m.bloom_filter_offset, by),
  };
  return { ...chunk, file_offset: chunk.file_offset + by, meta_data };
}

function shiftIndexes(ix: ChunkIndexes, by: bigint): ChunkIndexes {
  const o = ix.offsetIndex;
  return { ...ix, offsetIndex: o && { ...o, page_locations: o.page_locations.map((p) => ({ ...p, offset: p.offset + by })) } };
}

/** The row groups of a file as its parts are placed in order; the footer is made from groups(). */
export class ParquetLayout {
  readonly #groups: ParquetGroups = { rowGroups: [], indexes: [], rows: 0, offset: PARQUET_MAGIC.length, notHeld: [] };

  /** Places `part` after the parts placed so far. */
  place(part: ParquetPart): void {
    const g = this.#groups;
    const by = BigInt(g.offset - PARQUET_MAGIC.length);
    for (const rg of part.rowGroups) g.rowGroups.push({ ...rg, file_offset: shifted(rg.file_offset, by), columns: rg.columns.map((c) => shiftChunk(c, by)) });
    for (const ix of part.indexes) g.indexes.push(shiftIndexes(ix, by));
    for (const n of part.notHeld) this.#notHeld(n, g.rows);
    g.rows += part.rows;
    g.offset += part.size;
  }

  /** The columns some of whose cells were written as nulls so far, their rows counted from the file's first. */
  notHeld(): NotHeld[] {
    return this.#groups.notHeld;
  }

  groups(): ParquetGroups {
    return this.#groups;
  }

  #notHeld(n: NotHeld, first: number): void {
    const rows = n.rows.map((r) => r + first);
    const seen = this.#groups.notHeld.find((s) => s.column === n.column);
    if (seen === undefined) {
      this.#groups.notHeld.push({ ...n, rows });
      return;
    }
    seen.count += n.count;
    seen.rows.push(...rows.slice(0, Math.max(0, ROWS_NAMED - seen.rows.length)));
  }
}
