/**
 * How much a CSV line writer specialised to one table's shape could save, at best (issue 40): the
 * LINEITEM leaves written to CSV several ways over the same leaf pages, read in runs of 64 pages,
 * each page's full_crc32 checked, the CSV's sha256 printed (every mode must print the product's):
 *   - product: csvPages() (the export workers' path: the TableReader's pages, readers/leaf-csv.ts's
 *     plan with its field walk and per-field switch over the put* writers, csvBytes());
 *   - plan: the product's own LeafCsv plan and csvBytes() on pages read here synchronously (the
 *     TableReader's page path left out);
 *   - generic: a walk with no checks into spans, then a loop with a switch per field over the same
 *     put* writers (an interpreter like the plan's, minus its checks);
 *   - walk: the same walk, then one straight-line call per column;
 *   - shape: straight-line code written by hand for LINEITEM's 16 columns (offsets from the five
 *     one-byte lengths, no spans, no switch, no loop over fields), calling the same put* writers:
 *     what a writer built per table shape could do at most without generating code at run time
 *     (the page's CSP forbids eval);
 *   - floor: the reads and checksums alone.
 * A measurement only: it knows LINEITEM's layout (bench/lineitem.ts) and checks nothing a product
 * must (NULLs, lengths that run out of the page, delete marks of other formats); not part of the
 * product or its tests.
 *
 *   npx esbuild bench/csv-shape-bound.ts --bundle --platform=node --format=esm --outfile=/tmp/csv-shape-bound.mjs
 *   node /tmp/csv-shape-bound.mjs lineitem.ibd lineitem.sql [--leaves N] [--mode product|plan|generic|walk|shape|floor]
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { crc32c } from '../src/core/codecs/crc32c.ts';
import { parseCreateTables, pickTable } from '../src/core/definitions/ddl/create-table.ts';
import { recordOrigins, REC_INFO_DELETED } from '../src/core/pages/index-page.ts';
import { splitRuns } from '../src/core/readers/parallel.ts';
import { openTable } from '../src/core/readers/table-reader.ts';
import { putUtf8, utf8Copy } from '../src/core/values/charset-writers.ts';
import { cleanEdges, needsQuotes } from '../src/core/values/csv-quoting.ts';
import { decimalPlan, putDecimal, putInt } from '../src/core/values/digit-text.ts';
import { putDateValue } from '../src/core/values/temporal-writers.ts';
import { csvBuffers, csvPages } from '../src/core/writers/csv-pages.ts';
import { fileSource } from '../src/node/file-source.ts';
import { BatchBuilder, batchView } from '../src/core/values/row-batch.ts';
import { csvBytes } from '../src/core/writers/csv-bytes.ts';
import type { LeafCsv } from '../src/core/readers/leaf-csv.ts';

const RUN_PAGES = 64;
const DEC = decimalPlan(15, 2);
const COMMA = 44;
const QUOTE = 34;

/** A text cell of LINEITEM (CHAR trimmed when `padded`) and its comma, quoted as the product quotes it. */
function text(t: Uint8Array, p: number, b: Uint8Array, o: number, len: number, padded: boolean): number {
  let end = putUtf8(t, p, b, o, len, padded);
  if (end < 0) throw new Error('not well-formed UTF-8: outside this bound');
  if (utf8Copy.special ? needsQuotes(t, p, end, false) : !cleanEdges(t, p, end, false)) {
    let quotes = 0;
    for (let i = p; i < end; i++) if (t[i] === QUOTE) quotes++;
    let q = end + quotes + 1;
    const last = q;
    t[q] = QUOTE;
    for (let i = end - 1; i >= p; i--) {
      t[--q] = t[i];
      if (t[i] === QUOTE) t[--q] = QUOTE;
    }
    t[p] = QUOTE;
    end = last + 1;
  }
  t[end] = COMMA;
  return end + 1;
}

/**
 * LINEITEM's record at o (COMPACT, no NULLs, five one-byte lengths before the 5-byte header) as a
 * CSV line at p; fields in the record: orderkey, linenumber, DB_TRX_ID (6), DB_ROLL_PTR (7),
 * partkey, suppkey, 4 × DECIMAL(15,2) (7 bytes), returnflag, linestatus, 3 DATEs, shipinstruct, shipmode, comment.
 */
const FIXED = Int32Array.from([4, 4, 6, 7, 4, 4, 7, 7, 7, 7, 0, 0, 3, 3, 3, 0, 0, 0]);
const SPANS = new Int32Array(36);
function walk(b: Uint8Array, origin: number): number {
  let lenPtr = origin - 6;
  let p = origin;
  for (let i = 0; i < FIXED.length; i++) {
    let len = FIXED[i];
    if (len === 0) len = b[lenPtr--];
    SPANS[2 * i] = p;
    SPANS[2 * i + 1] = len;
    p += len;
  }
  return p - lenPtr - 1;
}
function lineWalked(b: Uint8Array, t: Uint8Array, p: number): number {
  const s = SPANS;
  p = putInt(t, p, b, s[0], 4, false);
  t[p++] = COMMA;
  p = putInt(t, p, b, s[8], 4, false);
  t[p++] = COMMA;
  p = putInt(t, p, b, s[10], 4, false);
  t[p++] = COMMA;
  p = putInt(t, p, b, s[2], 4, false);
  t[p++] = COMMA;
  p = putDecimal(DEC, t, p, b, s[12]);
  t[p++] = COMMA;
  p = putDecimal(DEC, t, p, b, s[14]);
  t[p++] = COMMA;
  p = putDecimal(DEC, t, p, b, s[16]);
  t[p++] = COMMA;
  p = putDecimal(DEC, t, p, b, s[18]);
  t[p++] = COMMA;
  p = text(t, p, b, s[20], s[21], true);
  p = text(t, p, b, s[22], s[23], true);
  p = putDateValue(t, p, b, s[24]);
  t[p++] = COMMA;
  p = putDateValue(t, p, b, s[26]);
  t[p++] = COMMA;
  p = putDateValue(t, p, b, s[28]);
  t[p++] = COMMA;
  p = text(t, p, b, s[30], s[31], true);
  p = text(t, p, b, s[32], s[33], true);
  p = text(t, p, b, s[34], s[35], false);
  t[p - 1] = 10;
  return p;
}

const ORDER = Int32Array.from([0, 4, 5, 1, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
const KINDS = Uint8Array.from([1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 3, 3, 3, 4, 4, 5]);
function lineGeneric(b: Uint8Array, t: Uint8Array, p: number): number {
  const spans = SPANS;
  for (let k = 0; k < ORDER.length; k++) {
    const i = ORDER[k];
    const o = spans[2 * i];
    if (o === -1) {
      t[p++] = 92;
      t[p++] = 78;
      t[p++] = COMMA;
      continue;
    }
    let end: number;
    switch (KINDS[k]) {
      case 1: end = putInt(t, p, b, o, 4, false); break;
      case 2: end = putDecimal(DEC, t, p, b, o); break;
      case 3: end = putDateValue(t, p, b, o); break;
      case 4:
      case 5:
        end = text(t, p, b, o, spans[2 * i + 1], KINDS[k] === 4) - 1;
        break;
      default: return -1;
    }
    t[end] = COMMA;
    p = end + 1;
  }
  t[p - 1] = 10;
  return p;
}

function line(b: Uint8Array, o: number, t: Uint8Array, p: number): number {
  const l1 = b[o - 6];
  const l2 = b[o - 7];
  const l3 = b[o - 8];
  const l4 = b[o - 9];
  const l5 = b[o - 10];
  p = putInt(t, p, b, o, 4, false);
  t[p++] = COMMA;
  p = putInt(t, p, b, o + 21, 4, false);
  t[p++] = COMMA;
  p = putInt(t, p, b, o + 25, 4, false);
  t[p++] = COMMA;
  p = putInt(t, p, b, o + 4, 4, false);
  t[p++] = COMMA;
  p = putDecimal(DEC, t, p, b, o + 29);
  t[p++] = COMMA;
  p = putDecimal(DEC, t, p, b, o + 36);
  t[p++] = COMMA;
  p = putDecimal(DEC, t, p, b, o + 43);
  t[p++] = COMMA;
  p = putDecimal(DEC, t, p, b, o + 50);
  t[p++] = COMMA;
  let f = o + 57;
  p = text(t, p, b, f, l1, true);
  f += l1;
  p = text(t, p, b, f, l2, true);
  f += l2;
  p = putDateValue(t, p, b, f);
  t[p++] = COMMA;
  p = putDateValue(t, p, b, f + 3);
  t[p++] = COMMA;
  p = putDateValue(t, p, b, f + 6);
  t[p++] = COMMA;
  f += 9;
  p = text(t, p, b, f, l3, true);
  f += l3;
  p = text(t, p, b, f, l4, true);
  f += l4;
  p = text(t, p, b, f, l5, false);
  t[p - 1] = 10;
  return p;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const [ibd, schemaPath] = argv;
  const opt = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const mode = opt('--mode') ?? 'shape';
  const tables = parseCreateTables(readFileSync(schemaPath, 'utf8'));
  const table = pickTable(tables, basename(ibd)) ?? tables[0];
  const source = await fileSource(ibd);
  const reader = await openTable(source, table);
  const all = await reader.leafPages();
  const leaves = all.slice(0, Number(opt('--leaves') ?? all.length));
  const runs = splitRuns(leaves, RUN_PAGES);
  const size = reader.info.pageSize;
  const hash = createHash('sha256');
  let rows = 0;
  let bytes = 0;
  const c0 = process.cpuUsage();
  if (mode === 'product') {
    const buffers = csvBuffers(reader.columns.length);
    for (const run of runs) {
      const out = await csvPages(reader, run, false, buffers);
      rows += out.rows;
      bytes += out.csv.length;
      hash.update(out.csv);
    }
  } else {
    const fd = openSync(ibd, 'r');
    const pages = new Uint8Array(RUN_PAGES * size);
    const out = new Uint8Array(8 * RUN_PAGES * size);
    const origins: number[] = [];
    // 'plan': the product's own plan (readers/leaf-csv.ts) on these pages, then csvBytes().
    const plan = (reader as unknown as { leaf: { csv: LeafCsv } }).leaf.csv;
    const into = new BatchBuilder(reader.columns.length, undefined, undefined, true);
    into.linesOnly = true;
    let csv = new Uint8Array(0);
    for (const run of runs) {
      // One read where the run's pages follow each other (as LINEITEM's do), else page by page.
      if (run[run.length - 1] - run[0] === run.length - 1) readSync(fd, pages, 0, run.length * size, run[0] * size);
      else for (let i = 0; i < run.length; i++) readSync(fd, pages, i * size, size, run[i] * size);
      let p = 0;
      for (let i = 0; i < run.length; i++) {
        const page = pages.subarray(i * size, (i + 1) * size);
        const stored = ((page[size - 4] << 24) | (page[size - 3] << 16) | (page[size - 2] << 8) | page[size - 1]) >>> 0;
        if (crc32c(page, 0, size - 4) !== stored) throw new Error(`page ${run[i]}: checksum`);
        if (mode === 'floor') continue;
        if (mode === 'plan') {
          if (i % 8 === 0) into.clear();
          if (!plan.write({ bytes: page } as never, into)) throw new Error(`page ${run[i]}: not planned`);
          if (i % 8 === 7 || i === run.length - 1) {
            const view = batchView(into);
            rows += view.rows;
            csv = csvBytes(view, csv, p);
            p = csv.length;
            csv = new Uint8Array(csv.buffer);
          }
          continue;
        }
        if (recordOrigins(page, true, origins) !== null) throw new Error(`page ${run[i]}: record list`);
        for (const origin of origins) {
          if (page[origin - 5] & REC_INFO_DELETED) continue;
          if (mode === 'generic') {
            walk(page, origin);
            p = lineGeneric(page, out, p);
          } else if (mode === 'walk') {
            walk(page, origin);
            p = lineWalked(page, out, p);
          } else p = line(page, origin, out, p);
          rows++;
        }
      }
      bytes += p;
      hash.update(mode === 'plan' ? csv.subarray(0, p) : out.subarray(0, p));
    }
    closeSync(fd);
  }
  const c = process.cpuUsage(c0);
  await source.close();
  const cpu = (c.user + c.system) / 1e6;
  process.stdout.write(`${mode}: ${leaves.length} leaves, ${rows} rows, ${(bytes / 1e6).toFixed(0)} MB CSV, cpu ${cpu.toFixed(2)} s (user ${(c.user / 1e6).toFixed(2)}, system ${(c.system / 1e6).toFixed(2)}), sha256 ${hash.digest('hex').slice(0, 16)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`csv-shape-bound: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
