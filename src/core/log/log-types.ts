/**
 * What the redo log layer (MySQL's storage/innobase/log: log0log, log0recv; and buf0dblwr) tells the
 * layers that read pages, shared by its modules: the bounds of a datadir's redo log, whatever server
 * wrote it, and the intact page copies its doublewrite buffer keeps.
 */

/** The redo log of a datadir, as far as its checkpoint and its end: enough to say whether the server stopped cleanly. */
export interface RedoLogBounds {
  /** The log's format, in words: 'MariaDB 10.8+', 'MariaDB 10.5', 'MySQL 5.7', 'MySQL 8.0.30+' … */
  format: string;
  /** The creator string of its header ('MariaDB 10.11.6', 'MySQL 8.0.36'), or '' when it has none. */
  creator: string;
  /** The LSN of the newest valid checkpoint: every change before it is in the data files. */
  checkpointLsn: number;
  /** The LSN the log reaches: the end of its last complete mini-transaction (checksums valid). */
  endLsn: number;
  /** The log is encrypted (MariaDB innodb_encrypt_log, MySQL innodb_redo_log_encrypt). */
  encrypted: boolean;
}

/** Intact copies of pages kept by a doublewrite buffer (buf0dblwr), for restoring a torn page. */
export interface DoublewriteCopies {
  /**
   * The newest copy of page `pageNo` of tablespace `spaceId` that passes its checksum, as stored
   * (physical size), or null when the buffer holds none.
   */
  copyOf(spaceId: number, pageNo: number): Uint8Array | null;
  /** How many page copies the buffer holds that pass their checksums. */
  readonly size: number;
}
