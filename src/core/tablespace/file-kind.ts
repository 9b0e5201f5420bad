/**
 * What a file that holds no InnoDB page looks like instead, from its first bytes: the user dropped
 * or named the wrong file (an archive of the datadir, the .frm, a dump, a screenshot), and is told
 * so before anything about table definitions. Magic numbers as the formats define them.
 */
import type { ByteSource } from './source.ts';

/** Bytes looked at: enough for tar's header and to tell text from binary. */
const HEAD_BYTES = 64 << 10;
/** Bytes checked for zeros: a file of zeros is often a copy that was never written (or a hole). */
const ZERO_BYTES = 1 << 20;

const MAGIC: { at: number; bytes: number[]; kind: string }[] = [
  { at: 0, bytes: [0x50, 0x4b, 0x03, 0x04], kind: 'a zip archive' },
  { at: 0, bytes: [0x50, 0x4b, 0x05, 0x06], kind: 'a zip archive (empty)' },
  { at: 0, bytes: [0x1f, 0x8b], kind: 'a gzip-compressed file' },
  { at: 0, bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], kind: 'an xz-compressed file' },
  { at: 0, bytes: [0x42, 0x5a, 0x68], kind: 'a bzip2-compressed file' },
  { at: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], kind: 'a 7z archive' },
  { at: 0, bytes: [0x28, 0xb5, 0x2f, 0xfd], kind: 'a zstd-compressed file' },
  { at: 257, bytes: [0x75, 0x73, 0x74, 0x61, 0x72], kind: 'a tar archive' },
  // FRM_VER: the first two bytes of every .frm (table.cc).
  { at: 0, bytes: [0xfe, 0x01], kind: 'a MySQL/MariaDB .frm file (a table definition, not its rows)' },
  { at: 0, bytes: [0xfe, 0xfe, 0x07], kind: 'a MyISAM index file (.MYI)' },
  { at: 0, bytes: [0x25, 0x50, 0x44, 0x46], kind: 'a PDF document' },
  { at: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], kind: 'a PNG image' },
  { at: 0, bytes: [0xff, 0xd8, 0xff], kind: 'a JPEG image' },
  { at: 0, bytes: [0x47, 0x49, 0x46, 0x38], kind: 'a GIF image' },
  { at: 0, bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0x00], kind: 'an SQLite database' },
  { at: 0, bytes: [0x7f, 0x45, 0x4c, 0x46], kind: 'an executable (ELF)' },
  { at: 0, bytes: [0xff, 0xfe], kind: 'UTF-16 text' },
  { at: 0, bytes: [0xfe, 0xff], kind: 'UTF-16 text' },
];

/** What mysqldump, mariadb-dump and SHOW CREATE TABLE output start lines with. */
const SQL_LINE = /^\s*(--\s*(MySQL|MariaDB) dump|CREATE\s+(TABLE|DATABASE|SCHEMA)|INSERT\s+INTO|DROP\s+TABLE|\/\*!\d{5}\s|SET\s+NAMES|USE\s+`)/im;

function hasMagic(head: Uint8Array, at: number, bytes: number[]): boolean {
  return head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b);
}

/** Text, when the bytes are UTF-8 without control characters other than whitespace; else null. */
function textKind(head: Uint8Array): string | null {
  let text: string;
  try {
    // stream: a character cut at the end of the sample is not an error.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]/.test(text)) return null;
  if (SQL_LINE.test(text)) return 'an SQL script or dump (text)';
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? 'text (ASCII)' : 'text (UTF-8)';
}

/** What `head`, the first bytes of a file of `size` bytes, looks like (a noun phrase). */
export function describeBytes(head: Uint8Array, size: number): string {
  if (size === 0) return 'an empty file (0 bytes)';
  const magic = MAGIC.find((m) => hasMagic(head, m.at, m.bytes));
  if (magic) return magic.kind;
  if (head.every((b) => b === 0)) return head.length >= size ? 'all zero bytes' : `zero bytes (all of its first ${head.length >> 10} KB)`;
  return textKind(head.subarray(0, HEAD_BYTES)) ?? 'binary data of no kind recognised';
}

/** What the file looks like, with its size when it is too short to hold any InnoDB page. */
export async function describeFile(source: ByteSource): Promise<string> {
  const head = await source.read(0, Math.min(source.size, ZERO_BYTES));
  const kind = describeBytes(head, source.size);
  return source.size > 0 && source.size < 1024 ? `${kind}, ${source.size} bytes: shorter than any InnoDB page` : kind;
}
