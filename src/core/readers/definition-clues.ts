/**
 * What a table definition says of itself that the file can check apart from its records: the row
 * format (a file-per-table's space flags tell COMPACT from DYNAMIC) and the table's name (the
 * file's). Used for the row format shown, which is the file's where it can be known, and for the
 * verdict on a definition that does not fit, which names what differs rather than leave it unsaid.
 */
import { tableNameOfFile } from '../definitions/frm/index.ts';
import type { TableDef } from '../schema.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';

export type FileRowFormat = 'REDUNDANT' | 'COMPACT' | 'DYNAMIC' | 'COMPRESSED';

/** MySQL 5.7+'s FSP_FLAGS_POS_SHARED: a general tablespace, whose tables each have their own format. */
const SHARED_FLAG = 1 << 11;

/** The row format the space flags give, or null where they cannot (MariaDB's full_crc32, a shared or system space, page 0 damaged). */
function flaggedRowFormat(ts: Tablespace): 'COMPACT' | 'DYNAMIC' | null {
  const f = ts.fsp.flags;
  if (f.fullCrc32 || ts.page0Damaged !== null || ts.raw || ts.fsp.spaceId === 0 || (f.raw & SHARED_FLAG) !== 0) return null;
  return f.atomicBlobs ? 'DYNAMIC' : 'COMPACT';
}

/** The format of the file's records: the space flags' where they tell, else the definition's, else DYNAMIC (MariaDB's default). */
export function fileRowFormat(ts: Tablespace, compact: boolean, table: TableDef): FileRowFormat {
  if (!compact) return 'REDUNDANT';
  if (ts.fsp.flags.zipSize !== 0) return 'COMPRESSED';
  const flagged = flaggedRowFormat(ts);
  if (flagged !== null) return flagged;
  if (table.rowFormat === 'COMPACT' || table.rowFormat === 'DYNAMIC') return table.rowFormat;
  return 'DYNAMIC';
}

/** What the definition says that the file contradicts, as clauses to add to the verdict ('; …', '' when nothing). */
export function definitionClues(ts: Tablespace, compact: boolean, table: TableDef): string {
  const clues: string[] = [];
  const fileTable = tableNameOfFile(ts.source.name);
  if (fileTable !== '' && fileTable.toLowerCase() !== table.name.toLowerCase()) {
    clues.push(`the definition is of table \`${table.name}\`, but the file is named for \`${fileTable}\``);
  }
  const format = fileRowFormat(ts, compact, table);
  const stated = table.rowFormat.toUpperCase();
  // (COMPACT and DYNAMIC look alike in the records: told apart only by the flags)
  const known = format === 'REDUNDANT' || format === 'COMPRESSED' || flaggedRowFormat(ts) !== null;
  if (known && stated !== '' && stated !== 'DEFAULT' && stated !== format) {
    clues.push(`it gives ROW_FORMAT=${stated}, but the file's records are ${format}`);
  }
  return clues.map((c) => `; ${c}`).join('');
}
