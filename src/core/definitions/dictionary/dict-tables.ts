/**
 * The tables the InnoDB data dictionary of a system tablespace knows (dict0load.cc reads them so):
 * one SYS_TABLES row each (name, id, column count and row format flags, space), its columns from
 * SYS_COLUMNS by table id, its indexes from SYS_INDEXES by table id, each index's fields from
 * SYS_FIELDS by index id.
 *
 * A table whose SYS_TABLES row is delete-marked or purged was dropped (or is the old copy of a table
 * that ALTER TABLE rebuilt): it is listed as dropped with what of its rows survives. A live table
 * takes only live rows (an instant ALTER leaves the old SYS_COLUMNS rows delete-marked), a dropped one
 * only removed rows. MariaDB zero-fills a record's data when purge frees it: such rows (an id of 0)
 * are counted as scrubbed, their contents lost.
 */
import type { ServerFlavor } from '../../values/collations.ts';
import type { Tablespace } from '../../tablespace/tablespace.ts';
import { tableNameOfFile } from '../frm/index.ts';
import { dictColumn, PRTYPE, type DictColumn } from './dict-columns.ts';
import { DICT_IBUF_ID_MIN, readDictHeader, SYS_INDEX_IDS, type DictHeader } from './dict-header.ts';
import { idCell, intCell, readSysRows, textCell, type SysRow, type SysRowState } from './sys-records.ts';
import { SYS_COLUMNS, SYS_FIELDS, SYS_INDEXES, SYS_TABLES } from './sys-tables.ts';

/** SYS_INDEXES.TYPE bits (dict0mem.h). */
export const INDEX_TYPE = { CLUSTERED: 1, UNIQUE: 2, IBUF: 8, CORRUPT: 16, FTS: 32, SPATIAL: 64, VIRTUAL: 128 } as const;

export type RowFormat = 'REDUNDANT' | 'COMPACT' | 'DYNAMIC' | 'COMPRESSED';

export interface DictField {
  column: string;
  /** Bytes of a column prefix (KEY (c(10)) in a 4-byte charset: 40); 0 for the whole column. */
  prefixBytes: number;
  /** MariaDB 10.8+: a DESC key part. */
  descending: boolean;
}

export interface DictIndex {
  id: bigint;
  name: string;
  /** INDEX_TYPE bits. */
  type: number;
  /** The root page of its B-tree in the table's space; null when it has none (FULLTEXT) or it was freed. */
  rootPage: number | null;
  fields: DictField[];
  /** SYS_INDEXES.N_FIELDS: how many fields SYS_FIELDS holds for it (a check on rows recovered in part). */
  nFields: number | null;
}

export interface DictTable {
  /** `db/table` (partitions `db/table#P#p0`), the file-name escapes (`@002d`) decoded. */
  name: string;
  /** As SYS_TABLES.NAME holds it. */
  storedName: string;
  id: bigint;
  /** 0: the rows are in the system tablespace; else the space of a file-per-table (or general) tablespace. */
  spaceId: number;
  rowFormat: RowFormat;
  /** SYS_TABLES.TYPE (the table flags) and MIX_LEN (flags2). */
  flags: number;
  flags2: number;
  /** In table order, virtual columns among them. */
  columns: DictColumn[];
  indexes: DictIndex[];
  /** `live`, or how the SYS_TABLES row of a dropped table survives. */
  state: SysRowState;
}

export interface Dictionary {
  header: DictHeader;
  tables: DictTable[];
  /** Removed dictionary rows whose bytes the server zeroed (their names and columns are lost). */
  scrubbed: number;
  /**
   * The file of each tablespace by space id, where the dictionary keeps it (SYS_DATAFILES.PATH, or
   * a general tablespace's SYS_TABLESPACES.NAME: MySQL 5.6–5.7, MariaDB 10.1–10.5); see system-schema.ts.
   */
  files?: Map<number, string>;
  problems: string[];
}

/** N_COLS: the top bit marks COMPACT records (and the later formats); MySQL 5.7 and MariaDB 10.2+ keep the virtual columns' count in bits 16-30. */
const N_COLS_COMPACT = 0x80000000;

/** The row format of SYS_TABLES' N_COLS and TYPE (dict_sys_tables_type_to_tf). */
export function rowFormatOf(nCols: number, type: number): RowFormat {
  if ((nCols & N_COLS_COMPACT) === 0) return 'REDUNDANT';
  // TYPE is 1 for REDUNDANT and COMPACT tables; the table flags otherwise
  if (type === 1) return 'COMPACT';
  if ((type >>> 1) & 0xf) return 'COMPRESSED';
  return type & 0x20 ? 'DYNAMIC' : 'COMPACT';
}

/** `db/table#P#p0` with the table's escapes decoded (the partition suffix kept as stored). */
function displayName(stored: string): string {
  const slash = stored.indexOf('/');
  const partition = stored.search(/#p#/i);
  const suffix = partition < 0 ? '' : stored.slice(partition);
  const db = slash < 0 ? '' : `${tableNameOfFile(stored.slice(0, slash))}/`;
  return `${db}${tableNameOfFile(stored.slice(slash + 1))}${suffix}`;
}

const isRemoved = (state: SysRowState) => state !== 'live';

/** Rows grouped by a key, live rows and removed rows apart. */
function grouped(rows: readonly SysRow[], key: (r: SysRow) => bigint | null): Map<string, SysRow[]> {
  const map = new Map<string, SysRow[]>();
  for (const r of rows) {
    const k = key(r);
    if (k === null) continue;
    const id = `${isRemoved(r.state) ? 'x' : 'l'}${k}`;
    const list = map.get(id);
    if (list) list.push(r);
    else map.set(id, [r]);
  }
  return map;
}

/**
 * The rows of a table's (or index's) state: live ones for a live owner, removed ones (delete-marked
 * first) for a removed one; of removed rows with the same `key` (copies on pages the tree left), the first.
 */
function ownRows(groups: Map<string, SysRow[]>, id: bigint, state: SysRowState, key: string): SysRow[] {
  if (!isRemoved(state)) return groups.get(`l${id}`) ?? [];
  const removed = groups.get(`x${id}`) ?? [];
  const marked = removed.filter((r) => r.state === 'delete-marked');
  const first = new Map<string | null | undefined, SysRow>();
  for (const r of marked.length > 0 ? marked : removed) if (!first.has(r.cells.get(key))) first.set(r.cells.get(key), r);
  return [...first.values()];
}

/** Whether a removed row's bytes were zeroed (its id, which no table or index has, is 0). */
const scrubbedRow = (r: SysRow, idColumn: string) => r.state === 'purged' && idCell(r, idColumn) === 0n;

/**
 * The dictionary of a system tablespace (null for any other file): its header and tables, with
 * `removed` the dropped ones too.
 */
export async function readDictionary(ts: Tablespace, options: { removed?: boolean; flavor?: ServerFlavor } = {}): Promise<Dictionary | null> {
  const header = await readDictHeader(ts);
  if (header === null) return null;
  const roots = header.roots;
  if (roots === null) return { header, tables: [], scrubbed: 0, problems: [`${ts.source.name}: the data dictionary header (page 7) names no usable root of the SYS_ tables`] };
  const removed = options.removed ?? true;
  const flavor = options.flavor ?? (ts.fullCrc32 ? 'mariadb' : 'mysql');
  const reads = await Promise.all([
    readSysRows(ts, SYS_TABLES, roots.tables, removed),
    readSysRows(ts, SYS_COLUMNS, roots.columns, removed),
    readSysRows(ts, SYS_INDEXES, roots.indexes, removed),
    readSysRows(ts, SYS_FIELDS, roots.fields, removed),
  ]);
  const [tableRows, columnRows, indexRows, fieldRows] = reads.map((r) => r.rows);
  const scrubbed = tableRows.filter((r) => r.state === 'purged' && !/[^\0]/.test(textCell(r, 'NAME') ?? '')).length
    + columnRows.filter((r) => scrubbedRow(r, 'TABLE_ID')).length + indexRows.filter((r) => scrubbedRow(r, 'TABLE_ID')).length
    + fieldRows.filter((r) => scrubbedRow(r, 'INDEX_ID')).length;
  const tables = assembleTables({ tables: tableRows, columns: columnRows, indexes: indexRows, fields: fieldRows }, flavor);
  return { header, tables, scrubbed, problems: reads.flatMap((r) => r.problems) };
}

/** The rows of the four basic system tables, as read. */
export interface SysRows {
  tables: readonly SysRow[];
  columns: readonly SysRow[];
  indexes: readonly SysRow[];
  fields: readonly SysRow[];
}

/**
 * The tables of the dictionary's rows: each SYS_TABLES row (the first of an id: a row found twice, on
 * a page and on a copy the tree left, is one table) with its columns, indexes and their fields.
 */
export function assembleTables(rows: SysRows, flavor: ServerFlavor): DictTable[] {
  const columns = grouped(rows.columns, (r) => idCell(r, 'TABLE_ID'));
  const indexes = grouped(rows.indexes, (r) => idCell(r, 'TABLE_ID'));
  const fields = grouped(rows.fields, (r) => idCell(r, 'INDEX_ID'));
  const live = new Set(rows.tables.filter((r) => r.state === 'live').map((r) => idCell(r, 'ID')));
  const seen = new Set<bigint>();
  const tables: DictTable[] = [];
  for (const row of rows.tables) {
    const id = idCell(row, 'ID');
    const name = textCell(row, 'NAME');
    // a removed row of a live table is its old name (RENAME, ALTER); an id of 0 a scrubbed row
    if (id === null || id === 0n || name === null || (isRemoved(row.state) && live.has(id)) || seen.has(id)) continue;
    seen.add(id);
    tables.push(dictTable(row, id, name, {
      columns: ownRows(columns, id, row.state, 'POS'),
      indexes: ownRows(indexes, id, row.state, 'ID').map((r) => dictIndex(r, fields)),
      flavor,
    }));
  }
  return tables;
}

function dictTable(row: SysRow, id: bigint, stored: string, parts: { columns: SysRow[]; indexes: DictIndex[]; flavor: ServerFlavor }): DictTable {
  const nCols = intCell(row, 'N_COLS') ?? 0;
  const type = intCell(row, 'TYPE') ?? 1;
  return {
    name: displayName(stored), storedName: stored, id,
    spaceId: intCell(row, 'SPACE') ?? 0,
    rowFormat: rowFormatOf(nCols, type),
    flags: type,
    flags2: intCell(row, 'MIX_LEN') ?? 0,
    columns: tableOrder(parts.columns, parts.flavor),
    indexes: parts.indexes,
    state: row.state,
  };
}

/** Stored columns by POS; a virtual column's POS holds its place in the table in its low 16 bits. */
function tableOrder(rows: readonly SysRow[], flavor: ServerFlavor): DictColumn[] {
  const columns = rows.map((r) => ({
    pos: intCell(r, 'POS') ?? 0,
    column: dictColumn({ tableId: idCell(r, 'TABLE_ID') ?? 0n, pos: intCell(r, 'POS') ?? 0, name: textCell(r, 'NAME') ?? '', mtype: intCell(r, 'MTYPE') ?? 0, prtype: intCell(r, 'PRTYPE') ?? 0, len: intCell(r, 'LEN') ?? 0 }, flavor),
    virtual: ((intCell(r, 'PRTYPE') ?? 0) & PRTYPE.VIRTUAL) !== 0,
  }));
  const ordered = columns.filter((c) => !c.virtual).sort((a, b) => a.pos - b.pos).map((c) => c.column);
  for (const v of columns.filter((c) => c.virtual).sort((a, b) => (a.pos & 0xffff) - (b.pos & 0xffff))) {
    ordered.splice(Math.min(v.pos & 0xffff, ordered.length), 0, v.column);
  }
  return ordered;
}

/**
 * An index and its fields. SYS_FIELDS.POS is the field's number; in an index with a column prefix
 * (or, MariaDB 10.8+, a DESC part) among its fields, the number is in the high 16 bits and the low
 * ones hold the prefix length and the DESC bit 15, the first field's POS being those alone
 * (dict_load_field_low).
 */
function dictIndex(row: SysRow, fields: Map<string, SysRow[]>): DictIndex {
  const id = idCell(row, 'ID') ?? 0n;
  const own = ownRows(fields, id, row.state, 'POS').slice().sort((a, b) => (intCell(a, 'POS') ?? 0) - (intCell(b, 'POS') ?? 0));
  const page = intCell(row, 'PAGE_NO');
  return {
    id,
    name: textCell(row, 'NAME') ?? '',
    type: intCell(row, 'TYPE') ?? 0,
    rootPage: page === null || page === 0xffffffff ? null : page,
    nFields: intCell(row, 'N_FIELDS'),
    fields: own.map((r, i) => {
      const pos = intCell(r, 'POS') ?? 0;
      const low = i === 0 || pos > 0xffff ? pos & 0xffff : 0;
      return { column: textCell(r, 'COL_NAME') ?? '', prefixBytes: low & 0x7fff, descending: (low & 0x8000) !== 0 };
    }),
  };
}

/** `db/table.index` of every index the dictionary names (dropped tables' marked so), by index id; its own and the change buffer's too. */
export function indexNames(dictionary: Dictionary): Map<bigint, string> {
  const names = new Map<bigint, string>([
    [SYS_INDEX_IDS.tables, 'SYS_TABLES.CLUST_IND'], [SYS_INDEX_IDS.tableIds, 'SYS_TABLES.ID_IND'], [SYS_INDEX_IDS.columns, 'SYS_COLUMNS.CLUST_IND'],
    [SYS_INDEX_IDS.indexes, 'SYS_INDEXES.CLUST_IND'], [SYS_INDEX_IDS.fields, 'SYS_FIELDS.CLUST_IND'], [DICT_IBUF_ID_MIN, 'the change buffer'],
  ]);
  for (const t of dictionary.tables) {
    for (const i of t.indexes) if (!names.has(i.id) || t.state === 'live') names.set(i.id, `${t.name}.${i.name}${t.state === 'live' ? '' : ' (dropped)'}`);
  }
  return names;
}
