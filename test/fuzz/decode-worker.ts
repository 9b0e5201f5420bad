/**
 * The fuzz campaign's decoder, in a worker thread (bundled by campaign.ts with esbuild), so that a
 * case that hangs can be stopped and one that throws outside the decoder's promises is seen. It keeps
 * each corpus file's intact `live` rows (a multiset) and, for a mutated copy, decodes it with the
 * library in `live` and `all` modes and counts the `live` rows that are not rows of the intact file.
 */
import { parentPort } from 'node:worker_threads';
import { parseCreateTables, pickTable } from '../../src/core/definitions/ddl/create-table.ts';
import { IbdError } from '../../src/core/errors.ts';
import type { TableDef } from '../../src/core/schema.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openTable, type Row, type RowMode, type TableReader } from '../../src/core/readers/table-reader.ts';

export type Request =
  | { id: number; type: 'load'; file: string; name: string; sql: string; bytes: Uint8Array }
  | { id: number; type: 'case'; file: string; bytes: Uint8Array };

/** How one decode of a copy went. */
export type Outcome =
  | { kind: 'rows'; rows: number; wrong: number; lost: number; samples: string[] }
  /** An IbdError at open: the file is refused, saying why (allowed). */
  | { kind: 'refused'; message: string }
  /** Anything else thrown: at open (not an IbdError), or while reading the rows. */
  | { kind: 'crash'; phase: 'open' | 'read'; error: string };

export type Response =
  | { id: number; type: 'loaded'; rows: number; problems: number }
  | { id: number; type: 'case'; live: Outcome; all: Outcome }
  | { id: number; type: 'failed'; error: string };

interface Loaded {
  table: TableDef;
  live: Map<string, number>;
}

const files = new Map<string, Loaded>();

const key = (row: Row) => JSON.stringify(row);

/** How a cell whose value could not be read begins (leaf-decoder.ts resolveExtern). */
const UNREADABLE = '[unreadable: ';

function describe(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}\n${e.stack?.split('\n').slice(1, 6).join('\n') ?? ''}` : String(e);
}

async function decode(bytes: Uint8Array, table: TableDef, mode: RowMode, intact: Map<string, number> | null): Promise<Outcome> {
  let reader: TableReader;
  try {
    reader = await openTable(bytesSource(bytes, 'copy.ibd'), table, { mode });
    // As every front end opens a table: the definition's verdict before any row (an IbdError).
    await reader.checkDefinition();
  } catch (e) {
    if (e instanceof IbdError) return { kind: 'refused', message: e.message };
    return { kind: 'crash', phase: 'open', error: describe(e) };
  }
  const left = new Map(intact ?? []);
  let rows = 0;
  let wrong = 0;
  let marked = 0;
  const samples: string[] = [];
  try {
    for await (const batch of reader.rows()) {
      rows += batch.length;
      if (intact === null) continue;
      for (const row of batch) {
        const k = key(row);
        const n = left.get(k) ?? 0;
        if (n > 0) left.set(k, n - 1);
        // A value the decoder could not read says so in its cell: marked, not silently wrong.
        else if (row.some((cell) => cell?.startsWith(UNREADABLE) === true)) marked++;
        else {
          wrong++;
          if (samples.length < 3) samples.push(k.length > 300 ? `${k.slice(0, 300)}…` : k);
        }
      }
    }
  } catch (e) {
    return { kind: 'crash', phase: 'read', error: describe(e) };
  }
  let lost = 0;
  if (intact !== null) for (const n of left.values()) lost += n;
  return { kind: 'rows', rows, wrong, lost: Math.max(0, lost - marked), samples };
}

async function handle(m: Request): Promise<Response> {
  if (m.type === 'load') {
    const tables = parseCreateTables(m.sql);
    const table = pickTable(tables, m.name) ?? tables[0];
    if (!table) return { id: m.id, type: 'failed', error: `${m.file}: no CREATE TABLE` };
    const reader = await openTable(bytesSource(m.bytes, m.name), table);
    const live = new Map<string, number>();
    let rows = 0;
    for await (const batch of reader.rows()) {
      for (const row of batch) live.set(key(row), (live.get(key(row)) ?? 0) + 1);
      rows += batch.length;
    }
    files.set(m.file, { table, live });
    return { id: m.id, type: 'loaded', rows, problems: reader.stats.problems.length };
  }
  const loaded = files.get(m.file);
  if (!loaded) return { id: m.id, type: 'failed', error: `${m.file} is not loaded` };
  const live = await decode(m.bytes, loaded.table, 'live', loaded.live);
  const all = await decode(m.bytes, loaded.table, 'all', null);
  return { id: m.id, type: 'case', live, all };
}

parentPort?.on('message', (m: Request) => {
  handle(m).then(
    (response) => parentPort?.postMessage(response),
    (e: unknown) => parentPort?.postMessage({ id: m.id, type: 'failed', error: describe(e) } satisfies Response),
  );
});
