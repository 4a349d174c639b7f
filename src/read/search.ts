/**
 * Searching a log for a literal text, within budgets, with honest line numbers and an honest end.
 *
 * From the seed (`../shared/seeds/000_…`, "Бюджет и неполный ответ"): the search stops at `limit`
 * matches, at the time budget or at the byte budget, and says which; a budget that runs out exactly at
 * the end of the file is not a stop; a fully read file with no match is a complete, empty answer.
 *
 * @module
 */

import { type Level, levelOf, LEVELS } from "./level.ts";
import { type LogLine, toLogLine } from "./log_line.ts";
import type { ReadableLog, ResumePoint } from "./readable_log.ts";
import { sourceFor } from "./scan_source.ts";
import { plural } from "../core/plural.ts";
import { scan, type ScanOptions, type ScanResult, type StopReason } from "./scanner.ts";
import { LineRedactor, redactLine } from "../guard/redact.ts";
import { RE2JS } from "re2js";
import { decodeLine } from "./decode.ts";
import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import { foldMatcher, foldPartners, matchSpan } from "./fold.ts";

/** Options of {@linkcode searchLog}. */
export interface SearchOptions {
  /** The literal text (its UTF-8 bytes are matched), or the pattern with `regex`; well-formed Unicode. */
  text: string;
  /** Keep only matching lines of this level. */
  level?: Level;
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

  /** Aborted when the client cancels. */
  signal?: AbortSignal;
  /** Receives the file offset reached, the file's size and a short message, at most every 250 ms. */
  onProgress?: (offset: number, total: number, message: string) => void;
}

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
}

/**
 * Searches an open log.
 *
 * Memory: one piece plus the returned lines.
 *
 * @param log The open log.
 * @param opts The text, filters, limit and budgets.
 * @returns The matches and how far the search got.
 * @throws {TypeError} when the text holds a line feed.
 * @throws {ToolError} `invalid_pattern` for a `regex` that RE2 cannot run ({@linkcode compilePattern}).
 */
export async function searchLog(log: ReadableLog, opts: SearchOptions): Promise<SearchResult> {
  // deno-lint-ignore no-control-regex
  if (opts.regex || (opts.ignoreCase && /[^\x00-\x7f]/.test(opts.text))) return await searchByLine(log, opts);
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
  const r = await scan(src, {
    line(buf, s, e, lineNo, cut) {
      if (lineNo === from.skip) return true; // returned (cut) by the page before
      if (want >= 0 && levelOf(buf, s, e) !== want) return true;
      const { line, replaced: bad } = toLogLine(buf, s, e, lineNo, cut, opts.maxLine, redactor);
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
    deadline: started + opts.searchMs,
    headBytes,
    lineBase: from.line,
    resume,
    ...steering(opts, log, reached, () => matches.length),
  });
  return pageResult(from, r, damage(), lastReported, matches, replaced, redactor.count);
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * How many bytes of each line (65,536: 64 KiB, counted before decoding) a pattern, or a case-insensitive
 * text with letters outside ASCII, is tested on.
 */
export const TESTED_BYTES = 65536;

/**
 * Compiles a pattern with RE2JS, a port of RE2: matching takes time linear in the line's length, so
 * no pattern can hang a search (`(a+)+$` against 100,000 `a`s then `!` takes milliseconds). The syntax is
 * RE2's, not JavaScript's: `(?P<name>…)`, `[[:digit:]]`, `\pL` and `(?i)` work; backreferences and
 * lookaround do not, and repeat counts go up to 1000.
 *
 * @param source The pattern as the client wrote it.
 * @param ignoreCase Compile with `CASE_INSENSITIVE` (RE2's simple-fold orbits: the same sets as
 *   {@linkcode foldMatcher}).
 * @returns The compiled pattern.
 * @throws {ToolError} `invalid_pattern`, in two wordings: `invalid regular expression: <RE2's reason>`
 *   when JavaScript (flag `u`) cannot parse it either (a syntax error), else `the regular expression …
 *   uses what RE2 cannot run in linear time …` (backreferences, lookaround, a repeat count over 1000:
 *   valid JavaScript, refused here). The pattern is quoted as written, control characters escaped
 *   ({@linkcode printable}).
 */
export function compilePattern(source: string, ignoreCase: boolean): RE2JS {
  try {
    return RE2JS.compile(source, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    const reason = printable(
      String(e instanceof Error ? e.message : e).replace(/^error parsing regexp: /, ""),
    );
    let javascript = true;
    try {
      new RegExp(source, "u");
    } catch {
      javascript = false;
    }
    throw new ToolError(
      "invalid_pattern",
      javascript
        ? `the regular expression \`${printable(source)}\` uses what RE2 cannot run in linear time or ` +
          `beyond its limits (${reason}): backreferences, lookahead and lookbehind, and repeat counts over ` +
          "1000 are not supported; rewrite it without them, or search for a literal part of it"
        : `invalid regular expression: ${reason} (RE2's syntax, not JavaScript's: no backreferences or ` +
          "lookaround)",
    );
  }
}

/**
 * The search for a regular expression, or for text with non-ASCII letters in either case: each line is
 * decoded (its first {@linkcode TESTED_BYTES} bytes) and tested; a pattern sees the line with secrets
 * masked, a literal text the line as read (as the byte search of a literal does, so `ignore_case` never
 * finds fewer lines than the case-sensitive search, in lines of at most that many bytes).
 */
async function searchByLine(log: ReadableLog, opts: SearchOptions): Promise<SearchResult> {
  const want = opts.level === undefined ? -1 : LEVELS.indexOf(opts.level);
  const re = opts.regex ? compilePattern(opts.text, opts.ignoreCase ?? false) : null;
  const folded = re ? null : foldMatcher(opts.text);
  const matches: LogLine[] = [];
  const redactor = new LineRedactor(opts.redact, false);
  const headBytes = Math.max(opts.maxLine * 4 + 1, TESTED_BYTES);
  const from = opts.resume ?? { off: log.bomLength, ls: log.bomLength, line: 0, pending: false, skip: 0 };
  let replaced = 0;
  let partial = 0;
  const { src, resume, damage, reached } = await sourceFor(log, from, headBytes, 0);
  const r = await scan(src, {
    line(buf, s, e, lineNo, cut, hint) {
      if (lineNo === from.skip) return true;
      if (want >= 0 && levelOf(buf, s, e, hint) !== want) return true;
      const tested = decodeLine(
        buf.subarray(s, Math.min(e, s + TESTED_BYTES)),
        Infinity,
        cut || e - s > TESTED_BYTES,
      );
      if (tested.cut) partial++;
      if (
        !(re
          ? re.matcher(opts.redact ? redactLine(tested.text).text : tested.text).find()
          : folded!.test(tested.text))
      ) {
        return true;
      }
      const { line, replaced: bad } = toLogLine(buf, s, e, lineNo, cut, opts.maxLine, redactor);
      matches.push(line);
      replaced += bad;
      return matches.length < opts.limit;
    },
  }, {
    pieceSize: opts.pieceSize,
    maxBytes: opts.searchBytes,
    deadline: performance.now() + opts.searchMs, // after a resumed gzip stream was skipped ahead
    headBytes,
    lineBase: from.line,
    resume,
    ...steering(opts, log, reached, () => matches.length),
  });
  return {
    ...pageResult(from, r, damage(), 0, matches, replaced, redactor.count),
    partially_tested: partial,
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
): SearchResult {
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
