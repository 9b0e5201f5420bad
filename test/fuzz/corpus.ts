/**
 * The files the fuzz campaign mutates, each with the CREATE TABLE it is read with: the bundled sample
 * (public/sample/employees.ibd), tables written by MariaDB (test/damage/tables.ts, made by the caller's
 * server), and the MySQL 5.6 / 5.7 / 8.0 fixture files with their scripts.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fixtureIbd, fixtureTables, readScript } from '../differential/mysql-fixture-files.ts';
import type { TableFixture } from '../damage/tables.ts';

export interface CorpusFile {
  /** Unique name, for figures and replays (e.g. `mysql57/pk/tb22`). */
  file: string;
  /** The .ibd's file name (the table is picked by it from `sql`). */
  name: string;
  sql: string;
  bytes: Uint8Array;
  group: 'sample' | 'mariadb' | 'mysql';
}

const ROOT = join(import.meta.dirname, '../..');

export function sampleFiles(): CorpusFile[] {
  return [{
    file: 'sample/employees',
    name: 'employees.ibd',
    sql: readFileSync(join(ROOT, 'public/sample/employees.sql'), 'utf8'),
    bytes: new Uint8Array(readFileSync(join(ROOT, 'public/sample/employees.ibd'))),
    group: 'sample',
  }];
}

export function mysqlFiles(): CorpusFile[] {
  return fixtureTables().flatMap(({ rel, versions }) => versions.map((v): CorpusFile => ({
    file: `${v}/${rel}`,
    name: `${basename(rel)}.ibd`,
    sql: readScript(rel),
    bytes: new Uint8Array(readFileSync(fixtureIbd(v, rel))),
    group: 'mysql',
  })));
}

export function mariadbFiles(tables: readonly TableFixture[]): CorpusFile[] {
  return tables.map((t) => ({ file: `mariadb/${t.name}`, name: `${t.name}.ibd`, sql: t.ddl, bytes: t.bytes, group: 'mariadb' }));
}
