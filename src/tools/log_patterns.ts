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
import { formatInstant } from "../read/instant.ts";
import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import { refuseLacking } from "../source/backend.ts";
import type {
  Cover,
  PatternsAnswer,
  PatternsNote,
  PatternsQuery,
  PatternsSide,
  PatternTemplate,
  SideRead,
} from "../source/patterns_query.ts";
import { firstLogs, notReadNote } from "./log_list_words.ts";
import { SEEK_BROKEN, timeFieldsSchema, timelessNote, windowArgs, withWindow } from "./time_args.ts";
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

/**
 * Runs `log_patterns` (in the tool worker, where log files are read): the arguments as one query to the
 * backend, the state of a stopped call kept in the artifact store (its id begins the cursor:
 * `<state id>~<the backend's cursor>`), the answer rendered.
 *
 * @param ctx The backend, limits, artifacts.
 * @param args The validated arguments.
 * @param call Cancellation and progress.
 * @returns The result.
 * @throws {ToolError} for expected failures (the dispatcher turns them into `isError` results):
 *   `invalid_argument` (a backend that does not mine), `invalid_time`, `no_timestamps`,
 *   `invalid_cursor`, `artifact_not_found` (a resumed call's state is gone), and what opening a log throws.
 */
export async function logPatterns(ctx: ToolContext, args: ToolArgs, call?: CallContext): Promise<ToolResult> {
  refuseLacking(ctx.backend, "patterns");
  const hasBaseline = args.baseline_since !== undefined || args.baseline_until !== undefined ||
    args.baseline_file !== undefined;
  const a = await ctx.backend.patterns({
    file: args.file,
    level: args.level,
    window: { since: args.since, until: args.until },
    baseline: hasBaseline
      ? { file: args.baseline_file, window: { since: args.baseline_since, until: args.baseline_until } }
      : undefined,
    resume: resumeOf(ctx, args.cursor),
  }, call);
  return render(ctx, args, a, keep(ctx, a));
}

/**
 * The backend's cursor and the state a cursor names (`<state id>~<the backend's cursor>`), or undefined
 * without a cursor.
 *
 * @throws {ToolError} `invalid_cursor` (not a cursor log_patterns made, or no state store here),
 *   `artifact_not_found` (the state is gone).
 */
function resumeOf(ctx: ToolContext, cursor: string | undefined): PatternsQuery["resume"] {
  if (cursor === undefined) return undefined;
  const tilde = cursor.indexOf("~");
  if (tilde < 1) {
    throw new ToolError(
      "invalid_cursor",
      "the cursor is not one log_patterns made; start again without cursor",
    );
  }
  if (!ctx.artifacts) throw new ToolError("invalid_cursor", `no state can be read here: ${ctx.artifactsOff}`);
  return {
    cursor: cursor.slice(tilde + 1),
    state: ctx.artifacts.readState("log_patterns", cursor.slice(0, tilde)),
  };
}

/** What keeping a stopped call's state gave: the cursor that goes on, or why there is none. */
interface Kept {
  next_cursor: string | null;
  /** Why a page that could go on has no cursor ("" when it has one, or cannot go on). */
  stateNote: string;
}

/** Keeps the state of a page its budget stopped in the artifact store, for the cursor that goes on. */
function keep(ctx: ToolContext, a: PatternsAnswer): Kept {
  if (a.resume === null) return { next_cursor: null, stateNote: "" };
  if (!ctx.artifacts) return { next_cursor: null, stateNote: `no cursor can be given: ${ctx.artifactsOff}` };
  try {
    const sid = ctx.artifacts.writeState("log_patterns", a.resume.state());
    return { next_cursor: `${sid}~${a.resume.cursor}`, stateNote: "" };
  } catch (e) {
    return {
      next_cursor: null,
      stateNote: `the mining state could not be saved (${e instanceof Error ? e.message : e}), so no cursor`,
    };
  }
}

/** The answer: its first lines, the templates that fit, the notes; every template saved when not all fit. */
function render(ctx: ToolContext, args: ToolArgs, a: PatternsAnswer, kept: Kept): ToolResult {
  const read = a.comparison ?? null;
  const shownRows = a.templates.slice(0, args.limit ?? 20);
  const lines = shownRows.map((t) => renderTemplate(t, read?.baseline ?? null, read?.given === true, a.glob));
  const header = headerOf(ctx, args, a, kept);
  const spilled = spill(ctx, header, lines, a.templates, read ? a.distinct_templates : null);
  return okResult(
    {
      file: a.file,
      templates: shownRows.slice(0, spilled.fit),
      total_lines: a.total_lines,
      distinct_templates: a.distinct_templates,
      other_lines: a.other_lines,
      complete: a.complete,
      stop_reason: a.stop_reason,
      next_cursor: kept.next_cursor,
      progress: a.progress,
      scanned_bytes: a.scanned_bytes,
      log_format: a.log_format,
      logs: a.logs,
      not_read: a.not_read,
      ...a.time,
      baseline: a.baseline,
      comparison: a.comparison,
      window_hours: a.window_hours,
      rate_basis: a.rate_basis,
      artifact: spilled.artifact,
    },
    header + "\n\n" + lines.slice(0, spilled.fit).join("\n") + spilled.note + tailText(a, kept),
  );
}

/** The text before the templates: the first line (with the window's words), the baseline's notes, the format. */
function headerOf(ctx: ToolContext, args: ToolArgs, a: PatternsAnswer, kept: Kept): string {
  const read = a.comparison;
  const b = a.baseline;
  return withWindow(renderHeader(a, args.level), a.time) +
    (b ? baselineNotes(b.other_lines, b.total_lines, a.complete) : "") +
    (read && !read.given ? comparisonNote(read, kept.next_cursor, a.stopped) : "") +
    (a.covers ? lengthsNote(a.covers.window, a.covers.baseline, ctx.limits.tz) : "") +
    (a.log_format === undefined ? "" : renderFormat(a.log_format));
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

/** The text after the templates: each log of a glob, the notes, how to go on (or why not). */
function tailText(a: PatternsAnswer, kept: Kept): string {
  const perLog = a.logs
    ? "\nlogs (newest first): " +
      firstLogs(a.logs, (l) =>
        `${printable(l.file)} ${l.complete ? "complete" : `NOT complete (${l.stop_reason})`}`)
    : "";
  const more = kept.next_cursor
    ? `\nTo mine the rest, call log_patterns again with the same arguments and cursor="${kept.next_cursor}": ` +
      "its answer covers this page too."
    : "";
  const stuck = !a.progress
    ? "\nThis page mined nothing within LOGPEEK_PATTERNS_MS, so no cursor is given: raise it."
    : kept.stateNote
    ? `\n${kept.stateNote}.`
    : "";
  return perLog + (a.notes.length ? "\n" + a.notes.map(renderNote).join("\n") : "") + more + stuck;
}

/** A note of the answer as a line of text (a baseline's prefixed `baseline: `). */
function renderNote(n: PatternsNote): string {
  const prefix = n.side === "baseline" ? "baseline: " : "";
  switch (n.kind) {
    case "no_timestamps":
      return prefix + timelessNote(n.files).trim();
    case "seek_broken":
      return prefix + SEEK_BROKEN.trim();
    case "not_read":
      return prefix + notReadNote(n.entries, n.count).trim();
    case "damaged":
      return `${prefix}${printable(n.file)}: ${renderStop(n.stop_reason, n.lines, "")}`;
  }
}

/**
 * The text's line when no change is given: which side is missing or partly read, and what finishes it.
 *
 * @param read How much of each side was read.
 * @param cursor The answer's next_cursor (null: none).
 * @param stopped True when a budget or a cancel stopped the page.
 */
function comparisonNote(
  read: Record<PatternsSide, SideRead>,
  cursor: string | null,
  stopped: boolean,
): string {
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
 * How many template lines fit in the text, and every template saved in an artifact when not all do.
 *
 * @param inWindow With a baseline, the templates with window lines (to say how many are only in the baseline).
 */
function spill(
  ctx: ToolContext,
  header: string,
  lines: string[],
  templates: PatternTemplate[],
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

/**
 * One template as a line of text: with a baseline, its change (when `given`), else its baseline count as
 * read so far (none when the baseline is not read yet).
 */
function renderTemplate(t: PatternTemplate, base: SideRead | null, given: boolean, glob: boolean): string {
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
function renderHeader(a: PatternsAnswer, level: string | undefined): string {
  const what =
    `${printable(a.file)}${level ? ` (${level} lines)` : ""}: ${plural(a.total_lines, "line")} as ${
      plural(a.distinct_templates, "template")
    }` + (a.other_lines > 0 ? `, ${a.other_lines} in no template (LOGPEEK_MAX_TEMPLATES reached)` : "");
  const read = a.comparison, b = a.baseline;
  const baseName = `; baseline ${printable(b?.file ?? a.file)}: `;
  const base = !read || !b
    ? ""
    : read.baseline === "not_read"
    ? `${baseName}not read yet`
    : `${baseName}${plural(b.total_lines, "line")}` +
      `${read.baseline === "whole" ? "" : " so far"}, ${
        a.templates.length - a.distinct_templates
      } template(s) only there`;
  const status = a.complete
    ? "complete: every line asked for was mined."
    : a.stop_reason !== null
    ? renderStop(a.stop_reason, a.total_lines + (b?.total_lines ?? 0), "LOGPEEK_PATTERNS_MS") +
      "; the counts cover only the lines mined."
    : "NOT complete: see below.";
  return `${what}${base}. ${status}`;
}
