/**
 * The timestamp at the head of one log line, read from its raw bytes (no decoding, no regex, no
 * allocation per line once a zone's offsets are cached).
 *
 * Layouts read (the line's first bytes; `<PRI>` is a syslog priority, RFC 5424 §6.2.1):
 * - RFC 3339 / ISO 8601: `2015-10-18T18:01:47.978Z`, `2015-10-18 18:01:47,978`, `2024/05/01 10:00:00`
 *   (nginx's error log); `T`, `t` or a space; seconds optional; a fraction after `.` or `,` of any length
 *   (cut to ms); a zone `Z`, `±hh:mm`, `±hhmm`, `±hh`, or after a space ` ±hhmm`, ` UTC`, ` GMT` (other
 *   zone abbreviations are ambiguous: the time is then read in the clock's zone). Also after `<PRI>1 `
 *   (RFC 5424 syslog), after `[` (`[2024-01-01 10:00:00]`), and after a level word in capitals
 *   (`INFO 2024-…`, `[WARN] 2024-…`, `ERROR: 2024-…`).
 * - RFC 3164 syslog: `Jun 14 15:16:01`, `Jun  4 15:16:01` (space-padded day; `Jun 4` too), optionally
 *   after `<PRI>`, optionally with a fraction. No year: see {@linkcode lineClock}.
 * - ctime / Apache error log: `[Sun Dec 04 04:47:44 2005]`, `[Sun Dec 04 04:47:44.123456 2005]` (also
 *   without the bracket).
 * - Apache/nginx access log (Common Log Format): `[10/Oct/2000:13:55:36 -0700]` as the first `[` of the
 *   line's first {@linkcode HEAD_BYTES} bytes (the host, ident and user come before it).
 * - JSON lines (`{` first): the first of the top-level fields `time`, `ts`, `timestamp`, `@timestamp`
 *   whose value is a time, within the first {@linkcode JSON_BYTES} bytes: a string in any layout above, or
 *   a number (or a string of digits) of seconds, milliseconds, microseconds or nanoseconds since the
 *   epoch (see {@linkcode epochNumberMs} for how they are told apart).
 * - logfmt (`key=value` fields; Go's slog and logrus text handlers, go-kit): the first `time=`, `ts=`,
 *   `timestamp=` or `@timestamp=` field among the first {@linkcode HEAD_BYTES} bytes whose value (bare or
 *   quoted) is a time, as for JSON.
 * - klog/glog: `I0501 10:00:00.000000` (a level letter I, W, E or F, then MMDD). No year.
 * - Android logcat: `01-31 10:00:00.123` (MM-DD). No year.
 * - HDFS (Loghub): `081109 203615` (yyMMdd HHmmss). Spark (Loghub): `17/06/09 20:10:40` (yy/MM/dd).
 *   Two-digit years follow POSIX `strptime` `%y`: 69–99 are 1969–1999, 00–68 are 2000–2068.
 * - Squid's access log: `1286536309.450` (epoch seconds, ten digits and milliseconds).
 *
 * Every field is range-checked (month 1–12, the day within its month, hour 0–23, minute 0–59, second
 * 0–60; a leap second `:60` is the next second's start), and a time must not be followed by a digit, so
 * `12345 requests served`, an IP address, a version `1.2.3` or a stack-trace line (`\tat org.foo…`) have
 * none. A time that appears later in a message is not the line's time: layouts other than the access log,
 * logfmt and JSON must start at the line's first byte, or right after the prefixes above (a `<PRI>` of up
 * to 3 digits and `1 `, a `[`, a level word of up to 8 capitals and its spaces: at most 72 bytes in).
 *
 * @module
 */

import { checkZone, daysFromCivil, daysInMonth, offsetAt, wallToEpoch } from "./instant.ts";

/** How many bytes from a line's start may hold the `[` of an access-log time (the host, ident, user). */
export const HEAD_BYTES = 256;
/** How many bytes from a line's start a JSON line's top-level time field is looked for in. */
export const JSON_BYTES = 4096;

const DAY = 86_400_000;
/** The range of a plausible epoch time where a file's layout is learned: 1990-01-01 .. 2100-01-01 UTC. */
const EPOCH_MIN = 631_152_000_000, EPOCH_MAX = 4_102_444_800_000;

/** Reads line timestamps of one log. */
export interface LineClock {
  /**
   * Epoch ms of the timestamp in the header of `buf[start, end)` (a line without its end of line), or
   * NaN when it has none. A header time starts at the line's first byte (after a `<PRI>`, `[` or level
   * word; within 64 bytes); an access log's `[dd/Mmm/yyyy:…]` is the first `[` in the first
   * {@linkcode HEAD_BYTES} bytes; a JSON line's field is looked for in its first {@linkcode JSON_BYTES}
   * bytes. Bytes at or past `end` are never read.
   */
  timeOf(buf: Uint8Array, start: number, end: number): number;
  /** The zone zone-less timestamps are read in (canonical, from `checkZone`). */
  readonly zone: string;
  /** Whether a time read so far had no offset of its own (so it was read in {@linkcode zone}). */
  readonly zoneUsed: boolean;
  /** Whether a time read so far had no year (syslog, klog, logcat), so its year was inferred. */
  readonly yearInferred: boolean;
  /**
   * Lines read so far with a time of day but no date at their head (strace's `08:09:33.814936`): they
   * are untimed (their day is not written, and is not guessed).
   */
  readonly timeOfDayLines: number;
  /** What the clock learned of the log from its first lines (`lineClock`'s `sample`). */
  readonly layout: TimeLayout;
}

// Scratch fields a layout reader fills (one thread; read at once by the caller, never kept).
let Y = 0, MO = 0, D = 0, H = 0, MI = 0, S = 0, MS = 0;
/** Explicit offset in ms, or NaN when the time had none (read in the clock's zone). */
let OFF = NaN;
/** Whether the layout had no year (syslog, klog): the clock picks it. */
let YEARLESS = false;
/** Epoch ms read directly (JSON numbers, squid), else NaN. */
let EPOCH = NaN;
/** Whether the last `jsonAt` with a learned key found that key. */
let KEYED = false;
/** The bounds of the column `columnAt` found. */
let COL_A = 0, COL_B = 0;

/** The value of `n` decimal digits at `p` (caller checked `p + n <= end`), or -1. */
function digits(buf: Uint8Array, p: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = buf[p + i] - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLetter(c: number): boolean {
  const u = c | 0x20;
  return u >= 97 && u <= 122;
}

function isAlnum(c: number): boolean {
  const u = c | 0x20;
  return (c >= 48 && c <= 57) || (u >= 97 && u <= 122);
}

/** 1..12 for a month's three-letter English abbreviation at `p` (any case), else 0. */
function monthAt(buf: Uint8Array, p: number): number {
  const k = ((buf[p] | 0x20) << 16) | ((buf[p + 1] | 0x20) << 8) | (buf[p + 2] | 0x20);
  switch (k) {
    case 0x6a616e: // jan
      return 1;
    case 0x666562: // feb
      return 2;
    case 0x6d6172: // mar
      return 3;
    case 0x617072: // apr
      return 4;
    case 0x6d6179: // may
      return 5;
    case 0x6a756e: // jun
      return 6;
    case 0x6a756c: // jul
      return 7;
    case 0x617567: // aug
      return 8;
    case 0x736570: // sep
      return 9;
    case 0x6f6374: // oct
      return 10;
    case 0x6e6f76: // nov
      return 11;
    case 0x646563: // dec
      return 12;
  }
  return 0;
}

/** Whether a weekday's three-letter English abbreviation is at `p` (any case). */
function weekdayAt(buf: Uint8Array, p: number): boolean {
  const k = ((buf[p] | 0x20) << 16) | ((buf[p + 1] | 0x20) << 8) | (buf[p + 2] | 0x20);
  return k === 0x6d6f6e || k === 0x747565 || k === 0x776564 || k === 0x746875 || k === 0x667269 ||
    k === 0x736174 || k === 0x73756e;
}

/** A two-digit year as POSIX `strptime` `%y` reads it. */
function century(yy: number): number {
  return yy < 69 ? 2000 + yy : 1900 + yy;
}

/**
 * Reads `HH:MM[:SS][.frac]` at `p` into H, MI, S, MS (seconds optional when `secOpt`). Returns the position
 * after it, or -1.
 */
function clockAt(buf: Uint8Array, p: number, end: number, secOpt: boolean): number {
  if (p + 5 > end || buf[p + 2] !== 58) return -1;
  const h = digits(buf, p, 2), mi = digits(buf, p + 3, 2);
  if (h < 0 || h > 23 || mi < 0 || mi > 59) return -1;
  H = h;
  MI = mi;
  S = 0;
  MS = 0;
  p += 5;
  if (p < end && buf[p] === 58) {
    if (p + 3 > end) return -1;
    const s = digits(buf, p + 1, 2);
    if (s < 0 || s > 60) return -1;
    S = s;
    p += 3;
    if (p + 1 < end && (buf[p] === 46 || buf[p] === 44) && isDigit(buf[p + 1])) {
      p++;
      let ms = 0, n = 0;
      while (p < end && isDigit(buf[p])) {
        if (n < 3) ms = ms * 10 + buf[p] - 48;
        n++;
        p++;
      }
      MS = n === 1 ? ms * 100 : n === 2 ? ms * 10 : ms;
    }
  } else if (!secOpt) return -1;
  return p;
}

/** Reads a zone `Z`, `±hh:mm`, `±hhmm`, `±hh` or ` ±hhmm` at `p` into OFF; returns the position after. */
function zoneAt(buf: Uint8Array, p: number, end: number): number {
  if (p >= end) return p;
  let c = buf[p];
  if (c === 90 || c === 122) {
    OFF = 0;
    return p + 1;
  }
  let q = p;
  if (c === 32) {
    // ` UTC` / ` GMT` (PostgreSQL, Java): then no letter or digit may follow
    if (q + 4 <= end && (q + 4 === end || !isAlnum(buf[q + 4]))) {
      const k = (buf[q + 1] << 16) | (buf[q + 2] << 8) | buf[q + 3];
      if (k === 0x555443 || k === 0x474d54) {
        OFF = 0;
        return q + 4;
      }
    }
    // ` ±hhmm` / ` ±hh:mm` after a space (git, CLF): then no letter or digit may follow
    if (q + 6 > end) return p;
    c = buf[++q];
  }
  if (c !== 43 && c !== 45) return p;
  if (q + 3 > end) return p;
  const oh = digits(buf, q + 1, 2);
  if (oh < 0 || oh > 23) return p;
  let om = 0, after = q + 3;
  if (after < end && buf[after] === 58) {
    if (after + 3 > end || (om = digits(buf, after + 1, 2)) < 0) return p;
    after += 3;
  } else if (after + 2 <= end && isDigit(buf[after])) {
    if ((om = digits(buf, after, 2)) < 0) return p;
    after += 2;
  } else if (q !== p) return p; // ` ±hh` alone after a space is not read as a zone
  if (om > 59) return p;
  if (q !== p && after < end && isAlnum(buf[after])) return p;
  OFF = (c === 45 ? -1 : 1) * (oh * 3_600_000 + om * 60_000);
  return after;
}

/** True when `p` is the end or not a digit: a time must not run on into more digits. */
function ends(buf: Uint8Array, p: number, end: number): boolean {
  return p >= end || !isDigit(buf[p]);
}

/** `YYYY-MM-DD[T ]HH:MM[:SS][.f][zone]` or with `/` between the date's fields, at `p`. */
function isoAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 16 > end) return false;
  const sep = buf[p + 4];
  if (buf[p + 7] !== sep) return sep === 45 && ordinalAt(buf, p, end);
  const y = digits(buf, p, 4), mo = digits(buf, p + 5, 2), d = digits(buf, p + 8, 2);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return false;
  const t = buf[p + 10];
  if (t !== 84 && t !== 32 && t !== 116) return false;
  let q = clockAt(buf, p + 11, end, true);
  if (q < 0) return false;
  q = zoneAt(buf, q, end);
  if (!ends(buf, q, end)) {
    OFF = NaN; // a later layout must not inherit this zone
    return false;
  }
  Y = y;
  MO = mo;
  D = d;
  return true;
}

/** The time of day, zone and end after a date at `t` (`T`, `t` or a space, then `isoAt`'s clock). */
function isoTimeAt(buf: Uint8Array, t: number, end: number): boolean {
  const c = buf[t];
  if (c !== 84 && c !== 32 && c !== 116) return false;
  let q = clockAt(buf, t + 1, end, true);
  if (q < 0) return false;
  q = zoneAt(buf, q, end);
  if (!ends(buf, q, end)) {
    OFF = NaN;
    return false;
  }
  return true;
}

/** ISO 8601's ordinal date `YYYY-DDD` (day of the year), then a time as `isoAt` reads it, at `p`. */
function ordinalAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 14 > end) return false;
  const y = digits(buf, p, 4), n = digits(buf, p + 5, 3);
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (y < 0 || n < 1 || n > (leap ? 366 : 365) || !isoTimeAt(buf, p + 8, end)) return false;
  let mo = 1, d = n;
  while (d > daysInMonth(y, mo)) d -= daysInMonth(y, mo++);
  Y = y;
  MO = mo;
  D = d;
  return true;
}

/**
 * ISO 8601's basic format `YYYYMMDDThhmmss[.f][zone]`, and the same with `.` or a space between date and
 * time (`20120702.102240,672`), at `p`.
 */
function compactAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 15 > end) return false;
  const sep = buf[p + 8];
  if (sep !== 84 && sep !== 46 && sep !== 32 && sep !== 116) return false;
  const y = digits(buf, p, 4), mo = digits(buf, p + 4, 2), d = digits(buf, p + 6, 2);
  const h = digits(buf, p + 9, 2), mi = digits(buf, p + 11, 2), s = digits(buf, p + 13, 2);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return false;
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 60) return false;
  let q = p + 15;
  MS = 0;
  if (q + 1 < end && (buf[q] === 46 || buf[q] === 44) && isDigit(buf[q + 1])) q = fractionAt(buf, q + 1, end);
  q = zoneAt(buf, q, end);
  if (!ends(buf, q, end)) {
    OFF = NaN;
    return false;
  }
  Y = y;
  MO = mo;
  D = d;
  H = h;
  MI = mi;
  S = s;
  return true;
}

/** Reads the digits of a fraction of a second at `p` into MS (cut to ms); returns the position after. */
function fractionAt(buf: Uint8Array, p: number, end: number): number {
  let ms = 0, n = 0;
  while (p < end && isDigit(buf[p])) {
    if (n < 3) ms = ms * 10 + buf[p] - 48;
    n++;
    p++;
  }
  MS = n === 1 ? ms * 100 : n === 2 ? ms * 10 : ms;
  return p;
}

/**
 * A day before a month's name and a four-digit year: `25 Apr 2024 05:32:35.018` (Redis), `19-May-2021
 * 08:00:01.123` (Tomcat, BIND), `25/Apr/2024:05:32:35 +0000` (the Common Log Format without its bracket),
 * at `p`.
 */
function dmyAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 20 > end) return false;
  const sep = buf[p + 2];
  if (buf[p + 6] !== sep) return false;
  const d = digits(buf, p, 2), mo = monthAt(buf, p + 3), y = digits(buf, p + 7, 4);
  if (mo === 0 || y < 0 || d < 1 || d > daysInMonth(y, mo)) return false;
  const t = buf[p + 11];
  if (t !== 32 && !(t === 58 && sep === 47)) return false;
  let q = clockAt(buf, p + 12, end, false);
  if (q < 0) return false;
  q = zoneAt(buf, q, end);
  if (!ends(buf, q, end)) {
    OFF = NaN;
    return false;
  }
  Y = y;
  MO = mo;
  D = d;
  return true;
}

/**
 * TAI64N (daemontools' and s6's multilog, `tai64n`): `@` and 24 hex digits, TAI64 seconds (2^62 + 10 +
 * Unix seconds, the leap seconds since 1972 not counted, as those writers do) and nanoseconds, at `p`.
 */
function taiAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 25 > end || buf[p] !== 64 || buf[p + 1] !== 52) return false;
  for (let i = 2; i < 9; i++) if (buf[p + i] !== 48) return false; // "4000000": before 2106
  const s = hexAt(buf, p + 9, 8), ns = hexAt(buf, p + 17, 8);
  if (s < 10 || ns < 0 || ns > 999_999_999 || (p + 25 < end && isAlnum(buf[p + 25]))) return false;
  EPOCH = (s - 10) * 1000 + Math.floor(ns / 1e6);
  return true;
}

/** The value of `n` hex digits at `p` (caller checked `p + n <= end`), or -1. */
function hexAt(buf: Uint8Array, p: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = buf[p + i], u = c | 0x20;
    const x = c >= 48 && c <= 57 ? c - 48 : u >= 97 && u <= 102 ? u - 87 : -1;
    if (x < 0) return -1;
    v = v * 16 + x;
  }
  return v;
}

/**
 * MySQL's older slow-log and error-log time `yyMMdd hh:mm:ss` (the hour space-padded: `210126  3:45:57`)
 * at `p`.
 */
function mysqlShortAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 14 > end || buf[p + 6] !== 32) return false;
  const yy = digits(buf, p, 2), mo = digits(buf, p + 2, 2), d = digits(buf, p + 4, 2);
  let t = p + 7;
  if (buf[t] === 32 && buf[t + 2] === 58) t++; // ` 3:45:57`
  if (yy < 0 || mo < 1 || mo > 12) return false;
  const y = century(yy);
  if (d < 1 || d > daysInMonth(y, mo)) return false;
  let q: number;
  if (buf[t + 1] === 58) {
    // one-digit hour
    const h = digits(buf, t, 1), mi = digits(buf, t + 2, 2), s = digits(buf, t + 5, 2);
    if (h < 0 || mi < 0 || mi > 59 || s < 0 || s > 60 || buf[t + 4] !== 58) return false;
    H = h;
    MI = mi;
    S = s;
    MS = 0;
    q = t + 7;
  } else q = clockAt(buf, t, end, false);
  if (q < 0 || !ends(buf, q, end)) return false;
  Y = y;
  MO = mo;
  D = d;
  return true;
}

/**
 * Epoch seconds (ten digits, a fraction allowed), milliseconds (13), microseconds (16) or nanoseconds
 * (19) at `p`, not followed by a letter or digit, and within the years 1990..2099: read only where a
 * file's first lines show one at that place (`learnLayout`), never guessed from one line.
 */
function epochAt(buf: Uint8Array, p: number, end: number): boolean {
  let q = p;
  while (q < end && isDigit(buf[q])) q++;
  const n = q - p;
  if (n !== 10 && n !== 13 && n !== 16 && n !== 19) return false;
  if (n === 10 && q + 1 < end && buf[q] === 46 && isDigit(buf[q + 1])) {
    q++;
    while (q < end && isDigit(buf[q])) q++;
  }
  if (q < end && (isAlnum(buf[q]) || buf[q] === 46)) return false;
  const t = epochNumberMs(buf, p, q);
  if (!(t >= EPOCH_MIN && t < EPOCH_MAX)) return false;
  EPOCH = t;
  return true;
}

/** `yyMMdd HHmmss` (HDFS) at `p`. */
function hdfsAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 13 > end || buf[p + 6] !== 32) return false;
  const yy = digits(buf, p, 2), mo = digits(buf, p + 2, 2), d = digits(buf, p + 4, 2);
  const h = digits(buf, p + 7, 2), mi = digits(buf, p + 9, 2), s = digits(buf, p + 11, 2);
  if (yy < 0 || mo < 1 || mo > 12 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 60) return false;
  const y = century(yy);
  if (d < 1 || d > daysInMonth(y, mo) || !ends(buf, p + 13, end)) return false;
  Y = y;
  MO = mo;
  D = d;
  H = h;
  MI = mi;
  S = s;
  MS = 0;
  return true;
}

/** `yy/MM/dd HH:MM:SS` (Spark) at `p`. */
function yyAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 17 > end || buf[p + 5] !== 47 || buf[p + 8] !== 32) return false;
  const yy = digits(buf, p, 2), mo = digits(buf, p + 3, 2), d = digits(buf, p + 6, 2);
  if (yy < 0 || mo < 1 || mo > 12) return false;
  const y = century(yy);
  if (d < 1 || d > daysInMonth(y, mo)) return false;
  const q = clockAt(buf, p + 9, end, false);
  if (q < 0 || !ends(buf, q, end)) return false;
  Y = y;
  MO = mo;
  D = d;
  return true;
}

/** `1286536309.450` (squid: ten digits of epoch seconds, a dot, milliseconds) at `p`. */
function squidAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 14 > end || buf[p + 10] !== 46) return false;
  const s = digits(buf, p, 10), ms = digits(buf, p + 11, 3);
  if (s < 0 || ms < 0 || !ends(buf, p + 14, end)) return false;
  EPOCH = s * 1000 + ms;
  return true;
}

/**
 * `Mmm dd HH:MM:SS[.f]` (RFC 3164: the day space-padded, `Jun  4`; also two digits, or one digit unpadded
 * as some daemons write it, `Jun 4`) at `p`, the month read.
 */
function syslogAt(buf: Uint8Array, p: number, end: number, mo: number): boolean {
  if (p + 14 > end || buf[p + 3] !== 32) return false;
  let d: number, t: number;
  if (buf[p + 4] === 32) {
    d = digits(buf, p + 5, 1);
    t = p + 7;
  } else if (buf[p + 5] === 32) {
    d = digits(buf, p + 4, 1);
    t = p + 6;
  } else {
    d = digits(buf, p + 4, 2);
    t = p + 7;
  }
  if (d < 1 || d > daysInMonth(2000, mo) || buf[t - 1] !== 32) return false;
  const q = clockAt(buf, t, end, false);
  if (q < 0 || !ends(buf, q, end)) return false;
  MO = mo;
  D = d;
  YEARLESS = true;
  return true;
}

/**
 * `Mmm d, yyyy h:mm:ss AM` (java.util.logging's `SimpleFormatter` default, `%1$tb %1$td, %1$tY
 * %1$tl:%1$tM:%1$tS %1$Tp`: the hour 1–12, unpadded, with AM or PM;
 * https://docs.oracle.com/en/java/javase/21/docs/api/java.logging/java/util/logging/SimpleFormatter.html)
 * at `p`, the month read. 12 AM is 00, 12 PM is 12.
 */
function jdkAt(buf: Uint8Array, p: number, end: number, mo: number): boolean {
  if (p + 21 > end || buf[p + 3] !== 32) return false;
  let q = p + 4;
  const d1 = isDigit(buf[q + 1]) ? digits(buf, q, 2) : digits(buf, q, 1);
  q += isDigit(buf[q + 1]) ? 2 : 1;
  if (d1 < 1 || buf[q] !== 44 || buf[q + 1] !== 32) return false;
  const y = digits(buf, q + 2, 4);
  q += 6;
  if (y < 0 || buf[q] !== 32 || d1 > daysInMonth(y, mo)) return false;
  q++;
  const wide = isDigit(buf[q + 1]);
  const h = digits(buf, q, wide ? 2 : 1);
  q += wide ? 2 : 1;
  if (h < 1 || h > 12 || buf[q] !== 58 || q + 9 > end) return false;
  const mi = digits(buf, q + 1, 2), sec = digits(buf, q + 4, 2);
  if (mi < 0 || mi > 59 || buf[q + 3] !== 58 || sec < 0 || sec > 60 || buf[q + 6] !== 32) return false;
  const m0 = buf[q + 7] | 0x20, m1 = buf[q + 8] | 0x20;
  if ((m0 !== 97 && m0 !== 112) || m1 !== 109 || (q + 9 < end && isAlnum(buf[q + 9]))) return false;
  Y = y;
  MO = mo;
  D = d1;
  H = (h % 12) + (m0 === 112 ? 12 : 0);
  MI = mi;
  S = sec;
  MS = 0;
  return true;
}

/** `Www Mmm dd HH:MM:SS[.f] yyyy` (ctime, Apache's error log) at `p`. */
function ctimeAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 23 > end || buf[p + 3] !== 32 || !weekdayAt(buf, p)) return false;
  const mo = monthAt(buf, p + 4);
  if (mo === 0 || buf[p + 7] !== 32) return false;
  let d: number, t = p + 11;
  if (buf[p + 8] === 32) d = digits(buf, p + 9, 1);
  else if (buf[p + 9] === 32) (d = digits(buf, p + 8, 1)), t = p + 10; // `Jun 2` (date(1) in some locales)
  else d = digits(buf, p + 8, 2);
  if (buf[t - 1] !== 32) return false;
  let q = clockAt(buf, t, end, false);
  if (d < 1 || q < 0 || q + 5 > end || buf[q] !== 32) return false;
  q = zoneWordAt(buf, q, end); // date(1): `Wed May 19 08:00:01 EST 2021`
  if (q + 5 > end || buf[q] !== 32) return false;
  const y = digits(buf, q + 1, 4);
  if (y < 0 || d > daysInMonth(y, mo)) return false;
  q += 5;
  if (!ends(buf, q, end)) return false;
  Y = y;
  MO = mo;
  D = d;
  return true;
}

/**
 * A zone's abbreviation ` UTC`, ` GMT` (then OFF is 0) or 2–5 other capitals (ambiguous: `EST` is
 * both America's and Australia's, so the time is read in the clock's zone) at `p`, as date(1) writes it
 * between the time and the year. Returns the position after it, or `p` when there is none.
 */
function zoneWordAt(buf: Uint8Array, p: number, end: number): number {
  let q = p + 1;
  while (q < end && q < p + 7 && buf[q] >= 65 && buf[q] <= 90) q++;
  const n = q - p - 1;
  if (n < 2 || n > 5 || q >= end || buf[q] !== 32) return p;
  if (n === 3) {
    const k = (buf[p + 1] << 16) | (buf[p + 2] << 8) | buf[p + 3];
    if (k === 0x555443 || k === 0x474d54) OFF = 0;
  }
  return q;
}

/** `Lmmdd HH:MM:SS.uuuuuu` (klog/glog; L one of I W E F) at `p`. */
function klogAt(buf: Uint8Array, p: number, end: number): boolean {
  const l = buf[p];
  if (l !== 73 && l !== 87 && l !== 69 && l !== 70) return false;
  if (p + 14 > end || buf[p + 5] !== 32) return false;
  const mo = digits(buf, p + 1, 2), d = digits(buf, p + 3, 2);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(2000, mo)) return false;
  const q = clockAt(buf, p + 6, end, false);
  if (q < 0 || !ends(buf, q, end)) return false;
  MO = mo;
  D = d;
  YEARLESS = true;
  return true;
}

/** `MM-DD HH:MM:SS.mmm` (Android logcat's "time" and "threadtime" formats) at `p`. No year. */
function logcatAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 14 > end || buf[p + 5] !== 32) return false;
  const mo = digits(buf, p, 2), d = digits(buf, p + 3, 2);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(2000, mo)) return false;
  const q = clockAt(buf, p + 6, end, false);
  if (q < 0 || !ends(buf, q, end)) return false;
  MO = mo;
  D = d;
  YEARLESS = true;
  return true;
}

/**
 * A logfmt line's `time=`, `ts=` or `timestamp=` field (Go's slog and logrus text handlers, go-kit), its
 * value bare or in double quotes, among the `key=value` fields of the line's first {@linkcode HEAD_BYTES}
 * bytes; the line's first field must be `key=…`.
 */
function logfmtAt(buf: Uint8Array, p: number, end: number): boolean {
  const lim = Math.min(end, p + HEAD_BYTES);
  let k = p;
  while (k < lim) {
    let e = k;
    while (e < lim && isKeyByte(buf[e])) e++;
    if (e === k || e >= lim || buf[e] !== 61) return false; // not key=…
    let v = e + 1, ve: number;
    if (v < lim && buf[v] === 34) {
      ve = stringEnd(buf, v, lim);
      if (ve < 0) return false;
      v++;
    } else {
      ve = v;
      while (ve < lim && buf[ve] !== 32) ve++;
    }
    if (isTimeKey(buf, k, e)) {
      OFF = NaN;
      YEARLESS = false;
      if (headAt(buf, v, ve)) return true;
      const t = isDigit(buf[v]) ? epochNumberMs(buf, v, ve) : NaN;
      if (!Number.isNaN(t)) {
        EPOCH = t;
        return true;
      }
    }
    k = v > e + 1 ? ve + 1 : ve; // past a closing quote
    while (k < lim && buf[k] === 32) k++;
  }
  return false;
}

/** A logfmt key's byte: a letter, digit, `_`, `.`, `-`, `@`. */
function isKeyByte(c: number): boolean {
  return isAlnum(c) || c === 95 || c === 46 || c === 45 || c === 64;
}

/** Any head layout starting exactly at `p` (dispatch on the first byte). */
function headAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p >= end) return false;
  const c = buf[p];
  if (isDigit(c)) {
    if (p + 4 < end) {
      const c4 = buf[p + 4], c2 = buf[p + 2];
      if (c4 === 45 || c4 === 47) return isoAt(buf, p, end);
      if ((c2 === 32 || c2 === 45 || c2 === 47) && isLetter(buf[p + 3])) return dmyAt(buf, p, end);
      if (c2 === 47) return yyAt(buf, p, end);
      if (c2 === 45) return logcatAt(buf, p, end);
      if (p + 6 < end && buf[p + 6] === 32) return hdfsAt(buf, p, end) || mysqlShortAt(buf, p, end);
      if (p + 8 < end && isDigit(c4) && !isDigit(buf[p + 8])) return compactAt(buf, p, end);
      if (p + 10 < end && buf[p + 10] === 46) return squidAt(buf, p, end);
    }
    return false;
  }
  if (c === 64) return taiAt(buf, p, end);
  const u = c | 0x20;
  if (u >= 97 && u <= 122 && p + 3 < end) {
    const mo = monthAt(buf, p);
    if (mo !== 0) return syslogAt(buf, p, end, mo) || jdkAt(buf, p, end, mo);
    if (buf[p + 3] === 32) return ctimeAt(buf, p, end);
    return klogAt(buf, p, end);
  }
  return false;
}

/** Skips a level word in capitals (3..8 letters) with an optional `[`/`]`/`:` and spaces; -1 if none. */
function afterLevelWord(buf: Uint8Array, p: number, end: number): number {
  const lim = Math.min(end, p + 64);
  let q = p;
  if (q < lim && buf[q] === 91) q++;
  const w = q;
  while (q < lim && buf[q] >= 65 && buf[q] <= 90) q++;
  const n = q - w;
  if (n < 3 || n > 8) return -1;
  if (q < lim && (buf[q] === 93 || buf[q] === 58)) q++;
  const s = q;
  while (q < lim && buf[q] === 32) q++;
  if (q === s) return -1;
  if (q < lim && buf[q] === 91) q++;
  return q;
}

/** The Common Log Format time `dd/Mmm/yyyy:HH:MM:SS ±hhmm]` at `p` (after its `[`). */
function clfAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 27 > end || buf[p + 2] !== 47 || buf[p + 6] !== 47 || buf[p + 11] !== 58) return false;
  const d = digits(buf, p, 2), mo = monthAt(buf, p + 3), y = digits(buf, p + 7, 4);
  if (mo === 0 || y < 0 || d < 1 || d > daysInMonth(y, mo)) return false;
  const q = clockAt(buf, p + 12, end, false);
  if (q < 0) return false;
  const z = zoneAt(buf, q, end);
  if (z === q || z >= end || buf[z] !== 93) return false;
  Y = y;
  MO = mo;
  D = d;
  return true;
}

/**
 * Epoch ms of a JSON number (as text `buf[p, q)`, no sign, no exponent), telling units apart by size:
 * below 1e11 seconds (1e11 s is the year 5138), below 1e14 milliseconds (1e14 ms is the year 5138, and
 * 1e11 ms is 1973-03-03), below 1e17 microseconds, else nanoseconds. A fraction is kept to the
 * millisecond (cut, not rounded).
 *
 * @param buf The bytes.
 * @param p Where the number's first digit is.
 * @param q Where the number ends (exclusive).
 * @returns Epoch ms, or NaN when the text is not `digits[.digits]`.
 */
export function epochNumberMs(buf: Uint8Array, p: number, q: number): number {
  let i = p;
  while (i < q && isDigit(buf[i])) i++;
  if (i === p) return NaN;
  // The unit by the count of digits (leading zeros aside); microseconds and nanoseconds are cut to ms
  // before they are summed, so no digit past 2^53 is lost.
  let z = p;
  while (z < i - 1 && buf[z] === 48) z++;
  const n = i - z, keep = n <= 14 ? n : n <= 17 ? n - 3 : n - 6;
  let int = 0;
  for (let k = z; k < z + keep; k++) int = int * 10 + buf[k] - 48;
  let frac = 0, scale = 1;
  if (i < q && buf[i] === 46) {
    i++;
    const f = i;
    while (i < q && isDigit(buf[i])) {
      if (i - f < 3) {
        frac = frac * 10 + buf[i] - 48;
        scale *= 10;
      }
      i++;
    }
    if (i === f) return NaN;
  }
  if (i !== q) return NaN;
  if (n <= 11) return int * 1000 + Math.floor(frac * 1000 / scale);
  return int;
}

/** Whether `buf[a, b)` is one of the JSON time keys `time`, `ts`, `timestamp`, `@timestamp`. */
function isTimeKey(buf: Uint8Array, a: number, b: number): boolean {
  const n = b - a;
  if (n === 2) return buf[a] === 116 && buf[a + 1] === 115;
  if (n === 4) return buf[a] === 116 && buf[a + 1] === 105 && buf[a + 2] === 109 && buf[a + 3] === 101;
  if (n === 10 && buf[a] === 64) a++;
  else if (n !== 9) return false;
  // "timestamp"
  return buf[a] === 116 && buf[a + 1] === 105 && buf[a + 2] === 109 && buf[a + 3] === 101 &&
    buf[a + 4] === 115 && buf[a + 5] === 116 && buf[a + 6] === 97 && buf[a + 7] === 109 && buf[a + 8] === 112;
}

/** The end (index of the closing quote) of a JSON string whose opening quote is at `p`, or -1. */
function stringEnd(buf: Uint8Array, p: number, end: number): number {
  for (let i = p + 1; i < end; i++) {
    const c = buf[i];
    if (c === 34) return i;
    if (c === 92) i++;
  }
  return -1;
}

/**
 * A JSON line's time field (see the module doc); sets the scratch fields or EPOCH. With `key` (the
 * field a file's first lines showed: `learnLayout`), the first field of that name at any depth; else the
 * first top-level field named as {@linkcode isTimeKey} says whose value is a time.
 */
function jsonAt(buf: Uint8Array, p: number, end: number, key: Uint8Array | null): boolean {
  const lim = Math.min(end, p + JSON_BYTES);
  let depth = 0;
  KEYED = false;
  for (let i = p; i < lim; i++) {
    const c = buf[i];
    if (c === 34) {
      const e = stringEnd(buf, i, lim);
      if (e < 0) return false;
      if (key ? sameBytes(buf, i + 1, e, key) : depth === 1 && isTimeKey(buf, i + 1, e)) {
        let v = e + 1;
        while (v < lim && (buf[v] === 32 || buf[v] === 9)) v++;
        if (v < lim && buf[v] === 58) {
          const r = valueTimeAt(buf, v + 1, lim, end);
          if (r === 1) return true;
          KEYED = key !== null;
          if (key) return false; // the learned field holds no time: the line is untimed, not guessed
        }
      }
      i = e;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (--depth <= 0) return false;
    }
  }
  return false;
}

/** Whether `buf[a, b)` holds the bytes of `key`. */
function sameBytes(buf: Uint8Array, a: number, b: number, key: Uint8Array): boolean {
  if (b - a !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (buf[a + i] !== key[i]) return false;
  return true;
}

/**
 * Reads the JSON value after a field's `:` at `v` as a time: a string in a head layout or of epoch
 * digits, a number (`epochNumberMs`), or an object holding one: MongoDB's extended JSON `{"$date": …}`
 * (a string, a number, or `{"$numberLong": "…"}`), log4j2's `{"epochSecond": s, "nanoOfSecond": ns}`.
 * Returns 1 when read (scratch fields or EPOCH set), else 0.
 */
function valueTimeAt(buf: Uint8Array, v: number, lim: number, end: number): number {
  while (v < lim && (buf[v] === 32 || buf[v] === 9)) v++;
  if (v >= lim) return 0;
  YEARLESS = false;
  OFF = NaN;
  if (buf[v] === 34) {
    const ve = stringEnd(buf, v, lim);
    if (ve < 0) return 0;
    if (headAt(buf, v + 1, ve)) return 1;
    const t = isDigit(buf[v + 1]) ? epochNumberMs(buf, v + 1, ve) : NaN; // "1700000000"
    if (Number.isNaN(t)) return 0;
    EPOCH = t;
    return 1;
  }
  if (buf[v] === 123) return objectTimeAt(buf, v, lim);
  let ne = v;
  while (ne < lim && (isDigit(buf[ne]) || buf[ne] === 46)) ne++;
  if (ne < end && isAlnum(buf[ne])) return 0; // 1e9, true, … (a number cut by the limit is none)
  const t = ne > v ? epochNumberMs(buf, v, ne) : NaN;
  if (Number.isNaN(t)) return 0;
  EPOCH = t;
  return 1;
}

/** The time in a JSON object at `o` (its `{`): see {@linkcode valueTimeAt}. Returns 1 when read. */
function objectTimeAt(buf: Uint8Array, o: number, lim: number): number {
  let sec = NaN, i = o + 1;
  while (i < lim) {
    while (i < lim && (buf[i] === 32 || buf[i] === 9 || buf[i] === 44)) i++;
    if (i >= lim || buf[i] !== 34) return 0;
    const e = stringEnd(buf, i, lim);
    if (e < 0) return 0;
    let v = e + 1;
    while (v < lim && (buf[v] === 32 || buf[v] === 9)) v++;
    if (v >= lim || buf[v] !== 58) return 0;
    const name = String.fromCharCode(...buf.subarray(i + 1, Math.min(e, i + 16)));
    if (name === "$date" || name === "$numberLong") return valueTimeAt(buf, v + 1, lim, lim);
    let ne = v + 1;
    while (ne < lim && (buf[ne] === 32 || isDigit(buf[ne]))) ne++;
    const n = Number(String.fromCharCode(...buf.subarray(v + 1, ne)).trim());
    if (name === "epochSecond") sec = n;
    else if (name === "nanoOfSecond" && sec >= 0) {
      EPOCH = sec * 1000 + Math.floor(n / 1e6);
      return 1;
    }
    if (ne >= lim || (buf[ne] !== 44 && buf[ne] !== 125)) return 0;
    if (buf[ne] === 125) break;
    i = ne + 1;
  }
  if (sec >= 0) {
    EPOCH = sec * 1000;
    return 1;
  }
  return 0;
}

/** Where a learned anchor's time is: a head layout, epoch digits, or a JSON object. */
type AnchorKind = "head" | "epoch" | "json";

/**
 * A learned place of a line's time: right after the `k`-th occurrence of the bytes `d` in the line's
 * first {@linkcode HEAD_BYTES} bytes (`k` 0: at the line's first byte).
 */
interface Anchor {
  d: Uint8Array;
  k: number;
  kind: AnchorKind;
}

/** The columns of a W3C extended log (`#Fields: date time …`) or a Zeek/Bro log (`#fields\tts\t…`). */
interface Columns {
  /** 9: fields split at each tab (Zeek); 32: at runs of spaces or tabs, `"…"` kept whole (W3C). */
  sep: number;
  /** Column indices of the date, the time of day, and an epoch time (-1: none). */
  date: number;
  time: number;
  epoch: number;
  /** The offset of the date and time (ms): 0 for W3C's GMT, a `#GMT-Offset:`'s, NaN for `-local`. */
  off: number;
}

/**
 * What a clock learned of one log from its first lines (`lineClock`'s `sample`): where its lines' time
 * sits when the general rules do not find it at the head.
 */
export interface TimeLayout {
  /** ANSI escape codes were seen: they are skipped on every line that holds one. */
  ansi: boolean;
  /** The JSON field holding the time (at any depth), or null: the general JSON rule. */
  jsonKey: Uint8Array | null;
  /** Places after a prefix (most lines first), tried on a line the general rules find no time in. */
  anchors: Anchor[];
  /** The columns named by a `#Fields:` header, or null. Updated by each such directive read. */
  columns: Columns | null;
  /** A `#GMT-Offset:` directive's offset in ms (W3C logs of Oracle's Web Cache), else 0. */
  gmtOffset: number;
}

/** How many bytes of a log's start {@linkcode lineClock} learns its layout from (`sample`). */
export const SAMPLE_BYTES = 32 * 1024;
/** How many of the sample's lines are looked at. */
const SAMPLE_LINES = 200;

function emptyLayout(): TimeLayout {
  return { ansi: false, jsonKey: null, anchors: [], columns: null, gmtOffset: 0 };
}

/**
 * A `#Fields:` (W3C) or `#fields` (Zeek) directive at `start`: the columns it names (their offset 0,
 * W3C's GMT, or NaN for `-local` ones; the caller applies a `#GMT-Offset:`); `prev` for another line or
 * for fields without a date and a time or a `ts` column.
 */
function fieldsOf(buf: Uint8Array, start: number, end: number, prev: Columns | null): Columns | null {
  const head = String.fromCharCode(...buf.subarray(start, Math.min(end, start + 8)));
  const zeek = head === "#fields\t";
  if (!zeek && head.toLowerCase() !== "#fields:") return prev;
  const text = new TextDecoder().decode(buf.subarray(start + 8, Math.min(end, start + HEAD_BYTES * 8)));
  const names = text.trim().split(zeek ? "\t" : /[ \t]+/).map((n) => n.toLowerCase());
  const at = (...ns: string[]) => names.findIndex((n) => ns.includes(n));
  const date = at("date", "date-local", "date-utc"), time = at("time", "time-local", "time-utc");
  const epoch = at("ts");
  if (epoch < 0 && (date < 0 || time < 0)) return prev;
  const local = names[date]?.endsWith("-local") ?? false;
  return { sep: zeek ? 9 : 32, date, time, epoch, off: local ? NaN : 0 };
}

/** The bounds of column `n` of the line at `start` (`cols.sep`): sets COL_A, COL_B; false if none. */
function columnAt(buf: Uint8Array, start: number, end: number, sep: number, n: number): boolean {
  let i = start;
  for (let c = 0;; c++) {
    if (sep === 32) { while (i < end && (buf[i] === 32 || buf[i] === 9)) i++; }
    if (i >= end) return false;
    let a = i, b: number;
    if (sep === 32 && buf[i] === 34) {
      b = i + 1;
      while (b < end && buf[b] !== 34) b++;
      a++;
      i = b + 1;
    } else {
      b = i;
      while (b < end && buf[b] !== sep && !(sep === 32 && buf[b] === 9)) b++;
      i = sep === 9 ? b + 1 : b;
    }
    if (c === n) {
      COL_A = a;
      COL_B = b;
      return true;
    }
  }
}

/** A data line of a log with {@linkcode Columns}: its date and time columns, or its epoch column. */
function columnsAt(buf: Uint8Array, start: number, end: number, cols: Columns): boolean {
  if (cols.epoch >= 0) {
    if (!columnAt(buf, start, end, cols.sep, cols.epoch)) return false;
    const t = epochNumberMs(buf, COL_A, COL_B);
    if (Number.isNaN(t)) return false;
    EPOCH = t;
    return true;
  }
  if (!columnAt(buf, start, end, cols.sep, cols.date) || COL_B - COL_A !== 10) return false;
  const da = COL_A;
  if (buf[da + 4] !== 45 || buf[da + 7] !== 45) return false;
  const y = digits(buf, da, 4), mo = digits(buf, da + 5, 2), d = digits(buf, da + 8, 2);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return false;
  if (!columnAt(buf, start, end, cols.sep, cols.time)) return false;
  const q = clockAt(buf, COL_A, COL_B, false);
  if (q !== COL_B) return false;
  Y = y;
  MO = mo;
  D = d;
  OFF = cols.off;
  return true;
}

/** Where the time of anchor `a` starts in the line at `start` (after its `k`-th `d`), or -1. */
function anchorAt(buf: Uint8Array, start: number, end: number, a: Anchor): number {
  if (a.k === 0) return start;
  const d = a.d, n = d.length, lim = Math.min(end, start + HEAD_BYTES) - n;
  let seen = 0;
  for (let i = start; i <= lim; i++) {
    if (buf[i] !== d[0] || (n === 2 && buf[i + 1] !== d[1])) continue;
    i += n - 1;
    if (++seen === a.k) return i + 1;
  }
  return -1;
}

/** Whether a time of day without a date (`08:09:33.814936`, strace's) is at the line's head. */
function timeOfDayAt(buf: Uint8Array, start: number, end: number): boolean {
  let p = start;
  if (buf[p] === 91) p++;
  const q = clockAt(buf, p, end, false);
  return q > 0 && (q >= end || !isAlnum(buf[q]));
}

/** Whether the time the scratch fields hold is one a file's layout may be learned from (1990..2099). */
function plausible(): boolean {
  if (!Number.isNaN(EPOCH)) return EPOCH >= EPOCH_MIN && EPOCH < EPOCH_MAX;
  return YEARLESS || (Y >= 1990 && Y < 2100);
}

/**
 * Whether a JSON key names a time: it holds `time`, `date`, `instant` or `stamp` (any case), is `t`,
 * `ts`, `@t` or `when`, or ends with `_at`, `At`, `_ts` or `Ts` (`created_at`, `startedAt`).
 */
function timeName(k: string): boolean {
  const l = k.toLowerCase();
  if (/time|date|instant|stamp/.test(l) || l === "t" || l === "ts" || l === "@t" || l === "when") return true;
  return /(_at|At|_ts|Ts)$/.test(k);
}

/**
 * Learns a log's {@linkcode TimeLayout} from its first lines (`sample`, cut at a line's end): ANSI codes;
 * `#Fields:` columns; the JSON field whose value is a time on most lines (named as {@linkcode timeName}
 * says, in 1990..2099; a standard name or the first one on a tie); and, where the general rules find no
 * time at the head of most lines, the places after a prefix where a time starts on at least two lines
 * (one, in a sample of one or two lines): see {@linkcode findAnchor}.
 *
 * @param sample The log's first bytes (at most {@linkcode SAMPLE_BYTES} are looked at).
 * @returns The layout.
 */
export function learnLayout(sample: Uint8Array): TimeLayout {
  const L = emptyLayout();
  const scratch = new Uint8Array(JSON_BYTES);
  const keys = new Map<string, number>(), anchors = new Map<string, { a: Anchor; n: number }>();
  let lines = 0, headTimed = 0, s = 0;
  const lim = Math.min(sample.length, SAMPLE_BYTES);
  while (s < lim && lines < SAMPLE_LINES) {
    let e = sample.indexOf(10, s);
    if (e < 0 || e > lim) e = lim;
    let buf = sample, a = s, b = e > s && sample[e - 1] === 13 ? e - 1 : e;
    s = e + 1;
    if (b === a) continue;
    lines++;
    if (hasEscape(buf, a, b)) {
      L.ansi = true;
      b = stripAnsi(buf, a, b, scratch);
      buf = scratch;
      a = 0;
    }
    if (buf[a] === 35 && isDirective(buf, a, b)) {
      L.columns = fieldsOf(buf, a, b, L.columns);
      const g = gmtOffsetOf(buf, a, b);
      if (!Number.isNaN(g)) L.gmtOffset = g;
      continue;
    }
    if (buf[a] === 123) {
      jsonKeys(buf, a, b, keys); // a JSON line's time is a field, not a place after a prefix
      continue;
    }
    OFF = NaN;
    YEARLESS = false;
    EPOCH = NaN;
    if (L.columns ? columnsAt(buf, a, b, L.columns) : generalAt(buf, a, b, null)) {
      headTimed++;
      continue;
    }
    const found = findAnchor(buf, a, b);
    if (!found) continue;
    const id = `${found.kind} ${found.k} ${found.d.join(",")}`;
    const seen = anchors.get(id);
    if (seen) seen.n++;
    else anchors.set(id, { a: found, n: 1 });
    if (found.kind === "json") jsonKeys(buf, anchorAt(buf, a, b, found), b, keys);
  }
  if (L.columns && L.gmtOffset && L.columns.off === 0) L.columns.off = L.gmtOffset;
  L.jsonKey = bestKey(keys);
  const ranked = [...anchors.values()].filter((x) => x.n >= 2 || lines <= 2).sort((x, y) => y.n - x.n);
  if (ranked.reduce((n, x) => n + x.n, 0) > headTimed) L.anchors = ranked.slice(0, 4).map((x) => x.a);
  return L;
}

/**
 * Whether the line at `a` is a W3C or Zeek directive (`#Name:` or `#name` and a tab, the name of letters
 * and `-`): a header, never a line whose time is learned.
 */
function isDirective(buf: Uint8Array, a: number, b: number): boolean {
  let i = a + 1;
  while (i < b && (isLetter(buf[i]) || buf[i] === 45 || buf[i] === 95)) i++;
  return i > a + 1 && i < b && (buf[i] === 58 || buf[i] === 9 || buf[i] === 32) && !isMysqlTime(buf, a, b);
}

/** A `#GMT-Offset: ±hhmm` directive's offset in ms, or NaN. */
function gmtOffsetOf(buf: Uint8Array, a: number, b: number): number {
  const t = String.fromCharCode(...buf.subarray(a, Math.min(b, a + 40)));
  const m = /^#GMT-Offset:\s*([+-])(\d\d):?(\d\d)\s*$/i.exec(t);
  if (!m) return NaN;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 3_600_000 + Number(m[3]) * 60_000);
}

/** The key seen with a time on most lines: a standard name ({@linkcode isTimeKey}) wins a tie, then the first. */
function bestKey(keys: Map<string, number>): Uint8Array | null {
  let best: string | null = null, bn = 0;
  const enc = new TextEncoder();
  for (const [k, n] of keys) {
    const std = (x: string) => {
      const b = enc.encode(x);
      return isTimeKey(b, 0, b.length);
    };
    if (n > bn || (n === bn && best !== null && std(k) && !std(best))) {
      best = k;
      bn = n;
    }
  }
  return best === null ? null : enc.encode(best);
}

/** Counts, once a line, each field of the JSON at `p` (any depth) named as a time whose value is one. */
function jsonKeys(buf: Uint8Array, p: number, end: number, keys: Map<string, number>): void {
  const lim = Math.min(end, p + JSON_BYTES), seen = new Set<string>();
  for (let i = p; i < lim; i++) {
    if (buf[i] !== 34) continue;
    const e = stringEnd(buf, i, lim);
    if (e < 0) return;
    let v = e + 1;
    while (v < lim && (buf[v] === 32 || buf[v] === 9)) v++;
    if (v < lim && buf[v] === 58 && e - i < 64) {
      const k = new TextDecoder().decode(buf.subarray(i + 1, e));
      EPOCH = NaN;
      if (!seen.has(k) && timeName(k) && valueTimeAt(buf, v + 1, lim, lim) === 1 && plausible()) {
        seen.add(k);
        keys.set(k, (keys.get(k) ?? 0) + 1);
      }
    }
    i = e;
  }
}

/**
 * The first place in the line's first {@linkcode HEAD_BYTES} bytes where a time starts after a prefix:
 * at a token's start (after a byte that is not a letter, digit, `.`, `-`, `_` or `/`), a head layout
 * with a date in 1990..2099, epoch digits (`epochAt`), or a JSON object holding a time field; or epoch
 * digits at the line's start. Its anchor is the one or two bytes before it that are neither letters nor
 * digits (one space where spaces pad), and how many times they occur up to there.
 */
function findAnchor(buf: Uint8Array, start: number, end: number): Anchor | null {
  const lim = Math.min(end, start + HEAD_BYTES);
  EPOCH = NaN;
  if (epochAt(buf, start, end)) return { d: new Uint8Array(0), k: 0, kind: "epoch" };
  for (let p = start + 1; p < lim; p++) {
    const prev = buf[p - 1];
    if (isAlnum(prev) || prev === 46 || prev === 45 || prev === 95 || prev === 47) continue;
    let kind: AnchorKind | null = null;
    OFF = NaN;
    YEARLESS = false;
    EPOCH = NaN;
    if (buf[p] === 123) {
      const k = new Map<string, number>();
      jsonKeys(buf, p, end, k);
      if (k.size > 0) kind = "json";
    } else if (headAt(buf, p, end) && plausible()) kind = "head";
    else if (epochAt(buf, p, end)) kind = "epoch";
    if (kind === null) continue;
    const two = p - 2 >= start && !isAlnum(buf[p - 2]) && !(buf[p - 2] === 32 && prev === 32);
    const d = buf.slice(two ? p - 2 : p - 1, p);
    const a: Anchor = { d, k: 1 << 30, kind };
    // how many times d occurs up to p (the count anchorAt will find it at)
    for (let k = 1; k < 64; k++) {
      a.k = k;
      if (anchorAt(buf, start, end, a) === p) return a;
    }
    return null;
  }
  return null;
}

/** The general rules at a line's head (after a BOM and ANSI codes): JSON, prefixes, the layouts. */
function generalAt(buf: Uint8Array, start: number, end: number, jsonKey: Uint8Array | null): boolean {
  const c = buf[start];
  if (c === 123) {
    if (jsonAt(buf, start, end, jsonKey)) return true;
    // the learned field is absent (another kind of line): the general rules; present, it failed: untimed
    return jsonKey !== null && !KEYED && jsonAt(buf, start, end, null);
  }
  let p = start;
  if (c === 60) {
    // <PRI>, then RFC 5424's version `1 `
    let q = p + 1;
    while (q < end && q < p + 5 && isDigit(buf[q])) q++;
    if (q > p + 1 && q < end && buf[q] === 62) {
      p = q + 1;
      if (p + 1 < end && buf[p] === 49 && buf[p + 1] === 32) p += 2;
    }
  } else if (c === 35 && isMysqlTime(buf, p, end)) {
    return headAt(buf, p + 8, end);
  }
  if (headAt(buf, p, end)) return true;
  if (p < end && buf[p] === 91 && headAt(buf, p + 1, end)) return true;
  const q = afterLevelWord(buf, p, end);
  if (q >= 0 && headAt(buf, q, end)) return true;
  if (p < end && isLetter(buf[p]) && logfmtAt(buf, p, end)) return true;
  const lim = Math.min(end, start + HEAD_BYTES);
  let b = start;
  while (b < lim && buf[b] !== 91) b++;
  return b < lim && clfAt(buf, b + 1, end);
}

/** Whether MySQL's slow-log header `# Time: ` starts at `p`. */
function isMysqlTime(buf: Uint8Array, p: number, end: number): boolean {
  return p + 8 < end && buf[p + 1] === 32 && buf[p + 2] === 84 && buf[p + 3] === 105 && buf[p + 4] === 109 &&
    buf[p + 5] === 101 && buf[p + 6] === 58 && buf[p + 7] === 32;
}

/**
 * Copies `buf[start, end)` (at most `into.length` bytes of it) into `into` without its ANSI escape
 * sequences (ECMA-48: `ESC [` parameters and a final byte 0x40–0x7E; `ESC ]` … BEL or `ESC \`; `ESC`
 * and one byte). Returns the bytes copied.
 */
function stripAnsi(buf: Uint8Array, start: number, end: number, into: Uint8Array): number {
  let n = 0, i = start;
  while (i < end && n < into.length) {
    const c = buf[i];
    if (c !== 27) {
      into[n++] = c;
      i++;
      continue;
    }
    const k = buf[i + 1];
    i += 2;
    if (k === 91) {
      while (i < end && (buf[i] < 0x40 || buf[i] > 0x7e)) i++;
      i++;
    } else if (k === 93) {
      while (i < end && buf[i] !== 7 && !(buf[i] === 27 && buf[i + 1] === 92)) i++;
      i += buf[i] === 7 ? 1 : 2;
    }
  }
  return n;
}

/** Whether `buf[start, end)` holds an ESC (0x1b) within its first {@linkcode HEAD_BYTES} bytes. */
function hasEscape(buf: Uint8Array, start: number, end: number): boolean {
  const lim = Math.min(end, start + HEAD_BYTES);
  for (let i = start; i < lim; i++) if (buf[i] === 27) return true;
  return false;
}

class Clock implements LineClock {
  readonly zone: string;
  zoneUsed = false;
  yearInferred = false;
  timeOfDayLines = 0;
  readonly layout: TimeLayout;
  readonly #toEpoch: (wall: number) => number;
  readonly #ref: number;
  readonly #refYear: number;
  readonly #scratch = new Uint8Array(JSON_BYTES);
  /** Nothing learned: no ANSI codes, columns, JSON field or anchors. */
  #plain: boolean;
  #lastDate = -1;
  #lastDayMs = 0;
  /** MO * 32 + D of the last year-less line, and its year (0: decided per line). */
  #lastMd = -1;
  #lastYear = 0;

  constructor(zone: string, ref: number, layout: TimeLayout) {
    this.zone = zone;
    this.#toEpoch = wallToEpoch(zone);
    this.#ref = ref;
    this.#refYear = new Date(ref + offsetAt(ref, zone)).getUTCFullYear();
    this.layout = layout;
    this.#plain = !layout.ansi && !layout.columns && layout.jsonKey === null && layout.anchors.length === 0;
  }

  timeOf(buf: Uint8Array, start: number, end: number): number {
    OFF = NaN;
    YEARLESS = false;
    EPOCH = NaN;
    // a UTF-8 byte order mark before a log's first line
    if (start + 3 <= end && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) {
      start += 3;
    }
    if (start >= end) return NaN;
    const c = buf[start];
    if (c === 27 || (!this.#plain && this.layout.ansi && hasEscape(buf, start, end))) {
      end = stripAnsi(buf, start, end, this.#scratch);
      buf = this.#scratch;
      start = 0;
      if (end === 0) return NaN;
    }
    // nothing learned (most logs): the general rules alone
    const ok = this.#plain && c !== 35 ? generalAt(buf, start, end, null) : this.#read(buf, start, end);
    if (!ok) {
      if (timeOfDayAt(buf, start, end)) this.timeOfDayLines++;
      return NaN;
    }
    if (!Number.isNaN(EPOCH)) return EPOCH;
    if (Number.isNaN(OFF)) this.zoneUsed = true;
    if (YEARLESS) {
      this.yearInferred = true;
      return this.#yearless();
    }
    const wall = this.#dayMs(Y, MO, D) + H * 3_600_000 + MI * 60_000 + S * 1000 + MS;
    return Number.isNaN(OFF) ? this.#toEpoch(wall) : wall - OFF;
  }

  /** The layout's reading of one line (ANSI codes gone): columns, the general rules, the anchors. */
  #read(buf: Uint8Array, start: number, end: number): boolean {
    const L = this.layout;
    if (buf[start] === 35) {
      // a `#Fields:` directive of a W3C or Zeek log names the columns from here on
      const cols = fieldsOf(buf, start, end, L.columns);
      if (cols) {
        if (cols !== L.columns && cols.off === 0) cols.off = L.gmtOffset;
        L.columns = cols;
        this.#plain = false;
        return false;
      }
    }
    if (L.columns && buf[start] !== 35) return columnsAt(buf, start, end, L.columns);
    if (generalAt(buf, start, end, L.jsonKey)) return true;
    for (let i = 0; i < L.anchors.length; i++) {
      const a = L.anchors[i], q = anchorAt(buf, start, end, a);
      if (q < 0) continue;
      OFF = NaN;
      YEARLESS = false;
      if (
        a.kind === "head"
          ? headAt(buf, q, end)
          : a.kind === "epoch"
          ? epochAt(buf, q, end)
          : jsonAt(buf, q, end, L.jsonKey)
      ) {
        return true;
      }
    }
    return false;
  }

  /** `daysFromCivil(y, mo, d)` in ms, remembered for the date of the line before. */
  #dayMs(y: number, mo: number, d: number): number {
    const key = (y * 16 + mo) * 32 + d;
    if (key !== this.#lastDate) {
      this.#lastDate = key;
      this.#lastDayMs = daysFromCivil(y, mo, d) * DAY;
    }
    return this.#lastDayMs;
  }

  /** The latest year (the reference's next or earlier) that puts the time at or before reference + a day. */
  #yearless(): number {
    const tod = H * 3_600_000 + MI * 60_000 + S * 1000 + MS;
    const md = MO * 32 + D;
    if (md !== this.#lastMd) {
      this.#lastMd = md;
      this.#lastYear = this.#yearOf(MO, D);
    }
    if (this.#lastYear !== 0) return this.#toEpoch(this.#dayMs(this.#lastYear, MO, D) + tod);
    for (let y = this.#refYear + 1; y > this.#refYear - 8; y--) {
      if (D > daysInMonth(y, MO)) continue; // Feb 29 of a common year
      const t = this.#toEpoch(this.#dayMs(y, MO, D) + tod);
      if (t <= this.#ref + DAY) return t;
    }
    return NaN;
  }

  /**
   * The year of month `mo`, day `d` whatever the time of day and the zone's offset (within ±15 h), or 0
   * when that depends on them (a day next to the reference's).
   */
  #yearOf(mo: number, d: number): number {
    const slack = 15 * 3_600_000, limit = this.#ref + DAY;
    for (let y = this.#refYear + 1; y > this.#refYear - 8; y--) {
      if (d > daysInMonth(y, mo)) continue;
      const first = daysFromCivil(y, mo, d) * DAY;
      if (first + DAY + slack <= limit) return y; // the day's last instant is at or before the limit
      if (first - slack <= limit) return 0; // the limit falls within the day: decide per line
    }
    return 0;
  }
}

/**
 * A clock for one log.
 *
 * @param opts.zone The zone for times without an offset (checked again here).
 * @param opts.modifiedMs The log's modification time (epoch ms), or null (then now). Layouts without a
 *   year (syslog, klog) get the latest year that puts the time at or before this instant plus one day of
 *   slack (for clocks a little apart): a December line in a log modified in January is last year's.
 *   February 29 goes back to the latest leap year that fits.
 * @returns The clock.
 * @throws {RangeError} when `opts.zone` is not a zone (see `checkZone`).
 */
export function lineClock(
  opts: { zone: string; modifiedMs: number | null; sample?: Uint8Array },
): LineClock {
  const zone = checkZone(opts.zone);
  const layout = opts.sample ? learnLayout(opts.sample) : emptyLayout();
  return new Clock(zone, opts.modifiedMs ?? Date.now(), layout);
}
