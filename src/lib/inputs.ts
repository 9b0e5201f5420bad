/**
 * What a caller of the library hands it, in a browser as in Node: the .ibd as a File, Blob or bytes,
 * and companion files (.frm, .sql) as Files or as named data. Each becomes the ByteSource the decoder
 * reads (a Blob by slices, never whole).
 */
import { blobSource, bytesSource, type ByteSource } from '../core/tablespace/source.ts';
import type { EncryptionKeys } from '../core/tablespace/encryption.ts';

/** An .ibd: a File or Blob (read by slices as needed), or its bytes. */
export type IbdInput = Blob | Uint8Array;

/** A companion file with its name (the name says what it is: `.frm`, `.sql`); text is read as UTF-8. */
export interface NamedData {
  name: string;
  data: Blob | Uint8Array | string;
}

/** A companion file: a File (it has a name), or named data. */
export type FileInput = File | NamedData;

export interface OpenInnodbOptions<F = FileInput> {
  /** The .ibd's file name, when the input has none (a Blob, bytes): tables are matched by it. */
  name?: string;
  /** The table definition given outright (a .frm, or CREATE TABLE statements): it wins over the file's own. */
  schema?: F;
  /** Companion files (.frm, .sql), looked at after the file's own data dictionary (MySQL 8). */
  files?: readonly F[];
  /** Keys of an encrypted tablespace (loadKeyFile, parseMysqlKeyring). */
  keys?: EncryptionKeys;
  /**
   * The system tablespace (ibdata1) of the server an .ibd comes from: the definition of the table of
   * the file's space in its InnoDB data dictionary is taken when neither the .ibd's own data
   * dictionary (MySQL 8) nor a .frm describes it.
   */
  dictionary?: F;
  /**
   * The further data files of a system tablespace given as the input (ibdata2 …, as
   * innodb_data_file_path lists them), in order: its pages run on across them. In Node, the
   * numbered ones beside an ibdata1 given by its path are found when this is not given.
   */
  dataFiles?: readonly F[];
  /**
   * The redo log (ib_logfile0) of the datadir the file comes from: the pages it changed after its
   * checkpoint are read as the server's crash recovery would leave them (MariaDB 10.8+), and the
   * file's `recovery` says what was done. In Node, found in the datadir unless given; null reads the
   * pages as they are on disk.
   */
  redoLog?: F | null;
  /** The redo log is read for what it says (a clean shutdown or not, the pages it changes), not applied: the pages as on disk. */
  asOnDisk?: boolean;
}

/** The name an .ibd goes by when none is given. */
const UNNAMED_IBD = 'table.ibd';

export function ibdSource(input: IbdInput, name: string | undefined): ByteSource {
  if (input instanceof Uint8Array) return bytesSource(input, name ?? UNNAMED_IBD);
  return blobSource(input, name ?? ('name' in input && typeof input.name === 'string' ? input.name : UNNAMED_IBD));
}

export function companionSource(input: FileInput): ByteSource {
  if (!('data' in input)) return blobSource(input, input.name);
  const { name, data } = input;
  if (typeof data === 'string') return bytesSource(new TextEncoder().encode(data), name);
  return data instanceof Uint8Array ? bytesSource(data, name) : blobSource(data, name);
}
