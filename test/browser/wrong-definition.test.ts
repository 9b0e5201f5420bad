/**
 * Issue 41, item 3, on the page: `h_customers.ibd` dropped with a `h_customers.sql` that creates
 * another table, `h_orders` (MariaDB-made, ../wrong-definition-tables.ts). The page said "37 leaf
 * pages unreadable · the file is truncated … pages 262144, 327680 …" from node pointers misread with
 * the wrong key layout, and showed the .sql's row format. Now: the verdict that the definition does
 * not fit, naming the other table and the file's row format, no truncation, no rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectOwnOriginOnly, pageSteps, type Session } from './harness.ts';
import { pageTest } from './page-test.ts';
import { wrongDefinitionFiles } from '../wrong-definition-tables.ts';

describe('another table\'s definition for a file, on the page', () => {
  let session: Session;
  let page: Page;
  let files: Awaited<ReturnType<typeof wrongDefinitionFiles>>;
  const env = pageTest('wrong-definition', { mariadb: { checksum: 'crc32' } });
  const { open, waitForTable } = pageSteps(() => page);

  beforeAll(async () => {
    ({ session, page } = env);
    files = await wrongDefinitionFiles(env.db, env.work);
  }, 240_000);

  it('gives the definition\'s verdict, what differs, the file\'s row format, and no truncation', async () => {
    await open([files.ibd, files.wrongSql]);
    await waitForTable('h_customers', 'error');
    const error = page.getByTestId('error');
    expect(await error.getAttribute('data-mismatch')).toBe('true');
    const text = await error.innerText();
    expect(text).toContain('the definition is of table `h_orders`, but the file is named for `h_customers`');
    expect(text).toContain("it gives ROW_FORMAT=COMPACT, but the file's records are DYNAMIC");
    expect(await page.getByTestId('row-format').innerText()).toBe('DYNAMIC');
    // (after the summary's checksum scan of every page)
    await page.getByText(/all [\d,]+ pages match/).waitFor();
    const view = await page.getByTestId('table-view').innerText();
    expect(view).not.toMatch(/truncated|cut at page|past the end|unreadable/i);
    expect(await page.locator('[data-row]').count()).toBe(0);
    expectOwnOriginOnly(session);
  });
});
