/**
 * Data dictionary features the MySQL 8.0.18 fixture files do not use, on dictionary objects shaped
 * like the fixtures' own (tb01's JSON with columns and keys added): INVISIBLE columns, generated
 * columns, expression defaults, functional key parts, CHECK constraints, instantly added/dropped
 * columns and a pre-5.6 DATETIME. The rebuilt CREATE TABLE must parse back to the same definition.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { readSdiRecords, sdiTableDef, type DdTable } from '../../src/core/definitions/sdi/index.ts';
import type { DdColumn } from '../../src/core/definitions/sdi/sdi-table.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';

const ROOT = join(import.meta.dirname, '../fixtures/mysql-testsuite');

async function tb01(): Promise<DdTable> {
  const ts = await Tablespace.open(bytesSource(readFileSync(join(ROOT, 'mysql80/simple/tb01.ibd')), 'tb01.ibd'));
  const record = (await readSdiRecords(ts))!.find((r) => r.type === 1)!;
  return (JSON.parse(record.json) as { dd_object: DdTable }).dd_object;
}

/** A column like tb01's `a` (BIGINT NOT NULL) with the given changes. */
function like(base: DdColumn, changes: Partial<DdColumn>): DdColumn {
  return { ...structuredClone(base), ...changes };
}

describe('SDI table objects', () => {
  it('invisible, generated, expression defaults, functional keys, checks', async () => {
    const dd = await tb01();
    const a = dd.columns[1];
    const hiddenAt = dd.columns.findIndex((c) => c.name === 'DB_TRX_ID');
    const added: DdColumn[] = [
      like(a, { name: 'inv', hidden: 4, is_nullable: true, has_no_default: false, default_value_utf8_null: false, default_value_utf8: '7', column_type_utf8: 'bigint(20)' }),
      like(a, { name: 'gen', is_virtual: true, is_nullable: true, generation_expression_utf8: '(`a` * 2)', column_type_utf8: 'bigint(20)' }),
      like(a, { name: 'gst', is_virtual: false, is_nullable: true, generation_expression_utf8: '(`a` + 1)', column_type_utf8: 'bigint(20)' }),
      like(a, { name: 'exd', is_nullable: true, has_no_default: false, default_option: 'rand()', column_type_utf8: 'bigint(20)' }),
      like(a, { name: 'dt55', type: 13, column_type_utf8: 'datetime', datetime_precision: 0, datetime_precision_null: 0, is_unsigned: false }),
      // the hidden virtual column behind a functional key part
      like(a, { name: '!hidden!fk!0!0', hidden: 3, is_virtual: true, generation_expression_utf8: '(`b` + 1)', column_type_utf8: 'bigint(20)' }),
    ];
    dd.columns.splice(hiddenAt, 0, ...added);
    const opx = (name: string) => dd.columns.findIndex((c) => c.name === name);
    dd.indexes.push({
      name: 'fk', hidden: false, type: 3, comment: 'functional', elements: [
        { column_opx: opx('!hidden!fk!0!0'), length: 8, order: 2, hidden: false },
        { column_opx: opx('b'), length: 40, order: 3, hidden: false },
      ],
    });
    dd.check_constraints = [{ name: 'tb01_chk_1', state: 1, check_clause_utf8: '(`a` > 0)' }];
    const def = sdiTableDef(dd);
    expect(def.warnings).toEqual([]);
    const t = def.table;
    expect(t.columns.map((c) => c.name)).toEqual(['id', 'a', 'b', 'c', 'inv', 'gen', 'gst', 'exd', 'dt55']);
    expect(t.columns.find((c) => c.name === 'inv')).toMatchObject({ invisible: true, defaultSql: "'7'" });
    expect(t.columns.find((c) => c.name === 'gen')?.generated).toBe('virtual');
    expect(t.columns.find((c) => c.name === 'gst')?.generated).toBe('stored');
    expect(t.columns.find((c) => c.name === 'exd')?.defaultSql).toBe('(rand())');
    expect(t.columns.find((c) => c.name === 'dt55')).toMatchObject({ type: 'datetime', legacyTemporal: true });
    // b is VARCHAR(64) utf8mb4: 40 bytes are a 10-character prefix
    expect(t.indexes.find((i) => i.name === 'fk')).toEqual({ name: 'fk', kind: 'key', columns: [{ name: 'b', prefix: 10, descending: true }] });
    expect(t.createSql).toContain('  `inv` bigint(20) DEFAULT \'7\' /*!80023 INVISIBLE */,\n');
    expect(t.createSql).toContain('  `gen` bigint(20) GENERATED ALWAYS AS ((`a` * 2)) VIRTUAL,\n');
    expect(t.createSql).toContain('  `dt55` datetime /* 5.5 binary format */ NOT NULL,\n');
    expect(t.createSql).toContain("  KEY `fk` (((`b` + 1)),`b`(10) DESC) COMMENT 'functional',\n");
    expect(t.createSql).toContain('  CONSTRAINT `tb01_chk_1` CHECK ((`a` > 0))\n');
    const reparsed = parseCreateTables(t.createSql)[0];
    expect(reparsed.columns.map((c) => ({ ...c, collation: '' }))).toEqual(t.columns.map((c) => ({ ...c, collation: '' })));
  });

  it('instant ALTERs: a column added with its default is no warning (older rows show the default); one without, or a dropped one, is', async () => {
    const dd = await tb01();
    const a = dd.columns[1];
    dd.columns.push(
      like(a, { name: 'late', is_nullable: true, se_private_data: 'default_null=1;physical_pos=5;table_id=1063;version_added=1;' }),
      like(a, { name: 'later', se_private_data: 'default=8000000000000007;physical_pos=6;table_id=1063;version_added=2;' }),
      like(a, { name: 'bare', se_private_data: 'physical_pos=7;table_id=1063;version_added=3;' }),
      like(a, { name: '!hidden!_dropped_v2_p3_old', hidden: 2, se_private_data: 'physical_pos=3;table_id=1063;version_dropped=2;' }),
    );
    const def = sdiTableDef(dd);
    expect(def.table.columns.map((c) => c.name)).toEqual(['id', 'a', 'b', 'c', 'late', 'later', 'bare']);
    expect(def.warnings).toEqual([
      'column `bare` was added with ALGORITHM=INSTANT, but the data dictionary gives no default for it: rows written before that show NULL in it',
      'column `!hidden!_dropped_v2_p3_old` was dropped with ALGORITHM=INSTANT; rows written before the drop still hold its values, which are left out as the server leaves them out',
    ]);
  });

  it('an unknown collation or type is a clear error', async () => {
    const dd = await tb01();
    dd.columns[2].collation_id = 9999;
    expect(() => sdiTableDef(dd)).toThrow('column `b` has the unknown collation id 9999');
    const dd2 = await tb01();
    dd2.columns[1].type = 99;
    expect(() => sdiTableDef(dd2)).toThrow('column `a` has the unknown data dictionary type 99 (bigint(20))');
  });
});
