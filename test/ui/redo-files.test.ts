/**
 * The redo log among dropped files (src/ui/files/redo-files.ts): found in a datadir folder (MariaDB's
 * ib_logfile0, MySQL 8.0.30+'s #innodb_redo), with its datadir's ibdata1 and table files as the files
 * read through it; the files of another folder, and the log itself, are not.
 */
import { describe, expect, it } from 'vitest';
import { datadirLogOf, isRedoLogFile } from '../../src/ui/files/redo-files.ts';
import type { InputFile } from '../../src/ui/files/pairing.ts';
import { fileKey } from '../../workers/redo-api.ts';

const input = (path: string, size = 16384): InputFile => ({ file: new File([new Uint8Array(size)], path.slice(path.lastIndexOf('/') + 1), { lastModified: 1 }), path });

describe('datadirLogOf', () => {
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
  });

  it('gives none without a log', () => {
    expect(datadirLogOf([input('dd/ibdata1'), input('dd/test/t.ibd')], false)).toBeNull();
  });
});
