/**
 * A partitioned table open in a decoder worker as one table (the page's grid, counts, searches and
 * exports over all its partitions): the files of its partitions read in partition order by the
 * library (src/lib/partitioned-table.ts: the order of its .par, the files' data dictionary or the
 * PARTITION BY clause), each with its own TableReader, behind the few methods the viewer calls on a
 * reader (`ViewReader`). Its leaves are numbered across the partitions (leaf i of the table, not a
 * page number): a leaf of the first partition is 0 …, of the second follows on. Each row ends with
 * the name of its partition (`_partition`, as the CLI's --partition-column). A secondary index read
 * gives each partition's index rows in turn, each partition's in the index's order; a sort by the
 * whole key (`keyOrder`, sort-methods.ts) puts them in one order across the partitions.
 */
import { PARTITION_COLUMN, openPartitionSources } from '../src/lib/partitioned-table.ts';
import { partitionOfFile, samePartition } from '../src/core/definitions/partitions.ts';
import type { MergeKey } from '../src/core/readers/key-merge.ts';
import { mergeStats } from '../src/core/readers/parallel.ts';
import type { DecodePagesOptions, DecodeStats, KeyRange, TableInfo, TableReader } from '../src/core/readers/table-reader.ts';
import type { SeekTree } from './key-seek.ts';
import { blobSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { fileSource } from './redo-sources.ts';
import { appendColumn, concatBatches } from '../src/core/values/batch-edit.ts';
import type { RowBatch } from '../src/core/values/row-batch.ts';
import type { RowVersions } from '../src/core/trx/row-vers.ts';
import { LeafCounter } from './leaf-damage.ts';
import { addTaken, type LeafCounts, type ViewSpec } from './viewer-api.ts';

/** What the viewer methods call on the table open (a TableReader has them all). */
export type ViewReader = Pick<TableReader, 'columns' | 'info' | 'stats' | 'leafPages' | 'firstLeafPage' | 'checkDefinition' | 'readRun' | 'releaseRun' | 'decodePages'> & {
  /**
   * The order of the view's whole key (the index's parts, then the primary key's) across the trees it
   * reads, a partitioned table's, or why there is none: a sort by it (sort-methods.ts) is the index's
   * order across the partitions. Absent for one tree, whose leaves are in that order already.
   */
  readonly keyOrder?: MergeKey | { why: string };
};

/** Counts runs of leaves (LeafCounter has it). */
export interface ViewCounter {
  /** `map`: record the pages read for the page map (a single file's counter only). */
  count(pages: Int32Array, readBytes: number, map?: boolean): Promise<LeafCounts>;
}

interface Part {
  name: string;
  source: ByteSource;
  spec: ViewSpec;
  reader: TableReader;
  counter: Promise<LeafCounter> | null;
}

/** One partition's part of a run of the table's leaves: leaves [from, to) of the run are its `pages`. */
interface Span {
  part: Part;
  from: number;
  to: number;
  pages: number[];
}

export class PartitionView implements ViewReader {
  /** Every partition's leaf pages, one after another, and where each partition's begin. */
  #pages: number[] = [];
  #starts: number[] = [];
  #planned: Promise<void> | null = null;

  private constructor(
    private readonly parts: readonly Part[],
    readonly columns: string[],
    /** Partitions the order names that were not given or cannot be read, partitions' files damaged as a whole, and what else the library said. */
    readonly warnings: readonly string[],
    /** The secondary index read in each partition (its name), or null for the clustered index. */
    readonly index: string | null,
    readonly keyOrder: MergeKey | { why: string },
    /** Transactions taken back in every partition (active at a crash, rolled back): each leaf is then decoded to count it. */
    private readonly versions: RowVersions | null,
  ) {}

  /**
   * Opens the partitions of `spec` (`spec.partitions`, with `spec.companions` for the .par) with its
   * definition; with `spec.indexName`, each partition's tree of that index (its rows in the index's
   * order within the partition: the leaves are the table's, so they are not merged across partitions).
   * `versions`: transactions whose changes every partition's records are read without (the undo
   * records are found by each record's roll pointer, whatever the partition).
   */
  static async open(spec: ViewSpec, versions: RowVersions | null = null): Promise<PartitionView> {
    const files = spec.partitions ?? [];
    const sources = await Promise.all(files.map((f) => fileSource(f.blob, f.name)));
    const companions = (spec.companions ?? []).map((f) => blobSource(f.blob, f.name));
    const table = await openPartitionSources(sources, companions, { definition: spec.table, rows: spec.mode, keys: spec.keys, timeZone: spec.timeZone, index: spec.indexName, versions, systemColumns: spec.systemColumns });
    const parts: Part[] = [];
    const warnings = [...table.warnings];
    for (const p of table.partitions) {
      if (p.table === null) continue;
      // A partition's file damaged as a whole (page 0, cut short) is said beside the partitions, as its summary would.
      warnings.push(...(await p.table.spaceDamage()).warnings);
      const at = files.findIndex((f) => samePartition(partitionOfFile(f.name)?.partition ?? '', p.name));
      const file = files[at];
      parts.push({ name: p.name, source: sources[at], spec: { ...spec, ibd: file.blob, name: file.name, partitions: undefined }, reader: p.table.reader, counter: null });
    }
    if (parts.length === 0) throw new Error(`none of the partitions of ${spec.table.name} was given`);
    return new PartitionView(parts, [...parts[0].reader.columns, PARTITION_COLUMN], warnings, table.index, table.keyOrder, versions);
  }

  get info(): TableInfo {
    return this.parts[0].reader.info;
  }

  get stats(): DecodeStats {
    return mergeStats(this.parts.map((p) => p.reader.stats));
  }

  /** Each partition's B-tree, for Go to (key-seek.ts): its leaf pages named by the table's leaves (once leafPages() is known). */
  trees(): SeekTree[] {
    return this.parts.map((p, i) => ({ lookup: (range: KeyRange) => p.reader.lookup(range), leaf: (page: number) => this.#leafOf(i, page), partition: p.name }));
  }

  /** Each partition's name, file and the table leaf its leaf page `page` is (-1: not one of its leaves), once leafPages() is known. */
  files(): { name: string; source: ByteSource; leaf(page: number): number }[] {
    return this.parts.map((p, i) => ({ name: p.name, source: p.source, leaf: (page: number) => this.#leafOf(i, page) }));
  }

  #leafOf(part: number, page: number): number {
    const at = this.#pages.slice(this.#starts[part], this.#starts[part + 1] ?? this.#pages.length).indexOf(page);
    return at < 0 ? -1 : this.#starts[part] + at;
  }

  /** Each partition's name and the table's leaf its leaves begin at (once leafPages() is known). */
  get partitions(): { name: string; start: number }[] {
    return this.parts.map((p, i) => ({ name: p.name, start: this.#starts[i] ?? 0 }));
  }

  #plan(): Promise<void> {
    this.#planned ??= (async () => {
      for (const p of this.parts) {
        this.#starts.push(this.#pages.length);
        this.#pages.push(...(await p.reader.leafPages()));
      }
    })();
    return this.#planned;
  }

  async leafPages(): Promise<number[]> {
    await this.#plan();
    return this.#pages.map((_, i) => i);
  }

  async firstLeafPage(): Promise<number | null> {
    await this.#plan();
    return this.#pages.length > 0 ? 0 : null;
  }

  async checkDefinition(): Promise<void> {
    for (const p of this.parts) await p.reader.checkDefinition();
  }

  /** Runs are read by each partition's reader as it decodes (a run may span several files). */
  async readRun(): Promise<null> {
    return null;
  }

  releaseRun(): void {}

  /** The partition of table leaf `leaf`. */
  #partOf(leaf: number): number {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid] <= leaf) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** `leaves` cut where the partition changes. */
  #spans(leaves: ArrayLike<number>): Span[] {
    const spans: Span[] = [];
    for (let i = 0; i < leaves.length; i++) {
      const part = this.parts[this.#partOf(leaves[i])];
      const last = spans.at(-1);
      if (last && last.part === part && last.to === i) {
        last.pages.push(this.#pages[leaves[i]]);
        last.to++;
      } else spans.push({ part, from: i, to: i + 1, pages: [this.#pages[leaves[i]]] });
    }
    return spans;
  }

  /** The rows of table leaves `leaves`, each ending with its partition's name (a builder given is not used: each partition decodes into its own). */
  async decodePages(leaves: readonly number[], options: DecodePagesOptions = {}): Promise<RowBatch> {
    await this.#plan();
    const batches: RowBatch[] = [];
    for (const span of this.#spans(leaves)) {
      const batch = await span.part.reader.decodePages(span.pages, { first: options.first === true && span.from === 0 });
      batches.push(appendColumn(batch, span.part.name));
    }
    return batches.length === 0 ? appendColumn(await this.parts[0].reader.decodePages([]), '') : concatBatches(batches);
  }

  /** Counts table leaves `leaves`, each partition's on its own file. */
  async count(leaves: Int32Array, readBytes: number): Promise<LeafCounts> {
    await this.#plan();
    const counts = new Int32Array(leaves.length);
    const damaged: LeafCounts['damaged'] = [];
    let versions: LeafCounts['versions'];
    for (const span of this.#spans(leaves)) {
      const part = span.part;
      part.counter ??= LeafCounter.open(part.source, part.spec, part.reader, this.versions);
      const counted = await (await part.counter).count(Int32Array.from(span.pages), readBytes);
      counts.set(counted.counts, span.from);
      for (const d of counted.damaged) damaged.push({ ...d, at: d.at + span.from });
      if (counted.versions) versions = addTaken(versions, counted.versions);
    }
    return { counts, damaged, versions };
  }
}
