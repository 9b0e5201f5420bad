/**
 * The page inspector's problems name the bytes their checks refused (src/core/readers/page-inspect-checks.ts
 * and page-inspect.ts), on damaged copies of the bundled sample (written by MariaDB 10.11: 16 KiB
 * pages, full_crc32; leaves 6 to 9): a failed checksum refuses its checksum field, a next pointer
 * sent out of the page its two bytes, swapped directory slots theirs, a changed n_owned its byte, a
 * DATE no calendar has its three bytes; the hex view's lines mark exactly those bytes. On every page
 * of the MySQL 5.6/5.7/8.0 fixture files (intact) the same checks refuse nothing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { inspectPage } from '../src/core/readers/page-inspect.ts';
import type { ByteSpan, PageInspection } from '../src/core/readers/page-inspection.ts';
import { PageMap } from '../src/core/readers/page-map.ts';
import { summarize } from '../src/core/readers/summary.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { hexLines } from '../src/ui/pages/hex-lines.ts';
import { PAGE, SAMPLE_DIR, SAMPLE_SQL } from './ui/damaged-sample.ts';

const table = parseCreateTables(SAMPLE_SQL)[0];
const sample = new Uint8Array(readFileSync(join(SAMPLE_DIR, 'employees.ibd')));
const LEAF = 7;

const inspect = (bytes: Uint8Array, no = LEAF) => inspectPage(bytesSource(bytes, 'employees.ibd'), no, { table });
const listed = (p: PageInspection) => (p.index?.records ?? []).filter((r) => r.reached === 'list');
/** A copy of the sample with `edit` applied to page LEAF's bytes. */
function damaged(edit: (page: Uint8Array) => void): Uint8Array {
  const bytes = sample.slice();
  edit(bytes.subarray(LEAF * PAGE, (LEAF + 1) * PAGE));
  return bytes;
}
/** The problems' refused bytes, each problem's as [message start, spans]. */
const refused = (p: PageInspection) => p.problems.filter((x) => x.bytes.length > 0).map((x) => [x.message, x.bytes] as const);
/** The bytes the hex view marks refused. */
function marked(p: PageInspection): number[] {
  const out: number[] = [];
  for (const line of hexLines(p)) {
    let at = line.offset;
    for (const run of line.runs) {
      const n = run.text.length;
      if (run.refused >= 0) for (let i = 0; i < n; i++) out.push(at + i);
      at += n;
    }
  }
  return out;
}
const bytesOf = (spans: readonly ByteSpan[]) => [...new Set(spans.flatMap((s) => Array.from({ length: s.end - s.start }, (_, i) => s.start + i)))].sort((a, b) => a - b);
const CHECKSUM = { start: PAGE - 4, end: PAGE };

describe('the bytes the page inspector\'s checks refuse', () => {
  it('refuses nothing on the intact leaf', async () => {
    const p = await inspect(sample);
    expect([p.state, p.problems, marked(p)]).toEqual(['valid', [], []]);
  });

  it('a failed checksum: its checksum field (full_crc32: the last 4 bytes)', async () => {
    const p = await inspect(damaged((page) => (page[9000] ^= 0x40)));
    expect(p.state).toBe('checksum-bad');
    expect(refused(p)).toEqual([['the page fails its checksum: its bytes are not as the server wrote them', [CHECKSUM]]]);
    expect(marked(p)).toEqual(bytesOf([CHECKSUM]));
  });

  it('a next pointer out of the page: the two bytes of that pointer', async () => {
    const third = listed(await inspect(sample))[2];
    const p = await inspect(damaged((page) => {
      const rel = (PAGE - 3 - third.origin + 0x10000) & 0xffff;
      page[third.origin - 2] = rel >> 8;
      page[third.origin - 1] = rel & 0xff;
    }));
    const pointer = { start: third.origin - 2, end: third.origin };
    expect(refused(p)).toContainEqual([`the record list is broken: a record pointer points outside the page (offset ${PAGE - 3})`, [pointer]]);
    expect(marked(p)).toEqual(bytesOf([CHECKSUM, pointer]));
  });

  it('directory slots out of order: those slots; a wrong n_owned: its byte', async () => {
    const intact = await inspect(sample);
    const dir = intact.index?.directory ?? [];
    expect(dir.length).toBeGreaterThan(3);
    const slot = (i: number) => ({ start: PAGE - 8 - 2 * (i + 1), end: PAGE - 8 - 2 * i });
    const swapped = await inspect(damaged((page) => {
      const [a, b] = [slot(1), slot(2)];
      const first = page.slice(a.start, a.end);
      page.copyWithin(a.start, b.start, b.end);
      page.set(first, b.start);
    }));
    const [message, spans] = refused(swapped).find(([m]) => m.startsWith('the page directory')) ?? ['', []];
    expect(message).toContain(`slot 2 points at ${dir[1].offset}, not after the record of slot 1`);
    expect(spans).toContainEqual(slot(2));
    expect(marked(swapped)).toEqual(expect.arrayContaining(bytesOf([slot(2)])));
    const owner = dir[2].offset;
    const owned = await inspect(damaged((page) => (page[owner - 5] = (page[owner - 5] & 0xf0) | (((dir[2].owned ?? 0) + 1) & 0x0f))));
    expect(refused(owned)).toContainEqual([`the page directory does not match the record list: slot 2's record at ${owner} owns ${(dir[2].owned ?? 0) + 1} records, its group has ${dir[2].owned}`, [{ start: owner - 5, end: owner - 4 }]]);
  });

  it('a DATE no calendar has, on a damaged page: the three bytes of that field', async () => {
    const intact = await inspect(sample);
    const r = listed(intact)[5];
    const [, first, last, email] = r.values ?? [];
    // COMPACT: id (4), DB_TRX_ID (6), DB_ROLL_PTR (7), then first_name, last_name, email, hire_date (3).
    const at = r.origin + 17 + [first, last, email].reduce((n, v) => n + Buffer.byteLength(v ?? ''), 0);
    const p = await inspect(damaged((page) => page.fill(0xff, at, at + 3)));
    const hire = { start: at, end: at + 3 };
    const record = p.index?.records.find((x) => x.origin === r.origin);
    expect(record?.errorField).toEqual(hire);
    expect(record?.error).toMatch(/^field `hire_date`/);
    expect(refused(p).filter(([m]) => m.startsWith(`record at ${r.origin}:`)).map(([, b]) => b)).toEqual([[hire]]);
    expect(marked(p)).toEqual(bytesOf([CHECKSUM, hire]));
  });
});

describe('the MySQL 5.6 / 5.7 / 8.0 fixture files, intact', () => {
  const ROOT = join(import.meta.dirname, 'fixtures/mysql-testsuite');
  const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ibd') ? [p] : [];
  });

  it('no page whose checksum holds has a problem: the list, the directory, PAGE_N_RECS hold', async () => {
    // the fixtures are part of the repository: missing ones fail, never skip.
    const all = existsSync(ROOT) ? files(ROOT) : [];
    expect(all.length).toBeGreaterThan(70);
    let indexPages = 0;
    for (const path of all) {
      const bytes = new Uint8Array(readFileSync(path));
      const source = bytesSource(bytes, relative(ROOT, path));
      const map = new PageMap();
      await summarize(source, { pageMap: map });
      for (let no = 0; no < map.pageCount; no++) {
        if (map.entry(no).state !== 'valid') continue;
        const p = await inspectPage(source, no);
        expect(p.problems, `${source.name} page ${no}`).toEqual([]);
        if (p.index) indexPages++;
      }
    }
    expect(indexPages).toBeGreaterThan(100);
  }, 120_000);
});
