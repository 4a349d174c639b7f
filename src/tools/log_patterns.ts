/**
 * `log_patterns` (issue #13): a log's lines (or a glob's logs', in a time window, of a level) as a few
 * templates — each line with its variable parts replaced by `<*>` — with exact counts, and what changed
 * against a baseline (another window, or another log).
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Limits } from "../core/config.ts";
import { fileArg, levelArg, strictArgs, wholeNumber } from "./args.ts";
import { queryHash, readCursor } from "../read/cursor.ts";
import { LEVELS } from "../read/level.ts";
import type { MinePage } from "../read/mine_templates.ts";
import { formatInstant } from "../read/instant.ts";
import type { TimeSpan } from "../read/time_window.ts";
import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import { cutText } from "../core/text_cut.ts";
import { type OverLogs } from "../source/local/many_logs.ts";
import { firstLogs, notReadNote } from "./log_list_words.ts";
import { isGlob } from "../source/log_source.ts";
import {
  requireTimestamps,
  resolveSpan,
  SEEK_BROKEN,
  seekBroken,
  timeFields,
  timeFieldsSchema,
  timeless,
  timelessLogs,
  timelessNote,
  windowArgs,
  withWindow,
} from "./time_args.ts";
import { levelIndex, minePhase, MiningRun, type Phase } from "../source/local/template_mining.ts";
import { templateId } from "../read/template_miner.ts";
import { changeOf, type ClusterStats, type TemplateStats } from "../source/local/template_stats.ts";
import { okResult, type ToolResult } from "./outcome.ts";
import {
  type CallContext,
  callContext,
  READ_ONLY,
  type RequestExtra,
  type ToolContext,
  type ToolDeps,
} from "./deps.ts";
import { logFormatSchema, plural, renderFormat, renderStop } from "./render.ts";

/** The most templates one answer lists (more are in its artifact). */
export const MAX_PATTERNS_LIMIT = 1000;

const inputSchema = strictArgs("log_patterns", {
  file: fileArg(true).describe("from log_files or a glob").meta({
    details: "the log, as log_files lists it; or a glob over those names (*.log, **/app*.log*): every " +
      "matching log is mined, newest first, into one set of templates, under one budget",
  }),
  ...windowArgs,
  level: levelArg.optional().meta({ details: "mine only the lines of this level" }),
  limit: wholeNumber(
    "limit",
    1,
    MAX_PATTERNS_LIMIT,
    "all templates are saved in the artifact when there are more",
  )
    .default(20).meta({
      details: "templates listed (most frequent first, or most changed with a baseline); all of them are " +
        "saved in an artifact when there are more",
    }),
  baseline_since: z.string().max(100).optional().describe("a window to compare with").meta({
    details: "with baseline_until: a second window of the same logs (or of baseline_file) to compare with",
  }),
  baseline_until: z.string().max(100).optional().meta({
    details: "the end of the baseline window (exclusive)",
  }),
  baseline_file: z.string().optional().describe("or a log (glob) to compare with").meta({
    details:
      "a log (or glob) to compare with, e.g. yesterday's app.log.1.gz; whole unless baseline_since/until",
  }),
  cursor: z.string().max(2100).optional().meta({
    details: "next_cursor from an answer its budget stopped: goes on mining from exactly there (the answer " +
      "then covers every page)",
  }),
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
  baseline_count: z.number().int().optional().describe(
    "the baseline's lines of the same template (so far, when baseline.complete is false; absent while the " +
      "baseline is not read)",
  ),
  change: z.enum(["new", "gone", "up", "down", "same"]).optional().describe(
    "only when both sides were read in full (comparison.given)",
  ),
  rate_ratio: z.number().nullable().optional().describe(
    "its rate in the window over its rate in the baseline (null for new and gone; only with change)",
  ),
});

/** How much of one side a `log_patterns` answer with a baseline read (see `SideRead`). */
const sideReadSchema = z.enum(["whole", "partly_read", "not_read"]);

const stopSchema = z.enum(["time_budget", "file_changed", "cancelled", "corrupt_gzip"]).nullable();

const outputSchema = z.object({
  file: z.string(),
  templates: z.array(templateSchema).describe(
    "the templates shown: up to limit, as many as fit within LOGPEEK_INLINE_CHARS (all of them in the artifact)",
  ),
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
  log_format: logFormatSchema,
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
      "the part of the baseline's window its logs cover, in hours (null: not known, under a second, or no " +
        "change given)",
    ),
    complete: z.boolean().describe("every line of the baseline was mined"),
  }).optional(),
  comparison: z.object({
    given: z.boolean().describe(
      "both sides were read in full: each template has change and rate_ratio; false: none has",
    ),
    window: sideReadSchema,
    baseline: sideReadSchema,
  }).optional().describe(
    "with a baseline: whether the change is given, and how much of each side was read (partly_read: a " +
      "budget stopped it, or a log was damaged or not readable, see the text); next_cursor mines the rest",
  ),
  window_hours: z.number().nullable().optional().describe(
    "the part of the window its logs cover, in hours (with a baseline; null: not known, or no change given)",
  ),
  rate_basis: z.enum(["per_hour", "share_of_lines"]).optional().describe(
    "per_hour: rates are lines per hour of each side; share_of_lines: a side's length is not known, so " +
      "rates are shares of each side's lines (only with a change given)",
  ),
  artifact: z.object({ artifact_id: z.string(), total_lines: z.number().int() }).optional().describe(
    "every template, one JSON object a line, in the answer's order (when there are more than shown)",
  ),
});

/** The validated arguments of `log_patterns`. */
export type ToolArgs = z.infer<typeof inputSchema>;

/**
 * What `log_patterns` does, in full (`docs/tool_schemas.md`; the listed description is short).
 *
 * @param limits The limits it quotes.
 * @returns The text.
 */
export const toolDocs = (limits: Readonly<Limits>): string =>
  "Groups every line of a log (or of every log a glob matches; optionally only a time window " +
  "since/until, or one level) into templates — the line with each variable part (numbers, ids, " +
  "addresses, paths, times…) as <*> — and counts them exactly: most frequent first, with levels, first " +
  "and last line and time, and an example. With baseline_since/baseline_until (another window) or " +
  "baseline_file (another log), each template also gets baseline_count and change (new, gone, up, " +
  "down, same), most changed first: what is different in an incident; change is given only once both " +
  "sides were read in full (comparison says which is missing or partly read, next_cursor mines the rest). " +
  "log_search with template_id finds a template's lines. Stops after LOGPEEK_PATTERNS_MS ms " +
  `(${limits.patternsMs}) with complete false and a next_cursor that goes on; at most LOGPEEK_MAX_TEMPLATES ` +
  `(${limits.maxTemplates}) templates are held, lines past them counted in other_lines.`;

/**
 * Registers `log_patterns` on `server`.
 *
 * @param server The MCP server.
 * @param deps Limits and the dispatcher.
 * @returns The registered tool (`server/tool_list.ts` lists it).
 */
export function registerLogPatternsTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  return server.registerTool(
    "log_patterns",
    {
      title: "Line templates",
      description: "Templates (<*> variable) of a log's or glob's lines, exact counts, most frequent " +
        `or most changed vs a baseline; stops after ${deps.limits.patternsMs} ms (next_cursor).`,
      inputSchema,
      outputSchema: outputSchema.shape,
      annotations: READ_ONLY,
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
  /**
   * Per side: whether a page read any of it (`begun`), and whether a note (a damaged log, a log not read,
   * lines without times) keeps it from being read in full whatever later pages read (`flawed`). A template's
   * change is given only when both sides were read in full (issue #22).
   */
  sides: Record<Phase, SideMarks>;
}

/** What the pages so far did to one side (see {@linkcode CallState.sides}). */
interface SideMarks {
  begun: boolean;
  flawed: boolean;
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
  const clock = ctx.clock ?? (() => performance.now());
  const deadline = clock() + ctx.limits.patternsMs;
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
  const { run, state } = begin(ctx, args, query("call"));
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
      clock,
    }, call);
    note(state, windowPage, span, startCursor !== undefined, args.file, "window");
    if (stopped(windowPage)) stop = { cursor: windowPage.next_cursor, progress: windowPage.progress };
    else if (hasBaseline) run.endWindow();
  }
  if (stop === null && hasBaseline && run.phase === "baseline") {
    const resumedBase = windowPage === null ? startCursor : undefined;
    if (windowPage !== null && clock() >= deadline) {
      stop = { cursor: "", progress: true }; // the baseline is not begun: the next page begins it
    } else {
      basePage = await minePhase(ctx, run, run.baseline, {
        file: args.baseline_file ?? args.file,
        span: baseSpan,
        level,
        query: query("baseline"),
        cursor: resumedBase,
        deadline,
        clock,
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
        // Two lines: the call's state, then MiningRun.save's JSON as it is (kept as a string inside the
        // state's JSON it was escaped again: a third copy of several MB at the end of a stopped call).
        const sid = ctx.artifacts.writeState("log_patterns", [JSON.stringify(saved), run.save()]);
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

/**
 * The call's mining and state: those its cursor names, or new ones with the windows resolved now.
 *
 * @throws {ToolError} `invalid_cursor` (another query's, or altered), `artifact_not_found`, `invalid_time`.
 */
function begin(ctx: ToolContext, args: ToolArgs, q: string): { run: MiningRun; state: CallState } {
  const zone = ctx.limits.tz;
  if (args.cursor !== undefined) {
    const got = resumed(ctx, args.cursor);
    if (got.state.q !== q) {
      throw new ToolError(
        "invalid_cursor",
        "the cursor belongs to another query: use the same file, since, until, level and baseline",
      );
    }
    return got;
  }
  const span = resolveSpan(args, zone, undefined);
  const baseSpan = args.baseline_since !== undefined || args.baseline_until !== undefined
    ? resolveSpan({ since: args.baseline_since, until: args.baseline_until }, zone, undefined)
    : undefined;
  const state: CallState = {
    q,
    covered: { window: null, baseline: null },
    damage: null,
    spans: { window: saveSpan(span), baseline: saveSpan(baseSpan) },
    cursor: "",
    notes: [],
    unnumbered: [],
    sides: { window: { begun: false, flawed: false }, baseline: { begun: false, flawed: false } },
  };
  return { run: new MiningRun(ctx.limits.maxTemplates), state };
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
    // The call's state on the first line, MiningRun.save's text on the second.
    const cut = text.indexOf("\n");
    if (cut < 0) throw new TypeError("the saved state holds no mining");
    const st = JSON.parse(text.slice(0, cut)) as CallState;
    const run = MiningRun.load(text.slice(cut + 1), ctx.limits.maxTemplates);
    if (
      typeof st !== "object" || st === null || typeof st.cursor !== "string" ||
      st.cursor !== cursor.slice(tilde + 1) || !Array.isArray(st.notes) || !Array.isArray(st.unnumbered) ||
      typeof st.q !== "string" || typeof st.covered !== "object" ||
      st.covered === null || !marks(st.sides?.window) || !marks(st.sides?.baseline)
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

/** True when `m` is a saved {@linkcode SideMarks}. */
function marks(m: unknown): boolean {
  const o = m as SideMarks | null | undefined;
  return typeof o === "object" && o !== null && typeof o.begun === "boolean" && typeof o.flawed === "boolean";
}

/**
 * Records on the state why a phase's pages cannot give a complete answer, and its unnumbered logs; marks
 * the side begun (the page read something) and flawed (a note was recorded for it).
 */
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
  const notesBefore = state.notes.length;
  if (page.progress && runs.length > 0) state.sides[side].begun = true;
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
  if (state.notes.length > notesBefore) state.sides[side].flawed = true;
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

/** How a side's length is measured (see {@linkcode hours}). */
export interface Cover {
  /** Its length, or null when under a second or not known (no timestamp). */
  hours: number | null;
  /** Where it begins (epoch ms), and why: its window's `since`, or the first timestamp its logs hold. */
  from: number;
  fromIs: "since" | "first_line";
  /** Where it ends: its window's `until`, now (an `until` past now, or none), or its logs' last timestamp. */
  to: number;
  toIs: "until" | "now" | "last_line";
}

/**
 * A side's length in hours: from its window's `since`, or from the first timestamp its logs hold when that
 * is later (a log that began inside the window), to its `until` capped at now (no `until`: now, as a side
 * with one runs to it — a quiet log's last line is not its end; issue #24: a window cut at its last line
 * against a baseline's full hour read a ratio of 1.29 as ×1.563); without a window, its first to its last timestamp. Null when that is under a second or not known (no
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
  return coverOf(span, earliest, latest, now).hours;
}

/**
 * A side's {@linkcode Cover}: its length as {@linkcode hours} measures it, and where it begins and ends.
 *
 * @param span The side's window, if any.
 * @param earliest The first timestamp the side's logs hold, epoch ms (NaN: none).
 * @param latest The last one.
 * @param now Now, epoch ms.
 */
export function coverOf(span: TimeSpan | undefined, earliest: number, latest: number, now: number): Cover {
  const since = span?.since ?? -Infinity;
  // No timestamp (NaN): the length is not known.
  const from = Math.max(since, earliest);
  const fromIs = earliest > since ? "first_line" : "since";
  const end = span ? span.until : latest;
  const to = Math.min(end, now);
  const toIs = end > now ? "now" : span ? "until" : "last_line";
  // All of it within a second (or no timestamp): not known.
  return { hours: to - from >= 1000 ? (to - from) / 3_600_000 : null, from, fromIs, to, toIs };
}

/**
 * A line saying how each side's length was measured, when they differ by more than 1% (rates are per
 * hour of each side, so the shorter one's reason matters), else "".
 */
function lengthsNote(w: Cover, b: Cover, zone: string): string {
  if (
    w.hours === null || b.hours === null || Math.abs(w.hours - b.hours) <= 0.01 * Math.max(w.hours, b.hours)
  ) {
    return "";
  }
  const of = (c: Cover) => {
    const from = c.fromIs === "since" ? "its since" : "its logs' first line";
    const to = c.toIs === "until" ? "its until" : c.toIs === "now" ? "now" : "its last line";
    const [f, t] = [formatInstant(c.from, zone), formatInstant(c.to, zone)];
    return `${Math.round(c.hours! * 1000) / 1000} h, from ${from} (${f}) to ${to} (${t})`;
  };
  const shorter = w.hours < b.hours ? "window" : "baseline";
  return `\nThe sides differ in length (rates are per hour of each; the ${shorter} is shorter): the window ` +
    `covers ${of(w)}; the baseline covers ${of(b)}.`;
}

/** How much of a side was read: in full, partly (a budget stopped it, or a note says why), or not at all. */
export type SideRead = z.infer<typeof sideReadSchema>;

/** A side's {@linkcode SideRead}: `ended` when its phase read to its end on some page. */
function sideRead(m: SideMarks, ended: boolean): SideRead {
  return ended && !m.flawed ? "whole" : m.begun ? "partly_read" : "not_read";
}

/** The rows, one per template text: each cluster's window lines and its baseline lines (when `counted`). */
function rowsOf(ctx: ToolContext, run: MiningRun, state: CallState, glob: boolean, counted: boolean): Row[] {
  const at = (t: number) => (t === t ? formatInstant(t, ctx.limits.tz) : null);
  const lineNo = (file: string, n: number) => (state.unnumbered.includes(file) ? null : n);
  const byText = new Map<string, Row & { win?: ClusterStats; last: number }>();
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
        baseline_count: counted ? (b?.count ?? 0) : undefined,
        last: w ? w.lastSeq : 0,
        order: w ? w.firstSeq : Number.MAX_SAFE_INTEGER - size + i,
        win: w,
      });
      continue;
    }
    // Two clusters whose texts are equal are one template.
    row.count += w?.count ?? 0;
    if (counted) row.baseline_count = (row.baseline_count ?? 0) + (b?.count ?? 0);
    if (!w) continue;
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
  return [...byText.values()].map(({ win: _w, last: _l, ...r }) => r);
}

/** Each side's length (hours, null: not known) and how the rates compare. */
interface Rates {
  windowHours: number | null;
  baseHours: number | null;
  basis: "per_hour" | "share_of_lines";
  /** Why the two sides' lengths differ (a line of text), or "". */
  note: string;
}

/**
 * Gives each row its change and rate ratio, and sorts them most changed first (only when both sides were
 * read in full: the caller asks then).
 */
function compareRows(rows: Row[], run: MiningRun, state: CallState, a: AnswerInput, zone: string): Rates {
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
  const now = Date.now();
  const w = coverOf(a.span, we, wl, now), b = coverOf(a.baseSpan, be, bl, now);
  const windowHours = w.hours, baseHours = b.hours;
  const basis = windowHours !== null && baseHours !== null ? "per_hour" : "share_of_lines";
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
  return { windowHours, baseHours, basis, note: basis === "per_hour" ? lengthsNote(w, b, zone) : "" };
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
  // With a baseline: how much of each side was read; a change only when both were read in full.
  const read = a.hasBaseline
    ? {
      window: sideRead(state.sides.window, run.phase === "baseline"),
      baseline: sideRead(state.sides.baseline, run.phase === "baseline" && a.basePage !== null && !a.stopped),
    }
    : null;
  const given = read !== null && read.window === "whole" && read.baseline === "whole";
  const rows = rowsOf(ctx, run, state, glob, read !== null && read.baseline !== "not_read");
  const rates = given ? compareRows(rows, run, state, a, zone) : null;
  // Not compared: the most frequent first (the window's, then the baseline's so far).
  if (!given) {
    rows.sort((x, y) =>
      y.count - x.count || (y.baseline_count ?? 0) - (x.baseline_count ?? 0) || x.order - y.order
    );
  }
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
  const lines = shownRows.map((t) => renderTemplate(t, read?.baseline ?? null, given, glob));
  const time = timeFields(a.span, zone, a.windowPage ? a.windowPage.runs.map((r) => r.page.time) : []);
  // The window's words go in the first line; the notes follow it.
  const header = withWindow(
    renderHeader(args, run, templates.length, inWindow.length, other, complete, stopReason, read),
    time,
  ) +
    (read ? baselineNotes(baseOther, baseLines, complete) : "") +
    (read && !given ? comparisonNote(read, a.next_cursor, a.stopped) : "") + (rates?.note ?? "");
  const wp = a.windowPage;
  const format = wp && !wp.glob && wp.runs.length > 0 ? wp.runs[0].page.log_format : undefined;
  const spilled = spill(
    ctx,
    header + (format === undefined ? "" : renderFormat(format)),
    lines,
    templates,
    a.hasBaseline ? inWindow.length : null,
  );
  const logs = logsOf(wp, args.since !== undefined || args.until !== undefined);
  const baseline = read
    ? baselineField(args, a.baseSpan, zone, baseLines, baseOther, rates?.baseHours ?? null, read)
    : undefined;
  const tail = tailText(a, logs, state.notes);
  return okResult(
    {
      file: args.file,
      templates: shownRows.slice(0, spilled.fit),
      total_lines: run.window.lines,
      distinct_templates: inWindow.length,
      other_lines: other,
      complete,
      stop_reason: complete ? null : stopReason,
      next_cursor: a.next_cursor,
      progress: a.progress,
      scanned_bytes: a.pageBytes,
      log_format: format,
      logs,
      not_read: wp?.glob ? wp.notRead : undefined,
      ...time,
      baseline,
      comparison: read ? { given, window: read.window, baseline: read.baseline } : undefined,
      window_hours: read ? round3(rates?.windowHours) : undefined,
      rate_basis: rates?.basis,
      artifact: spilled.artifact,
    },
    header + (format === undefined ? "" : renderFormat(format)) + "\n\n" +
      lines.slice(0, spilled.fit).join("\n") +
      spilled.note + tail,
  );
}

/** The text's lines about the baseline's lines in no template, or its having none. */
function baselineNotes(other: number, lines: number, complete: boolean): string {
  return (other > 0
    ? `\n${other} baseline line(s) fit no template (LOGPEEK_MAX_TEMPLATES reached): counted in ` +
      "baseline.other_lines, in no template."
    : "") +
    (lines === 0 && complete
      ? "\nThe baseline has no line (its window is outside what the logs hold, or they were rotated away): " +
        "every template reads as new, which says nothing about change."
      : "");
}

/** Hours to three decimals (null: not known). */
const round3 = (h: number | null | undefined) => (h == null ? null : Math.round(h * 1000) / 1000);

/** The answer's `baseline` field. */
function baselineField(
  args: ToolArgs,
  span: TimeSpan | undefined,
  zone: string,
  lines: number,
  other: number,
  hours: number | null,
  read: Record<Phase, SideRead>,
) {
  return {
    file: args.baseline_file ?? args.file,
    window: span
      ? {
        since: Number.isFinite(span.since) ? formatInstant(span.since, zone) : null,
        until: Number.isFinite(span.until) ? formatInstant(span.until, zone) : null,
      }
      : null,
    total_lines: lines,
    other_lines: other,
    hours: round3(hours),
    complete: read.baseline === "whole",
  };
}

/** The text after the templates: each log of a glob, the notes, how to go on (or why not). */
function tailText(a: AnswerInput, logs: ReturnType<typeof logsOf>, notes: string[]): string {
  const perLog = logs
    ? "\nlogs (newest first): " +
      firstLogs(logs, (l) =>
        `${printable(l.file)} ${l.complete ? "complete" : `NOT complete (${l.stop_reason})`}`)
    : "";
  const more = a.next_cursor
    ? `\nTo mine the rest, call log_patterns again with the same arguments and cursor="${a.next_cursor}": ` +
      "its answer covers this page too."
    : "";
  const stuck = !a.progress
    ? "\nThis page mined nothing within LOGPEEK_PATTERNS_MS, so no cursor is given: raise it."
    : a.stateNote
    ? `\n${a.stateNote}.`
    : "";
  return perLog + (notes.length ? "\n" + notes.join("\n") : "") + more + stuck;
}

/**
 * The text's line when no change is given: which side is missing or partly read, and what finishes it.
 *
 * @param read How much of each side was read.
 * @param cursor The answer's next_cursor (null: none).
 * @param stopped True when a budget or a cancel stopped the page.
 */
function comparisonNote(read: Record<Phase, SideRead>, cursor: string | null, stopped: boolean): string {
  const say = (
    r: SideRead,
  ) => (r === "whole" ? "read in full" : r === "partly_read" ? "partly read" : "not read yet");
  const how = cursor !== null
    ? "next_cursor mines the rest, and the answer that completes both compares them"
    : stopped
    ? "no cursor is given (see below)"
    : "no cursor can finish it (see below): narrow file or baseline_file to logs that can be read whole " +
      "(with timestamps, for a window)";
  return `\nNo change is given: a change needs both sides read in full, and the window is ${
    say(read.window)
  }, ` +
    `the baseline ${say(read.baseline)}` +
    (read.baseline === "partly_read" ? " (each baseline_count is its lines so far)" : "") + `; ${how}.`;
}

/**
 * A glob's `logs` field: each log the window's page read, then those it did not reach. With a window, a
 * log read without a timestamp (`time_args.ts` `timeless`) is not complete: none of its lines could be
 * placed in the window (`no_timestamps`), as `log_levels` and `log_search` say of it.
 */
function logsOf(wp: OverLogs<MinePage> | null, windowed: boolean) {
  if (!wp?.glob) return undefined;
  return [
    ...wp.runs.map((x) => {
      const untimed = windowed && timeless(x.page.time, x.page.time ? x.page.last_line : 0);
      return {
        file: x.file,
        complete: x.page.complete && !untimed,
        stop_reason: untimed ? "no_timestamps" as const : x.page.stop_reason as
          | "time_budget"
          | "file_changed"
          | "cancelled"
          | "corrupt_gzip"
          | null,
        scanned_lines: x.page.last_line,
      };
    }),
    ...wp.pending.map((file) => ({
      file,
      complete: false,
      stop_reason: "not_reached" as const,
      scanned_lines: 0,
    })),
  ];
}

/**
 * How many template lines fit in the text, and every template saved in an artifact when not all do.
 *
 * @param inWindow With a baseline, the templates with window lines (to say how many are only in the baseline).
 */
function spill(
  ctx: ToolContext,
  header: string,
  lines: string[],
  templates: Omit<Row, "order">[],
  inWindow: number | null,
): { fit: number; artifact?: { artifact_id: string; total_lines: number }; note: string } {
  // A template fits when its line fits the text and its row the structuredContent (issue #24: rows of
  // 64 KiB examples made a 394,048-character structuredContent beside a text within the limit).
  let room = ctx.limits.inlineChars - header.length - 400;
  let json = ctx.limits.inlineChars - 1000;
  let fit = 0;
  while (fit < lines.length) {
    const j = JSON.stringify(templates[fit]).length + 1;
    if (lines[fit].length + 1 > room || j > json) break;
    room -= lines[fit++].length + 1;
    json -= j;
  }
  if (fit >= templates.length) return { fit, note: "" };
  const shown = `\nShown: ${fit} of ${templates.length} templates`;
  if (!ctx.artifacts) {
    return {
      fit,
      note:
        `${shown}; the rest could not be saved (${ctx.artifactsOff}): raise limit, or narrow the window or level.`,
    };
  }
  try {
    const artifact = ctx.artifacts.write("log_patterns", templates.values().map((t) => JSON.stringify(t)));
    const split = inWindow !== null
      ? ` (${inWindow} in the window, ${templates.length - inWindow} only in the baseline)`
      : "";
    return {
      fit,
      artifact,
      note: `${shown}${split}. All ${templates.length} are saved, one JSON object a line in this order: ` +
        `read_artifact(artifact_id="${artifact.artifact_id}", offset=${fit}, limit=200).`,
    };
  } catch (e) {
    return {
      fit,
      note: `${shown}; the rest could not be saved (${
        e instanceof Error ? e.message : e
      }): raise limit, or narrow the window or level.`,
    };
  }
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

/**
 * One template as a line of text: with a baseline, its change (when `given`), else its baseline count as
 * read so far (none when the baseline is not read yet).
 */
function renderTemplate(t: Omit<Row, "order">, base: SideRead | null, given: boolean, glob: boolean): string {
  const levels = Object.entries(t.levels).map(([k, v]) => `${k} ${v}`).join(", ");
  const change = given
    ? ` [${t.change}${t.rate_ratio != null ? ` ×${t.rate_ratio}` : ""}; baseline ${t.baseline_count}]`
    : base === "whole"
    ? ` [baseline ${t.baseline_count}]`
    : base === "partly_read"
    ? ` [baseline ${t.baseline_count} so far]`
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
  read: Record<Phase, SideRead> | null,
): string {
  const what =
    `${printable(args.file)}${args.level ? ` (${args.level} lines)` : ""}: ${
      plural(run.window.lines, "line")
    } as ${plural(distinct, "template")}` +
    (other > 0 ? `, ${other} in no template (LOGPEEK_MAX_TEMPLATES reached)` : "");
  const baseName = `; baseline ${printable(args.baseline_file ?? args.file)}: `;
  const base = read === null
    ? ""
    : read.baseline === "not_read"
    ? `${baseName}not read yet`
    : `${baseName}${plural(run.baseline.lines + run.variants.lines, "line")}` +
      `${read.baseline === "whole" ? "" : " so far"}, ${all - distinct} template(s) only there`;
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
