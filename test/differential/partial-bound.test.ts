/**
 * The bound the page shows on partial rows before any is read (workers/partial-methods.ts
 * indexEntries), against a real MariaDB: a table of two secondary indexes with one clustered leaf
 * zeroed. A leaf of `ka` zeroed too: `ka` is not complete and bounds nothing, `kb`'s entries less
 * the intact rows are the lost leaf's rows exactly, and the partial rows are all of them. A leaf of
 * `kb` zeroed as well: no index bounds them; the partial rows are those keys of the lost leaf that
 * an intact index leaf still holds, each the server's, and the notes name both damaged indexes.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTable } from '../../src/core/readers/table-reader.ts';
import type { TableDef } from '../../src/core/schema.ts';
import { cellText } from '../../src/core/values/row-batch.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { createViewerMethods } from '../../workers/viewer-methods.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { tableDef } from './index-query.ts';

describe('the partial rows\u2019 bound, where secondary indexes are damaged too', () => {
  let server: MariadbServer;
  let def: TableDef;
  let intact: Buffer;
  /** The leaf pages zeroed: the clustered index's, then ka's and kb's. */
  const lost: Record<'clustered' | 'ka' | 'kb', number> = { clustered: 0, ka: 0, kb: 0 };
  let lostIds: Set<string>;

  beforeAll(async () => {
    server = await startMariadb();
    await server.exec(`CREATE TABLE pb (id INT NOT NULL PRIMARY KEY, a INT NULL, b VARCHAR(30) NULL, note VARCHAR(200) NULL, KEY ka (a), KEY kb (b)) ENGINE=InnoDB;
      INSERT INTO pb SELECT seq, seq % 400, CONCAT('b', seq % 911), REPEAT('n', 60 + seq % 80) FROM seq_1_to_6000;`);
    const ibd = await server.exportTable('pb');
    def = await tableDef(server, 'pb');
    intact = readFileSync(ibd);
    const source = await fileSource(ibd);
    const clustered = await openTable(source, def);
    lost.clustered = (await clustered.leafPages())[4];
    const batch = await clustered.decodePages([lost.clustered]);
    lostIds = new Set(Array.from({ length: batch.rows }, (_, r) => cellText(batch, r, 0) ?? ''));
    for (const name of ['ka', 'kb'] as const) lost[name] = (await (await openTable(source, def, { indexName: name })).leafPages())[1];
    await source.close();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The file with the leaves `zeroed` zeroed, opened as the page's worker opens it: its bound's counts and its partial rows. */
  async function read(zeroed: number[]) {
    const bytes = Buffer.from(intact);
    for (const page of zeroed) bytes.fill(0, page * server.pageSize, (page + 1) * server.pageSize);
    const api = createViewerMethods(() => def);
    await api.openView({ ibd: new Blob([bytes]), name: 'pb.ibd', table: def, mode: 'live' });
    return { entries: await api.indexEntries(), partial: await api.partialRows() };
  }

  it('a complete index bounds the partial rows exactly; a damaged one bounds nothing', async () => {
    expect(lostIds.size).toBeGreaterThan(20);
    const { entries, partial } = await read([lost.clustered, lost.ka]);
    const byName = new Map(entries.map((e) => [e.index, e]));
    expect(byName.get('ka')?.complete).toBe(false);
    expect(byName.get('kb')).toEqual({ index: 'kb', entries: 6000, complete: true });
    expect((byName.get('kb')?.entries ?? 0) - (6000 - lostIds.size)).toBe(lostIds.size);
    expect(new Set(partial.rows.map((r) => r[0]))).toEqual(lostIds);
    expect(partial.notes.join('\n')).toMatch(/index `ka`: 0 leaf pages skipped, 1 damaged|index `ka`: 1 leaf pages skipped/);
  });

  it('with every index damaged, none bounds them; what comes back is the server\u2019s', async () => {
    const { entries, partial } = await read([lost.clustered, lost.ka, lost.kb]);
    expect(entries.map((e) => [e.index, e.complete])).toEqual([['ka', false], ['kb', false]]);
    const ids = partial.rows.map((r) => r[0] ?? '');
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => lostIds.has(id))).toBe(true);
    const expected = await server.query(`SELECT id, a, b FROM pb WHERE id IN (${ids.join(',')}) ORDER BY id`);
    // A column is the server's where an index gave it, else absent (null in the page's copy).
    partial.rows.forEach((row, r) => {
      for (const c of [1, 2]) if (!partial.absent[r].includes(c)) expect(row[c]).toBe(expected.rows[r][c] === null ? null : String(expected.rows[r][c]));
    });
    expect(partial.rows.map((r) => r[0])).toEqual(expected.rows.map((r) => String(r[0])));
    const notes = partial.notes.join('\n');
    expect(notes).toContain('index `ka`');
    expect(notes).toContain('index `kb`');
  });
});
