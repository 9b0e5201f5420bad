/**
 * A benchmark of wrong output is worthless, so every output is checked:
 *
 *  - the CLI's CSV against the server's own rows: the `mariadb -e 'SELECT * FROM t'` output that the
 *    reference run writes anyway (tab-separated, in clustered-index order) is turned into CSV with
 *    the project's CSV rules (src/core/writers/output.ts, as the tests do) and both are hashed; the whole
 *    table is compared, not a sample;
 *  - the page's downloaded CSV against the CLI's, by hash;
 *  - row counts against the server's COUNT(*).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { csvHeader, csvRows } from '../src/core/writers/output.ts';

export interface Digest {
  sha256: string;
  bytes: number;
  /** Newline characters (= CSV lines: no value in these tables holds a line break). */
  lines: number;
}

export async function digestFile(path: string): Promise<Digest> {
  const hash = createHash('sha256');
  let bytes = 0;
  let lines = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { sha256: hash.digest('hex'), bytes, lines };
}

/** Undoes the mariadb client's batch-mode escapes (\t \n \\ \0); the tables here have no NULLs. */
function unescapeBatch(field: string): string {
  if (!field.includes('\\')) return field;
  return field.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === '0' ? '\0' : c));
}

/** Yields the CSV text the server's batch-mode SELECT output stands for, in pieces. */
async function* csvFromBatch(path: string): AsyncGenerator<string> {
  const lines = createInterface({ input: createReadStream(path, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  let header = true;
  let rows: string[][] = [];
  for await (const line of lines) {
    const fields = line.split('\t').map(unescapeBatch);
    if (header) {
      yield csvHeader(fields);
      header = false;
      continue;
    }
    rows.push(fields);
    if (rows.length === 10_000) {
      yield csvRows(rows);
      rows = [];
    }
  }
  if (rows.length > 0) yield csvRows(rows);
}

export interface Comparison {
  ok: boolean;
  /** One line saying what was compared and how it came out. */
  text: string;
}

/** Compares a CSV file with the server's batch-mode SELECT output (single result set). */
export async function compareWithServer(csvPath: string, selectPath: string): Promise<Comparison> {
  const [ours, theirs] = await Promise.all([digestFile(csvPath), digestBatchAsCsv(selectPath)]);
  if (ours.sha256 === theirs.sha256) {
    return { ok: true, text: `identical to the server's SELECT (${(ours.lines - 1).toLocaleString('en-US')} rows, sha256 ${ours.sha256.slice(0, 12)}…)` };
  }
  return { ok: false, text: `DIFFERS from the server's SELECT: ${await firstDifference(csvPath, selectPath)}` };
}

async function digestBatchAsCsv(selectPath: string): Promise<Digest> {
  const hash = createHash('sha256');
  let bytes = 0;
  let lines = 0;
  for await (const piece of csvFromBatch(selectPath)) {
    const buf = Buffer.from(piece, 'utf8');
    hash.update(buf);
    bytes += buf.length;
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
  }
  return { sha256: hash.digest('hex'), bytes, lines };
}

/** Where two outputs part (only run when the hashes differ). */
async function firstDifference(csvPath: string, selectPath: string): Promise<string> {
  const ours = createInterface({ input: createReadStream(csvPath), crlfDelay: Infinity })[Symbol.asyncIterator]();
  let lineNo = 0;
  for await (const piece of csvFromBatch(selectPath)) {
    for (const want of piece.split('\n').slice(0, -1)) {
      lineNo++;
      const got = await ours.next();
      if (got.done) return `our CSV ends after ${lineNo - 1} lines`;
      if (got.value !== want) return `line ${lineNo}: ours ${JSON.stringify(got.value)}, server ${JSON.stringify(want)}`;
    }
  }
  const extra = await ours.next();
  return extra.done ? 'same lines, different bytes (line ends?)' : `our CSV has more lines than the server's ${lineNo}`;
}
