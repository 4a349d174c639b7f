/**
 * Instants and zones: checking a zone, reading a wall-clock time in a zone, writing an instant as RFC 3339,
 * and reading a `since`/`until` argument. No log bytes here (`timestamp.ts` reads those).
 *
 * An instant is a number of milliseconds since 1970-01-01T00:00:00Z (epoch ms), as `Date` uses. A zone is
 * `"UTC"`, a fixed offset `"±hh:mm"`, or an IANA name (`"Europe/Berlin"`) whose offsets come from `Intl`
 * (the ICU time zone data Deno carries). Offsets are cached per UTC day (per hour, then asked each time,
 * only where the offset changes) and per local hour, so a caller reading many times of one zone calls
 * `Intl` about twice per day of log.
 *
 * @module
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * Days from 1970-01-01 to the proleptic Gregorian date y-mo-d (month 1..12), for any integer year; the
 * fields are not checked (a day 31 of a 30-day month is the 1st of the next). Howard Hinnant's
 * `days_from_civil` (https://howardhinnant.github.io/date_algorithms.html), integer arithmetic only, so
 * callers on a hot path do not allocate.
 *
 * @param y The year (e.g. 2024).
 * @param mo The month, 1..12.
 * @param d The day of the month, 1..31.
 * @returns The day number (0 for 1970-01-01, negative before).
 */
export function daysFromCivil(y: number, mo: number, d: number): number {
  if (mo <= 2) y -= 1;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * The number of days in month `mo` (1..12) of year `y`, Gregorian leap years (every 4th, not every 100th,
 * every 400th).
 *
 * @param y The year.
 * @param mo The month, 1..12.
 * @returns 28..31, or 0 when `mo` is outside 1..12.
 */
export function daysInMonth(y: number, mo: number): number {
  if (mo < 1 || mo > 12) return 0;
  if (mo === 2) return (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) ? 29 : 28;
  return (mo === 4 || mo === 6 || mo === 9 || mo === 11) ? 30 : 31;
}

/**
 * Wall-clock milliseconds: the epoch ms the given wall-clock time would be if it were read in UTC.
 * Fields are not checked (they overflow as `Date.UTC`'s do).
 *
 * @returns Milliseconds (may be outside `Date`'s range for absurd years).
 */
export function wallMs(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
): number {
  return daysFromCivil(y, mo, d) * DAY + h * HOUR + mi * MINUTE + s * 1000 + ms;
}

/** A fixed offset written `±hh:mm`, `±hhmm` or `±hh` (hours 0..23, minutes 0..59). */
const OFFSET = /^([+-])(\d{2})(?::?(\d{2}))?$/;

/** The offset of a fixed-offset zone in ms (east of UTC positive), or NaN when `zone` is not one. */
function fixedOffset(zone: string): number {
  const m = OFFSET.exec(zone);
  if (!m) return NaN;
  const h = Number(m[2]), mi = m[3] === undefined ? 0 : Number(m[3]);
  if (h > 23 || mi > 59) return NaN;
  return (m[1] === "-" ? -1 : 1) * (h * HOUR + mi * MINUTE);
}

/** `±hh:mm` for an offset in ms (seconds of historical local mean times are cut: RFC 3339 has none). */
function offsetText(off: number): string {
  const sign = off < 0 ? "-" : "+";
  const m = Math.trunc(Math.abs(off) / MINUTE);
  return `${sign}${String(Math.trunc(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

/**
 * Checks a zone and returns its canonical name: `"UTC"` (for `UTC`, `utc`, `Z`, `Etc/UTC`, `GMT` and
 * other names `Intl` resolves to UTC), a fixed offset as `±hh:mm` (from `±hh:mm`, `±hhmm` or `±hh`;
 * `+00:00` stays as given, an offset is not a name), or the IANA name as `Intl` spells it
 * (`europe/berlin` → `Europe/Berlin`).
 *
 * @param zone The zone as a user wrote it (e.g. `LOGPEEK_TZ`).
 * @returns The canonical zone.
 * @throws {RangeError} naming the zone and what is accepted, when it is neither a fixed offset nor a zone
 *   `Intl` knows.
 */
export function checkZone(zone: string): string {
  const z = zone.trim();
  if (z === "Z" || z === "z" || z.toUpperCase() === "UTC") return "UTC";
  const off = fixedOffset(z);
  if (!Number.isNaN(off)) return offsetText(off);
  let name: string;
  try {
    name = new Intl.DateTimeFormat("en-US", { timeZone: z }).resolvedOptions().timeZone;
  } catch {
    throw new RangeError(
      `unknown time zone ${JSON.stringify(zone)}: give "UTC", an IANA name such as "Europe/Berlin" or ` +
        `"America/New_York", or a fixed offset such as "+02:00"`,
    );
  }
  if (name === "UTC" || name === "Etc/UTC" || name === "Etc/GMT" || name === "GMT") return "UTC";
  return name;
}

/** One IANA zone's offsets, from Intl, cached per UTC hour and per local hour. */
class ZoneOffsets {
  readonly #fmt: Intl.DateTimeFormat;
  /** UTC day number → the offset (ms) all that day; NaN when the day holds a change. */
  readonly #byUtcDay = new Map<number, number>();
  /** UTC hour number → the offset (ms) all that hour; NaN when the hour holds a change. */
  readonly #byUtcHour = new Map<number, number>();
  /** Local hour number → offset (ms) for every wall time of that hour; NaN when the hour holds a change. */
  readonly #byLocalHour = new Map<number, number>();
  /** The local hour last read whole (no change of offset inside it), and its offset. */
  #lastKey = NaN;
  #lastOff = 0;

  constructor(zone: string) {
    this.#fmt = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  }

  /** The zone's offset (ms, east positive) at instant `t`, straight from Intl (whole seconds). */
  #intlOffset(t: number): number {
    const s = Math.floor(t / 1000) * 1000;
    let y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0, bc = false;
    for (const p of this.#fmt.formatToParts(s)) {
      switch (p.type) {
        case "year":
          y = Number(p.value);
          break;
        case "month":
          mo = Number(p.value);
          break;
        case "day":
          d = Number(p.value);
          break;
        case "hour":
          h = Number(p.value);
          break;
        case "minute":
          mi = Number(p.value);
          break;
        case "second":
          sec = Number(p.value);
          break;
        case "era":
          bc = p.value === "BC" || p.value === "B";
          break;
      }
    }
    if (bc) y = 1 - y;
    return wallMs(y, mo, d, h, mi, sec, 0) - s;
  }

  /**
   * The offset at instant `t`. Cached per UTC day when the offset at the day's start and at its last
   * second agree (no change inside it: zones change at most once a day), else per UTC hour likewise;
   * within an hour that holds a change, asked of Intl each time.
   */
  offsetAt(t: number): number {
    const day = Math.floor(t / DAY);
    let off = this.#byUtcDay.get(day);
    if (off === undefined) {
      off = this.#steady(day * DAY, DAY);
      if (this.#byUtcDay.size > 100_000) this.#byUtcDay.clear();
      this.#byUtcDay.set(day, off);
    }
    if (!Number.isNaN(off)) return off;
    const hour = Math.floor(t / HOUR);
    off = this.#byUtcHour.get(hour);
    if (off === undefined) {
      off = this.#steady(hour * HOUR, HOUR);
      if (this.#byUtcHour.size > 100_000) this.#byUtcHour.clear();
      this.#byUtcHour.set(hour, off);
    }
    return Number.isNaN(off) ? this.#intlOffset(t) : off;
  }

  /** The offset over [from, from + span) when its first and last seconds agree, else NaN. */
  #steady(from: number, span: number): number {
    const a = this.#intlOffset(from), b = this.#intlOffset(from + span - 1000);
    return a === b ? a : NaN;
  }

  /**
   * Epoch ms of wall-clock ms `wall` (see {@linkcode zonedEpoch} for gaps and repeats), uncached: glibc
   * `mktime`'s probing from offset 0, as GNU `date` runs it. The offset in effect at the instant `wall`
   * (the wall time read as UTC) is tried first, then the offset in effect at the instant that gives.
   */
  resolve(wall: number): number {
    const o0 = this.offsetAt(wall);
    const t1 = wall - o0, o1 = this.offsetAt(t1);
    if (o1 === o0) return t1;
    const t2 = wall - o1;
    if (this.offsetAt(t2) === o1) return t2;
    // A skipped time (the probes swing between the two offsets): read with the offset before the jump.
    // At most one change of offset lies within a day either side (true of every zone in the IANA data).
    return wall - this.offsetAt(Math.min(t1, t2) - DAY);
  }

  /** Epoch ms of wall-clock ms `wall`, cached per local hour when that hour holds no change of offset. */
  epochOf(wall: number): number {
    const key = Math.floor(wall / HOUR);
    if (key === this.#lastKey) return wall - this.#lastOff; // the common case: the hour of the line before
    let off = this.#byLocalHour.get(key);
    if (off === undefined) {
      const start = key * HOUR;
      const a = start - this.resolve(start), b = start + HOUR - 1 - this.resolve(start + HOUR - 1);
      off = a === b ? a : NaN;
      if (this.#byLocalHour.size > 100_000) this.#byLocalHour.clear();
      this.#byLocalHour.set(key, off);
    }
    if (Number.isNaN(off)) return this.resolve(wall);
    this.#lastKey = key;
    this.#lastOff = off;
    return wall - off;
  }
}

const ZONES = new Map<string, ZoneOffsets>();

/** The cached offsets of an IANA zone (already checked). */
function zoneOffsets(zone: string): ZoneOffsets {
  let z = ZONES.get(zone);
  if (z === undefined) {
    z = new ZoneOffsets(zone);
    ZONES.set(zone, z);
  }
  return z;
}

/**
 * A converter from wall-clock ms ({@linkcode wallMs}) to epoch ms in one zone, for callers on a hot path
 * (one call per log line): UTC is the identity, a fixed offset one subtraction, an IANA zone a cached
 * offset per local hour (as {@linkcode zonedEpoch}).
 *
 * @param zone A zone from {@linkcode checkZone}.
 * @returns The converter.
 * @throws {RangeError} when `zone` is not a zone (see {@linkcode checkZone}).
 */
export function wallToEpoch(zone: string): (wall: number) => number {
  if (zone === "UTC") return (wall) => wall;
  const off = fixedOffset(zone);
  if (!Number.isNaN(off)) return (wall) => wall - off;
  const z = zoneOffsets(checkZone(zone));
  return (wall) => z.epochOf(wall);
}

/**
 * The offset of `zone` at instant `ms`, in ms east of UTC (`+02:00` → 7,200,000).
 *
 * @param ms Epoch ms.
 * @param zone A zone from {@linkcode checkZone}.
 * @returns The offset in ms.
 * @throws {RangeError} when `zone` is not a zone.
 */
export function offsetAt(ms: number, zone: string): number {
  if (zone === "UTC") return 0;
  const off = fixedOffset(zone);
  if (!Number.isNaN(off)) return off;
  return zoneOffsets(checkZone(zone)).offsetAt(ms);
}

/**
 * Epoch ms of a wall-clock time read in `zone`. Fields are not range-checked (they overflow as
 * `Date.UTC`'s do: month 13 is January of the next year).
 *
 * Where a change of offset makes a local time ambiguous, the rule is GNU `date`'s (checked against
 * `TZ=… date -d …` in the tests). A time that occurs twice (clocks set back) gets the offset in effect at
 * the instant that the wall time names when read as UTC (glibc `mktime` starts probing from offset 0),
 * so west of Greenwich it is the EARLIER instant (01:30 on 2024-11-03 in America/New_York is -04:00),
 * east of it the LATER one (02:30 on 2024-10-27 in Europe/Berlin is +01:00). A time that never occurs
 * (clocks set forward: 02:30 on 2024-03-10 in America/New_York), which GNU `date` refuses, is read with
 * the offset before the change (-05:00), i.e. moved forward by the gap (03:30 -04:00), as RFC 5545
 * §3.3.5 and Temporal's "compatible" disambiguation do: a log line is never dropped for a clock's jump.
 *
 * @param zone A zone from {@linkcode checkZone}.
 * @param y The year.
 * @param mo The month, 1..12.
 * @param d The day of the month.
 * @param h The hour, 0..23.
 * @param mi The minute.
 * @param s The second.
 * @param ms The millisecond.
 * @returns Epoch ms.
 * @throws {RangeError} when `zone` is not a zone.
 */
export function zonedEpoch(
  zone: string,
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
): number {
  return wallToEpoch(zone)(wallMs(y, mo, d, h, mi, s, ms));
}

/**
 * RFC 3339 text of an instant with the zone's offset at that instant: `2015-10-18T18:01:47.978Z` for UTC,
 * `2015-10-18T20:01:47.978+02:00` otherwise (an IANA zone at offset 0 is `+00:00`: only the zone "UTC"
 * writes `Z`). Milliseconds are shown only when not 0. Years outside 0..9999 are written with a sign and
 * six digits, as `Date.prototype.toISOString` does (RFC 3339 has none).
 *
 * @param ms Epoch ms (a finite number).
 * @param zone A zone from {@linkcode checkZone}.
 * @returns The text.
 * @throws {RangeError} when `ms` is not a finite instant in `Date`'s range, or `zone` is not a zone.
 */
export function formatInstant(ms: number, zone: string): string {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
    throw new RangeError(`not an instant: ${ms} (epoch milliseconds within ±8.64e15 are)`);
  }
  const off = offsetAt(ms, zone);
  const iso = new Date(Math.floor(ms) + off).toISOString(); // yyyy-mm-ddThh:mm:ss.sssZ, the local wall time
  const frac = Math.floor(ms) % 1000 === 0 ? "" : iso.slice(-5, -1);
  const head = iso.slice(0, iso.length - 5);
  return head + frac + (zone === "UTC" ? "Z" : offsetText(off));
}

/** Units of a duration back from now. */
const UNIT_MS: Record<string, number> = { s: 1000, m: MINUTE, h: HOUR, d: DAY, w: 7 * DAY };

const DURATION = /^-((?:\d{1,9}[smhdw])+)$/;
const PART = /(\d+)([smhdw])/g;
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

const ACCEPTED = 'an RFC 3339 / ISO 8601 instant ("2024-05-01T10:00:00Z", "2024-05-01 10:00:00,5+02:00", ' +
  '"2024-05-01T10:00", "2024-05-01"), a duration back from now ("-30s", "-15m", "-2h", "-3d", "-1w", ' +
  '"-1h30m"), or "now"';

/**
 * Reads a `since`/`until` argument.
 *
 * Accepted:
 * - an RFC 3339 / ISO 8601 instant: a date `YYYY-MM-DD` (midnight), or a date, `T`, `t` or a space, and a
 *   time `HH:MM`, `HH:MM:SS` or `HH:MM:SS.f` (fraction after `.` or `,`, 1 to 9 digits, cut to ms), then
 *   optionally a zone `Z`, `±hh:mm` or `±hhmm`. Without a zone the time is read in `zone` (see
 *   {@linkcode zonedEpoch} for times a change of offset skips or repeats). A leap second `:60` is read as
 *   the next second's start (RFC 3339 §5.6 allows it; epoch ms have no place for it).
 * - a duration back from `nowMs`: `-` then a whole number (up to 9 digits) and a unit: `s` seconds,
 *   `m` minutes, `h` hours, `d` days (of 24 h), `w` weeks (of 7 days); several may follow one another
 *   (`-1h30m`).
 * - `now` (any case): `nowMs`.
 *
 * Spaces around the text are ignored.
 *
 * @param text The argument as given.
 * @param nowMs The present, epoch ms.
 * @param zone A zone from {@linkcode checkZone}, for instants without one.
 * @returns Epoch ms.
 * @throws {RangeError} saying what was given, what is wrong with it, and what is accepted.
 */
export function parseInstant(text: string, nowMs: number, zone: string): number {
  const t = text.trim();
  if (t.toLowerCase() === "now") return nowMs;
  const dur = DURATION.exec(t);
  if (dur) {
    let back = 0;
    for (const [, n, unit] of dur[1].matchAll(PART)) back += Number(n) * UNIT_MS[unit];
    return nowMs - back;
  }
  const m = ISO.exec(t);
  if (!m) {
    const hint = /^(?:\d+[smhdw])+$/.test(t)
      ? ` (a duration goes back from now: write "-${t}")`
      : /^-[\d.]+\s*[a-zA-Z]+/.test(t)
      ? ' (a duration is whole numbers with units s, m, h, d, w: "-90m", "-1h30m")'
      : "";
    throw new RangeError(`cannot read ${JSON.stringify(text)} as a time${hint}: give ${ACCEPTED}`);
  }
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  const h = m[4] === undefined ? 0 : Number(m[4]);
  const mi = m[5] === undefined ? 0 : Number(m[5]);
  const s = m[6] === undefined ? 0 : Number(m[6]);
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  const bad = mo < 1 || mo > 12
    ? `month ${m[2]}`
    : d < 1 || d > daysInMonth(y, mo)
    ? `day ${m[3]} of ${m[1]}-${m[2]}`
    : h > 23
    ? `hour ${m[4]}`
    : mi > 59
    ? `minute ${m[5]}`
    : s > 60
    ? `second ${m[6]}`
    : "";
  if (bad !== "") {
    throw new RangeError(`cannot read ${JSON.stringify(text)} as a time: no ${bad}; give ${ACCEPTED}`);
  }
  const wall = wallMs(y, mo, d, h, mi, s, ms);
  if (m[8] !== undefined) return wall;
  if (m[9] !== undefined) {
    const oh = Number(m[10]), om = Number(m[11]);
    if (oh > 23 || om > 59) {
      throw new RangeError(
        `cannot read ${JSON.stringify(text)} as a time: no offset ${m[9]}${m[10]}:${m[11]}; give ${ACCEPTED}`,
      );
    }
    return wall - (m[9] === "-" ? -1 : 1) * (oh * HOUR + om * MINUTE);
  }
  return wallToEpoch(zone)(wall);
}
