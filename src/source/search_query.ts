/**
 * `log_search`'s query and answer at the backend seam (`backend.ts`): what the tool asks (a text, a
 * pattern or a mined template; level, window, context, limit, cursor), and what every backend answers,
 * in one shape the tool renders without knowing which backend answered.
 *
 * @module
 */

import type { Level } from "../read/level.ts";
import type { LogLine } from "../read/log_line.ts";
import type { WithContext } from "../read/context.ts";
import type { StopReason } from "../read/scanner.ts";
import type { WindowArgs } from "../read/time_span.ts";

/** What a search matches: a literal text or an RE2 pattern, or the lines of a mined template. */
export type SearchMatcher =
  | {
    /** A text: literal (case-sensitive unless `ignore_case`), or with `regex` an RE2 pattern. */
    kind: "text";
    /** The text or pattern, 1..4096 UTF-16 units, on one line, well-formed (the tool's schema checks it). */
    text: string;
    /** `text` is a regular expression in RE2 syntax (`read/pattern.ts`). */
    regex: boolean;
    /** Match letters in either case (Unicode simple case folding, `read/fold.ts`). */
    ignore_case: boolean;
  }
  | {
    /**
     * A template of `log_patterns` (issue #13): exactly the lines a `log_patterns` call on the same file,
     * window and level counted under it. A backend that does not mine says so (`lacks("template_id")`).
     */
    kind: "template";
    /** 16 hex digits, as `log_patterns` gives it. */
    template_id: string;
  };

/**
 * Where a search with `context` hands each match as it is found (issue #22: 5,000 matches with 10 lines
 * of context each must not be held whole): the tool's answer stream, which writes them out. The backend
 * calls it; it never sees what the sink does with them (artifacts are a layer above `source/`).
 */
export interface SearchSink {
  /**
   * A log's search begins: the point {@linkcode SearchSink.rollback} returns to (a page entered by a seek
   * whose log went out of order is read again from its start).
   */
  mark(): void;
  /**
   * The next match, in the order found, with its final context.
   *
   * @param file The match's log in a call over a glob (a heading is shown where it changes); else undefined.
   * @param line The match.
   * @param context Its lines before and after (`read/context.ts`).
   */
  take(file: string | undefined, line: LogLine, context: WithContext<LogLine>): void;
  /** Forgets every match taken since the last {@linkcode SearchSink.mark}. */
  rollback(): void;
}

/** A `log_search` query. */
export interface SearchQuery {
  /** The log's name, as `log_files` lists it, or a glob over the names (every matching log is read). */
  file: string;
  /** What to find. */
  match: SearchMatcher;
  /** Only matching lines (entries) of this level. */
  level?: Level;
  /** `since` (inclusive) and `until` (exclusive), as given (`read/time_span.ts` `resolveSpan` reads them). */
  window: WindowArgs;
  /**
   * Lines of context before and after each match, 0..10 (grep -C). Over a backend that lacks `context`
   * only 0; above 0 with a text, {@linkcode SearchQuery.sink} receives the matches.
   */
  context: number;
  /** The most matches to return (1..5000). */
  limit: number;
  /** `next_cursor` of an earlier answer to the same query: opaque, made and read by the backend. */
  cursor?: string;
  /** With `context` above 0: where the matches go as they are found; absent without context. */
  sink?: SearchSink;
}

/** A match: a line, with its log over a glob, and with `context` its lines around (no sink). */
export type SearchMatch = LogLine & {
  /** The log it is in (a call over a glob). */
  file?: string;
  /** With context (and no sink): the lines just before, not shown already. */
  before?: LogLine[];
  /** With context (and no sink): the lines just after, up to the next match. */
  after?: LogLine[];
};

/** Why a search is not complete: a stop of the scanner (`read/scanner.ts`), or of the table's pager. */
export type SearchStop = StopReason;

/** One log of a call over a glob, in the order read (newest first), then those not reached. */
export interface SearchLogStatus {
  /** The log's name. */
  file: string;
  /** Read to its end (or, in a window, past it) and every match returned. */
  complete: boolean;
  /**
   * Why not: a stop; `not_reached`, the call stopped before this log (the cursor reads it);
   * `no_timestamps`, read, but none of its lines has a timestamp to place it in the window.
   */
  stop_reason: SearchStop | "not_reached" | "no_timestamps" | null;
  /** Lines read to their end. */
  scanned_lines: number;
}

/** What a `log_search` query read, for the tool to render. */
export interface SearchAnswer {
  /** The log's name (one log, as the backend names it), or the glob as given. */
  file: string;
  /**
   * The matches, in the order found. With a sink, each keeps its number, level and cut flag only (`text`
   * "", no context lines): the sink has the rest.
   */
  matches: SearchMatch[];
  /** True when the matches name their log (`file`): a call over a glob. */
  glob: boolean;
  /** Lines (rows) read to their end; a search by template: the lines mined by its first pass. */
  scanned_lines: number;
  /** True only when every log (row) in scope was read and every match returned (`BRIEF.md`). */
  complete: boolean;
  /** Why not complete (null: complete, or incomplete for a reason in `not_read`, `logs` or `notes`). */
  stop_reason: SearchStop | null;
  /** Invalid UTF-8 bytes replaced by U+FFFD in the returned lines. */
  replaced_bytes: number;
  /** Secrets masked in the returned lines. */
  redactions: number;
  /** Pass as `cursor` to the same query to go on where this page stopped; null when there is no next page. */
  next_cursor: string | null;
  /** False when this page read nothing within its budget (then there is no cursor: calling again would not help). */
  progress: boolean;
  /** Bytes read by this page (probes of a time seek included; for a table, the bytes the server read). */
  scanned_bytes: number;
  /** One log: its format (`read/log_format.ts`), null for the general rules; absent over a glob or a table. */
  log_format?: string | null;
  /** A call over a glob of files: each matching log, in the order read, then those not reached. */
  logs?: SearchLogStatus[];
  /** A call over a glob of files: matching entries no page reads, each `name: why` (the first 20). */
  not_read?: string[];
  /** How many such entries, all of them (0 when none). */
  not_read_count: number;
  /**
   * Lines longer than the part a pattern (or a text tested line by line) is tested on, 64 KiB: a match
   * beyond it was not looked for. Absent where nothing is tested on a part.
   */
  partially_tested?: number;
  /** Lines whose level could not be told (UNKNOWN); absent when none. */
  unresolved_levels?: number;
  /** The time fields (`read/time_span.ts` `timeFields`); empty without a window (and by template). */
  time: Record<string, unknown>;
  /** A window's seek was broken: the log went out of order after a page entered it by a binary search. */
  seek_broken: boolean;
  /** Lines before the window were skipped by a binary search over timestamps (a log in time order). */
  seek_skipped: boolean;
  /** A search by template: the template, its lines in all, and how many earlier pages returned. */
  template?: { template_id: string; template: string; count: number; skipped: number };
  /** What one item is: a `line` of a file, a `row` of a table. */
  unit: "line" | "row";
  /**
   * The backend's words for what it read and did not, from their separator on, after `N match(es) for
   * WHAT` (e.g. ` in the bodies of T; complete: every row in scope was read (…); a table has no line
   * numbers (-)`); absent: the tool says it from `stop_reason` and the fields above (a file's words).
   */
  scope?: string;
  /** With `progress` false: why, and what to do, in the backend's words. */
  stuck?: string;
  /** Why the answer is not whole besides a stop, in the backend's words (a search by template). */
  notes: string[];
}
