/**
 * `npm run bench` (bench/run.mjs bundles this file and runs `main`): ibd-reader's CLI and page
 * against MariaDB's own tools on the same tables, on this machine, in one run. See bench/README.md
 * for what is measured and how; the options are in bench/options.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { MariadbServer } from '../test/harness/mariadb.ts';
import { openBrowserSession, type BrowserSession, type PageResult } from './browser.ts';
import { DATASETS, MANY_DB, prepareCachedTable, prepareMany, startBenchServer, type DatasetName, type Prepared } from './datasets.ts';
import { LINEITEM_SF1_ROWS } from './lineitem.ts';
import { parseOptions, USAGE, UsageError, type Options } from './options.ts';
import { benchRedo } from './redo.ts';
import { benchDatadir } from './datadir-page.ts';
import { dirBytes, ensurePackages, processCpuSeconds, timed, warmFile, type Timed } from './proc.ts';
import { renderReport, withDiary, type DatasetReport, type ToolRow } from './report.ts';
import { SBTEST_ROWS } from './sbtest.ts';
import { loadAverage, machine } from './system.ts';
import { compareWithServer, digestFile } from './verify.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Hard limit for one page measurement. */
const PAGE_TIMEOUT_MS = 40 * 60_000;

interface Built {
  cli: string;
  site: string;
}

/**
 * Builds the page and the CLI from the current sources into .cache/bench/build/, not dist/: other
 * work (the browser tests) may be serving dist/ at the same moment.
 */
async function buildTargets(root: string, cache: string, doBuild: boolean): Promise<Built> {
  if (!doBuild) {
    const built = { cli: join(root, 'dist-cli', 'ibd-reader.mjs'), site: join(root, 'dist') };
    if (!existsSync(built.cli) || !existsSync(join(built.site, 'index.html'))) throw new Error('--no-build: run `npm run build` first (dist/ and dist-cli/ are missing)');
    return built;
  }
  const out = join(cache, 'build');
  const site = join(out, 'site');
  console.log('bench: building the page (vite) and the CLI (esbuild) from the current sources');
  const vite = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', site, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (vite.status !== 0) throw new Error('vite build failed');
  const common = { bundle: true, platform: 'node', target: 'node20', format: 'esm', logLevel: 'warning' } as const;
  // The CLI finds its worker next to itself (new URL('./decode-worker.mjs', import.meta.url)).
  await build({ ...common, absWorkingDir: root, entryPoints: ['src/cli.ts'], outfile: join(out, 'cli', 'ibd-reader.mjs') });
  await build({ ...common, absWorkingDir: root, entryPoints: ['src/node/decode-worker.ts'], outfile: join(out, 'cli', 'decode-worker.mjs') });
  return { cli: join(out, 'cli', 'ibd-reader.mjs'), site };
}

// ---------------------------------------------------------------------------------------------

interface Context {
  root: string;
  cache: string;
  work: string;
  built: Built;
  server: MariadbServer;
  browser: BrowserSession | null;
  timeFile: string;
  lockedDumps: boolean;
}

/** Runs a MariaDB client tool; its CPU time includes what the server spent serving it. */
async function serverTool(ctx: Context, cmd: string, args: string[], stdoutTo?: string, stdinFrom?: string): Promise<Timed> {
  const before = processCpuSeconds(ctx.server.pid);
  const t = await timed(cmd, [`--socket=${ctx.server.socket}`, '-uroot', ...args], { stdoutTo, stdinFrom, timeFile: ctx.timeFile });
  t.cpuS += processCpuSeconds(ctx.server.pid) - before;
  if (t.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (status ${t.status}): ${t.stderr.trim().slice(-500)}`);
  return t;
}

function failedRow(tool: string, kind: ToolRow['kind'], err: unknown): ToolRow {
  const message = (err as Error).message ?? String(err);
  console.log(`bench:   ${tool} FAILED: ${message}`);
  return { tool, kind, wallS: null, check: `failed: ${message.split('\n')[0].slice(0, 200)}`, ok: false };
}

function show(row: ToolRow): ToolRow {
  const time = row.wallS !== null ? `${row.wallS.toFixed(2)} s` : row.exactCountS ? `${row.exactCountS.toFixed(2)} s` : 'failed';
  console.log(`bench:   ${row.tool}: ${time}${row.peakMemMb ? `, ${row.peakMemMb.toFixed(0)} MB` : ''} — ${row.check}`);
  return row;
}

/** Rows the CLI reported on stderr ("…: N rows from M leaf pages …"). */
function cliRows(stderr: string): number | null {
  const m = /: (\d+) rows from \d+ leaf pages/.exec(stderr);
  return m ? Number(m[1]) : null;
}

/** The page's own share of the wall time: without Playwright's setting of the files on the input. */
function pageSide(p: PageResult, tables: number): string {
  if (p.totalS === null || p.handoverS === null) return '';
  const own = p.totalS - p.handoverS;
  return `Playwright took ${p.handoverS.toFixed(1)} s to set the files, so ${own.toFixed(1)} s from the page having them to the .zip saved (${Math.round(tables / own).toLocaleString('en-US')} tables/s)`;
}

function pageRow(p: PageResult, expectedRows: number, cliCsv: string | null, unit: string): ToolRow {
  const problems: string[] = [];
  if (p.error) problems.push(p.error);
  if (p.exportAll && p.exportAll.entries !== expectedRows) problems.push(`tables.zip holds ${p.exportAll.entries} CSVs, expected ${expectedRows}`);
  if (p.exportAll && p.exportAll.wrong > 0) problems.push(`${p.exportAll.wrong} CSVs of tables.zip wrong (first: ${p.exportAll.firstWrong})`);
  if (p.rowsShown !== null && p.rowsShown !== expectedRows) problems.push(`shows ${p.rowsShown} ${unit}, the server has ${expectedRows}`);
  if (p.exactCount !== null && p.exactCount !== expectedRows) problems.push(`exact count ${p.exactCount}, the server has ${expectedRows}`);
  if (cliCsv !== null && p.csv && p.csv.sha256 !== cliCsv) problems.push(`downloaded CSV differs from the CLI's (${p.csv.lines - 1} lines)`);
  const check = problems.length > 0
    ? problems.join('; ')
    : p.exportAll
      ? `all ${expectedRows.toLocaleString('en-US')} ${unit} listed with exact row counts in ${p.exactCountS?.toFixed(1)} s, then "Export all tables" in ${p.exportS?.toFixed(1)} s: every CSV of tables.zip holds exactly its table's row; ${pageSide(p, expectedRows)}`
      : p.csv
      ? `${expectedRows.toLocaleString('en-US')} rows shown; downloaded CSV identical to the CLI's (in a fresh page, Download CSV clicked when offered, ${p.clickS?.toFixed(2)} s after the files were set, ${p.target === 'stream' ? 'streamed to the download by the service worker and' : 'as one Blob at the end (no service worker controlled the page),'} saved ${p.exportS?.toFixed(1)} s later: the median of ${p.downloadRunsS?.length} such runs, ${p.downloadRunsS?.map((t) => `${t.toFixed(1)} s`).join(', ')}; counting every row took ${p.decodedS?.toFixed(1)} s in a page of its own; there the page map, its panel opened when offered, was on screen ${p.mapS?.toFixed(1) ?? '—'} s after the files were set and had every page read ${p.mapReadS?.toFixed(1) ?? '—'} s after, the exact count ${p.exactCountS?.toFixed(1) ?? '—'} s)`
      : `all ${expectedRows.toLocaleString('en-US')} ${unit} listed with exact row counts; first table decoded on screen in ${p.decodedS?.toFixed(1) ?? '—'} s`;
  return {
    tool: 'ibd-reader page (Chromium)',
    kind: 'ours',
    wallS: p.error ? null : p.totalS,
    firstRowsS: p.firstRowsS,
    exactCountS: p.exactCountS,
    peakMemMb: p.rendererOwnPeakMb || null,
    memNote: `the renderer's own memory; its RSS ${p.rendererPeakMb.toFixed(0)} MB with Chromium's code, page JS heap ${p.jsHeapPeakMb.toFixed(0)} MB, all Chromium ${p.chromiumPeakMb.toFixed(0)} MB`,
    outputBytes: p.csv?.bytes ?? p.exportAll?.bytes ?? null,
    check,
    ok: problems.length === 0,
  };
}

/** lineitem / sbtest1: one table, CLI (all cores, then 1 thread), the server's tools, the page. */
async function benchTable(ctx: Context, d: Prepared): Promise<ToolRow[]> {
  const rows: ToolRow[] = [];
  const dir = join(ctx.work, d.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const ibd = d.ibds[0];
  warmFile(ibd);

  // --- ibd-reader CLI, default threads (one per core), then one thread.
  const csv = join(dir, 'cli.csv');
  let cliDigest: string | null = null;
  const selectOut = join(dir, 'select.tsv');
  for (const threads of [null, 1]) {
    const tool = threads === null ? `ibd-reader CLI (${availableParallelism()} threads, default)` : 'ibd-reader CLI (1 thread)';
    try {
      const out = threads === null ? csv : join(dir, 'cli-1.csv');
      const t = await timed(process.execPath, [ctx.built.cli, ibd, '--schema', d.sqlPath, '-o', out, ...(threads ? ['--threads', String(threads)] : [])], { timeFile: ctx.timeFile });
      if (t.status !== 0) throw new Error(`exit status ${t.status}: ${t.stderr.trim().slice(-300)}`);
      const digest = await digestFile(out);
      const reported = cliRows(t.stderr);
      const problems: string[] = [];
      if (reported !== d.rows) problems.push(`reported ${reported} rows, the server has ${d.rows}`);
      if (digest.lines - 1 !== d.rows) problems.push(`CSV has ${digest.lines - 1} rows, the server has ${d.rows}`);
      if (threads === null) cliDigest = digest.sha256;
      else if (digest.sha256 !== cliDigest) problems.push('CSV differs from the multi-threaded run');
      if (threads !== null) rmSync(out, { force: true });
      rows.push(show({
        tool,
        kind: 'ours',
        wallS: t.wallS,
        peakMemMb: t.maxRssMb,
        cpuS: t.cpuS,
        outputBytes: digest.bytes,
        check: problems.length > 0 ? problems.join('; ') : threads === null ? `${d.rows.toLocaleString('en-US')} rows (compared with the server below)` : 'CSV identical to the multi-threaded run',
        ok: problems.length === 0,
      }));
    } catch (err) {
      rows.push(failedRow(tool, 'ours', err));
    }
  }

  // --- ibd-reader CLI --count: the exact row count from the leaf pages' record headers.
  try {
    const countOut = join(dir, 'count.txt');
    const t = await timed(process.execPath, [ctx.built.cli, ibd, '--schema', d.sqlPath, '--count'], { timeFile: ctx.timeFile, stdoutTo: countOut });
    if (t.status !== 0) throw new Error(`exit status ${t.status}: ${t.stderr.trim().slice(-300)}`);
    const text = readFileSync(countOut, 'utf8').trim();
    const counted = Number(text);
    const ok = counted === d.rows;
    rows.push(show({
      tool: 'ibd-reader CLI --count', kind: 'ours', wallS: null, exactCountS: t.wallS, peakMemMb: t.maxRssMb, cpuS: t.cpuS,
      check: ok ? `${counted.toLocaleString('en-US')} rows, as the server counts` : `counted ${text} rows, the server has ${d.rows}`, ok,
    }));
  } catch (err) {
    rows.push(failedRow('ibd-reader CLI --count', 'ours', err));
  }

  // --- the server's own tools, on the live table.
  const refs: [string, () => Promise<{ t: Timed; bytes: number }>][] = [
    ['mariadb-dump --tab', async () => {
      const tab = join(dir, 'tab');
      mkdirSync(tab);
      const t = await serverTool(ctx, 'mariadb-dump', [`--tab=${tab}`, 'test', d.table]);
      return { t, bytes: dirBytes(tab) };
    }],
    ['mariadb-dump (SQL)', async () => {
      const out = join(dir, 'dump.sql');
      const t = await serverTool(ctx, 'mariadb-dump', ['test', d.table], out);
      return { t, bytes: (await digestFile(out)).bytes };
    }],
    ["mariadb -e 'SELECT * …'", async () => {
      const t = await serverTool(ctx, 'mariadb', ['test', '-e', `SELECT * FROM \`${d.table}\``], selectOut);
      return { t, bytes: (await digestFile(selectOut)).bytes };
    }],
  ];
  for (const [tool, run] of refs) {
    try {
      const { t, bytes } = await run();
      rows.push(show({ tool, kind: 'reference', wallS: t.wallS, peakMemMb: t.maxRssMb, memNote: 'client', cpuS: t.cpuS, outputBytes: bytes, check: 'reference', ok: true }));
    } catch (err) {
      rows.push(failedRow(tool, 'reference', err));
    }
  }
  try {
    const started = performance.now();
    await ctx.server.query(`SELECT COUNT(*) FROM \`${d.table}\``);
    rows.push(show({ tool: 'server SELECT COUNT(*)', kind: 'reference', wallS: null, exactCountS: (performance.now() - started) / 1000, check: 'for the exact-count column only', ok: true }));
  } catch (err) {
    rows.push(failedRow('server SELECT COUNT(*)', 'reference', err));
  }
  rmSync(join(dir, 'tab'), { recursive: true, force: true });
  rmSync(join(dir, 'dump.sql'), { force: true });

  // --- is the CLI's output the table? (The whole table, against the server's SELECT.)
  if (cliDigest !== null && existsSync(selectOut)) {
    console.log('bench:   comparing the CLI CSV with the server SELECT');
    const cmp = await compareWithServer(csv, selectOut);
    const cli = rows[0];
    cli.check = cmp.text;
    cli.ok = cli.ok && cmp.ok;
    console.log(`bench:   ${cmp.text}`);
  }
  rmSync(selectOut, { force: true });
  rmSync(csv, { force: true });

  // --- the page.
  if (ctx.browser) {
    console.log('bench:   the page in Chromium');
    const p = await ctx.browser.measureTable(ibd, d.sqlPath, PAGE_TIMEOUT_MS);
    rows.push(show(pageRow(p, d.rows, cliDigest, 'rows')));
  }
  rmSync(dir, { recursive: true, force: true });
  return rows;
}

/** `many`: every table decoded in one process, the server's tools over the whole database, the page. */
async function benchMany(ctx: Context, d: Prepared, manyDecoder: string): Promise<ToolRow[]> {
  const rows: ToolRow[] = [];
  const dir = join(ctx.work, 'many');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const ibdDir = join(ctx.work, 'many-ibd');
  for (const f of d.ibds) warmFile(f);

  const tool = 'ibd-reader core, one process for all tables';
  try {
    const out = join(dir, 'csv');
    const t = await timed(process.execPath, [manyDecoder, ibdDir, d.sqlPath, out], { timeFile: ctx.timeFile, stdoutTo: join(dir, 'summary.json') });
    if (t.status !== 0) throw new Error(`exit status ${t.status}: ${t.stderr.trim().slice(-300)}`);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { tables: number; rows: number; failedCount: number; failed: string[] };
    // Each t{i} holds the one row (i): check every CSV, not just the count.
    let wrong = 0;
    let firstWrong = '';
    for (let i = 1; i <= d.rows; i++) {
      const path = join(out, `t${i}.csv`);
      const text = existsSync(path) ? readFileSync(path, 'utf8') : '(missing)';
      if (text !== `i\n${i}\n`) {
        if (wrong++ === 0) firstWrong = `t${i}.csv: ${JSON.stringify(text.slice(0, 40))}`;
      }
    }
    const problems: string[] = [];
    if (summary.failedCount > 0) problems.push(`${summary.failedCount} tables failed (${summary.failed[0]})`);
    if (wrong > 0) problems.push(`${wrong} CSVs wrong (first: ${firstWrong})`);
    rows.push(show({
      tool,
      kind: 'ours',
      wallS: t.wallS,
      peakMemMb: t.maxRssMb,
      cpuS: t.cpuS,
      outputBytes: dirBytes(out),
      check: problems.length > 0 ? problems.join('; ') : `all ${summary.tables.toLocaleString('en-US')} CSVs hold exactly their table's row`,
      ok: problems.length === 0,
    }));
    rmSync(out, { recursive: true, force: true });
  } catch (err) {
    rows.push(failedRow(tool, 'ours', err));
  }

  // What the one-file CLI costs per table: Node start-up dominates. A sample is enough to show it.
  const sample = Math.min(50, d.rows);
  const perProcess = `ibd-reader CLI, one process per table (first ${sample})`;
  try {
    let bad = 0;
    const started = performance.now();
    for (let i = 1; i <= sample; i++) {
      const r = spawnSync(process.execPath, [ctx.built.cli, join(ibdDir, `t${i}.ibd`), '--schema', d.sqlPath], { encoding: 'utf8' });
      if (r.status !== 0 || r.stdout !== `i\n${i}\n`) bad++;
    }
    const wallS = (performance.now() - started) / 1000;
    rows.push(show({ tool: perProcess, kind: 'ours', wallS, rowsCovered: sample, check: bad > 0 ? `${bad} tables wrong` : `all ${sample} outputs right`, ok: bad === 0 }));
  } catch (err) {
    rows.push(failedRow(perProcess, 'ours', err));
  }

  const refs: [string, () => Promise<{ t: Timed; bytes: number }>][] = [
    [LOCKED_TAB, async () => {
      const tab = join(dir, 'tab');
      mkdirSync(tab);
      const t = await serverTool(ctx, 'mariadb-dump', [`--tab=${tab}`, MANY_DB]);
      return { t, bytes: dirBytes(tab) };
    }],
    [LOCKED_SQL, async () => {
      const out = join(dir, 'dump.sql');
      const t = await serverTool(ctx, 'mariadb-dump', [MANY_DB], out);
      return { t, bytes: (await digestFile(out)).bytes };
    }],
    // The default locks every table of the database first; with that lock held, its time grows with
    // the square of the table count (measured: 1,000 tables 4 s, 2,000 14 s). Without it, about linearly.
    ['mariadb-dump --skip-lock-tables (SQL)', async () => {
      const out = join(dir, 'dump-nolock.sql');
      const t = await serverTool(ctx, 'mariadb-dump', ['--skip-lock-tables', MANY_DB], out);
      return { t, bytes: (await digestFile(out)).bytes };
    }],
    ["mariadb < 'SELECT * FROM t1; …'", async () => {
      const script = join(dir, 'selects.sql');
      let sql = '';
      for (let i = 1; i <= d.rows; i++) sql += `SELECT * FROM t${i};\n`;
      writeFileSync(script, sql);
      const out = join(dir, 'select.tsv');
      const t = await serverTool(ctx, 'mariadb', [MANY_DB], out, script);
      return { t, bytes: (await digestFile(out)).bytes };
    }],
  ];
  for (const [name, run] of refs) {
    if (!ctx.lockedDumps && LOCKED_DUMPS.has(name)) continue;
    try {
      const { t, bytes } = await run();
      rows.push(show({ tool: name, kind: 'reference', wallS: t.wallS, peakMemMb: t.maxRssMb, memNote: 'client', cpuS: t.cpuS, outputBytes: bytes, check: 'reference', ok: true }));
    } catch (err) {
      rows.push(failedRow(name, 'reference', err));
    }
  }
  rmSync(dir, { recursive: true, force: true });

  if (ctx.browser) {
    console.log(`bench:   the page in Chromium (${d.ibds.length.toLocaleString('en-US')} .ibd files + the schema)`);
    const p = await ctx.browser.measureMany([...d.ibds, d.sqlPath], d.rows, PAGE_TIMEOUT_MS);
    const row = pageRow(p, d.rows, null, 'tables');
    row.tool = 'ibd-reader page (Chromium), all files at once';
    rows.push(show(row));
  }
  return rows;
}

/** The `many` references that lock every table first (their time grows with the square of the table count). */
const LOCKED_TAB = 'mariadb-dump --tab';
const LOCKED_SQL = 'mariadb-dump (SQL)';
const LOCKED_DUMPS = new Set([LOCKED_TAB, LOCKED_SQL]);

const DESCRIPTIONS: Record<DatasetName, string> = {
  lineitem: 'TPC-H LINEITEM (16 columns: INT, DECIMAL(15,2), CHAR, DATE, VARCHAR; PRIMARY KEY (l_orderkey, l_linenumber))',
  sbtest1: "sysbench's table (id INT AUTO_INCREMENT, k INT, c CHAR(120), pad CHAR(60); secondary index k_1)",
  many: 'one-row tables t{i} (i INT PRIMARY KEY), all decoded in one go',
};

/** The redo bench's section, or the line saying why it failed. */
async function redoSection(cache: string): Promise<string[]> {
  try {
    return ['', ...(await benchRedo(cache))];
  } catch (err) {
    console.log(`bench: redo FAILED: ${(err as Error).message}`);
    return ['', `The redo bench failed: ${(err as Error).message.split('\n')[0]}`];
  }
}

/** The datadir bench's section (`--only datadir`), built from the current sources unless --no-build. */
async function datadirSection(root: string, cache: string, opts: Options, built?: Built): Promise<string[]> {
  if (!opts.datadir) return [];
  return ['', ...(await benchDatadir(root, built ?? (await buildTargets(root, cache, opts.build)), CHROMIUM, opts.datadirTables, opts.browser))];
}

/** `--only redo` and/or `--only datadir`: those benches alone, their report in .cache/bench/results-latest.md. */
async function redoOnly(root: string, cache: string, opts: Options): Promise<number> {
  mkdirSync(cache, { recursive: true });
  const markdown = [...(opts.redo ? await benchRedo(cache) : []), ...(await datadirSection(root, cache, opts))].join('\n');
  const target = join(cache, 'results-latest.md');
  writeFileSync(target, `${markdown}\n`);
  console.log(`\n${markdown}\nbench: written to ${target}`);
  return 0;
}

export async function main(root: string, argv: string[], manyDecoder: string): Promise<number> {
  let opts: Options;
  try {
    opts = parseOptions(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message ? `bench: ${err.message}\n\n` : ''}${USAGE}`);
    return err.message ? 64 : 0;
  }
  const started = performance.now();
  const cache = join(root, '.cache', 'bench');
  const work = join(cache, 'work');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const selected = opts.datasets;
  if (selected.length === 0) return redoOnly(root, cache, opts);
  const full = selected.length === DATASETS.length && opts.redo && opts.browser && opts.lineitemRows === LINEITEM_SF1_ROWS && opts.sbtestRows === SBTEST_ROWS && opts.tables === 10_000;

  ensurePackages([
    { program: '/usr/bin/time', pkg: 'time' },
    ...(selected.includes('sbtest1') ? [{ program: 'sysbench', pkg: 'sysbench' }] : []),
    ...(opts.browser ? [{ program: CHROMIUM, pkg: 'chromium' }] : []),
  ]);
  const loadBefore = loadAverage();
  const built = await buildTargets(root, cache, opts.build);
  console.log('bench: starting a private MariaDB');
  const server = await startBenchServer();
  const ctx: Context = { root, cache, work, built, server, browser: null, timeFile: join(work, 'time.txt'), lockedDumps: opts.lockedDumps };
  const reports: DatasetReport[] = [];
  try {
    if (opts.browser) ctx.browser = await openBrowserSession(built.site, CHROMIUM);
    for (const name of selected) {
      let d: Prepared;
      if (name === 'many') {
        d = await prepareMany(server, join(work, 'many-ibd'), opts.tables);
      } else {
        d = await prepareCachedTable(server, cache, name, name === 'lineitem' ? opts.lineitemRows : opts.sbtestRows);
      }
      console.log(`bench: ${name}: ${d.rows.toLocaleString('en-US')} ${name === 'many' ? 'tables' : 'rows'}, ${(d.ibdBytes / 1e6).toFixed(0)} MB of .ibd; ${d.prep}`);
      const tools = name === 'many' ? await benchMany(ctx, d, manyDecoder) : await benchTable(ctx, d);
      const notes: string[] = [];
      if (name !== 'many') {
        notes.push("`mariadb -e` keeps the whole result in the client before printing (its default; `--quick` would stream), hence its memory.");
      }
      if (name === 'many') {
        notes.push('The CLI reads one .ibd per run, so the "one process" row runs the same decoder core (bench/many-decode.ts) over every file in one Node process, one CSV per table. The one-process-per-table row runs the real CLI on a sample; each run starts Node and parses the whole 10,000-table schema file.');
        notes.push('mariadb-dump dumps the whole database. By default it first locks every table (LOCK TABLES) and then runs several metadata queries per table; with the lock held its time grows with the square of the table count (measured on this machine, quiet: 500 tables 1.2 s, 1,000 4.0 s, 2,000 14 s; with --skip-lock-tables 0.8, 1.8 and 3.2 s). The SELECT row is one client session running one SELECT per table: the server reading the rows, with no per-table metadata work.');
        if (!opts.lockedDumps) notes.push('This run left out the two mariadb-dump runs with the default LOCK TABLES (`--skip-locked-dumps`); the first full run on this machine measured 980 s (--tab) and 934 s (SQL) for the 10,000 tables.');
        notes.push('The page\'s row: every .ibd and the dump set on the file input at once (Playwright hands the 10,000 files over: part of the time), until every table is listed with its exact row count (summaries and definitions read in batches across the worker pool), then "Export all tables" (tables.zip, one CSV per table, each checked); its wall time is from setting the files to the .zip saved. The first table is decoded on screen meanwhile.');
      }
      reports.push({ name, description: DESCRIPTIONS[name], rows: d.rows, unit: name === 'many' ? 'tables' : 'rows', ibdBytes: d.ibdBytes, ibdFiles: d.ibds.length, prep: d.prep, tools, notes });
      if (name === 'many') {
        rmSync(join(work, 'many-ibd'), { recursive: true, force: true });
        await server.exec(`DROP DATABASE IF EXISTS ${MANY_DB}`);
      } else {
        await server.exec(`DROP TABLE IF EXISTS \`${d.table}\``);
      }
    }
  } finally {
    await ctx.browser?.close();
    await server.stop();
  }

  const partial = full ? null : [
    opts.only.length > 0 ? `only ${selected.join(', ')}` : '',
    opts.lineitemRows !== LINEITEM_SF1_ROWS ? `lineitem ${opts.lineitemRows} rows` : '',
    opts.sbtestRows !== SBTEST_ROWS ? `sbtest1 ${opts.sbtestRows} rows` : '',
    opts.tables !== 10_000 ? `${opts.tables} tables` : '',
    opts.browser ? '' : 'no browser',
  ].filter(Boolean).join(', ');
  const redo = [...(opts.redo ? await redoSection(cache) : []), ...(await datadirSection(root, cache, opts, built))];
  const markdown = [renderReport({
    machine: machine(CHROMIUM),
    loadBefore,
    loadAfter: loadAverage(),
    totalS: (performance.now() - started) / 1000,
    partial,
    datasets: reports,
  }), ...redo].join('\n');
  const target = full ? join(root, 'bench', 'results.md') : join(cache, 'results-latest.md');
  // bench/results.md keeps its diary of earlier measurements, the report replaced moving into it.
  writeFileSync(target, full ? withDiary(markdown, existsSync(target) ? readFileSync(target, 'utf8') : null) : markdown);
  console.log(`\n${markdown}\nbench: written to ${target}`);
  rmSync(work, { recursive: true, force: true });
  const failures = reports.flatMap((r) => r.tools.filter((t) => !t.ok).map((t) => `${r.name}: ${t.tool}`));
  if (failures.length > 0) console.log(`bench: FAILED checks: ${failures.join('; ')}`);
  return failures.length > 0 ? 1 : 0;
}
