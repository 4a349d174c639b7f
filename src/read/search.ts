/**
 * Searching a log for a literal text, within budgets, with honest line numbers and an honest end.
 *
 * From the seed (`../shared/seeds/000_…`, "Бюджет и неполный ответ"): the search stops at `limit`
 * matches, at the time budget or at the byte budget, and says which; a budget that runs out exactly at
 * the end of the file is not a stop; a fully read file with no match is a complete, empty answer.
 *
 * @module
 */

import { LEVELS } from "./level.ts";
import { formatOf } from "./log_format.ts";
import { entryLevels, levelCode } from "./entry_levels.ts";
import { type LogLine, toLogLine } from "./log_line.ts";
import type { ReadableLog } from "./readable_log.ts";
import { sourceFor } from "./scan_source.ts";
import { scan } from "./scanner.ts";
import { LineRedactor } from "../guard/redact.ts";
import { foldMatcher, foldPartners, matchSpan } from "./fold.ts";
import { windowedRead } from "./time_window.ts";
import { type SearchOptions, type SearchResult, steering, TESTED_BYTES } from "./search_options.ts";
import { pageResult } from "./page_end.ts";
import { shownAsRead } from "./shown_as_read.ts";
import { searchPage } from "./search_page.ts";

export type { SearchOptions, SearchResult } from "./search_options.ts";
export { TESTED_BYTES } from "./search_options.ts";
export type { TimeReport, WindowOptions } from "./time_window.ts";
export { LineLiteral } from "./line_literal.ts";
export { progressed } from "./page_end.ts";

/**
 * Searches an open log, its lines' levels read the way of its format (`log_format.ts`, detected from its
 * first lines unless `opts.format` gives it).
 *
 * @param log The open log.
 * @param opts The text, filters, limit and budgets.
 * @returns The matches, how far the search got, and the format.
 * @throws {TypeError} when the text holds a line feed.
 * @throws {ToolError} `invalid_pattern` for a `regex` that RE2 cannot run (`pattern.ts` `compilePattern`).
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
 * @throws {ToolError} `invalid_pattern` for a `regex` that RE2 cannot run (`pattern.ts` `compilePattern`).
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
      const masked = shownAsRead(opts.redact, buf, s, e, cut, opts.maxLine) ? undefined : redactor;
      const { line, replaced: bad } = toLogLine(buf, s, e, lineNo, cut, opts.maxLine, masked, code);
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
 * The search for a regular expression, or for text with non-ASCII letters in either case.
 *
 * A pattern: when it has a literal every match contains (`pattern.ts` `requiredLiteral`), the byte scanner
 * finds the lines that hold it and only those are tested; else every line is. A line is tested on its
 * first {@linkcode TESTED_BYTES} bytes as shown: decoded, invalid UTF-8 as U+FFFD, secrets masked, so
 * a pattern cannot probe a secret (a trial read one back when a line had to match as written and as
 * masked). Its raw bytes stand for that text when it surely holds no secret and no invalid UTF-8
 * (RE2JS's lazy DFA runs on them); with `pattern.ts` `maskProof`, a line whose bytes do not match is done.
 * A line that may be slow to test (`pattern_offload.ts` `isHeavy`) is tested in a worker the search can stop
 * (`PatternOffload`); the clock is read every `search_page.ts` `CHECK_COST` of pattern work, and
 * the event loop turns every `YIELD_MS`: the time budget and a cancel hold within a piece and
 * within one line.
 *
 * A case-insensitive text with letters outside ASCII: each line's first {@linkcode TESTED_BYTES} bytes
 * are decoded and compared by simple case folding (as the byte search of a literal does, on the line
 * as read, so `ignore_case` never finds fewer lines than the case-sensitive search, in lines of at most
 * that many bytes).
 *
 * Its pages (a window may read the log again from its start) are `search_page.ts` `searchPage`.
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
