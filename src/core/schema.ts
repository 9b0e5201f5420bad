/**
 * The table model every schema source (CREATE TABLE text, later .frm and SDI) produces, and the
 * record decoder consumes. Types and charsets are normalised here so the decoder never re-parses SQL.
 */

export type ColumnType =
  | 'tinyint' | 'smallint' | 'mediumint' | 'int' | 'bigint'
  | 'decimal' | 'float' | 'double' | 'bit' | 'bool'
  | 'date' | 'time' | 'datetime' | 'timestamp' | 'year'
  | 'char' | 'varchar' | 'binary' | 'varbinary'
  | 'tinytext' | 'text' | 'mediumtext' | 'longtext'
  | 'tinyblob' | 'blob' | 'mediumblob' | 'longblob'
  | 'enum' | 'set' | 'json'
  | 'geometry' | 'point' | 'linestring' | 'polygon' | 'multipoint' | 'multilinestring'
  | 'multipolygon' | 'geometrycollection'
  | 'inet4' | 'inet6' | 'uuid' | 'vector';

export interface Column {
  /** Column name as written in the DDL, without quotes. */
  name: string;
  /** Base type, lower case; synonyms resolved (INTEGER→int, BOOLEAN→bool is kept as 'bool' = tinyint(1), REAL→double, NUMERIC→decimal, DEC→decimal, FIXED→decimal, CHARACTER VARYING→varchar, LONG VARCHAR→mediumtext). */
  type: ColumnType;
  unsigned: boolean;
  zerofill: boolean;
  nullable: boolean;
  /** CHAR/VARCHAR/BINARY/VARBINARY: length in characters (bytes for binary types); BIT: number of bits (default 1); VECTOR: dimensions. 0 when not applicable. */
  length: number;
  /** DECIMAL(M,D): M (default 10) and D (default 0). FLOAT(M,D)/DOUBLE(M,D) keep them too. 0 when absent. */
  precision: number;
  scale: number;
  /** Fractional seconds precision for TIME/DATETIME/TIMESTAMP (0..6). */
  fsp: number;
  /** Effective character set for string types: 'latin1', 'utf8mb3', 'utf8mb4', 'ascii', 'binary', 'ucs2', 'utf16', 'utf32', 'gbk', 'big5', 'sjis', 'ujis', 'euckr', 'gb18030', ... ('utf8' is normalised to 'utf8mb3'). For non-string types: 'binary'. */
  charset: string;
  /** Collation if given explicitly (or the table default), else ''. */
  collation: string;
  /** ENUM/SET member strings, unquoted, in order. */
  values: string[];
  /** Generated columns: VIRTUAL ones are not stored in the clustered index record. */
  generated: 'virtual' | 'stored' | null;
  invisible: boolean;
  /**
   * TIME/DATETIME/TIMESTAMP stored in the pre-5.6 format (MySQL 5.5, MariaDB 5.3-10.0): the SQL type
   * cannot tell, `SHOW CREATE TABLE` marks it with a comment (`/* mariadb-5.3 *\/`, `/* 5.5 binary format *\/`).
   */
  legacyTemporal: boolean;
  /** DEFAULT clause as the literal SQL text (e.g. "'abc'", "NULL", "CURRENT_TIMESTAMP"), or null when absent. */
  defaultSql: string | null;
  comment: string;
}

export interface IndexColumn {
  name: string;
  /** Prefix length in characters, e.g. KEY (c(10)); 0 for the whole column. */
  prefix: number;
  descending: boolean;
}

export interface IndexDef {
  /** 'PRIMARY' for the primary key. */
  name: string;
  kind: 'primary' | 'unique' | 'key' | 'fulltext' | 'spatial';
  columns: IndexColumn[];
}

export interface TableDef {
  name: string;
  columns: Column[];
  indexes: IndexDef[];
  /** ROW_FORMAT= as written (upper case), or '' when the DDL is silent. */
  rowFormat: string;
  /** Table default charset (normalised like Column.charset). */
  charset: string;
  /** The CREATE TABLE statement this was read from (for display and export). */
  createSql: string;
  /**
   * Set for a partial guess of the columns (definitions/guess/partial-guess.ts): the columns are only
   * the clustered record's leading fields, and the record goes on with fields not described, named by
   * this text. Those are not decoded, and the records then take more of the heap than the columns do.
   */
  partialRecord?: string;
}
