/**
 * What a search (`search.ts` `searchLog`) is given and gives back, and the scan options through which
 * its client steers it (a cancel, progress reports).
 *
 * @module
 */

import type { Level } from "./level.ts";
import type { LogFormat } from "./log_format.ts";
import type { LogLine } from "./log_line.ts";
import type { ReadableLog, ResumePoint } from "./readable_log.ts";
import type { ScanOptions, StopReason } from "./scanner.ts";
import type { PatternTester } from "./pattern_offload.ts";
import type { TimeReport, WindowOptions } from "./time_window.ts";
import type { WithContext } from "./context.ts";
import { plural } from "../core/plural.ts";

/**
 * How many bytes of each line (65,536: 64 KiB, counted before decoding) a pattern, or a case-insensitive
 * text with letters outside ASCII, is tested on.
 */
export const TESTED_BYTES = 65536;

/** Options of `search.ts` `searchLog`. */
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
   * Match letters in either case, by Unicode simple case folding (`fold.ts` `foldMatcher`): an ASCII text
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

/** What `search.ts` `searchLog` found: the `log_search` result without its `file`. */
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
 * The scan options that let a client steer a search: its cancellation (`opts.signal`), and progress
 * reports (`opts.onProgress`: the file offset reached, the log's size in bytes, lines read and matched).
 *
 * @param reached The file offset reached after `bytes` bytes of the scan's source.
 * @param matched How many matches so far.
 */
export function steering(
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
