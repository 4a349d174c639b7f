/**
 * Searching a log for a literal text, within budgets, with honest line numbers and an honest end.
 *
 * From the seed (`../shared/seeds/000_…`, "Бюджет и неполный ответ"): the search stops at `limit`
 * matches, at the time budget or at the byte budget, and says which; a budget that runs out exactly at
 * the end of the file is not a stop; a fully read file with no match is a complete, empty answer.
 *
 * @module
 */

import { type Level, LEVELS } from "./level.ts";
import { formatOf, type LogFormat } from "./log_format.ts";
import { entryLevels, levelCode } from "./entry_levels.ts";
import { type LogLine, toLogLine } from "./log_line.ts";
import type { ReadableLog, ResumePoint } from "./readable_log.ts";
import { sourceFor } from "./scan_source.ts";
import { plural } from "../core/plural.ts";
import { nextTurn, scan, type ScanOptions, type ScanResult, type StopReason, YIELD_MS } from "./scanner.ts";
import { LineRedactor, mayHoldSecret, redactCutTail, redactLine } from "../guard/redact.ts";
import { RE2JS } from "re2js";
import { compilePattern, maskProof, maskSafe, requiredLiteral } from "./pattern.ts";
import { isHeavy, PatternOffload, type PatternTester } from "./pattern_offload.ts";
import { decodeLine } from "./decode.ts";
import { foldMatcher, foldPartners, matchSpan } from "./fold.ts";
import { LineTimes, type TimeReport, windowedRead, type WindowOptions } from "./time_window.ts";
import { ContextCollector, type WithContext } from "./context.ts";

/** Options of {@linkcode searchLog}. */
export interface SearchOptions {
  /** The literal text (its UTF-8 bytes are matched), or the pattern with `regex`; well-formed Unicode. */
  text: string;
  /** Keep only matching lines of this level. */
  level?: Level;
  /** The log's format (`log_format.ts`), its lines' levels read its way; absent: detected from the log. */
  format?: LogFormat | null;
  /** The most matches. */
  limit: number;
  /** Time budget in ms. */
  searchMs: number;
  /** Byte budget. */
  searchBytes: number;
  /** The most characters (Unicode code points) of one returned line. */
  maxLine: number;
  /** Bytes per read. */
  pieceSize: number;
  /** Mask secrets in the returned text (false for `--no-redact`). */
  redact: boolean;
  /** Where a resumed search goes on (from a cursor). */
  resume?: ResumePoint;
  /**
   * Match letters in either case, by Unicode simple case folding ({@linkcode foldMatcher}): an ASCII text
   * on the raw bytes (plus K and ſ for `k` and `s`), any other on each line's decoded first
   * {@linkcode TESTED_BYTES} bytes.
   */
  ignoreCase?: boolean;
  /**
   * `text` is a regular expression (RE2 syntax, run by RE2JS in linear time), tested on each line's
   * first {@linkcode TESTED_BYTES} bytes, decoded, secrets masked.
   */
  regex?: boolean;

  /**
   * Where a line that may be slow to test against a pattern is tested ({@linkcode PatternTester});
   * default: a worker started for this search.
   */
  patterns?: PatternTester;
  /**
   * A time window (issue #12): only lines whose time (`time_window.ts`) is in it match. With `since`, a
   * plain log not resumed is entered by a binary search over timestamps (`time_seek.ts`).
   */
  window?: WindowOptions;
  /** Lines of context before and after each match, 0..10 (issue #12; `context.ts`). */
  context?: number;
  /**
   * With `context` (issue #22: 5,000 matches with 10 lines of context each held ~105,000 lines): takes
   * each match with its context once both are final, in file order, so that the caller writes them out as
   * the scan goes; the result's `matches` and `contexts` then keep each match's number, level and cut
   * flag only (`text` "", no context lines). A match held back for the next page is not handed over;
   * when the log is read again from its start, `retake` says so first.
   */
  take?: (line: LogLine, context: WithContext<LogLine>) => void;
  /**
   * With `take`: called when the log is read again from its start (a page entered by a seek found the
   * log out of order): every match handed over since this search began is to be forgotten.
   */
  retake?: () => void;
  /**
   * When the page must end, `performance.now()` ms; default: `searchMs` from the search's start. A call
   * over many logs shares one.
   */
  deadline?: number;
  /** Aborted when the client cancels. */
  signal?: AbortSignal;
  /** Receives the file offset reached, the file's size and a short message, at most every 250 ms. */
  onProgress?: (offset: number, total: number, message: string) => void;
}

export type { TimeReport, WindowOptions } from "./time_window.ts";

/** What {@linkcode searchLog} found: the `log_search` result without its `file`. */
export interface SearchResult {
  /** Matching lines, in file order. */
  matches: LogLine[];
  /** Lines read to their end. */
  scanned_lines: number;
  /** True when the whole file was read and every match returned. */
  complete: boolean;
  /** Why not complete; null when complete. */
  stop_reason: StopReason | null;
  /** Bytes of the returned lines that were invalid UTF-8 and replaced. */
  replaced_bytes: number;
  /** Secrets masked in the returned lines. */
  redactions: number;
  /** Where the next page goes on; null when complete (or stopped for another reason). */
  next: ResumePoint | null;
  /** True when the page could not get anywhere within its budget. */
  stuck: boolean;
  /** Lines longer than the part a pattern was tested on ({@linkcode TESTED_BYTES}); regex only. */
  partially_tested?: number;
  /** Bytes read by this page (the seek's probes included, and lines read back for their entry's level). */
  scanned_bytes: number;
  /**
   * Lines tested whose level could not be told (`entry_levels.ts`: no line within `LOOKBACK_BYTES` before
   * them tells their entry, or in a `.gz` none on this page does): level UNKNOWN. Absent when none.
   */
  unresolved_levels?: number;
  /** With `context`: each match's lines before and after, in the order of `matches`. */
  contexts?: WithContext<LogLine>[];
  /** With a window: how the log's times were read. */
  time?: TimeReport;
  /** The format the log was read as (`log_format.ts`), or null: the general rules. */
  log_format?: string | null;
}

/**
 * Searches an open log, its lines' levels read the way of its format (`log_format.ts`, detected from its
 * first lines unless `opts.format` gives it).
 *
 * @param log The open log.
 * @param opts The text, filters, limit and budgets.
 * @returns The matches, how far the search got, and the format.
 * @throws {TypeError} when the text holds a line feed.
 * @throws {ToolError} `invalid_pattern` for a `regex` that RE2 cannot run ({@linkcode compilePattern}).
 */
export async function searchLog(log: ReadableLog, opts: SearchOptions): Promise<SearchResult> {
  const format = opts.format === undefined ? formatOf(log) : opts.format;
  return { ...await searchFormatted(log, { ...opts, format }), log_format: format?.name ?? null };
}

/**
 * {@linkcode searchLog} once the format is known (`opts.format`).
 *
 * Memory: one piece plus the returned lines.
 *
 * @param log The open log.
 * @param opts The text, filters, limit and budgets.
 * @returns The matches and how far the search got.
 * @throws {TypeError} when the text holds a line feed.
 * @throws {ToolError} `invalid_pattern` for a `regex` that RE2 cannot run ({@linkcode compilePattern}).
 */
async function searchFormatted(log: ReadableLog, opts: SearchOptions): Promise<SearchResult> {
  const every = (opts.context ?? 0) > 0 || opts.window !== undefined;
  // deno-lint-ignore no-control-regex
  if (every || opts.regex || (opts.ignoreCase && /[^\x00-\x7f]/.test(opts.text))) {
    return await searchByLine(log, opts);
  }
  const want = opts.level === undefined ? -1 : LEVELS.indexOf(opts.level);
  const matches: LogLine[] = [];
  let replaced = 0;
  let lastReported = 0;
  const redactor = new LineRedactor(opts.redact, false);
  const needle = new TextEncoder().encode(opts.text);
  // With ignore_case, a line holding K or ſ where the text has k or s is decided on its decoded text;
  // such a line longer than a piece is decided on its first TESTED_BYTES (as a pattern is).
  const partners = opts.ignoreCase ? foldPartners(needle) : { kelvin: false, longS: false };
  const folded = partners.kelvin || partners.longS ? foldMatcher(opts.text) : null;
  const headBytes = folded ? Math.max(opts.maxLine * 4 + 1, TESTED_BYTES) : opts.maxLine * 4 + 1;
  const span = matchSpan(needle, folded !== null);
  const from = opts.resume ?? { off: log.bomLength, ls: log.bomLength, line: 0, pending: false, skip: 0 };
  const { src, resume, damage, reached } = await sourceFor(log, from, headBytes, span - 1);
  // The budget starts after a resumed gzip stream was decompressed up to the cursor.
  const started = performance.now();
  const entries = entryLevels(log, opts.format ?? null);
  const r = await scan(src, {
    line(buf, s, e, lineNo, cut, hint, at) {
      if (lineNo === from.skip) return true; // returned (cut) by the page before
      const code = entries.levelAt(buf, s, e, hint, from.off + at, cut, true);
      if (want >= 0 && levelCode(code) !== want) return true;
      const { line, replaced: bad } = toLogLine(buf, s, e, lineNo, cut, opts.maxLine, redactor, code);
      matches.push(line);
      lastReported = lineNo;
      replaced += bad;
      return matches.length < opts.limit;
    },
  }, {
    pieceSize: opts.pieceSize,
    needle,
    ignoreCase: opts.ignoreCase,
    verify: folded ? (buf, s, e) => folded.test(utf8.decode(buf.subarray(s, e))) : undefined,
    maxBytes: opts.searchBytes,
    deadline: opts.deadline ?? started + opts.searchMs,
    headBytes,
    lineBase: from.line,
    resume,
    ...steering(opts, log, reached, () => matches.length),
  });
  return {
    ...pageResult(from, r, damage(), lastReported, matches, replaced, redactor.count),
    scanned_bytes: r.bytesRead + entries.bytesRead,
    unresolved_levels: entries.unresolved || undefined,
  };
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Pattern work (program size × bytes tested) between two reads of the clock in a regex search: a few
 * ms at worst (a trial's 4 KiB lines cost 28 ms each at ~0.5 M; a line over 1 M goes to the worker,
 * `isHeavy`). A cheap pattern on short lines reads the clock every hundred lines or so.
 */
const CHECK_COST = 250_000;

/**
 * How many bytes of each line (65,536: 64 KiB, counted before decoding) a pattern, or a case-insensitive
 * text with letters outside ASCII, is tested on.
 */
export const TESTED_BYTES = 65536;

/**
 * The search for a regular expression, or for text with non-ASCII letters in either case.
 *
 * A pattern: when it has a literal every match contains ({@linkcode requiredLiteral}), the byte scanner
 * finds the lines that hold it and only those are tested; else every line is. A line is tested on its
 * first {@linkcode TESTED_BYTES} bytes as shown: decoded, invalid UTF-8 as U+FFFD, secrets masked, so
 * a pattern cannot probe a secret (a trial read one back when a line had to match as written and as
 * masked). Its raw bytes stand for that text when it surely holds no secret and no invalid UTF-8
 * (RE2JS's lazy DFA runs on them); with {@linkcode maskProof}, a line whose bytes do not match is done.
 * A line that may be slow to test ({@linkcode isHeavy}) is tested in a worker the search can stop
 * ({@linkcode PatternOffload}); the clock is read every {@linkcode CHECK_COST} of pattern work, and the
 * event loop turns every {@linkcode YIELD_MS}: the time budget and a cancel hold within a piece and
 * within one line.
 *
 * A case-insensitive text with letters outside ASCII: each line's first {@linkcode TESTED_BYTES} bytes
 * are decoded and compared by simple case folding (as the byte search of a literal does, on the line
 * as read, so `ignore_case` never finds fewer lines than the case-sensitive search, in lines of at most
 * that many bytes).
 */
async function searchByLine(log: ReadableLog, opts: SearchOptions): Promise<SearchResult> {
  // The budget counts from here: compiling a pattern with a large counted repeat takes tens of ms.
  const started = performance.now();
  const deadline = opts.deadline ?? started + opts.searchMs;
  let reads = 0;
  const { disorder: _, ...page } = await windowedRead(
    log,
    opts.window,
    opts.resume,
    (from, known, order, probes) => {
      if (reads++ > 0) opts.retake?.();
      return searchPage(log, opts, from, deadline, known, order, probes);
    },
  );
  return page;
}

/**
 * The last match of a page with context: its start and number, whether it was cut, the last line shown
 * before it, and the replaced bytes and masked secrets counted before it (a match held back for the next
 * page takes its counts with it).
 */
interface Held {
  at: number;
  no: number;
  cut: boolean;
  prevShown: number;
  replaced: number;
  redactions: number;
}

/**
 * Lines up to this many bytes are searched byte by byte by a {@linkcode LineLiteral}; a longer one
 * through `indexOf` on a view of the line (a view costs more than a short line's loop).
 */
const SHORT_LINE = 128;

/**
 * A byte search for a literal inside one line at a time (case-sensitive: the needle's own bytes), for
 * a search that hands every line to its sink (a window, context). Its work on a line is bounded by the
 * line: no byte at or after the line's end is read (issue #22: an `indexOf` from the line's start ran on
 * to the end of the 1 MiB piece when the needle's first byte was rare, so a piece of short lines cost
 * seconds), and a line of near-matches (`aaaa…` for `aaa…ab`) costs at most about three passes over
 * it: once the comparisons after first-byte hits pass twice the line's length, the rest of the line is
 * read by Knuth–Morris–Pratt, one pass.
 */
export class LineLiteral {
  /** The bytes looked for (at least one). */
  readonly needle: Uint8Array;
  /** KMP's failure function, made when a line first needs it. */
  #fail: Int32Array | null = null;

  /**
   * @param needle The bytes looked for.
   * @throws {RangeError} when `needle` is empty.
   */
  constructor(needle: Uint8Array) {
    if (needle.length === 0) throw new RangeError("a literal of no bytes");
    this.needle = needle;
  }

  /**
   * True when `buf[s, e)` holds the needle.
   *
   * @param buf Holds the line.
   * @param s The line's first byte.
   * @param e Past its last byte.
   */
  holds(buf: Uint8Array, s: number, e: number): boolean {
    const needle = this.needle;
    const n = needle.length;
    const b0 = needle[0];
    const last = e - n; // the last offset a match can start at
    if (last < s) return false;
    /** Comparisons allowed after first-byte hits before the line goes to KMP. */
    let left = 2 * (e - s) + 16;
    if (e - s <= SHORT_LINE) {
      for (let i = s; i <= last; i++) {
        if (buf[i] !== b0) continue;
        let k = 1;
        while (k < n && buf[i + k] === needle[k]) k++;
        if (k === n) return true;
        if ((left -= k) < 0) return this.#kmp(buf, i + 1, e);
      }
      return false;
    }
    const line = buf.subarray(s, last + 1); // where a match can start: indexOf stops at its end
    for (let j = line.indexOf(b0); j >= 0; j = line.indexOf(b0, j + 1)) {
      const i = s + j;
      let k = 1;
      while (k < n && buf[i + k] === needle[k]) k++;
      if (k === n) return true;
      if ((left -= k) < 0) return this.#kmp(buf, i + 1, e);
    }
    return false;
  }

  /** Knuth–Morris–Pratt over `buf[from, e)`: true when a match starts there. */
  #kmp(buf: Uint8Array, from: number, e: number): boolean {
    const needle = this.needle;
    const n = needle.length;
    const fail = this.#fail ??= failure(needle);
    let q = 0;
    for (let i = from; i < e; i++) {
      const b = buf[i];
      while (q > 0 && b !== needle[q]) q = fail[q - 1];
      if (b === needle[q] && ++q === n) return true;
    }
    return false;
  }
}

/** KMP's failure function: `f[q]`, the longest proper prefix of `needle[0, q]` that is also its suffix. */
function failure(needle: Uint8Array): Int32Array {
  const f = new Int32Array(needle.length);
  let k = 0;
  for (let q = 1; q < needle.length; q++) {
    while (k > 0 && needle[q] !== needle[k]) k = f[k - 1];
    if (needle[q] === needle[k]) k++;
    f[q] = k;
  }
  return f;
}

/**
 * One page of {@linkcode searchByLine}, from `first`: the scan, each line tested, the window and the
 * context applied.
 *
 * @param lineKnown False after a seek: line numbers are not known (null).
 * @param order How the window's order stands so far (null: no window).
 * @param probes The seek's probes, reported.
 */
async function searchPage(
  log: ReadableLog,
  opts: SearchOptions,
  first: ResumePoint,
  deadline: number,
  lineKnown: boolean,
  order: TimeReport["order"] | null,
  probes: number,
): Promise<SearchResult & { disorder: boolean }> {
  const want = opts.level === undefined ? -1 : LEVELS.indexOf(opts.level);
  // A page after one a budget stopped, with context: the lines before its start that the page before did
  // not show are read again, for context only (a match right after the cut keeps its before-lines).
  let contextUntil = -1;
  /** Bytes read again (context lines, and the part of a cut line the page before had read): not budgeted. */
  let reread = 0;
  const origin = first;
  if ((opts.context ?? 0) > 0 && first === opts.resume && first.cs !== undefined && first.cs < first.ls) {
    contextUntil = first.ls;
    reread = first.off - first.cs;
    first = { off: first.cs, ls: first.cs, line: first.cl ?? 0, pending: false, skip: first.skip };
  }
  const win = opts.window;
  const times = win ? new LineTimes(win.timeOf, win.span, opts.resume ? win.carry : undefined) : null;
  // A first page entered by a seek reads again from the start when the order breaks; a later page cannot
  // (its lines before were returned already): it reads on, and says the seek may have skipped lines.
  const seeked = order === "seek" && !opts.resume;
  let brokeLate = opts.resume !== undefined && win?.brokenAfterSeek === true;
  const n = opts.context ?? 0;
  const every = n > 0 || win !== undefined;
  const re = opts.regex ? compilePattern(opts.text, opts.ignoreCase ?? false) : null;
  // Without a pattern: a text in either case is compared by simple case folding, decoded; else its bytes.
  const folded = !re && opts.ignoreCase ? foldMatcher(opts.text) : null;
  const plain = re || folded ? null : new LineLiteral(new TextEncoder().encode(opts.text));
  const literal = re && !every
    ? maskSafe(requiredLiteral(opts.text, opts.ignoreCase ?? false), opts.redact)
    : null;
  const size = re ? re.programSize() : 0;
  // A line that does not match as read cannot match as shown: its bytes are tested first.
  const proof = re !== null && opts.redact && maskProof(opts.text);
  using own = opts.patterns || !re ? null : new PatternOffload();
  const tester: PatternTester | null = opts.patterns ?? own;
  const flags = opts.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
  if (re) tester!.warm();
  const matches: LogLine[] = [];
  const redactor = new LineRedactor(opts.redact, false);
  const entries = entryLevels(log, opts.format ?? null);
  /** The level code of the line the sink has (`EntryLevels.levelAt`), and whether it is final. */
  let code = 0;
  let final = false;
  /** The line's level, read ahead when the line after it may give it one. */
  const finalCode = () => {
    if (!final) code = entries.ahead(code);
    final = true;
    return code;
  };
  const headBytes = Math.max(opts.maxLine * 4 + 1, TESTED_BYTES);
  const carry = literal ? matchSpan(literal.bytes, literal.ignoreCase) - 1 : 0;
  let replaced = 0;
  let partial = 0;
  let lastReported = 0;
  const shownNo = (lineNo: number) => (lineKnown ? lineNo : null);
  const collector = n > 0
    ? new ContextCollector<LogLine>(n, opts.maxLine * 4 + 1, (bytes, len, lineNo, cut, code) => {
      const { line, replaced: bad } = toLogLine(bytes, 0, len, lineNo, cut, opts.maxLine, redactor, code);
      replaced += bad;
      return line;
    })
    : null;
  const contexts: WithContext<LogLine>[] = [];
  /** With `take`: the matches handed over so far (all but the last, whose after-lines may still come). */
  let handed = 0;
  const handOver = (upto: number) => {
    for (; handed < upto; handed++) {
      const m = matches[handed];
      opts.take!(m, contexts[handed]);
      matches[handed] = { line_no: m.line_no, level: m.level, text: "", cut: m.cut };
      contexts[handed] = { before: [], after: [], adjoins: contexts[handed].adjoins };
    }
  };
  /** Past the limit, reading on for the last match's after-lines: where the next page starts. */
  let after: ResumePoint | null = null;
  /** The order broke after a seek: the caller reads again from the start. */
  let brokeOrder = false;
  /** The line found heavy by the sink, to be tested in the worker (its bytes are copied). */
  let heavy: { bytes: Uint8Array; lineNo: number; at: number; e: number; cut: boolean; code: number } | null =
    null;
  let heavyBuf: Uint8Array | null = null;
  const accept = (
    buf: Uint8Array,
    s: number,
    e: number,
    lineNo: number,
    cut: boolean,
    at: number,
  ): boolean => {
    if (after) return false; // a match among the after-lines: the next page starts with it
    lastReported = lineNo;
    lastMatch = {
      at: first.off + at,
      no: lineNo,
      cut,
      prevShown: lastShown,
      replaced,
      redactions: redactor.count,
    };
    lastShown = lineNo;
    const { line, replaced: bad } = toLogLine(
      buf,
      s,
      e,
      shownNo(lineNo),
      cut,
      opts.maxLine,
      redactor,
      finalCode(),
    );
    matches.push(line);
    replaced += bad;
    if (collector) contexts.push(collector.match(shownNo(lineNo)));
    if (opts.take && collector) handOver(matches.length - 1);
    if (matches.length < opts.limit) return true;
    if (collector?.wantsAfter()) {
      after = { off: -1, ls: -1, line: lineNo, pending: false, skip: 0 }; // its offset: the next line's
      return true;
    }
    return false;
  };
  /** A line that is no match: context for the matches around it. */
  const other = (buf: Uint8Array, s: number, e: number, lineNo: number, cut: boolean): boolean => {
    if (!collector) return true;
    if (collector.wantsAfter()) lastShown = lineNo; // an after-line of the last match
    collector.other(buf, s, e, shownNo(lineNo), cut, finalCode());
    return true;
  };
  /** The number of the last line this page showed (a match or a context line). */
  let lastShown = 0;
  /** The last match: its start, number, whether cut, and `lastShown` before it. */
  let lastMatch: Held | null = null;
  /**
   * The starts and numbers of the last 2N + 2 lines read: where the next page's context begins (up to N
   * lines before a match held back with its before-lines, and the lines read after it).
   */
  const ring = 2 * n + 2;
  const recent = { at: new Float64Array(ring), no: new Float64Array(ring), k: 0 };
  /**
   * What the pattern is tested on (issue #11 trial: it must depend on the masked text only, or a
   * pattern could read a secret back one character at a time). With masking on: the line's raw bytes
   * when it surely holds no secret and no invalid UTF-8 (the bytes are then the text as shown, and the
   * DFA runs on them); else its text as shown — decoded, invalid sequences as U+FFFD, secrets masked —
   * encoded again for a test in the pattern worker, or as a string here.
   *
   * @param tested The line's first {@linkcode TESTED_BYTES} bytes.
   * @param partial True when that is not the whole line.
   */
  const subject = (tested: Uint8Array, partial: boolean): Uint8Array | string => {
    if (!opts.redact) return tested;
    const { text, replaced } = decodeLine(tested, Infinity, partial);
    if (text.length > opts.maxLine) {
      // Shown cut at LOGPEEK_MAX_LINE, and masked as a cut line (a trial: the first 1000 characters of
      // a long base64 run are masked as a key body, the whole line is not): when anything is masked in
      // what is shown, the pattern sees only what is shown.
      const shown = decodeLine(tested, opts.maxLine, partial);
      const scratch = new LineRedactor(true, false);
      const masked = scratch.line(shown.text, shown.cut);
      if (scratch.count > 0) return masked;
    } else if (!partial && replaced === 0 && !mayHoldSecret(text)) return tested;
    // The first 64 KiB of a longer line are masked as a cut line too (a secret running into the cut).
    const masked = redactLine(text);
    const tail = partial ? redactCutTail(masked.text) : { text: masked.text, count: 0 };
    return masked.count === 0 && tail.count === 0 && replaced === 0 ? tested : tail.text;
  };
  /** Why the sink stopped the scan, when it did for something it must await. */
  let pause: "yield" | "time" | null = null;
  /** Pattern cost (program size × bytes) tested since the clock was last read. */
  let spent = 0;
  let sliceStart = performance.now();
  /** The line (its offset in the scan, number) the last pause or heavy line came after. */
  let lastAt = 0;
  let lastNo = 0;
  /** Set when a heavy line could not be tested: the page ends before it. */
  let untested: { stop: StopReason; lineNo: number; at: number } | null = null;
  /**
   * Where the next page's context lines begin: the last N lines before `next.ls` read on this page and
   * not shown by it (a line shown as a match or context is not shown again).
   */
  const contextStart = (next: ResumePoint): { cs: number; cl: number } => {
    let cs = next.ls;
    let cl = next.line;
    for (let j = 1; j <= Math.min(recent.k, ring); j++) {
      const slot = (recent.k - j) % ring;
      const at = recent.at[slot], no = recent.no[slot];
      if (at >= next.ls) continue;
      if (no <= lastShown || next.line - (no - 1) > n) break;
      cs = at;
      cl = no - 1;
    }
    return { cs, cl };
  };
  const src = await sourceFor(log, first, headBytes, carry);
  const r = await scan(src.src, {
    line(buf, s, e, lineNo, cut, hint, at) {
      if (after) {
        // Past the limit, reading the last match's after-lines: the next page starts at the first line
        // not shown (a match, or the line after them), so it neither repeats nor loses one.
        after.off = after.ls = first.off + at;
        after.line = lineNo - 1;
        if (!collector!.wantsAfter()) return false;
      }
      // Every line handed here, in order, so that a continuation line's entry is known without reading back.
      code = entries.levelAt(buf, s, e, hint, first.off + at, cut);
      final = false;
      if (collector) {
        const slot = recent.k++ % ring;
        recent.at[slot] = first.off + at;
        recent.no[slot] = lineNo;
        // Read again for context only (the page before read, tested and counted it).
        if (first.off + at < contextUntil) return other(buf, s, e, lineNo, cut);
      }
      let t = NaN;
      if (times) {
        t = times.see(buf, s, e);
        if (times.disorder && order !== "out_of_order") {
          if (seeked) {
            brokeOrder = true;
            return false;
          }
          if (order === "seek") brokeLate = true;
          order = "out_of_order";
        }
      }
      if (lineNo === first.skip) return other(buf, s, e, lineNo, cut); // returned (cut) by the page before
      if (times && !times.inside(t)) return other(buf, s, e, lineNo, cut);
      if (want >= 0 && levelCode(finalCode()) !== want) return other(buf, s, e, lineNo, cut);
      if (plain) {
        // A literal on every line (a window, or context): its bytes, in the line as far as it is here.
        if (cut) partial++;
        return plain.holds(buf, s, e) ? accept(buf, s, e, lineNo, cut, at) : other(buf, s, e, lineNo, cut);
      }
      // A line cut by the budget before 64 KiB of it were read is not a pattern's to decide (`$` or
      // `\b` would match at the cut): it is not reported, and the next page, which re-reads its start,
      // tests it whole. (A line cut anywhere else has at least its first 64 KiB here.)
      if (re && cut && e - s < TESTED_BYTES) return other(buf, s, e, lineNo, cut);
      const end = Math.min(e, s + TESTED_BYTES);
      if (cut || e - s > TESTED_BYTES) partial++;
      if (folded) {
        if (!folded.test(decodeLine(buf.subarray(s, end), Infinity, end < e || cut).text)) {
          return other(buf, s, e, lineNo, cut);
        }
        return accept(buf, s, e, lineNo, cut, at);
      }
      if (isHeavy(size, end - s)) {
        // Tested in the worker: the scan stops here, and `resumeAfterStop` tests it and goes on. An
        // after-line past the limit too: a match there starts the next page, any other line is shown
        // as context (ending the page before it left the last match without it, and no page showed it).
        if (!heavyBuf || heavyBuf.length < e - s) heavyBuf = new Uint8Array(Math.max(e - s, 4096));
        heavyBuf.set(buf.subarray(s, e));
        heavy = { bytes: heavyBuf, lineNo, at, e: e - s, cut, code: finalCode() };
        return false;
      }
      const raw = buf.subarray(s, end);
      let hit: boolean;
      if (proof && !re!.test(raw)) hit = false; // nor as shown (`maskProof`)
      else {
        const tested = subject(raw, end < e || cut);
        hit = typeof tested === "string" ? re!.test(tested) : re!.test(tested);
      }
      const go = hit ? accept(buf, s, e, lineNo, cut, at) : other(buf, s, e, lineNo, cut);
      // The budget and a cancel inside a piece (its lines may cost tens of ms each): the clock is read
      // every CHECK_COST of pattern work; the scan stops after this line, or lets the event loop turn.
      if (go && (spent += size * (end - s)) >= CHECK_COST) {
        spent = 0;
        const now = performance.now();
        if (now >= deadline || now - sliceStart >= YIELD_MS) {
          pause = now >= deadline ? "time" : "yield";
          lastAt = at;
          lastNo = lineNo;
          return false;
        }
      }
      return go;
    },
  }, {
    pieceSize: opts.pieceSize,
    needle: literal?.bytes,
    ignoreCase: literal?.ignoreCase,
    // A line with K or ſ where the literal has k or s: the pattern decides.
    verify: literal?.ignoreCase ? () => true : undefined,
    maxBytes: opts.searchBytes + reread,
    deadline,
    headBytes,
    lineBase: first.line,
    resume: src.resume,
    ...steering(opts, log, (b) => src.reached(b), () => matches.length),
    resumeAfterStop: async () => {
      if (pause === "time") return false;
      if (pause === "yield") {
        await nextTurn();
        sliceStart = performance.now();
        if (opts.signal?.aborted || sliceStart >= deadline) {
          pause = "time"; // stop after this line: cancelled, or the budget spent
          return false;
        }
        pause = null;
        return true;
      }
      if (!heavy) return false; // the limit, the window's end, the order broken
      const h: { bytes: Uint8Array; lineNo: number; at: number; e: number; cut: boolean; code: number } =
        heavy;
      heavy = null;
      code = h.code;
      final = true;
      const end = Math.min(h.e, TESTED_BYTES);
      const shown = subject(h.bytes.subarray(0, end), end < h.e || h.cut);
      const tested = typeof shown === "string" ? new TextEncoder().encode(shown) : shown;
      let outcome = await tester!.test(opts.text, flags, tested, deadline - performance.now(), opts.signal);
      // No worker (its module is not readable): tested here, where it cannot be stopped.
      if (outcome === "unavailable") outcome = re!.test(tested) ? "match" : "no_match";
      if (outcome === "time_budget" || outcome === "cancelled") {
        untested = { stop: outcome, lineNo: h.lineNo, at: h.at };
        if (h.cut || h.e > TESTED_BYTES) partial--;
        return false;
      }
      sliceStart = performance.now();
      return outcome === "match"
        ? accept(h.bytes, 0, h.e, h.lineNo, h.cut, h.at)
        : other(h.bytes, 0, h.e, h.lineNo, h.cut);
    },
  });
  const damage = src.damage();
  const stopped = untested as { stop: StopReason; lineNo: number; at: number } | null;
  let result: SearchResult;
  const common = {
    matches,
    replaced_bytes: replaced,
    redactions: redactor.count,
    scanned_bytes: r.bytesRead + entries.bytesRead,
  };
  const paused = pause as "yield" | "time" | null;
  // Past the limit, reading after-lines: the page ends where its sink stopped it, or at the log's end. A
  // budget that stops it there instead (the scanner's, the sink's clock, a line the pattern worker could
  // not test in time) ends it as any budget does (the next page goes on after the last line read, its
  // context from the lines not shown, the last match held back for it).
  const budgeted = r.stop === "time_budget" || r.stop === "size_budget" || paused === "time" ||
    untested !== null;
  const afterPoint = budgeted ? null : after as ResumePoint | null;
  if (brokeOrder) {
    // The order broke after a seek: the caller reads again from the start.
    result = {
      ...common,
      scanned_lines: r.lines,
      complete: damage === null,
      stop_reason: damage,
      next: null,
      stuck: false,
    };
  } else if (afterPoint) {
    // Past the limit, the after-lines of the last match read: the next page starts at the first line not
    // shown; none when the log ended among them (no match followed: nothing is left).
    const ended = r.stop === null;
    const stop = ended ? damage : r.stop;
    const next: ResumePoint | null = !ended && afterPoint.off >= 0
      ? { off: afterPoint.off, ls: afterPoint.off, line: afterPoint.line, pending: false, skip: 0 }
      : null;
    result = {
      ...common,
      scanned_lines: afterPoint.line,
      complete: stop === null,
      stop_reason: stop,
      next,
      stuck: false,
    };
  } else if (stopped || paused) {
    // Stopped before a heavy line (not tested: the next page starts at it), or after a line when the
    // budget ran out or the client cancelled within a piece.
    const stop: StopReason = stopped ? stopped.stop : opts.signal?.aborted ? "cancelled" : "time_budget";
    const lineStart = first.off + (stopped ? stopped.at : lastAt);
    const after = first.off + r.resumeAt;
    let next: ResumePoint | null;
    if (stopped) next = { off: lineStart, ls: lineStart, line: stopped.lineNo - 1, pending: false, skip: 0 };
    else if (after > lineStart) next = { off: after, ls: after, line: r.lines, pending: false, skip: 0 };
    else next = null; // the last line, without a line feed: nothing after it
    if (!stopped && next === null) {
      result = {
        ...common,
        scanned_lines: lastNo,
        complete: damage === null,
        stop_reason: damage,
        next: null,
        stuck: false,
      };
    } else {
      const n = stop === "cancelled" ? null : progressed(first, next);
      result = {
        ...common,
        scanned_lines: next!.line,
        complete: false,
        stop_reason: stop,
        next: n,
        stuck: stop === "time_budget" && n === null,
      };
    }
  } else {
    result = {
      ...pageResult(first, r, damage, lastReported, matches, replaced, redactor.count),
      scanned_bytes: r.bytesRead + entries.bytesRead,
    };
  }
  const held = lastMatch as Held | null;
  if (
    collector && !afterPoint && result.next && collector.wantsAfter() && held && !held.cut &&
    held.at > origin.ls
  ) {
    // A budget stopped the page before the last match's after-lines were read: that match is held back
    // for the next page, which shows it with all its context.
    matches.pop();
    contexts.pop();
    lastShown = held.prevShown;
    result.replaced_bytes = held.replaced;
    result.redactions = held.redactions;
    result.next = { off: held.at, ls: held.at, line: held.no - 1, pending: false, skip: 0 };
    result.scanned_lines = held.no - 1;
  }
  if (collector && !afterPoint && result.next) {
    // Progress is measured from where the cursor pointed, not from the context read again before it.
    if (progressed(origin, result.next) === null) {
      result.next = null;
      result.stuck = result.stop_reason === "time_budget" || result.stop_reason === "size_budget";
    } else result.next = { ...result.next, ...contextStart(result.next) };
  }
  const report = times?.report(order!, probes, lineKnown, brokeLate);
  if (opts.take && collector) handOver(matches.length);
  return {
    ...result,
    partially_tested: partial,
    unresolved_levels: entries.unresolved || undefined,
    contexts: collector ? contexts : undefined,
    time: report,
    disorder: brokeOrder,
  };
}

/**
 * The next page's resume point, or null when it would start where this page started: no progress (a
 * budget too small to read anything, or a pattern that cannot finish on the page's first line).
 */
export function progressed(from: ResumePoint, next: ResumePoint | null): ResumePoint | null {
  if (!next) return null;
  return next.off > from.off || next.line > from.line ? next : null;
}

/** The scan options that let a client steer a search: its cancellation, and progress reports. */
function steering(
  opts: SearchOptions,
  log: ReadableLog,
  reached: (bytes: number) => number,
  matched: () => number,
): Pick<ScanOptions, "cancelled" | "onProgress"> {
  return {
    cancelled: opts.signal ? () => opts.signal!.aborted : undefined,
    onProgress: opts.onProgress
      ? (bytes, lines) =>
        opts.onProgress!(reached(bytes), log.size, `${plural(lines, "line")} read, ${matched()} matched`)
      : undefined,
  };
}

/**
 * Where the page after this one starts. After `limit`, at the line after the last match. After a
 * budget, exactly where reading stopped (inside a line, if so), remembering whether that line already
 * holds the needle and was already returned (cut) so the next page neither loses nor repeats it.
 */
function nextPoint(
  from: ResumePoint,
  r: ScanResult,
  stop: StopReason | null,
  lastReported: number,
): ResumePoint | null {
  if (stop === "limit") {
    const at = from.off + r.resumeAt;
    return { off: at, ls: at, line: r.lines, pending: false, skip: 0 };
  }
  if (stop !== "time_budget" && stop !== "size_budget") return null;
  const unfinished = r.lines + 1;
  const returned = (r.pending && lastReported === unfinished) || from.skip === unfinished;
  return {
    off: from.off + r.bytesRead,
    ls: from.off + r.resumeAt,
    line: r.lines,
    pending: r.pending,
    skip: returned ? unfinished : 0,
  };
}

/** A search page's result, from what its scan did (both kinds of search end the same way). */
function pageResult(
  from: ResumePoint,
  r: ScanResult,
  damage: StopReason | null,
  lastReported: number,
  matches: LogLine[],
  replaced: number,
  redactions: number,
): Omit<SearchResult, "scanned_bytes"> {
  const stop = r.stop ?? damage;
  const next = nextPoint(from, r, stop, lastReported);
  return {
    matches,
    scanned_lines: r.lines,
    complete: stop === null,
    stop_reason: stop,
    replaced_bytes: replaced,
    redactions,
    next,
    stuck: next !== null && progressed(from, next) === null,
  };
}
