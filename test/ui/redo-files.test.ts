/**
 * The redo log among dropped files (src/ui/files/redo-files.ts): found in a datadir folder (MariaDB's
 * ib_logfile0, MySQL 8.0.30+'s #innodb_redo), with its datadir's ibdata1 and table files as the files
 * read through it; the files of another folder, and the log itself, are not.
 */
import { describe, expect, it } from 'vitest';
import { datadirLogsOf, filesWithoutTheirLog, isDoublewriteFile, isRedoLogFile } from '../../src/ui/files/redo-files.ts';
import type { InputFile } from '../../src/ui/files/pairing.ts';
import { fileKey } from '../../workers/redo-api.ts';

const input = (path: string, size = 16384): InputFile => ({ file: new File([new Uint8Array(size)], path.slice(path.lastIndexOf('/') + 1), { lastModified: 1 }), path });

/** The one datadir's log among `files`. */
function datadirLogOf(files: InputFile[], asOnDisk: boolean) {
  const logs = datadirLogsOf(files, asOnDisk);
  expect(logs.length).toBeLessThanOrEqual(1);
  return logs[0] ?? null;
}

describe('datadirLogsOf', () => {
  it('finds ib_logfile0 in a dropped datadir: its ibdata1 and the table files under it are read through it', () => {
    const files = [input('dd/ib_logfile0', 4096), input('dd/ibdata1'), input('dd/test/t.ibd'), input('dd/test/t.frm'), input('dd/undo001'), input('other/u.ibd'), input('dd/aria_log.00000001')];
    const log = datadirLogOf(files, false)!;
    expect(log.log.name).toBe('ib_logfile0');
    expect(log.more).toEqual([]);
    expect(log.system?.blob).toBe(files[1].file);
    expect(log.members).toEqual([files[1], files[2]].map((f) => fileKey(f.file, f.file.name)));
    expect(log.undo.map((f) => f.blob)).toEqual([files[4].file]);
    expect(log.asOnDisk).toBe(false);
    expect(datadirLogOf(files, true)?.asOnDisk).toBe(true);
    expect(files.map(isRedoLogFile)).toEqual([true, false, false, false, false, false, false]);
  });

  it('takes an older server\'s log files in order, and MySQL 8.0.30+\'s #innodb_redo with the datadir above it', () => {
    const old = [input('dd/ib_logfile1'), input('dd/ib_logfile0'), input('dd/db/t.ibd')];
    const log = datadirLogOf(old, false)!;
    expect([log.log.name, ...log.more.map((f) => f.name)]).toEqual(['ib_logfile0', 'ib_logfile1']);
    const mysql = [input('dd/#innodb_redo/#ib_redo11'), input('dd/#innodb_redo/#ib_redo10'), input('dd/db/t.ibd')];
    const m = datadirLogOf(mysql, false)!;
    expect(m.log.name).toBe('#ib_redo10');
    expect(m.members).toEqual([fileKey(mysql[2].file, 't.ibd')]);
    expect(m.doublewrite).toEqual([]);
  });

  it("gives MySQL 8.0.20+'s doublewrite files of the datadir folder with its log, in order, not as members", () => {
    const files = [input('dd/#innodb_redo/#ib_redo10'), input('dd/#ib_16384_1.dblwr'), input('dd/#ib_16384_0.dblwr'), input('dd/db/t.ibd'), input('dd/db/#ib_16384_0.dblwr'), input('other/#ib_16384_0.dblwr')];
    const log = datadirLogOf(files, false)!;
    expect(log.doublewrite.map((f) => f.blob)).toEqual([files[2].file, files[1].file]);
    expect(log.members).toEqual([fileKey(files[3].file, 't.ibd')]);
    expect(files.map(isDoublewriteFile)).toEqual([false, true, true, false, true, true]);
  });

  it('gives each of several dropped datadirs its own log, ibdata1, undo tablespaces and table files', () => {
    const files = [
      input('a/ib_logfile0', 4096), input('a/ibdata1'), input('a/undo001'), input('a/db/t.ibd', 32768),
      input('b/ib_logfile0', 8192), input('b/ibdata1', 65536), input('b/db/t.ibd', 49152), input('b/inner/ib_logfile0', 2048), input('b/inner/db/u.ibd'), input('c/db/v.ibd'),
    ];
    const logs = datadirLogsOf(files, false);
    expect(logs.map((l) => l.log.blob)).toEqual([files[0].file, files[4].file, files[7].file]);
    expect(logs.map((l) => l.system?.blob ?? null)).toEqual([files[1].file, files[5].file, null]);
    expect(logs.map((l) => l.undo.length)).toEqual([1, 0, 0]);
    const key = (f: InputFile) => fileKey(f.file, f.file.name);
    // b/inner is a datadir of its own: its u.ibd is not b's
    expect(logs.map((l) => l.members)).toEqual([[key(files[1]), key(files[3])], [key(files[5]), key(files[6])], [key(files[8])]]);
    expect(filesWithoutTheirLog(files)).toEqual([]);
  });

  it('names the files two datadirs have alike (name, size, time: a worker cannot tell them apart), read without a log', () => {
    const files = [input('a/ib_logfile0'), input('a/db/t.ibd'), input('a/db/only.ibd', 32768), input('b/ib_logfile0'), input('b/db/t.ibd')];
    expect(filesWithoutTheirLog(files)).toEqual(['a/db/t.ibd', 'b/db/t.ibd']);
    expect(datadirLogsOf(files, false).map((l) => l.members)).toEqual([[fileKey(files[2].file, 'only.ibd')], []]);
  });

  it('gives none without a log', () => {
    expect(datadirLogOf([input('dd/ibdata1'), input('dd/test/t.ibd')], false)).toBeNull();
  });
});
