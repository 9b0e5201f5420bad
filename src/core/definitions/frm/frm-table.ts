/**
 * A parsed .frm turned into the TableDef every schema source produces, and into the CREATE TABLE
 * text the server's SHOW CREATE TABLE prints for it (MariaDB 10.2+ style for MariaDB files: numeric
 * defaults unquoted, current_timestamp() in lower case; MySQL 5.x style otherwise).
 *
 * This module puts the table together and writes its column lines and table options; the columns
 * come from frm-columns.ts, their defaults from frm-defaults.ts, the keys from frm-keys.ts.
 */
import { defaultCollation, type ServerFlavor } from '../../values/collations.ts';
import { quoteIdentifier, quoteString } from '../create-sql.ts';
import type { TableDef } from '../../schema.ts';
import type { FrmImage } from './frm-file.ts';
import { collationOf, resolveField, TEXT_TYPES, U, type Resolved } from './frm-columns.ts';
import { defaultText, nullBitOf } from './frm-defaults.ts';
import { frmKeys } from './frm-keys.ts';
import { PARTITIONED_NOTE } from '../partitions.ts';

export interface FrmTableDef {
  table: TableDef;
  /** 'mariadb' for files written by MariaDB 10.0+, else 'mysql'. */
  flavor: ServerFlavor;
  mysqlVersion: number;
  /** Storage engine named in the file. */
  engine: string;
  /** What the definition cannot express that may matter for the rows. */
  warnings: string[];
}

/** Row formats by row_type (enum row_type). */
const ROW_TYPES: Record<number, string> = { 1: 'FIXED', 2: 'DYNAMIC', 3: 'COMPRESSED', 4: 'REDUNDANT', 5: 'COMPACT', 6: 'PAGE' };
/** Engines by legacy_db_type, for files whose extra segment does not name it. */
const LEGACY_ENGINES: Record<number, string> = { 9: 'MyISAM', 12: 'InnoDB', 6: 'MEMORY', 17: 'CSV', 16: 'ARCHIVE', 19: 'BLACKHOLE', 27: 'Aria', 20: 'partition' };

/** Builds the table definition of a parsed .frm; `name` is the table name (from the file name). */
export function frmTableDef(image: FrmImage, name: string): FrmTableDef {
  const flavor: ServerFlavor = image.mysqlVersion >= 100000 ? 'mariadb' : 'mysql';
  const tableCollation = collationOf(image.tableCharsetId, flavor, `table \`${name}\``);
  const warnings: string[] = [];
  const named = image.engine || LEGACY_ENGINES[image.legacyDbType] || 'InnoDB';
  // A partitioned table's .frm names the partition engine; its partitions' engine is in the clause.
  const engine = named === 'partition' && image.partitionInfo ? (/\bENGINE\s*=\s*(\w+)/i.exec(image.partitionInfo)?.[1] ?? 'InnoDB') : named;
  if (engine.toLowerCase() !== 'innodb') warnings.push(`the table uses the ${engine} engine, not InnoDB: its rows are not in an .ibd file`);
  if (image.systemVersioning) warnings.push('the table is WITH SYSTEM VERSIONING: its history rows are decoded like current ones (their row end time is in the past)');
  if (image.partitionInfo) warnings.push(PARTITIONED_NOTE);
  const resolved = image.fields.map((f) => resolveField(f, image, flavor));
  const nullBits = nullBitOf(image);
  resolved.forEach((r, i) => { r.column.defaultSql = defaultText(r, image, nullBits[i], flavor); });

  const { indexes, lines: keyLines } = frmKeys(image, resolved);

  const columns = resolved.filter((r) => !r.field.hashField).map((r) => r.column);
  const period = image.systemVersioning;
  const periodRole = (r: Resolved) => (!period ? null : r.field === image.fields[period.start] ? 'START' : r.field === image.fields[period.end] ? 'END' : null);
  const lines = resolved.filter((r) => !r.field.hashField && r.field.invisible < 2).map((r) => columnText(r, tableCollation, flavor, periodRole(r)));
  lines.push(...keyLines);
  if (period && image.fields[period.start].invisible < 2) {
    lines.push(`PERIOD FOR SYSTEM_TIME (${quoteIdentifier(image.fields[period.start].name)}, ${quoteIdentifier(image.fields[period.end].name)})`);
  }
  for (const check of image.checks) lines.push(`CONSTRAINT ${quoteIdentifier(check.name)} CHECK (${check.expr})`);
  const createSql = `CREATE TABLE ${quoteIdentifier(name)} (\n  ${lines.join(',\n  ')}\n) ${tableOptions(image, engine, tableCollation, flavor)}`;
  return {
    table: { name, columns, indexes, rowFormat: ROW_TYPES[image.rowType] ?? '', charset: tableCollation.charset, createSql },
    flavor, mysqlVersion: image.mysqlVersion, engine, warnings,
  };
}

/** One column line of SHOW CREATE TABLE; `rowPeriod`: the column is a versioned table's ROW START / ROW END. */
function columnText(r: Resolved, table: { name: string; charset: string }, flavor: ServerFlavor, rowPeriod: 'START' | 'END' | null): string {
  const { field: f, column: c } = r;
  let text = `${quoteIdentifier(c.name)} ${r.typeText}`;
  if (TEXT_TYPES.has(c.type) && c.charset !== 'binary') {
    if (flavor === 'mariadb') {
      if (r.collationName !== table.name) text += ` CHARACTER SET ${c.charset} COLLATE ${r.collationName}`;
    } else {
      const spelt = (s: string) => s.replace(/^utf8mb3(?=_|$)/, 'utf8');
      if (c.charset !== table.charset) text += ` CHARACTER SET ${spelt(c.charset)}`;
      if (r.collationName !== defaultCollation(c.charset, 'mysql', 0)) text += ` COLLATE ${spelt(r.collationName)}`;
    }
  }
  if (f.generated) {
    text += ` GENERATED ALWAYS AS (${f.generated.expr}) ${f.generated.stored ? 'STORED' : 'VIRTUAL'}`;
    if (c.invisible) text += ' INVISIBLE';
  } else {
    if (rowPeriod) text += ` GENERATED ALWAYS AS ROW ${rowPeriod}`;
    else if (!c.nullable) text += ' NOT NULL';
    else if (c.type === 'timestamp') text += ' NULL';
    if (c.invisible) text += ' INVISIBLE';
    if (c.defaultSql !== null && !rowPeriod) text += ` DEFAULT ${c.defaultSql}`;
    if (f.unversioned) text += ' WITHOUT SYSTEM VERSIONING';
    if (f.unireg === U.TIMESTAMP_UN || f.unireg === U.TIMESTAMP_DNUN) {
      text += ` ON UPDATE ${flavor === 'mariadb' ? `current_timestamp(${c.fsp || ''})` : `CURRENT_TIMESTAMP${c.fsp ? `(${c.fsp})` : ''}`}`;
    }
  }
  if (f.unireg === U.NEXT_NUMBER) text += ' AUTO_INCREMENT';
  if (c.comment) text += ` COMMENT ${quoteString(c.comment)}`;
  if (f.check !== null) text += ` CHECK (${f.check})`;
  return text;
}

/** HA_OPTION_* bits of db_create_options. */
const O = { PACK_KEYS: 2, CHECKSUM: 32, DELAY_KEY_WRITE: 64, NO_PACK_KEYS: 128, PAGE_CHECKSUM: 2048, STATS_PERSISTENT: 4096, NO_STATS_PERSISTENT: 8192 } as const;

function tableOptions(image: FrmImage, engine: string, collation: { name: string; charset: string }, flavor: ServerFlavor): string {
  const spelt = (s: string) => (flavor === 'mysql' ? s.replace(/^utf8mb3(?=_|$)/, 'utf8') : s);
  let text = `ENGINE=${engine} DEFAULT CHARSET=${spelt(collation.charset)}`;
  if (flavor === 'mariadb' || collation.name !== defaultCollation(collation.charset, 'mysql', 0)) text += ` COLLATE=${spelt(collation.name)}`;
  const o = image.createOptions;
  if (image.minRows) text += ` MIN_ROWS=${image.minRows}`;
  if (image.maxRows) text += ` MAX_ROWS=${image.maxRows}`;
  if (image.avgRowLength) text += ` AVG_ROW_LENGTH=${image.avgRowLength}`;
  if (o & O.PACK_KEYS) text += ' PACK_KEYS=1';
  if (o & O.NO_PACK_KEYS) text += ' PACK_KEYS=0';
  if (o & O.STATS_PERSISTENT) text += ' STATS_PERSISTENT=1';
  if (o & O.NO_STATS_PERSISTENT) text += ' STATS_PERSISTENT=0';
  if (image.statsAutoRecalc === 1) text += ' STATS_AUTO_RECALC=1';
  else if (image.statsAutoRecalc === 2) text += ' STATS_AUTO_RECALC=0';
  if (image.statsSamplePages) text += ` STATS_SAMPLE_PAGES=${image.statsSamplePages}`;
  if (o & O.CHECKSUM) text += ' CHECKSUM=1';
  if (o & O.DELAY_KEY_WRITE) text += ' DELAY_KEY_WRITE=1';
  if (ROW_TYPES[image.rowType]) text += ` ROW_FORMAT=${ROW_TYPES[image.rowType]}`;
  if (image.keyBlockSize) text += ` KEY_BLOCK_SIZE=${image.keyBlockSize}`;
  if (image.comment) text += ` COMMENT=${quoteString(image.comment)}`;
  if (image.systemVersioning) text += ' WITH SYSTEM VERSIONING';
  if (image.partitionInfo) text += `\n${image.partitionInfo.trim()}`;
  return text;
}
