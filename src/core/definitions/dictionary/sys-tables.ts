/**
 * The four basic system tables of the InnoDB data dictionary as dict_boot() (dict0boot.cc) defines
 * them in memory, since no dictionary describes the dictionary: SYS_TABLES, SYS_COLUMNS, SYS_INDEXES
 * and SYS_FIELDS, each a table definition of the ordinary kind, clustered on its key, its records
 * REDUNDANT. DATA_BINARY ids are 8 bytes read as unsigned integers, DATA_INT columns 4-byte unsigned
 * (the dictionary writes them with mach_write_to_4, no sign bit flipped), names text.
 *
 * SYS_INDEXES.MERGE_THRESHOLD was added to the records of MySQL 5.7 and MariaDB 10.2 as an instant
 * column: records written before have one field less (MERGE_THRESHOLD is then NULL).
 */
import type { Column, IndexDef, TableDef } from '../../schema.ts';
import { plainColumn } from './dict-columns.ts';
import { SYS_INDEX_IDS } from './dict-header.ts';

/** A basic system table: its definition, its index id, and the fields its older records lack. */
export interface SysTable {
  definition: TableDef;
  indexId: bigint;
  /** Key, system and stored fields every record has (the rest were added later: NULL when absent). */
  coreFields: number;
}

/** Names as the dictionary writes them: UTF-8 (or, before the filename encoding of 5.1, raw bytes). */
const name = (n: string, nullable = true): Column => plainColumn(n, 'varchar', { length: 65535, charset: 'utf8mb4', collation: 'utf8mb4_bin', nullable });
const id = (n: string): Column => plainColumn(n, 'bigint', { unsigned: true, nullable: false });
const int4 = (n: string): Column => plainColumn(n, 'int', { unsigned: true });
const bytes = (n: string): Column => plainColumn(n, 'varbinary', { length: 65535 });

function sysTable(tableName: string, columns: Column[], key: string[], indexId: bigint, absentLater = 0): SysTable {
  const primary: IndexDef = { name: 'CLUST_IND', kind: 'primary', columns: key.map((k) => ({ name: k, prefix: 0, descending: false })) };
  const definition: TableDef = {
    name: tableName, columns, indexes: [primary], rowFormat: 'REDUNDANT', charset: 'utf8mb4',
    createSql: `CREATE TABLE ${tableName} (${columns.map((c) => c.name).join(', ')}) /* InnoDB's own, defined in dict0boot.cc */`,
  };
  // the key, DB_TRX_ID and DB_ROLL_PTR, then the other columns
  return { definition, indexId, coreFields: columns.length + 2 - absentLater };
}

export const SYS_TABLES = sysTable('SYS_TABLES', [
  name('NAME', false), id('ID'), int4('N_COLS'), int4('TYPE'), bytes('MIX_ID'), int4('MIX_LEN'), bytes('CLUSTER_NAME'), int4('SPACE'),
], ['NAME'], SYS_INDEX_IDS.tables);

export const SYS_COLUMNS = sysTable('SYS_COLUMNS', [
  id('TABLE_ID'), plainColumn('POS', 'int', { unsigned: true, nullable: false }), name('NAME'), int4('MTYPE'), int4('PRTYPE'), int4('LEN'), int4('PREC'),
], ['TABLE_ID', 'POS'], SYS_INDEX_IDS.columns);

export const SYS_INDEXES = sysTable('SYS_INDEXES', [
  id('TABLE_ID'), id('ID'), name('NAME'), int4('N_FIELDS'), int4('TYPE'), int4('SPACE'), int4('PAGE_NO'), int4('MERGE_THRESHOLD'),
], ['TABLE_ID', 'ID'], SYS_INDEX_IDS.indexes, 1);

export const SYS_FIELDS = sysTable('SYS_FIELDS', [
  id('INDEX_ID'), plainColumn('POS', 'int', { unsigned: true, nullable: false }), name('COL_NAME'),
], ['INDEX_ID', 'POS'], SYS_INDEX_IDS.fields);
