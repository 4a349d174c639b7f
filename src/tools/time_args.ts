/**
 * The time window arguments of `log_search`, `log_levels` and `log_tail` (issue #12): `since` (inclusive)
 * and `until` (exclusive), each an RFC 3339 / ISO 8601 instant or a duration back from now; and the time
 * fields every windowed answer carries.
 *
 * @module
 */

import { z } from "zod";
import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import type { Cursor } from "../read/cursor.ts";
import { formatInstant, offsetAt, parseInstant } from "../read/instant.ts";
import type { ReadableLog } from "../read/readable_log.ts";
import type { TimeReport, WindowOptions } from "../read/search.ts";
import { lineClock, SAMPLE_BYTES } from "../read/timestamp.ts";
import { logHead } from "../read/scan_source.ts";
import type { TimeSpan } from "../read/time_window.ts";
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

/** The first and last instants a window may name: years 0000..9999 (RFC 3339 §5.6 `date-fullyear`). */
const EARLIEST = -62167219200000; // 0000-01-01T00:00:00Z
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The arguments that may carry a window. */
export interface WindowArgs {
  since?: string;
  until?: string;
}

/**
 * The window of a call: its instants from the cursor (a resumed page keeps what the first one resolved,
 * so `-15m` does not move), else from the arguments, read at `nowMs`.
 *
 * @param args `since` and `until`.
 * @param zone The zone of instants without one (`LOGPEEK_TZ`).
 * @param cursor The cursor, when resumed.
 * @param nowMs Now, epoch ms.
 * @returns The span, or undefined without `since` and `until`.
 * @throws {ToolError} `invalid_time` for an argument that is no instant or duration, or an empty window.
 */
export function resolveSpan(
  args: WindowArgs,
  zone: string,
  cursor: Pick<Cursor, "t0" | "t1"> | undefined,
  nowMs = Date.now(),
): TimeSpan | undefined {
  if (args.since === undefined && args.until === undefined) return undefined;
  const read = (text: string | undefined, kept: number | null | undefined, open: number, name: string) => {
    if (text === undefined) return open;
    if (cursor && kept !== null && kept !== undefined) return kept;
    let t: number;
    try {
      t = parseInstant(text, nowMs, zone);
    } catch (e) {
      throw new ToolError("invalid_time", `${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
    // Years 0000..9999, what RFC 3339 writes (a trial's -99999999d gave the year -271764).
    if (!(t >= EARLIEST && t <= LATEST)) {
      throw new ToolError(
        "invalid_time",
        `${name}: '${printable(text)}' is outside the years 0000..9999 RFC 3339 can write`,
      );
    }
    return t;
  };
  const span = {
    since: read(args.since, cursor?.t0, -Infinity, "since"),
    until: read(args.until, cursor?.t1, Infinity, "until"),
  };
  if (!(span.since < span.until)) {
    throw new ToolError(
      "invalid_time",
      `the window is empty: since (${formatInstant(span.since, zone)}) is not before until ` +
        `(${formatInstant(span.until, zone)})`,
    );
  }
  return span;
}

/**
 * The window options for reading `log`: its clock (the year of year-less timestamps from its modified
 * time), and what a cursor carries.
 */
export function windowFor(
  span: TimeSpan,
  log: ReadableLog,
  zone: string,
  cursor: Cursor | undefined,
): WindowOptions {
  const clock = lineClock({ zone, modifiedMs: log.modifiedMs ?? null, sample: logHead(log, SAMPLE_BYTES) });
  const year = new Date(log.modifiedMs ?? Date.now()).getUTCFullYear();
  const dst = offsetAt(Date.UTC(year, 0, 1), zone) !== offsetAt(Date.UTC(year, 6, 1), zone);
  return {
    span,
    timeOf: (buf, s, e) => clock.timeOf(buf, s, e),
    // Zone-less times in a zone with DST step back an hour at every fall-back (a trial: a seek entered
    // the repeated hour's second pass): such a log is read whole.
    noSeekAfterProbes: () => dst && clock.zoneUsed,
    carry: cursor ? { last: cursor.lt ?? NaN, max: cursor.mx ?? -Infinity } : undefined,
    lineKnown: cursor ? cursor.nk : true,
    brokenAfterSeek: cursor?.ob ?? false,
  };
}

/** The time fields of an answer over one or more pages' reports. */
export function timeFields(
  span: TimeSpan | undefined,
  zone: string,
  reports: (TimeReport | undefined)[],
): Record<string, unknown> {
  if (!span) return {};
  const seen = reports.filter((r): r is TimeReport => r !== undefined);
  const earliest = Math.min(...seen.map((r) => r.earliest).filter((t) => t === t));
  const latest = Math.max(...seen.map((r) => r.latest).filter((t) => t === t));
  const order = seen.some((r) => r.order === "out_of_order")
    ? "out_of_order"
    : seen.some((r) => r.order === "seek")
    ? "seek"
    : "in_order";
  return {
    window: {
      since: Number.isFinite(span.since) ? formatInstant(span.since, zone) : null,
      until: Number.isFinite(span.until) ? formatInstant(span.until, zone) : null,
      zone,
    },
    first_time: Number.isFinite(earliest) ? formatInstant(earliest, zone) : null,
    last_time: Number.isFinite(latest) ? formatInstant(latest, zone) : null,
    untimed_lines: seen.reduce((n, r) => n + r.untimed, 0),
    time_order: order,
  };
}

/**
 * Refuses an answer that read lines but no timestamp at all: no line could be placed in the window, and
 * an empty answer would read as "nothing happened then".
 *
 * @param span The window (nothing is refused without one).
 * @param reports The pages' time reports.
 * @param lines Lines read.
 * @param what The log or glob, for the message.
 * @throws {ToolError} `no_timestamps`.
 */
export function requireTimestamps(
  span: TimeSpan | undefined,
  reports: (TimeReport | undefined)[],
  lines: number,
  what: string,
): void {
  if (!span || lines === 0) return;
  // A timestamp read on this page, or on a page before it (a cursor's last time): lines had times.
  if (reports.some((r) => r && (r.earliest === r.earliest || r.carry.last === r.carry.last))) return;
  throw new ToolError(
    "no_timestamps",
    `no timestamp could be read in the ${lines} line(s) of ${
      printable(what)
    } read, so no line can be placed ` +
      "in the window (since/until). Layouts read: RFC 3339/ISO 8601 (also basic and ordinal dates), RFC 3164 " +
      "and 5424 syslog, ctime and date(1), java.util.logging's Mmm d, yyyy h:mm:ss AM, Apache/nginx, TAI64N, a JSON or logfmt time field, W3C/Zeek " +
      "#Fields columns, klog, and yyMMdd HHmmss / yy/MM/dd HH:mm:ss; ANSI colour codes skipped; a time after " +
      "a prefix, or epoch digits, where the log's first lines show them at one place. A line with only a " +
      "time of day (no date, as strace writes) has no timestamp: its day is not guessed. Call again " +
      "without since/until (log_tail then shows the last lines, log_search finds a text in all of them)",
  );
}

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

/**
 * True when a page found the order broken after its first page entered the log by a seek
 * (`TimeReport.brokenAfterSeek`): the answer cannot be complete.
 */
export function seekBroken(reports: (TimeReport | undefined)[]): boolean {
  return reports.some((r) => r?.brokenAfterSeek === true);
}

/** What an answer says when {@linkcode seekBroken}. */
export const SEEK_BROKEN =
  "\nTimestamps went out of order after the first page entered the log by a binary search: lines before the " +
  "point it entered at were never read and may be in the window, so this answer is NOT complete: call again " +
  "without cursor (the call then finds the disorder and reads the whole log).";

/**
 * True when a page read lines but no timestamp, and no page before it did either: none of its lines can
 * be placed in the window.
 */
export function timeless(report: TimeReport | undefined, lines: number): boolean {
  return report !== undefined && lines > 0 && report.earliest !== report.earliest &&
    report.carry.last !== report.carry.last;
}

/**
 * The logs of a call over a glob read from their start with lines but no timestamp ({@linkcode timeless}):
 * none of their lines could be placed in the window. A log resumed from a cursor is not judged (its
 * earlier pages read timestamps, or the call would have said so then).
 *
 * @param span The window (none: no log is timeless).
 * @param glob True for a call over a glob (one log: `requireTimestamps` throws instead).
 * @param runs The logs read, in order, with their time reports and lines read.
 * @param resumed True when the call's first log was resumed from a cursor.
 */
export function timelessLogs(
  span: TimeSpan | undefined,
  glob: boolean,
  runs: { file: string; time: TimeReport | undefined; lines: number }[],
  resumed: boolean,
): string[] {
  if (!span || !glob) return [];
  return runs.filter((r, i) => !(i === 0 && resumed) && timeless(r.time, r.lines)).map((r) => r.file);
}

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
  const order = fields.time_order === "seek"
    ? "entered by a binary search over timestamps"
    : fields.time_order === "out_of_order"
    ? "timestamps out of order: every line read and tested"
    : "read in time order";
  return `; window ${w.since ?? "-∞"} .. ${w.until ?? "+∞"} (zone-less times read in ${w.zone}); ` +
    `times read (in the window or not) ${fields.first_time ?? "none"} .. ${fields.last_time ?? "none"}; ` +
    `${fields.untimed_lines} line(s) without their own timestamp; ${order}`;
}
