/**
 * What the CLI reads of a table file's datadir beyond the file: the encryption keys given, and the
 * undo logs (ibdata1 and the undo tablespaces, read through the redo log) whose versions take back
 * the transactions active at a crash, or --before-trx N's, or give --history.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { loadKeyFile, parseMysqlKeyring, type EncryptionKeys } from '../core/tablespace/encryption.ts';
import { takenBack, type TakenBack } from '../lib/datadir-undo.ts';
import type { InnodbFile } from '../lib/innodb-file.ts';
import { fileSource } from '../node/file-source.ts';
import { openDatadirUndoAt, systemSpaceOf, type DatadirUndoAt } from '../node/undo-spaces.ts';
import type { Args } from './args.ts';
import { historyOf } from './history.ts';

/** A warning on stderr. */
export function warn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

/** The encryption keys of --key-file and --keyring. */
export async function keysOf(args: Args): Promise<EncryptionKeys> {
  const keys: EncryptionKeys = {};
  if (args.keyFile !== null) keys.mariadb = await loadKeyFile(new Uint8Array(await readFile(args.keyFile)), args.keyPassword);
  if (args.keyring !== null) keys.mysql = parseMysqlKeyring(new Uint8Array(await readFile(args.keyring)));
  return keys;
}

/** The undo logs of the file's datadir (its ibdata1 and undo tablespaces; `isSystem`: the file is that ibdata1), or null when it has none beside it. */
export async function datadirUndo(isSystem: boolean, args: Args): Promise<DatadirUndoAt | null> {
  const path = systemSpaceOf(args.ibd, isSystem);
  if (path === null) return null;
  const logPath = join(args.datadir ?? dirname(path), 'ib_logfile0');
  const keys = await keysOf(args);
  if (args.asOnDisk || !existsSync(logPath)) return openDatadirUndoAt(path, undefined, keys);
  const log = await fileSource(logPath);
  const undo = await openDatadirUndoAt(path, log, keys).catch(async (e: unknown) => {
    await log.close();
    throw e;
  });
  return { ...undo, close: async () => void (await Promise.all([undo.close(), log.close()])) };
}

/**
 * The transactions the read takes back (core/trx/row-vers.ts): those active at a crash, as the
 * server's recovery would, unless --as-on-disk; with --before-trx N, N and every later one. Read on
 * one thread (the versions live in this one).
 */
export async function rollback(file: InnodbFile, args: Args): Promise<TakenBack | null> {
  if (args.history || args.revertTrx !== null) return readHistory(file, args);
  return rollbackOf(file.dictionary !== null, args);
}

/** The transactions a table file's read takes back (see rollback); `isSystem`: the file is an ibdata1. */
export async function rollbackOf(isSystem: boolean, args: Args): Promise<TakenBack | null> {
  if (args.asOnDisk && args.beforeTrx === null) return null;
  const undo = await datadirUndo(isSystem, args).catch((e: unknown) => {
    if (args.beforeTrx !== null) throw e;
    warn(`the undo logs of ${args.ibd}'s datadir cannot be read (${(e as Error).message}): rows of transactions active at a crash, if any, are shown as on disk`);
    return null;
  });
  if (undo === null) {
    if (args.beforeTrx !== null) throw new Error(`${args.ibd}: --before-trx needs the datadir's ibdata1 (beside the database folder) and its undo tablespaces`);
    return null;
  }
  try {
    const taken = await takenBack(undo, args.beforeTrx, warn);
    if (taken !== null) args.threads = 1;
    return taken;
  } finally {
    await undo.close();
  }
}

/** --history, --revert-trx: every version the datadir's undo logs hold (cli/history.ts), read on one thread. */
async function readHistory(file: InnodbFile, args: Args): Promise<TakenBack> {
  const undo = await datadirUndo(file.dictionary !== null, args);
  if (undo === null) throw new Error(`${args.ibd}: --history and --revert-trx need the datadir's ibdata1 (beside the database folder) and its undo tablespaces`);
  try {
    args.threads = 1;
    return await historyOf(undo, args.revertTrx, warn);
  } finally {
    await undo.close();
  }
}
