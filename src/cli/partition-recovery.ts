/**
 * What the datadir's redo log did to a partitioned table's files, said once for the table: the
 * sentences every partition's file would repeat (the datadir not shut down cleanly, the files created
 * after the checkpoint, why the log is not applied) once, with the partitions they hold for named;
 * the roll-forward's figures added up over the partitions; what is a partition's own (pages restored
 * from the doublewrite buffer, pages whose records failed) with its partition named.
 */
import { recoveryAmiss, recoveryLines, type RedoRecovery } from '../core/log/redo-recovery.ts';
import type { RecoveryStats } from '../core/log/recovered-source.ts';
import type { PartitionedTable } from '../lib/partitioned-table.ts';

const ROLLED = 'rolled forward from the checkpoint:';

/** The roll-forward figures of several files added up (the pages' lists are each file's own: left out). */
function summed(all: readonly RecoveryStats[]): RecoveryStats {
  const add = (f: (s: RecoveryStats) => number) => all.reduce((n, s) => n + f(s), 0);
  return {
    pagesInLog: add((s) => s.pagesInLog), recordsInLog: add((s) => s.recordsInLog), pagesRecovered: add((s) => s.pagesRecovered),
    recordsApplied: add((s) => s.recordsApplied), pagesBeyondEnd: add((s) => s.pagesBeyondEnd), failed: [], restored: [],
  };
}

/** The lines for the partitions of `table`, and whether rows may be stale (the log not applied, or some page's records failed). */
export function partitionRecoveryLines(table: PartitionedTable): { lines: string[]; amiss: boolean } {
  const parts = table.partitions.flatMap((p) => (p.recovery && p.table !== null ? [{ name: p.name, file: p.table.info.file, recovery: p.recovery }] : []));
  /** Each sentence (the file's name taken off), with the partitions that say it, in the order first said. */
  const said = new Map<string, string[]>();
  for (const p of parts) {
    for (const line of recoveryLines(p.file, p.recovery)) {
      const text = line.slice(p.file.length + 2);
      const key = text.startsWith(ROLLED) ? ROLLED : text;
      said.set(key, [...(said.get(key) ?? []), p.name]);
    }
  }
  const everyOne = parts.length;
  const lines = [...said].map(([text, names]) => {
    const who = `${table.definition.name} (${names.length === everyOne ? `its ${names.length} partitions` : `partition${names.length === 1 ? '' : 's'}`} ${names.join(', ')})`;
    if (text !== ROLLED) return `${who}: ${text}`;
    const applied = parts.flatMap((p) => (p.recovery.applied ? [p.recovery.applied] : []));
    const one: RedoRecovery = { ...parts[0].recovery, applied: summed(applied), files: [] };
    return recoveryLines(who, one)[1];
  });
  return { lines, amiss: parts.some((p) => recoveryAmiss(p.recovery)) };
}
