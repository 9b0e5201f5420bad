/**
 * .frm files written by a real MariaDB (the harness's private server), for tables covering every type
 * family the decoder reads, filled with random rows:
 *  (a) decoding the exported .ibd with the .frm-derived table definition gives exactly the server's
 *      rows (SELECT of the stored columns, in clustered-index order);
 *  (b) the rebuilt CREATE TABLE, run on the same server under another name, makes a table whose
 *      SHOW CREATE TABLE is the original's (modulo the name and the AUTO_INCREMENT counter, which
 *      lives in InnoDB, not in the .frm); and the text is SHOW CREATE TABLE's own;
 *  (c) the collation ids the .frm uses are the server's (every id INFORMATION_SCHEMA knows).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collationById, defaultCollation } from '../../src/core/values/collations.ts';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { readFrmBytes, type FrmTableDef } from '../../src/core/definitions/frm/index.ts';
import { resolveSchema } from '../../src/core/definitions/schema-source.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openTable, type Row } from '../../src/core/readers/table-reader.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from '../differential/decode.ts';
import { date, datetime, decimal, integer, inserts, real, rng, text, timestamp, withEdges, type Gen } from '../differential/random-data.ts';

const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const quote = (s: string) => "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
const notNull = (g: Gen, fallback: string): Gen => (r) => {
  const v = g(r);
  return v === 'NULL' ? fallback : v;
};
const bits = (n: number): Gen => withEdges((r) => `b'${Array.from({ length: n }, () => (r() < 0.5 ? '0' : '1')).join('')}'`, ["b'0'", `b'${'1'.repeat(n)}'`]);
const year: Gen = withEdges((r) => String(int(r, 1901, 2155)), ['0', '2155', '1901']);
const time = (fsp: number): Gen => withEdges((r) => {
  const frac = fsp ? '.' + Array.from({ length: fsp }, () => int(r, 0, 9)).join('') : '';
  return `'${r() < 0.3 ? '-' : ''}${String(int(r, 0, 838)).padStart(2, '0')}:${String(int(r, 0, 59)).padStart(2, '0')}:${String(int(r, 0, 59)).padStart(2, '0')}${frac}'`;
}, ["'00:00:00'", "'-838:59:59'", "'838:59:59'"]);
const member = (values: readonly string[]): Gen => withEdges((r) => quote(pick(r, values)), [quote(values[0]), quote(values[values.length - 1])]);
const members = (values: readonly string[]): Gen => withEdges((r) => quote(values.filter(() => r() < 0.3).join(',')), ["''", quote(values.join(','))]);
const bytes = (max: number): Gen => withEdges((r) => `X'${Array.from({ length: int(r, 0, max) }, () => int(r, 0, 255).toString(16).padStart(2, '0')).join('')}'`, ["X''", `X'${'ff'.repeat(max)}'`]);
const json: Gen = withEdges((r) => quote(JSON.stringify({ a: int(r, -9, 9), b: pick(r, ['x', 'é', '😀']), c: [r() < 0.5, null] })), ["'[]'", "'{}'", "'\"s\"'"]);

interface TableCase {
  name: string;
  ddl: string;
  /** The integer column that gets 1, 2, 3…; the generated columns follow it. */
  key?: string;
  columns: [string, Gen][];
  rows: number;
  /** ORDER BY of the clustered index; null for a hidden row id (a full scan is already in that order). */
  orderBy: string | null;
  /** Statements to fill the table instead of random INSERTs. */
  fill?: (seed: number) => string;
  /** Server settings the table was created under, which its copy needs too. */
  settings?: { on: string; off: string };
}

const ENUM_VALUES = ['a', 'b,c', "d'e", 'ü', 'long value with spaces'];
const SET_VALUES = Array.from({ length: 40 }, (_, i) => `m${i}`);

const CASES: TableCase[] = [
  {
    name: 'all_types',
    ddl: `CREATE TABLE all_types (
      id INT NOT NULL AUTO_INCREMENT COMMENT 'the key',
      ti TINYINT DEFAULT -5, tiu TINYINT UNSIGNED ZEROFILL DEFAULT 7, si SMALLINT NOT NULL DEFAULT -300, siu SMALLINT UNSIGNED,
      mi MEDIUMINT DEFAULT 8388607, miu MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED DEFAULT 4294967295,
      bi BIGINT DEFAULT -9223372036854775808, biu BIGINT UNSIGNED DEFAULT 18446744073709551615,
      d1 DECIMAL(10,2) DEFAULT -12.50, d2 DECIMAL(65,30), d3 DECIMAL(5,5) UNSIGNED DEFAULT 0.12345, d4 DECIMAL(18,0) ZEROFILL DEFAULT 42,
      f FLOAT DEFAULT 1.5, f2 FLOAT(7,3) DEFAULT -2.125, db DOUBLE DEFAULT -2.25e-10, db2 DOUBLE(15,5) UNSIGNED,
      c1 CHAR(10) CHARACTER SET latin1 DEFAULT 'a''b\\\\c', c2 CHAR(5) CHARACTER SET utf8mb3, c3 CHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci,
      vc1 VARCHAR(100) CHARACTER SET latin1 COLLATE latin1_bin, vc2 VARCHAR(120) CHARACTER SET utf8mb3 DEFAULT 'héllo',
      vc3 VARCHAR(300) CHARACTER SET utf8mb4 DEFAULT 'x y', vc4 VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_ai_ci,
      u2 VARCHAR(10) CHARACTER SET ucs2, bn BINARY(6), vb VARBINARY(50) DEFAULT 'bin',
      tt TINYTEXT CHARACTER SET latin1, tx TEXT, mt MEDIUMTEXT CHARACTER SET utf8mb3, lt LONGTEXT,
      tb TINYBLOB, bl BLOB, mb MEDIUMBLOB, lb LONGBLOB,
      dt DATE DEFAULT '2024-02-29', dtm0 DATETIME, dtm3 DATETIME(3) DEFAULT '2001-02-03 04:05:06.789', dtm6 DATETIME(6),
      ts0 TIMESTAMP NULL DEFAULT NULL, ts2 TIMESTAMP(2) NULL DEFAULT '2020-01-01 00:00:00.12',
      ts6 TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),
      tm0 TIME DEFAULT '-838:59:59', tm1 TIME(1), tm4 TIME(4) DEFAULT '12:00:00.5', y YEAR DEFAULT 1999,
      e1 ENUM('a','b,c','d''e','ü','long value with spaces') DEFAULT 'd''e', e2 ENUM('x','y','z') CHARACTER SET latin1 NOT NULL,
      eu ENUM('one','two') CHARACTER SET ucs2 DEFAULT 'two',
      s1 SET('x','y','z') DEFAULT 'x,z', s2 SET(${SET_VALUES.map((v) => `'${v}'`).join(',')}) DEFAULT 'm0,m39',
      b1 BIT(1) DEFAULT b'1', b9 BIT(9), b64 BIT(64) DEFAULT b'1010',
      j JSON, g INT AS (i + 1) VIRTUAL, gs VARCHAR(310) AS (concat(vc3, '!')) PERSISTENT,
      inv INT INVISIBLE DEFAULT 42, ex INT DEFAULT (1 + 1), cmt INT COMMENT 'it''s a \\\\ comment', chk INT CHECK (chk > 0),
      PRIMARY KEY (id), UNIQUE KEY uvc (vc1), KEY kp (vc3(10), dt DESC) COMMENT 'prefix key', KEY ktx (tx(30)),
      KEY hashed (i) USING HASH, FULLTEXT KEY ft (mt),
      CONSTRAINT positive CHECK (si > -1000)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='every type family'`,
    columns: [
      ['ti', integer(8, false)], ['tiu', integer(8, true)], ['si', notNull(integer(16, false), '0')], ['siu', integer(16, true)],
      ['mi', integer(24, false)], ['miu', integer(24, true)], ['i', withEdges(integer(31, false), ['-2147483648', '2147483646'])], ['iu', integer(32, true)],
      ['bi', integer(64, false)], ['biu', integer(64, true)],
      ['d1', decimal(10, 2)], ['d2', decimal(65, 30)], ['d3', (r) => decimal(5, 5)(r).replace('-', '')], ['d4', (r) => decimal(18, 0)(r).replace('-', '')],
      ['f', real(37)], ['f2', (r) => (r() * 2000 - 1000).toFixed(int(r, 0, 3))], ['db', real(307)], ['db2', (r) => (r() * 1e9).toFixed(int(r, 0, 5))],
      ['c1', text(10, 'latin1')], ['c2', text(5, 'utf8mb3')], ['c3', text(20, 'utf8mb4')],
      ['vc1', text(100, 'latin1')], ['vc2', text(120, 'utf8mb3')], ['vc3', text(300, 'utf8mb4', { longChance: 0.05 })], ['vc4', text(40, 'utf8mb4')],
      ['u2', text(10, 'utf8mb3')], ['bn', bytes(6)], ['vb', bytes(50)],
      ['tt', text(200, 'latin1')], ['tx', text(500, 'utf8mb4', { longChance: 0.05 })], ['mt', text(3000, 'utf8mb3', { longChance: 0.05 })], ['lt', text(9000, 'utf8mb4', { longChance: 0.03 })],
      ['tb', bytes(100)], ['bl', bytes(300)], ['mb', bytes(60)], ['lb', bytes(60)],
      ['dt', date()], ['dtm0', datetime(0)], ['dtm3', datetime(3)], ['dtm6', datetime(6)],
      ['ts0', timestamp(0)], ['ts2', timestamp(2)], ['ts6', notNull(timestamp(6), "'2001-01-01 00:00:00'")],
      ['tm0', time(0)], ['tm1', time(1)], ['tm4', time(4)], ['y', year],
      ['e1', member(ENUM_VALUES)], ['e2', notNull(member(['x', 'y', 'z']), "'y'")], ['eu', member(['one', 'two'])],
      ['s1', members(['x', 'y', 'z'])], ['s2', members(SET_VALUES)],
      ['b1', bits(1)], ['b9', bits(9)], ['b64', bits(64)], ['j', json],
      ['inv', integer(16, false)], ['ex', integer(16, false)], ['cmt', integer(16, false)], ['chk', withEdges((r) => String(int(r, 1, 1e6)), ['1'])],
    ],
    rows: 600,
    orderBy: 'id',
  },
  {
    name: 'composite_key',
    ddl: `CREATE TABLE composite_key (k1 VARCHAR(20) CHARACTER SET utf8mb4 NOT NULL, k2 INT NOT NULL, k3 DATE NOT NULL,
      val DECIMAL(12,3) DEFAULT 0.000, note TEXT, PRIMARY KEY (k1, k2, k3)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
    columns: [],
    rows: 0,
    orderBy: 'k1, k2, k3',
    fill: (seed) => {
      const r = rng(seed);
      const values = Array.from({ length: 800 }, (_, i) => `('key${int(r, 0, 40)}', ${int(r, -5e5, 5e5)}, '20${10 + int(r, 0, 19)}-0${int(r, 1, 9)}-1${int(r, 0, 8)}', ${r() < 0.1 ? 'NULL' : (r() * 1e6).toFixed(3)}, ${r() < 0.2 ? 'NULL' : `'n${i}'`})`);
      return `INSERT IGNORE INTO composite_key VALUES ${values.join(',')};`;
    },
  },
  {
    name: 'no_key',
    ddl: `CREATE TABLE no_key (seq INT, a VARCHAR(30), b DATETIME(6), c DOUBLE, KEY (a)) ENGINE=InnoDB DEFAULT CHARSET=latin1`,
    key: 'seq',
    columns: [['a', text(30, 'latin1')], ['b', datetime(6)], ['c', real(300)]],
    rows: 700,
    orderBy: null,
  },
  {
    name: 'unique_key',
    ddl: `CREATE TABLE unique_key (u INT NOT NULL, v VARCHAR(30) CHARACTER SET utf8mb3, w BIGINT UNSIGNED, UNIQUE KEY (u)) ENGINE=InnoDB`,
    key: 'u',
    columns: [['v', text(30, 'utf8mb3')], ['w', integer(64, true)]],
    rows: 500,
    orderBy: 'u',
  },
  {
    name: 'nullable_mix',
    ddl: `CREATE TABLE nullable_mix (id BIGINT UNSIGNED NOT NULL PRIMARY KEY,
      n1 INT DEFAULT 1, n2 VARCHAR(10) DEFAULT NULL, x1 INT NOT NULL DEFAULT 5, n3 DATE, n4 CHAR(3) DEFAULT 'abc',
      n5 DECIMAL(6,2) DEFAULT 9.99, x2 VARCHAR(5) NOT NULL DEFAULT '', n6 TIME(3), n7 ENUM('p','q') DEFAULT 'q',
      n8 SET('r','s') DEFAULT NULL, n9 YEAR, n10 BIT(3) DEFAULT b'11', x3 DATETIME NOT NULL DEFAULT '2000-01-01 00:00:00',
      n11 FLOAT, n12 DOUBLE DEFAULT 0, n13 TINYINT UNSIGNED DEFAULT 200, n14 TEXT, n15 VARBINARY(8) DEFAULT 'ab',
      n16 SMALLINT DEFAULT NULL, n17 MEDIUMINT DEFAULT -1, n18 VARCHAR(20) CHARACTER SET latin1 DEFAULT 'latin'
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_uca1400_ai_ci ROW_FORMAT=DYNAMIC`,
    columns: [
      ['n1', integer(31, false)], ['n2', text(10, 'utf8mb4')], ['x1', notNull(integer(16, false), '0')], ['n3', date()], ['n4', text(3, 'utf8mb4')],
      ['n5', decimal(6, 2)], ['x2', notNull(text(5, 'utf8mb4'), "''")], ['n6', time(3)], ['n7', member(['p', 'q'])],
      ['n8', members(['r', 's'])], ['n9', year], ['n10', bits(3)], ['x3', notNull(datetime(0), "'2000-01-01 00:00:00'")],
      ['n11', real(37)], ['n12', real(300)], ['n13', integer(8, true)], ['n14', text(100, 'utf8mb4')], ['n15', bytes(8)],
      ['n16', integer(16, false)], ['n17', integer(24, false)], ['n18', text(20, 'latin1')],
    ],
    rows: 900,
    orderBy: 'id',
  },
  {
    name: 'compact_options',
    ddl: `CREATE TABLE compact_options (id INT NOT NULL AUTO_INCREMENT, name VARCHAR(40) NOT NULL, amount DECIMAL(9,4) UNSIGNED,
      at TIMESTAMP NULL, PRIMARY KEY (id), KEY by_name (name(8), amount)) ENGINE=InnoDB AUTO_INCREMENT=1000 DEFAULT CHARSET=latin1
      ROW_FORMAT=COMPACT STATS_PERSISTENT=0 PACK_KEYS=1
      COMMENT='a comment longer than sixty characters goes to the extra segment of the frm file'`,
    columns: [['name', notNull(text(40, 'latin1'), "'x'")], ['amount', (r) => decimal(9, 4)(r).replace('-', '')], ['at', timestamp(0)]],
    rows: 500,
    orderBy: 'id',
  },
  {
    name: 'redundant_rows',
    ddl: `CREATE TABLE redundant_rows (id INT PRIMARY KEY, a CHAR(4) CHARACTER SET utf8mb3, b VARCHAR(200), c BLOB, d DATETIME(2))
      ENGINE=InnoDB ROW_FORMAT=REDUNDANT`,
    columns: [['a', text(4, 'utf8mb3')], ['b', text(200, 'utf8mb4')], ['c', bytes(100)], ['d', datetime(2)]],
    rows: 500,
    orderBy: 'id',
  },
  {
    name: 'expression_defaults',
    ddl: `CREATE TABLE expression_defaults (id INT PRIMARY KEY, a VARCHAR(36) DEFAULT uuid(), b INT DEFAULT (rand() * 10),
      c VARCHAR(10) DEFAULT concat('a','b'), d DATE DEFAULT curdate(), e DATETIME DEFAULT now(), f DOUBLE DEFAULT (-1),
      g TEXT DEFAULT '', h BLOB DEFAULT 'x\\'y', i INT DEFAULT (-5), j VARCHAR(5) DEFAULT (NULL), k DECIMAL(5,2) DEFAULT (1.5),
      l INT DEFAULT (id + 1), m DATETIME(3) DEFAULT current_timestamp(3) ON UPDATE current_timestamp(3), n DATETIME ON UPDATE now(),
      o BINARY(4) DEFAULT 'ab', p CHAR(5) DEFAULT 'x  ', q VARCHAR(8) DEFAULT 'tab\\tnl\\n', r INT NOT NULL, s BOOL DEFAULT TRUE,
      t INT UNSIGNED ZEROFILL DEFAULT 5, u BIT(4) DEFAULT 0)`,
    columns: [],
    rows: 0,
    orderBy: 'id',
    fill: () => 'INSERT INTO expression_defaults (id, r) SELECT seq, seq * 3 FROM seq_1_to_300;',
  },
  {
    name: 'old_temporals',
    // MariaDB before 10.1 (and with --mysql56-temporal-format=OFF) stores TIME/DATETIME/TIMESTAMP in
    // the MySQL 5.5 formats (no fractions) and its own 5.3 ones (with fractions)
    settings: { on: 'SET GLOBAL mysql56_temporal_format=OFF', off: 'SET GLOBAL mysql56_temporal_format=ON' },
    ddl: `SET GLOBAL mysql56_temporal_format=OFF;
      CREATE TABLE old_temporals (id INT PRIMARY KEY, t0 TIME DEFAULT '-12:34:56', t3 TIME(3) DEFAULT '100:00:00.5',
        d0 DATETIME DEFAULT '2001-02-03 04:05:06', d6 DATETIME(6) DEFAULT '1999-12-31 23:59:59.999999',
        s0 TIMESTAMP NULL DEFAULT '2020-02-29 12:00:00', s2 TIMESTAMP(2) NULL DEFAULT '2030-01-01 00:00:00.25', n INT);
      SET GLOBAL mysql56_temporal_format=ON`,
    columns: [['t0', time(0)], ['t3', time(3)], ['d0', datetime(0)], ['d6', datetime(6)], ['s0', timestamp(0)], ['s2', timestamp(2)], ['n', integer(31, false)]],
    rows: 400,
    orderBy: 'id',
  },
  {
    name: 'long_unique',
    ddl: `CREATE TABLE long_unique (t TEXT NOT NULL, n INT, UNIQUE KEY ut (t)) ENGINE=InnoDB`,
    columns: [],
    rows: 0,
    orderBy: null,
    fill: () => `INSERT INTO long_unique VALUES ${Array.from({ length: 300 }, (_, i) => `('text ${i} ${'x'.repeat(i % 50)}', ${i})`).join(',')};`,
  },
];

/** SHOW CREATE TABLE without the AUTO_INCREMENT counter, which InnoDB keeps and the .frm does not. */
function showCreate(server: MariadbServer, table: string): Promise<string> {
  return server.query(`SHOW CREATE TABLE \`${table}\``).then((r) => (r.rows[0][1] as string).replace(/ AUTO_INCREMENT=\d+/, ''));
}

async function decodeAll(ibd: Uint8Array, name: string, def: FrmTableDef): Promise<{ columns: string[]; rows: Row[]; problems: unknown[] }> {
  const reader = await openTable(bytesSource(ibd, name), def.table);
  const rows: Row[] = [];
  for await (const batch of reader.rows()) rows.push(...batch);
  return { columns: reader.columns, rows, problems: reader.stats.problems };
}

describe('.frm files written by MariaDB', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(CASES)('$name', async (c) => {
    const seed = c.name.length * 7919;
    // IGNORE: random values may repeat a UNIQUE value or fail a CHECK; those rows are left out
    const script = c.fill ? c.fill(seed) : inserts(c.name, [c.key ?? 'id', ...c.columns.map(([n]) => n)], c.columns.map(([, g]) => g), c.rows, seed).replace(/^INSERT INTO/gm, 'INSERT IGNORE INTO');
    await server.exec(`SET SESSION innodb_strict_mode=OFF; ${c.ddl}; ${script}`);
    const original = await showCreate(server, c.name);
    const ibdPath = await server.exportTable(c.name);
    const frmBytes = readFileSync(ibdPath.replace(/\.ibd$/, '.frm'));
    const ibdBytes = readFileSync(ibdPath);
    const def = readFrmBytes(frmBytes, basename(ibdPath.replace(/\.ibd$/, '.frm')));
    expect(def.flavor).toBe('mariadb');
    expect(def.engine).toBe('InnoDB');
    expect(def.warnings).toEqual([]);
    expect(def.table.name).toBe(c.name);

    // (a) the rows
    const decoded = await decodeAll(ibdBytes, basename(ibdPath), def);
    const expected = await server.query(`SELECT ${decoded.columns.map((n) => `\`${n}\``).join(', ')} FROM \`${c.name}\`${c.orderBy ? ` ORDER BY ${c.orderBy}` : ''}`);
    expect(expected.rows.length).toBeGreaterThan(100);
    expectSameRows(decoded.rows, expected.rows, `${c.name} decoded with its .frm`, decoded.columns);
    expect(decoded.problems).toEqual([]);

    // (b) the CREATE TABLE: SHOW CREATE TABLE's own text, and the same table when run
    expect(def.table.createSql).toBe(original);
    const copy = `${c.name}_copy`;
    const create = def.table.createSql.replace(`CREATE TABLE \`${c.name}\``, `CREATE TABLE \`${copy}\``);
    await server.exec(c.settings ? `${c.settings.on}; ${create}; ${c.settings.off}` : create);
    expect((await showCreate(server, copy)).replace(`CREATE TABLE \`${copy}\``, `CREATE TABLE \`${c.name}\``)).toBe(original);

    // the CREATE TABLE text and the model agree (a long UNIQUE is no InnoDB unique index: see frm-keys.ts)
    const reparsed = parseCreateTables(def.table.createSql)[0];
    expect(reparsed.columns.map((col) => ({ ...col, collation: '' }))).toEqual(def.table.columns.map((col) => ({ ...col, collation: '' })));
    if (c.name !== 'long_unique') expect(reparsed.indexes).toEqual(def.table.indexes);

    // with no .sql, the .frm beside the .ibd is the definition schema-source picks
    const resolved = await resolveSchema(bytesSource(ibdBytes, basename(ibdPath)), [bytesSource(frmBytes, basename(ibdPath).replace(/\.ibd$/, '.frm'))]);
    expect(resolved.source).toBe('frm');
    expect(resolved.table?.createSql).toBe(def.table.createSql);
    expect(resolved.warnings).toEqual([]);
  });

  it('data type plugins (INET6, UUID, INET4) are named in the .frm', async () => {
    await server.exec(`CREATE TABLE plugin_types (id INT PRIMARY KEY, ip6 INET6, u UUID NOT NULL, ip4 INET4 DEFAULT '10.0.0.1',
      u1 UUID DEFAULT '123e4567-e89b-12d3-a456-426655440000', u2 UUID DEFAULT 'ffffffff-ffff-ffff-ffff-fffffffffffe',
      a1 INET6 DEFAULT '2001:db8::ff00:42:8329', a2 INET6 DEFAULT '::ffff:1.2.3.4', a3 INET6 DEFAULT '::1', a4 INET6 DEFAULT '::',
      a5 INET6 DEFAULT '1:0:0:2:0:0:0:3', a6 INET6 DEFAULT 'fe80::')`);
    const original = await showCreate(server, 'plugin_types');
    const ibdPath = await server.exportTable('plugin_types');
    const def = readFrmBytes(readFileSync(ibdPath.replace(/\.ibd$/, '.frm')), 'plugin_types.frm');
    expect(def.table.columns.map((col) => col.type)).toEqual(['int', 'inet6', 'uuid', 'inet4', 'uuid', 'uuid', 'inet6', 'inet6', 'inet6', 'inet6', 'inet6', 'inet6']);
    expect(def.table.createSql).toBe(original);
  });

  it('a disagreeing CREATE TABLE is reported, and the .frm wins', async () => {
    await server.exec('CREATE TABLE drifted (id INT PRIMARY KEY, a VARCHAR(10), b INT)');
    const ibdPath = await server.exportTable('drifted');
    const sql = 'CREATE TABLE drifted (id INT PRIMARY KEY, a VARCHAR(20), c INT, d INT);';
    const resolved = await resolveSchema(bytesSource(readFileSync(ibdPath), 'drifted.ibd'), [
      bytesSource(new TextEncoder().encode(sql), 'dump.sql'),
      bytesSource(readFileSync(ibdPath.replace(/\.ibd$/, '.frm')), 'drifted.frm'),
    ]);
    expect(resolved.source).toBe('frm');
    expect(resolved.table?.columns.map((col) => col.name)).toEqual(['id', 'a', 'b']);
    expect(resolved.warnings).toEqual([
      "the CREATE TABLE (dump.sql) gives `drifted` 4 stored columns, the .frm (drifted.frm) 3; using the .frm",
      '`a` is varchar(10) in the .frm (drifted.frm) but varchar(20) in the CREATE TABLE (dump.sql)',
      'column 3 is `b` in the .frm (drifted.frm) but `c` in the CREATE TABLE (dump.sql)',
    ]);
  });

  it('every collation id the server knows has its name and charset', async () => {
    const rows = (await server.query('SELECT ID, FULL_COLLATION_NAME, CHARACTER_SET_NAME, IS_DEFAULT FROM INFORMATION_SCHEMA.COLLATION_CHARACTER_SET_APPLICABILITY')).rows;
    expect(rows.length).toBeGreaterThan(300);
    for (const [id, name, charset, isDefault] of rows) {
      expect(collationById(Number(id), 'mariadb'), `collation ${id}`).toEqual({ id: Number(id), name, charset });
      if (isDefault === 'Yes') expect(defaultCollation(charset as string, 'mariadb'), `default of ${charset}`).toBe(name);
    }
  });
});
