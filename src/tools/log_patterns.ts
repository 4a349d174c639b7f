/**
 * `log_patterns` (issue #13): a log's lines (or a glob's logs', in a time window, of a level) as a few
 * templates — each line with its variable parts replaced by `<*>` — with exact counts, and what changed
 * against a baseline (another window, or another log).
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { queryHash, readCursor } from "../read/cursor.ts";
import { levelSchema } from "../read/log_line.ts";
import { LEVELS } from "../read/level.ts";
import type { MinePage } from "../read/mine_templates.ts";
import { formatInstant } from "../read/instant.ts";
import type { TimeSpan } from "../read/time_window.ts";
import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import { cutText } from "../core/text_cut.ts";
import { firstLogs, notReadNote, type OverLogs } from "./many_logs.ts";
import { isGlob } from "../source/log_source.ts";
import {
  requireTimestamps,
  resolveSpan,
  SEEK_BROKEN,
  seekBroken,
  timeFields,
  timeFieldsSchema,
  timelessLogs,
  timelessNote,
  windowArgs,
  withWindow,
} from "./time_args.ts";
import { levelIndex, minePhase, MiningRun } from "./template_mining.ts";
import { templateId } from "../read/template_miner.ts";
import { changeOf, type ClusterStats, type TemplateStats } from "./template_stats.ts";
import { okResult, type ToolResult } from "./outcome.ts";
import {
  type CallContext,
  callContext,
  READ_ONLY,
  type RequestExtra,
  type ToolContext,
  type ToolDeps,
} from "./deps.ts";
import { plural, renderStop } from "./render.ts";

/** The most templates one answer lists (more are in its artifact). */
export const MAX_PATTERNS_LIMIT = 1000;

const inputSchema = z.object({
  file: z.string().describe(
    "the log, as log_files lists it; or a glob over those names (*.log, **/app*.log*): every matching log " +
      "is mined, newest first, into one set of templates, under one budget",
  ),
  ...windowArgs,
  level: levelSchema.optional().describe("mine only the lines of this level"),
  limit: z.number().int().min(1).max(MAX_PATTERNS_LIMIT).default(20).describe(
    "templates listed (most frequent first, or most changed with a baseline); all of them are saved in an " +
      "artifact when there are more",
  ),
  baseline_since: z.string().max(100).optional().describe(
    "with baseline_until: a second window of the same logs (or of baseline_file) to compare with",
  ),
  baseline_until: z.string().max(100).optional().describe("the end of the baseline window (exclusive)"),
  baseline_file: z.string().optional().describe(
    "a log (or glob) to compare with, e.g. yesterday's app.log.1.gz; whole unless baseline_since/until",
  ),
  cursor: z.string().max(2100).optional().describe(
    "next_cursor from an answer its budget stopped: goes on mining from exactly there (the answer then " +
      "covers every page)",
  ),
});

const templateSchema = z.object({
  template_id: z.string().describe("16 hex digits: the hash of the template; log_search takes it"),
  template: z.string().describe(
    "the line with each variable part as <*>; other characters exactly the lines'",
  ),
  count: z.number().int().describe("lines of the window counted under it"),
  levels: z.record(z.string(), z.number().int()).describe("its lines per level (levels with none left out)"),
  first_line_no: z.number().int().nullable().describe("null when line numbers are not known (after a seek)"),
  last_line_no: z.number().int().nullable(),
  first_file: z.string().optional().describe("a call over a glob: the log of the first line"),
  last_file: z.string().optional(),
  first_time: z.string().nullable(),
  last_time: z.string().nullable(),
  example: z.string().describe("its first line as shown: secrets masked, cut at LOGPEEK_MAX_LINE"),
  baseline_count: z.number().int().optional().describe("the baseline's lines of the same template"),
  change: z.enum(["new", "gone", "up", "down", "same"]).optional(),
  rate_ratio: z.number().nullable().optional().describe(
    "its rate in the window over its rate in the baseline (null for new and gone)",
  ),
});

const stopSchema = z.enum(["time_budget", "file_changed", "cancelled", "corrupt_gzip"]).nullable();

const outputSchema = z.object({
  file: z.string(),
  templates: z.array(templateSchema),
  total_lines: z.number().int().describe("lines mined (in the window, of the level), over every page"),
  distinct_templates: z.number().int(),
  other_lines: z.number().int().describe(
    "lines that fit no template once LOGPEEK_MAX_TEMPLATES were held (counted, in no template)",
  ),
  complete: z.boolean().describe("every line asked for (and of the baseline) was mined"),
  stop_reason: stopSchema.describe("why not complete"),
  next_cursor: z.string().nullable().describe("pass as cursor to mine the rest"),
  progress: z.boolean().describe("false when this page mined nothing within its budget (no cursor then)"),
  scanned_bytes: z.number().int().describe("bytes read by this call"),
  logs: z.array(z.object({
    file: z.string(),
    complete: z.boolean(),
    stop_reason: z.enum([
      "time_budget",
      "file_changed",
      "cancelled",
      "corrupt_gzip",
      "not_reached",
      "no_timestamps",
    ]).nullable(),
    scanned_lines: z.number().int(),
  })).optional().describe("a call over a glob: each matching log this page read, newest first"),
  not_read: z.array(z.string()).optional(),
  ...timeFieldsSchema,
  baseline: z.object({
    file: z.string(),
    window: z.object({ since: z.string().nullable(), until: z.string().nullable() }).nullable(),
    total_lines: z.number().int(),
    other_lines: z.number().int().describe(
      "baseline lines that fit no template (LOGPEEK_MAX_TEMPLATES reached)",
    ),
    hours: z.number().nullable().describe(
      "the part of the baseline's window its logs cover, in hours (null: not known, under a second)",
    ),
    complete: z.boolean(),
  }).optional(),
  window_hours: z.number().nullable().optional().describe(
    "the part of the window its logs cover, in hours (with a baseline; null: not known)",
  ),
  rate_basis: z.enum(["per_hour", "share_of_lines"]).optional().describe(
    "per_hour: rates are lines per hour of each side; share_of_lines: a side's length is not known, so " +
      "rates are shares of each side's lines",
  ),
  artifact: z.object({ artifact_id: z.string(), total_lines: z.number().int() }).optional().describe(
    "every template, one JSON object a line, in the answer's order (when there are more than shown)",
  ),
});

/** The validated arguments of `log_patterns`. */
export type ToolArgs = z.infer<typeof inputSchema>;

/**
 * Registers `log_patterns` on `server`.
 *
 * @param server The MCP server.
 * @param deps Limits and the dispatcher.
 */
export function registerLogPatternsTool(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "log_patterns",
    {
      title: "Group lines into templates",
      description:
        "Groups every line of a log (or of every log a glob matches; optionally only a time window " +
        "since/until, or one level) into templates — the line with each variable part (numbers, ids, " +
        "addresses, paths, times…) as <*> — and counts them exactly: most frequent first, with levels, first " +
        "and last line and time, and an example. With baseline_since/baseline_until (another window) or " +
        "baseline_file (another log), each template also gets baseline_count and change (new, gone, up, " +
        "down, same), most changed first: what is different in an incident. log_search with template_id " +
        `finds a template's lines. Stops after LOGPEEK_PATTERNS_MS ms (${deps.limits.patternsMs}) with ` +
        "complete false and a next_cursor that goes on; at most LOGPEEK_MAX_TEMPLATES " +
        `(${deps.limits.maxTemplates}) templates are held, lines past them counted in other_lines.`,
      inputSchema: inputSchema.shape,
      outputSchema: outputSchema.shape,
      annotations: { ...READ_ONLY, title: "Group lines into templates" },
    },
    (args: ToolArgs, extra: RequestExtra) => deps.dispatch("log_patterns", args, callContext(extra)),
  );
}

/** A window's instants as the state keeps them (±∞ as null). */
type SavedSpan = [number | null, number | null] | null;
const saveSpan = (s: TimeSpan | undefined): SavedSpan =>
  s ? [Number.isFinite(s.since) ? s.since : null, Number.isFinite(s.until) ? s.until : null] : null;
const loadSpan = (s: SavedSpan): TimeSpan | undefined =>
  s ? { since: s[0] ?? -Infinity, until: s[1] ?? Infinity } : undefined;

/** What a resumed call keeps besides the mining: the windows as the first page resolved them, and more. */
interface CallState {
  /** The hash of the arguments (but `limit` and `cursor`): a cursor goes on only with the same ones. */
  q: string;
  spans: { window: SavedSpan; baseline: SavedSpan };
  /**
   * The times the logs read cover, per side (epoch ms; null: none yet): a window's rate is over the part
   * of it the logs cover (a log that began inside the baseline window does not dilute its rate).
   */
  covered: { window: SavedSpan; baseline: SavedSpan };
  /** The first damage a page met (`file_changed`, `corrupt_gzip`), or null. */
  damage: "file_changed" | "corrupt_gzip" | null;
  /** The cursor of the phase this state goes on with ("" for a phase not begun). */
  cursor: string;
  /** Why the answer cannot be complete, found on earlier pages. */
  notes: string[];
  /** Logs whose line numbers are not known (entered by a time seek). */
  unnumbered: string[];
}

/**
 * Runs `log_patterns` (in the tool worker, where log files are read).
 *
 * @param ctx The log source, limits, artifacts, redaction.
 * @param args The validated arguments.
 * @param call Cancellation and progress.
 * @returns The result.
 * @throws {ToolError} for expected failures (the dispatcher turns them into `isError` results):
 *   `invalid_time`, `no_timestamps`, `invalid_cursor`, `artifact_not_found` (a resumed call's state is gone),
 *   and what opening a log throws.
 */
export async function logPatterns(ctx: ToolContext, args: ToolArgs, call?: CallContext): Promise<ToolResult> {
  if (ctx.source.table) {
    throw new ToolError(
      "invalid_argument",
      `log_patterns reads files; ${ctx.source.table.shown} is a table, which it does not mine (yet): use ` +
        "log_levels and log_search there",
    );
  }
  const deadline = performance.now() + ctx.limits.patternsMs;
  const zone = ctx.limits.tz;
  const limit = args.limit ?? 20;
  const hasBaseline = args.baseline_since !== undefined || args.baseline_until !== undefined ||
    args.baseline_file !== undefined;
  const query = (phase: string) =>
    queryHash({
      phase,
      file: args.file,
      since: args.since,
      until: args.until,
      level: args.level,
      bs: args.baseline_since,
      bu: args.baseline_until,
      bf: args.baseline_file,
    });
  let run: MiningRun;
  let state: CallState;
  if (args.cursor !== undefined) {
    ({ run, state } = resumed(ctx, args.cursor));
    if (state.q !== query("call")) {
      throw new ToolError(
        "invalid_cursor",
        "the cursor belongs to another query: use the same file, since, until, level and baseline",
      );
    }
  } else {
    const span = resolveSpan(args, zone, undefined);
    const baseSpan = args.baseline_since !== undefined || args.baseline_until !== undefined
      ? resolveSpan({ since: args.baseline_since, until: args.baseline_until }, zone, undefined)
      : undefined;
    run = new MiningRun(ctx.limits.maxTemplates);
    state = {
      q: query("call"),
      covered: { window: null, baseline: null },
      damage: null,
      spans: { window: saveSpan(span), baseline: saveSpan(baseSpan) },
      cursor: "",
      notes: [],
      unnumbered: [],
    };
  }
  const span = loadSpan(state.spans.window);
  const baseSpan = loadSpan(state.spans.baseline);
  const level = levelIndex(args.level);
  const startCursor = state.cursor === "" ? undefined : state.cursor;
  if (startCursor) readCursor(startCursor, { k: "log_patterns", q: query(run.phase) }, ctx.cursorKey);
  let windowPage: OverLogs<MinePage> | null = null;
  let basePage: OverLogs<MinePage> | null = null;
  let stop: { cursor: string | null; progress: boolean } | null = null;

  if (run.phase === "window") {
    windowPage = await minePhase(ctx, run, run.window, {
      file: args.file,
      span,
      level,
      query: query("window"),
      cursor: startCursor,
      deadline,
    }, call);
    note(state, windowPage, span, startCursor !== undefined, args.file, "window");
    if (stopped(windowPage)) stop = { cursor: windowPage.next_cursor, progress: windowPage.progress };
    else if (hasBaseline) run.endWindow();
  }
  if (stop === null && hasBaseline && run.phase === "baseline") {
    const resumedBase = windowPage === null ? startCursor : undefined;
    if (windowPage !== null && performance.now() >= deadline) {
      stop = { cursor: "", progress: true }; // the baseline is not begun: the next page begins it
    } else {
      basePage = await minePhase(ctx, run, run.baseline, {
        file: args.baseline_file ?? args.file,
        span: baseSpan,
        level,
        query: query("baseline"),
        cursor: resumedBase,
        deadline,
      }, call);
      note(
        state,
        basePage,
        baseSpan,
        resumedBase !== undefined,
        args.baseline_file ?? args.file,
        "baseline",
      );
      if (stopped(basePage)) {
        // The window was mined on this page and the baseline got no time at all (a trial: "mined nothing,
        // no cursor" though the page had mined thousands of lines): the next page begins the baseline.
        stop = !basePage.progress && windowPage !== null && run.baseline.lines + run.variants.lines === 0
          ? { cursor: "", progress: true }
          : { cursor: basePage.next_cursor, progress: basePage.progress };
      }
    }
  }
  const pageBytes = [windowPage, basePage].reduce(
    (n, p) => n + (p ? p.runs.reduce((m, r) => m + r.page.scanned_bytes, 0) : 0),
    0,
  );
  let next_cursor: string | null = null;
  let stateNote = "";
  if (stop !== null && stop.cursor !== null && stop.progress) {
    if (ctx.artifacts) {
      try {
        const saved: CallState = { ...state, cursor: stop.cursor };
        const sid = ctx.artifacts.writeState(
          "log_patterns",
          JSON.stringify({ run: run.save(), call: saved }),
        );
        next_cursor = `${sid}~${stop.cursor}`;
      } catch (e) {
        stateNote = `the mining state could not be saved (${
          e instanceof Error ? e.message : e
        }), so no cursor`;
      }
    } else stateNote = `no cursor can be given: ${ctx.artifactsOff}`;
  }
  return answer(ctx, args, run, state, {
    limit,
    span,
    baseSpan,
    windowPage,
    basePage,
    next_cursor,
    stopped: stop !== null,
    progress: stop === null || stop.progress,
    pageBytes,
    stateNote,
    hasBaseline,
  });
}

/** True when a phase's page stopped before its end (a budget, a cancel): the call ends there. */
function stopped(p: OverLogs<MinePage>): boolean {
  const s = lastStop(p);
  return p.next_cursor !== null || !p.progress || s === "time_budget" || s === "cancelled";
}

/** The mining and call state a cursor names (`<state id>~<phase cursor>`). */
function resumed(ctx: ToolContext, cursor: string): { run: MiningRun; state: CallState } {
  const tilde = cursor.indexOf("~");
  if (tilde < 1) {
    throw new ToolError(
      "invalid_cursor",
      "the cursor is not one log_patterns made; start again without cursor",
    );
  }
  if (!ctx.artifacts) throw new ToolError("invalid_cursor", `no state can be read here: ${ctx.artifactsOff}`);
  const text = ctx.artifacts.readState("log_patterns", cursor.slice(0, tilde));
  try {
    const o = JSON.parse(text) as { run: unknown; call: CallState };
    // `run` is MiningRun.save's text, kept as a string inside the state's JSON.
    if (typeof o.run !== "string") throw new TypeError("the saved state holds no mining");
    const run = MiningRun.load(o.run, ctx.limits.maxTemplates);
    const st = o.call;
    if (
      typeof st !== "object" || st === null || typeof st.cursor !== "string" ||
      st.cursor !== cursor.slice(tilde + 1) || !Array.isArray(st.notes) || !Array.isArray(st.unnumbered) ||
      typeof st.q !== "string" || typeof st.covered !== "object" ||
      st.covered === null
    ) throw new TypeError("state");
    return { run, state: st };
  } catch (e) {
    ctx.stderr(`logpeek: log_patterns: a saved state was refused: ${e instanceof Error ? e.message : e}`);
    throw new ToolError(
      "invalid_cursor",
      "the cursor does not match its saved state (it was altered, or belongs to another call); start again " +
        "without cursor",
    );
  }
}

/** Records on the state why a phase's pages cannot give a complete answer, and its unnumbered logs. */
function note(
  state: CallState,
  page: OverLogs<MinePage>,
  span: TimeSpan | undefined,
  resumedPage: boolean,
  what: string,
  side: "window" | "baseline",
): void {
  const prefix = side === "baseline" ? "baseline: " : "";
  const runs = page.runs;
  // The span of times the logs read cover (every line read, in the window or not).
  for (const r of runs) {
    const t = r.page.time;
    if (!t || !(t.earliest === t.earliest)) continue;
    const c = state.covered[side];
    state.covered[side] = [
      c?.[0] == null ? t.earliest : Math.min(c[0], t.earliest),
      c?.[1] == null ? t.latest : Math.max(c[1], t.latest),
    ];
  }
  if (!resumedPage) {
    const read = runs.reduce((n, r) => n + (r.page.time ? r.page.last_line : r.page.total_lines), 0);
    requireTimestamps(span, runs.map((r) => r.page.time), read, what);
  }
  const untimed = timelessLogs(
    span,
    page.glob,
    runs.map((x) => ({ file: x.file, time: x.page.time, lines: x.page.time ? x.page.last_line : 0 })),
    resumedPage,
  );
  if (untimed.length) state.notes.push(prefix + timelessNote(untimed).trim());
  if (seekBroken(runs.map((x) => x.page.time))) state.notes.push(prefix + SEEK_BROKEN.trim());
  if (page.notReadCount > 0) state.notes.push(prefix + notReadNote(page.notRead, page.notReadCount).trim());
  for (const r of runs) {
    if (r.page.time && !r.page.time.lineKnown && !state.unnumbered.includes(r.file)) {
      state.unnumbered.push(r.file);
    }
  }
  for (const r of runs) {
    if (r.page.stop_reason === "file_changed" || r.page.stop_reason === "corrupt_gzip") {
      state.damage ??= r.page.stop_reason;
      state.notes.push(
        `${prefix}${printable(r.file)}: ${renderStop(r.page.stop_reason, r.page.last_line, "")}`,
      );
    }
  }
}

/**
 * One template of the answer (its `outputSchema` entry), and for sorting its first line's place among the
 * window's lines (an earlier first comes first among equals).
 */
type Row = z.infer<typeof templateSchema> & { order: number };

/** What {@linkcode answer} needs of the call. */
interface AnswerInput {
  limit: number;
  span?: TimeSpan;
  baseSpan?: TimeSpan;
  windowPage: OverLogs<MinePage> | null;
  basePage: OverLogs<MinePage> | null;
  next_cursor: string | null;
  stopped: boolean;
  progress: boolean;
  pageBytes: number;
  stateNote: string;
  hasBaseline: boolean;
}

/**
 * A side's length in hours: from its window's `since`, or from the first timestamp its logs hold when that
 * is later (a log that began inside the window), to its `until` (capped at now), else to its last
 * timestamp; without a window, its first to its last timestamp. Null when that is under a second or not known (no
 * timestamp): rates are then shares of each side's lines.
 *
 * @param span The side's window, if any.
 * @param earliest The first timestamp the side's logs hold, epoch ms (NaN: none).
 * @param latest The last one.
 * @param now Now, epoch ms.
 * @returns Hours, or null.
 */
export function hours(
  span: TimeSpan | undefined,
  earliest: number,
  latest: number,
  now = Date.now(),
): number | null {
  // A log that began inside the window covers it from its first line; its end is the window's (a quiet
  // log's last line is not its end), else the last line.
  const from = Math.max(span?.since ?? -Infinity, earliest);
  const to = Number.isFinite(span?.until ?? Infinity) ? Math.min(span!.until, now) : Math.min(latest, now);
  // No timestamp (NaN), or all of them within a second: the length is not known.
  if (!(to - from >= 1000)) return null;
  return (to - from) / 3_600_000;
}

/** The answer: the templates, merged by text, sorted, listed and saved. */
function answer(
  ctx: ToolContext,
  args: ToolArgs,
  run: MiningRun,
  state: CallState,
  a: AnswerInput,
): ToolResult {
  const zone = ctx.limits.tz;
  const glob = (a.windowPage ?? a.basePage)?.glob ?? isGlob(args.file);
  const at = (t: number) => (t === t ? formatInstant(t, zone) : null);
  const lineNo = (file: string, n: number) => (state.unnumbered.includes(file) ? null : n);
  const byText = new Map<string, Row & { win?: ClusterStats; base?: ClusterStats; last: number }>();
  const size = run.miner.size;
  // Each cluster's window template (its window lines, and the baseline lines that match it), and the
  // baseline lines of it that do not match the window's text, under its widened text (a `gone` row).
  const entries: { text: string; w?: ClusterStats; b?: ClusterStats; i: number }[] = [];
  for (let i = 0; i < size; i++) {
    const w = run.window.clusters[i];
    const b = run.baseline.clusters[i];
    const v = run.variants.clusters[i];
    if (w || b) entries.push({ text: run.text(i), w, b, i });
    if (v) entries.push({ text: run.miner.text(i), b: v, i });
  }
  for (const { text, w, b, i } of entries) {
    const row = byText.get(text);
    if (row === undefined) {
      const s = (w ?? b)!;
      byText.set(text, {
        template_id: templateId(text),
        template: text,
        count: w?.count ?? 0,
        levels: w ? levelsOf(w.levels) : {},
        first_line_no: w ? lineNo(w.firstFile, w.firstLine) : null,
        last_line_no: w ? lineNo(w.lastFile, w.lastLine) : null,
        first_file: glob && w ? w.firstFile : undefined,
        last_file: glob && w ? w.lastFile : undefined,
        first_time: w ? at(w.firstTime) : null,
        last_time: w ? at(w.lastTime) : null,
        example: cutText(s.example, ctx.limits.maxLine),
        baseline_count: a.hasBaseline ? (b?.count ?? 0) : undefined,
        last: w ? w.lastSeq : 0,
        order: w ? w.firstSeq : Number.MAX_SAFE_INTEGER - size + i,
        win: w,
        base: b,
      });
    } else {
      // Two clusters whose texts are equal are one template.
      row.count += w?.count ?? 0;
      if (w) {
        for (const [k, v] of Object.entries(levelsOf(w.levels))) row.levels[k] = (row.levels[k] ?? 0) + v;
        // The earliest first line and the latest last line of the two, in the order read.
        if (!row.win || w.firstSeq < row.win.firstSeq) {
          Object.assign(row, {
            first_line_no: lineNo(w.firstFile, w.firstLine),
            first_file: glob ? w.firstFile : undefined,
            first_time: at(w.firstTime),
            example: cutText(w.example, ctx.limits.maxLine),
            order: w.firstSeq,
          });
        }
        if (!row.win || w.lastSeq > row.last) {
          row.last_line_no = lineNo(w.lastFile, w.lastLine);
          row.last_file = glob ? w.lastFile : undefined;
          row.last_time = at(w.lastTime);
          row.last = w.lastSeq;
        }
        if (!row.win || w.firstSeq < row.win.firstSeq) row.win = w;
      }
      if (a.hasBaseline) row.baseline_count = (row.baseline_count ?? 0) + (b?.count ?? 0);
    }
  }
  const rows = [...byText.values()].map(({ win: _w, base: _b, last: _l, ...r }) => r);
  // The change against the baseline: rates per hour, or shares of lines when a side's length is unknown.
  let windowHours: number | null = null, baseHours: number | null = null;
  let basis: "per_hour" | "share_of_lines" | undefined;
  if (a.hasBaseline) {
    // The times covered: the logs' (with a window), else the side's lines' (NaN: none).
    const known = (xs: number[], pick: (...v: number[]) => number) => {
      const ok = xs.filter((x) => x === x);
      return ok.length ? pick(...ok) : NaN;
    };
    const cover = (c: SavedSpan, s: TemplateStats, v?: TemplateStats) =>
      c !== null ? [c[0] ?? NaN, c[1] ?? NaN] : [
        known([s.earliest, v?.earliest ?? NaN], Math.min),
        known([s.latest, v?.latest ?? NaN], Math.max),
      ];
    const [we, wl] = cover(state.covered.window, run.window);
    const [be, bl] = cover(state.covered.baseline, run.baseline, run.variants);
    windowHours = hours(a.span, we, wl);
    baseHours = hours(a.baseSpan, be, bl);
    basis = windowHours !== null && baseHours !== null ? "per_hour" : "share_of_lines";
    const scale = basis === "per_hour"
      ? windowHours! / baseHours!
      : Math.max(1, run.window.lines) / Math.max(1, run.baseline.lines + run.variants.lines);
    for (const r of rows) {
      const c = changeOf(r.count, r.baseline_count ?? 0, scale);
      r.change = c.change;
      r.rate_ratio = c.ratio === null ? null : Math.round(c.ratio * 1000) / 1000;
    }
    // New first, then gone, then by how much the rate changed.
    const weight = (r: Row) =>
      r.change === "new" ? 2e9 : r.change === "gone" ? 1e9 : Math.abs(Math.log2(r.rate_ratio ?? 1));
    rows.sort((x, y) =>
      weight(y) - weight(x) ||
      Math.max(y.count, y.baseline_count ?? 0) - Math.max(x.count, x.baseline_count ?? 0) ||
      x.order - y.order
    );
  } else rows.sort((x, y) => y.count - x.count || x.order - y.order);
  const templates = rows.map(({ order: _o, ...r }) => r);
  const inWindow = templates.filter((t) => t.count > 0);
  const counted = run.window.clusters.reduce((n, c) => n + (c?.count ?? 0), 0);
  const other = run.window.lines - counted;
  const stopReason = a.stopped
    ? (lastStop(a.windowPage) ?? lastStop(a.basePage) ?? "time_budget")
    : state.damage;
  const baseLines = run.baseline.lines + run.variants.lines;
  const baseOther = baseLines -
    [run.baseline, run.variants].reduce((n, s) => n + s.clusters.reduce((m, c) => m + (c?.count ?? 0), 0), 0);
  // Every reason a page was not whole either stopped the call (a budget, a cancel) or is in the notes.
  const complete = !a.stopped && state.notes.length === 0 && (!a.hasBaseline || run.phase === "baseline");
  // The artifact: every template, when more than the limit (or than fit in the text) exist.
  const shownRows = templates.slice(0, a.limit);
  const lines = shownRows.map((t) => renderTemplate(t, a.hasBaseline, glob));
  const header = renderHeader(args, run, templates.length, inWindow.length, other, complete, stopReason, a) +
    (a.hasBaseline && baseOther > 0
      ? `\n${baseOther} baseline line(s) fit no template (LOGPEEK_MAX_TEMPLATES reached): counted in ` +
        "baseline.other_lines, in no template."
      : "") +
    (a.hasBaseline && baseLines === 0 && complete
      ? "\nThe baseline has no line (its window is outside what the logs hold, or they were rotated away): " +
        "every template reads as new, which says nothing about change."
      : "");
  let room = ctx.limits.inlineChars - header.length - 400;
  let fit = 0;
  while (fit < lines.length && lines[fit].length + 1 <= room) room -= lines[fit++].length + 1;
  let artifact: { artifact_id: string; total_lines: number } | undefined;
  let artifactNote = "";
  if (fit < templates.length) {
    if (ctx.artifacts) {
      try {
        artifact = ctx.artifacts.write("log_patterns", templates.values().map((t) => JSON.stringify(t)));
        artifactNote = `\nShown: ${fit} of ${templates.length} templates${
          a.hasBaseline
            ? ` (${inWindow.length} in the window, ${
              templates.length - inWindow.length
            } only in the baseline)`
            : ""
        }. All ${templates.length} are saved, one ` +
          `JSON object a line in this order: read_artifact(artifact_id="${artifact.artifact_id}", offset=${fit}, ` +
          "limit=200).";
      } catch (e) {
        artifactNote = `\nShown: ${fit} of ${templates.length} templates; the rest could not be saved (${
          e instanceof Error ? e.message : e
        }): raise limit, or narrow the window or level.`;
      }
    } else {
      artifactNote = `\nShown: ${fit} of ${templates.length} templates; the rest could not be saved ` +
        `(${ctx.artifactsOff}): raise limit, or narrow the window or level.`;
    }
  }
  const time = timeFields(a.span, zone, a.windowPage ? a.windowPage.runs.map((r) => r.page.time) : []);
  const wp = a.windowPage;
  const logs = wp?.glob
    ? [
      ...wp.runs.map((x) => ({
        file: x.file,
        complete: x.page.complete,
        stop_reason: x.page.stop_reason as
          | "time_budget"
          | "file_changed"
          | "cancelled"
          | "corrupt_gzip"
          | null,
        scanned_lines: x.page.last_line,
      })),
      ...wp.pending.map((file) => ({
        file,
        complete: false,
        stop_reason: "not_reached" as const,
        scanned_lines: 0,
      })),
    ]
    : undefined;
  const baseline = a.hasBaseline
    ? {
      file: args.baseline_file ?? args.file,
      window: a.baseSpan
        ? {
          since: Number.isFinite(a.baseSpan.since) ? formatInstant(a.baseSpan.since, zone) : null,
          until: Number.isFinite(a.baseSpan.until) ? formatInstant(a.baseSpan.until, zone) : null,
        }
        : null,
      total_lines: baseLines,
      other_lines: baseOther,
      hours: baseHours === null ? null : Math.round(baseHours * 1000) / 1000,
      complete: run.phase === "baseline" && !a.stopped && (a.basePage?.complete ?? false),
    }
    : undefined;
  const more = a.next_cursor
    ? `\nTo mine the rest, call log_patterns again with the same arguments and cursor="${a.next_cursor}": ` +
      "its answer covers this page too."
    : "";
  const stuck = !a.progress
    ? "\nThis page mined nothing within LOGPEEK_PATTERNS_MS, so no cursor is given: raise it."
    : a.stateNote
    ? `\n${a.stateNote}.`
    : "";
  const perLog = logs
    ? "\nlogs (newest first): " +
      firstLogs(logs, (l) =>
        `${printable(l.file)} ${l.complete ? "complete" : `NOT complete (${l.stop_reason})`}`)
    : "";
  const notes = state.notes.length ? "\n" + state.notes.join("\n") : "";
  return okResult(
    {
      file: args.file,
      templates: shownRows,
      total_lines: run.window.lines,
      distinct_templates: inWindow.length,
      other_lines: other,
      complete,
      stop_reason: complete ? null : stopReason,
      next_cursor: a.next_cursor,
      progress: a.progress,
      scanned_bytes: a.pageBytes,
      logs,
      not_read: wp?.glob ? wp.notRead : undefined,
      ...time,
      baseline,
      window_hours: a.hasBaseline
        ? (windowHours === null ? null : Math.round(windowHours * 1000) / 1000)
        : undefined,
      rate_basis: basis,
      artifact,
    },
    withWindow(header, time) + "\n\n" + lines.slice(0, fit).join("\n") + artifactNote + perLog + notes +
      more +
      stuck,
  );
}

/** The stop reason of a phase's last log (null: it ended). */
function lastStop(
  p: OverLogs<MinePage> | null,
): "time_budget" | "file_changed" | "cancelled" | "corrupt_gzip" | null {
  if (!p || p.runs.length === 0) return null;
  const s = p.runs[p.runs.length - 1].page.stop_reason;
  return s === "time_budget" || s === "file_changed" || s === "cancelled" || s === "corrupt_gzip" ? s : null;
}

/** Levels with lines, by name. */
function levelsOf(counts: number[]): Record<string, number> {
  const out: Record<string, number> = {};
  counts.forEach((n, i) => {
    if (n > 0) out[LEVELS[i]] = n;
  });
  return out;
}

/** One template as a line of text. */
function renderTemplate(t: Omit<Row, "order">, baseline: boolean, glob: boolean): string {
  const levels = Object.entries(t.levels).map(([k, v]) => `${k} ${v}`).join(", ");
  const change = baseline
    ? ` [${t.change}${t.rate_ratio != null ? ` ×${t.rate_ratio}` : ""}; baseline ${t.baseline_count}]`
    : "";
  // Over a glob, each line number with its log.
  const place = (file: string | undefined, n: number | null) =>
    `${glob && file ? `${file}:` : ""}${n ?? "?"}`;
  const where = t.count > 0
    ? ` (${levels}; lines ${place(t.first_file, t.first_line_no)} .. ${place(t.last_file, t.last_line_no)}` +
      (t.first_time ? `, ${t.first_time} .. ${t.last_time}` : "") + ")"
    : "";
  return printable(`${t.count}×${change} ${t.template_id} ${t.template}${where}`);
}

/** The answer's first line. */
function renderHeader(
  args: ToolArgs,
  run: MiningRun,
  all: number,
  distinct: number,
  other: number,
  complete: boolean,
  stop: string | null,
  a: AnswerInput,
): string {
  const what =
    `${printable(args.file)}${args.level ? ` (${args.level} lines)` : ""}: ${
      plural(run.window.lines, "line")
    } as ${plural(distinct, "template")}` +
    (other > 0 ? `, ${other} in no template (LOGPEEK_MAX_TEMPLATES reached)` : "");
  const base = a.hasBaseline
    ? `; baseline ${printable(args.baseline_file ?? args.file)}: ${
      plural(run.baseline.lines + run.variants.lines, "line")
    }, ` +
      `${all - distinct} template(s) only there`
    : "";
  const status = complete ? "complete: every line asked for was mined." : stop !== null
    ? renderStop(
      stop as "time_budget",
      run.window.lines + run.baseline.lines + run.variants.lines,
      "LOGPEEK_PATTERNS_MS",
    ) +
      "; the counts cover only the lines mined."
    : "NOT complete: see below.";
  return `${what}${base}. ${status}`;
}
