/**
 * `log_levels`: how many lines of each level a log has.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Limits } from "../core/config.ts";
import { fileArg, strictArgs } from "./args.ts";
import { LEVELS } from "../read/level.ts";
import { STATUS_RULE } from "../read/http_status.ts";
import type { LevelsAnswer } from "../source/backend.ts";
import type { LevelCounts, LevelsLog } from "../source/levels_query.ts";
import { firstLogs, notReadNote } from "./log_list_words.ts";
import { SEEK_BROKEN, timeFieldsSchema, timelessNote, windowArgs, withWindow } from "./time_args.ts";
import { printable } from "../guard/printable.ts";
import { okResult, type ToolResult } from "./outcome.ts";
import {
  type CallContext,
  callContext,
  READ_ONLY,
  type RequestExtra,
  type ToolContext,
  type ToolDeps,
} from "./deps.ts";
import { logFormatSchema, renderFormat, renderStop } from "./render.ts";

const inputSchema = strictArgs("log_levels", {
  file: fileArg(true).describe("from log_files or a glob").meta({
    details: "the log, as log_files lists it; or a glob over those names (*.log, **/app*.log*): every " +
      "matching log is counted, newest first, under one budget",
  }),
  cursor: z.string().max(2000).optional().meta({
    details: "next_cursor from an incomplete answer: counts the rest, from exactly where it stopped",
  }),
  ...windowArgs,
});

const countsSchema = z.object(Object.fromEntries(LEVELS.map((l) => [l, z.number().int()])) as Record<
  (typeof LEVELS)[number],
  z.ZodNumber
>);

const outputSchema = z.object({
  file: z.string(),
  counts: countsSchema.describe(
    "lines per level; UNKNOWN: lines with no level (with a window: lines in it). A continuation line (a stack " +
      "frame, `Caused by:`, an indented line, a line without its entry's header) is counted under its entry's level",
  ),
  entries: countsSchema.describe(
    "entries (log messages) per level: the lines counts has, less the continuation lines (counts is what " +
      "the level filter of log_tail and log_search selects)",
  ),
  continuation_lines: z.number().int().describe(
    "lines that continue the entry before them (counted in counts under its level, not in entries)",
  ),
  unscaled_levels: z.number().int().describe(
    "lines counted as UNKNOWN because their level field holds a number on no scale the line names " +
      '(pino/bunyan 10-60 in level, syslog 0-7 in PRIORITY, OpenTelemetry 1-24 in severityNumber): e.g. {"level":1}',
  ),
  derived_levels: countsSchema.optional().describe(
    "an access log's lines by the level DERIVED from each line's HTTP status (UNKNOWN: a line with none), " +
      "not written in its lines (counts keeps those: UNKNOWN); present only when the log's first lines carry " +
      "a status (common/combined log format, W3C sc-status, a JSON status field, HAProxy, Envoy, Traefik, uWSGI)",
  ),
  derived_from: z.string().optional().describe(
    `with derived_levels, what they are derived from and how: "http_status: ${STATUS_RULE}"`,
  ),
  total_lines: z.number().int().describe("lines counted in this answer (a page, when resumed)"),
  last_line: z.number().int().nullable().describe(
    "the number of the last line read, from the file's start (null when not known: after a time seek, or over many logs)",
  ),
  next_cursor: z.string().nullable().describe("pass as cursor to count the rest"),
  progress: z.boolean().describe(
    "false when this page counted nothing within its budget (then there is no cursor: calling again would not help)",
  ),
  scanned_bytes: z.number().int().describe("bytes read by this call (probes of a time seek included)"),
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
    ])
      .nullable().describe(
        "not_reached: the call stopped before this log (the cursor reads it); no_timestamps: read, but none of " +
          "its lines has a timestamp, so none could be placed in the window",
      ),
    scanned_lines: z.number().int(),
    counts: countsSchema.optional(),
    entries: countsSchema.optional(),
  })).optional().describe("a call over a glob: each matching log, in the order read (newest first)"),
  not_read: z.array(z.string()).optional().describe(
    "a call over a glob: matching entries no page reads, each 'name: why' (the first 20): not complete",
  ),
  ...timeFieldsSchema,
  complete: z.boolean().describe("every line of the file was counted"),
  stop_reason: z.enum(["time_budget", "file_changed", "cancelled", "corrupt_gzip"]).nullable().describe(
    "why not complete",
  ),
});

/** The levels counted, as `INFO 3 (2 entries), WARN 1`, or `none` (entries only where they differ). */
function levelList(counts: LevelCounts, entries?: LevelCounts): string {
  return LEVELS.filter((l) => counts[l] > 0).map((l) =>
    `${l} ${counts[l]}` +
    (entries && entries[l] !== counts[l] ? ` (${entries[l]} ${entries[l] === 1 ? "entry" : "entries"})` : "")
  ).join(", ") || "none";
}

/** What the counts cover: the backend's own words, else what `complete` and `stop_reason` say. */
function renderCoverage(a: LevelsAnswer): string {
  if (a.stop_words !== undefined) return `${a.stop_words}.`;
  if (a.complete) return `complete: every ${a.unit}${a.time.window ? " in the window" : ""} was counted.`;
  if (a.stop_reason === null) {
    return "NOT complete: some matching logs were not read, or their lines could not be placed in the window " +
      "(see below).";
  }
  return renderStop(a.stop_reason, a.total_lines, "LOGPEEK_LEVELS_MS") +
    "; these counts cover only the lines before that point.";
}

/**
 * The first line of a `log_levels` text: the counts per level (entries where they differ), the levels at
 * 0, how the levels were told (the backend's `scope`), continuation lines, unscaled and derived levels,
 * and what the counts cover.
 *
 * @param a The counts a backend gave.
 * @returns The sentence (its window words added by `withWindow`).
 */
export function renderLevels(a: LevelsAnswer): string {
  const zero = LEVELS.filter((l) => a.counts[l] === 0);
  const cont = a.continuation_lines
    ? `; ${a.continuation_lines} of the lines continue the entry before them (stack traces, indented lines) ` +
      "and are counted under its level"
    : "";
  const unscaled = a.unscaled_levels
    ? `; ${a.unscaled_levels} UNKNOWN line(s) hold a numeric level on a scale logpeek cannot tell ` +
      '(such as {"level":1}: info on one scale, alert on another), so it was not read'
    : "";
  const d = a.derived;
  const derived = d
    ? `. Derived from the HTTP status (${STATUS_RULE}), not written in the lines: ${d.lines} line(s) have a ` +
      `status: ${
        LEVELS.filter((l) => l !== "UNKNOWN" && d.counts[l] > 0).map((l) => `${l} ${d.counts[l]}`).join(
          ", ",
        ) || "none"
      }` +
      " (derived_levels)"
    : "";
  return `${printable(a.file)}: ${a.total_lines} ${a.unit}(s): ${levelList(a.counts, a.entries)}` +
    (zero.length ? `; 0 of ${zero.join(", ")}` : "") + (a.scope ? ` (${a.scope})` : "") + cont + unscaled +
    derived + ". " + renderCoverage(a);
}

/** One log of a call over a glob, as the per-log list names it. */
function renderLog(l: LevelsLog): string {
  return `${printable(l.file)} ${l.complete ? "complete" : `NOT complete (${l.stop_reason})`}` +
    (l.log_format ? ` [${l.log_format}]` : "") + (l.counts ? `: ${levelList(l.counts)}` : "");
}

/** The notes after the first line: each log's counts, what was not read or placed, how to go on. */
function renderNotes(a: LevelsAnswer): string {
  return (a.log_format !== undefined ? renderFormat(a.log_format) : "") +
    (a.logs ? `\nlogs (${a.logs_order}): ` + firstLogs(a.logs, renderLog) : "") +
    notReadNote(a.not_read ?? [], a.not_read_count) + timelessNote(a.untimed_logs) +
    (a.next_cursor
      ? `\nTo count the rest, call log_levels again with the same arguments and cursor="${a.next_cursor}"; add the pages' counts up.`
      : "") +
    (!a.progress
      ? "\nThis page counted nothing within LOGPEEK_LEVELS_MS, so no cursor is given: calling again would not help; raise it."
      : "") +
    (a.seek_broken ? SEEK_BROKEN : "");
}

/**
 * What `log_levels` does, in full (`docs/tool_schemas.md`; the listed description is short).
 *
 * @param limits The limits it quotes.
 * @returns The text.
 */
export const toolDocs = (limits: Readonly<Limits>): string =>
  "Counts every line of a log (or of every log a glob matches, newest first) by level (TRACE DEBUG " +
  "INFO NOTICE WARN ERROR FATAL, UNKNOWN for lines with none), optionally only the lines in a time " +
  "window (since/until, by each line's timestamp), in one pass whose time grows with the bytes read. " +
  `Stops after LOGPEEK_LEVELS_MS ms (${limits.levelsMs}) with complete false, the counts so far, ` +
  "and a next_cursor to count the rest. An access log's lines (no level written: UNKNOWN) are also counted " +
  "by the level their HTTP status gives (derived_levels, derived_from: 5xx ERROR, 4xx WARN, 1xx-3xx INFO), " +
  "apart. Reads .gz logs through decompression. Over a ClickHouse root (a " +
  "table), each source is a log TABLE/SOURCE and each row a line TIME LEVEL BODY (line_no null); the " +
  "stored level texts are counted on the server and folded.";

/**
 * Registers `log_levels` on `server`.
 *
 * @param server The MCP server.
 * @param deps Limits and the dispatcher.
 * @returns The registered tool (`server/tool_list.ts` lists it).
 */
export function registerLogLevelsTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  return server.registerTool(
    "log_levels",
    {
      title: "Count levels",
      description: "Lines per level of a log or glob (stack traces under their entry); " +
        `stops after ${deps.limits.levelsMs} ms (next_cursor).`,
      inputSchema,
      outputSchema: outputSchema.shape,
      annotations: READ_ONLY,
    },
    (args: ToolArgs, extra: RequestExtra) => deps.dispatch("log_levels", args, callContext(extra)),
  );
}

/** The validated arguments of `log_levels`. */
export type ToolArgs = z.infer<typeof inputSchema>;

/**
 * Runs `log_levels` (in the tool worker, where log files are read): asks the backend for the counts and
 * renders them.
 *
 * @param ctx The backend, limits.
 * @param args The validated arguments.
 * @param call The client's cancellation and progress.
 * @returns The result.
 * @throws {ToolError} for expected failures (the dispatcher turns them into `isError` results).
 */
export async function logLevels(ctx: ToolContext, args: ToolArgs, call?: CallContext): Promise<ToolResult> {
  const a = await ctx.backend.levels({
    file: args.file,
    cursor: args.cursor,
    window: { since: args.since, until: args.until },
  }, call);
  const {
    time,
    unit: _unit,
    scope: _scope,
    stop_words: _stopWords,
    logs_order: _order,
    not_read_count: _notReadCount,
    untimed_logs: _untimed,
    seek_broken: _seekBroken,
    derived,
    logs,
    ...fields
  } = a;
  return okResult(
    {
      ...fields,
      ...(derived ? { derived_levels: derived.counts, derived_from: `http_status: ${STATUS_RULE}` } : {}),
      logs: logs?.map(({ log_format: _, ...l }) => l), // each log's format is in the text only (tools/list's size)
      ...time,
    },
    withWindow(renderLevels(a), time) + renderNotes(a),
  );
}
