/**
 * src/core/writers/output.ts beyond the defaults: CSV options (delimiter, quote all, NULL as empty) and the
 * SQL export's literals. (The SQL export is also loaded back into MariaDB by the browser test.)
 */
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { csvHeader, csvRows, sqlColumns, sqlInserts, sqlPreamble, sqlString, sqlValue } from '../src/core/writers/output.ts';

describe('CSV options', () => {
  const rows = [['1', '', null, 'a;b', '\\N', 'say "x"']];

  it('uses another delimiter and quotes what contains it', () => {
    expect(csvRows(rows, { delimiter: ';' })).toBe('1;;\\N;"a;b";"\\N";"say ""x"""\n');
    expect(csvHeader(['a', 'b;c'], { delimiter: ';' })).toBe('a;"b;c"\n');
    expect(csvRows([['a\tb', 'c']], { delimiter: '\t' })).toBe('"a\tb"\tc\n');
  });

  it('quotes every value but never NULL', () => {
    expect(csvRows(rows, { quoteAll: true })).toBe('"1","",\\N,"a;b","\\N","say ""x"""\n');
    expect(csvHeader(['a', 'b'], { quoteAll: true })).toBe('"a","b"\n');
  });

  it('writes NULL as an empty field and quotes the empty string then', () => {
    expect(csvRows(rows, { nullAs: 'empty' })).toBe('1,"",,a;b,\\N,"say ""x"""\n');
    const parsed = Papa.parse<string[]>(csvRows(rows, { nullAs: 'empty', delimiter: ';' }), { delimiter: ';' });
    expect(parsed.data[0]).toEqual(['1', '', '', 'a;b', '\\N', 'say "x"']);
  });
});

describe('SQL export', () => {
  const [table] = parseCreateTables(`CREATE TABLE \`odd\`\`name\` (
    id INT UNSIGNED NOT NULL, d DECIMAL(10,2), f DOUBLE, s VARCHAR(20), b VARBINARY(4), bits BIT(3),
    j JSON, g INT AS (id * 2) STORED, dt DATETIME, e ENUM('a','b'),
    PRIMARY KEY (id)
  ) DEFAULT CHARSET=utf8mb4`);
  const outColumns = table.columns.map((c) => c.name);
  const cols = sqlColumns(table, outColumns);

  it('knows which literals each column takes, and leaves generated columns out', () => {
    expect(cols.map((c) => `${c.name}:${c.kind}:${c.insert}`)).toEqual([
      'id:number:true', 'd:number:true', 'f:number:true', 's:string:true', 'b:hex:true', 'bits:hex:true',
      'j:string:true', 'g:number:false', 'dt:string:true', 'e:string:true',
    ]);
  });

  it('escapes strings like mysql_real_escape_string', () => {
    expect(sqlString(`it's "q" \\ \n \r \0 \x1a`)).toBe(`'it\\'s \\"q\\" \\\\ \\n \\r \\0 \\Z'`);
    expect(sqlValue(null, 'string')).toBe('NULL');
    expect(sqlValue('-12.50', 'number')).toBe('-12.50');
    expect(sqlValue('1e+30', 'number')).toBe('1e+30');
    expect(sqlValue('0x00FF', 'hex')).toBe('0x00FF');
    expect(sqlValue('0x', 'hex')).toBe("''");
    // not what the kind promises (e.g. an unreadable value): quoted as text
    expect(sqlValue('[unreadable: x]', 'hex')).toBe("'[unreadable: x]'");
    expect(sqlValue('abc', 'number')).toBe("'abc'");
  });

  it('writes geometries as ST_GeomFromText of their WKT and SRID', () => {
    expect(sqlValue('POINT(1 -0)', 'geometry')).toBe("ST_GeomFromText('POINT(1 -0)')");
    expect(sqlValue('SRID=4326;GEOMETRYCOLLECTION EMPTY', 'geometry')).toBe("ST_GeomFromText('GEOMETRYCOLLECTION EMPTY', 4326)");
    expect(sqlValue('SRID=3857;MULTIPOINT(1 2,3 4)', 'geometry')).toBe("ST_GeomFromText('MULTIPOINT(1 2,3 4)', 3857)");
    expect(sqlValue("[unreadable: coordinate NaN at byte 9 is not a finite number]", 'geometry')).toBe("'[unreadable: coordinate NaN at byte 9 is not a finite number]'");
    expect(sqlColumns(parseCreateTables('CREATE TABLE t (id INT, p POINT, g GEOMETRY)')[0], ['id', 'p', 'g']).map((c) => c.kind)).toEqual(['number', 'geometry', 'geometry']);
  });

  it('batches rows into INSERT statements with a column list', () => {
    const rows = [
      ['1', '1.50', '0.1', "O'Brien", '0x01', '0x05', '{"a": 1}', '2', '2024-01-02 03:04:05', 'a'],
      ['2', null, null, null, null, null, null, '4', null, null],
      ['3', '-2.00', '-1e-7', '', '0x', '0x00', 'null', '6', '0000-00-00 00:00:00', 'b'],
    ];
    const sql = sqlInserts(table.name, cols, rows, 2);
    expect(sql).toBe(
      'INSERT INTO `odd``name` (`id`,`d`,`f`,`s`,`b`,`bits`,`j`,`dt`,`e`) VALUES\n' +
        "(1,1.50,0.1,'O\\'Brien',0x01,0x05,'{\\\"a\\\": 1}','2024-01-02 03:04:05','a'),\n" +
        '(2,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);\n' +
        'INSERT INTO `odd``name` (`id`,`d`,`f`,`s`,`b`,`bits`,`j`,`dt`,`e`) VALUES\n' +
        "(3,-2.00,-1e-7,'','',0x00,'null','0000-00-00 00:00:00','b');\n",
    );
    expect(sqlInserts(table.name, cols, [])).toBe('');
  });

  it('starts with the session settings and the CREATE TABLE', () => {
    const pre = sqlPreamble(table, 'odd.ibd');
    expect(pre).toContain("TIME_ZONE='+00:00'");
    expect(pre).toContain("SQL_MODE='NO_AUTO_VALUE_ON_ZERO'");
    expect(pre).toMatch(/CREATE TABLE `odd``name` \([\s\S]*\) DEFAULT CHARSET=utf8mb4;\n\n$/);
  });
});
