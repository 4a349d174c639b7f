/**
 * The time window arguments of `log_search`, `log_levels` and `log_tail` (issue #12): `since` (inclusive)
 * and `until` (exclusive), each an RFC 3339 / ISO 8601 instant or a duration back from now; and the time
 * fields every windowed answer carries.
 *
 * @module
 */

import { z } from "zod";
import { printable } from "../guard/printable.ts";
import { TIME_SLACK_MS } from "../read/time_window.ts";

/**
 * What `since` and `until` take, said once in `docs/tool_schemas.md` (the listed descriptions are short:
 * issue #24, `tools/list` is read at the start of every session).
 */
const INSTANT_DETAILS =
  "an RFC 3339 / ISO 8601 instant (2024-05-01T10:02:00Z; 2024-05-01 10:02; without a zone it " +
  "is read in LOGPEEK_TZ), or a duration back from now (-30s, -15m, -2h, -3d). Each line's time is the " +
  "timestamp in its header; a line without one (a stack-trace line) has the time of the timestamped line " +
  "before it";

const instant = (short: string, side: string) =>
  (short ? z.string().max(64).optional().describe(short) : z.string().max(64).optional())
    .meta({ details: `${side}: ${INSTANT_DETAILS}` });

/** The zod fields `since` and `until`. */
export const windowArgs = {
  since: instant("", "keep lines at or after this time (inclusive)"),
  until: instant("", "keep lines before this time (exclusive)"),
};

/** The zod fields of a windowed answer (all null or absent without a window). */
export const timeFieldsSchema = {
  window: z.object({
    since: z.string().nullable(),
    until: z.string().nullable(),
    zone: z.string().describe("the zone timestamps without one were read in (LOGPEEK_TZ)"),
  }).nullable().optional().describe("the window asked for, as RFC 3339 instants; null without since/until"),
  first_time: z.string().nullable().optional().describe(
    "the earliest timestamp read by this answer (RFC 3339, with the zone's offset)",
  ),
  last_time: z.string().nullable().optional().describe("the latest timestamp read by this answer"),
  untimed_lines: z.number().int().optional().describe(
    "lines read that had no timestamp of their own (they take the time of the timestamped line before)",
  ),
  time_order: z.enum(["seek", "in_order", "out_of_order"]).optional().describe(
    "seek: the log was entered by a binary search over timestamps (it is in time order within " +
      `${TIME_SLACK_MS / 1000} s as far as read); in_order: read from its start (or the cursor), in order; ` +
      "out_of_order: timestamps out of order, so every line was read and tested",
  ),
};

/**
 * A header with the window's words put before its final period (`header` unchanged without a window).
 *
 * @param header The answer's first line, ending with a period.
 * @param fields The answer's time fields ({@linkcode timeFields}).
 */
export function withWindow(header: string, fields: Record<string, unknown>): string {
  const words = renderWindow(fields);
  if (!words) return header;
  return (header.endsWith(".") ? header.slice(0, -1) : header) + words + ".";
}

/** What an answer says when {@linkcode seekBroken}. */
export const SEEK_BROKEN =
  "\nTimestamps went out of order after the first page entered the log by a binary search: lines before the " +
  "point it entered at were never read and may be in the window, so this answer is NOT complete: call again " +
  "without cursor (the call then finds the disorder and reads the whole log).";

/** What a glob's answer says of logs read without a timestamp ({@linkcode timeless}). */
export function timelessNote(files: string[]): string {
  return files.length
    ? `\nNo timestamp could be read in ${
      files.map(printable).join(", ")
    }: none of their lines can be placed in ` +
      "the window, so this answer is NOT complete for them (search them without a window)."
    : "";
}

/** The header's words for a windowed answer: the window, what was seen, how the log was entered. */
export function renderWindow(fields: Record<string, unknown>): string {
  const w = fields.window as { since: string | null; until: string | null; zone: string } | undefined;
  if (!w) return "";
  // A backend that filters by time itself (a table) reads no timestamps: only the window is said.
  if (fields.untimed_lines === undefined) {
    return `; window ${w.since ?? "-∞"} .. ${w.until ?? "+∞"} (since inclusive, until exclusive; zone-less ` +
      `times read in ${w.zone})`;
  }
  const order = fields.time_order === "seek"
    ? "entered by a binary search over timestamps"
    : fields.time_order === "out_of_order"
    ? "timestamps out of order: every line read and tested"
    : "read in time order";
  return `; window ${w.since ?? "-∞"} .. ${w.until ?? "+∞"} (zone-less times read in ${w.zone}); ` +
    `times read (in the window or not) ${fields.first_time ?? "none"} .. ${fields.last_time ?? "none"}; ` +
    `${fields.untimed_lines} line(s) without their own timestamp; ${order}`;
}
