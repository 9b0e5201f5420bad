/**
 * Spatial columns: every cell equals the server's ST_AsText() led by its ST_SRID() when that is not 0
 * (`SRID=4326;POINT(1 2)`), for every geometry type, nested and empty collections, awkward coordinates
 * and a column declared REF_SYSTEM_ID=4326; the SQL export of the rows, loaded into the server, gives
 * back the same stored bytes (SRID + WKB) for every row, -0 coordinates included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { geometryToWkt, renderGeometry } from '../../src/core/values/geometry.ts';
import { sqlColumns, sqlInserts } from '../../src/core/writers/output.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { decodeMarkingLegacy, ewkt } from '../types/compare.ts';
import { inserts } from './random-data.ts';
import { geometry } from '../types/values.ts';

const EDGES = [
  "ST_GeomFromText('POINT(0.1 -5)', 4326)", "ST_GeomFromText('POINT(1e20 1e-20)')", "ST_GeomFromText('POINT(123456789012345680 -0.000001)')",
  "ST_GeomFromText('POINT(1e300 -1e-300)')", "ST_GeomFromText('POINT(5e-324 1.7976931348623157e308)')", "ST_GeomFromText('POINT(-112.8185647 49.6999986)', 4326)",
  "ST_GeomFromText('POINT(0.30000000000000004 1234567.8901234567)', 3857)", "ST_GeomFromText('POINT(-1e15 1e16)')",
  "ST_GeomFromText('GEOMETRYCOLLECTION(POINT(1 2),GEOMETRYCOLLECTION(LINESTRING(0 0,1 1)),MULTIPOINT(1 1,2 2))')",
  "ST_GeomFromText('POLYGON((0 0,10 0,10 10,0 10,0 0),(1 1,2 1,2 2,1 1))')", "ST_GeomFromText('MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((5 5,6 5,6 6,5 5)))')",
  "ST_GeomFromText('MULTILINESTRING((0 0,-1.5 2.25),(3 3,4 4,5 5))', 4326)", "ST_GeomFromText('GEOMETRYCOLLECTION EMPTY')",
  "ST_GeomFromText('GEOMETRYCOLLECTION EMPTY', 4326)", "ST_GeomFromText('GEOMETRYCOLLECTION(MULTIPOLYGON(((0 0,1 0,1 1,0 0))),POINT(-7 7))', 4326)",
  'NULL',
];

describe('geometry as WKT, against ST_AsText and ST_SRID', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('every geometry type, random and edge coordinates, a REF_SYSTEM_ID=4326 column; the SQL export loads back the same bytes', async () => {
    const random = geometry('geometry');
    const point = geometry('point');
    let edge = 0;
    const gen = (r: () => number) => (edge < EDGES.length ? EDGES[edge++] : random(r));
    const located = (r: () => number) => point(r).replace(/, \d+\)$/, ', 4326)');
    await server.exec('CREATE TABLE geo (id INT PRIMARY KEY, g GEOMETRY, p POINT REF_SYSTEM_ID=4326);' + inserts('geo', ['id', 'g', 'p'], [gen, located], 400, 7));
    const ddl = (await server.query('SHOW CREATE TABLE geo')).rows[0][1] as string;
    const { reader, rows } = await decodeMarkingLegacy(await server.exportTable('geo'), ddl);
    expect(reader.stats.problems).toEqual([]);
    const expected = (await server.query(`SELECT id, ${ewkt('g')}, ${ewkt('p')} FROM geo ORDER BY id`)).rows;
    expect(rows).toEqual(expected);
    expect(rows[5][1]).toBe('SRID=4326;POINT(-112.8185647 49.6999986)');

    // The rows as the page's SQL export writes them, loaded into a copy of the table.
    await server.exec('CREATE TABLE geo_back LIKE geo;' + sqlInserts('geo_back', sqlColumns(parseCreateTables(ddl)[0], reader.columns), rows));
    const stored = (t: string) => server.query(`SELECT id, HEX(g), HEX(p), HEX(ST_AsBinary(g)) FROM ${t} ORDER BY id`);
    expect((await stored('geo_back')).rows).toEqual((await stored('geo')).rows);
  });

  it('-0 keeps its sign (ST_AsText prints 0), so the SQL export loads back the same bytes', async () => {
    await server.exec("CREATE TABLE zero (id INT PRIMARY KEY, g GEOMETRY); INSERT INTO zero VALUES (1, ST_GeomFromText('POINT(-0 0.5)')), (2, ST_GeomFromText('LINESTRING(0 -0,-0 1)', 4326));");
    const ddl = (await server.query('SHOW CREATE TABLE zero')).rows[0][1] as string;
    const { reader, rows } = await decodeMarkingLegacy(await server.exportTable('zero'), ddl);
    expect(rows).toEqual([['1', 'POINT(-0 0.5)'], ['2', 'SRID=4326;LINESTRING(0 -0,-0 1)']]);
    await server.exec('CREATE TABLE zero_back LIKE zero;' + sqlInserts('zero_back', sqlColumns(parseCreateTables(ddl)[0], reader.columns), rows));
    const stored = (t: string) => server.query(`SELECT id, HEX(g) FROM ${t} ORDER BY id`);
    expect((await stored('zero_back')).rows).toEqual((await stored('zero')).rows);
  });

  it('says what is wrong with bytes that are not a geometry, and never shows them as one', () => {
    expect(() => geometryToWkt(new Uint8Array(6), 0, 6)).toThrow(/too few/);
    expect(() => geometryToWkt(Uint8Array.from([0, 0, 0, 0, 1, 9, 0, 0, 0]), 0, 9)).toThrow(/unknown WKB geometry type 9/);
    expect(() => geometryToWkt(Uint8Array.from([0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0]), 0, 11)).toThrow(/ends early/);
    const nan = Uint8Array.from([0xe6, 0x10, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(renderGeometry(nan, 0, nan.length)).toBe('[unreadable: coordinate NaN at byte 9 is not a finite number]');
    expect(renderGeometry(nan, 0, 7)).toBe('[unreadable: 7 bytes are too few for a geometry]');
    const point = Uint8Array.from([0xe6, 0x10, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0xc0]);
    expect(renderGeometry(point, 0, point.length)).toBe('SRID=4326;POINT(1.5 -2)');
    expect(renderGeometry(Uint8Array.from([...point, 0]), 0, point.length + 1)).toBe('[unreadable: bytes follow the end of the geometry]');
  });
});
