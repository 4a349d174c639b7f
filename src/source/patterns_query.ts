/**
 * `log_patterns`'s query and answer at the backend seam (`backend.ts`): the templates of a log's (or a
 * glob's) lines with exact counts, and what changed against a baseline (issue #13, #22).
 *
 * A call stopped by its budget goes on from a state the backend gives back ({@linkcode PatternsAnswer.resume}):
 * the tool keeps it (its artifact store, `state/`, is a layer above `source/`) and hands it back with the
 * backend's cursor on the next page ({@linkcode PatternsQuery.resume}); the backend never touches the store.
 *
 * @module
 */

import type { Level } from "../read/level.ts";
import type { WindowArgs } from "../read/time_span.ts";

/** Which lines: the window's (the lines asked for), or the baseline's. */
export type PatternsSide = "window" | "baseline";

/** How much of one side a call with a baseline read: in full, partly (a budget, or a note), or not at all. */
export type SideRead = "whole" | "partly_read" | "not_read";

/** Why a call (or a log of it) stopped before its end. */
export type PatternsStop = "time_budget" | "file_changed" | "cancelled" | "corrupt_gzip";

/** A `log_patterns` query. */
export interface PatternsQuery {
  /** The log's name as `log_files` lists it, or a glob over the names (every matching log, newest first). */
  file: string;
  /** Only lines (entries) of this level. */
  level?: Level;
  /** `since` (inclusive) and `until` (exclusive), as given (`read/time_span.ts` `resolveSpan` reads them). */
  window: WindowArgs;
  /**
   * What to compare with; absent: no baseline. `file`: another log (or glob), absent for the same logs;
   * `window`: another window of them, both ends undefined for the whole baseline log.
   */
  baseline?: { file?: string; window: WindowArgs };
  /**
   * Goes on with a call its budget stopped: the backend's cursor and the state it gave back
   * ({@linkcode PatternsResume.cursor}, the text of {@linkcode PatternsResume.state}'s lines joined by line
   * feeds), as the tool kept them. Checked: another query's, or an altered one, is `invalid_cursor`.
   */
  resume?: { cursor: string; state: string };
}

/** One template of the answer (structuredContent's `templates` entry). */
export interface PatternTemplate {
  /** 16 hex digits: the hash of the template (`log_search` takes it). */
  template_id: string;
  /** The line with each variable part as `<*>`. */
  template: string;
  /** Lines of the window under it. */
  count: number;
  /** Its lines per level (levels with none left out). */
  levels: Record<string, number>;
  /** Null when line numbers are not known (after a seek). */
  first_line_no: number | null;
  last_line_no: number | null;
  /** A call over a glob: the logs of the first and last lines. */
  first_file?: string;
  last_file?: string;
  /** RFC 3339 in the zone (LOGPEEK_TZ); null when none of its lines had a time. */
  first_time: string | null;
  last_time: string | null;
  /** Its first line as shown: secrets masked, cut at LOGPEEK_MAX_LINE (characters). */
  example: string;
  /** The baseline's lines of it (so far); absent while the baseline is not read. */
  baseline_count?: number;
  /** Only when both sides were read in full. */
  change?: "new" | "gone" | "up" | "down" | "same";
  /** Its rate in the window over its rate in the baseline, to 3 decimals (null for new and gone). */
  rate_ratio?: number | null;
}

/** One log of a call over a glob, as its page read it (structuredContent's `logs` entry). */
export interface PatternsLog {
  file: string;
  complete: boolean;
  stop_reason: PatternsStop | "not_reached" | "no_timestamps" | null;
  /** Lines read of it (the last line's number from its start or its seek's point). */
  scanned_lines: number;
}

/** The answer's `baseline` field. */
export interface PatternsBaseline {
  /** The baseline's log (or glob). */
  file: string;
  /** Its window as RFC 3339 instants (null ends: open), null for the whole log. */
  window: { since: string | null; until: string | null } | null;
  /** Its lines mined (so far). */
  total_lines: number;
  /** Its lines in no template (LOGPEEK_MAX_TEMPLATES reached). */
  other_lines: number;
  /** The part of its window its logs cover, in hours to 3 decimals (null: not known, or no change given). */
  hours: number | null;
  /** Every line of it was mined. */
  complete: boolean;
}

/** How a side's length was measured, for the rates (epoch ms). */
export interface Cover {
  /** Its length, or null when under a second or not known (no timestamp). */
  hours: number | null;
  /** Where it begins, and why: its window's `since`, or the first timestamp its logs hold. */
  from: number;
  fromIs: "since" | "first_line";
  /** Where it ends: its window's `until`, now (an `until` past now, or none), or its logs' last timestamp. */
  to: number;
  toIs: "until" | "now" | "last_line";
}

/**
 * Why an answer cannot be complete, found on a page (kept across pages), as data: the tool says it.
 * `no_timestamps`: logs of a glob read without a timestamp in a window; `seek_broken`: timestamps out of
 * order after a seek; `not_read`: entries the glob matches that no page reads (the first 20, and how many);
 * `damaged`: a log that changed or a corrupt gzip, with the lines read of it.
 */
export type PatternsNote =
  | { side: PatternsSide; kind: "no_timestamps"; files: string[] }
  | { side: PatternsSide; kind: "seek_broken" }
  | { side: PatternsSide; kind: "not_read"; entries: string[]; count: number }
  | {
    side: PatternsSide;
    kind: "damaged";
    file: string;
    stop_reason: "file_changed" | "corrupt_gzip";
    lines: number;
  };

/** What a stopped call gives back to go on with (see {@linkcode PatternsQuery.resume}). */
export interface PatternsResume {
  /** The backend's cursor ("" when the next page begins a phase). */
  cursor: string;
  /**
   * The state to keep, as lines of text (several MB for a big mining: made only when asked, so a tool
   * that cannot keep it does not pay for it).
   */
  state: () => string[];
}

/** What a `log_patterns` query read, for the tool to render. */
export interface PatternsAnswer {
  /** The log's name, or the glob. */
  file: string;
  /** Every template, in the answer's order: most frequent first, or most changed when a change is given. */
  templates: PatternTemplate[];
  /** Lines of the window mined (in the window, of the level), over every page. */
  total_lines: number;
  /** Templates with lines in the window. */
  distinct_templates: number;
  /** Window lines in no template (LOGPEEK_MAX_TEMPLATES reached). */
  other_lines: number;
  /** Every line asked for (and of the baseline) was mined. */
  complete: boolean;
  /** Why not complete (null when complete, or when only the notes say why). */
  stop_reason: PatternsStop | null;
  /** A budget or a cancel stopped this page (whether or not it can go on). */
  stopped: boolean;
  /** False when this page mined nothing within its budget (then there is no {@linkcode resume}). */
  progress: boolean;
  /** Bytes read by this call (this page). */
  scanned_bytes: number;
  /** One log's format (`read/log_format.ts`, null: the general rules); absent over a glob. */
  log_format?: string | null;
  /** True when `file` was a glob. */
  glob: boolean;
  /** A call over a glob: each log the window's page read, then those it did not reach. */
  logs?: PatternsLog[];
  /** A call over a glob: entries it matches that are not read, each `name: why` (the first 20). */
  not_read?: string[];
  /** The window's time fields (`read/time_span.ts` `timeFields`); empty without a window. */
  time: Record<string, unknown>;
  /** With a baseline: what of it was read. */
  baseline?: PatternsBaseline;
  /** With a baseline: whether the change is given, and how much of each side was read. */
  comparison?: { given: boolean; window: SideRead; baseline: SideRead };
  /** With a baseline: the part of the window its logs cover, in hours to 3 decimals (null: not known). */
  window_hours?: number | null;
  /** With a change given: how rates compare, per hour of each side or as shares of each side's lines. */
  rate_basis?: "per_hour" | "share_of_lines";
  /** With rates per hour: how each side's length was measured. */
  covers?: { window: Cover; baseline: Cover };
  /** Why the answer cannot be complete, found on this page or the ones before, in the order found. */
  notes: PatternsNote[];
  /** How to go on, when a budget stopped the page and it mined something; null otherwise. */
  resume: PatternsResume | null;
}
