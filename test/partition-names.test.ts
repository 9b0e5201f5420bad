/**
 * Partition names and their order (definitions/partitions.ts, sdi-table.ts): partition file names of
 * both spellings, a .par file (built here as ha_partition.cc writes one) and what makes one
 * unreadable, PARTITION BY clauses that name or count their partitions, MySQL 8's SDI partitions.
 */
import { describe, expect, it } from 'vitest';
import { ParFileError, parsePar, partitionNamesOfClause, partitionOfFile } from '../src/core/definitions/partitions.ts';
import { sdiTableDef, type DdTable } from '../src/core/definitions/sdi/sdi-table.ts';

/** A .par file: length, checksum, count, engine bytes, name length, names (NUL-terminated), words padded with zeros. */
function par(names: string[]): Uint8Array {
  const nameBytes = new TextEncoder().encode(names.map((n) => `${n}\0`).join(''));
  const engineWords = Math.ceil(names.length / 4);
  const words = 4 + engineWords + Math.ceil(nameBytes.length / 4);
  const b = new Uint8Array(4 * words);
  const view = new DataView(b.buffer);
  view.setUint32(0, words, true);
  view.setUint32(8, names.length, true);
  b.fill(12, 12, 12 + names.length);
  view.setUint32(12 + 4 * engineWords, nameBytes.length, true);
  b.set(nameBytes, 16 + 4 * engineWords);
  let sum = 0;
  for (let i = 0; i < words; i++) sum ^= view.getUint32(4 * i, true);
  view.setUint32(4, sum >>> 0, true);
  return b;
}

describe('partitions', () => {
  it('reads a partition file name in both spellings', () => {
    expect(partitionOfFile('/d/sales#P#p2019.ibd')).toEqual({ table: 'sales', partition: 'p2019' });
    expect(partitionOfFile('sales#P#p2019#SP#p2019sp1.ibd')).toEqual({ table: 'sales', partition: 'p2019#SP#p2019sp1' });
    expect(partitionOfFile('sales#p#p0#sp#p0sp0.ibd')).toEqual({ table: 'sales', partition: 'p0#SP#p0sp0' });
    expect(partitionOfFile('sales.ibd')).toBeNull();
  });

  it('reads a .par file, and refuses one that is damaged or cut', () => {
    const names = ['p0#SP#p0sp0', 'p0#SP#p0sp1', 'p1#SP#p1sp0', 'p1#SP#p1sp1', 'pmax#SP#pmaxsp0'];
    expect(parsePar(par(names))).toEqual(names);
    const damaged = par(names);
    damaged[20] ^= 1;
    expect(() => parsePar(damaged)).toThrow(ParFileError);
    expect(() => parsePar(par(names).slice(0, 20))).toThrow(/holds 20 bytes/);
  });

  it('names the partitions of a PARTITION BY clause, or counts them', () => {
    expect(partitionNamesOfClause('CREATE TABLE t (a INT) PARTITION BY HASH (a) PARTITIONS 3')).toEqual(['p0', 'p1', 'p2']);
    expect(partitionNamesOfClause('PARTITION BY RANGE (a) SUBPARTITION BY KEY (a) SUBPARTITIONS 2 (PARTITION `x``y` VALUES LESS THAN (1), PARTITION z VALUES LESS THAN MAXVALUE)'))
      .toEqual(['x`y#SP#x`ysp0', 'x`y#SP#x`ysp1', 'z#SP#zsp0', 'z#SP#zsp1']);
    expect(partitionNamesOfClause('PARTITION BY LIST (a) (PARTITION p VALUES IN (1) (SUBPARTITION s1, SUBPARTITION s2))')).toEqual(['p#SP#s1', 'p#SP#s2']);
    expect(partitionNamesOfClause('CREATE TABLE t (a INT)')).toBeNull();
  });

  it('orders MySQL 8 partitions by their number, each with its own trees and tablespace', () => {
    const index = (name: string, type: number) => ({ name, hidden: false, type, elements: [{ column_opx: 0, length: 4, order: 2, hidden: false }] });
    const part = (name: string, number: number, space: number) => ({ name, number, indexes: [{ index_opx: 0, se_private_data: `id=${100 + space};root=4;space_id=${space};` }, { index_opx: 1, se_private_data: `id=${200 + space};root=5;space_id=${space};` }] });
    const dd = {
      name: 't', collation_id: 255, mysql_version_id: 80036, partition_type: 1,
      columns: [{ name: 'a', type: 4, is_nullable: false, is_unsigned: false, hidden: 1, char_length: 11, numeric_precision: 10, numeric_scale: 0, datetime_precision: 0, column_type_utf8: 'int', collation_id: 255 }],
      indexes: [index('PRIMARY', 1), index('ka', 3)],
      partitions: [part('p1', 1, 12), part('p0', 0, 11)],
    } as unknown as DdTable;
    const def = sdiTableDef(dd);
    expect(def.partitions?.map((p) => p.name)).toEqual(['p0', 'p1']);
    expect(def.partitions?.[1]).toEqual({ name: 'p1', spaceId: 12, indexRoots: [{ name: 'PRIMARY', rootPage: 4, indexId: 112n }, { name: 'ka', rootPage: 5, indexId: 212n }] });
  });
});
