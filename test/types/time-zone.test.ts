/**
 * Time zones (time-zone.ts) and the server's zone from its files (server-time-zone.ts): offsets and
 * names checked, a transition found to the second (the server's own conversions are compared in
 * test/differential/time-zones.test.ts), option files and mysqld-auto.cnf read as the server reads them.
 */
import { describe, expect, it } from 'vitest';
import { serverTimeZone } from '../../src/core/definitions/server-time-zone.ts';
import { formatTimestamp } from '../../src/core/values/temporal.ts';
import { timeZone, UTC } from '../../src/core/values/time-zone.ts';

describe('time zones', () => {
  it('takes offsets, IANA names and UTC; names what is none', () => {
    expect(timeZone('UTC')).toBe(UTC);
    expect(timeZone('+05:30').offsetAt(0)).toBe(19800);
    expect(timeZone('-9:30').offsetAt(1e9)).toBe(-34200);
    expect(() => timeZone('+14:01')).toThrow('an offset lies from -13:59 to +14:00');
    expect(() => timeZone('+02:60')).toThrow(RangeError);
    expect(() => timeZone('Mars/Olympus')).toThrow('unknown time zone "Mars/Olympus"');
    expect(() => timeZone('SYSTEM')).toThrow(/SYSTEM is the server machine's own/);
  });

  it('changes offset at the transition second, both ways, and keeps the zero date', () => {
    const berlin = timeZone('Europe/Berlin');
    const spring = Date.UTC(2024, 2, 31, 1) / 1000;
    const autumn = Date.UTC(2024, 9, 27, 1) / 1000;
    expect([spring - 1, spring, autumn - 1, autumn].map((t) => formatTimestamp(t, 0, 0, berlin))).toEqual([
      '2024-03-31 01:59:59', '2024-03-31 03:00:00', '2024-10-27 02:59:59', '2024-10-27 02:00:00',
    ]);
    expect(formatTimestamp(0, 0, 3, berlin)).toBe('0000-00-00 00:00:00.000');
    expect(formatTimestamp(1, 0, 0, timeZone('America/New_York'))).toBe('1969-12-31 19:00:01');
  });
});

describe('the server zone from its files', () => {
  const cnf = (name: string, text: string) => ({ name, text });
  it('reads default-time-zone in server groups only, the last one winning', () => {
    expect(serverTimeZone([cnf('my.cnf', '[client]\ndefault-time-zone=+01:00\n[mysqld]\nport=3306\n')])).toBeNull();
    expect(serverTimeZone([cnf('a/my.cnf', "[mysqld]\ndefault_time_zone = 'Europe/Berlin' # comment\n"), cnf('conf.d/z.cnf', '[mariadb-10.11]\nloose-default-time-zone="+02:00"\n')]))
      .toEqual({ zone: '+02:00', from: 'default-time-zone in conf.d/z.cnf' });
    expect(serverTimeZone([cnf('my.cnf', '[server]\ndefault-time-zone=SYSTEM\n')])).toEqual({ zone: 'SYSTEM', from: 'default-time-zone in my.cnf' });
  });

  it('reads MySQL 8 mysqld-auto.cnf (versions 1 and 2) before any option file', () => {
    const v1 = JSON.stringify({ Version: 1, mysql_server: { time_zone: { Value: 'Asia/Tokyo', Metadata: {} } } });
    const v2 = JSON.stringify({ Version: 2, mysql_static_variables: {}, mysql_dynamic_variables: { time_zone: { Value: '-03:00', Metadata: {} } } });
    const option = cnf('my.cnf', '[mysqld]\ndefault-time-zone=UTC\n');
    expect(serverTimeZone([option, cnf('d/mysqld-auto.cnf', v1)])).toEqual({ zone: 'Asia/Tokyo', from: 'time_zone in d/mysqld-auto.cnf' });
    expect(serverTimeZone([cnf('mysqld-auto.cnf', v2), option])?.zone).toBe('-03:00');
    expect(serverTimeZone([cnf('mysqld-auto.cnf', '{"Version":2,"mysql_dynamic_variables":{}}'), option])?.zone).toBe('UTC');
    expect(serverTimeZone([cnf('mysqld-auto.cnf', 'not json')])).toBeNull();
  });
});
