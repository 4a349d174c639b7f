/**
 * Finding a log line's level from its raw bytes, without decoding the line.
 *
 * Rules, in order (the first that applies decides):
 * 0. A continuation line, which continues the entry (log message) before it: a blank line (empty, or
 *    blanks only: the one between a Go panic and its goroutine's frames), an indented line (unless a
 *    level in capitals starts it, as log4j's `%5p` and Python's `%(levelname)8s` write), a numbered
 *    frame `#0 …` (PHP, gdb), `at …(…)`, `... 12 more`, `Caused by:`, `Suppressed:`, `Stack trace:`,
 *    `Traceback (most recent call last):`, `File "…", line N`, `goroutine N […]:`, an exception's own line
 *    (`java.lang.IllegalStateException: …`, `ValueError: …`). Alone ({@linkcode levelOf}) it is UNKNOWN;
 *    read in order ({@linkcode LevelTally}) it has its entry's level, as has a line with no level that
 *    lacks the digits its entry's header starts with (`[stacktrace]`, `"}`, an XML body).
 * 1. JSON lines (`{` first): the `level`, `severity`, `lvl`, `loglevel`, `log.level`, `levelname` or
 *    `level_name` field, a string folded as below or a number on the scale its field names: pino's and
 *    bunyan's 10 … 60 for those; syslog's 0–7 for journald's `PRIORITY` and `syslog.severity`;
 *    OpenTelemetry's 1–24 for `severityNumber` (see `valueLevel`). Any other number, and no such field:
 *    UNKNOWN.
 * 2. logfmt lines (the first field is `key=…`): the `level=`, `lvl=` or `severity=` value. None: UNKNOWN.
 * 3. syslog `<PRI>` at the start: the severity `PRI % 8` (RFC 5424 §6.2.1).
 * 4. klog/glog headers `I0501 10:00:00…` (I, W, E, F) and Android logcat's one letter (V D I W E F A)
 *    after date, time, pid and tid, or before `/tag(pid):` or `/tag:` (the brief, time and tag formats).
 * 5. Otherwise the first level word of the line's header, within its first {@linkcode HEADER_BYTES}
 *    bytes (see {@linkcode headerLevel}): standing alone or beside a bracket, parenthesis, colon or
 *    pipe (`WARN`, `[error]`, `WARNING:`, `- INFO  [`, `ERROR[05-01|…]`, `[4242]INFO:`,
 *    `error[E0308]`; a `/` inside square brackets: `[main/WARN]`), never inside a name (`trace.go`,
 *    `java.lang.Error`, `on_error`), nor a sentence's word after a plain word (`… disk failure on sda`).
 *    Two more shapes: a level in capitals glued to a channel by a dot before a colon (Monolog's
 *    `%channel%.%level_name%:`, Laravel's `local.ERROR: …`), and a numbered debug level (`debug2`,
 *    `DEBUG5`: DEBUG).
 *
 * Words fold case-insensitively: WARNING/WRN → WARN, ERR/SEVERE → ERROR, CRIT/CRITICAL/ALERT/EMERG/
 * PANIC/FAILURE → FATAL, VERBOSE → TRACE, INF → INFO, DBG → DEBUG (issue #2;
 * `../shared/cases/CONVENTIONS.md`; FAILURE is the most severe of Blue Gene/L RAS logs, issue #10).
 * java.util.logging's names (its `java.util.logging.Level`: SEVERE, WARNING, INFO, CONFIG, FINE, FINER,
 * FINEST, https://docs.oracle.com/en/java/javase/21/docs/api/java.logging/java/util/logging/Level.html)
 * fold as SEVERE → ERROR, WARNING → WARN, CONFIG/FINE → DEBUG, FINER/FINEST → TRACE; in a line only in
 * capitals, as `Level.getName()` writes them (`fine` and `config` are also plain words).
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
/** A flag on a word's code in {@linkcode WORDS}: a level in a line only when written in capitals. */
const CAPS = 16;

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
  // java.util.logging (java.util.logging.Level: SEVERE, WARNING, INFO, CONFIG, FINE, FINER, FINEST):
  // in a line's header only in capitals, as Level.getName() writes them ("fine", "config" are words).
  config: D | CAPS,
  fine: D | CAPS,
  finer: T | CAPS,
  finest: T | CAPS,
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
  return Object.hasOwn(WORDS, lower) ? WORDS[lower] & 7 : UNKNOWN;
}

/**
 * The lower-case level words that fold to each level ({@linkcode levelOfName}), by level code; UNKNOWN's
 * list is empty (it is every other name).
 */
export function levelNames(): string[][] {
  const out: string[][] = LEVELS.map(() => []);
  for (const [w, code] of Object.entries(WORDS)) out[code & 7].push(w);
  return out;
}

/**
 * The level words of {@linkcode WORDS} by their first two letters and length: slot
 * `(c0 & 31) << 9 | (c1 & 31) << 4 | length` (for ASCII letters `c & 31` is 1–26 in either case) holds
 * the word's index in {@linkcode SLOT_WORDS}, or -1. No two level words share a slot (checked here), so
 * one load tells most words of a header (`combo`, `kernel`, `Jan`, `GET`) from level words, and a level
 * word needs no hashing (issue #23, item 6: a hash and a probe per word before).
 */
const WORD_SLOTS = new Int8Array(32 * 32 * 16).fill(-1);
/** The words of {@linkcode WORD_SLOTS}, lower case. */
const SLOT_WORDS: Uint8Array[] = [];
/** Their codes (level code, with {@linkcode CAPS} for a word that is a level only in capitals). */
const SLOT_CODES: number[] = [];
for (const [w, code] of Object.entries(WORDS)) {
  const slot = (w.charCodeAt(0) & 31) << 9 | (w.charCodeAt(1) & 31) << 4 | w.length;
  if (w.length < 3 || w.length > 11 || WORD_SLOTS[slot] >= 0) {
    throw new Error(`level word slots collide: ${w}`);
  }
  WORD_SLOTS[slot] = SLOT_WORDS.length;
  SLOT_WORDS.push(new TextEncoder().encode(w));
  SLOT_CODES.push(code);
}

/** The slot of {@linkcode WORD_SLOTS} of the word buf[a, a + len) (ASCII letters, 3 to 11 of them). */
function wordSlot(buf: Uint8Array, a: number, len: number): number {
  return (buf[a] & 31) << 9 | (buf[a + 1] & 31) << 4 | len;
}

/**
 * False when no level word has the word buf[a, a + len)'s length and first two letters: then
 * {@linkcode wordLevel} is -1. ASCII letters only.
 */
function mayBeWord(buf: Uint8Array, a: number, len: number): boolean {
  return len >= 3 && len <= 11 && WORD_SLOTS[wordSlot(buf, a, len)] >= 0;
}

/** The level of the word buf[a, b) (ASCII letters, any case), or -1 when it is no level word. */
function wordLevel(buf: Uint8Array, a: number, b: number): number {
  const len = b - a;
  if (len < 3 || len > 11) return -1;
  const index = WORD_SLOTS[wordSlot(buf, a, len)];
  if (index < 0) return -1;
  const w = SLOT_WORDS[index];
  for (let k = 2; k < len; k++) if ((buf[a + k] | 0x20) !== w[k]) return -1; // the first two matched
  const code = SLOT_CODES[index];
  return code < CAPS ? code : capitals(buf, a, b) ? code & 7 : -1;
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
 * Finds the level of one line, the line alone: a continuation line (rule 0) is UNKNOWN here, since its
 * level is its entry's ({@linkcode LevelTally} reads lines in order and gives it that).
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
  const code = lineLevel(buf, start, end, hint);
  return code >= CONTINUED ? UNKNOWN : code;
}

/**
 * The code {@linkcode lineLevel} gives a continuation line (rule 0): one past UNKNOWN, not a level.
 */
export const CONTINUED = 8;

/**
 * The code {@linkcode lineLevel} gives a line whose level field holds a number on no scale the line
 * names (`{"level":1}`: Nextcloud's info, or syslog's alert): UNKNOWN, and counted apart.
 */
export const UNSCALED = 9;

/**
 * Like {@linkcode levelOf}, but a continuation line (rule 0: a stack frame, `Caused by:`, an indented
 * line, …) is {@linkcode CONTINUED} rather than UNKNOWN. Same parameters.
 *
 * @returns A code: an index into {@linkcode LEVELS}, {@linkcode CONTINUED}, or {@linkcode UNSCALED}.
 */
export function lineLevel(buf: Uint8Array, start: number, end: number, hint = -1): number {
  return levelCode(buf, start, end, hint) & ~STAMPED;
}

/**
 * A flag on {@linkcode levelCode}'s answer: the rules saw an ASCII digit within the line's first
 * {@linkcode STAMP_BYTES} bytes (a BSD syslog or Apache error-log stamp), so {@linkcode stamped} is true
 * and {@linkcode LevelTally} need not look again (issue #26, item 3: ~5–10 loads a syslog or Apache line).
 */
const STAMPED = 16;

/** {@linkcode lineLevel}'s code, with {@linkcode STAMPED} on it when the rules saw the line stamped. */
function levelCode(buf: Uint8Array, start: number, end: number, hint: number): number {
  if (end - start > STRUCTURED_BYTES) end = start + STRUCTURED_BYTES;
  let android = true; // whether rule 4's logcat layout is still to be tried (the fast path may have)
  if (hint > 0 && hint < 255) {
    // Fast path for the common layout, a line that starts with a timestamp or a bracket: the first
    // letter run (found by SIMD) is the first candidate of rule 5. Same answer as the full rules.
    const first = buf[start];
    const a = start + hint;
    if (
      first !== 0x7b && first !== 0x3c && first !== 32 && first !== 9 && first !== 0x23 && a < end &&
      LETTER[buf[a]] === 1
    ) {
      if (first >= 48 && first <= 57) {
        const lvl = androidLevel(buf, start, end);
        if (lvl >= 0) return lvl;
        android = false;
      } else if (hint === 1 && first === 0x5b) { // `[Sun Dec 04 …] `: a day name, no level word
        const t = apacheStamp(buf, start, end); // its day's digits: stamped
        if (t > 0) return apacheLevel(buf, t, end, Math.min(end, start + HEADER_BYTES)) | STAMPED;
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
  const i = start;
  if (i < end && (buf[i] === 32 || buf[i] === 9)) return indentedLevel(buf, i, end);
  if (i >= end) return CONTINUED; // a blank line continues the entry before it (a Go panic's frames)
  const first = buf[i];
  if (first === 0x7b) return jsonLevel(buf, i, end); // {
  if (first === 0x3c) { // <PRI>
    const s = syslogLevel(buf, i, end);
    if (s >= 0) return s;
  }
  const limit = Math.min(end, i + HEADER_BYTES);
  if (LETTER[first]) {
    const t = syslogStamp(buf, i, end); // its day's digit: stamped
    if (t > 0) {
      const lvl = syslogTag(buf, t, limit);
      return (lvl >= 0 ? lvl : headerLevel(buf, t, end, limit)) | STAMPED;
    }
    if (continues(buf, i, end)) return CONTINUED;
    let j = i;
    while (j < end && (LETTER[buf[j]] || isDigit(buf[j]) || buf[j] === 95 || buf[j] === 46)) j++;
    if (j < end && buf[j] === 61) return logfmtLevel(buf, i, end); // first field is key=…
    const k = buf[i + 1] === 47 ? logcatTagLevel(buf, i, end) : klogLevel(buf, i, end);
    if (k >= 0) return k;
  } else if (android && isDigit(first)) {
    const a = androidLevel(buf, i, end);
    if (a >= 0) return a;
  } else if (first === 0x5b) {
    const t = apacheStamp(buf, i, end);
    if (t > 0) return apacheLevel(buf, t, end, limit) | STAMPED;
  } else if (first === 0x23 || first === 0x2e) { // `#0 /app/x.php(12): …`, `... 12 more`
    if (frameNumber(buf, i, end) || moreFrames(buf, i, end)) return CONTINUED;
  }
  if (first >= 48 && first <= 57 && accessLine(buf, i, end)) return UNKNOWN;
  return headerLevel(buf, i, end, limit);
}

const ACCESS_MID = new TextEncoder().encode(" - - [");

/**
 * True when the line starts as an NCSA access-log line (Apache httpd's and nginx's common and combined
 * formats) with an IPv4 client and no ident or user: `1.2.3.4 - - [22/Jan/2019:03:56:14 +0330] "GET `,
 * its method a letter run no level word may be ({@linkcode mayBeWord}). Rule 5's walk finds no level in such
 * a header (fields without letters, a bracketed time whose only word is a month, never a level word) and
 * ends at the quoted request: UNKNOWN, told here by fixed offsets instead of the walk (issue #26, item 3:
 * ~100 ns a line before).
 */
function accessLine(buf: Uint8Array, i: number, end: number): boolean {
  let j = i;
  while (j < end && j - i <= 15 && (isDigit(buf[j]) || buf[j] === 46)) j++;
  if (j - i < 7 || !startsWith(buf, j, end, ACCESS_MID)) return false;
  const d = j + ACCESS_MID.length; // `22/Jan/2019:03:56:14 +0330] "`
  if (end - d < 31 || buf[d + 2] !== 47 || buf[d + 6] !== 47 || buf[d + 11] !== 58 || buf[d + 20] !== 32) {
    return false;
  }
  if (!digits2(buf, d) || !dateName(buf, d + 3, d + 6) || !digits2(buf, d + 7) || !digits2(buf, d + 9)) {
    return false;
  }
  if (!clock(buf, d + 12) || (buf[d + 21] !== 43 && buf[d + 21] !== 45) || !digits2(buf, d + 22)) {
    return false;
  }
  if (!digits2(buf, d + 24) || buf[d + 26] !== 0x5d || buf[d + 27] !== 32 || buf[d + 28] !== 34) return false;
  const a = d + 29;
  let b = a;
  while (b < end && LETTER[buf[b]] === 1) b++;
  return b > a && b < end && buf[b] === 32 && !mayBeWord(buf, a, b - a);
}

/** True when buf[i] and buf[i + 1] are ASCII digits. */
function digits2(buf: Uint8Array, i: number): boolean {
  return isDigit(buf[i]) && isDigit(buf[i + 1]);
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
    let k = CLASS[buf[i]];
    if (k === 0) { // digits, punctuation: nothing to note (a run of them in one tight loop)
      do i++; while (i < limit && (k = CLASS[buf[i]]) === 0);
      if (i >= limit) break;
    }
    if (k !== 1) {
      if (k === 2) { // a field ends
        if (flags === LETTERS && (names = afterField(buf, from, i, names, depth, limit)) < 0) return ~names;
        from = i + 1;
        flags = depth > 0 ? GROUPED : 0;
      } else if (k === 4) {
        if (depth++ === 0 && i === from) flags = GROUPED;
      } else if (k === 5) {
        if (depth > 0) depth--;
      } else { // 6: ESC
        i = escEnd = ansiEnd(buf, i, end);
        continue;
      }
      i++;
      continue;
    }
    const a = i;
    do i++; while (i < end && CLASS[buf[i]] === 1);
    flags |= LETTERS;
    // `candidate` is -1 for a word no level word starts like (every level it gives is `wordLevel`'s).
    if (mayBeWord(buf, a, i - a)) {
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
 * What a byte is to {@linkcode syslogTag}: 1 an ASCII letter, 2 a digit, `.`, `_` or `-` (a host's or a
 * tag's), 3 `/`, `(`, `)` or `:` (a tag's only), 4 `[`, 5 `]`, 0 anything else (a blank ends a field).
 */
const TAG = new Uint8Array(256);
for (let c = 0; c < 256; c++) if (LETTER[c]) TAG[c] = 1;
for (const c of "0123456789._-") TAG[c.charCodeAt(0)] = 2;
for (const c of "/():") TAG[c.charCodeAt(0)] = 3;
TAG[0x5b] = 4;
TAG[0x5d] = 5;

/**
 * Rule 5 after a BSD syslog timestamp, for its common rest, `host tag: message` (`LabSZ sshd[24200]: …`,
 * `combo sshd(pam_unix)[19939]: …`): one pass over the host and the tag with {@linkcode TAG}, then the
 * message's first word ({@linkcode afterTag}). The level {@linkcode headerLevel} gives such a line, or -1
 * when the line is not of that shape, or holds a letter run a level word may be ({@linkcode mayBeWord})
 * before the message: then the header walk decides. Issue #26, item 3: a quarter of Loghub's lines.
 */
function syslogTag(buf: Uint8Array, t: number, limit: number): number {
  let i = t;
  for (;;) { // the host: letters, digits, `.`, `_`, `-`
    const a = i;
    while (i < limit && TAG[buf[i]] === 1) i++;
    if ((i > a && mayBeWord(buf, a, i - a)) || i >= limit) return -1;
    if (TAG[buf[i]] !== 2) break;
    do i++; while (i < limit && TAG[buf[i]] === 2); // a run of digits, `.`, `_`, `-` (no state)
  }
  if (i === t || buf[i] !== 32 || TAG[buf[i + 1]] !== 1) return -1; // the tag starts with a letter
  const from = ++i;
  let depth = 0;
  for (;;) { // the tag: `sshd[24200]:`, `sshd(pam_unix)[19939]:`, `kernel:`
    const a = i;
    while (i < limit && TAG[buf[i]] === 1) i++;
    if ((i > a && mayBeWord(buf, a, i - a)) || i >= limit) return -1;
    const k = TAG[buf[i]];
    if (depth === 0 && buf[i + 1] === 32 && buf[i] === 58 && i + 1 < limit) { // `kernel: `: the loop's end
      i++;
      break;
    }
    if (k === 4 && depth === 0) { // `[24200]: `, the common end, at once: digits, `]`, `:`, the blank
      let j = i + 1;
      while (j < limit && isDigit(buf[j])) j++;
      if (j > i + 1 && buf[j] === 0x5d && buf[j + 1] === 58 && buf[j + 2] === 32 && j + 2 < limit) {
        i = j + 2;
        break;
      }
    }
    if (k === 4) depth++;
    else if (k === 5) depth = depth > 0 ? depth - 1 : 0;
    else if (k === 0) break;
    else { // 2, 3: digits, `.`, `_`, `-`, `/`, `(`, `)`, `:`, passed over in one run (no state)
      do i++; while (i < limit && (TAG[buf[i]] === 2 || TAG[buf[i]] === 3));
      continue;
    }
    i++;
  }
  if (buf[i] !== 32 || depth !== 0 || buf[i - 1] !== 58 || i - 1 === from) return -1;
  return afterTag(buf, i, limit);
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
 * Rule 5 after Apache's error-log stamp, the header walk ({@linkcode headerLevel}) from `t`
 * ({@linkcode apacheStamp}'s) to `limit`, with its common next field read at once: a letter run in
 * square brackets (`[error] `, `[notice] `). The walk gives such a field's word its level when it is a
 * level word (the field's first word: after `[`, before `]`, no plain word before it), and only then is
 * it returned here; else the walk decides (`[client 1.2.3.4] …`). Issue #26, item 3.
 */
function apacheLevel(buf: Uint8Array, t: number, end: number, limit: number): number {
  if (buf[t] === 0x5b && t + 1 < limit) {
    let j = t + 1;
    while (j < end && LETTER[buf[j]] === 1) j++;
    if (j < end && buf[j] === 0x5d) {
      const lvl = wordLevel(buf, t + 1, j);
      if (lvl >= 0) return lvl;
    }
  }
  return headerLevel(buf, t, end, limit);
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
      if (mayBeWord(buf, a, i - a) && BEFORE[buf[a - 1]] === 1 && (i >= limit || AFTER[buf[i]] === 1)) {
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
  const before = buf[a - 1];
  if (!(first || BEFORE[before] === 1 || slashed(before, depth))) {
    return before === 0x2e ? channelLevel(buf, a, b, end) : -1;
  }
  if (b < end && AFTER[buf[b]] !== 1 && !slashed(buf[b], depth)) {
    return isDigit(buf[b]) ? numberedDebug(buf, a, b, end) : -1;
  }
  const lvl = wordLevel(buf, a, b);
  return lvl >= 0 && names > 0 && prose(buf, a, b, end) ? -1 : lvl;
}

/**
 * A level name glued to a channel by a dot, in capitals and followed by a colon: Monolog's
 * `%channel%.%level_name%:` (Laravel's `local.ERROR: …`, `app.WARNING: …`, `security.INFO: …`): the
 * level of buf[a, b), or -1. A name in a class or file name is not one (`java.lang.Error:`, `trace.go`).
 */
function channelLevel(buf: Uint8Array, a: number, b: number, end: number): number {
  if (buf[a - 1] !== 0x2e || b >= end || buf[b] !== 0x3a || !capitals(buf, a, b)) return -1;
  const c = buf[a - 2];
  return LETTER[c] === 1 || isDigit(c) || c === 95 || c === 45 ? wordLevel(buf, a, b) : -1;
}

/**
 * A numbered debug level, `debug2` … `debug9` (`DEBUG3`; syslog-style verbosity levels, lnav's
 * `debug2`…`debug5`): DEBUG when buf[a, b) is `debug` followed by one digit and a delimiter, else -1.
 */
function numberedDebug(buf: Uint8Array, a: number, b: number, end: number): number {
  const c = buf[b];
  if (c < 49 || c > 57 || (b + 1 < end && AFTER[buf[b + 1]] !== 1)) return -1;
  return wordLevel(buf, a, b) === D ? D : -1;
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
  // lineLevel's Apache stamp and accessLine rely on it: no month or day name is a level word.
  if (mayBeWord(new TextEncoder().encode(w), 0, 3)) throw new Error(`a date name may be a level word: ${w}`);
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

/** True when buf[a, b) holds no lower-case ASCII letter (`FINE`, `ERROR`). */
function capitals(buf: Uint8Array, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (buf[i] >= 97 && buf[i] <= 122) return false;
  return true;
}

/**
 * True when the line holds an ASCII digit within its first {@linkcode STAMP_BYTES} bytes: it may start
 * with a timestamp, a line number or a pid, as an entry's header does. A line with none, and no level,
 * continues the entry before it when that entry's line had one ({@linkcode LevelTally}).
 */
export function stamped(buf: Uint8Array, start: number, end: number): boolean {
  if (start < end && buf[start] - 48 >>> 0 <= 9) return true; // the common case: a line that starts with one
  const stop = Math.min(end, start + STAMP_BYTES);
  for (let i = start + 1; i < stop; i++) if (buf[i] >= 48 && buf[i] <= 57) return true;
  return false;
}

/**
 * How many bytes from a line's start {@linkcode stamped} looks for a digit in: a date or time starts
 * within them (`2024-…`, `[2024-…`, `Nov  3 09:…`, `Wed May 19 08:…`, `- 1117838570`), and the words of
 * a continuation (`[stacktrace]`, `<?xml version='1.0'…`, `go.opentelemetry.io/…`) have none.
 */
export const STAMP_BYTES = 12;

/** True when the line is a JSON object, `{…}`: a record of its own (an entry), with a time field or not. */
function record(buf: Uint8Array, start: number, end: number): boolean {
  return end - start >= 2 && buf[start] === 0x7b && buf[end - 1] === 0x7d;
}

/** Rule 0: an indented line continues an entry, unless a level in capitals starts it (log4j's `%5p`). */
function indentedLevel(buf: Uint8Array, i: number, end: number): number {
  while (i < end && (buf[i] === 32 || buf[i] === 9)) i++;
  if (i >= end) return CONTINUED; // blanks only: as a blank line
  if (buf[i] === 0x7b) return jsonLevel(buf, i, end);
  let j = i;
  while (j < end && LETTER[buf[j]] === 1) j++;
  if (j - i < 3 || j - i > 11 || (j < end && AFTER[buf[j]] !== 1) || !capitals(buf, i, j)) return CONTINUED;
  const lvl = wordLevel(buf, i, j);
  return lvl >= 0 ? lvl : CONTINUED;
}

const CONTINUATION_STARTS = [
  "Caused by: ", // Java: a wrapped exception
  "Suppressed: ",
  "Stack trace:", // PHP's Exception::__toString
  "Traceback (most recent call last):", // Python
  "goroutine ", // Go: a panic's goroutine dump (`goroutine 1 [running]:`)
].map((p) => new TextEncoder().encode(p));

/** True when buf[i, end) starts with `p`. */
function startsWith(buf: Uint8Array, i: number, end: number, p: Uint8Array): boolean {
  if (end - i < p.length) return false;
  for (let k = 0; k < p.length; k++) if (buf[i + k] !== p[k]) return false;
  return true;
}

/**
 * Rule 0 for a line that starts with a letter: a stack frame or the start of a stack trace that
 * continues an entry: `Caused by: …`, `Suppressed: …`, `Stack trace:`, `Traceback (most recent call
 * last):`, `goroutine 1 [running]:`, Java's `at com.x.Y.z(Y.java:1)` (a frame whose tab was lost), Python's
 * `File "x.py", line 3, in f`, and an exception's own line (`java.lang.IllegalStateException: boom`,
 * `ValueError: bad`, `libvirtError: …`: a name with a lower-case letter ending in `Exception`, `Error` or
 * `Throwable`, then `:` or the line's end; a bare `Error: …` is a level word, not this).
 */
function continues(buf: Uint8Array, i: number, end: number): boolean {
  const c = buf[i];
  if (c === 97 && buf[i + 1] === 116 && buf[i + 2] === 32) return javaFrame(buf, i + 3, end); // `at `
  if (c === 70 && buf[i + 1] === 105 && buf[i + 4] === 32 && buf[i + 5] === 34) { // `File "`
    return pythonFrame(buf, i + 6, end);
  }
  for (const p of CONTINUATION_STARTS) if (p[0] === c && startsWith(buf, i, end, p)) return true;
  return exceptionLine(buf, i, end);
}

/** After `at `: a frame ends with `)` (`Foo.bar(Foo.java:1)`, `Object.<anonymous> (/x.js:1:2)`) or holds `:N`. */
function javaFrame(buf: Uint8Array, i: number, end: number): boolean {
  if (i >= end || buf[i] === 32) return false;
  if (buf[end - 1] === 0x29) return true;
  for (let k = i; k + 1 < end; k++) if (buf[k] === 58 && isDigit(buf[k + 1])) return true;
  return false;
}

const LINE_MARK = new TextEncoder().encode('", line ');

/** After `File "`: the path's closing quote, then `, line N`. */
function pythonFrame(buf: Uint8Array, i: number, end: number): boolean {
  const q = buf.indexOf(0x22, i);
  return q > 0 && q < end && startsWith(buf, q, end, LINE_MARK) && isDigit(buf[q + LINE_MARK.length]);
}

const SUFFIXES = ["Exception", "Error", "Throwable"].map((p) => new TextEncoder().encode(p));

/** See {@linkcode continues}: an exception's name (dotted or not) then `:` or the end. */
function exceptionLine(buf: Uint8Array, i: number, end: number): boolean {
  let j = i;
  let lower = false;
  while (j < end && j - i < 200) {
    const c = buf[j];
    if (c >= 97 && c <= 122) lower = true;
    else if (!(LETTER[c] === 1 || isDigit(c) || c === 46 || c === 95 || c === 36)) break;
    j++;
  }
  if (!lower || (j < end && buf[j] !== 58 && buf[j] !== 13)) return false;
  for (const p of SUFFIXES) {
    if (j - i > p.length && startsWith(buf, j - p.length, j, p)) return true;
  }
  return false;
}

/** Rule 0: a numbered frame, `#0 /app/x.php(12): …` (PHP), `#1  0x00007f… in f ()` (gdb). */
function frameNumber(buf: Uint8Array, i: number, end: number): boolean {
  let j = i + 1;
  while (j < end && isDigit(buf[j])) j++;
  return j > i + 1 && j < end && buf[j] === 32;
}

const MORE = new TextEncoder().encode("... ");

/** Rule 0: Java's `... 12 more` (frames in common with the enclosing trace), its tab lost. */
function moreFrames(buf: Uint8Array, i: number, end: number): boolean {
  if (!startsWith(buf, i, end, MORE)) return false;
  let j = i + 4;
  while (j < end && isDigit(buf[j])) j++;
  return j > i + 4 && buf[j] === 32 && buf[j + 1] === 109; // ` m`ore
}

/** {@linkcode valueLevel}'s answer for a number on no scale its field names (less than -1: no level). */
const OFF_SCALE = -2;

/** How a level field's number is read: {@linkcode valueLevel}'s `scale`. */
const PINO = 0, SYSLOG = 1, OTEL = 2;

/**
 * A word or number value at `i` (quoted or not), folded; -1 when it names no level. A number is read on
 * the scale its field names (`scale`): a `level`-like field's on pino's and bunyan's (10 trace, 20 debug,
 * 30 info, 40 warn, 50 error, 60 fatal; 10 to 60 only), `PRIORITY`'s on syslog's (RFC 5424 §6.2.1: 0–2
 * FATAL, 3 ERROR, 4 WARN, 5 NOTICE, 6 INFO, 7 DEBUG), OpenTelemetry's `severityNumber` on its own (1–4
 * TRACE, 5–8 DEBUG, 9–12 INFO, 13–16 WARN, 17–20 ERROR, 21–24 FATAL). Any other number is on a scale the
 * line does not name (Nextcloud's `"level":1` is info, syslog's 1 is alert, Monolog's 400 is error):
 * {@linkcode OFF_SCALE}.
 */
function valueLevel(buf: Uint8Array, i: number, end: number, scale = PINO): number {
  let quoted = false;
  if (i < end && (buf[i] === 34 || buf[i] === 39)) {
    quoted = true;
    i++;
  }
  if (i < end && isDigit(buf[i])) {
    let n = 0;
    while (i < end && isDigit(buf[i]) && n < 1000) n = n * 10 + buf[i++] - 48;
    if (i < end && (buf[i] === 46 || isDigit(buf[i]))) return OFF_SCALE; // 30.5, a long number
    if (scale === SYSLOG) return n <= 7 ? [F, F, F, E, W, N, I, D][n] : OFF_SCALE;
    if (scale === OTEL) return n >= 1 && n <= 24 ? [T, D, I, W, E, F][(n - 1) >> 2] : OFF_SCALE;
    return n >= 10 && n <= 60 ? [T, D, I, W, E, F][Math.floor(n / 10) - 1] : OFF_SCALE;
  }
  const a = i;
  while (i < end && LETTER[buf[i]]) i++;
  if (i === a) return -1;
  if (i < end && isDigit(buf[i])) return numberedDebug(buf, a, i, end); // `DEBUG5`
  if (i < end && !quoted && !AFTER[buf[i]]) return -1;
  if (quoted && i < end && buf[i] !== 34 && buf[i] !== 39) return -1;
  return wordLevel(buf, a, i);
}

/** Level fields of a JSON line (folded to lower case), and the scale each one's numbers are on. */
const JSON_KEYS = new Map([
  ["level", PINO],
  ["severity", PINO],
  ["lvl", PINO],
  ["loglevel", PINO],
  ["log.level", PINO],
  ["levelname", PINO], // Python's logging record attribute (python-json-logger)
  ["level_name", PINO], // Monolog's JsonFormatter, beside its own numeric `level`
  ["syslog.severity", SYSLOG],
  ["syslog_severity", SYSLOG],
  ["severitynumber", OTEL], // OpenTelemetry's log data model
  ["severity_number", OTEL],
]);
const PRIORITY = new TextEncoder().encode("PRIORITY");

/** The scale of the JSON key buf[a, b) ({@linkcode JSON_KEYS}; journald's `PRIORITY` in capitals), or -1. */
function keyScale(buf: Uint8Array, a: number, b: number): number {
  if (b - a > 16 || b - a < 3) return -1;
  // Every key of JSON_KEYS starts with `l` or `s` (either case here), PRIORITY with `P`: others are no
  // level field, told without building the key's string (issue #23, item 6).
  const c = buf[a] | 0x20;
  if (c !== 0x6c && c !== 0x73 && buf[a] !== 0x50) return -1;
  if (b - a === 8 && startsWith(buf, a, b, PRIORITY)) return SYSLOG;
  for (let k = 0; k < KEY_BYTES.length; k++) { // the key, letters folded to lower case, among JSON_KEYS
    const key = KEY_BYTES[k];
    if (key.length !== b - a) continue;
    let j = 0;
    while (j < key.length && (buf[a + j] | (LETTER[buf[a + j]] ? 0x20 : 0)) === key[j]) j++;
    if (j === key.length) return KEY_SCALES[k];
  }
  return -1;
}

/** The keys of {@linkcode JSON_KEYS} as bytes, and their scales. */
const KEY_BYTES = [...JSON_KEYS.keys()].map((k) => new TextEncoder().encode(k));
const KEY_SCALES = [...JSON_KEYS.values()];

/** Rule 1: a JSON object's level field; {@linkcode UNSCALED} when it holds only numbers off their scale. */
function jsonLevel(buf: Uint8Array, i: number, end: number): number {
  let off = UNKNOWN;
  while (i < end) {
    // The next quote, by a loop bounded by the line: `indexOf` costs ~30 ns a call (a JSON line holds
    // dozens of strings) and runs on to the buffer's end when the line has none (issue #26, item 3).
    let q = i;
    while (q < end && buf[q] !== 34) q++;
    if (q >= end) return off;
    const prev = prevNonSpace(buf, q);
    let close = q + 1;
    while (close < end) {
      const c = buf[close];
      if (c === 34) break;
      close += c === 92 ? 2 : 1;
    }
    if (close >= end) return off;
    const scale = prev === 0x7b || prev === 0x2c ? keyScale(buf, q + 1, close) : -1;
    if (scale >= 0) {
      let j = close + 1;
      while (j < end && (buf[j] === 32 || buf[j] === 9)) j++;
      if (j < end && buf[j] === 58) {
        j++;
        while (j < end && (buf[j] === 32 || buf[j] === 9)) j++;
        const lvl = valueLevel(buf, j, end, scale);
        if (lvl >= 0) return lvl;
        if (lvl === OFF_SCALE) off = UNSCALED;
      }
    }
    i = close + 1;
  }
  return off;
}

function prevNonSpace(buf: Uint8Array, i: number): number {
  let j = i - 1;
  while (j >= 0 && (buf[j] === 32 || buf[j] === 9)) j--;
  return j >= 0 ? buf[j] : -1;
}

const LOGFMT_KEYS = ["level=", "lvl=", "severity="].map((k) => new TextEncoder().encode(k));

/** Rule 2: a logfmt line's `level=` value; {@linkcode UNSCALED} as for JSON. */
function logfmtLevel(buf: Uint8Array, i: number, end: number): number {
  let off = UNKNOWN;
  for (let p = i; p < end; p++) {
    if (p !== i && buf[p - 1] !== 32 && buf[p - 1] !== 9) continue;
    for (const key of LOGFMT_KEYS) {
      let k = 0;
      while (k < key.length && p + k < end && (buf[p + k] | (LETTER[buf[p + k]] ? 0x20 : 0)) === key[k]) k++;
      if (k === key.length) {
        const lvl = valueLevel(buf, p + k, end);
        if (lvl >= 0) return lvl;
        if (lvl === OFF_SCALE) off = UNSCALED;
      }
    }
  }
  return off;
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

/**
 * Whether a line starts with one of java.util.logging's level names as `Level.getName()` writes them
 * (capitals: SEVERE, WARNING, INFO, CONFIG, FINE, FINER, FINEST) and a colon, as `SimpleFormatter` writes
 * a record's second line: only such a line gives its level to the stamped line before it. A Go runtime
 * `panic: …` after a plain `log` line is an entry of its own (a trial: the line before it was counted FATAL).
 */
function julLevelLine(buf: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end && i - start < 8 && buf[i] >= 65 && buf[i] <= 90) i++;
  if (i >= end || buf[i] !== 58 || i === start) return false;
  const w = String.fromCharCode(...buf.subarray(start, i));
  return w === "SEVERE" || w === "WARNING" || w === "INFO" || w === "CONFIG" || w === "FINE" ||
    w === "FINER" || w === "FINEST";
}

/**
 * Counts a log's lines by level, read in order, each continuation line under the level of the entry it
 * continues (an entry: a line that starts a log message; a continuation: the lines of its message after
 * the first, such as a stack trace's).
 *
 * A line is a continuation when rule 0 says so ({@linkcode lineLevel} gives {@linkcode CONTINUED}), or
 * when it has no level and no digit near its start ({@linkcode stamped}) while the entry it follows had
 * one: it lacks the header its entry has (`[stacktrace]`, `"}`, an XML body, a Go frame); a JSON object
 * line (`{…}`) is a record of its own, never that, and neither is a line with a level field. One more rule:
 * a line that has a level but no digit near its start, right after an entry line with a digit and no
 * level, gives that entry its level and continues it (java.util.logging's SimpleFormatter writes the
 * time and source on one line, `SEVERE: message` on the next).
 *
 * Before the first entry (a file's start, or a page that starts inside a message), a continuation line
 * is counted under UNKNOWN.
 */
export class LevelTally {
  /**
   * Lines by level code ({@linkcode LEVELS}): `counts[c]` entries of level `c`, `counts[CONTINUED + c]`
   * continuation lines of entries of level `c`.
   */
  readonly counts: Float64Array = new Float64Array(2 * CONTINUED);
  /** The level of the entry being continued. */
  entry: number = UNKNOWN;
  /** Whether that entry's line has a digit near its start ({@linkcode stamped}). */
  stampedEntry = false;
  /** Whether the line just before was that entry's line, with no level, and counted. */
  bare = false;
  /** Lines counted under UNKNOWN whose level field holds a number on no scale it names ({@linkcode UNSCALED}). */
  unscaled = 0;

  /**
   * Reads the next line and, when `counted`, counts it.
   *
   * @param buf Bytes holding the line; `start`, `end`, `hint` as {@linkcode levelOf}'s.
   * @param counted False for a line that only sets the entry (outside a time window, say).
   * @returns The code counted: a level code for an entry, `CONTINUED + level` for a continuation.
   */
  add(buf: Uint8Array, start: number, end: number, hint = -1, counted = true): number {
    const c = levelCode(buf, start, end, hint);
    const code = c & ~STAMPED;
    if (code < UNKNOWN && !this.bare) { // a line with its level: an entry (the common case, kept small)
      this.entry = code;
      this.stampedEntry = c >= STAMPED || stamped(buf, start, end) || record(buf, start, end);
      if (counted) this.counts[code]++;
      return code;
    }
    return this.other(code, buf, start, end, counted, c >= STAMPED ? 1 : -1);
  }

  /**
   * {@linkcode add} for the other lines: UNKNOWN, UNSCALED, CONTINUED, or a level under a bare header;
   * `known`: whether the line is {@linkcode stamped} or a {@linkcode record} (1 or 0), or -1: not known yet.
   */
  other(code: number, buf: Uint8Array, start: number, end: number, counted: boolean, known = -1): number {
    let named = false; // a level field the line holds, off its scale: an entry, whatever its start
    if (code === UNSCALED) {
      code = UNKNOWN;
      named = true;
      if (counted) this.unscaled++;
    }
    if (code !== CONTINUED) {
      const st = named || (known < 0 ? stamped(buf, start, end) || record(buf, start, end) : known === 1);
      if (st || !this.stampedEntry || (code !== UNKNOWN && !(this.bare && julLevelLine(buf, start, end)))) {
        this.entry = code;
        this.stampedEntry = st;
        this.bare = code === UNKNOWN && st && counted;
        if (counted) this.counts[code]++;
        return code;
      }
      if (code !== UNKNOWN) { // `SEVERE: …` under its header line
        this.counts[UNKNOWN]--;
        this.counts[code]++;
        this.entry = code;
      }
    }
    this.bare = false;
    code = CONTINUED + this.entry;
    if (counted) this.counts[code]++;
    return code;
  }
}
