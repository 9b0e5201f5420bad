/**
 * The worker methods the page reads a table through, in Node: checkDefinition's verdict on a
 * definition that does not fit, named so for the page, where the first leaf is damaged (the first
 * leaf's own decode cannot tell then).
 */
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/ddl/create-table.ts';
import { createViewerMethods } from '../../workers/viewer-methods.ts';
import { DEFINITION_MISMATCH } from '../../workers/viewer-api.ts';
import { damagedSample, PAGE } from './damaged-sample.ts';

describe('a definition that does not fit', () => {
  const wrong = parseCreateTables('CREATE TABLE employees (id INT NOT NULL, first_name VARCHAR(40) NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB;')[0];
  // The first leaf (page 6) damaged: only the next one can tell.
  const firstDamaged = damagedSample(6 * PAGE + 3000, 4096, 777);

  it('is a verdict, named so for the page, before any row', async () => {
    const viewer = createViewerMethods(() => wrong);
    await viewer.openView({ ibd: new Blob([firstDamaged]), name: 'employees.ibd', table: wrong, mode: 'live' });
    const verdict = await viewer.checkDefinition().then(() => null, (e: unknown) => e as Error);
    expect(verdict?.name).toBe(DEFINITION_MISMATCH);
    expect(verdict?.message).toMatch(/the table definition does not match the records of this file/);
  });
});
