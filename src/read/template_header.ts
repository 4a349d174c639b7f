/**
 * A log line's header for template mining (`template_miner.ts`): the fields a logging library writes
 * before the message (timestamp, pid, level, thread, logger or syslog host and tag), found by one rule
 * for all logs ({@linkcode header}) or by a layout learned from the log's first lines
 * ({@linkcode learnHeader}, {@linkcode headerOf}); the header is set aside when lines are grouped, as log
 * parsers do.
 *
 * @module
 */

import { dateWords, Scan, WILD } from "./template_tokens.ts";

/** Level words (syslog severities, log4j/java.util.logging levels), bare or in brackets. */
const LEVEL =
  /^[[(<]?(?:trace|debug|info|notice|warn|warning|error|err|fatal|critical|crit|severe|alert|emerg|fine|finer|finest|config)[\])>]?:?$/i;

/** The most fields a header may have. */
const MAX_HEADER = 8;

/**
 * The header of a line (the fields a logging library writes before the message: timestamp, pid, level,
 * thread, logger or syslog host and tag), as log parsers separate it (Loghub's per-log formats, Zhu et
 * al. 2019; here one rule for all): from the start, fields that are
 * - timestamp-like (masked, no letter and no digit left: dates, times, pids, `-`; before any level);
 * - a level word ({@linkcode LEVEL});
 * - a bracketed group (`[AsyncDispatcher event handler]`, `[Sun Dec 04 04:47:44 2005]`), spaces inside
 *   and all, joined into one field here;
 * - a `-` or `|` separator, which ends the header once a level or bracket was seen;
 * - a word ending in `:` after such fields (a logger or a tag), which ends it; so does a host followed
 *   by it (syslog, RFC 3164: `host tag[pid]:`).
 * A line whose first field is none of these has no header.
 *
 * Joins each bracketed header group into one token in place ({@linkcode Scan.join}).
 *
 * @returns The header's field count.
 */
export function header(line: string, sc: Scan): number {
  let h = 0, time = false, levelOrBracket = false;
  for (let i = 0; i < sc.n && i < MAX_HEADER; i++) {
    let bracket = false;
    if (line.charCodeAt(sc.a[i]) === 91 /* [ */) {
      // A bracketed group (with spaces: the tokens to its closing bracket joined).
      const j = bracketEnd(line, sc, i);
      if (j > i) sc.join(i, j);
      bracket = j >= i;
    }
    const m = sc.m[i], a = sc.a[i], b = sc.b[i];
    if (!levelOrBracket && noWord(m)) {
      time = true;
    } else if (bracket || isLevel(m)) {
      levelOrBracket = true;
    } else if (b - a === 1 && (m === "-" || m === "|")) {
      if (levelOrBracket) return i + 1;
    } else if (i > 0 && b - a > 1 && line.charCodeAt(b - 1) === 58 /* : */) {
      return i + 1;
    } else if (
      i > 0 && time && i + 1 < sc.n && sc.b[i + 1] - sc.a[i + 1] > 1 &&
      line.charCodeAt(sc.b[i + 1] - 1) === 58
    ) {
      return i + 2;
    } else {
      return h;
    }
    h = i + 1;
  }
  return h;
}

/**
 * A header field's kind, as {@linkcode learnHeader} reads it: a bracketed group, a level word, a tag or
 * logger (a word ending in `:`), a value (a token masked in whole or in part: a time, a date, a number, a
 * host or node with digits), a separator (no letter and no digit: `-`, `|`), or a word.
 */
export type FieldKind = "bracket" | "level" | "tag" | "value" | "sep" | "word";

/** The kinds that mark a header by themselves (a word is header only between them). */
const MARKS: ReadonlySet<FieldKind> = new Set(["bracket", "level", "value"]);

/**
 * A log's header layout, learned from its first lines ({@linkcode learnHeader}): the number of header
 * fields, and each field's kind; a line whose fields have those kinds (a word field takes any) has that
 * header, any other line (a continuation, a line of another writer) the header its own fields give.
 */
export interface HeaderLayout {
  /** The header's field count (≥ 1). */
  h: number;
  /** Each field's kind (`h` entries). */
  kinds: readonly FieldKind[];
}

/** The fields {@linkcode learnHeader} looks at. */
const LAYOUT_FIELDS = 12;

/** The share of the sample's lines that must agree on a field's kind for it to be part of the layout. */
const LAYOUT_AGREE = 0.9;

/** The most lines of the sample {@linkcode learnHeader} reads. */
const LAYOUT_LINES = 200;

/** The kind of scanned token i (bracketed groups joined first, as {@linkcode header} does). */
function kindOf(line: string, sc: Scan, i: number): FieldKind {
  if (line.charCodeAt(sc.a[i]) === 91 /* [ */) {
    const j = bracketEnd(line, sc, i);
    if (j > i) sc.join(i, j);
    if (j >= i) return "bracket";
  }
  const m = sc.m[i];
  if (isLevel(m)) return "level";
  if (sc.b[i] - sc.a[i] > 1 && line.charCodeAt(sc.b[i] - 1) === 58 /* : */) return "tag";
  if (m.includes(WILD)) return "value";
  if (noWord(m)) return "sep";
  return "word";
}

/**
 * A log's header layout from a sample of its lines (issue #23: the leading fields whose values vary
 * across the file are the header, however many): field by field from the start, the kind the sample's
 * lines have there ({@linkcode LAYOUT_AGREE} of them at least, else a word; the layout ends at a field
 * fewer lines than that reach); the header
 * runs to the last field of a marking kind (a value, a level, a bracketed group) and a tag or separator
 * right after it, or to the first tag (a tag ends a header: `host sshd[12]:`, `dfs.DataNode:`); word fields
 * between such fields are header too (a host, a component). So `- 1117838570 2005.06.03 R02-M1 … RAS
 * KERNEL INFO` has nine fields, `[10.30 16:49:06]` one, `app.log 2024-01-01 12:00:00 INFO` four. Lines
 * that start with whitespace (continuations) are left out of the sample.
 *
 * @param lines The log's first lines (decoded; at most {@linkcode LAYOUT_LINES} are read).
 * @returns The layout, or null when no field has a marking kind in most lines (then each line's header
 *   is found alone).
 */
export function learnHeader(lines: readonly string[]): HeaderLayout | null {
  const sc = new Scan();
  const counts: Map<FieldKind, number>[] = Array.from({ length: LAYOUT_FIELDS }, () => new Map());
  let n = 0;
  for (const line of lines) {
    if (n >= LAYOUT_LINES) break;
    if (line === "" || /^\s/.test(line)) continue;
    n++;
    sc.scan(line);
    if (sc.dates === 1) dateWords(sc.m, sc.n);
    // The last field is the message's (a header has a message after it).
    for (let i = 0; i < LAYOUT_FIELDS && i < sc.n - 1; i++) {
      const k = kindOf(line, sc, i), c = counts[i];
      c.set(k, (c.get(k) ?? 0) + 1);
    }
  }
  const kinds: FieldKind[] = [];
  let h = 0;
  for (let i = 0; i < LAYOUT_FIELDS; i++) {
    let best: FieldKind | null = null, most = 0, all = 0;
    for (const [k, c] of counts[i]) {
      all += c;
      if (c > most) best = k, most = c;
    }
    // Fewer lines reach this field: the layout ends. A field whose kind the lines do not agree on (a flag
    // that is `-` or a word) is a word: header only between marking fields.
    if (best === null || all < LAYOUT_AGREE * n) break;
    if (most < LAYOUT_AGREE * n) best = "word";
    kinds.push(best);
    if (best === "tag") {
      h = i + 1;
      break;
    }
    if (MARKS.has(best)) h = i + 1;
    else if (best === "sep" && h === i) h = i + 1;
  }
  return h === 0 ? null : { h, kinds: kinds.slice(0, h) };
}

/**
 * {@linkcode learnHeader} of a log's first bytes (as `scan_source.ts` `logHead` gives them: whole lines),
 * decoded as UTF-8 (invalid bytes replaced), CR before LF dropped.
 *
 * @param head The bytes.
 * @returns The layout, or null.
 */
export function headerOfHead(head: Uint8Array): HeaderLayout | null {
  const lines = new TextDecoder().decode(head).split("\n", LAYOUT_LINES + 1);
  return learnHeader(lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l)));
}

/**
 * The header of a scanned line under its log's layout: the layout's field count when the line's first
 * fields have its kinds (a word field takes any) and a message follows, else {@linkcode header}'s.
 */
export function headerOf(line: string, sc: Scan, layout: HeaderLayout): number {
  const h = layout.h;
  for (let i = 0; i < h; i++) {
    if (i >= sc.n - 1) return header(line, sc);
    const want = layout.kinds[i], got = kindOf(line, sc, i);
    if (want !== "word" && got !== want) return header(line, sc);
  }
  return sc.n > h ? h : header(line, sc);
}

/** {@linkcode LEVEL}`.test(t)`, without the regex for the words that cannot match. */
function isLevel(t: string): boolean {
  if (t.length < 3 || t.length > 12) return false;
  let c = t.charCodeAt(0);
  if (c === 91 || c === 40 || c === 60) c = t.charCodeAt(1);
  c |= 32;
  return (c === 116 || c === 100 || c === 105 || c === 110 || c === 119 || c === 101 || c === 102 ||
    c === 99 ||
    c === 115 || c === 97) && LEVEL.test(t);
}

/** Whether a masked token holds no letter and no digit (`\p{L}`, `\p{N}`). */
function noWord(m: string): boolean {
  for (let k = 0; k < m.length; k++) {
    const c = m.charCodeAt(k);
    if (c > 127) return !/[\p{L}\p{N}]/u.test(m);
    if ((c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122)) return false;
  }
  return true;
}

/**
 * Where the bracketed group opening token i ends: the index of the token whose last character closes
 * its `[`, or -1 when it closes inside a token or not within {@linkcode MAX_HEADER} tokens.
 */
function bracketEnd(line: string, sc: Scan, i: number): number {
  let d = 0;
  for (let j = i; j < sc.n && j < i + MAX_HEADER; j++) {
    const b = sc.b[j];
    for (let k = sc.a[j]; k < b; k++) {
      const c = line.charCodeAt(k);
      if (c === 91) d++;
      else if (c === 93 && --d === 0) return k === b - 1 ? j : -1;
    }
  }
  return -1;
}
