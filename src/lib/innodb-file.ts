/**
 * An .ibd file opened by the library: the table definitions it can be read with (definitions.ts; a
 * system tablespace's, ibdata1's, from its InnoDB data dictionary: system-definitions.ts), each
 * table opened for reading (innodb-table.ts), and what needs no definition at all: the
 * tablespace's summary, its live rows counted from the record headers, its columns guessed from
 * the records. Over a ByteSource, with neither Node nor the DOM: the entries (index.ts, node.ts)
 * turn a File, Blob, bytes or path into one.
 */
import { guessColumns, guessedTable, type GuessResult } from '../core/definitions/guess/index.ts';
import type { KnownIndex } from '../core/definitions/guess/sample.ts';
import { partitionOfFile } from '../core/definitions/partitions.ts';
import type { Dictionary } from '../core/definitions/dictionary/dict-tables.ts';
import { IbdError, NotInnodbError } from '../core/errors.ts';
import { droppedIndexes, SystemTargets, type DroppedIndex, type IndexTarget } from '../core/readers/dropped-indexes.ts';
import type { SharedDoublewrite } from '../core/log/doublewrite.ts';
import { logFilesReader, withRedoLog, type BoundsReader, type RedoRecovery } from '../core/log/redo-recovery.ts';
import type { LogCensus } from '../core/log/redo-scan.ts';
import type { LogStretchScanner } from '../core/log/redo-scan-split.ts';
import { scanOrphans, type OrphanScan, type RawLayout } from '../core/tablespace/orphan-scan.ts';
import { isDictionaryTree, recoveredTables } from '../core/definitions/dictionary/dict-freed.ts';
import { recoveredEntries } from './system-definitions.ts';
import { countLiveRows } from '../core/readers/leaf-counts.ts';
import { summarize, type SummarizeOptions, type TablespaceSummary } from '../core/readers/summary.ts';
import type { EncryptionKeys } from '../core/tablespace/encryption.ts';
import type { ByteSource } from '../core/tablespace/source.ts';
import { Tablespace } from '../core/tablespace/tablespace.ts';
import { chooseEntry, foundDefinitions, givenDefinitions, type Definitions, type TableEntry } from './definitions.ts';
import { openDefinedTable, type InnodbTable, type TableOptions } from './innodb-table.ts';

export interface SourceOptions {
  /** The definition given outright (a .frm, or CREATE TABLE statements): it wins over the file's own; `files` are not looked at. */
  schema?: ByteSource;
  /** Companion files (.frm, .sql): looked at after the file's own data dictionary (MySQL 8). */
  files?: readonly ByteSource[];
  /** Keys of an encrypted tablespace (loadKeyFile, parseMysqlKeyring). */
  keys?: EncryptionKeys;
  /**
   * The system tablespace (ibdata1) beside an .ibd: its InnoDB data dictionary's definition of the
   * table of the file's space is taken when neither the file's own SDI nor a .frm describes it.
   */
  dictionary?: ByteSource;
  /** The redo log (ib_logfile0) of the file's datadir: its pages are rolled forward by it (core/log/redo-recovery.ts). */
  redoLog?: ByteSource;
  /** The log's other files (ib_logfile1 …, MySQL 8.0.30+'s other #ib_redoN): their bounds are read where the log is not applied. */
  redoLogFiles?: readonly ByteSource[];
  /** The datadir's ibdata1: its doublewrite buffer restores pages torn by the crash before the log is applied. */
  systemTablespace?: ByteSource;
  /** MySQL 8.0.20+'s doublewrite files (`#ib_16384_0.dblwr` …): their buffer, not ibdata1's, restores torn pages. */
  doublewriteFiles?: readonly ByteSource[];
  /** The redo log is not applied, only read for what it says. */
  asOnDisk?: boolean;
  /** The log's census, taken once for every file of the datadir (logCensus): only the stretches of the log holding this file's records are read. */
  redoCensus?: LogCensus | null;
  /** The datadir's doublewrite buffer, read once for all of its files. */
  sharedDoublewrite?: SharedDoublewrite;
  /** The reader of the bounds of a log of another format (MySQL's), in place of one of redoLogFiles (the datadir's, reading them once for all of its files). */
  boundsReader?: BoundsReader;
  /** A worker thread that scans the second half of the redo log while this thread scans the first (core/log/redo-scan-split.ts). */
  logScanner?: LogStretchScanner;
}

/** A definition guessed from the records, with the guess: each field's lengths, NULLs, samples and type. */
export interface GuessedEntry extends TableEntry {
  guess: GuessResult;
}

/** The live rows counted with no definition: from the leaves found by scanning the file. */
export interface LiveRowCount {
  rows: number;
  leaves: number;
  /** Leaf pages that could not be counted. */
  uncounted: number;
  /** Leaf pages that fail their checksum or their record list's checks: they count no live row. */
  damaged: number;
  indexId: bigint;
}

export class InnodbFile {
  private guessed: Promise<GuessedEntry> | null = null;
  /** The whole file read once for the indexes of dropped tables, kept for every table looked for in it. */
  private scanned: Promise<OrphanScan> | null = null;
  /** Where the indexes of a system tablespace's tables are, found once for all of them. */
  private targets: SystemTargets | null = null;

  constructor(
    /** The file's bytes, as the decoder reads them. */
    readonly source: ByteSource,
    private readonly defs: Definitions,
    readonly keys: EncryptionKeys | undefined,
    private readonly release: () => Promise<void>,
    /** What the datadir's redo log did to the file's pages, or why not; null when no log was given. */
    readonly recovery: RedoRecovery | null = null,
  ) {}

  get name(): string {
    return this.source.name;
  }

  /** What the definitions' sources said: disagreements between them, files that could not be read. */
  get warnings(): readonly string[] {
    return this.defs.warnings;
  }

  /** Why no table is picked without a name (none given or found, or none named like the file); else null. */
  get error(): string | null {
    return this.defs.error;
  }

  /** Every definition to choose from: the tables of the file's data dictionary, of a .frm, of the .sql. */
  tables(): readonly TableEntry[] {
    return this.defs.entries;
  }

  /**
   * The definition of table `name` (case aside); without a name, the one named like the file, else
   * the only one. Throws NoDefinitionError when there is none, TableChoiceError when none fits.
   */
  definition(name: string | null = null): TableEntry {
    return chooseEntry(this.defs, this.source.name, name);
  }

  /**
   * A definition guessed from the records (definitions/guess/), for a file nothing describes: of the
   * table's clustered index, or of index `indexId` (a dropped table's in a system tablespace; `known`:
   * what a scan of the file found of it, so that it is not scanned for again).
   */
  guess(indexId?: bigint, known?: KnownIndex): Promise<GuessedEntry> {
    if (indexId !== undefined) return this.guessIndex(indexId, known);
    this.guessed ??= this.guessIndex(undefined);
    return this.guessed;
  }

  private async guessIndex(indexId: bigint | undefined, known?: KnownIndex): Promise<GuessedEntry> {
    const ts = await Tablespace.open(this.source, { keys: this.keys });
    // A partition's file (t#P#p0.ibd) holds rows of its table, named so.
    const name = partitionOfFile(this.source.name)?.table ?? this.source.name.replace(/\.ibd$/i, '');
    const guess = await guessColumns(ts, name, indexId, known);
    const definition = guessedTable(guess);
    return { name: definition.name, source: 'guess', file: this.source.name, definition, clusteredIndex: null, disagreements: [], guess };
  }

  /** The InnoDB data dictionary of a system tablespace (ibdata1); null for any other file. */
  get dictionary(): Dictionary | null {
    return this.defs.dictionary ?? null;
  }

  /**
   * Opens a table for reading: an entry (tables(), guess()), or the definition() of a name. In a
   * system tablespace, at its clustered index (or the index `options.indexId`), found by scanning
   * the file where the server freed its pages (a dropped table's).
   */
  async table(which: string | TableEntry | null = null, options: TableOptions = {}): Promise<InnodbTable> {
    const entry = which === null || typeof which === 'string' ? this.definition(which) : which;
    const located = options.target === undefined && this.defs.dictionary ? await this.systemTarget(entry, options.indexId) : null;
    return openDefinedTable(this.source, entry.definition, { ...options, target: options.target ?? located ?? undefined, keys: this.keys });
  }

  /** Where the rows of a table of a system tablespace are: its clustered index, or the index asked for. */
  private systemTarget(entry: TableEntry, indexId: bigint | undefined): Promise<IndexTarget> | IndexTarget {
    this.targets ??= new SystemTargets(this.source, this.scanOnce);
    if (indexId !== undefined) return this.targets.target(indexId, null);
    const index = entry.clusteredIndex;
    if (index === null) throw new IbdError(this.source.name, `its data dictionary names no index of \`${entry.name}\`: give the id of the index holding its rows`);
    if (entry.dictionary?.table.state === 'live' && index.rootPage !== null) return { index };
    return this.targets.target(index.indexId, index.rootPage);
  }

  /** The file's pages grouped by index, read once (a failed or cancelled read is not kept). */
  private readonly scanOnce = (signal?: AbortSignal): Promise<OrphanScan> => {
    if (this.scanned === null) {
      const scan = this.knownLayout().then((layout) => scanOrphans(this.source, { signal, keepLeaves: isDictionaryTree, layout }));
      this.scanned = scan;
      scan.catch(() => {
        if (this.scanned === scan) this.scanned = null;
      });
    }
    return this.scanned;
  };

  /** The page grid of a file whose page 0 is sound (its page size and checksum format); else undefined: the scan guesses it. */
  private async knownLayout(): Promise<RawLayout | undefined> {
    const ts = await Tablespace.open(this.source, { keys: this.keys }).catch(() => null);
    if (ts === null || ts.page0Damaged !== null || ts.flagsDisagree !== null || ts.physicalSize !== ts.pageSize) return undefined;
    return { pageSize: ts.pageSize, gridOffset: 0, fullCrc32: ts.fullCrc32 };
  }

  /** A system tablespace's indexes that no live table owns (dropped tables'), found by reading every page; none for another file. */
  async droppedIndexes(signal?: AbortSignal): Promise<DroppedIndex[]> {
    return this.defs.dictionary ? droppedIndexes(this.source, this.defs.dictionary, signal, () => this.scanOnce(signal)) : [];
  }

  /**
   * A system tablespace's dropped tables that its dictionary's trees no longer name, recovered from
   * the dictionary pages the server freed (found by the one read of the whole file droppedIndexes
   * makes too), each with the definition its recovered rows give; none for another file.
   */
  async recoveredTables(signal?: AbortSignal): Promise<TableEntry[]> {
    const dictionary = this.defs.dictionary;
    if (!dictionary) return [];
    const scan = await this.scanOnce(signal);
    const ts = await Tablespace.open(this.source, { keys: this.keys });
    return recoveredEntries(this.source, await recoveredTables(ts, dictionary, scan.keptLeaves));
  }

  /** What the tablespace is, without a definition: page size, server hints, indexes, checksums, the exact row count. */
  summary(options: Omit<SummarizeOptions, 'keys'> = {}): Promise<TablespaceSummary> {
    return summarize(this.source, { ...options, keys: this.keys });
  }

  /** The live rows counted from the record headers, with no definition at all. */
  async countLiveRows(signal?: AbortSignal): Promise<LiveRowCount> {
    return countLiveRows(await Tablespace.open(this.source, { keys: this.keys }), signal);
  }

  /** Lets go of the file (a path's file handle; nothing for a Blob or bytes). */
  close(): Promise<void> {
    return this.release();
  }
}

/**
 * Opens `source`: throws NotInnodbError when it holds no InnoDB page at all; otherwise finds its
 * definitions (a file whose page 0 is damaged opens too, to be read with a scan of its pages).
 */
export async function openSource(raw: ByteSource, options: SourceOptions = {}, release: () => Promise<void> = async () => {}): Promise<InnodbFile> {
  const redo = options.redoLog ? await withRedoLog(raw, options.redoLog, { apply: !options.asOnDisk, boundsReaders: [options.boundsReader ?? logFilesReader(options.redoLogFiles ?? [])], systemTablespace: options.systemTablespace, doublewriteFiles: options.doublewriteFiles, keys: options.keys, census: options.redoCensus, sharedDoublewrite: options.sharedDoublewrite, logScanner: options.logScanner }) : null;
  const source = redo?.source ?? raw;
  const opened = await Tablespace.open(source).then(() => null, (e: unknown) => e);
  if (opened instanceof NotInnodbError) throw opened;
  const defs = options.schema ? await givenDefinitions(source, options.schema) : await foundDefinitions(source, options.files ?? [], options.dictionary ?? null);
  return new InnodbFile(source, defs, options.keys, release, redo?.recovery ?? null);
}
