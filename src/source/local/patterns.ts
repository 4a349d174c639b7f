/**
 * `log_patterns` over local files (issue #13, #22): a log's lines (or a glob's logs', in a time window, of a
 * level) mined into templates by one `TemplateMiner` (`template_mining.ts`), with exact counts, and with a
 * baseline (another window, or another log) mined after the window by the same miner, each template's
 * change against it. Under `LOGPEEK_PATTERNS_MS`: a stopped call gives back its state
 * (`PatternsAnswer.resume`), and the next page goes on from it, its answer covering every page.
 *
 * Steps: plan (a new call's windows, or the state a cursor goes on with), mine (the window's phase, then the
 * baseline's), collect (rows, change, the answer's fields).
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import { queryHash, readCursor } from "../../read/cursor.ts";
import { formatInstant } from "../../read/instant.ts";
import type { MinePage } from "../../read/mine_templates.ts";
import { resolveSpan, timeFields, timeless } from "../../read/time_span.ts";
import type { TimeSpan } from "../../read/time_window.ts";
import type { Call } from "../backend.ts";
import { isGlob } from "../glob.ts";
import type {
  PatternsAnswer,
  PatternsBaseline,
  PatternsLog,
  PatternsQuery,
  PatternsStop,
  SideRead,
} from "../patterns_query.ts";
import type { LocalEnv } from "./local_env.ts";
import type { OverLogs } from "./many_logs.ts";
import { compareRows, type Rates, rowsOf } from "./pattern_rows.ts";
import {
  type CallState,
  keptState,
  loadSpan,
  newState,
  recordPage,
  resumedState,
  sideRead,
} from "./pattern_state.ts";
import { levelIndex, minePhase, MiningRun } from "./template_mining.ts";

/** What a page mines, as planned before it begins. */
interface Plan {
  run: MiningRun;
  state: CallState;
  span?: TimeSpan;
  baseSpan?: TimeSpan;
  /** An index into `LEVELS`. */
  level?: number;
  /** The cursor of the phase the page goes on with; undefined when it begins one. */
  start?: string;
  /** The query's hash for a phase (`call` for the state's). */
  hash: (phase: string) => string;
  /** When the page ends, on `clock` (ms). */
  deadline: number;
  clock: () => number;
}

/** What the page's phases read, and where (and whether) it stopped. */
interface Mined {
  windowPage: OverLogs<MinePage> | null;
  basePage: OverLogs<MinePage> | null;
  /** Null when the page was not stopped; `cursor` "": the next page begins the baseline. */
  stop: { cursor: string | null; progress: boolean } | null;
}

/**
 * The templates of the logs' lines, against a baseline, for one page under `LOGPEEK_PATTERNS_MS`.
 *
 * @param env The local source, limits, masking, the cursor key, the clock.
 * @param q The logs, level, window, baseline, and the state a stopped call gave back.
 * @param call Cancellation and progress.
 * @returns The answer over every page so far.
 * @throws {ToolError} `invalid_cursor` (another query's state or cursor, or an altered one), `invalid_time`,
 *   `no_timestamps`, and what opening the logs throws.
 */
export async function localPatterns(env: LocalEnv, q: PatternsQuery, call?: Call): Promise<PatternsAnswer> {
  const p = plan(env, q);
  const m = await mine(env, q, p, call);
  return collect(env, q, p, m);
}

/**
 * The page's plan: the deadline, the call's mining and state (those the resumed state holds, or new ones
 * with the windows resolved now), and the phase's cursor, checked to be this query's.
 *
 * @throws {ToolError} `invalid_cursor`, `invalid_time`.
 */
function plan(env: LocalEnv, q: PatternsQuery): Plan {
  const clock = env.clock ?? (() => performance.now());
  const deadline = clock() + env.limits.patternsMs;
  const hash = (phase: string) =>
    queryHash({
      phase,
      file: q.file,
      since: q.window.since,
      until: q.window.until,
      level: q.level,
      bs: q.baseline?.window.since,
      bu: q.baseline?.window.until,
      bf: q.baseline?.file,
    });
  const { run, state } = begin(env, q, hash("call"));
  const start = state.cursor === "" ? undefined : state.cursor;
  if (start) readCursor(start, { k: "log_patterns", q: hash(run.phase) }, env.cursorKey);
  return {
    run,
    state,
    span: loadSpan(state.spans.window),
    baseSpan: loadSpan(state.spans.baseline),
    level: levelIndex(q.level),
    start,
    hash,
    deadline,
    clock,
  };
}

/**
 * The call's mining and state: those the resumed state holds, or new ones with the windows resolved now.
 *
 * @throws {ToolError} `invalid_cursor` (another query's, or altered), `invalid_time`.
 */
function begin(env: LocalEnv, q: PatternsQuery, hash: string): { run: MiningRun; state: CallState } {
  const zone = env.limits.tz;
  if (q.resume !== undefined) {
    const got = resumedState(q.resume.state, q.resume.cursor, env.limits.maxTemplates, env.stderr);
    if (got.state.q !== hash) {
      throw new ToolError(
        "invalid_cursor",
        "the cursor belongs to another query: use the same file, since, until, level and baseline",
      );
    }
    return got;
  }
  const span = resolveSpan(q.window, zone, undefined);
  const bw = q.baseline?.window;
  const baseSpan = bw && (bw.since !== undefined || bw.until !== undefined)
    ? resolveSpan(bw, zone, undefined)
    : undefined;
  return { run: new MiningRun(env.limits.maxTemplates), state: newState(hash, span, baseSpan) };
}

/** Mines the page: the window's phase (when not done), then the baseline's while the budget lasts. */
async function mine(env: LocalEnv, q: PatternsQuery, p: Plan, call?: Call): Promise<Mined> {
  const m: Mined = { windowPage: null, basePage: null, stop: null };
  const { run } = p;
  if (run.phase === "window") {
    const page = m.windowPage = await minePhase(env, run, run.window, {
      file: q.file,
      span: p.span,
      level: p.level,
      query: p.hash("window"),
      cursor: p.start,
      deadline: p.deadline,
      clock: p.clock,
    }, call);
    recordPage(p.state, page, p.span, p.start !== undefined, q.file, "window");
    if (stopped(page)) m.stop = { cursor: page.next_cursor, progress: page.progress };
    else if (q.baseline) run.endWindow();
  }
  if (m.stop === null && q.baseline && run.phase === "baseline") {
    await mineBaseline(env, q.baseline.file ?? q.file, p, m, call);
  }
  return m;
}

/** Mines the baseline's phase into `m`, unless the window's phase of this page used the whole budget. */
async function mineBaseline(env: LocalEnv, file: string, p: Plan, m: Mined, call?: Call): Promise<void> {
  const { run } = p;
  const resumed = m.windowPage === null ? p.start : undefined;
  if (m.windowPage !== null && p.clock() >= p.deadline) {
    m.stop = { cursor: "", progress: true }; // the baseline is not begun: the next page begins it
    return;
  }
  const page = m.basePage = await minePhase(env, run, run.baseline, {
    file,
    span: p.baseSpan,
    level: p.level,
    query: p.hash("baseline"),
    cursor: resumed,
    deadline: p.deadline,
    clock: p.clock,
  }, call);
  recordPage(p.state, page, p.baseSpan, resumed !== undefined, file, "baseline");
  if (!stopped(page)) return;
  // The window was mined on this page and the baseline got no time at all (a trial: "mined nothing, no
  // cursor" though the page had mined thousands of lines): the next page begins the baseline.
  m.stop = !page.progress && m.windowPage !== null && run.baseline.lines + run.variants.lines === 0
    ? { cursor: "", progress: true }
    : { cursor: page.next_cursor, progress: page.progress };
}

/** True when a phase's page stopped before its end (a budget, a cancel): the call ends there. */
function stopped(p: OverLogs<MinePage>): boolean {
  const s = lastStop(p);
  return p.next_cursor !== null || !p.progress || s === "time_budget" || s === "cancelled";
}

/** The stop reason of a phase's last log (null: it ended). */
function lastStop(p: OverLogs<MinePage> | null): PatternsStop | null {
  if (!p || p.runs.length === 0) return null;
  const s = p.runs[p.runs.length - 1].page.stop_reason;
  return s === "time_budget" || s === "file_changed" || s === "cancelled" || s === "corrupt_gzip" ? s : null;
}

/** The answer: the templates, merged by text and sorted, and what the page read of each side. */
function collect(env: LocalEnv, q: PatternsQuery, p: Plan, m: Mined): PatternsAnswer {
  const { run, state } = p;
  const zone = env.limits.tz;
  const stopped = m.stop !== null;
  const glob = (m.windowPage ?? m.basePage)?.glob ?? isGlob(q.file);
  // With a baseline: how much of each side was read; a change only when both were read in full.
  const read = q.baseline
    ? {
      window: sideRead(state.sides.window, run.phase === "baseline"),
      baseline: sideRead(state.sides.baseline, run.phase === "baseline" && m.basePage !== null && !stopped),
    }
    : null;
  const given = read !== null && read.window === "whole" && read.baseline === "whole";
  const rows = rowsOf(
    run,
    state,
    { zone, maxLine: env.limits.maxLine, glob },
    read !== null && read.baseline !== "not_read",
  );
  const rates = given ? compareRows(rows, run, state, { window: p.span, baseline: p.baseSpan }) : null;
  // Not compared: the most frequent first (the window's, then the baseline's so far).
  if (!given) {
    rows.sort((x, y) =>
      y.count - x.count || (y.baseline_count ?? 0) - (x.baseline_count ?? 0) || x.order - y.order
    );
  }
  const counted = run.window.clusters.reduce((n, c) => n + (c?.count ?? 0), 0);
  // Every reason a page was not whole either stopped the call (a budget, a cancel) or is in the notes.
  const complete = !stopped && state.notes.length === 0 && (!q.baseline || run.phase === "baseline");
  const stopReason = stopped
    ? (lastStop(m.windowPage) ?? lastStop(m.basePage) ?? "time_budget")
    : state.damage;
  const wp = m.windowPage;
  const format = wp && !wp.glob && wp.runs.length > 0 ? wp.runs[0].page.log_format : undefined;
  const templates = rows.map(({ order: _o, ...r }) => r);
  return {
    file: q.file,
    templates,
    total_lines: run.window.lines,
    distinct_templates: templates.filter((t) => t.count > 0).length,
    other_lines: run.window.lines - counted,
    complete,
    stop_reason: complete ? null : stopReason,
    stopped,
    progress: m.stop === null || m.stop.progress,
    scanned_bytes: [wp, m.basePage].reduce(
      (n, x) => n + (x ? x.runs.reduce((k, r) => k + r.page.scanned_bytes, 0) : 0),
      0,
    ),
    ...(format !== undefined ? { log_format: format } : {}),
    glob,
    logs: logsOf(wp, q.window.since !== undefined || q.window.until !== undefined),
    not_read: wp?.glob ? wp.notRead : undefined,
    time: timeFields(p.span, zone, wp ? wp.runs.map((r) => r.page.time) : []),
    ...(read ? sidesOf(q, p, read, given, rates, zone) : {}),
    notes: state.notes,
    resume: m.stop !== null && m.stop.cursor !== null && m.stop.progress
      ? { cursor: m.stop.cursor, state: keptState.bind(null, state, m.stop.cursor, run) }
      : null,
  };
}

/** Hours to three decimals (null: not known). */
const round3 = (h: number | null | undefined) => (h == null ? null : Math.round(h * 1000) / 1000);

/** The answer's fields of a call with a baseline: the baseline, the comparison, the rates. */
function sidesOf(
  q: PatternsQuery,
  p: Plan,
  read: Record<"window" | "baseline", SideRead>,
  given: boolean,
  rates: Rates | null,
  zone: string,
): Pick<PatternsAnswer, "baseline" | "comparison" | "window_hours" | "rate_basis" | "covers"> {
  const { run, baseSpan: span } = p;
  const lines = run.baseline.lines + run.variants.lines;
  const counted = [run.baseline, run.variants].reduce(
    (n, s) => n + s.clusters.reduce((m, c) => m + (c?.count ?? 0), 0),
    0,
  );
  const baseline: PatternsBaseline = {
    file: q.baseline?.file ?? q.file,
    window: span
      ? {
        since: Number.isFinite(span.since) ? formatInstant(span.since, zone) : null,
        until: Number.isFinite(span.until) ? formatInstant(span.until, zone) : null,
      }
      : null,
    total_lines: lines,
    other_lines: lines - counted,
    hours: round3(rates?.baseHours ?? null),
    complete: read.baseline === "whole",
  };
  return {
    baseline,
    comparison: { given, window: read.window, baseline: read.baseline },
    window_hours: round3(rates?.windowHours),
    rate_basis: rates?.basis,
    covers: rates?.basis === "per_hour" ? { window: rates.window, baseline: rates.baseline } : undefined,
  };
}

/**
 * A glob's `logs` field: each log the window's page read, then those it did not reach. With a window, a
 * log read without a timestamp (`read/time_span.ts` `timeless`) is not complete: none of its lines could
 * be placed in the window (`no_timestamps`), as `log_levels` and `log_search` say of it.
 */
function logsOf(wp: OverLogs<MinePage> | null, windowed: boolean): PatternsLog[] | undefined {
  if (!wp?.glob) return undefined;
  return [
    ...wp.runs.map((x): PatternsLog => {
      const untimed = windowed && timeless(x.page.time, x.page.time ? x.page.last_line : 0);
      return {
        file: x.file,
        complete: x.page.complete && !untimed,
        stop_reason: untimed ? "no_timestamps" : x.page.stop_reason as PatternsStop | null,
        scanned_lines: x.page.last_line,
      };
    }),
    ...wp.pending.map((file): PatternsLog => ({
      file,
      complete: false,
      stop_reason: "not_reached",
      scanned_lines: 0,
    })),
  ];
}
