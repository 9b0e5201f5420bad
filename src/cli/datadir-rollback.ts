/**
 * The transactions active at a crash, taken back in `ibd-reader DIR -o` as the server's recovery rolls
 * them back (issue 37): the undo logs beside the datadir's ibdata1 are read once (through the run's
 * shared redo log), their versions loaded once and forked for each table, so that each table counts
 * what it took back. Tables are then read on this thread (the versions live in it).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { RowVersions } from '../core/trx/row-vers.ts';
import type { EncryptionKeys } from '../core/tablespace/encryption.ts';
import { takenBack, takenBackLines, type TakenBack } from '../lib/datadir-undo.ts';
import type { SharedRedoLog } from '../lib/node.ts';
import { fileSource } from '../node/file-source.ts';
import { openDatadirUndoAt } from '../node/undo-spaces.ts';

/**
 * The transactions active at the crash (and XA PREPARED ones, kept as on disk) as the undo logs beside
 * `system` hold them, their versions loaded; null when there are none. Read through the run's shared
 * log where it is this datadir's; what cannot be read is said.
 */
export async function crashRollback(system: string, shared: SharedRedoLog | undefined, keys: EncryptionKeys, say: (line: string) => void): Promise<TakenBack | null> {
  const logPath = join(dirname(system), 'ib_logfile0');
  const own = shared?.path === resolve(logPath) ? shared : null;
  const log = own === null && existsSync(logPath) ? await fileSource(logPath) : undefined;
  try {
    const undo = await openDatadirUndoAt(system, own?.log ?? log, keys, own?.census);
    try {
      const taken = await takenBack(undo, null, (m) => say(`warning: ${m}`));
      for (const p of taken?.versions.problems ?? []) say(`warning: ${p}`);
      return taken;
    } finally {
      await undo.close();
    }
  } catch (e) {
    say(`warning: the undo logs of ${system} cannot be read (${(e as Error).message}): transactions active at a crash, if any, are not rolled back, and the rows they changed are written as on disk`);
    return null;
  } finally {
    await log?.close();
  }
}

/**
 * After the read of table `name` with `versions` (a fork of `taken`'s): what each transaction took
 * back in it, said; rows of XA PREPARED transactions shown as on disk added to `problems`. True when
 * there were such rows (the table's status is then 2).
 */
export function sayRolledBack(name: string, taken: TakenBack, versions: RowVersions, say: (line: string) => void, problems: string[]): boolean {
  // (the versions' own problems were said once for the run; the kept transactions' lines come last)
  const lines = takenBackLines(name, { versions, verb: taken.verb }).slice(versions.problems.length);
  const kept = lines.length - versions.keptRows.size;
  for (const line of lines.slice(0, kept)) say(line);
  problems.push(...lines.slice(kept));
  return versions.keptRows.size > 0;
}
