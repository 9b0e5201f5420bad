/**
 * The log records of a batch of pages read in one pass over the log (as recv_sys_t gathers a page's
 * records before recv_recover_page applies them, in batches bounded by the buffer pool). A page's
 * records lie all over the log, so reading them page by page costs one read per run; a batch takes
 * neighbouring pages whose runs together fit BATCH_BYTES, reads only the log chunks that hold some
 * of them, in LSN order, and copies each run to its page's place: the page's runs end up contiguous,
 * in LSN order, in one buffer. One batch is held at a time.
 */
import type { LogArea } from './log-file.ts';
import type { PageLog } from './redo-scan.ts';

/** The most log bytes held for one batch of pages. */
const BATCH_BYTES = 64 << 20;
/** The log is read by chunks of this size, those holding no run of the batch skipped. */
const CHUNK_BYTES = 1 << 20;
/** Neighbouring chunks read in one range, up to this many. */
const RANGE_CHUNKS = 8;

/** Where one page's runs lie in its batch's buffer. */
export interface PageRuns {
  bytes: Uint8Array;
  /** The offset of its first run to apply (from the last INIT_PAGE on). */
  at: number;
}

/** The pages of one tablespace's log, cut into batches by page number. */
export class RecvBatches {
  /** The page numbers with runs to apply, ascending, and the index in it where each batch begins. */
  private readonly order: number[];
  private readonly firsts: number[] = [];
  private loaded = -1;
  private held = new Map<number, PageRuns>();
  private pending: Promise<void> | null = null;
  /**
   * The buffers of the batch held, reused by the next (each batch's size is about the same): a new
   * 64 MiB buffer for each batch, zeroed page by page by the system, cost system time and full GCs.
   */
  private buffers: { bytes: Uint8Array; src: Float64Array; len: Int32Array; dst: Int32Array; ends: Float64Array } | null = null;
  /** Batches read so far (a reader that jumps between batches makes them read again). */
  reads = 0;

  constructor(
    private readonly area: LogArea,
    private readonly pages: ReadonlyMap<number, PageLog>,
    /** The log's checkpoint and end: every run lies between. */
    private readonly fromLsn: number,
    private readonly toLsn: number,
    private readonly batchBytes: number = BATCH_BYTES,
    /** An encrypted log's bytes [lsn, lsn + length), decrypted, where the last mini-transaction read ends at `end`. */
    private readonly decrypted: ((lsn: number, length: number, end: number) => Promise<Uint8Array>) | null = null,
  ) {
    this.order = [...pages.keys()].filter((no) => !pages.get(no)!.freed).sort((a, b) => a - b);
    let bytes = Infinity;
    for (let k = 0; k < this.order.length; k++) {
      const n = pages.get(this.order[k])!.bytesToApply();
      if (bytes + n > this.batchBytes) {
        this.firsts.push(k);
        bytes = 0;
      }
      bytes += n;
    }
    this.firsts.push(this.order.length);
  }

  /**
   * The runs of page `no` (one with log records, not freed), its batch read first when another is
   * held: its bytes are valid until the next batch is read (in the buffer it reuses).
   */
  async runsOf(no: number): Promise<PageRuns> {
    const batch = this.batchOf(no);
    // Pages are asked for concurrently (reads in flight at once): one load at a time, and the runs
    // taken in the same turn as the batch is seen loaded, before another load can replace it.
    while (batch !== this.loaded) {
      this.pending ??= this.load(batch).finally(() => {
        this.pending = null;
      });
      await this.pending;
    }
    const runs = this.held.get(no);
    if (runs === undefined) throw new Error(`page ${no} has no log records to apply`);
    return runs;
  }

  /** The batch holding page `no`: the last whose first page is ≤ no. */
  private batchOf(no: number): number {
    let lo = 0;
    let hi = this.firsts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.order[this.firsts[mid]] <= no) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The log's bytes [lsn, lsn + length): into `scratch` where the source reads into a buffer (owned: ours to pass on), else as the log area reads them. */
  private async read(lsn: number, length: number, scratch: ArrayBuffer | undefined): Promise<{ bytes: Uint8Array; owned: boolean }> {
    const source = this.area.source;
    const start = this.area.offsetOf(lsn);
    if (source.readInto && start + length <= source.size) return { bytes: await source.readInto(start, length, scratch), owned: true };
    return { bytes: await this.area.bytes(lsn, length), owned: false };
  }

  /** Room for a batch of `total` bytes in `runs` runs: the last batch's buffers where they are large enough. */
  private buffersFor(total: number, runs: number) {
    const b = this.buffers;
    if (b !== null && b.bytes.length >= total && b.src.length >= runs) return b;
    const runsFit = b !== null && b.src.length >= runs;
    this.buffers = {
      bytes: b !== null && b.bytes.length >= total ? b.bytes : new Uint8Array(total),
      src: runsFit ? b.src : new Float64Array(runs),
      len: runsFit ? b.len : new Int32Array(runs),
      dst: runsFit ? b.dst : new Int32Array(runs),
      ends: runsFit ? b.ends : new Float64Array(runs),
    };
    return this.buffers;
  }

  /** Reads batch `k`: each run copied from its chunk of the log to its page's place in one buffer. */
  private async load(k: number): Promise<void> {
    this.held = new Map();
    this.loaded = -1;
    const pages = this.order.slice(this.firsts[k], this.firsts[k + 1]).map((no) => [no, this.pages.get(no)!] as const);
    let total = 0;
    let runs = 0;
    for (const [, log] of pages) {
      total += log.bytesToApply();
      runs += log.count - Math.max(0, log.initAt);
    }
    const { bytes, src, len, dst, ends } = this.buffersFor(total, runs);
    // Each run's source LSN, length and place in `bytes`, bucketed by chunk of the log (a counting sort: LSN order by chunk).
    const chunkOf = (lsn: number) => Math.floor((lsn - this.fromLsn) / CHUNK_BYTES);
    const counts = new Int32Array(chunkOf(this.toLsn) + 1);
    for (const [, log] of pages) for (let i = Math.max(0, log.initAt); i < log.count; i++) counts[chunkOf(log.start(i))]++;
    const chunks: number[] = [];
    const slot = new Int32Array(counts.length);
    for (let c = 0, next = 0; c < counts.length; next += counts[c], c++) {
      slot[c] = next;
      if (counts[c] > 0) chunks.push(c);
    }
    let at = 0;
    for (const [no, log] of pages) {
      this.held.set(no, { bytes, at });
      for (let i = Math.max(0, log.initAt); i < log.count; i++) {
        const s = slot[chunkOf(log.start(i))]++;
        src[s] = log.start(i);
        len[s] = log.length(i);
        dst[s] = at;
        ends[s] = log.mtrEnd(i);
        at += log.length(i);
      }
    }
    // Neighbouring chunks read as one range, into one buffer reused from range to range.
    let scratch: ArrayBuffer | undefined;
    for (let s = 0, c = 0; c < chunks.length; ) {
      let last = c;
      while (last + 1 < chunks.length && chunks[last + 1] === chunks[last] + 1 && chunks[last + 1] - chunks[c] < RANGE_CHUNKS) last++;
      let end = s;
      for (let j = c; j <= last; j++) end += counts[chunks[j]];
      let from = Infinity;
      let to = 0;
      let mtrEnd = 0;
      for (let j = s; j < end; j++) {
        from = Math.min(from, src[j]);
        to = Math.max(to, src[j] + len[j]);
        mtrEnd = Math.max(mtrEnd, ends[j]);
      }
      const range = this.decrypted ? { bytes: await this.decrypted(from, to - from, mtrEnd), owned: false } : await this.read(from, to - from, scratch);
      if (range.owned) scratch = range.bytes.buffer as ArrayBuffer;
      copyRuns(range.bytes, from, bytes, src, len, dst, s, end);
      s = end;
      c = last + 1;
    }
    this.loaded = k;
    this.reads++;
  }
}

/** Runs at most this long are copied byte by byte: a view for each (most are a few dozen bytes) cost more than the copy. */
const SHORT_RUN = 64;

/** Runs s..end-1, whose source LSNs are `src` (in `range`, which begins at LSN `from`), copied to their places `dst` in `bytes`. */
function copyRuns(range: Uint8Array, from: number, bytes: Uint8Array, src: Float64Array, len: Int32Array, dst: Int32Array, s: number, end: number): void {
  for (; s < end; s++) {
    const a = src[s] - from;
    const n = len[s];
    const d = dst[s];
    if (n > SHORT_RUN) bytes.set(range.subarray(a, a + n), d);
    else for (let i = 0; i < n; i++) bytes[d + i] = range[a + i];
  }
}
