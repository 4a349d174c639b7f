/**
 * `log_levels` over local files: every line of one log, or of every log a glob matches (newest first,
 * `many_logs.ts`), counted by level in one pass (`read/count_levels.ts`), in a time window when one is
 * given, under `LOGPEEK_LEVELS_MS`; a cursor goes on exactly where a page stopped.
 *
 * @module
 */

import { countLevels, type LevelsResult } from "../../read/count_levels.ts";
import { queryHash, readCursor } from "../../read/cursor.ts";
import { LEVELS } from "../../read/level.ts";
import {
  requireTimestamps,
  resolveSpan,
  seekBroken,
  timeFields,
  timelessLogs,
  windowFor,
} from "../../read/time_span.ts";
import type { TimeSpan } from "../../read/time_window.ts";
import type { Call } from "../backend.ts";
import type { LevelCounts, LevelsAnswer, LevelsLog, LevelsQuery, LevelsStop } from "../levels_query.ts";
import { isGlob } from "../glob.ts";
import type { LocalEnv } from "./local_env.ts";
import { type LogRun, type OverLogs, overLogs } from "./many_logs.ts";

/** The plan of a call: the query's hash (what its cursors are bound to), the window, the budget. */
interface LevelsPlan {
  query: string;
  span: TimeSpan | undefined;
  deadline: number;
}

/**
 * Counts the lines of one log, or of every log a glob matches, by level.
 *
 * @param env The local source, limits, the cursor key.
 * @param q The log or glob, the cursor, the window.
 * @param call The client's cancellation and progress.
 * @returns The counts, summed over the logs read, each log's own over a glob, and where the next page
 *   goes on.
 * @throws {ToolError} what opening a log throws (`not_found` naming the closest, …); `invalid_cursor`,
 *   `file_changed` (the logs a glob matches changed), `invalid_time`, `no_timestamps` (one log's lines
 *   have none, with a window).
 */
export async function localLevels(env: LocalEnv, q: LevelsQuery, call?: Call): Promise<LevelsAnswer> {
  const plan = planLevels(env, q);
  const zone = env.limits.tz;
  const many = await overLogs<LevelsResult>(env, {
    tool: "log_levels",
    file: q.file,
    query: plan.query,
    cursor: q.cursor,
    bytes: Infinity,
    deadline: plan.deadline,
    span: plan.span,
  }, (log, resume) =>
    countLevels(log, {
      ...env.limits,
      deadline: plan.deadline,
      resume,
      window: plan.span ? windowFor(plan.span, log, zone, resume) : undefined,
      signal: call?.signal,
      onProgress: call?.progress,
    }));
  return collectLevels(env, q, plan.span, many);
}

/**
 * The plan of a call: its hash (a cursor of other arguments is refused), and the window, resolved at the
 * first page (a cursor keeps its instants, so `-15m` does not move).
 *
 * @throws {ToolError} `invalid_cursor`, `invalid_time`.
 */
function planLevels(env: LocalEnv, q: LevelsQuery): LevelsPlan {
  const deadline = performance.now() + env.limits.levelsMs;
  const { since, until } = q.window;
  const glob = isGlob(q.file);
  const query = since !== undefined || until !== undefined || glob
    ? queryHash({ since, until, file: glob ? q.file : undefined })
    : "";
  const first = q.cursor !== undefined
    ? readCursor(q.cursor, { k: "log_levels", q: query }, env.cursorKey)
    : undefined;
  return { query, span: resolveSpan(q.window, env.limits.tz, first), deadline };
}

/** The sum over the runs of one number of each page. */
function sum(runs: LogRun<LevelsResult>[], of: (p: LevelsResult) => number): number {
  return runs.reduce((n, r) => n + of(r.page), 0);
}

/** Counts per level summed over pages. */
function sumLevels(pages: LevelCounts[]): LevelCounts {
  return Object.fromEntries(LEVELS.map((l) => [l, pages.reduce((n, c) => n + c[l], 0)])) as LevelCounts;
}

/**
 * The answer from the pages read: the counts summed, what is not complete (a stop, a seek broken, logs
 * read without a timestamp), each log's own over a glob.
 *
 * @throws {ToolError} `no_timestamps` for a first page that read lines but no timestamp (with a window).
 */
function collectLevels(
  env: LocalEnv,
  q: LevelsQuery,
  span: TimeSpan | undefined,
  many: OverLogs<LevelsResult>,
): LevelsAnswer {
  const runs = many.runs;
  const times = runs.map((r) => r.page.time);
  const read = sum(runs, (p) => p.time ? p.last_line : p.total_lines);
  if (q.cursor === undefined) requireTimestamps(span, times, read, q.file);
  const untimed = timelessLogs(
    span,
    many.glob,
    runs.map((x) => ({ file: x.file, time: x.page.time, lines: x.page.time ? x.page.last_line : 0 })),
    q.cursor !== undefined,
  );
  const last = runs[runs.length - 1].page;
  const withStatus = runs.map((x) => x.page.derived).filter((d) => d !== undefined);
  const broken = seekBroken(times);
  return {
    file: many.glob ? q.file : runs[0].file,
    counts: sumLevels(runs.map((r) => r.page.counts)),
    entries: sumLevels(runs.map((r) => r.page.entries)),
    continuation_lines: sum(runs, (p) => p.continuation_lines),
    unscaled_levels: sum(runs, (p) => p.unscaled_levels),
    ...(withStatus.length
      ? {
        derived: {
          counts: sumLevels(withStatus.map((d) => d.counts)),
          lines: withStatus.reduce((n, d) => n + d.lines, 0),
        },
      }
      : {}),
    total_lines: sum(runs, (p) => p.total_lines),
    last_line: !many.glob && (last.time?.lineKnown ?? true) ? last.last_line : null,
    ...(many.glob ? {} : { log_format: runs[0].page.log_format }),
    complete: many.complete && !broken && untimed.length === 0,
    stop_reason: many.complete ? null : last.stop_reason as LevelsStop | null,
    next_cursor: many.next_cursor,
    progress: many.progress,
    scanned_bytes: sum(runs, (p) => p.scanned_bytes),
    ...(many.glob ? { logs: logsOf(many, untimed), not_read: many.notRead } : {}),
    logs_order: "newest first",
    not_read_count: many.notReadCount,
    untimed_logs: untimed,
    seek_broken: broken,
    time: timeFields(span, env.limits.tz, times),
    unit: "line",
    scope: "",
  };
}

/** Each log of a call over a glob: those read, in the order read, then those the call did not reach. */
function logsOf(many: OverLogs<LevelsResult>, untimed: string[]): LevelsLog[] {
  return [
    ...many.runs.map((x): LevelsLog => ({
      file: x.file,
      complete: x.page.complete && !untimed.includes(x.file),
      stop_reason: untimed.includes(x.file) ? "no_timestamps" : x.page.stop_reason as LevelsStop | null,
      scanned_lines: x.page.last_line,
      log_format: x.page.log_format,
      counts: x.page.counts,
      entries: x.page.entries,
    })),
    ...many.pending.map((file): LevelsLog => ({
      file,
      complete: false,
      stop_reason: "not_reached",
      scanned_lines: 0,
    })),
  ];
}
