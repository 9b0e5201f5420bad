/**
 * Makes the bundled sample: `npm run sample` (vitest with scripts/sample.vitest.config.ts; not part of
 * `npm test`). A private MariaDB (test/harness/mariadb.ts, the server's defaults: full_crc32 checksums,
 * DYNAMIC rows, 16K pages) creates and fills an `employees` table with 300 deterministic, realistic
 * rows — accented and non-Latin names, e-mails, dates, DECIMAL salaries, NULLs, emoji, a few long
 * notes, a binary badge code — and writes:
 *
 *   public/sample/employees.ibd         the table file (FLUSH TABLES … FOR EXPORT)
 *   public/sample/employees.sql         its SHOW CREATE TABLE
 *   test/fixtures/sample-employees.csv  the server's own SELECT * … ORDER BY id, as the page's CSV
 *                                       (src/core/writers/output.ts defaults): the browser test's truth
 *
 * The files are committed; run this again only to change the sample.
 */
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { csvHeader, csvRows } from '../src/core/writers/output.ts';
import { startMariadb } from '../test/harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '..');
const ROWS = 300;

const FIRST = [
  'José', 'Zoë', 'Łukasz', 'Ngozi', 'Søren', 'Chloé', 'Björn', 'Aiko', 'François', 'Małgorzata',
  'Siobhán', 'Mehmet', 'Priya', 'Olumide', 'Ana', 'Dmitri', 'Ingrid', 'Mateus', 'Leïla', 'Hiroshi',
  'Nguyễn', 'Fatima', 'Carlos', 'Astrid', 'Yusuf', 'Emma', 'Liam', 'Sofía', 'Noah', 'Mia',
];
const LAST = [
  'García', 'Müller', "O'Brien", 'Dvořák', 'Nakamura', 'Kowalski', 'Okafor', 'Johansson', 'Dubois',
  'Rossi', 'Şahin', 'Patel', 'Silva', 'Ivanova', 'Van der Berg', 'Nørgaard', 'Papadopoulos', 'Kim',
  'Ferreira', 'Haddad', 'Smith', 'Tanaka', 'Lefèvre', 'Öztürk', 'Novák', 'Andersen', 'Costa', 'Lee',
];
const DEPARTMENTS = ['Engineering', 'Sales', 'Support', 'Finance', 'Marketing', 'People', 'Legal', 'Research & Development'];
const NOTES: (string | null)[] = [
  null,
  'Team lead since 2021.',
  'Prefers e-mail over phone 📧',
  'Remote — works from Lisbon 🇵🇹',
  '',
  'Speaks German, French and Italian.',
  null,
  'Mentor for new hires 🚀',
  'On parental leave until next quarter.',
  'Quote: "Measure twice, cut once."',
  'Line one\nLine two: notes can hold line breaks.',
  null,
];
const LONG_NOTE =
  'Annual review: consistently exceeds expectations. Led the migration of the billing service to the new ' +
  'platform, mentored three junior engineers, and presented at two internal conferences. Areas to grow: ' +
  'delegation and cross-team planning. Agreed goals for next year: own the reliability roadmap, reduce ' +
  'on-call load by a third, and publish the runbook library. Signed off by the department head. ✅';

function sql(s: string): string {
  return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
}

function ascii(s: string): string {
  return s.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ł/g, 'l').replace(/ø/g, 'o').replace(/ş/g, 's').replace(/[^a-z]/gi, '').toLowerCase();
}

/** Deterministic pseudo-random numbers (LCG), so the sample is the same on every run. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
}

function rowsSql(): string {
  const rand = rng(20240229);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const values: string[] = [];
  for (let id = 1; id <= ROWS; id++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const email = `${ascii(first)}.${ascii(last)}${id}@example.com`;
    const year = 2008 + Math.floor(rand() * 17);
    const hire = `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
    const salary = (38000 + Math.floor(rand() * 1400) * 100 + (id % 4) * 0.25).toFixed(2);
    const dept = pick(DEPARTMENTS);
    const manager = id <= 8 ? 'NULL' : String(1 + Math.floor(rand() * 8));
    const note = id % 37 === 0 ? LONG_NOTE : NOTES[id % NOTES.length];
    const active = id % 23 === 0 ? 0 : 1;
    const login =
      id % 11 === 0
        ? 'NULL'
        : `'2024-${String(1 + (id % 12)).padStart(2, '0')}-${String(1 + (id % 28)).padStart(2, '0')} ${String(id % 24).padStart(2, '0')}:${String((id * 7) % 60).padStart(2, '0')}:${String((id * 13) % 60).padStart(2, '0')}.${String((id * 37) % 1000).padStart(3, '0')}'`;
    const badge = `0x${(0xa5000000 + id * 2654435761).toString(16).slice(-8).toUpperCase()}`;
    values.push(
      `(${id}, ${sql(first)}, ${sql(last)}, ${sql(email)}, '${hire}', ${salary}, ${sql(dept)}, ${manager}, ${active}, ${login}, ${note === null ? 'NULL' : sql(note)}, ${badge})`,
    );
  }
  return `INSERT INTO employees VALUES\n${values.join(',\n')};`;
}

const CREATE = `CREATE TABLE employees (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT,
  first_name VARCHAR(50) NOT NULL,
  last_name VARCHAR(50) NOT NULL,
  email VARCHAR(120) NOT NULL,
  hire_date DATE NOT NULL,
  salary DECIMAL(10,2) NOT NULL,
  department VARCHAR(40) NOT NULL,
  manager_id INT UNSIGNED NULL,
  is_active TINYINT(1) NOT NULL DEFAULT 1,
  last_login DATETIME(3) NULL,
  notes TEXT NULL,
  badge_code VARBINARY(8) NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uq_email (email),
  KEY idx_department (department, last_name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci COMMENT='ibd-reader sample'`;

it('writes public/sample/employees.{ibd,sql} and test/fixtures/sample-employees.csv', async () => {
  const db = await startMariadb();
  try {
    await db.exec(`${CREATE};\n${rowsSql()}`);
    const all = await db.query('SELECT * FROM employees ORDER BY id');
    expect(all.rows).toHaveLength(ROWS);
    const create = (await db.query('SHOW CREATE TABLE employees')).rows[0][1];
    const ibd = await db.exportTable('employees');

    const sampleDir = join(ROOT, 'public', 'sample');
    mkdirSync(sampleDir, { recursive: true });
    copyFileSync(ibd, join(sampleDir, 'employees.ibd'));
    chmodSync(join(sampleDir, 'employees.ibd'), 0o644);
    writeFileSync(
      join(sampleDir, 'employees.sql'),
      `-- ibd-reader sample: SHOW CREATE TABLE of the table in employees.ibd (MariaDB 10.11, server defaults)\n${create};\n`,
    );
    const fixtures = join(ROOT, 'test', 'fixtures');
    mkdirSync(fixtures, { recursive: true });
    writeFileSync(join(fixtures, 'sample-employees.csv'), csvHeader(all.columns) + csvRows(all.rows));
  } finally {
    await db.stop();
  }
});
