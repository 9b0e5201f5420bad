/**
 * The page's count of a run of leaf pages (its row numbers), with what each damaged page of the run
 * holds: how many of its rows the row mode returns (of state `damaged`), how many it withholds, how
 * many of its records are lost, and why the page is damaged. The page adds these up over the count
 * (src/ui/recovery/damage.ts) into the banner's figures, which are then what the CLI says of the same file,
 * and marks and searches the damaged pages.
 *
 * TableReader.countLeaves counts the same way (leaf-counts.ts: record headers, and a decode of the
 * pages only that can count), but adds what the decodes find to the reader's statistics, shared with
 * the tasks running beside it in the worker (the grid's decodes, a search): a difference of those
 * would not be this run's. So the pages are counted here on the reader's own Tablespace, and those
 * to decode are decoded one at a time by a second reader of the table, kept for that alone, whose
 * statistics are emptied before each page: each page's figures are exactly its own.
 */
import { countLeafRows, DECODE_TO_COUNT, markDisowned } from '../src/core/readers/leaf-counts.ts';
import type { MappedRange } from '../src/core/readers/page-map-fill.ts';
import { emptyStats } from '../src/core/readers/decode-stats.ts';
import { rawView } from '../src/core/tablespace/orphan-scan.ts';
import { BatchBuilder } from '../src/core/values/row-batch.ts';
import type { ByteSource } from '../src/core/tablespace/source.ts';
import { openTable, type TableReader } from '../src/core/readers/table-reader.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import type { RowVersions } from '../src/core/trx/row-vers.ts';
import type { DamagedLeaf, LeafCounts, ViewSpec } from './viewer-api.ts';

/** Counts runs of leaves of one open table (one per worker, made on its first count). */
export class LeafCounter {
  #probe: Promise<{ reader: TableReader; scratch: BatchBuilder }> | null = null;
  /** The decodes of damaged pages, one after another (their statistics are emptied before each). */
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly source: ByteSource,
    private readonly spec: ViewSpec,
    private readonly ts: Tablespace,
    private readonly reader: Pick<TableReader, 'info' | 'disownedLeaves'>,
    private readonly versions: RowVersions | null,
  ) {}

  /**
   * For the table `reader` opened from `source` with `spec`: the Tablespace open over `source` is its
   * own. `versions`: transactions taken back (rolled back at a crash), which change which records are
   * rows: every page is then decoded to count it, by the probe reader reading them taken back.
   */
  static async open(source: ByteSource, spec: ViewSpec, reader: Pick<TableReader, 'info' | 'disownedLeaves'>, versions: RowVersions | null = null): Promise<LeafCounter> {
    const ts = spec.raw ? Tablespace.openRaw(rawView(source, spec.raw.base), spec.raw) : await Tablespace.open(source, { keys: spec.keys });
    return new LeafCounter(source, spec, ts, reader, versions);
  }

  /**
   * Rows on each page (UNCOUNTED where it cannot be read), and the damaged ones among them: leaves
   * found by a scan that a merge freed too (decoded as damaged, as TableReader.countLeaves does). With
   * `map`, every page read recorded for the page map (page-map-fill.ts; not for a raw image's table,
   * whose page numbers are not the file's).
   */
  async count(pages: Int32Array, readBytes: number, map = false): Promise<LeafCounts> {
    const { info } = this.reader;
    const mapped: MappedRange[] | undefined = map && !this.spec.raw ? [] : undefined;
    const counts = await countLeafRows(this.ts, pages, { indexId: info.indexId, compact: info.rowFormat !== 'REDUNDANT', mode: this.spec.mode, readBytes, mapped });
    markDisowned(pages, counts, await this.reader.disownedLeaves());
    // Records a transaction taken back changed may be no row, or come back: each leaf is decoded.
    const versions = this.versions === null ? undefined : { rolledBack: 0, historyLost: 0 };
    if (versions) for (let i = 0; i < counts.length; i++) if (counts[i] >= 0) counts[i] = DECODE_TO_COUNT;
    const damaged: DamagedLeaf[] = [];
    for (let i = 0; i < counts.length; i++) {
      if (counts[i] !== DECODE_TO_COUNT && this.versions === null) continue;
      const leaf = await this.#decodeAlone(pages[i]);
      counts[i] = leaf.rows;
      if (leaf.damaged) damaged.push({ at: i, ...leaf.damaged });
      if (versions) {
        versions.rolledBack += leaf.rolledBack;
        versions.historyLost += leaf.historyLost;
      }
    }
    return { counts, damaged, mapped, versions };
  }

  /** One page decoded by the probe reader: its rows, and what makes it damaged (null: it is not). */
  #decodeAlone(page: number): Promise<{ rows: number; damaged: Omit<DamagedLeaf, 'at'> | null; rolledBack: number; historyLost: number }> {
    const run = this.#queue.then(async () => {
      const { reader, scratch } = await this.#openProbe();
      Object.assign(reader.stats, emptyStats());
      const rows = (await reader.decodePages([page], { into: scratch })).rows;
      const s = reader.stats;
      const taken = { rolledBack: s.rowsRolledBack, historyLost: s.historyLost };
      if (s.damagedPages === 0) return { rows, damaged: null, ...taken };
      // The page's own line (record null): the decoder's reason and what it read back.
      const line = s.problems.find((p) => p.page === page && p.record === null);
      return { rows, damaged: { rows: s.damagedRows, withheld: s.damagedWithheld, lost: s.recordsFailed, carved: s.carvedRecords, reason: line?.message ?? null }, ...taken };
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #openProbe(): Promise<{ reader: TableReader; scratch: BatchBuilder }> {
    if (this.#probe) return this.#probe;
    const { table, mode, keys, index, raw, indexName } = this.spec;
    // A secondary index's tree is the one the view's reader found by its name.
    const tree = indexName === undefined ? index : { indexId: this.reader.info.indexId, rootPage: this.reader.info.rootPage };
    const probe = openTable(this.source, table, { mode, keys, index: tree, raw, indexName, versions: this.versions }).then((reader) => ({ reader, scratch: new BatchBuilder(reader.columns.length) }));
    // A failed open is tried again by the next page.
    probe.catch(() => {
      if (this.#probe === probe) this.#probe = null;
    });
    this.#probe = probe;
    return probe;
  }
}
