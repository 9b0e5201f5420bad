/**
 * What the page inspector tells of one page (page-inspect.ts fills it, page-inspect-index.ts its
 * INDEX part): the data a front end shows, a table of fields per structure, the records, the checksum
 * checks, the problems, and the byte ranges of every structure (for a hex dump with a legend).
 */
import type { ChecksumResult } from '../pages/checksum.ts';
import { u16, u32, u64 } from '../pages/fil-header.ts';
import type { IndexPageFields, RecordHeader } from '../pages/index-page-fields.ts';
import type { Problem } from './decode-stats.ts';
import type { PageStateName } from './page-map.ts';

/** What a byte range of the page holds, for a legend. */
export type RangeKind =
  | 'fil-header' | 'fil-trailer' | 'page-header' | 'fseg-header' | 'system-record' | 'record-header' | 'record'
  | 'free-record-header' | 'free-record' | 'free-space' | 'directory' | 'fsp-header' | 'inode-entry' | 'blob-header';

/** Bytes [start, end) of the page image. */
export interface ByteSpan {
  start: number;
  end: number;
}

/** Bytes of the page image, what they are and a label (a field's name, a record's heap number). */
export interface ByteRange extends ByteSpan {
  kind: RangeKind;
  label: string;
}

/**
 * A check the page fails: what it says, and the bytes of the page image it refused (a checksum
 * field, a record's next pointer, a directory slot, a field's value); none when no byte is to blame
 * alone (a page that cannot be decrypted) or the bytes shown are not those checked (the stored bytes
 * of an encrypted page).
 */
export interface InspectProblem {
  message: string;
  bytes: ByteSpan[];
}

/** One field of an on-disk structure: its name as InnoDB's headers call it, where it is, its value. */
export interface Field {
  name: string;
  offset: number;
  size: number;
  /** The stored number (64-bit ones as decimal text), or a value already put in words. */
  value: number | string;
  /** What the value means, where it says more than the number. */
  note?: string;
}

/** The fields of one structure, in page order. */
export interface Section {
  title: string;
  fields: Field[];
}

/** One checksum algorithm against the page as stored: each place it keeps its checksum, what is there and what it computes to. */
export interface ChecksumCheck {
  algorithm: string;
  places: { offset: number; stored: number; computed: number }[];
  matches: boolean;
}

export interface ChecksumReport {
  /** The verdict of the reader, as the Tablespace checks the page (what the summary and the decoder go by). */
  result: ChecksumResult;
  /** Each algorithm the file may use, computed on the bytes as stored. */
  checks: ChecksumCheck[];
  /** The low 32 bits of FIL_PAGE_LSN again at the end of the page (a mismatch: a torn, half-written page); null where the format has none. */
  lsnMatches: boolean | null;
  /**
   * Page 0 not believed, why (Tablespace.page0Damaged: all zeros, a wrong type …): the verdict's
   * reason where its checksum fields alone would not give it (a page of zeros is no checksum mismatch).
   */
  damaged: string | null;
}

export interface InspectedRecord {
  origin: number;
  /** How the record is reached: the page's infimum or supremum, the record list (key order), the free list (deleted records). */
  reached: 'system' | 'list' | 'free';
  header: RecordHeader;
  deleted: boolean;
  /** REC_INFO_MIN_REC: the leftmost node pointer of a level, or MariaDB's instant ALTER metadata record on a leaf. */
  minRec: boolean;
  /** ordinary, node pointer, infimum, supremum, instant (MariaDB). */
  kind: string;
  /** Its bytes, from the first byte before the origin (null bitmap, lengths) to its data's end: REDUNDANT always, COMPACT with a table definition. */
  start: number | null;
  end: number | null;
  /** A node pointer's child page (REDUNDANT always; COMPACT with a table definition). */
  childPage: number | null;
  /** On a leaf of the clustered index, with a table definition: its values as the decoder writes them, in column order. */
  values: (string | null)[] | null;
  /** Why its values could not be decoded, and the field whose value check refused it. */
  error: string | null;
  errorField: ByteSpan | null;
}

/** The rows the decoder reads from this leaf page (every state), with what it found wrong. */
export interface DecodedPage {
  columns: string[];
  rows: (string | null)[][];
  problems: Problem[];
}

export interface IndexPageInspection {
  header: IndexPageFields;
  /** The page's index is the table's clustered index (the B-tree root with the lowest index id); null when no root was found. */
  clustered: boolean | null;
  /** Infimum, the record list in key order, supremum, then the free list. */
  records: InspectedRecord[];
  /** Indexes into `records` by heap number. */
  heapOrder: number[];
  /** What the walk of the record list refused (with the offset), or null. */
  listDamage: string | null;
  /** The page directory, slot 0 first: each slot's record and how many records it owns. */
  directory: { slot: number; offset: number; owned: number | null }[];
  /** Column names of `values`, with a table definition. */
  columns: string[] | null;
  /** With a table definition, on a leaf of the clustered index. */
  decoded: DecodedPage | null;
}

export interface PageInspection {
  file: string;
  page: number;
  state: Exclude<PageStateName, 'pending' | 'unchecked'>;
  /** FIL_PAGE_TYPE of the page image (of the stored bytes for a page that cannot be read). */
  type: number;
  typeName: string;
  /** The page image (decrypted, decompressed): what `ranges` and the structures refer to; empty for a missing page. */
  bytes: Uint8Array;
  /** The page as stored, when it is not the image (encrypted, compressed); else null. */
  stored: Uint8Array | null;
  /** FIL header, the type's own headers, FIL trailer. */
  sections: Section[];
  checksum: ChecksumReport | null;
  index: IndexPageInspection | null;
  ranges: ByteRange[];
  problems: InspectProblem[];
}

/** A field of `size` bytes (1, 2, 4 or 8) read from `bytes` at `offset`. */
export function readField(bytes: Uint8Array, name: string, offset: number, size: number, note?: string): Field {
  const value = size === 8 ? u64(bytes, offset).toString() : size === 4 ? u32(bytes, offset) : size === 2 ? u16(bytes, offset) : bytes[offset];
  return note === undefined ? { name, offset, size, value } : { name, offset, size, value, note };
}

/** A problem and the bytes it refused. */
export const problem = (message: string, ...bytes: ByteSpan[]): InspectProblem => ({ message, bytes });

/** The byte ranges of a section's fields. */
export function fieldRanges(section: Section, kind: RangeKind): ByteRange[] {
  return section.fields.map((f) => ({ start: f.offset, end: f.offset + f.size, kind, label: f.name }));
}
