/**
 * Partitioned tables: each partition (each subpartition) is a tablespace of its own, `t#P#p0.ibd`
 * and `t#P#p0#SP#p0sp0.ibd` in MariaDB and MySQL 5.x, `t#p#p0.ibd` and `t#p#p0#sp#p0sp0.ibd` in
 * MySQL 8.0, every one holding rows of the table's columns. Which partitions there are, in order:
 *  - MariaDB (and MySQL before 5.7's native partitioning) write `t.par` (ha_partition.cc,
 *    create_handler_file): little-endian 32-bit words — the file's length in words, a checksum (the
 *    XOR of every word is 0), the number of partitions n, n engine type bytes padded to whole words,
 *    the length in bytes of the names, then the names, each NUL-terminated, in the order of the
 *    table's partitions (`p0`, or `p0#SP#p0sp0` for a subpartition); MariaDB appends a connection
 *    string per partition (a length word, then the text), which is not needed here;
 *  - the PARTITION BY clause of the definition (a .frm keeps it, SHOW CREATE TABLE shows it) names
 *    them, or gives their count (PARTITIONS 4: p0 … p3; SUBPARTITIONS 2: p0sp0, p0sp1, …);
 *  - MySQL 8's data dictionary (SDI) lists them with their number (sdi-table.ts).
 * A partition is named here as in .par files: `p0`, `p0#SP#p0sp0`, compared without case.
 */

/** What a .frm of a partitioned table says of it (a table read from one partition's file only). */
export const PARTITIONED_NOTE = "the table is partitioned; each partition's .ibd holds rows of these columns";

/** A .par file that cannot be read, and why. */
export class ParFileError extends Error {}

const u32le = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/** The partition names a .par file lists, in order. */
export function parsePar(bytes: Uint8Array): string[] {
  if (bytes.length < 16) throw new ParFileError(`it is ${bytes.length} bytes long, too short for a .par file`);
  const words = u32le(bytes, 0);
  if (words < 4 || 4 * words > bytes.length) throw new ParFileError(`it gives its length as ${words} words, but holds ${bytes.length} bytes`);
  let sum = 0;
  for (let i = 0; i < words; i++) sum ^= u32le(bytes, 4 * i);
  if (sum !== 0) throw new ParFileError('its checksum does not match');
  const parts = u32le(bytes, 8);
  const nameLenAt = 12 + 4 * Math.ceil(parts / 4);
  if (nameLenAt + 4 > 4 * words) throw new ParFileError(`it lists ${parts} partitions, which do not fit in it`);
  const nameLen = u32le(bytes, nameLenAt);
  const names = new TextDecoder().decode(bytes.subarray(nameLenAt + 4, Math.min(4 * words, nameLenAt + 4 + nameLen))).split('\0').slice(0, parts);
  if (names.length !== parts || names.some((n) => n === '')) throw new ParFileError(`it lists ${parts} partitions but ${names.filter((n) => n !== '').length} names`);
  return names;
}

/** The table and partition a partition's file name stands for (the name as the server wrote it), or null for another file. */
export function partitionOfFile(fileName: string): { table: string; partition: string } | null {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1).replace(/\.ibd$/i, '');
  const m = /^(.+?)#p#(.+?)(?:#sp#(.+))?$/i.exec(base);
  if (!m) return null;
  return { table: m[1], partition: m[3] === undefined ? m[2] : `${m[2]}#SP#${m[3]}` };
}

/** Whether two partition names (as .par files and file names spell them) are the same partition. */
export function samePartition(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

const NAME = '`((?:[^`]|``)+)`|([A-Za-z0-9_$]+)';

/**
 * The partition names a PARTITION BY clause gives, in order (generated ones where it only counts
 * them); null when the text has no such clause.
 */
export function partitionNamesOfClause(sql: string): string[] | null {
  const by = /\bPARTITION\s+BY\b/i.exec(sql);
  if (!by) return null;
  const clause = sql.slice(by.index);
  const subCount = Number(/\bSUBPARTITIONS\s+(\d+)/i.exec(clause)?.[1] ?? 0);
  const names: { name: string; subs: string[] }[] = [];
  for (const m of clause.matchAll(new RegExp(`\\b(SUB)?PARTITION\\s+(?!BY\\b)(?:${NAME})`, 'gi'))) {
    const name = (m[2] ?? m[3]).replace(/``/g, '`');
    if (m[1] === undefined) names.push({ name, subs: [] });
    else names.at(-1)?.subs.push(name);
  }
  if (names.length === 0) {
    const count = Number(/\bPARTITIONS\s+(\d+)/i.exec(clause)?.[1] ?? 1);
    for (let i = 0; i < count; i++) names.push({ name: `p${i}`, subs: [] });
  }
  return names.flatMap((p) => {
    const subs = p.subs.length > 0 ? p.subs : Array.from({ length: subCount }, (_, j) => `${p.name}sp${j}`);
    return subs.length === 0 ? [p.name] : subs.map((s) => `${p.name}#SP#${s}`);
  });
}
