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
import { fileSource, type OpenLog, type ResumePoint, resumeState } from "./log_file.ts";
import { plural } from "./tools/render.ts";
import { scan, type StopReason } from "./scanner.ts";
import { LineRedactor } from "./redact.ts";

/** Options of {@linkcode searchLog}. */
export interface SearchOptions {
  /** The literal text (UTF-8 bytes are matched). */
  text: string;
  /** Keep only matching lines of this level. */
  level?: Level;
  /** The most matches. */
  limit: number;
  /** Time budget in ms. */
  searchMs: number;
  /** Byte budget. */
  searchBytes: number;
  /** The most characters of one returned line. */
  maxLine: number;
  /** Bytes per read. */
  pieceSize: number;
  /** Mask secrets in the returned text (false for `--no-redact`). */
  redact: boolean;
  /** Where a resumed search goes on (from a cursor). */
  resume?: ResumePoint;
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
 */
export async function searchLog(log: OpenLog, opts: SearchOptions): Promise<SearchResult> {
  const started = performance.now();
  const want = opts.level === undefined ? -1 : LEVELS.indexOf(opts.level);
  const matches: LogLine[] = [];
  let replaced = 0;
  let lastReported = 0;
  const redactor = new LineRedactor(opts.redact, false);
  const needle = new TextEncoder().encode(opts.text);
  const headBytes = opts.maxLine * 4 + 1;
  const from = opts.resume ?? { off: log.bomLength, ls: log.bomLength, line: 0, pending: false, skip: 0 };
  const src = fileSource(log, from.off);
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
    maxBytes: opts.searchBytes,
    deadline: started + opts.searchMs,
    headBytes,
    lineBase: from.line,
    resume: resumeState(log, from, headBytes, needle.length - 1),
    cancelled: opts.signal ? () => opts.signal!.aborted : undefined,
    onProgress: opts.onProgress
      ? (bytes, lines) =>
        opts.onProgress!(
          from.off + bytes,
          log.size,
          `${plural(lines, "line")} read, ${matches.length} matched`,
        )
      : undefined,
  });
  const stop = r.stop ?? (src.truncated ? "file_changed" : null);
  let next: ResumePoint | null = null;
  if (stop === "limit") {
    const at = from.off + r.resumeAt;
    next = { off: at, ls: at, line: r.lines, pending: false, skip: 0 };
  } else if (stop === "time_budget" || stop === "size_budget") {
    const unfinished = r.lines + 1;
    const skip = r.pending && lastReported === unfinished
      ? unfinished
      : from.skip === unfinished
      ? unfinished
      : 0;
    next = {
      off: from.off + r.bytesRead,
      ls: from.off + r.resumeAt,
      line: r.lines,
      pending: r.pending,
      skip,
    };
  }
  return {
    matches,
    scanned_lines: r.lines,
    complete: stop === null,
    stop_reason: stop,
    replaced_bytes: replaced,
    redactions: redactor.count,
    next,
  };
}
