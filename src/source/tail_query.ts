/**
 * `log_tail`'s query and answer at the backend seam (`backend.ts`): what a tool asks, and what every
 * backend answers, in one shape.
 *
 * @module
 */

import type { Level } from "../read/level.ts";
import type { LogLine } from "../read/log_line.ts";
import type { WindowArgs } from "../read/time_span.ts";

/** The last lines of one log. */
export interface TailQuery {
  /** The log's name, as `log_files` lists it (a glob is refused: `invalid_argument`). */
  file: string;
  /** How many lines at most (1..200). */
  lines: number;
  /** Only lines (entries) of this level. */
  level?: Level;
  /** `since` (inclusive) and `until` (exclusive), as given (`read/time_span.ts` `resolveSpan` reads them). */
  window: WindowArgs;
}

/** What a tail read, for the tool to render. */
export interface TailAnswer {
  /** The log's name. */
  file: string;
  /** The lines, oldest first. */
  lines: LogLine[];
  /** The read covered the whole log: only then are line numbers known. */
  whole_file: boolean;
  /** The read began inside a line and that fragment was dropped. */
  dropped_partial: boolean;
  /** Invalid UTF-8 bytes replaced by U+FFFD in the lines. */
  replaced_bytes: number;
  /** Secrets masked in the lines. */
  redactions: number;
  /** Bytes read (probes of a time seek included; for a table, the bytes the server read). */
  scanned_bytes: number;
  /** With a window: lines at the read's start with no timestamp whose time is not known (not returned). */
  unplaced_lines?: number;
  /** The log's format (`read/log_format.ts`), null for the general rules; absent where levels are stored. */
  log_format?: string | null;
  /** Lines whose level could not be told (UNKNOWN); absent when none. */
  unresolved_levels?: number;
  /**
   * The time fields of a windowed answer (`read/time_span.ts` `timeFields`: `window`, and where the backend
   * knows them `first_time`, `last_time`, `untimed_lines`, `time_order`); empty without a window.
   */
  time: Record<string, unknown>;
  /** What one item is: a `line` of a file, a `row` of a table. */
  unit: "line" | "row";
  /**
   * What was read and what was not, in the backend's words (the header's middle, after the count): e.g.
   * `read only the last 65536 bytes, so line numbers are unknown (-)`, or `of TABLE, by time …`.
   */
  scope: string;
}
