/**
 * The CLI's `--page-map` and `--page N` (dist-cli/ibd-reader.mjs, built as test/cli.test.ts does), in
 * text and `--format ndjson`, on a MariaDB table: a line per page of the file whose root lines are the
 * server's (INNODB_SYS_INDEXES), a page's records with the server's rows (with `--schema`, or the
 * .frm beside the file) or without values (the .ibd alone), and a file cut short: its missing pages
 * listed, exit status 2.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageMapEntry } from '../src/core/readers/page-map.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

interface PageJson {
  page: number;
  state: string;
  typeName: string;
  problems: { message: string; bytes: { start: number; end: number }[] }[];
  bytes: string;
  index: { header: { nRecs: number; indexId: string }; columns: string[] | null; records: { origin: number; reached: string; deleted: boolean; values: (string | null)[] | null }[] } | null;
}

describe('ibd-reader --page-map and --page N', () => {
  let server: MariadbServer;
  let dir: string;
  /** The export (with its .frm), the .ibd alone in a folder of its own, its CREATE TABLE. */
  let ibd: string;
  let alone: string;
  let sql: string;
  let roots: { id: string; page: number }[];
  let pages: number;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb();
    dir = mkdtempSync(join(tmpdir(), 'ibd-cli-page-'));
    await server.exec(`CREATE TABLE pages (id INT PRIMARY KEY, name VARCHAR(40), amount DECIMAL(10,2), KEY kn (name)) ENGINE=InnoDB;
      INSERT INTO pages SELECT seq, CONCAT('name ', seq), seq / 8 FROM seq_1_to_8000;`);
    ibd = await server.exportTable('pages');
    alone = join(dir, 'alone', 'pages.ibd');
    mkdirSync(dirname(alone));
    copyFileSync(ibd, alone);
    sql = join(dir, 'pages.sql');
    writeFileSync(sql, (await server.query('SHOW CREATE TABLE pages')).rows[0][1] as string);
    roots = (await server.query("SELECT i.INDEX_ID, i.PAGE_NO FROM information_schema.INNODB_SYS_INDEXES i JOIN information_schema.INNODB_SYS_TABLES t USING (TABLE_ID) WHERE t.NAME = 'test/pages' ORDER BY i.INDEX_ID")).rows.map(([id, page]) => ({ id: id as string, page: Number(page) }));
    pages = Number((await server.query("SELECT FILE_SIZE FROM information_schema.INNODB_SYS_TABLESPACES WHERE NAME = 'test/pages'")).rows[0][0]) / 16384;
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('--page-map --format ndjson: a line per page, the roots where the server has them', () => {
    const run = cli(alone, '--page-map', '--format', 'ndjson');
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as PageMapEntry);
    expect(lines.map((l) => l.page)).toEqual(Array.from({ length: pages }, (_, i) => i));
    for (const root of roots) expect([lines[root.page].typeName, lines[root.page].indexId, lines[root.page].state]).toEqual(['INDEX', root.id, 'valid']);
    const leaves = lines.filter((l) => l.indexId === roots[0].id && l.level === 0);
    expect(leaves.reduce((n, l) => n + (l.records ?? 0), 0)).toBe(8000);
    expect(leaves.every((l) => l.fill !== null && l.fill > 0 && l.fill < 1)).toBe(true);
    expect(run.stderr).toMatch(new RegExp(`^${'pages.ibd'}: ${pages} pages \\(16 KB\\): \\d+ valid`));
  });

  it('--page-map as text: a header, then a line per page', () => {
    const run = cli(alone, '--page-map');
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s+/).filter(Boolean)).toEqual(['page', 'state', 'type', 'index', 'level', 'records', 'fill', 'lsn']);
    expect(lines).toHaveLength(pages + 1);
    const root = lines[1 + roots[0].page].trim().split(/\s+/);
    expect(root.slice(0, 4)).toEqual([String(roots[0].page), 'valid', 'INDEX', roots[0].id]);
  });

  it('--page N --format ndjson: the records of a leaf page with the server\'s rows, or without values', async () => {
    const map = cli(alone, '--page-map', '--format', 'ndjson').stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as PageMapEntry);
    const leaf = map.filter((l) => l.indexId === roots[0].id && l.level === 0)[3].page;
    for (const args of [[alone, '--schema', sql], [ibd]]) {
      const run = cli(...args, '--page', String(leaf), '--format', 'ndjson');
      expect(run.status, run.stderr).toBe(0);
      const p = JSON.parse(run.stdout) as PageJson;
      expect([p.page, p.state, p.typeName, p.problems, p.bytes.length]).toEqual([leaf, 'valid', 'INDEX', [], 2 * 16384]);
      const records = p.index?.records.filter((r) => r.reached === 'list') ?? [];
      expect(records).toHaveLength(p.index?.header.nRecs ?? -1);
      const ids = records.map((r) => r.values?.[0]);
      const rows = (await server.query(`SELECT * FROM pages WHERE id IN (${ids.join(',')}) ORDER BY id`)).rows;
      expect(records.map((r) => r.values)).toEqual(rows);
      expect(p.index?.columns).toEqual(['id', 'name', 'amount']);
    }
    const bare = JSON.parse(cli(alone, '--page', String(leaf), '--format', 'ndjson').stdout) as PageJson;
    expect(bare.index?.records.every((r) => r.values === null)).toBe(true);
    expect(bare.index?.columns).toBeNull();
  });

  it('--page N as text: the structures, the records and a labelled hex dump', () => {
    const run = cli(ibd, '--page', String(roots[0].page));
    expect(run.status, run.stderr).toBe(0);
    for (const part of ['FIL header', 'INDEX page header', 'FIL trailer', 'records: ', 'page directory', 'legend: F FIL header']) expect(run.stdout).toContain(part);
    expect(run.stdout).toMatch(new RegExp(`PAGE_INDEX_ID\\s+${roots[0].id}`));
    expect(run.stdout).toMatch(/child page \d+/);
    const p0 = cli(ibd, '--page', '0');
    expect(p0.stdout).toContain('FSP header');
    expect(p0.stdout).toMatch(new RegExp(`FSP_SIZE\\s+${pages}`));
  });

  it('a file cut short: its missing pages listed and described, exit status 2', () => {
    const cutAt = Math.floor(pages / 2);
    const cut = join(dir, 'cut', 'pages.ibd');
    mkdirSync(dirname(cut));
    writeFileSync(cut, readFileSync(alone).subarray(0, cutAt * 16384));
    const run = cli(cut, '--page-map', '--format', 'ndjson');
    expect(run.status).toBe(2);
    const states = run.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as PageMapEntry).state);
    expect(states).toHaveLength(pages);
    expect(states.slice(cutAt).every((s) => s === 'missing')).toBe(true);
    expect(states.slice(0, cutAt).includes('missing')).toBe(false);
    expect(run.stderr).toMatch(/the file is cut at page/);
    const missing = cli(cut, '--page', String(pages - 1));
    expect(missing.status).toBe(2);
    expect(missing.stdout).toMatch(new RegExp(`page ${pages - 1}: .*, missing`));
    const beyond = cli(cut, '--page', String(pages + 10));
    expect(beyond.status).toBe(1);
    expect(beyond.stderr).toMatch(/there is no page/);
    expect(cli(cut, '--page', 'x').status).toBe(64);
  });
});
