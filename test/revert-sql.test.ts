/**
 * The statement reverting one transaction's change of a row (core/writers/revert-sql.ts), from the
 * row's versions newest first: the cases a server test does not reach (a version whose earlier one is
 * lost, a row inserted and deleted by the same transaction, several later writers).
 */
import { describe, expect, it } from 'vitest';
import { revertRow, type RevertTable, type RowVersion } from '../src/core/writers/revert-sql.ts';

const table: RevertTable = {
  name: 't',
  columns: [{ name: 'id', kind: 'number', insert: true }, { name: 'name', kind: 'string', insert: true }, { name: 'total', kind: 'number', insert: false }],
  key: [0],
  unique: [],
};
const uniqueName: RevertTable = { ...table, unique: [1] };
const v = (trxId: number, state: string, name: string | null): RowVersion => ({ trxId, state, values: ['7', name, '1'] });

describe('revertRow', () => {
  it('an update: the changed columns back, generated ones left to the server', () => {
    expect(revertRow(table, [v(20, 'live', "o'new"), v(5, 'live', 'old')], 20)).toEqual({ kind: 'update', sql: "UPDATE `t` SET `name` = 'old' WHERE `id` = 7;\n" });
  });

  it('an update of a UNIQUE secondary key\'s column: an UPDATE, or the row deleted with the DELETEs and inserted as it was with the INSERTs (revert-run decides)', () => {
    expect(revertRow(uniqueName, [v(20, 'live', 'b'), v(5, 'live', 'a')], 20)).toEqual({ kind: 'unique', sql: 'DELETE FROM `t` WHERE `id` = 7;\n', insert: "INSERT INTO `t` (`id`,`name`) VALUES\n(7,'a');\n", update: "UPDATE `t` SET `name` = 'a' WHERE `id` = 7;\n", before: ['7', 'a', '1'], after: ['7', 'b', '1'] });
    expect(revertRow(uniqueName, [v(30, 'live', 'c'), v(20, 'live', 'b'), v(5, 'live', 'a')], 20)).toMatchObject({ kind: 'move', sql: expect.stringMatching(/^-- not run: transaction 30 [^\n]*\n-- DELETE FROM/), insert: expect.stringMatching(/\n-- INSERT INTO[^\n]*\n-- \(7,'a'\);\n$/) });
  });

  it('a row it did not change, or inserted and deleted again: no statement', () => {
    expect(revertRow(table, [v(20, 'live', 'a'), v(5, 'live', 'b')], 30)).toBeNull();
    expect(revertRow(table, [v(20, 'delete-marked', 'a')], 20)).toBeNull();
  });

  it('a delete of a row it had updated: the row before both, inserted', () => {
    const r = revertRow(table, [v(20, 'delete-marked', 'mid'), v(20, 'live', 'mid'), v(5, 'live', 'first')], 20);
    expect(r).toEqual({ kind: 'insert', sql: "INSERT INTO `t` (`id`,`name`) VALUES\n(7,'first');\n" });
  });

  it('its version with the earlier one lost: no statement, the row named', () => {
    expect(revertRow(table, [v(30, 'live', 'x'), v(20, 'history-lost', 'y')], 20)).toEqual({ kind: 'lost', key: 'id=7' });
  });

  it('later writers: the statement commented out, line by line, naming each', () => {
    const r = revertRow(table, [v(40, 'live', 'd'), v(30, 'live', 'c'), v(20, 'delete-marked', 'b'), v(5, 'live', 'a')], 20);
    expect(r).toEqual({ kind: 'insert', sql: "-- not run: transactions 40, 30 changed this row after 20; this would undo their changes too:\n-- INSERT INTO `t` (`id`,`name`) VALUES\n-- (7,'a');\n" });
  });
});
