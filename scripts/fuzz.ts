/**
 * `npm run fuzz -- [options]` (scripts/fuzz.mjs bundles this file and runs `main`): a fuzz campaign
 * bigger than the one in `npm test` (test/fuzz/fuzz.test.ts), over the same files, with its figures
 * printed at the end. Case i of a seed is always the same mutation of the same file (given the same
 * files: --no-mariadb and --rows change them): `--first i --count 1` replays it. Exit status 1 when the campaign finds a crash, a hang, an uncaught error or
 * an unmarked wrong row where the damage is detectable; 0 otherwise.
 */
import { makeTables } from '../test/damage/tables.ts';
import { buildWorker, checkCorpus, formatFigures, removeWorker, runCampaign } from '../test/fuzz/campaign.ts';
import { mariadbFiles, mysqlFiles, sampleFiles, type CorpusFile } from '../test/fuzz/corpus.ts';
import { startMariadb } from '../test/harness/mariadb.ts';

const USAGE = `usage: npm run fuzz -- [--seed N] [--count N] [--first N] [--time-limit MS] [--recompute SHARE] [--rows N] [--no-mariadb]

  --seed N          the campaign's seed (default 1)
  --count N         cases to run (default 2000)
  --first N         start at case N (with --count 1: replay that case)
  --time-limit MS   a case taking longer is a hang (default 10000)
  --recompute SHARE share of cases whose mutated pages get a valid checksum again (default 0.25)
  --rows N          rows of each MariaDB-written table (default 3000)
  --no-mariadb      leave out the MariaDB-written tables (no server is started)`;

class UsageError extends Error {}

interface Options {
  seed: number;
  count: number;
  first: number;
  timeLimitMs: number;
  recomputeShare: number;
  rows: number;
  mariadb: boolean;
}

function parseOptions(argv: string[]): Options {
  const o: Options = { seed: 1, count: 2000, first: 0, timeLimitMs: 10_000, recomputeShare: 0.25, rows: 3000, mariadb: true };
  const number = (flag: string, v: string | undefined, min: number, max = Infinity): number => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < min || n > max) throw new UsageError(`${flag} takes a number from ${min}${max < Infinity ? ` to ${max}` : ''}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seed') o.seed = Math.trunc(number(a, argv[++i], 0));
    else if (a === '--count') o.count = Math.trunc(number(a, argv[++i], 1));
    else if (a === '--first') o.first = Math.trunc(number(a, argv[++i], 0));
    else if (a === '--time-limit') o.timeLimitMs = number(a, argv[++i], 100);
    else if (a === '--recompute') o.recomputeShare = number(a, argv[++i], 0, 1);
    else if (a === '--rows') o.rows = Math.trunc(number(a, argv[++i], 100));
    else if (a === '--no-mariadb') o.mariadb = false;
    else if (a === '--help' || a === '-h') throw new UsageError('');
    else throw new UsageError(`unknown option ${a}`);
  }
  return o;
}

export async function main(argv: string[]): Promise<number> {
  let o: Options;
  try {
    o = parseOptions(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`${e.message ? `fuzz: ${e.message}\n\n` : ''}${USAGE}`);
    return e.message ? 64 : 0;
  }
  const workerPath = await buildWorker();
  try {
    return await campaign(o, workerPath);
  } finally {
    removeWorker(workerPath);
  }
}

async function campaign(o: Options, workerPath: string): Promise<number> {
  const corpus: CorpusFile[] = [...sampleFiles(), ...mysqlFiles()];
  if (o.mariadb) {
    console.log(`fuzz: making the MariaDB tables (${o.rows} rows each) on a private server`);
    const server = await startMariadb();
    try {
      corpus.push(...mariadbFiles(await makeTables(server, o.rows)));
    } finally {
      await server.stop();
    }
  }
  await checkCorpus(workerPath, corpus);
  console.log(`fuzz: ${corpus.length} files; seed ${o.seed}, cases ${o.first} to ${o.first + o.count - 1}`);
  const figures = await runCampaign(workerPath, corpus, { seed: o.seed, count: o.count, first: o.first, timeLimitMs: o.timeLimitMs, recomputeShare: o.recomputeShare, log: (line) => console.log(line) });
  console.log(formatFigures(figures));
  const { detectable, undetectable } = figures.byClass;
  const bad = [detectable, undetectable].reduce((n, c) => n + c.crashesAtOpen + c.crashesReading + c.hangs + c.uncaught, 0) + detectable.wrongRows;
  return bad > 0 ? 1 : 0;
}
