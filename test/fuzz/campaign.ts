/**
 * The fuzz campaign: mutated copies of real files (corpus.ts), decoded by the library in a worker
 * thread (decode-worker.ts) in `live` and `all` modes, each case under a time limit. Case `i` of seed
 * `s` is always the same file and the same mutations, so a failure is replayed with its seed and index.
 *
 * Counted per class of mutation (mutate.ts): cases, pages mutated, truncations; crashes (anything
 * thrown but the decoder's IbdError at open), hangs (over the time limit), uncaught errors (the
 * worker died), files refused (IbdError at open); and unmarked wrong rows: rows of the `live`
 * output that are not rows of the intact file's `live` output (multisets), with the intact rows lost.
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { rng } from '../differential/random-data.ts';
import type { CorpusFile } from './corpus.ts';
import type { Outcome, Request, Response } from './decode-worker.ts';
import { fileLayout, mutate, MUTATION_KINDS, type FileLayout, type Mutated, type MutationKind } from './mutate.ts';

const ROOT = join(import.meta.dirname, '../..');

export interface CampaignOptions {
  seed: number;
  /** Cases to run at most, from case `first` (default 0) on. */
  count: number;
  first?: number;
  /** Stop starting cases after this time (Date.now() value). */
  deadline?: number;
  /** Per-case limit for both decodes of a copy. */
  timeLimitMs: number;
  /** Share of cases whose mutated pages get a valid checksum again. */
  recomputeShare: number;
  /** Called with each failure as it happens. */
  log?: (line: string) => void;
}

export interface ClassFigures {
  cases: number;
  pagesMutated: number;
  truncations: number;
  refused: number;
  crashesAtOpen: number;
  crashesReading: number;
  hangs: number;
  uncaught: number;
  wrongRows: number;
  casesWithWrongRows: number;
  lostRows: number;
}

export type MutationClass = Mutated['kind'];

export type FailureType = 'crash' | 'hang' | 'uncaught' | 'wrong rows';

export interface Failure {
  type: FailureType;
  case: number;
  file: string;
  class: MutationClass;
  what: string[];
  failure: string;
}

export interface Figures {
  seed: number;
  cases: number;
  /** Cases whose mutations changed nothing (not decoded). */
  noops: number;
  byClass: Record<MutationClass, ClassFigures>;
  /** Cases and unmarked wrong rows per kind of mutation in the case (a case with several counts for each). */
  byKind: Record<MutationKind, { cases: number; wrongRows: number; undetectableWrongRows: number }>;
  byGroup: Record<CorpusFile['group'], number>;
  /** Crashes, hangs, uncaught errors in every class, and wrong rows in the detectable class (the first 10 of each type). */
  failures: Failure[];
  elapsedMs: number;
}

const emptyClass = (): ClassFigures => ({ cases: 0, pagesMutated: 0, truncations: 0, refused: 0, crashesAtOpen: 0, crashesReading: 0, hangs: 0, uncaught: 0, wrongRows: 0, casesWithWrongRows: 0, lostRows: 0 });

/**
 * Bundles decode-worker.ts (TypeScript) into a file a worker thread can run, one per process (a test
 * and a campaign may run at once); returns its path, for removeWorker() when done.
 */
export async function buildWorker(): Promise<string> {
  const outfile = join(ROOT, `.cache/fuzz/decode-worker-${process.pid}.mjs`);
  await build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'test/fuzz/decode-worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return outfile;
}

export function removeWorker(path: string): void {
  rmSync(path, { force: true });
}

type Reply = Response | { type: 'hang' } | { type: 'uncaught'; error: string };
/** A request before its id is given. */
type Message = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

/** One worker thread, started again after a hang or an uncaught error (and then loaded again). */
class DecoderThread {
  private worker: Worker | null = null;
  private loaded = new Set<string>();
  private nextId = 1;
  private pending: { id: number; resolve: (reply: Reply) => void } | null = null;

  constructor(private readonly path: string) {}

  private start(): Worker {
    const worker = new Worker(this.path, { resourceLimits: { maxOldGenerationSizeMb: 1536 } });
    // Events of a worker given up on (after a hang) are no longer ours.
    worker.on('message', (m: Response) => {
      if (this.worker === worker && this.pending?.id === m.id) this.settle(m);
    });
    worker.on('error', (e) => {
      if (this.worker !== worker) return;
      this.forget();
      void worker.terminate();
      this.settle({ type: 'uncaught', error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.forget();
      this.settle({ type: 'uncaught', error: `the worker exited (${code})` });
    });
    this.worker = worker;
    this.loaded = new Set();
    return worker;
  }

  private settle(reply: Reply): void {
    const p = this.pending;
    this.pending = null;
    p?.resolve(reply);
  }

  private forget(): void {
    this.worker = null;
    this.loaded = new Set();
  }

  private request(message: Message, timeoutMs: number, transfer: ArrayBuffer[] = []): Promise<Reply> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<Reply>((resolve) => {
      const timer = setTimeout(() => {
        this.forget();
        void worker.terminate();
        this.settle({ type: 'hang' });
      }, timeoutMs);
      this.pending = {
        id,
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
      };
      worker.postMessage({ ...message, id } as Request, transfer);
    });
  }

  /** Decodes the intact file in the worker (once per worker); throws when that fails. */
  async load(f: CorpusFile): Promise<void> {
    if (this.loaded.has(f.file)) return;
    const reply = await this.request({ type: 'load', file: f.file, name: f.name, sql: f.sql, bytes: f.bytes }, 120_000);
    if (reply.type !== 'loaded') throw new Error(`${f.file}: the intact file did not decode: ${JSON.stringify(reply)}`);
    if (reply.problems > 0) throw new Error(`${f.file}: the intact file decodes with ${reply.problems} problems; it cannot be a fuzz seed`);
    this.loaded.add(f.file);
  }

  async decode(f: CorpusFile, bytes: Uint8Array, timeoutMs: number): Promise<Reply> {
    await this.load(f);
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    return this.request({ type: 'case', file: f.file, bytes: own }, timeoutMs, [own.buffer as ArrayBuffer]);
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.forget();
    if (w) await w.terminate();
  }
}

/** The generator of case `index` of `seed`. */
function caseRng(seed: number, index: number): () => number {
  return rng((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
}

/** Loads every corpus file into a worker once: a file that does not decode cleanly intact fails the campaign here. */
export async function checkCorpus(workerPath: string, corpus: readonly CorpusFile[]): Promise<void> {
  const thread = new DecoderThread(workerPath);
  try {
    for (const f of corpus) await thread.load(f);
  } finally {
    await thread.close();
  }
}

export async function runCampaign(workerPath: string, corpus: readonly CorpusFile[], options: CampaignOptions): Promise<Figures> {
  const started = Date.now();
  const layouts = new Map<string, FileLayout>(corpus.map((f) => [f.file, fileLayout(f.bytes)]));
  const groups = (['mariadb', 'mysql', 'sample'] as const).map((g) => corpus.filter((f) => f.group === g)).filter((g) => g.length > 0);
  const figures: Figures = {
    seed: options.seed,
    cases: 0,
    noops: 0,
    byClass: { detectable: emptyClass(), undetectable: emptyClass() },
    byKind: Object.fromEntries(MUTATION_KINDS.map((k) => [k, { cases: 0, wrongRows: 0, undetectableWrongRows: 0 }])) as Figures['byKind'],
    byGroup: { sample: 0, mariadb: 0, mysql: 0 },
    failures: [],
    elapsedMs: 0,
  };
  const thread = new DecoderThread(workerPath);
  const fail = (failure: Failure) => {
    if (figures.failures.filter((x) => x.type === failure.type).length >= 10) return;
    figures.failures.push(failure);
    options.log?.(`${failure.type}: case ${failure.case} (seed ${options.seed}), ${failure.file}, ${failure.class}: ${failure.failure}\n    ${failure.what.join('\n    ')}`);
  };
  try {
    const first = options.first ?? 0;
    for (let i = first; i < first + options.count; i++) {
      if (options.deadline !== undefined && Date.now() > options.deadline) break;
      const r = caseRng(options.seed, i);
      const group = groups[Math.floor(r() * groups.length)];
      const f = group[Math.floor(r() * group.length)];
      const m = mutate(f.bytes, layouts.get(f.file) as FileLayout, r, r() < options.recomputeShare);
      if (m.pages.length === 0 && !m.truncated) {
        figures.noops++;
        continue;
      }
      figures.cases++;
      figures.byGroup[f.group]++;
      const c = figures.byClass[m.kind];
      c.cases++;
      c.pagesMutated += m.pages.length;
      if (m.truncated) c.truncations++;
      const report = (type: FailureType, failure: string) => fail({ type, case: i, file: f.file, class: m.kind, what: m.what, failure });
      const reply = await thread.decode(f, m.bytes, options.timeLimitMs);
      const kinds = new Set(m.kinds);
      for (const k of kinds) figures.byKind[k].cases++;
      if (reply.type === 'hang') {
        c.hangs++;
        report('hang', `over ${options.timeLimitMs} ms`);
        continue;
      }
      if (reply.type === 'uncaught' || reply.type === 'failed') {
        c.uncaught++;
        report('uncaught', reply.error);
        continue;
      }
      if (reply.type !== 'case') throw new Error(`unexpected reply ${reply.type}`);
      for (const [mode, outcome] of [['live', reply.live], ['all', reply.all]] as [string, Outcome][]) {
        if (outcome.kind === 'refused') c.refused += mode === 'live' ? 1 : 0;
        if (outcome.kind === 'crash') {
          if (outcome.phase === 'open') c.crashesAtOpen++;
          else c.crashesReading++;
          report('crash', `--rows ${mode}, ${outcome.phase === 'open' ? 'at open' : 'reading'}: ${outcome.error}`);
        }
      }
      if (reply.live.kind === 'rows') {
        c.lostRows += reply.live.lost;
        if (reply.live.wrong > 0) {
          c.wrongRows += reply.live.wrong;
          c.casesWithWrongRows++;
          for (const k of kinds) figures.byKind[k][m.kind === 'detectable' ? 'wrongRows' : 'undetectableWrongRows'] += reply.live.wrong;
          if (m.kind === 'detectable') report('wrong rows', `${reply.live.wrong} unmarked wrong rows in --rows live, e.g. ${reply.live.samples.join(' | ')}`);
        }
      }
    }
  } finally {
    await thread.close();
  }
  figures.elapsedMs = Date.now() - started;
  return figures;
}

/** The figures as a few lines of text. */
export function formatFigures(f: Figures): string {
  const lines = [`fuzz campaign, seed ${f.seed}: ${f.cases} cases in ${(f.elapsedMs / 1000).toFixed(1)} s (${f.noops} mutations changed nothing); files: ${Object.entries(f.byGroup).map(([g, n]) => `${g} ${n}`).join(', ')}`];
  for (const [name, c] of Object.entries(f.byClass)) {
    lines.push(
      `  ${name.padEnd(12)} ${c.cases} cases, ${c.pagesMutated} pages mutated, ${c.truncations} truncations; refused ${c.refused}; ` +
        `crashes ${c.crashesAtOpen + c.crashesReading} (at open ${c.crashesAtOpen}, reading ${c.crashesReading}), hangs ${c.hangs}, uncaught ${c.uncaught}; ` +
        `unmarked wrong rows ${c.wrongRows} (in ${c.casesWithWrongRows} cases); intact rows lost ${c.lostRows}`,
    );
  }
  lines.push(`  by kind (cases / unmarked wrong rows, detectable + undetectable): ${Object.entries(f.byKind).map(([k, v]) => `${k} ${v.cases}/${v.wrongRows}+${v.undetectableWrongRows}`).join(', ')}`);
  return lines.join('\n');
}
