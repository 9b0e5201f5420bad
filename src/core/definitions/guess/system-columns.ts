/**
 * DB_TRX_ID + DB_ROLL_PTR, the 13 bytes InnoDB writes after the key of every clustered record: told by
 * their layout, and where they are found splits the key from the other columns (in both row formats).
 */
import type { LayoutField } from './record-fields.ts';
import { varOffset, type CRec, type Structure } from './structure.ts';

/** Every clustered record has them: without them the key cannot be told, nor the layout be what openTable() reads. */
export const NO_SYSTEM_COLUMNS = 'no DB_TRX_ID/DB_ROLL_PTR pair was recognised in the records, so the key cannot be told from the other columns';

export const uncertainKeyNote = (percent: number): string => `DB_TRX_ID/DB_ROLL_PTR only recognised in ${percent}% of the records: the key columns are uncertain`;

/** DB_TRX_ID + DB_ROLL_PTR at q: a trx id below 2^32, and an undo pointer (or MariaDB's reset value after purge). */
export function looksLikeSystem(b: Uint8Array, q: number, pageSize: number): boolean {
  if (q + 13 > b.length - 8) return false;
  if (b[q] !== 0 || b[q + 1] !== 0) return false;
  const trxZero = b[q + 2] === 0 && b[q + 3] === 0 && b[q + 4] === 0 && b[q + 5] === 0;
  const r = q + 6;
  const rollReset = b[r] === 0x80 && b[r + 1] === 0 && b[r + 2] === 0 && b[r + 3] === 0 && b[r + 4] === 0 && b[r + 5] === 0 && b[r + 6] === 0;
  if (trxZero) return rollReset;
  if (rollReset) return false;
  // rollback segment id 1..127 (insert flag in the top bit), undo page number below 2^24, offset within a page
  const offset = (b[r + 5] << 8) | b[r + 6];
  return (b[r] & 0x7f) !== 0 && b[r + 1] === 0 && offset >= 38 && offset < pageSize;
}

/** Where the 13 system bytes start: fixed offset t, after the first kv variable fields. */
export interface SystemAt {
  t: number;
  kv: number;
  score: number;
}

/** The first fixed byte after the system columns (0 when they were not found): where NULL-able columns may start. */
export const afterSystem = (sys: SystemAt): number => (sys.t >= 0 ? sys.t + 13 : 0);

/** Key fields are NOT NULL, so only the leading NOT NULL variable fields can be part of the key. */
export function leadingNotNull(s: Structure): number {
  let leading = 0;
  while (leading < s.vars.length && s.vars[leading].bit < 0) leading++;
  return leading;
}

export function findSystem(recs: readonly CRec[], s: Structure, pageSize: number): SystemAt {
  const leading = leadingNotNull(s);
  let best: SystemAt = { t: -1, kv: 0, score: 0 };
  // NULL-able columns all come after the system columns, so NULL ones do not move them
  const sample = recs.slice(0, 1000);
  for (let kv = 0; kv <= leading; kv++) {
    for (let t = 0; t + 13 <= s.fixedLen; t++) {
      let ok = 0;
      for (const r of sample) {
        if (looksLikeSystem(r.b, varOffset(r, kv, t), pageSize)) ok++;
      }
      const score = sample.length > 0 ? ok / sample.length : 0;
      if (score > best.score) best = { t, kv, score };
    }
  }
  return best;
}


/** A key of one 6-byte field whose values are small and distinct: InnoDB's own DB_ROW_ID (no key). */
export function markRowId(layout: LayoutField[], recs: readonly CRec[]): void {
  const keys = layout.filter((f) => f.role === 'key');
  if (keys.length !== 1 || keys[0].fixedLen !== 6 || layout[0] !== keys[0]) return;
  if (recs.every((r) => r.b[r.o] < 0x80)) keys[0].role = 'row_id';
}
