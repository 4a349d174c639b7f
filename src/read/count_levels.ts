/**
 * Counting every line of a log by level, in one pass, within a time budget.
 *
 * @module
 */

import { CONTINUED, HEADER_BYTES, LEVELS, type LevelTally, STRUCTURED_BYTES } from "./level.ts";
import { formatOf, type LogFormat, tallyFor } from "./log_format.ts";
import { type StatusLayout, statusLayoutOf, statusLevel, StatusReader, StatusTally } from "./http_status.ts";
import type { ReadableLog, ResumePoint } from "./readable_log.ts";
import { sourceFor } from "./scan_source.ts";
import { progressed } from "./page_end.ts";
import { type LineSink, scan, type StopReason } from "./scanner.ts";
import { LineTimes, type TimeReport, windowedRead, type WindowOptions } from "./time_window.ts";

/** Options of {@linkcode countLevels}. */
export interface LevelsOptions {
  /** Time budget in ms. */
  levelsMs: number;
  /** Bytes per read. */
  pieceSize: number;
  /** Where a resumed count goes on (from a cursor). */
  resume?: ResumePoint;
  /** A time window (issue #12): only lines whose time is in it are counted (as `log_search`'s). */
  window?: WindowOptions;
  /** When the page must end (`performance.now()` ms); default `levelsMs` from the start. */
  deadline?: number;
  /** Aborted when the client cancels. */
  signal?: AbortSignal;
  /** Receives the file offset reached, the file's size and a short message, at most every 250 ms. */
  onProgress?: (offset: number, total: number, message: string) => void;
}

/** What {@linkcode countLevels} found: the `log_levels` result without its `file`. */
export interface LevelsResult extends PageEnd {
  /**
   * Lines per level, every level present, 0 included: an entry's lines (its first, and the continuation
   * lines of its message: a stack trace's) under its level (`level.ts` `LevelTally`).
   */
  counts: Record<(typeof LEVELS)[number], number>;
  /** Entries per level (a log message's first line; continuation lines not counted). */
  entries: Record<(typeof LEVELS)[number], number>;
  /** Continuation lines counted (in `counts`, not in `entries`). */
  continuation_lines: number;
  /**
   * Lines counted under UNKNOWN whose level field holds a number on no scale the line names (`level.ts`
   * `UNSCALED`: `{"level":1}`), so their level was not read.
   */
  unscaled_levels: number;
  /** Lines counted in this page (the sum of `counts`). */
  total_lines: number;
  /**
   * The format the log was read as (`log_format.ts`, detected from its first lines), or null: the general
   * rules of `level.ts`.
   */
  log_format: string | null;
  /**
   * Present when the log's lines carry an HTTP status (`http_status.ts`, learnt from its first lines):
   * every counted line by the level its status gives (`STATUS_RULE`; UNKNOWN for a line with none),
   * apart from `counts`, which hold the levels written in the lines; `lines`, those with a status.
   */
  derived?: { counts: Record<(typeof LEVELS)[number], number>; lines: number };
  /** The number of the last line counted, from the file's start (pages continue from it). */
  last_line: number;
}

/**
 * How a page of a read over a whole log ended (`log_levels`' and `log_patterns`' pages; `tools/many_logs.ts`
 * goes on across logs from it).
 */
export interface PageEnd {
  /** True when the whole file was read. */
  complete: boolean;
  /** Why not complete; null when complete. */
  stop_reason: StopReason | null;
  /** Where the next page goes on; null when complete (or stopped for another reason). */
  next: ResumePoint | null;
  /** True when the page could not get anywhere within its budget (so no cursor is given). */
  stuck: boolean;
  /** Bytes read by this page (a seek's probes included). */
  scanned_bytes: number;
  /** With a window: how the log's times were read. */
  time?: TimeReport;
}

/**
 * Counts the lines of an open log by level.
 *
 * Memory: one piece, whatever the size of the file or of one line.
 *
 * @param log The open log.
 * @param opts The budget.
 * @returns The counts so far, and whether they cover the whole file.
 */
export async function countLevels(log: ReadableLog, opts: LevelsOptions): Promise<LevelsResult> {
  // Both learnt first, bounded reads of the log's head: the budget `levelsMs` is the scan's (a page of a
  // tiny budget still counts).
  const format = formatOf(log);
  const layout = statusLayoutOf(log);
  const deadline = opts.deadline ?? performance.now() + opts.levelsMs;
  const { disorder: _, ...page } = await windowedRead(
    log,
    opts.window,
    opts.resume,
    (from, known, order, probes) =>
      countPage(log, opts, { format, layout }, from, deadline, known, order, probes),
  );
  return page;
}

/**
 * One page of {@linkcode countLevels} from `from` (see `search_page.ts` `searchPage` for the window's rules);
 * `format`: the log's (`log_format.ts`), or null; `layout`: where its lines carry an HTTP status
 * (`http_status.ts`), or null.
 */
async function countPage(
  log: ReadableLog,
  opts: LevelsOptions,
  { format, layout }: { format: LogFormat | null; layout: StatusLayout | null },
  from: ResumePoint,
  deadline: number,
  lineKnown: boolean,
  order: TimeReport["order"] | null,
  probes: number,
): Promise<LevelsResult & { disorder: boolean }> {
  const tally = tallyFor(format);
  // Without a window the scanner counts each line's level and status itself (no sink call per line).
  const statusTally = layout && !opts.window ? new StatusTally(layout) : undefined;
  const statuses = layout && opts.window ? new StatusReader(layout) : null;
  /** Lines by the level their status gives (`statusLevel`; UNKNOWN's slot for none). */
  const derived = statusTally?.derived ?? new Float64Array(LEVELS.length);
  const headBytes = Math.max(STRUCTURED_BYTES, HEADER_BYTES);
  const { src, resume, damage, reached } = await sourceFor(log, from, headBytes, 0);
  const win = opts.window;
  const times = win ? new LineTimes(win.timeOf, win.span, opts.resume ? win.carry : undefined) : null;
  const seen: WindowSeen = {
    order,
    broke: false,
    // The order broke on a later page of a seek: lines before the seek may be in the window.
    brokeLate: opts.resume !== undefined && win?.brokenAfterSeek === true,
    inWindow: 0,
  };
  const r = await scan(src, countingSink(tally, statuses, derived, times, seen, opts.resume !== undefined), {
    levelCounts: times || statuses ? undefined : tally,
    statusCounts: statusTally,
    pieceSize: opts.pieceSize,
    deadline,
    headBytes,
    lineBase: from.line,
    resume,
    cancelled: opts.signal ? () => opts.signal!.aborted : undefined,
    onProgress: opts.onProgress
      ? (bytes, lines) => opts.onProgress!(reached(bytes), log.size, `${lines} lines counted`)
      : undefined,
  });
  const stop = seen.broke ? damage() : (r.stop ?? damage());
  const next: ResumePoint | null = stop === "time_budget"
    ? { off: from.off + r.bytesRead, ls: from.off + r.resumeAt, line: r.lines, pending: false, skip: 0 }
    : null;
  const time: TimeReport | undefined = times?.report(seen.order!, probes, lineKnown, seen.brokeLate);
  return {
    ...tallied(tally, layout ? derived : null),
    stuck: next !== null && progressed(from, next) === null,
    total_lines: times ? seen.inWindow : r.lines - from.line,
    log_format: format?.name ?? null,
    last_line: r.lines,
    complete: stop === null,
    stop_reason: stop,
    next,
    scanned_bytes: r.bytesRead,
    time,
    disorder: seen.broke,
  };
}

/**
 * What a page's sink learns of the window as it counts: the window's order so far (null: no window),
 * whether it broke on a first page entered by a seek (`broke`: the page is read again from the start) or
 * on a later one (`brokeLate`), and how many lines were in the window.
 */
interface WindowSeen {
  order: TimeReport["order"] | null;
  broke: boolean;
  brokeLate: boolean;
  inWindow: number;
}

/**
 * The sink of a page of {@linkcode countLevels}. Without a window or statuses the scanner counts each
 * line's level itself (`levelCounts`: no sink call per line) and this sink is never called; with a
 * window, it reads each line's time first (`seen` keeps what it learns); with statuses, it reads each
 * line's status too (into `derived`, by `statusLevel`, UNKNOWN's slot for none).
 *
 * @param resumed True on a page after the first (a broken order then reads on, and says so).
 */
function countingSink(
  tally: LevelTally,
  statuses: StatusReader | null,
  derived: Float64Array,
  times: LineTimes | null,
  seen: WindowSeen,
  resumed: boolean,
): LineSink {
  const derive = (buf: Uint8Array, s: number, e: number, counted: boolean) => {
    const code = statusLevel(statuses!.statusOf(buf, s, e));
    if (counted) derived[code < 0 ? LEVELS.length - 1 : code]++;
  };
  return {
    line: times
      ? (buf, s, e, _no, _cut, hint) => {
        const t = times.see(buf, s, e);
        if (times.disorder && seen.order !== "out_of_order") {
          if (seen.order === "seek" && !resumed) {
            seen.broke = true;
            return false;
          }
          if (seen.order === "seek") seen.brokeLate = true;
          seen.order = "out_of_order";
        }
        const inside = times.inside(t);
        tally.add(buf, s, e, hint, inside);
        if (statuses) derive(buf, s, e, inside);
        if (inside) seen.inWindow++;
        return true;
      }
      : statuses
      ? (buf, s, e, _no, _cut, hint) => {
        tally.add(buf, s, e, hint);
        derive(buf, s, e, true);
        return true;
      }
      : () => true,
  };
}

/**
 * A page's counts as `log_levels` gives them: lines and entries per level, continuation and unscaled
 * lines, and, when the log's lines carry a status, the lines per level their status gives.
 *
 * @param tally The page's tally (`level.ts` `LevelTally`).
 * @param derived Lines per level by status (UNKNOWN's slot: lines with none); null without statuses.
 */
function tallied(
  tally: LevelTally,
  derived: Float64Array | null,
): Pick<LevelsResult, "counts" | "entries" | "continuation_lines" | "unscaled_levels" | "derived"> {
  const c = tally.counts;
  const out = Object.fromEntries(
    LEVELS.map((l, i) => [l, c[i] + c[CONTINUED + i]]),
  ) as LevelsResult["counts"];
  const entries = Object.fromEntries(LEVELS.map((l, i) => [l, c[i]])) as LevelsResult["entries"];
  return {
    counts: out,
    entries,
    continuation_lines: c.subarray(CONTINUED).reduce((n, x) => n + x, 0),
    unscaled_levels: tally.unscaled,
    derived: derived
      ? {
        counts: Object.fromEntries(LEVELS.map((l, i) => [l, derived[i]])) as LevelsResult["counts"],
        lines: derived.reduce((n, x) => n + x, 0) - derived[LEVELS.length - 1],
      }
      : undefined,
  };
}
