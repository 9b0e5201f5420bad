/**
 * A partitioned table read as one table: the files of its partitions (definitions/partitions.ts),
 * each opened as a table of its own (innodb-table.ts) with the one definition, read in partition
 * order — the order of the table's .par file, else of its MySQL 8 data dictionary, else of its
 * PARTITION BY clause, else the order the files were given (said in a warning). A partition the
 * order names but no file was given for is named in a warning, as one whose file cannot be read
 * (empty, not InnoDB, no tree of the table in it), with why; the others are read all the same.
 * With `partitionColumn`, each row ends with the name of the partition it came from. A read of a
 * secondary index, and a key lookup, gives the rows of all partitions merged into the index's order
 * (key-merge.ts), as the server's `ORDER BY` the index's columns and the primary key does; a read of
 * the clustered index gives them partition by partition.
 */
import type { RedoRecovery } from '../core/log/redo-recovery.ts';
import { PARTITIONED_NOTE, parsePar, partitionNamesOfClause, partitionOfFile, samePartition } from '../core/definitions/partitions.ts';
import { readSdi } from '../core/definitions/sdi/index.ts';
import { mergeKey, mergeInKeyOrder, type MergeKey } from '../core/readers/key-merge.ts';
import { mergeStats } from '../core/readers/parallel.ts';
import type { DecodeStats, KeyLookup, KeyRange, LookupReadOptions, ReadOptions } from '../core/readers/table-reader.ts';
import type { TableDef } from '../core/schema.ts';
import type { ByteSource } from '../core/tablespace/source.ts';
import { Tablespace } from '../core/tablespace/tablespace.ts';
import { appendColumn } from '../core/values/batch-edit.ts';
import { cellText, type RowBatch } from '../core/values/row-batch.ts';
import type { EncryptionKeys } from '../core/tablespace/encryption.ts';
import { openSource, type InnodbFile, type SourceOptions } from './innodb-file.ts';
import { openDefinedTable, type InnodbTable, type RowObject, type TableOptions } from './innodb-table.ts';

/** The column `partitionColumn` adds. */
export const PARTITION_COLUMN = '_partition';

export interface PartitionedOptions extends TableOptions {
  /** End each row with the name of its partition, in a column `_partition`. */
  partitionColumn?: boolean;
  /** Which table of the definitions (default: the one named like the files). */
  table?: string;
}

/** One partition in order: its name, and its table (null when its file was not given, or cannot be read). */
export interface Partition {
  name: string;
  table: InnodbTable | null;
  /** Why its file, given, cannot be read as the partition (empty, not InnoDB, no index of the table in it). */
  unreadable?: string;
  /** What the datadir's redo log did to its file, or why it did nothing (when a log was given). */
  recovery?: RedoRecovery | null;
}

export class PartitionedTable {
  constructor(
    readonly definition: TableDef,
    /** Every partition in order, those without a file too. */
    readonly partitions: readonly Partition[],
    readonly warnings: readonly string[],
    private readonly partitionColumn: boolean,
    /** How rows of the index read are merged across partitions, or why they cannot be (they then come partition by partition). */
    readonly keyOrder: MergeKey | { why: string },
  ) {}

  /** The index read: a secondary index's name, or null for the clustered index. */
  get index(): string | null {
    return this.present[0]?.table.options.indexName ?? null;
  }

  /** The rows of each partition's `inputs` (in partition order) merged in key order, else one partition after the other. */
  async *inKeyOrder(inputs: readonly AsyncIterable<RowBatch>[]): AsyncGenerator<RowBatch> {
    if ('parts' in this.keyOrder) yield* mergeInKeyOrder(inputs, this.keyOrder);
    else for (const input of inputs) yield* input;
  }

  private get present(): (Partition & { table: InnodbTable })[] {
    return this.partitions.filter((p): p is Partition & { table: InnodbTable } => p.table !== null);
  }

  get columns(): readonly string[] {
    const first = this.present[0]?.table.columns ?? [];
    return this.partitionColumn ? [...first, PARTITION_COLUMN] : first;
  }

  /** Every partition's counts added up. */
  get stats(): DecodeStats {
    return mergeStats(this.present.map((p) => p.table.stats));
  }

  /** The rows of a secondary index in its order across partitions; of the clustered index, every partition's in turn, each in key order. */
  async *batches(options: ReadOptions = {}): AsyncGenerator<RowBatch> {
    const reads = this.present.map((p) => this.taggedAll(p.table.batches(options), p.name));
    if (this.index !== null) yield* this.inKeyOrder(reads);
    else for (const read of reads) yield* read;
  }

  /** `batches` with the partition column, when asked for. */
  async *taggedAll(batches: AsyncIterable<RowBatch>, partition: string): AsyncGenerator<RowBatch> {
    for await (const batch of batches) yield this.tagged(batch, partition);
  }

  async *rows(options: ReadOptions = {}): AsyncGenerator<RowObject> {
    const columns = this.columns;
    for await (const batch of this.batches(options)) {
      for (let r = 0; r < batch.rows; r++) yield Object.fromEntries(columns.map((c, i) => [c, cellText(batch, r, i)]));
    }
  }

  /**
   * The rows of the key range in every partition (a key may be in any of them), merged in key order:
   * each partition's lookup (InnodbTable.lookup) descends its own B-tree; their notes together, their
   * pages one after the other.
   */
  async lookup(range: KeyRange): Promise<KeyLookup> {
    const lookups: { name: string; lookup: KeyLookup }[] = [];
    for (const p of this.present) lookups.push({ name: p.name, lookup: await p.table.lookup(range) });
    const notes: string[] = [];
    const path: number[] = [];
    const merged = (signal?: AbortSignal, options?: LookupReadOptions) => this.inKeyOrder(lookups.map(({ name, lookup }) => this.taggedAll(lookup.batches(signal, options), name)));
    if ('why' in this.keyOrder) notes.push(`the rows are given partition by partition, not in key order across partitions: ${this.keyOrder.why}`);
    return {
      notes,
      path,
      get offPath() {
        return lookups.find((l) => l.lookup.offPath !== null)?.lookup.offPath ?? null;
      },
      async *batches(signal?: AbortSignal, options?: LookupReadOptions) {
        yield* merged(signal, options);
        for (const { lookup } of lookups) {
          for (const note of lookup.notes) if (!notes.includes(note)) notes.push(note);
          path.push(...lookup.path);
        }
      },
    };
  }

  /** The rows of every partition that a read of this mode returns. */
  async count(): Promise<number> {
    let rows = 0;
    for (const p of this.present) rows += (await p.table.count()).rows;
    return rows;
  }

  private tagged(batch: RowBatch, partition: string): RowBatch {
    return this.partitionColumn ? appendColumn(batch, partition) : batch;
  }
}

/**
 * The partitions' names in order, and where the order comes from: the .par file among `companions`,
 * else the first file's SDI, else the definition's PARTITION BY clause; null when none says.
 */
async function partitionOrder(table: string, files: readonly InnodbFile[], companions: readonly ByteSource[], definition: TableDef): Promise<{ names: string[]; from: string } | null> {
  const par = companions.find((c) => c.name.replace(/^.*[\\/]/, '').toLowerCase() === `${table.toLowerCase()}.par`);
  if (par) {
    try {
      return { names: parsePar(await par.read(0, par.size)), from: par.name };
    } catch (e) {
      throw new Error(`${par.name} cannot be read: ${(e as Error).message}`);
    }
  }
  const first = files[0];
  const sdi = first ? await Tablespace.open(first.source, { keys: first.keys }).then(readSdi).catch(() => null) : null;
  const own = sdi?.tables.find((t) => t.partitions !== null);
  if (own?.partitions) return { names: own.partitions.map((p) => p.name), from: `${first?.name}'s data dictionary` };
  const names = partitionNamesOfClause(definition.createSql);
  return names === null ? null : { names, from: 'the PARTITION BY clause of the definition' };
}

/** The table named by the files of its partitions (throws when they are not all one table's). */
export function partitionedTableName(files: readonly { name: string }[]): string {
  const tables = new Set(files.map((f) => partitionOfFile(f.name)?.table ?? ''));
  const [name] = tables;
  if (tables.size !== 1 || name === '') throw new Error(`the files given are not the partitions of one table (t#P#p0.ibd, t#p#p0.ibd): ${files.map((f) => f.name).join(', ')}`);
  return name;
}

export interface PartitionSourceOptions extends PartitionedOptions {
  /** The definition given outright (a .frm or CREATE TABLE); else each file's own or its companion's. */
  schema?: ByteSource;
  /** The definition already found (the page's, for every worker of its pool): neither `schema` nor the files' are looked at. */
  definition?: TableDef;
  keys?: EncryptionKeys;
  /** The datadir's redo log, as openSource takes it: each partition's pages read as its crash recovery leaves them. */
  redo?: { log: ByteSource; logFiles?: readonly ByteSource[]; systemTablespace?: ByteSource; doublewriteFiles?: readonly ByteSource[]; asOnDisk?: boolean } & Pick<SourceOptions, 'redoCensus' | 'sharedDoublewrite' | 'boundsReader'>;
}

/**
 * The partitioned table whose partitions' files are `ibds`, read with the definition `schema` gives,
 * else the files' own (MySQL 8) or the table's .frm among `companions`; its partitions in the order
 * of its .par among `companions`, the files' SDI or the definition.
 */
export async function openPartitionSources(ibds: readonly ByteSource[], companions: readonly ByteSource[], options: PartitionSourceOptions = {}): Promise<PartitionedTable> {
  const warnings: string[] = [];
  const table = partitionedTableName(ibds);
  // A file that cannot be opened is one partition unread, named; the others are read all the same.
  const tried = await Promise.all(ibds.map((source) => openSource(source, {
    schema: options.schema, files: companions, keys: options.keys,
    redoLog: options.redo?.log, redoLogFiles: options.redo?.logFiles, systemTablespace: options.redo?.systemTablespace, doublewriteFiles: options.redo?.doublewriteFiles, asOnDisk: options.redo?.asOnDisk,
    redoCensus: options.redo?.redoCensus, sharedDoublewrite: options.redo?.sharedDoublewrite, boundsReader: options.redo?.boundsReader,
  }).then(
    (file) => ({ source, file, error: null }),
    (e: unknown) => ({ source, file: null, error: e instanceof Error ? e : new Error(String(e)) }),
  )));
  const files = tried.flatMap((t) => (t.file === null ? [] : [t.file]));
  const failed = tried.flatMap((t) => (t.error === null ? [] : [{ name: t.source.name, error: t.error }]));
  if (files.length === 0) throw failed[0].error;
  const definition = options.definition ?? files[0].definition(options.table ?? null).definition;
  // Said once, and not that the table is partitioned: it is read so.
  for (const w of new Set(files.flatMap((f) => f.warnings))) if (!w.endsWith(PARTITIONED_NOTE)) warnings.push(w);
  const order = await partitionOrder(table, files, companions, definition);
  const partitionOf = (f: { name: string }) => partitionOfFile(f.name)?.partition ?? '';
  const named = order?.names ?? ibds.map(partitionOf);
  if (order === null) warnings.push(`nothing gives the order of ${table}'s partitions (no ${table}.par, data dictionary or PARTITION BY clause): they are read in the order the files were given`);
  for (const f of ibds) {
    if (!named.some((n) => samePartition(n, partitionOf(f)))) throw new Error(`${f.name} is not a partition of ${table}: ${order?.from ?? 'the order'} names ${named.join(', ')}`);
  }
  const partitions: Partition[] = [];
  const unread: Error[] = [];
  const unreadable = (name: string, file: string, e: Error) => {
    // The reason names its file already, or is given the name.
    const why = e.message.startsWith(file) ? e.message : `${file}: ${e.message}`;
    warnings.push(`partition ${name} of ${table} cannot be read: ${why}; its rows are not read`);
    partitions.push({ name, table: null, unreadable: e.message });
    unread.push(e);
  };
  for (const name of named) {
    const file = files.find((f) => samePartition(partitionOf(f), name));
    const bad = failed.find((f) => samePartition(partitionOf(f), name));
    if (bad) unreadable(name, bad.name, bad.error);
    else if (!file) {
      warnings.push(`partition ${name} of ${table} (named by ${order?.from}) was not given: its rows are not read`);
      partitions.push({ name, table: null });
    } else {
      try {
        const opened = await openDefinedTable(file.source, definition, { ...options, keys: options.keys });
        warnings.push(...opened.warnings);
        partitions.push({ name, table: opened, recovery: file.recovery });
      } catch (e) {
        unreadable(name, file.name, e instanceof Error ? e : new Error(String(e)));
      }
    }
  }
  // Not one partition readable: the first file's reason is the answer, not an empty table.
  if (!partitions.some((p) => p.table !== null) && unread.length > 0) throw unread[0];
  const first = partitions.find((p) => p.table !== null)?.table;
  const spatial = first?.options.indexName !== undefined && definition.indexes.some((i) => i.name === first.options.indexName && i.kind === 'spatial');
  const keyOrder = await mergeKey(first?.reader.keyParts ?? [], spatial);
  if (first?.options.indexName !== undefined && 'why' in keyOrder) warnings.push(`index ${first.options.indexName}'s rows are given partition by partition, not in its order across partitions: ${keyOrder.why}`);
  return new PartitionedTable(definition, partitions, warnings, options.partitionColumn === true, keyOrder);
}
