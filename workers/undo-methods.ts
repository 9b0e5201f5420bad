/**
 * The page's use of a datadir's undo logs (lib/datadir-undo.ts), in a decoder worker: the list of
 * transactions the Transactions view shows (newest first), and the versions a view "as before
 * transaction N" reads its leaves with (ViewSpec.undo). The files cross as Blob handles; the one worker
 * of a pool such a view is open in (src/ui/pool.ts) reads the undo logs (the versions live in the
 * worker that decodes), kept for the next open of the same N.
 */
import * as Comlink from 'comlink';
import type { TableDef } from '../src/core/schema.ts';
import type { EncryptionKeys } from '../src/core/tablespace/encryption.ts';
import { sharedBlobSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { revertSummary, writeRevert, type RevertCount } from '../src/core/writers/revert-run.ts';
import { historyOf, openUndoSources, takenBack, transactionsOf, type TakenBack, type TransactionInfo } from '../src/lib/datadir-undo.ts';
import { openDefinedTable } from '../src/lib/innodb-table.ts';
import { OpfsRun } from './opfs-run.ts';
import { fileSource } from './redo-sources.ts';
import type { NamedBlob } from './schema-api.ts';

/** A datadir's files the undo logs are read from, as Blob handles. */
export interface UndoBlobs {
  /** ibdata1 (its further data files joined to it). */
  system: NamedBlob;
  /** undo001 … beside it. */
  undoSpaces: NamedBlob[];
  /** ib_logfile0 beside it, when given: the files are read as its recovery leaves them. */
  redoLog: NamedBlob | null;
}

/** "As before transaction N" (ViewSpec.undo). */
export interface BeforeTrx {
  files: UndoBlobs;
  beforeTrx: number;
}

export interface TransactionList {
  /** Newest first; at most LISTED of them. */
  transactions: TransactionInfo[];
  /** Transactions the undo logs hold beyond those listed. */
  more: number;
  /** What could not be read (pages, records, files not given). */
  problems: string[];
}

/** Transactions listed at most (a history list can run to millions after a long-held read view). */
const LISTED = 2000;

function sourceOf(f: NamedBlob): ByteSource {
  return sharedBlobSource(f.blob, f.name);
}

function sources(files: UndoBlobs): { system: ByteSource; undoSpaces: ByteSource[]; redoLog: ByteSource | null } {
  return { system: sourceOf(files.system), undoSpaces: files.undoSpaces.map(sourceOf), redoLog: files.redoLog && sourceOf(files.redoLog) };
}

/** "Revert SQL": which transaction, in which table (its file and definition). */
export interface RevertRequest {
  files: UndoBlobs;
  trxId: number;
  ibd: Blob;
  name: string;
  table: TableDef;
  keys?: EncryptionKeys;
}

/** What a revert wrote: its account, in the CLI's words, and what could not be reverted or read. */
export interface RevertDone {
  count: RevertCount;
  summary: string;
  said: string[];
}

/** Characters of text sent to the page at a time, and held in memory per run before the page's private storage. */
const CHUNK_CHARS = 1 << 20;
const HOLD_CHARS = 8 << 20;

export interface UndoMethods {
  /** The transactions of the datadir's undo logs, newest first, tables named through its data dictionary. */
  listTransactions(files: UndoBlobs): Promise<TransactionList>;
  /** The statements reverting `trxId`'s changes to the table, handed to `sink` in UTF-8 chunks in order. */
  revertSql(request: RevertRequest, sink: (chunk: Uint8Array<ArrayBuffer>) => Promise<void>): Promise<RevertDone>;
}

/** The table's history read whole (every undo log purge has not processed), turned into the revert's statements. */
async function revertSql(request: RevertRequest, sink: (chunk: Uint8Array<ArrayBuffer>) => Promise<void>): Promise<RevertDone> {
  const said: string[] = [];
  const undo = await openUndoSources(sources(request.files));
  const history = await historyOf(undo, request.trxId, (m) => said.push(m));
  // SQL keeps TIMESTAMP in UTC, the zone its preamble sets (as the SQL export does).
  const table = await openDefinedTable(await fileSource(request.ibd, request.name), request.table, { rows: 'both', keys: request.keys, timeZone: 'UTC', versions: history.versions });
  said.push(...table.warnings);
  const encoder = new TextEncoder();
  let text = '';
  const send = async () => {
    if (text.length === 0) return;
    const bytes = encoder.encode(text);
    text = '';
    await sink(Comlink.transfer(bytes, [bytes.buffer]));
  };
  const write = async (t: string) => {
    text += t;
    if (text.length >= CHUNK_CHARS) await send();
  };
  const file = table.info.file;
  const read = { file, definition: table.definition, columns: table.columns, key: table.reader.keyParts.map((k) => k.out), batches: table.batches({ batchSize: 5000 }) };
  const count = await writeRevert(read, request.trxId, write, (m) => said.push(m), () => new OpfsRun(HOLD_CHARS));
  await send();
  for (const p of table.stats.problems) said.push(`${file}${p.page !== null ? `, page ${p.page}` : ''}${p.record !== null ? `, record at ${p.record}` : ''}: ${p.message}`);
  return { count, summary: revertSummary(file, request.trxId, count), said };
}

export function createUndoMethods(): UndoMethods {
  return {
    async listTransactions(files) {
      const undo = await openUndoSources(sources(files));
      const problems: string[] = [];
      // Newest first: the last LISTED of the logs (by trx id) kept as they come.
      const kept: TransactionInfo[] = [];
      let seen = 0;
      for await (const t of transactionsOf(undo, problems)) {
        seen++;
        kept.push(t);
        if (kept.length > LISTED) kept.shift();
      }
      return { transactions: kept.reverse(), more: seen - kept.length, problems };
    },
    revertSql,
  };
}

/** The versions of the last BeforeTrx opened in this worker, kept for views of the same one. */
let last: { key: BeforeTrx; taken: Promise<{ taken: TakenBack | null; said: string[] }> } | null = null;

function sameBefore(a: BeforeTrx, b: BeforeTrx): boolean {
  const blobs = (f: UndoBlobs) => [f.system, ...f.undoSpaces, ...(f.redoLog ? [f.redoLog] : [])].map((n) => n.blob);
  const x = blobs(a.files);
  const y = blobs(b.files);
  return a.beforeTrx === b.beforeTrx && x.length === y.length && x.every((blob, i) => blob === y[i]);
}

/** The rows' versions before transaction N (and every later one) for a view: read once per worker. */
export function versionsBefore(before: BeforeTrx): Promise<{ taken: TakenBack | null; said: string[] }> {
  if (last !== null && sameBefore(last.key, before)) return last.taken;
  const taken = (async () => {
    const said: string[] = [];
    const undo = await openUndoSources(sources(before.files));
    return { taken: await takenBack(undo, before.beforeTrx, (m) => said.push(m)), said };
  })();
  taken.catch(() => {
    if (last?.taken === taken) last = null;
  });
  last = { key: before, taken };
  return taken;
}
