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
import { fileSource, type OpenLog } from "./log_file.ts";
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
  const redactor = new LineRedactor(opts.redact, false);
  const src = fileSource(log, log.bomLength);
  const r = await scan(src, {
    line(buf, s, e, lineNo, cut) {
      if (want >= 0 && levelOf(buf, s, e) !== want) return true;
      const { line, replaced: bad } = toLogLine(buf, s, e, lineNo, cut, opts.maxLine, redactor);
      matches.push(line);
      replaced += bad;
      return matches.length < opts.limit;
    },
  }, {
    pieceSize: opts.pieceSize,
    needle: new TextEncoder().encode(opts.text),
    maxBytes: opts.searchBytes,
    deadline: started + opts.searchMs,
    headBytes: opts.maxLine * 4 + 1,
  });
  const stop = r.stop ?? (src.truncated ? "file_changed" : null);
  return {
    matches,
    scanned_lines: r.lines,
    complete: stop === null,
    stop_reason: stop,
    replaced_bytes: replaced,
    redactions: redactor.count,
  };
}
