/**
 * Finding a log line's level from its raw bytes, without decoding the line.
 *
 * Rules, in order (the first that applies decides):
 * 1. JSON lines (`{` first): the `level`, `severity`, `lvl`, `loglevel` or `log.level` field, a string
 *    folded as below or a pino/bunyan number (10 trace … 60 fatal). No such field: UNKNOWN.
 * 2. logfmt lines (the first field is `key=…`): the `level=`, `lvl=` or `severity=` value. None: UNKNOWN.
 * 3. syslog `<PRI>` at the start: the severity `PRI % 8` (RFC 5424 §6.2.1).
 * 4. klog/glog headers `I0501 10:00:00…` (I, W, E, F) and Android logcat's one letter (V D I W E F A)
 *    after date, time, pid and tid, or before `/tag(pid):` or `/tag:` (the brief, time and tag formats).
 * 5. Otherwise the first level word of the line's header, within its first {@linkcode HEADER_BYTES}
 *    bytes (see {@linkcode headerLevel}): standing alone or beside a bracket, parenthesis, colon or
 *    pipe (`WARN`, `[error]`, `WARNING:`, `- INFO  [`, `ERROR[05-01|…]`, `[4242]INFO:`,
 *    `error[E0308]`; a `/` inside square brackets: `[main/WARN]`), never inside a name (`trace.go`,
 *    `java.lang.Error`, `on_error`), nor a sentence's word after a plain word (`… disk failure on sda`).
 *
 * Words fold case-insensitively: WARNING/WRN → WARN, ERR/SEVERE → ERROR, CRIT/CRITICAL/ALERT/EMERG/
 * PANIC/FAILURE → FATAL, VERBOSE → TRACE, INF → INFO, DBG → DEBUG (issue #2;
 * `../shared/cases/CONVENTIONS.md`; FAILURE is the most severe of Blue Gene/L RAS logs, issue #10).
 * A line with none is UNKNOWN: counted, never dropped.
 *
 * @module
 */

/** Level names, in order of severity; UNKNOWN last. Indexes into this list are level codes. */
export const LEVELS = ["TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "ERROR", "FATAL", "UNKNOWN"] as const;

/** A level name as tools return it. */
export type Level = typeof LEVELS[number];

/** The code of UNKNOWN in {@linkcode LEVELS}. */
export const UNKNOWN = 7;

/**
 * How many plain words (letters only, some lower-case: a host, a program, a logger's name) may stand
 * before a line's level word in its header (rule 5); header fields with a digit, in brackets, in
 * capitals or without letters are not counted.
 */
export const HEADER_NAMES = 2;
/** How many bytes from a line's start may hold its level word (rule 5). */
export const HEADER_BYTES = 200;
/** How many bytes from a line's start a structured level field is looked for in (rules 1 and 2). */
export const STRUCTURED_BYTES = 4096;

const T = 0, D = 1, I = 2, N = 3, W = 4, E = 5, F = 6;

const WORDS: Record<string, number> = {
  trace: T,
  trc: T,
  verbose: T,
  debug: D,
  dbg: D,
  info: I,
  inf: I,
  information: I,
  notice: N,
  warn: W,
  warning: W,
  wrn: W,
  error: E,
  err: E,
  severe: E,
  fatal: F,
  ftl: F,
  crit: F,
  critical: F,
  alert: F,
  emerg: F,
  emergency: F,
  panic: F,
  failure: F,
};

/**
 * The level of a level name as a log table stores it (a ClickHouse `SeverityText`, issue #14), folded as
 * the words of a line's header are: `warning`/`WRN` → WARN, `err`/`SEVERE` → ERROR, `CRITICAL` → FATAL, …
 * Only ASCII letters are folded to lower case (ClickHouse's `lower` does the same on the server, so a
 * query can select a level's names exactly); anything else, spaces around a word included, is UNKNOWN.
 *
 * @param name The stored text.
 * @returns A code: an index into {@linkcode LEVELS}.
 * @example
 * ```ts
 * import { LEVELS, levelOfName } from "./level.ts";
 * console.assert(LEVELS[levelOfName("Warning")] === "WARN" && LEVELS[levelOfName("weird")] === "UNKNOWN");
 * ```
 */
export function levelOfName(name: string): number {
  const lower = name.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  return Object.hasOwn(WORDS, lower) ? WORDS[lower] : UNKNOWN;
}

/**
 * The lower-case level words that fold to each level ({@linkcode levelOfName}), by level code; UNKNOWN's
 * list is empty (it is every other name).
 */
export function levelNames(): string[][] {
  const out: string[][] = LEVELS.map(() => []);
  for (const [w, code] of Object.entries(WORDS)) out[code].push(w);
  return out;
}

/** A small int hash of lower-cased ASCII letters buf[a, b); stays a V8 small integer (no allocation). */
function hashWord(buf: Uint8Array, a: number, b: number): number {
  let h = b - a;
  for (let i = a; i < b; i++) h = (h * 31 + (buf[i] | 0x20)) & 0xffffff;
  return h & (TABLE_SIZE - 1);
}

const TABLE_SIZE = 1024;
/** Open-addressed table of level words: slot -> word bytes and level code. */
const TABLE_WORDS: (Uint8Array | undefined)[] = new Array(TABLE_SIZE);
const TABLE_CODES = new Int8Array(TABLE_SIZE).fill(-1);
for (const [w, code] of Object.entries(WORDS)) {
  const bytes = new TextEncoder().encode(w);
  let slot = hashWord(bytes, 0, bytes.length);
  while (TABLE_WORDS[slot]) slot = (slot + 1) & (TABLE_SIZE - 1);
  TABLE_WORDS[slot] = bytes;
  TABLE_CODES[slot] = code;
}

/** The level of the word buf[a, b) (ASCII letters, any case), or -1 when it is no level word. */
function wordLevel(buf: Uint8Array, a: number, b: number): number {
  const len = b - a;
  if (len < 3 || len > 11) return -1;
  let slot = hashWord(buf, a, b);
  for (let w = TABLE_WORDS[slot]; w !== undefined; w = TABLE_WORDS[slot]) {
    if (w.length === len) {
      let k = 0;
      while (k < len && (buf[a + k] | 0x20) === w[k]) k++;
      if (k === len) return TABLE_CODES[slot];
    }
    slot = (slot + 1) & (TABLE_SIZE - 1);
  }
  return -1;
}

/** 1 for ASCII letters. */
const LETTER = new Uint8Array(256);
/** 1 for bytes that may stand before a level word. */
const BEFORE = new Uint8Array(256);
/** 1 for bytes that may stand after a level word. */
const AFTER = new Uint8Array(256);
for (let c = 65; c <= 90; c++) LETTER[c] = LETTER[c + 32] = 1;
for (const c of " \t[]()<|:=\"',;{*") BEFORE[c.charCodeAt(0)] = 1;
for (const c of " \t[]()>|:,;\"'}=\r\x1b") AFTER[c.charCodeAt(0)] = 1;
/** What a byte is to the header walk of rule 5: 0 other (digits too), 1 letter, 2 blank, 4 `[`, 5 `]`, 6 ESC. */
const CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) if (LETTER[c]) CLASS[c] = 1;
CLASS[32] = CLASS[9] = 2;
CLASS[0x5b] = 4;
CLASS[0x5d] = 5;
CLASS[0x1b] = 6;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Finds the level of one line.
 *
 * @param buf Bytes holding the line.
 * @param start Offset of the line's first byte in `buf`.
 * @param end Offset just past the line's last byte (its end of line excluded; a trailing `\r` is
 *   ignored). Only the first {@linkcode STRUCTURED_BYTES} bytes are looked at.
 * @param hint Optional: the offset from `start` of the line's first ASCII letter or ESC within its
 *   first 32 bytes (as `SimdScanner.lines` gives it), or 255 for none; it only makes the answer faster.
 * @returns A code: an index into {@linkcode LEVELS}.
 * @example
 * ```ts
 * import { LEVELS, levelOf } from "./level.ts";
 * const line = new TextEncoder().encode("2015-10-18 18:01:47,978 WARN [main] x");
 * console.assert(LEVELS[levelOf(line, 0, line.length)] === "WARN");
 * ```
 */
export function levelOf(buf: Uint8Array, start: number, end: number, hint = -1): number {
  if (end - start > STRUCTURED_BYTES) end = start + STRUCTURED_BYTES;
  if (hint > 0 && hint < 255) {
    // Fast path for the common layout, a line that starts with a timestamp or a bracket: the first
    // letter run (found by SIMD) is the first candidate of rule 5. Same answer as the full rules.
    const first = buf[start];
    const a = start + hint;
    if (first !== 0x7b && first !== 0x3c && first !== 32 && first !== 9 && a < end && LETTER[buf[a]] === 1) {
      if (first >= 48 && first <= 57) {
        const android = androidLevel(buf, start, end);
        if (android >= 0) return android;
      }
      let i = a + 1;
      while (i < end && LETTER[buf[i]] === 1) i++;
      const len = i - a;
      if (len >= 3 && len <= 11 && BEFORE[buf[a - 1]] === 1 && (i >= end || AFTER[buf[i]] === 1)) {
        const lvl = wordLevel(buf, a, i);
        if (lvl >= 0) return lvl;
      }
    }
  }
  let i = start;
  while (i < end && (buf[i] === 32 || buf[i] === 9)) i++;
  if (i >= end) return UNKNOWN;
  const first = buf[i];
  if (first === 0x7b) return jsonLevel(buf, i, end); // {
  if (first === 0x3c) { // <PRI>
    const s = syslogLevel(buf, i, end);
    if (s >= 0) return s;
  }
  const limit = Math.min(end, i + HEADER_BYTES);
  if (LETTER[first]) {
    const t = syslogStamp(buf, i, end);
    if (t > 0) return headerLevel(buf, t, end, limit);
    let j = i;
    while (j < end && (LETTER[buf[j]] || isDigit(buf[j]) || buf[j] === 95 || buf[j] === 46)) j++;
    if (j < end && buf[j] === 61) return logfmtLevel(buf, i, end); // first field is key=…
    const k = buf[i + 1] === 47 ? logcatTagLevel(buf, i, end) : klogLevel(buf, i, end);
    if (k >= 0) return k;
  } else if (isDigit(first)) {
    const a = androidLevel(buf, i, end);
    if (a >= 0) return a;
  } else if (first === 0x5b) {
    const t = apacheStamp(buf, i, end);
    if (t > 0) return headerLevel(buf, t, end, limit);
  }
  return headerLevel(buf, i, end, limit);
}

/**
 * Rule 5: the first level word of the line's header. The line is read as blank-separated fields; a
 * level word may stand in any field while every field before it looks like a header field:
 * - one with a digit: times, dates, numbers, pids, hosts such as `R02-M1-N0-C:J12-U11`;
 * - one without letters (`-`, `***`), in square brackets (`[Sun Dec 04 04:47:44 2005]`), in capitals
 *   (`RAS`, `KERNEL`, `CBS`), or a month or weekday name (`Jun`, `Sun`);
 * - or one of at most {@linkcode HEADER_NAMES} plain words (a host, a program, a logger).
 *
 * A field with letters, not in square brackets, that ends in `:` is a program tag (`sshd[24200]:`,
 * `logrotate:`): the message starts after it, and only its first word may still be a level
 * (`sshd[1]: error: …`, `xinetd[2]: warning: …`, `logrotate: ALERT …`), unless that word opens a
 * sentence (`kernel: Failure registering …`: a capital, lower-case letters, a blank). A field with
 * letters that starts with `"` is quoted text (an access log's request), not a header field.
 *
 * So Blue Gene/L RAS lines keep their level after eight header fields (`- 1117838570 2005.06.03
 * R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO …`), and the
 * search ends at the first plain word too many, the word after a tag or quoted text: the level words of
 * a message (`sshd[1]: authentication failure;`) are not the line's level.
 */
function headerLevel(buf: Uint8Array, i: number, end: number, limit: number): number {
  // Kept small, rare cases in helpers: V8 inlines it into levelOf only under 460 bytes of bytecode,
  // and that is worth ~20% on lines that reach it (measured on Loghub's Apache lines).
  // `limit`: the line's start + HEADER_BYTES (or its end); `i` may be past a timestamp (see syslogStamp).
  const start = i;
  let names = 0; // plain words seen
  let depth = 0; // square brackets open
  let escEnd = -1; // where the last ANSI colour code ended: a delimiter
  let from = i; // where the field starts
  let flags = 0; // of the field so far: LETTERS, GROUPED (it starts in or with square brackets)
  while (i < limit) {
    const c = buf[i];
    if (LETTER[c] === 0) {
      const k = CLASS[c];
      if (k === 2) { // a field ends
        if (flags === LETTERS && (names = afterField(buf, from, i, names, depth, limit)) < 0) return ~names;
        from = i + 1;
        flags = depth > 0 ? GROUPED : 0;
      } else if (k === 4) {
        if (depth++ === 0 && i === from) flags = GROUPED;
      } else if (k === 5) {
        if (depth > 0) depth--;
      } else if (k === 6) {
        i = escEnd = ansiEnd(buf, i, end);
        continue;
      }
      i++;
      continue;
    }
    const a = i;
    do i++; while (i < end && LETTER[buf[i]] === 1);
    flags |= LETTERS;
    const len = i - a;
    if (len >= 3 && len <= 11) {
      const lvl = candidate(buf, a, i, end, a === start || a === escEnd, depth, names);
      if (lvl >= 0) return lvl;
    }
  }
  return UNKNOWN;
}

const LETTERS = 1, GROUPED = 2;

function isDigitOrBlank(c: number): boolean {
  return c === 32 || (c >= 48 && c <= 57);
}

/** True when buf[i, i + 8) is `hh:mm:ss` (digits and colons). */
function clock(buf: Uint8Array, i: number): boolean {
  return isDigit(buf[i]) && isDigit(buf[i + 1]) && buf[i + 2] === 58 && isDigit(buf[i + 3]) &&
    isDigit(buf[i + 4]) && buf[i + 5] === 58 && isDigit(buf[i + 6]) && isDigit(buf[i + 7]);
}

/**
 * Where the header walk may start past a BSD syslog timestamp `Mmm dd hh:mm:ss ` at `i` (`Dec 10
 * 09:48:23 `, `Jul  6 …`): `i + 16`, or -1 when there is none (or nothing after it). The walk of rule 5
 * over it finds no level and leaves no state (a month name, digits: no plain word counted), so starting
 * after it gives the same level, without the work (issue #11: a quarter of Loghub's lines).
 */
function syslogStamp(buf: Uint8Array, i: number, end: number): number {
  if (end - i <= 16 || buf[i + 3] !== 32 || buf[i + 6] !== 32 || buf[i + 15] !== 32) return -1;
  if (!isDigitOrBlank(buf[i + 4]) || !isDigit(buf[i + 5]) || !clock(buf, i + 7)) return -1;
  return dateName(buf, i, i + 3) ? i + 16 : -1;
}

/**
 * Like {@linkcode syslogStamp}, for Apache's error log `[Www Mmm dd hh:mm:ss yyyy] ` (`[Sun Dec 04
 * 04:47:44 2005] [error] …`): `i + 27`, or -1. A field in square brackets is a header field to rule 5,
 * holding no level word here, and leaves no state after its `]`.
 */
function apacheStamp(buf: Uint8Array, i: number, end: number): number {
  if (end - i <= 27 || buf[i + 4] !== 32 || buf[i + 8] !== 32 || buf[i + 11] !== 32) return -1;
  if (buf[i + 20] !== 32 || buf[i + 25] !== 0x5d || buf[i + 26] !== 32) return -1;
  if (!isDigitOrBlank(buf[i + 9]) || !isDigit(buf[i + 10]) || !clock(buf, i + 12)) return -1;
  for (let k = 21; k < 25; k++) if (!isDigit(buf[i + k])) return -1;
  return dateName(buf, i + 1, i + 4) && dateName(buf, i + 5, i + 8) ? i + 27 : -1;
}

/**
 * The header walk after the field buf[from, to) (with letters, not in square brackets) has ended: the
 * count of plain words so far, or, when the header has ended, `~level` (the line's level, from
 * {@linkcode afterTag} after a program tag, or UNKNOWN). `depth`: the brackets open at its end.
 */
function afterField(
  buf: Uint8Array,
  from: number,
  to: number,
  names: number,
  depth: number,
  limit: number,
): number {
  if (buf[from] === 34) return ~UNKNOWN; // quoted text
  if (buf[to - 1] === 58 && depth === 0) return ~afterTag(buf, to, limit); // `name:` / `name[pid]:`
  if (!plainWord(buf, from, to) || dateName(buf, from, to)) return names;
  return names + 1 > HEADER_NAMES ? ~UNKNOWN : names + 1;
}

/**
 * After a program tag ending at `i`: the level of the message's first word, if it is one and does not
 * open a sentence (`Failure registering …`); fields without letters (`***`) are passed over.
 */
function afterTag(buf: Uint8Array, i: number, limit: number): number {
  let letters = false;
  for (; i < limit; i++) {
    const c = buf[i];
    if (c === 32 || c === 9) {
      if (letters) return UNKNOWN;
    } else if (LETTER[c] === 1) {
      const a = i;
      do i++; while (i < limit && LETTER[buf[i]] === 1);
      letters = true;
      if (i - a >= 3 && i - a <= 11 && BEFORE[buf[a - 1]] === 1 && (i >= limit || AFTER[buf[i]] === 1)) {
        const lvl = wordLevel(buf, a, i);
        if (lvl >= 0 && !(i < limit && (buf[i] === 32 || buf[i] === 9) && capitalized(buf, a, i))) return lvl;
      }
      i--;
    }
  }
  return UNKNOWN;
}

/**
 * The level of the header's word buf[a, b) (3 to 11 letters), or -1: a level word with a delimiter on
 * each side (`first`: it starts the line or follows a colour code; a `/` counts inside square brackets),
 * not a word of a sentence after `names` plain words ({@linkcode prose}).
 */
function candidate(
  buf: Uint8Array,
  a: number,
  b: number,
  end: number,
  first: boolean,
  depth: number,
  names: number,
): number {
  if (!(first || BEFORE[buf[a - 1]] === 1 || slashed(buf[a - 1], depth))) return -1;
  if (b < end && AFTER[buf[b]] !== 1 && !slashed(buf[b], depth)) return -1;
  const lvl = wordLevel(buf, a, b);
  return lvl >= 0 && names > 0 && prose(buf, a, b, end) ? -1 : lvl;
}

/**
 * True when `c` is a `/` inside square brackets (`depth` > 0): a delimiter beside a level word there
 * (log4j's `[Server thread/WARN]`, Celery's `[…: ERROR/MainProcess]`), never outside (`GET /debug`).
 */
function slashed(c: number, depth: number): boolean {
  return c === 47 && depth > 0;
}

/**
 * True when the level word buf[a, b), found after a plain word of the header, reads as a word of a
 * sentence rather than a level: not all capitals, and blanks (or the line's end, a comma, a semicolon)
 * on both sides (`… authentication failure for root`, `… Disk error detected`, `0 errors, 1 warning`);
 * a level after a host or a logger's name is in capitals (`host1 myapp ERROR …`) or beside punctuation
 * (`myapp [error]`, `myapp warning: …`, `host:5070 error : …`).
 */
function prose(buf: Uint8Array, a: number, b: number, end: number): boolean {
  const before = buf[a - 1];
  if (before !== 32 && before !== 9) return false;
  if (b < end) {
    const after = buf[b];
    if (after !== 32 && after !== 9 && after !== 44 && after !== 59 && after !== 13) return false;
    let j = b;
    while (j < end && (buf[j] === 32 || buf[j] === 9)) j++;
    if (buf[j] === 58 && j < end) return false; // `error : …` (Proxifier): a label, not prose
  }
  for (let i = a; i < b; i++) if (buf[i] >= 97) return true;
  return false;
}

/** True when buf[a, b) has a lower-case ASCII letter and no digit: a plain word, not an id or a capital name. */
function plainWord(buf: Uint8Array, a: number, b: number): boolean {
  let lower = false;
  for (let i = a; i < b; i++) {
    const c = buf[i];
    if (c >= 48 && c <= 57) return false;
    if (c >= 97 && c <= 122) lower = true;
  }
  return lower;
}

/**
 * Where the ANSI escape sequence `ESC [ … final byte` at `i` ends (just past its final byte); `i + 1`
 * for a lone ESC. Either is a delimiter before a level word.
 */
function ansiEnd(buf: Uint8Array, i: number, end: number): number {
  if (i + 1 >= end || buf[i + 1] !== 0x5b) return i + 1;
  i += 2;
  while (i < end && (buf[i] < 0x40 || buf[i] > 0x7e)) i++;
  return i + 1;
}

/**
 * English month and weekday names (`Jun`, `Sun`) as 24-bit codes of their three bytes, each at its
 * code modulo {@linkcode DATE_SLOTS} (no two share a slot): one load and one compare, no hashing.
 */
const DATE_SLOTS = 62;
const DATE_NAMES = new Int32Array(DATE_SLOTS);
for (const w of "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec Mon Tue Wed Thu Fri Sat Sun".split(" ")) {
  const code = w.charCodeAt(0) << 16 | w.charCodeAt(1) << 8 | w.charCodeAt(2);
  if (DATE_NAMES[code % DATE_SLOTS] !== 0) throw new Error(`date name slots collide at ${w}`);
  DATE_NAMES[code % DATE_SLOTS] = code;
}

/** True when buf[a, b) is a three-letter month or weekday name (`Jun`, `Sun`): part of a timestamp. */
function dateName(buf: Uint8Array, a: number, b: number): boolean {
  if (b - a !== 3) return false;
  const code = buf[a] << 16 | buf[a + 1] << 8 | buf[a + 2];
  return DATE_NAMES[code % DATE_SLOTS] === code;
}

/** True when buf[a, b) is a capital then some lower-case letters (`Failure`): a sentence's first word. */
function capitalized(buf: Uint8Array, a: number, b: number): boolean {
  if (buf[a] >= 97) return false;
  for (let i = a + 1; i < b; i++) if (buf[i] >= 97) return true;
  return false;
}

/** A word or number value at `i` (quoted or not), folded; -1 when it names no level. */
function valueLevel(buf: Uint8Array, i: number, end: number): number {
  let quoted = false;
  if (i < end && (buf[i] === 34 || buf[i] === 39)) {
    quoted = true;
    i++;
  }
  if (i < end && isDigit(buf[i])) {
    let n = 0;
    while (i < end && isDigit(buf[i]) && n < 1000) n = n * 10 + buf[i++] - 48;
    if (n <= 10) return T; // pino/bunyan: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal
    if (n <= 20) return D;
    if (n <= 30) return I;
    if (n <= 40) return W;
    if (n <= 50) return E;
    return F;
  }
  const a = i;
  while (i < end && LETTER[buf[i]]) i++;
  if (i === a) return -1;
  if (i < end && !quoted && !AFTER[buf[i]]) return -1;
  if (quoted && i < end && buf[i] !== 34 && buf[i] !== 39) return -1;
  return wordLevel(buf, a, i);
}

const JSON_KEYS = new Set(["level", "severity", "lvl", "loglevel", "log.level"]);

function keyAt(buf: Uint8Array, a: number, b: number): string {
  let s = "";
  for (let i = a; i < b && i - a < 12; i++) s += String.fromCharCode(buf[i] | (LETTER[buf[i]] ? 0x20 : 0));
  return s;
}

/** Rule 1: a JSON object's level field. */
function jsonLevel(buf: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const q = buf.indexOf(34, i);
    if (q < 0 || q >= end) return UNKNOWN;
    const prev = prevNonSpace(buf, q);
    let close = q + 1;
    while (close < end && buf[close] !== 34) close += buf[close] === 92 ? 2 : 1;
    if (close >= end) return UNKNOWN;
    if ((prev === 0x7b || prev === 0x2c) && close - q - 1 <= 12 && JSON_KEYS.has(keyAt(buf, q + 1, close))) {
      let j = close + 1;
      while (j < end && (buf[j] === 32 || buf[j] === 9)) j++;
      if (j < end && buf[j] === 58) {
        j++;
        while (j < end && (buf[j] === 32 || buf[j] === 9)) j++;
        const lvl = valueLevel(buf, j, end);
        if (lvl >= 0) return lvl;
      }
    }
    i = close + 1;
  }
  return UNKNOWN;
}

function prevNonSpace(buf: Uint8Array, i: number): number {
  let j = i - 1;
  while (j >= 0 && (buf[j] === 32 || buf[j] === 9)) j--;
  return j >= 0 ? buf[j] : -1;
}

const LOGFMT_KEYS = ["level=", "lvl=", "severity="].map((k) => new TextEncoder().encode(k));

/** Rule 2: a logfmt line's `level=` value. */
function logfmtLevel(buf: Uint8Array, i: number, end: number): number {
  for (let p = i; p < end; p++) {
    if (p !== i && buf[p - 1] !== 32 && buf[p - 1] !== 9) continue;
    for (const key of LOGFMT_KEYS) {
      let k = 0;
      while (k < key.length && p + k < end && (buf[p + k] | (LETTER[buf[p + k]] ? 0x20 : 0)) === key[k]) k++;
      if (k === key.length) {
        const lvl = valueLevel(buf, p + k, end);
        if (lvl >= 0) return lvl;
      }
    }
  }
  return UNKNOWN;
}

/** Rule 3: `<PRI>` where severity = PRI % 8 (RFC 5424 §6.2.1). */
function syslogLevel(buf: Uint8Array, i: number, end: number): number {
  let j = i + 1;
  let pri = 0;
  while (j < end && j - i <= 3 && isDigit(buf[j])) pri = pri * 10 + buf[j++] - 48;
  if (j === i + 1 || j >= end || buf[j] !== 0x3e || pri > 191) return -1;
  return [F, F, F, E, W, N, I, D][pri % 8];
}

/** One-letter levels (Android logcat, klog): V D I W E F A; -1 for any other byte. */
function letterLevel(c: number): number {
  switch (c) {
    case 86: // V
      return T;
    case 68: // D
      return D;
    case 73: // I
      return I;
    case 87: // W
      return W;
    case 69: // E
      return E;
    case 70: // F
    case 65: // A
      return F;
  }
  return -1;
}

/** Rule 4: klog/glog `Lmmdd hh:mm:ss`. */
function klogLevel(buf: Uint8Array, i: number, end: number): number {
  if (end - i < 14) return -1;
  for (let k = 1; k <= 4; k++) if (!isDigit(buf[i + k])) return -1;
  if (buf[i + 5] !== 32 || !isDigit(buf[i + 6]) || !isDigit(buf[i + 7]) || buf[i + 8] !== 58) return -1;
  return buf[i] === 86 || buf[i] === 68 ? -1 : letterLevel(buf[i]); // klog has no V or D
}

/**
 * Rule 4: Android logcat's `L/tag(pid): …` ("brief" and, after the time, "time"), `L/tag: …` ("tag"),
 * where L is one of V D I W E F A: the level, or -1. The tag is 2 to 64 bytes without a blank (padded
 * with blanks before its `(`), so a sentence such as `I/O error: …` is not read as one.
 */
function logcatTagLevel(buf: Uint8Array, i: number, end: number): number {
  const lvl = letterLevel(buf[i]);
  if (lvl < 0 || buf[i + 1] !== 47) return -1;
  let j = i + 2;
  const stop = Math.min(end, j + 64);
  while (j < stop && buf[j] !== 40 && buf[j] !== 58 && buf[j] !== 32 && buf[j] !== 9) j++;
  if (j - (i + 2) < 2 || j >= stop) return -1;
  if (buf[j] === 58) return lvl; // `W/Tag: …`
  while (j < stop && buf[j] === 32) j++; // the brief format pads the tag: `F/libc    ( 4242):`
  if (buf[j] !== 40) return -1;
  j++;
  while (j < end && buf[j] === 32) j++;
  const a = j;
  while (j < end && isDigit(buf[j])) j++;
  return j > a && buf[j] === 41 && buf[j + 1] === 58 ? lvl : -1; // `E/Tag(  123): …`
}

/** Rule 4: Android logcat "threadtime": `MM-DD hh:mm:ss.mmm  pid  tid L tag: …`. */
function androidLevel(buf: Uint8Array, i: number, end: number): number {
  // Date and time: 18 bytes "MM-DD hh:mm:ss.mmm".
  if (end - i < 26 || buf[i + 2] !== 45 || buf[i + 5] !== 32 || buf[i + 8] !== 58 || buf[i + 14] !== 46) {
    return -1;
  }
  let j = i + 15;
  while (j < end && isDigit(buf[j])) j++;
  if (buf[j] === 32 && buf[j + 2] === 47) return logcatTagLevel(buf, j + 1, end); // "time" format
  for (let field = 0; field < 2; field++) { // pid, tid
    if (j >= end || buf[j] !== 32) return -1;
    while (j < end && buf[j] === 32) j++;
    const a = j;
    while (j < end && isDigit(buf[j])) j++;
    if (j === a) return -1;
  }
  if (j + 2 >= end || buf[j] !== 32 || buf[j + 2] !== 32) return -1;
  return letterLevel(buf[j + 1]);
}
