/**
 * Time zones for TIMESTAMP, which InnoDB stores as seconds since the epoch (UTC) and the server shows
 * in its session's zone. A zone is UTC, a fixed offset as the server writes one (`+02:00`), or an IANA
 * name (`Europe/Berlin`), whose offsets come from the platform's Intl time zone data (ICU's, which may
 * be another tzdata release than the server's tables).
 *
 * An IANA zone is asked for its offset once per day of the values met, not once per value: a day that
 * starts with the same offset as the next one is taken to have it throughout (no zone changes and
 * changes back within a day), and a day whose offsets differ has its transition found by binary
 * search to the second. So a change (DST or not) takes effect at its exact second, and local times are
 * right on both sides of it: the hour repeated in autumn shows twice, the hour skipped in spring never.
 */

export interface TimeZone {
  /** The zone as given: `UTC`, `+02:00`, `Europe/Berlin`. */
  readonly name: string;
  /** Seconds east of UTC at the instant `utc` (whole seconds since the epoch). */
  offsetAt(utc: number): number;
}

export const UTC: TimeZone = { name: 'UTC', offsetAt: () => 0 };

const DAY = 86400;
const DIGITS = /\d+/g;
/** `+hh:mm` / `-hh:mm`, as the server's time_zone takes an offset (MySQL: -13:59 to +14:00). */
const OFFSET = /^([+-])(\d{1,2}):(\d{2})$/;

/** One day's offsets: `before` up to the second `at`, `after` from it (the same when nothing changes). */
interface DayOffsets {
  at: number;
  before: number;
  after: number;
}

class IanaZone implements TimeZone {
  private readonly days = new Map<number, DayOffsets>();
  private readonly starts = new Map<number, number>();
  private lastDay = NaN;
  private last: DayOffsets = { at: 0, before: 0, after: 0 };

  constructor(readonly name: string, private readonly format: Intl.DateTimeFormat) {}

  offsetAt(utc: number): number {
    const day = Math.floor(utc / DAY);
    if (day !== this.lastDay) {
      this.last = this.days.get(day) ?? this.learn(day);
      this.lastDay = day;
    }
    return utc < this.last.at ? this.last.before : this.last.after;
  }

  private learn(day: number): DayOffsets {
    const start = day * DAY;
    const before = this.startOffset(day);
    const after = this.startOffset(day + 1);
    let at = start;
    if (before !== after) {
      // The first second of the new offset lies in (lo, hi]; at the next day's first second, the whole day is `before`.
      let lo = start;
      let hi = start + DAY;
      while (hi - lo > 1) {
        const mid = lo + Math.floor((hi - lo) / 2);
        if (this.ask(mid) === before) lo = mid;
        else hi = mid;
      }
      at = hi;
    }
    const offsets = { at, before, after };
    this.days.set(day, offsets);
    return offsets;
  }

  /** The offset at a day's first second (each asked once: it ends the day before too). */
  private startOffset(day: number): number {
    let offset = this.starts.get(day);
    if (offset === undefined) {
      offset = this.ask(day * DAY);
      this.starts.set(day, offset);
    }
    return offset;
  }

  /**
   * The offset at `utc` from Intl: the local wall-clock time it formats (`M/D/YYYY, HH:MM:SS`; format()
   * is many times faster than formatToParts()), less the instant. TIMESTAMP's years are all AD.
   */
  private ask(utc: number): number {
    const n = this.format.format(utc * 1000).match(DIGITS) ?? [];
    return Date.UTC(Number(n[2]), Number(n[0]) - 1, Number(n[1]), Number(n[3]), Number(n[4]), Number(n[5])) / 1000 - utc;
  }
}

const zones = new Map<string, TimeZone>([['UTC', UTC]]);

/** Whether a zone's offset never changes (UTC, `+02:00`): its local times order as their instants do, none repeated. */
export function isFixedZone(name: string): boolean {
  return name === 'UTC' || OFFSET.test(name);
}

/**
 * The zone of this name (cached: its learned offsets serve every table read with it); throws a
 * RangeError naming it when it is neither an offset nor a zone the platform knows.
 */
export function timeZone(name: string): TimeZone {
  let zone = zones.get(name);
  if (zone === undefined) {
    zone = fixedZone(name) ?? ianaZone(name);
    zones.set(name, zone);
  }
  return zone;
}

function fixedZone(name: string): TimeZone | null {
  const m = OFFSET.exec(name);
  if (m === null) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  if (Number(m[3]) > 59 || minutes > 14 * 60) throw new RangeError(`time zone ${name}: an offset lies from -13:59 to +14:00`);
  const offset = (m[1] === '-' ? -60 : 60) * minutes;
  return { name, offsetAt: () => offset };
}

function ianaZone(name: string): TimeZone {
  if (name.toUpperCase() === 'SYSTEM') throw new RangeError("time zone SYSTEM is the server machine's own, which is not known here: give its name (Europe/Berlin) or offset (+02:00)");
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch {
    throw new RangeError(`unknown time zone ${JSON.stringify(name)}: give an IANA name (Europe/Berlin, UTC) or an offset (+02:00)`);
  }
  return new IanaZone(name, format);
}

/** `±hh:mm` of an offset in seconds. */
function offsetText(offset: number): string {
  const m = Math.abs(offset) / 60;
  return `${offset < 0 ? '-' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/**
 * The instant (seconds since the epoch) that `zone` shows as the wall-clock time `local` (its
 * seconds since 1970-01-01 00:00 read as UTC) — the inverse of offsetAt, as a TIMESTAMP given in the
 * zone is read. A local time the clocks skip (spring forward) or repeat (fall back) names no single
 * instant: an Error says which (`text` is the value as given). Offsets are under a day, and a zone
 * changes at most once in two days, so the offsets a day either side are the only candidates.
 */
export function zonedInstant(zone: TimeZone, local: number, text: string): number {
  const before = zone.offsetAt(local - DAY);
  const after = zone.offsetAt(local + DAY);
  const fits = [before, after].filter((o, i) => (i === 0 || o !== before) && zone.offsetAt(local - o) === o);
  if (fits.length === 1) return local - fits[0];
  const change = `the clocks go from ${offsetText(before)} to ${offsetText(after)}`;
  if (fits.length === 0) throw new Error(`'${text}' is no time in ${zone.name}: ${change} and skip it; give it in UTC`);
  throw new Error(`'${text}' is two times in ${zone.name}: ${change} and repeat it; give it in UTC to say which`);
}
