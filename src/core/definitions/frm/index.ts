/**
 * Table definitions from .frm files, which MySQL 5.x and MariaDB keep beside each table's .ibd
 * (MariaDB still writes them). The file does not hold the table's name: it is its file name.
 */
import type { ByteSource } from '../../tablespace/source.ts';
import { parseFrm, FrmError } from './frm-file.ts';
import { frmTableDef, type FrmTableDef } from './frm-table.ts';

export { parseFrm, FrmError, type FrmImage, type FrmField, type FrmKey } from './frm-file.ts';
export { frmTableDef, type FrmTableDef } from './frm-table.ts';

/** .frm files are small (at most 1 MB: FRM_MAX_SIZE, 512 KB in MySQL 5.x). */
const FRM_MAX_SIZE = 1 << 20;

/**
 * The table name a file name stands for: the base name without extension, partition suffix
 * (`#P#p0`) or temporary prefix, with MySQL's `@xxxx` escapes decoded (`my@002dtable` is
 * `my-table`). The rarer two-character escapes of accented letters are left as they are.
 */
export function tableNameOfFile(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const stem = base.replace(/\.(frm|ibd|cfg|sql)$/i, '').replace(/#p#.*$/is, '');
  return stem.replace(/@([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Parses .frm bytes; `fileName` gives the table its name. Throws FrmError/Error saying what is wrong. */
export function readFrmBytes(bytes: Uint8Array, fileName: string): FrmTableDef {
  return frmTableDef(parseFrm(bytes), tableNameOfFile(fileName));
}

/** Reads and parses a .frm file. */
export async function readFrm(source: ByteSource): Promise<FrmTableDef> {
  if (source.size > FRM_MAX_SIZE) throw new FrmError(`${source.name} is ${source.size} bytes long; a .frm is at most ${FRM_MAX_SIZE >> 10} KB`);
  const bytes = await source.read(0, source.size);
  try {
    return readFrmBytes(bytes, source.name);
  } catch (e) {
    const error = new FrmError(`${source.name}: ${(e as Error).message}`);
    throw error;
  }
}
