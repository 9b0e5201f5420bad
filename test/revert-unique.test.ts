/**
 * Which reverted updates of a UNIQUE key's column may stay UPDATEs (core/writers/revert-unique.ts):
 * a value put back collides with one a row still holds as the index compares them (case and
 * trailing spaces under a _ci collation, exactly under _bin), never through a NULL; a prefix part
 * always collides. The server's own judgement of a swap is in test/differential/undo-revert-unique.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { UniqueValues } from '../src/core/writers/revert-unique.ts';

const table = (ddl: string) => parseCreateTables(ddl)[0];
const COLUMNS = ['id', 'code', 'bin', 'n'];
const DDL = 'CREATE TABLE t (id INT PRIMARY KEY, code VARCHAR(10) COLLATE utf8mb4_general_ci, bin VARCHAR(10) COLLATE utf8mb4_bin, n INT, UNIQUE KEY (code), UNIQUE KEY (bin, n))';

describe('UniqueValues', () => {
  it('a value held under another case or with trailing spaces collides under _ci, not under _bin', async () => {
    const u = await UniqueValues.open(table(DDL), COLUMNS);
    // Row 1 went from code 'x' to 'ABC ' (bin 'k', n 1 to bin 'K', n 1): those values are held.
    u.hold(u.changed(['1', 'ABC ', 'K', '1'], ['1', 'x', 'k', '1']));
    expect(u.collides(u.changed(['2', 'abc', 'q', '1'], ['2', 'y', 'q', '1']))).toBe(true);
    expect(u.collides(u.changed(['2', 'abd', 'q', '1'], ['2', 'y', 'q', '1']))).toBe(false);
    expect(u.collides(u.changed(['2', 'y', 'k', '1'], ['2', 'y', 'q', '1']))).toBe(false);
    expect(u.collides(u.changed(['2', 'y', 'K', '1'], ['2', 'y', 'q', '1']))).toBe(true);
  });

  it('NULLs never collide; a key whose columns did not change is not looked at', async () => {
    const u = await UniqueValues.open(table(DDL), COLUMNS);
    u.hold(u.changed(['1', null, 'K', null], ['1', 'x', 'k', '1']));
    expect(u.changed(['2', null, 'K', null], ['2', 'y', 'q', '1'])).toEqual([]);
    expect(u.changed(['2', 'same', 'q', '1'], ['2', 'same', 'q', '1'])).toEqual([]);
  });

  it('a prefix part always collides', async () => {
    const u = await UniqueValues.open(table('CREATE TABLE t (id INT PRIMARY KEY, code VARCHAR(10), UNIQUE KEY (code(3)))'), ['id', 'code']);
    expect(u.collides(u.changed(['2', 'abcdef'], ['2', 'zzz']))).toBe(true);
  });
});
