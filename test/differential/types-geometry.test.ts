/**
 * Spatial columns: cells hold the stored SRID + WKB as hex, as SELECT returns them (the types-mariadb
 * test compares those); here the WKT helper is compared with MariaDB's ST_AsText() and ST_SRID() for
 * the same stored bytes, every geometry type, nested collections and awkward coordinates included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geometrySrid, geometryToWkt } from '../../src/core/values/geometry.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { decodeMarkingLegacy } from '../types/compare.ts';
import { inserts } from './random-data.ts';
import { geometry } from '../types/values.ts';

describe('geometry as WKT, against ST_AsText', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('every geometry type, random and edge coordinates', async () => {
    const edges = [
      "ST_GeomFromText('POINT(0.1 -0)', 4326)", "ST_GeomFromText('POINT(1e20 1e-20)')", "ST_GeomFromText('POINT(123456789012345680 -0.000001)')",
      "ST_GeomFromText('GEOMETRYCOLLECTION(POINT(1 2),GEOMETRYCOLLECTION(LINESTRING(0 0,1 1)),MULTIPOINT(1 1,2 2))')",
      "ST_GeomFromText('POLYGON((0 0,10 0,10 10,0 10,0 0),(1 1,2 1,2 2,1 1))')", "ST_GeomFromText('MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((5 5,6 5,6 6,5 5)))')",
      "ST_GeomFromText('GEOMETRYCOLLECTION EMPTY')",
    ];
    const random = geometry('geometry');
    let edge = 0;
    await server.exec(`CREATE TABLE geo (id INT PRIMARY KEY, g GEOMETRY);` + inserts('geo', ['id', 'g'], [(r) => (edge < edges.length ? edges[edge++] : random(r))], 400, 7));
    const ddl = (await server.query('SHOW CREATE TABLE geo')).rows[0][1] as string;
    const { rows } = await decodeMarkingLegacy(await server.exportTable('geo'), ddl);
    const expected = (await server.query('SELECT id, ST_AsText(g), ST_SRID(g) FROM geo ORDER BY id')).rows;
    const actual = rows.map(([id, hex]) => {
      if (hex === null) return [id, null, null];
      const b = Buffer.from(hex.slice(2), 'hex');
      return [id, geometryToWkt(b, 0, b.length), String(geometrySrid(b, 0))];
    });
    expect(actual).toEqual(expected);
  });

  it('says what is wrong with bytes that are not a geometry', () => {
    expect(() => geometryToWkt(new Uint8Array(6), 0, 6)).toThrow(/too few/);
    expect(() => geometryToWkt(Uint8Array.from([0, 0, 0, 0, 1, 9, 0, 0, 0]), 0, 9)).toThrow(/unknown WKB geometry type 9/);
    expect(() => geometryToWkt(Uint8Array.from([0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0]), 0, 11)).toThrow(/ends early/);
  });
});
