/**
 * bench/results.md keeps its diary when a full `npm run bench` writes a new report (bench/report.ts,
 * withDiary): the report it replaces becomes the diary's newest entry, nothing is dropped.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withDiary } from '../../bench/report.ts';

const OLD = `# ibd-reader benchmark

Measured 2026-12-01T12:38:36Z by \`npm run bench\`; the whole run took 6.7 min.

### lineitem: TPC-H LINEITEM

| Tool | Wall |
| --- | ---: |
| ibd-reader CLI | 5.35 s |

## Diary

Earlier measurements, newest first.

### 2026-11-30 19:46 UTC: the page's export

LINEITEM 13.6–14.5 s → 11.9–12.7 s.
`;

const NEW = `# ibd-reader benchmark

Measured 2026-12-02T08:00:00Z by \`npm run bench\`; the whole run took 7.0 min.

### lineitem: TPC-H LINEITEM

| Tool | Wall |
| --- | ---: |
| ibd-reader CLI | 5.10 s |
`;

describe('bench/results.md diary', () => {
  it('puts the new report on top and moves the one it replaces into the diary, dated, first', () => {
    const out = withDiary(NEW, OLD);
    expect(out.startsWith(NEW.trimEnd())).toBe(true);
    const diary = out.slice(out.indexOf('## Diary'));
    expect(diary).toContain('Earlier measurements, newest first.');
    const moved = diary.indexOf('### Full run, measured 2026-12-01T12:38:36Z');
    const older = diary.indexOf("### 2026-11-30 19:46 UTC: the page's export");
    expect(moved).toBeGreaterThan(0);
    expect(older).toBeGreaterThan(moved);
    expect(diary).toContain('#### lineitem: TPC-H LINEITEM');
    expect(diary).toContain('| ibd-reader CLI | 5.35 s |');
    expect(diary).toContain('LINEITEM 13.6–14.5 s → 11.9–12.7 s.');
    expect(out.match(/^# /gm)).toHaveLength(1);
    expect(out.match(/^## Diary/gm)).toHaveLength(1);
  });

  it('starts a diary for a file that has none, and leaves a new file as the report', () => {
    const start = withDiary(NEW, OLD.slice(0, OLD.indexOf('## Diary')));
    expect(start).toContain('## Diary');
    expect(start).toContain('### Full run, measured 2026-12-01T12:38:36Z');
    expect(withDiary(NEW, null)).toBe(NEW);
  });

  it('keeps every line of the committed bench/results.md', () => {
    const committed = readFileSync(fileURLToPath(new URL('../../bench/results.md', import.meta.url)), 'utf8');
    const out = withDiary(NEW, committed);
    const kept = new Set(out.split('\n').map((l) => l.replace(/^#+ /, '')));
    for (const line of committed.split('\n')) {
      if (line.startsWith('# ')) continue;
      expect(kept.has(line.replace(/^#+ /, '')), line).toBe(true);
    }
  });
});
