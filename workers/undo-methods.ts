/**
 * The page's use of a datadir's undo logs (lib/datadir-undo.ts), in a decoder worker: the list of
 * transactions the Transactions view shows (newest first), and the versions a view "as before
 * transaction N" reads its leaves with (ViewSpec.undo). The files cross as Blob handles; the one worker
 * of a pool such a view is open in (src/ui/pool.ts) reads the undo logs (the versions live in the
 * worker that decodes), kept for the next open of the same N.
 */
import { sharedBlobSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { openUndoSources, takenBack, transactionsOf, type TakenBack, type TransactionInfo } from '../src/lib/datadir-undo.ts';
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

export interface UndoMethods {
  /** The transactions of the datadir's undo logs, newest first, tables named through its data dictionary. */
  listTransactions(files: UndoBlobs): Promise<TransactionList>;
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
