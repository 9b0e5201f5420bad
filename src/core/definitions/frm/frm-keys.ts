/**
 * The key records of a .frm, turned into the table's indexes and the key lines of its
 * SHOW CREATE TABLE: key flags and algorithm give the kind, key parts name their field, and a key
 * part shorter than its column is a prefix.
 */
import { quoteIdentifier, quoteString } from '../create-sql.ts';
import { maxBytesPerChar } from '../ddl/charsets.ts';
import type { ColumnType, IndexColumn, IndexDef } from '../../schema.ts';
import { HA_KEY_ALG_LONG_HASH, type FrmImage, type FrmKey } from './frm-file.ts';
import type { Resolved } from './frm-columns.ts';

/** Key flags (my_base.h HA_*). */
const K = { NOSAME: 1, FULLTEXT: 128, SPATIAL: 1024 } as const;
/** HA_KEY_ALG_*. */
const ALG = { BTREE: 1, RTREE: 2, HASH: 3, FULLTEXT: 4, LONG_HASH: HA_KEY_ALG_LONG_HASH } as const;
/** Key part flag of a DESC key part (HA_REVERSE_SORT). */
const REVERSE_SORT = 128;

/** The indexes of the table and their lines of SHOW CREATE TABLE, in the order of the key records. */
export function frmKeys(image: FrmImage, resolved: Resolved[]): { indexes: IndexDef[]; lines: string[] } {
  const indexes: IndexDef[] = [];
  const lines: string[] = [];
  image.keys.forEach((key, k) => {
    const kind = keyKind(key, k);
    const parts: IndexColumn[] = [];
    const texts: string[] = [];
    for (const part of key.parts) {
      const r = resolved[part.field];
      if (!r) throw new Error(`key \`${key.name}\` names column number ${part.field + 1}, which the table does not have`);
      const prefix = key.algorithm === ALG.LONG_HASH ? 0 : prefixChars(part, r, kind);
      const descending = (part.flags & REVERSE_SORT) !== 0;
      parts.push({ name: r.column.name, prefix, descending });
      // the hidden ROW END the server appends to the keys of a versioned table is not printed
      if (r.field.invisible >= 2) continue;
      texts.push(`${quoteIdentifier(r.column.name)}${prefix ? `(${prefix})` : ''}${descending ? ' DESC' : ''}`);
    }
    // a long UNIQUE is enforced through a hash of a hidden virtual column: InnoDB holds no unique
    // index on these columns, so it cannot cluster on it
    indexes.push({ name: kind === 'primary' ? 'PRIMARY' : key.name, kind: key.algorithm === ALG.LONG_HASH ? 'key' : kind, columns: parts });
    lines.push(keyText(key, kind, texts));
  });
  return { indexes, lines };
}

function keyKind(key: FrmKey, index: number): IndexDef['kind'] {
  if (index === 0 && key.name === 'PRIMARY') return 'primary';
  if (key.flags & K.FULLTEXT || key.algorithm === ALG.FULLTEXT) return 'fulltext';
  if (key.flags & K.SPATIAL) return 'spatial';
  return key.flags & K.NOSAME ? 'unique' : 'key';
}

const BLOB_LIKE = new Set<ColumnType>(['tinytext', 'text', 'mediumtext', 'longtext', 'tinyblob', 'blob', 'mediumblob', 'longblob']);

/** A key part shorter than its column is a prefix (in characters); TEXT/BLOB parts always are. */
function prefixChars(part: { length: number }, r: Resolved, kind: IndexDef['kind']): number {
  const c = r.column;
  if (kind === 'fulltext' || kind === 'spatial' || part.length === 0) return 0;
  const isString = BLOB_LIKE.has(c.type) || ['char', 'varchar', 'binary', 'varbinary'].includes(c.type);
  if (!isString || (!BLOB_LIKE.has(c.type) && part.length >= r.field.length)) return 0;
  return Math.floor(part.length / maxBytesPerChar(c.charset));
}

function keyText(key: FrmKey, kind: IndexDef['kind'], parts: string[]): string {
  const head = kind === 'primary' ? 'PRIMARY KEY' : `${{ unique: 'UNIQUE KEY', key: 'KEY', fulltext: 'FULLTEXT KEY', spatial: 'SPATIAL KEY' }[kind]} ${quoteIdentifier(key.name)}`;
  let text = `${head} (${parts.join(',')})`;
  if (key.algorithm === ALG.BTREE) text += ' USING BTREE';
  else if (key.algorithm === ALG.HASH || key.algorithm === ALG.LONG_HASH) text += ' USING HASH';
  else if (key.algorithm === ALG.RTREE && kind !== 'spatial') text += ' USING RTREE';
  if (key.blockSize) text += ` KEY_BLOCK_SIZE=${key.blockSize}`;
  if (key.comment) text += ` COMMENT ${quoteString(key.comment)}`;
  if (key.ignored) text += ' IGNORED';
  return text;
}
