/**
 * `log_search` over local files: one log, or every log a glob matches (newest first, under one budget;
 * `many_logs.ts`), read by the scanner (`read/search.ts`), in a time window when one is given; or, by
 * `template_id`, the lines of a mined template (`template_search.ts`).
 *
 * Steps: plan (the query's hash, the cursor's window, the deadline), scan (each log's page), collect (the
 * pages as one {@linkcode SearchAnswer}).
 *
 * @module
 */

import { queryHash, readCursor } from "../../read/cursor.ts";
import { searchLog, type SearchResult } from "../../read/search.ts";
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
import { isGlob } from "../glob.ts";
import type { SearchAnswer, SearchLogStatus, SearchQuery } from "../search_query.ts";
import type { LocalEnv } from "./local_env.ts";
import { type OverLogs, overLogs } from "./many_logs.ts";
import { searchByTemplate, type TemplateSearchResult } from "./template_search.ts";

/** What a text search resolved before its scan. */
interface SearchPlan {
  /** The text or pattern. */
  text: string;
  regex: boolean;
  ignoreCase: boolean;
  /** When the whole call must end (`performance.now()` ms). */
  deadline: number;
  /** The query's hash, which its cursors carry (`read/cursor.ts` `queryHash`). */
  query: string;
  /** The window, as the first page resolved it. */
  span: TimeSpan | undefined;
}

/** What a page says when it read nothing within its budget. */
const STUCK =
  "This page read nothing within its budget, so no cursor is given: calling again with the same " +
  "budgets would not help; raise LOGPEEK_SEARCH_MS or LOGPEEK_SEARCH_BYTES, or simplify the pattern.";

/**
 * The lines that match, in one log under the roots or in every log a glob matches.
 *
 * @param env The local source, limits, masking, the cursor key, the pattern tester.
 * @param q The query (a sink with context receives the matches as they are found).
 * @param call The client's cancellation and progress.
 * @returns The answer: the matches and how far the search got.
 * @throws {ToolError} what opening a log throws (`not_found`, …); `invalid_pattern`; `invalid_cursor`;
 *   `file_changed` (a glob's logs changed); `invalid_time`, `no_timestamps` for a window; by template what
 *   `template_search.ts` `searchByTemplate` throws.
 */
export async function localSearch(env: LocalEnv, q: SearchQuery, call?: Call): Promise<SearchAnswer> {
  const m = q.match;
  if (m.kind === "template") {
    const r = await searchByTemplate(env, {
      file: q.file,
      template_id: m.template_id,
      level: q.level,
      ...q.window,
      limit: q.limit,
      cursor: q.cursor,
    }, call);
    return templateAnswer(q.file, r);
  }
  const plan = planSearch(env, q, m);
  return collect(env, q, plan, await scanLogs(env, q, plan, call));
}

/** Plans a text search: its hash, the window (a cursor keeps the first page's), the deadline. */
function planSearch(
  env: LocalEnv,
  q: SearchQuery,
  m: { text: string; regex: boolean; ignore_case: boolean },
): SearchPlan {
  const deadline = performance.now() + env.limits.searchMs;
  const query = queryHash({
    text: m.text,
    level: q.level,
    ignore_case: m.ignore_case,
    regex: m.regex,
    since: q.window.since,
    until: q.window.until,
    context: q.context || undefined,
    file: isGlob(q.file) ? q.file : undefined,
  });
  const first = q.cursor !== undefined
    ? readCursor(q.cursor, { k: "log_search", q: query }, env.cursorKey)
    : undefined;
  const span = resolveSpan(q.window, env.limits.tz, first);
  return { text: m.text, regex: m.regex, ignoreCase: m.ignore_case, deadline, query, span };
}

/** Scans the log, or each log of the glob, under the call's shared budgets. */
function scanLogs(
  env: LocalEnv,
  q: SearchQuery,
  plan: SearchPlan,
  call?: Call,
): Promise<OverLogs<SearchResult>> {
  const { deadline, span } = plan;
  const sink = q.sink;
  let found = 0;
  return overLogs<SearchResult>(env, {
    tool: "log_search",
    file: q.file,
    query: plan.query,
    cursor: q.cursor,
    bytes: env.limits.searchBytes,
    deadline,
    span,
  }, async (log, resume, bytesLeft, globFile) => {
    sink?.mark();
    const r = await searchLog(log, {
      ...env.limits,
      searchBytes: Math.max(0, bytesLeft),
      deadline,
      text: plan.text,
      level: q.level,
      limit: q.limit - found,
      redact: env.redact,
      ignoreCase: plan.ignoreCase,
      regex: plan.regex,
      resume,
      window: span ? windowFor(span, log, env.limits.tz, resume) : undefined,
      context: q.context,
      take: sink ? (line, context) => sink.take(globFile ?? undefined, line, context) : undefined,
      retake: () => sink?.rollback(),
      signal: call?.signal,
      onProgress: call?.progress,
      patterns: env.patterns,
    });
    found += r.matches.length;
    return r;
  });
}

/**
 * The pages of a text search as one answer.
 *
 * @throws {ToolError} `no_timestamps` when a call read from its start found no timestamp in a window.
 */
function collect(
  env: LocalEnv,
  q: SearchQuery,
  plan: SearchPlan,
  many: OverLogs<SearchResult>,
): SearchAnswer {
  const { runs, glob } = many;
  const { span } = plan;
  const sum = (f: (r: SearchResult) => number | undefined) => runs.reduce((n, r) => n + (f(r.page) ?? 0), 0);
  const scanned = sum((p) => p.scanned_lines);
  const times = runs.map((r) => r.page.time);
  // Only a call read from the start can find that nothing had a timestamp (a page after one that read
  // timestamps may hold only a stack trace, or a long line's middle).
  if (q.cursor === undefined) requireTimestamps(span, times, scanned, q.file);
  const untimed = timelessLogs(
    span,
    glob,
    runs.map((r) => ({ file: r.file, time: r.page.time, lines: r.page.scanned_lines })),
    q.cursor !== undefined,
  );
  const broken = seekBroken(times);
  const last = runs[runs.length - 1].page;
  return {
    file: glob ? q.file : runs[0].file,
    // (A page's own matches as they are when they gain no field: no copy of each, issue #26, item 2.)
    matches: runs.flatMap((r) =>
      !glob && !r.page.contexts ? r.page.matches : r.page.matches.map((m, i) => ({
        ...m,
        ...(glob ? { file: r.file } : {}),
        ...(r.page.contexts ? { before: r.page.contexts[i].before, after: r.page.contexts[i].after } : {}),
      }))
    ),
    glob,
    scanned_lines: scanned,
    // A line tested only in part (a pattern's first 64 KiB) may hold a match not looked for: not complete.
    complete: many.complete && !broken && untimed.length === 0 && !sum((p) => p.partially_tested),
    stop_reason: many.complete ? null : (last.stop_reason ?? (many.next_cursor ? "time_budget" : null)),
    replaced_bytes: sum((p) => p.replaced_bytes),
    redactions: sum((p) => p.redactions),
    next_cursor: many.next_cursor,
    progress: many.progress,
    scanned_bytes: sum((p) => p.scanned_bytes),
    ...(glob
      ? { logs: logStatuses(many, untimed), not_read: many.notRead }
      : { log_format: last.log_format }),
    not_read_count: many.notReadCount,
    partially_tested: sum((p) => p.partially_tested),
    unresolved_levels: sum((p) => p.unresolved_levels) || undefined,
    time: timeFields(span, env.limits.tz, times),
    seek_broken: broken,
    seek_skipped: runs.some((r) => r.page.time?.order === "seek"),
    unit: "line",
    ...(many.progress ? {} : { stuck: STUCK }),
    notes: [],
  };
}

/** Each log of a call over a glob: those read, in order, then those not reached. */
function logStatuses(many: OverLogs<SearchResult>, untimed: string[]): SearchLogStatus[] {
  return [
    ...many.runs.map((r) => ({
      file: r.file,
      complete: r.page.complete && !untimed.includes(r.file) && !r.page.partially_tested,
      stop_reason: untimed.includes(r.file) ? "no_timestamps" as const : r.page.stop_reason,
      scanned_lines: r.page.scanned_lines,
    })),
    ...many.pending.map((file) => ({
      file,
      complete: false,
      stop_reason: "not_reached" as const,
      scanned_lines: 0,
    })),
  ];
}

/** A search by template as a {@linkcode SearchAnswer}: the template's lines, mined twice. */
function templateAnswer(file: string, r: TemplateSearchResult): SearchAnswer {
  return {
    file,
    matches: r.matches,
    glob: r.glob,
    scanned_lines: r.mined,
    complete: r.complete,
    stop_reason: r.stop_reason,
    replaced_bytes: r.replaced_bytes,
    redactions: r.redactions,
    next_cursor: r.next_cursor,
    progress: r.next_cursor !== null || r.stop_reason === null || r.stop_reason === "limit",
    scanned_bytes: r.scanned_bytes,
    not_read_count: 0,
    time: {},
    seek_broken: false,
    seek_skipped: false,
    template: { ...r.template, skipped: r.skipped },
    unit: "line",
    notes: r.notes,
  };
}
