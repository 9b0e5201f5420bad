/**
 * workers/list-methods.ts, run in Node (its Blob and File stand in for the browser's): the listing
 * of many table files at once reads small files together, and gives tiny files their CSV, which
 * must be the CSV "Export all tables" makes (exportTables) and the server's SELECT; a file that is
 * not InnoDB, or has no definition, fails alone; a large file gets its quick summary and no CSV.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvHeader, csvRows } from '../src/core/writers/output.ts';
import { createListMethods, type ListItem } from '../workers/list-methods.ts';
import type { NamedBlob } from '../workers/decoder-api.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const text = new TextDecoder();

function item(name: string, bytes: Uint8Array): ListItem {
  return { ibd: new File([bytes as Uint8Array<ArrayBuffer>], name), name, frm: null };
}

describe('listTables and exportTables over many files', () => {
  let db: MariadbServer;
  const files: ListItem[] = [];
  const want = new Map<string, { rows: number; csv: string }>();
  let dump: NamedBlob;

  beforeAll(async () => {
    db = await startMariadb();
    let sql = '';
    for (let k = 1; k <= 12; k++) {
      const name = `t${k}`;
      const values = Array.from({ length: k % 4 }, (_, r) => `(${r + 1}, ${r === 1 ? 'NULL' : `'v,${k}\n"${r}"'`})`);
      await db.exec(`CREATE TABLE ${name} (id INT PRIMARY KEY, v VARCHAR(30) NULL) ENGINE=InnoDB;${values.length > 0 ? ` INSERT INTO ${name} VALUES ${values.join(', ')};` : ''}`);
      sql += `${(await db.query(`SHOW CREATE TABLE ${name}`)).rows[0][1]};\n\n`;
      const sel = await db.query(`SELECT * FROM ${name} ORDER BY id`);
      want.set(name, { rows: sel.rows.length, csv: csvHeader(sel.columns) + csvRows(sel.rows) });
      files.push(item(`${name}.ibd`, new Uint8Array(readFileSync(await db.exportTable(name)))));
    }
    // Bigger than the CSV limit (~9 MB, its extents allocated; with fullBelow lowered, bigger than that too).
    await db.exec('CREATE TABLE big (id INT PRIMARY KEY, pad CHAR(200)) ENGINE=InnoDB; INSERT INTO big SELECT seq, REPEAT(\'x\', 200) FROM seq_1_to_3000;');
    sql += `${(await db.query('SHOW CREATE TABLE big')).rows[0][1]};\n\n`;
    files.push(item('big.ibd', new Uint8Array(readFileSync(await db.exportTable('big')))));
    dump = { name: 'dump.sql', blob: new File([sql], 'dump.sql') };
  }, 120_000);

  afterAll(async () => {
    await db?.stop();
  });

  it('gives tiny files their CSV: the server’s rows, the same bytes as exportTables', async () => {
    const api = createListMethods();
    const listed = await api.listTables(files, [dump], { fullBelow: 16 << 20, csvBelow: 128 << 10 });
    const exported = await api.exportTables(files, [dump]);
    for (const [i, f] of files.entries()) {
      const name = f.name.replace('.ibd', '');
      const l = listed[i];
      expect(l.summaryError, name).toBeNull();
      expect(l.resolved?.picked, name).toBe(name);
      if (name === 'big') {
        expect(l.csv).toBeNull();
        expect(l.summary?.rows).toBe(3000);
        continue;
      }
      expect(l.summary?.rows, name).toBe(want.get(name)!.rows);
      expect(l.csv?.table, name).toBe(name);
      expect(l.csv?.problem, name).toBeNull();
      expect(text.decode(l.csv!.bytes!), name).toBe(want.get(name)!.csv);
      expect(l.csv?.rows, name).toBe(want.get(name)!.rows);
      expect(exported[i].bytes, name).toEqual(l.csv!.bytes);
    }
  });

  it('lists a large file with its quick summary, and fails a damaged or undefined file alone', async () => {
    const junk = item('junk.ibd', new Uint8Array(64 << 10).fill(7));
    const orphan = files[3];
    const batch = [files[0], junk, files[1], files[12], files[2]];
    const api = createListMethods();
    const listed = await api.listTables(batch, [dump], { fullBelow: 128 << 10, csvBelow: 128 << 10 });
    expect(listed.map((l) => l.summaryError === null)).toEqual([true, false, true, true, true]);
    expect(listed[1].csv).toBeNull();
    expect([0, 2, 4].map((i) => text.decode(listed[i].csv!.bytes!))).toEqual(['t1', 't2', 't3'].map((n) => want.get(n)!.csv));
    expect(listed[3].summary?.complete).toBe(false);
    expect(listed[3].summary?.rows).toBeNull();
    expect(listed[3].csv).toBeNull();
    // No .sql: nothing defines the table, so no CSV (the export says why).
    const [alone] = await api.listTables([orphan], [], { fullBelow: 1 << 20, csvBelow: 128 << 10 });
    expect(alone.summary?.rows).toBe(want.get('t4')!.rows);
    expect(alone.resolved?.picked).toBeNull();
    expect(alone.csv).toBeNull();
    const [failed] = await api.exportTables([orphan], []);
    expect(failed.bytes).toBeNull();
    expect(failed.problem).toMatch(/no \.frm or \.sql/);
  });
});
