/**
 * The command-line tool as a user runs it (dist-cli/ibd-reader.mjs, bundled by scripts/build-cli.mjs
 * as test/cli.test.ts does): on a copy written to a folder of its own beside its CREATE TABLE, one
 * thread (the pool's start-up is not what is tested), one run per core at a time.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseCsvOutput, type CsvOutput } from './csv-records.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

/** Every value of `--rows` the contract names. */
export const MODES = ['live', 'deleted', 'both', 'damaged', 'all'] as const;
export type Mode = (typeof MODES)[number];

/** Modes whose rows have more than one state: their output ends with a `_row_state` column. */
export const STATE_MODES: ReadonlySet<Mode> = new Set(['deleted', 'both', 'all']);

export function buildCli(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** One run per core. */
const MAX_RUNNING = availableParallelism();
let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  while (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

export async function runCli(args: readonly string[]): Promise<CliRun> {
  const release = await slot();
  try {
    return await new Promise<CliRun>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    });
  } finally {
    release();
  }
}

/** A table file on disk with its CREATE TABLE, as the CLI takes them. */
export interface CliInput {
  ibd: string;
  sql: string;
}

/** Writes `bytes` and `ddl` as `<dir>/<table>.ibd` and `.sql` (the name tells the CLI which table it is). */
export function writeInput(dir: string, table: string, bytes: Uint8Array, ddl: string): CliInput {
  mkdirSync(dir, { recursive: true });
  const ibd = join(dir, `${table}.ibd`);
  const sql = join(dir, `${table}.sql`);
  writeFileSync(ibd, bytes);
  writeFileSync(sql, ddl);
  return { ibd, sql };
}

export interface Exported extends CsvOutput {
  run: CliRun;
}

/** The rows of one `--rows` mode, as CSV. */
export async function exportRows(input: CliInput, mode: Mode): Promise<Exported> {
  const run = await runCli([input.ibd, '--schema', input.sql, '--threads', '1', '--rows', mode]);
  return { run, ...parseCsvOutput(run.stdout) };
}

/** `--count` of one `--rows` mode: the number it prints (null when it prints no number). */
export async function countRows(input: CliInput, mode: Mode): Promise<{ run: CliRun; count: number | null }> {
  const run = await runCli([input.ibd, '--schema', input.sql, '--threads', '1', '--rows', mode, '--count']);
  return { run, count: /^\d+\n$/.test(run.stdout) ? Number(run.stdout) : null };
}
