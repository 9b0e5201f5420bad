/**
 * One table of an .ibd opened for reading, as the library hands it out: its definition, the core's
 * TableReader (table-reader.ts) opened with the row mode and the index asked for, and reads of its
 * rows (batches, objects keyed by column name) and of its row count, each after the definition
 * was checked against the records. The CLI and the page's viewer open their tables here too.
 *
 * Never a wrong value without a mark: a read returns only the row states its mode names, a mode of
 * more than one state adds the last column `_row_state`, and `stats` counts every page skipped,
 * every record that could not be read and every row of a damaged page withheld.
 */
import { renamedSystemColumns, SYSTEM_COLUMNS } from '../core/readers/system-columns.ts';
import type { TableDef } from '../core/schema.ts';
import type { EncryptionKeys } from '../core/tablespace/encryption.ts';
import type { ByteSource } from '../core/tablespace/source.ts';
import { batchRows, cellText, type RowBatch } from '../core/values/row-batch.ts';
import { ndjsonOf } from '../core/writers/output.ts';
import type { JsonOptions } from '../core/writers/json-values.ts';
import { UNCOUNTED } from '../core/readers/leaf-counts.ts';
import { targetOptions } from '../core/readers/recovery-target.ts';
import { secondaryIndexName, secondaryTree, type IndexTreeChoice } from '../core/readers/index-choice.ts';
import { IbdError } from '../core/errors.ts';
import { Tablespace } from '../core/tablespace/tablespace.ts';
import { leafTruncation } from '../core/btree/truncation.ts';
import {
  openTable, type DecodeStats, type KeyLookup, type KeyRange, type OpenOptions, type ReadOptions, type RowMode, type TableInfo, type TableReader,
} from '../core/readers/table-reader.ts';
import type { RowVersions } from '../core/trx/row-vers.ts';

export interface TableOptions {
  /** Which rows: `live` (default), `deleted`, `both`, `damaged` or `all` (see row-state.ts). */
  rows?: RowMode;
  /** Decode this index (an id from a scan of the file) instead of the table's clustered index. */
  indexId?: bigint;
  /**
   * Decode the table's index of this name (from its definition): its columns, then the primary key's,
   * in the index's order; its B-tree is `indexId`'s when given, else found by the file's data
   * dictionary or InnoDB's creation order (checked against the rows; a doubt left is a warning).
   */
  index?: string;
  /** Read the file as a raw image without page 0 (a disk image, a partial copy) with pages of this size. */
  pageSize?: number;
  /**
   * The index to decode and where it lies, when already known (a scan of a raw image, the data
   * dictionary): `indexId` and `pageSize` are then not looked at.
   */
  target?: Pick<OpenOptions, 'index' | 'raw'>;
  /** The zone TIMESTAMP values are shown in: `UTC` (default), an IANA name (`Europe/Berlin`) or an offset (`+02:00`). */
  timeZone?: string;
  /** Transactions whose changes are taken back (core/trx/row-vers.ts): active at a crash, or from one on (read on one thread). */
  versions?: RowVersions | null;
  /** End each row with `_db_trx_id`, `_db_roll_ptr`, `_page`, `_heap` (core/readers/system-columns.ts). */
  systemColumns?: boolean;
}

/** A row keyed by column name; SQL NULL is null; `_row_state` is the last key when the mode returns several states. */
export type RowObject = Record<string, string | null>;

export interface RowCount {
  /** Rows on the leaf pages that could be counted, of the states the mode returns. */
  rows: number;
  /** Leaf pages of the index. */
  leafPages: number;
  /** Leaf pages that could not be counted (not a readable leaf of the index): their rows are not in `rows`. */
  uncountedPages: number[];
}

/**
 * Why the count of `table` lacks rows, said the same in the CLI and the page; null when it does not:
 * leaves it could not read, or leaves found by a scan (its B-tree could not be walked: the leaves
 * that are not in the file are then not known at all).
 */
export function incompleteCount(table: InnodbTable, count: RowCount): string | null {
  const n = count.uncountedPages.length;
  if (n > 0) return `${n} of its ${count.leafPages} leaf pages could not be counted (page ${count.uncountedPages.slice(0, 5).join(', ')}${n > 5 ? ', …' : ''}: not in the file, or not a readable leaf of the index): the rows on them are not in its count`;
  if (table.info.leafSource === 'scan') return 'its B-tree could not be walked from its root: its leaf pages were found by scanning the file, so leaves that are not in it are not in its count';
  return null;
}

/** Reads of a count (LINEITEM's 931 MB counted in ~0.5 s so, from the OS cache). */
export const COUNT_READ_BYTES = 4 << 20;

export class InnodbTable {
  private checked: Promise<void> | null = null;

  constructor(
    readonly definition: TableDef,
    /** The core's reader: the fast path for callers that decode runs of leaf pages themselves. */
    readonly reader: TableReader,
    /** What the reader was opened with (for worker threads that open the same table). */
    readonly options: OpenOptions,
    /** Guesses made on the way (a raw image: which index was taken). */
    readonly warnings: readonly string[],
    /** The file read. */
    readonly source: ByteSource,
  ) {}

  /**
   * What is wrong with the file as a whole, said before its rows: page 0 damaged, space flags that
   * disagree with the pages, the file cut short (btree/truncation.ts); `damaged`: so (the CLI's exit
   * status 2). Nothing for a raw image, which has no page 0 to trust.
   */
  async spaceDamage(): Promise<{ warnings: string[]; damaged: boolean }> {
    if (this.options.raw) return { warnings: [], damaged: false };
    const { source } = this;
    const ts = await Tablespace.open(source, { keys: this.options.keys });
    const warnings: string[] = [];
    if (ts.headerNote !== null) warnings.push(`${source.name}: ${ts.headerNote}`);
    const cut = await leafTruncation(ts, await this.reader.leafPages().catch(() => []));
    if (cut !== null) warnings.push(`${source.name}: ${cut.message}`);
    return { warnings, damaged: ts.page0Damaged !== null || cut !== null };
  }

  /**
   * The same file's table opened anew with `options` (another index, another row mode), with the
   * same keys: the partial rows' second reads of a partition's clustered and secondary indexes.
   */
  reopen(options: TableOptions): Promise<InnodbTable> {
    return openDefinedTable(this.source, this.definition, { ...options, keys: this.options.keys });
  }

  get name(): string {
    return this.definition.name;
  }

  /** File, page size, row format, root page, index id, tree height, what the rows are clustered on. */
  get info(): TableInfo {
    return this.reader.info;
  }

  /** Output column names, in table order, `_row_state` last when the mode returns several states. */
  get columns(): readonly string[] {
    return this.reader.columns;
  }

  get mode(): RowMode {
    return this.reader.mode;
  }

  /** What every read of this table so far skipped, withheld or could not read (counts are exact). */
  get stats(): DecodeStats {
    return this.reader.stats;
  }

  /** Throws DefinitionMismatch, naming the page, when the definition does not fit the records (checked once). */
  checkDefinition(): Promise<void> {
    this.checked ??= this.reader.checkDefinition();
    return this.checked;
  }

  /** The rows in key order, in compact batches (row-batch.ts: cellText, batchRows read them). */
  async *batches(options: ReadOptions = {}): AsyncGenerator<RowBatch> {
    await this.checkDefinition();
    yield* this.reader.batches(options);
  }

  /** The rows in key order, as objects keyed by column name. */
  async *rows(options: ReadOptions = {}): AsyncGenerator<RowObject> {
    const columns = this.columns;
    for await (const batch of this.batches(options)) {
      for (let r = 0; r < batch.rows; r++) yield Object.fromEntries(columns.map((c, i) => [c, cellText(batch, r, i)]));
    }
  }

  /**
   * The rows in key order as NDJSON text, a chunk per batch: integers, DECIMAL, FLOAT and DOUBLE as
   * JSON numbers where a double holds them exactly, BIT as its number (json-values.ts); with
   * `strings`, every value the string `rows()` gives.
   */
  async *ndjson(options: ReadOptions & JsonOptions = {}): AsyncGenerator<string> {
    const { strings, ...read } = options;
    for await (const batch of this.batches({ ...read, separated: false })) yield ndjsonOf(this.definition, this.columns, batchRows(batch), { strings });
  }

  /**
   * The rows whose key (the index's key parts from the first, as text) lies in `range`, through the
   * B-tree: only the pages on the path are read (see KeyLookup: its notes say where the answer is
   * found otherwise). Throws an Error for a key that is not one of the index's.
   */
  async lookup(range: KeyRange): Promise<KeyLookup> {
    await this.checkDefinition();
    return this.reader.lookup(range);
  }

  /** The exact number of rows a read of this mode returns, from each leaf page's record headers. */
  async count(options: { signal?: AbortSignal } = {}): Promise<RowCount> {
    await this.checkDefinition();
    const leaves = await this.reader.leafPages();
    return sumLeafCounts(leaves, await this.reader.countLeaves(leaves, { readBytes: COUNT_READ_BYTES, exact: true, signal: options.signal }));
  }
}

/** The rows of each leaf page (TableReader.countLeaves, in `leaves` order) added up. */
export function sumLeafCounts(leaves: readonly number[], counts: ArrayLike<number>): RowCount {
  let rows = 0;
  const uncountedPages: number[] = [];
  for (let i = 0; i < leaves.length; i++) {
    if (counts[i] === UNCOUNTED) uncountedPages.push(leaves[i]);
    else rows += counts[i];
  }
  return { rows, leafPages: leaves.length, uncountedPages };
}

/** The tree of secondary index `name` (found once, for the worker threads too); why it may be wrong, in `warnings`. */
async function treeByName(source: ByteSource, definition: TableDef, name: string, keys: EncryptionKeys | undefined, warnings: string[]): Promise<OpenOptions['index']> {
  const ts = await Tablespace.open(source, { keys });
  let choice: IndexTreeChoice;
  try {
    choice = await secondaryTree(ts, definition, name);
  } catch (e) {
    throw new IbdError(source.name, `table \`${definition.name}\`: ${(e as Error).message}`);
  }
  if (choice.doubt !== null) warnings.push(`${source.name}: ${choice.doubt}`);
  return { indexId: choice.indexId, rootPage: choice.rootPage };
}

/** Opens `definition`'s rows in `source`: the index asked for (or the table's own in a file of several), with `keys`. */
export async function openDefinedTable(source: ByteSource, definition: TableDef, options: TableOptions & { keys?: EncryptionKeys } = {}): Promise<InnodbTable> {
  const warnings: string[] = [];
  const request = { indexId: options.indexId ?? null, pageSize: options.pageSize ?? null };
  const target = options.target ?? await targetOptions(source, definition.name, request, (m) => warnings.push(m));
  const secondary = options.index === undefined ? null : secondaryIndexName(definition, options.index);
  const open: OpenOptions = { mode: options.rows ?? 'live', keys: options.keys, timeZone: options.timeZone, systemColumns: options.systemColumns, ...target };
  if (secondary !== null) {
    open.indexName = secondary;
    // Its tree: the one given by id, else found by name (the target's is the table's clustered index).
    if (options.indexId === undefined && !options.target) open.index = await treeByName(source, definition, secondary, options.keys, warnings);
  }
  const reader = await openTable(source, definition, { ...open, versions: options.versions });
  const renamed = options.systemColumns === true ? renamedSystemColumns(reader.columns.slice(-SYSTEM_COLUMNS.length)) : null;
  if (renamed !== null) warnings.push(`${source.name}: ${renamed}`);
  return new InnodbTable(definition, reader, open, warnings, source);
}
