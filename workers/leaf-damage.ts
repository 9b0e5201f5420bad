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
import { emptyStats, type DecodeStats } from '../src/core/readers/decode-stats.ts';
import { rawView } from '../src/core/tablespace/orphan-scan.ts';
import { BatchBuilder } from '../src/core/values/row-batch.ts';
import type { ByteSource } from '../src/core/tablespace/source.ts';
import { openTable, type TableReader } from '../src/core/readers/table-reader.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import type { RowVersions } from '../src/core/trx/row-vers.ts';
import { addTaken, type DamagedLeaf, type LeafCounts, type TakenCount, type ViewSpec } from './viewer-api.ts';

/** Counts runs of leaves of one open table (one per worker, made on its first count). */
export class LeafCounter {
  #probe: Promise<{ reader: TableReader; scratch: BatchBuilder }> | null = null;
  /** The probe's versions (a fork of the view's), whose counts each page's decode empties first. */
  #probeVersions: RowVersions | null = null;
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
    let versions: TakenCount | undefined = this.versions === null ? undefined : { rolledBack: 0, historyLost: 0, byTrx: [] };
    if (versions) for (let i = 0; i < counts.length; i++) if (counts[i] >= 0) counts[i] = DECODE_TO_COUNT;
    const damaged: DamagedLeaf[] = [];
    for (let i = 0; i < counts.length; i++) {
      if (counts[i] !== DECODE_TO_COUNT && this.versions === null) continue;
      const leaf = await this.#decodeAlone(pages[i]);
      counts[i] = leaf.rows;
      if (leaf.damaged) damaged.push({ at: i, ...leaf.damaged });
      if (versions && leaf.taken) versions = addTaken(versions, leaf.taken);
    }
    return { counts, damaged, mapped, versions };
  }

  /** One page decoded by the probe reader: its rows, and what makes it damaged (null: it is not). */
  #decodeAlone(page: number): Promise<{ rows: number; damaged: Omit<DamagedLeaf, 'at'> | null; taken: TakenCount | null }> {
    const run = this.#queue.then(async () => {
      const { reader, scratch } = await this.#openProbe();
      Object.assign(reader.stats, emptyStats());
      this.#probeVersions?.undone.clear();
      this.#probeVersions?.removed.clear();
      const rows = (await reader.decodePages([page], { into: scratch })).rows;
      const s = reader.stats;
      const taken = { taken: this.#takenOnPage(s) };
      if (s.damagedPages === 0) return { rows, damaged: null, ...taken };
      // The page's own line (record null): the decoder's reason and what it read back.
      const line = s.problems.find((p) => p.page === page && p.record === null);
      return { rows, damaged: { rows: s.damagedRows, withheld: s.damagedWithheld, lost: s.recordsFailed, carved: s.carvedRecords, reason: line?.message ?? null }, ...taken };
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** What the page just decoded by the probe took back, per transaction (its versions' counts were emptied before it). */
  #takenOnPage(s: DecodeStats): TakenCount | null {
    const v = this.#probeVersions;
    if (v === null) return null;
    const byTrx = [...v.undone].map(([trx, n]) => ({ trx, restored: n - (v.removed.get(trx) ?? 0), removed: v.removed.get(trx) ?? 0 }));
    return { rolledBack: s.rowsRolledBack, historyLost: s.historyLost, byTrx };
  }

  #openProbe(): Promise<{ reader: TableReader; scratch: BatchBuilder }> {
    if (this.#probe) return this.#probe;
    const { table, mode, keys, index, raw, indexName } = this.spec;
    // A secondary index's tree is the one the view's reader found by its name.
    const tree = indexName === undefined ? index : { indexId: this.reader.info.indexId, rootPage: this.reader.info.rootPage };
    // Versions of its own: their counts are this page's alone, whatever the grid decodes meanwhile.
    this.#probeVersions ??= this.versions?.fork() ?? null;
    const probe = openTable(this.source, table, { mode, keys, index: tree, raw, indexName, versions: this.#probeVersions }).then((reader) => ({ reader, scratch: new BatchBuilder(reader.columns.length) }));
    // A failed open is tried again by the next page.
    probe.catch(() => {
      if (this.#probe === probe) this.#probe = null;
    });
    this.#probe = probe;
    return probe;
  }
}
