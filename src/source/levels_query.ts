/**
 * `log_levels`' query and answer at the backend seam (`backend.ts`): what a tool asks, and what every
 * backend answers, in one shape.
 *
 * @module
 */

import type { Level } from "../read/level.ts";
import type { WindowArgs } from "../read/time_span.ts";

/** A count per level, every level present (0 included). */
export type LevelCounts = Record<Level, number>;

/** The lines (rows) per level of one log, or of every log a glob matches, under the levels budget. */
export interface LevelsQuery {
  /** The log's name, as `log_files` lists it, or a glob over those names. */
  file: string;
  /** `next_cursor` of an earlier page of the same call (opaque: the backend reads its own cursors). */
  cursor?: string;
  /** `since` (inclusive) and `until` (exclusive), as given (`read/time_span.ts` `resolveSpan` reads them). */
  window: WindowArgs;
}

/** Why a call's counts are not complete (`LevelsAnswer.stop_reason`). */
export type LevelsStop = "time_budget" | "file_changed" | "cancelled" | "corrupt_gzip";

/** One log of a call over a glob, in the order read. */
export interface LevelsLog {
  /** The log's name. */
  file: string;
  /** Every line (row) of it in scope was counted. */
  complete: boolean;
  /**
   * Why not: a stop of the read; `not_reached`, the call stopped before this log (the cursor reads it);
   * `no_timestamps`, read, but none of its lines has a timestamp to place it in the window.
   */
  stop_reason: LevelsStop | "not_reached" | "no_timestamps" | null;
  /** Lines (rows) of it read (for a file, from its start: the last line's number). */
  scanned_lines: number;
  /** The format it was read as (`read/log_format.ts`), null for the general rules; absent where stored. */
  log_format?: string | null;
  /** Its lines per level; absent for a log not reached. */
  counts?: LevelCounts;
  /** Its entries per level (a continuation line not counted); absent where every row is an entry. */
  entries?: LevelCounts;
}

/** What a `log_levels` query counted, for the tool to render. */
export interface LevelsAnswer {
  /** The log's name (one log), or the glob as given. */
  file: string;
  /** Lines (rows) per level; a continuation line under its entry's level. */
  counts: LevelCounts;
  /** Entries per level: `counts` less the continuation lines (a row is one entry). */
  entries: LevelCounts;
  /** Lines that continue the entry before them (in `counts`, not in `entries`). */
  continuation_lines: number;
  /** Lines counted UNKNOWN whose level field holds a number on no scale the line names (`{"level":1}`). */
  unscaled_levels: number;
  /**
   * Where the log's lines carry an HTTP status (`read/http_status.ts`): every counted line by the level
   * its status gives (`STATUS_RULE`, UNKNOWN: none), apart from `counts`; `lines`, those with a status.
   */
  derived?: { counts: LevelCounts; lines: number };
  /** Lines (rows) counted by this answer (a page, when resumed). */
  total_lines: number;
  /** The number of the last line read, from the log's start; null when not known (a seek, a glob, a table). */
  last_line: number | null;
  /** The log's format (one file), null for the general rules; absent over a glob and where levels are stored. */
  log_format?: string | null;
  /** Every line (row) in scope was counted: every log read whole, every line placed in the window. */
  complete: boolean;
  /** Why a read stopped; null when complete, or when only logs not read or not placed make it incomplete. */
  stop_reason: LevelsStop | null;
  /** Where the next page goes on (pass as `cursor`), or null. */
  next_cursor: string | null;
  /** False when this page counted nothing within its budget (then there is no cursor). */
  progress: boolean;
  /** Bytes read by this call (a seek's probes included; for a table, what the server read). */
  scanned_bytes: number;
  /** Over a glob: each log, in the order read (`logs_order`); absent for one log. */
  logs?: LevelsLog[];
  /** How `logs` is ordered, as its text names it: `newest first` (files), `by name` (a table's). */
  logs_order: string;
  /** Over a glob: the matching entries no page reads, each `name: why` (the first 20); absent for one log. */
  not_read?: string[];
  /** How many such entries, all of them. */
  not_read_count: number;
  /** Over a glob with a window: the logs read without any timestamp (none of their lines placed). */
  untimed_logs: string[];
  /**
   * Timestamps went out of order after the first page entered a log by a binary search: lines before
   * its entry point were never read (`read/time_span.ts` `seekBroken`).
   */
  seek_broken: boolean;
  /**
   * The time fields of a windowed answer (`read/time_span.ts` `timeFields`: `window`, and where the backend
   * reads timestamps `first_time`, `last_time`, `untimed_lines`, `time_order`); empty without a window.
   */
  time: Record<string, unknown>;
  /** What one counted item is: a `line` of a file, a `row` of a table. */
  unit: "line" | "row";
  /**
   * How the levels were told and what was not known, in the backend's words, when not by logpeek's
   * rules over lines (`level texts as stored, folded: …; a table has no line numbers (-)`); "" for files.
   */
  scope: string;
  /**
   * Why the counts are (not) complete, in the backend's words where they say more than `stop_reason`
   * (a table's: a query cut by ClickHouse, the rows and bytes the server read); absent: the tool says it
   * from `complete`, `stop_reason` and `total_lines`.
   */
  stop_words?: string;
}
