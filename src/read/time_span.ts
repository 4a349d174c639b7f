/**
 * The time window of a call (issue #12), resolved and applied: `since` (inclusive) and `until`
 * (exclusive) read as instants (a cursor keeps what its first page resolved), the window options for
 * reading one log, the time fields of an answer, and the checks that a window could be applied (lines
 * read without any timestamp cannot be placed in it). The arguments' schemas and the words of the
 * answers are `tools/time_args.ts`'.
 *
 * @module
 */

import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import type { Cursor } from "./cursor.ts";
import { formatInstant, offsetAt, parseInstant } from "./instant.ts";
import type { ReadableLog } from "./readable_log.ts";
import type { TimeReport, WindowOptions } from "./search.ts";
import { lineClock, SAMPLE_BYTES } from "./timestamp.ts";
import { logHead } from "./scan_source.ts";
import type { TimeSpan } from "./time_window.ts";

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
 * True when a page found the order broken after its first page entered the log by a seek
 * (`TimeReport.brokenAfterSeek`): the answer cannot be complete.
 */
export function seekBroken(reports: (TimeReport | undefined)[]): boolean {
  return reports.some((r) => r?.brokenAfterSeek === true);
}

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
