/**
 * The options of `npm run bench` (bench/main.ts): USAGE says what each does; parseOptions reads them
 * from the command line, throwing a UsageError for one it cannot take (or for --help).
 */
import { DATASETS, type DatasetName } from './datasets.ts';
import { LINEITEM_SF1_ROWS } from './lineitem.ts';
import { SBTEST_ROWS } from './sbtest.ts';

export const USAGE = `usage: npm run bench -- [--only lineitem,sbtest1,many,redo,datadir] [--rows N] [--sbtest-rows N] [--tables N] [--datadir-tables N] [--skip-browser] [--skip-locked-dumps] [--no-build]

  --only NAMES     run only these datasets (comma-separated; repeatable); redo: a crashed datadir's
                   redo log (~512 MB after its checkpoint) applied, against the server's own recovery;
                   datadir: the seed's datadir (one-row tables inside ibdata1, live and every one
                   dropped): the CLI's whole-datadir runs and the page's listing and export (only when named)
  --datadir-tables N  tables of the datadir bench (default 50000; made once, kept in .cache/bench)
  --rows N         lineitem rows (default ${LINEITEM_SF1_ROWS}, TPC-H SF 1; e.g. 600000 for a quick SF 0.1 run)
  --sbtest-rows N  sbtest1 rows (default ${SBTEST_ROWS})
  --tables N       tables of the "many" dataset (default 10000)
  --skip-browser   measure the CLI and the server tools only
  --skip-locked-dumps  "many": leave out mariadb-dump with its default LOCK TABLES (about 16 min each
                   for 10,000 tables; the --skip-lock-tables dump and the SELECTs still run)
  --no-build       measure the existing dist/ and dist-cli/ instead of building the current sources

A run with every dataset at its default size, browser included, writes bench/results.md;
any other run writes .cache/bench/results-latest.md.`;

export interface Options {
  only: DatasetName[];
  /** The redo bench (bench/redo.ts): in a full run, or named in --only. */
  redo: boolean;
  /** The datadir bench (bench/datadir-scale.ts): only when named in --only. */
  datadir: boolean;
  datadirTables: number;
  /** The datasets to run: those of --only, else all (none when --only names redo or datadir alone). */
  datasets: DatasetName[];
  lineitemRows: number;
  sbtestRows: number;
  tables: number;
  browser: boolean;
  build: boolean;
  lockedDumps: boolean;
}

export class UsageError extends Error {}

export function parseOptions(argv: string[]): Options {
  const o: Options = { only: [], redo: true, datadir: false, datadirTables: 50_000, datasets: [], lineitemRows: LINEITEM_SF1_ROWS, sbtestRows: SBTEST_ROWS, tables: 10_000, browser: true, build: true, lockedDumps: true };
  const count = (flag: string, v: string | undefined): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} takes a whole number, 1 or more`);
    return n;
  };
  let onlyGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--only') {
      // Named datasets only: the redo bench too only when named.
      if (!onlyGiven) o.redo = false;
      onlyGiven = true;
      for (const name of (argv[++i] ?? '').split(',').filter(Boolean)) {
        if (name === 'redo') {
          o.redo = true;
          continue;
        }
        if (name === 'datadir') {
          o.datadir = true;
          continue;
        }
        if (!DATASETS.includes(name as DatasetName)) throw new UsageError(`unknown dataset '${name}' (${DATASETS.join(', ')}, redo, datadir)`);
        o.only.push(name as DatasetName);
      }
    } else if (a === '--rows') o.lineitemRows = count(a, argv[++i]);
    else if (a === '--sbtest-rows') o.sbtestRows = count(a, argv[++i]);
    else if (a === '--tables') o.tables = count(a, argv[++i]);
    else if (a === '--datadir-tables') o.datadirTables = count(a, argv[++i]);
    else if (a === '--skip-browser') o.browser = false;
    else if (a === '--skip-locked-dumps') o.lockedDumps = false;
    else if (a === '--no-build') o.build = false;
    else if (a === '--help' || a === '-h') throw new UsageError('');
    else throw new UsageError(`unknown option ${a}`);
  }
  o.datasets = onlyGiven ? DATASETS.filter((n) => o.only.includes(n)) : DATASETS;
  return o;
}
