/** The results as one Markdown document: printed at the end and written to a file. */
import type { Machine } from './system.ts';

export interface ToolRow {
  tool: string;
  /** Ours are compared with the references. */
  kind: 'ours' | 'reference';
  /** Seconds for the whole job (null: failed or not run). */
  wallS: number | null;
  /** Rows (or tables) that `wallS` covers, when not the whole dataset. */
  rowsCovered?: number;
  firstRowsS?: number | null;
  exactCountS?: number | null;
  peakMemMb?: number | null;
  /** What the memory figure is, when not the process's max RSS. */
  memNote?: string;
  cpuS?: number | null;
  outputBytes?: number | null;
  /** How the output was checked, or why the row failed. */
  check: string;
  ok: boolean;
}

export interface DatasetReport {
  name: string;
  description: string;
  rows: number;
  /** 'rows' or 'tables' (for `many`, one row per table). */
  unit: 'rows' | 'tables';
  ibdBytes: number;
  ibdFiles: number;
  prep: string;
  tools: ToolRow[];
  notes: string[];
}

export interface Report {
  machine: Machine;
  loadBefore: string;
  loadAfter: string;
  totalS: number;
  partial: string | null;
  datasets: DatasetReport[];
}

const num = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const secs = (s: number | null | undefined) => (s === null || s === undefined ? '—' : s < 10 ? `${num(s, 2)} s` : `${num(s, 1)} s`);
const mb = (bytes: number) => `${num(bytes / 1e6, bytes < 1e7 ? 1 : 0)} MB`;

function rate(amount: number, s: number | null): string {
  if (s === null || s <= 0) return '—';
  const r = amount / s;
  return r >= 100 ? num(r) : num(r, 1);
}

/** "2.1× faster" / "1.4× slower" of `ours` against `ref`. */
export function ratio(oursS: number, refS: number): string {
  const r = refS / oursS;
  if (r > 0.95 && r < 1.05) return 'about as fast';
  return r >= 1 ? `${num(r, r < 10 ? 1 : 0)}× faster` : `${num(1 / r, 1 / r < 10 ? 1 : 0)}× slower`;
}

function datasetSection(d: DatasetReport): string {
  const out: string[] = [];
  out.push(`### ${d.name}: ${d.description}`);
  out.push('');
  out.push(`${num(d.rows)} ${d.unit}, ${d.ibdFiles === 1 ? '' : `${num(d.ibdFiles)} files, `}${mb(d.ibdBytes)} of .ibd. Data: ${d.prep}.`);
  out.push('');
  out.push(`| Tool | Wall | .ibd MB/s | ${d.unit}/s | First rows | Exact count | Peak memory | CPU | Output | Check |`);
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const t of d.tools) {
    const covered = t.rowsCovered ?? d.rows;
    const share = covered / d.rows;
    const mem = t.peakMemMb === null || t.peakMemMb === undefined ? '—' : `${num(t.peakMemMb)} MB${t.memNote ? ` (${t.memNote})` : ''}`;
    out.push(
      `| ${t.tool} | ${secs(t.wallS)} | ${rate((d.ibdBytes * share) / 1e6, t.wallS)} | ${rate(covered, t.wallS)} | ${secs(t.firstRowsS)} | ${secs(t.exactCountS)} | ${mem} | ${secs(t.cpuS)} | ${t.outputBytes ? mb(t.outputBytes) : '—'} | ${t.ok ? '✓ ' : '✗ '}${t.check} |`,
    );
  }
  const refs = d.tools.filter((t) => t.kind === 'reference' && t.wallS !== null && t.ok);
  const ours = d.tools.filter((t) => t.kind === 'ours' && t.wallS !== null && t.ok);
  if (refs.length > 0 && ours.length > 0) {
    out.push('');
    for (const o of ours) {
      // Compare like with like: per row (or table) when a row covers part of the dataset.
      const perUnit = (t: ToolRow) => t.wallS! / (t.rowsCovered ?? d.rows);
      out.push(`- **${o.tool}**: ${refs.map((r) => { const x = ratio(perUnit(o), perUnit(r)); return x.startsWith('about') ? `${x} as ${r.tool}` : `${x} than ${r.tool}`; }).join(', ')}.`);
    }
  }
  if (d.notes.length > 0) {
    out.push('');
    for (const n of d.notes) out.push(`- ${n}`);
  }
  return out.join('\n');
}

export function renderReport(r: Report): string {
  const m = r.machine;
  const lines = [
    '# ibd-reader benchmark',
    '',
    `Measured ${m.date} by \`npm run bench\`${r.partial ? ` (partial run: ${r.partial})` : ''}; the whole run took ${num(r.totalS / 60, 1)} min.`,
    '',
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB RAM, ${m.os}; Node ${m.node}, MariaDB ${m.mariadb}, ${m.chromium}. ` +
      `Load average (1, 5, 15 min) ${r.loadBefore} before, ${r.loadAfter} after: other jobs shared the machine, so treat small differences as noise.`,
    '',
    'How it is measured: wall time from process start (or, for the page, from setting the files on its file input) to the',
    'output file complete; .ibd MB/s and rows/s are per wall second. The page is given the files once it has loaded and been idle',
    "a second; its first rows and exact count are timed on the page's own clock from its input's change event (the moment it has",
    'the files, as with a drop) to the DOM showing them. Peak memory is the max RSS (GNU time) of the process, worker threads',
    "included; for the page, the renderer process's own memory (RssAnon + RssShmem from /proc: it holds the workers), with its",
    "whole RSS (which adds ~110 MB of Chromium's code, mapped by every Chromium process), the page JS heap and all of Chromium's",
    'processes alongside. CPU is user + system seconds; for the server tools it adds the mariadbd time they caused.',
    'Both sides are warm: the .ibd is in the OS page cache, the table in the buffer pool (3 GB). The references are the same',
    "table in the live MariaDB the .ibd was exported from, dumped to a file on the same disk.",
  ];
  for (const d of r.datasets) lines.push('', datasetSection(d));
  return lines.join('\n') + '\n';
}

/** Where the diary of bench/results.md starts: everything from this heading on is kept by a new full run. */
const DIARY_HEADING = /^## Diary\b.*$/m;

/**
 * The text of bench/results.md after a full run: its new `report`, then the diary of `previous` (the
 * file as it was), with the report it replaces moved into the diary as its newest entry (dated by its
 * "Measured" line, its headings one level down), so that no measurement is lost.
 */
export function withDiary(report: string, previous: string | null): string {
  if (previous === null || previous.trim() === '') return report;
  const at = previous.search(DIARY_HEADING);
  const oldReport = (at < 0 ? previous : previous.slice(0, at)).trim();
  const diary = at < 0 ? '## Diary\n\nEarlier measurements, newest first.\n' : previous.slice(at);
  // Entries start at the diary's first ### heading; what comes before it is the diary's own preface.
  const first = diary.search(/^### /m);
  const preface = (first < 0 ? diary : diary.slice(0, first)).trimEnd();
  const entries = first < 0 ? '' : diary.slice(first).trimEnd();
  const when = /^Measured (\S+)/m.exec(oldReport)?.[1] ?? 'in an earlier run';
  const moved = oldReport.replace(/^(#{2,5}) /gm, '#$1 ').replace(/^# .*$/m, `### Full run, measured ${when}`);
  return `${report.trimEnd()}\n\n${preface}\n\n${moved}\n${entries ? `\n${entries}\n` : ''}`;
}
