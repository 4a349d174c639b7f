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
}

// Scratch fields a layout reader fills (one thread; read at once by the caller, never kept).
let Y = 0, MO = 0, D = 0, H = 0, MI = 0, S = 0, MS = 0;
/** Explicit offset in ms, or NaN when the time had none (read in the clock's zone). */
let OFF = NaN;
/** Whether the layout had no year (syslog, klog): the clock picks it. */
let YEARLESS = false;
/** Epoch ms read directly (JSON numbers, squid), else NaN. */
let EPOCH = NaN;

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
  if (buf[p + 7] !== sep) return false;
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

/** `Www Mmm dd HH:MM:SS[.f] yyyy` (ctime, Apache's error log) at `p`. */
function ctimeAt(buf: Uint8Array, p: number, end: number): boolean {
  if (p + 24 > end || buf[p + 3] !== 32 || !weekdayAt(buf, p)) return false;
  const mo = monthAt(buf, p + 4);
  if (mo === 0 || buf[p + 7] !== 32 || buf[p + 10] !== 32) return false;
  const d = buf[p + 8] === 32 ? digits(buf, p + 9, 1) : digits(buf, p + 8, 2);
  let q = clockAt(buf, p + 11, end, false);
  if (d < 1 || q < 0 || q + 5 > end || buf[q] !== 32) return false;
  const y = digits(buf, q + 1, 4);
  if (y < 0 || d > daysInMonth(y, mo)) return false;
  q += 5;
  if (!ends(buf, q, end)) return false;
  Y = y;
  MO = mo;
  D = d;
  return true;
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
      const c4 = buf[p + 4];
      if (c4 === 45 || c4 === 47) return isoAt(buf, p, end);
      if (buf[p + 2] === 47) return yyAt(buf, p, end);
      if (buf[p + 2] === 45) return logcatAt(buf, p, end);
      if (p + 6 < end && buf[p + 6] === 32) return hdfsAt(buf, p, end);
      if (p + 10 < end && buf[p + 10] === 46) return squidAt(buf, p, end);
    }
    return false;
  }
  const u = c | 0x20;
  if (u >= 97 && u <= 122 && p + 3 < end) {
    const mo = monthAt(buf, p);
    if (mo !== 0) return syslogAt(buf, p, end, mo);
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
  let int = 0, i = p;
  while (i < q && isDigit(buf[i])) int = int * 10 + buf[i++] - 48;
  if (i === p) return NaN;
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
  if (int < 1e11) return int * 1000 + Math.floor(frac * 1000 / scale);
  if (int < 1e14) return int;
  if (int < 1e17) return Math.floor(int / 1000);
  return Math.floor(int / 1e6);
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

/** A JSON line's top-level time field (see the module doc); sets the scratch fields or EPOCH. */
function jsonAt(buf: Uint8Array, p: number, end: number): boolean {
  const lim = Math.min(end, p + JSON_BYTES);
  let depth = 0;
  for (let i = p; i < lim; i++) {
    const c = buf[i];
    if (c === 34) {
      const e = stringEnd(buf, i, lim);
      if (e < 0) return false;
      if (depth === 1) {
        let v = e + 1;
        while (v < lim && (buf[v] === 32 || buf[v] === 9)) v++;
        if (v < lim && buf[v] === 58 && isTimeKey(buf, i + 1, e)) {
          v++;
          while (v < lim && (buf[v] === 32 || buf[v] === 9)) v++;
          if (v < lim && buf[v] === 34) {
            const ve = stringEnd(buf, v, lim);
            if (ve < 0) return false;
            YEARLESS = false;
            OFF = NaN;
            if (headAt(buf, v + 1, ve)) return true;
            const t = isDigit(buf[v + 1]) ? epochNumberMs(buf, v + 1, ve) : NaN; // "1700000000"
            if (!Number.isNaN(t)) {
              EPOCH = t;
              return true;
            }
            i = ve;
            continue;
          }
          let ne = v;
          while (ne < lim && (isDigit(buf[ne]) || buf[ne] === 46)) ne++;
          if (ne < end && isAlnum(buf[ne])) ne = v; // 1e9, true, …
          const t = ne > v ? epochNumberMs(buf, v, ne) : NaN;
          if (!Number.isNaN(t)) {
            EPOCH = t;
            return true;
          }
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

class Clock implements LineClock {
  readonly zone: string;
  zoneUsed = false;
  yearInferred = false;
  readonly #toEpoch: (wall: number) => number;
  readonly #ref: number;
  readonly #refYear: number;
  #lastDate = -1;
  #lastDayMs = 0;
  /** MO * 32 + D of the last year-less line, and its year (0: decided per line). */
  #lastMd = -1;
  #lastYear = 0;

  constructor(zone: string, ref: number) {
    this.zone = zone;
    this.#toEpoch = wallToEpoch(zone);
    this.#ref = ref;
    this.#refYear = new Date(ref + offsetAt(ref, zone)).getUTCFullYear();
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
    let ok: boolean;
    if (c === 123) ok = jsonAt(buf, start, end);
    else {
      let p = start;
      if (c === 60) {
        // <PRI>, then RFC 5424's version `1 `
        let q = p + 1;
        while (q < end && q < p + 5 && isDigit(buf[q])) q++;
        if (q > p + 1 && q < end && buf[q] === 62) {
          p = q + 1;
          if (p + 1 < end && buf[p] === 49 && buf[p + 1] === 32) p += 2;
        }
      }
      ok = headAt(buf, p, end);
      if (!ok && p < end && buf[p] === 91) ok = headAt(buf, p + 1, end);
      if (!ok) {
        const q = afterLevelWord(buf, p, end);
        if (q >= 0) ok = headAt(buf, q, end);
      }
      if (!ok && p < end && (buf[p] | 0x20) >= 97 && (buf[p] | 0x20) <= 122) ok = logfmtAt(buf, p, end);
      if (!ok) {
        const lim = Math.min(end, start + HEAD_BYTES);
        let b = start;
        while (b < lim && buf[b] !== 91) b++;
        if (b < lim) ok = clfAt(buf, b + 1, end);
      }
    }
    if (!ok) return NaN;
    if (!Number.isNaN(EPOCH)) return EPOCH;
    if (Number.isNaN(OFF)) this.zoneUsed = true;
    if (YEARLESS) {
      this.yearInferred = true;
      return this.#yearless();
    }
    const wall = this.#dayMs(Y, MO, D) + H * 3_600_000 + MI * 60_000 + S * 1000 + MS;
    return Number.isNaN(OFF) ? this.#toEpoch(wall) : wall - OFF;
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
export function lineClock(opts: { zone: string; modifiedMs: number | null }): LineClock {
  const zone = checkZone(opts.zone);
  return new Clock(zone, opts.modifiedMs ?? Date.now());
}
