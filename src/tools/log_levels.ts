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
import { tableLevels } from "./table_calls.ts";
import { countLevels, type LevelsResult } from "../read/count_levels.ts";
import { LEVELS } from "../read/level.ts";
import { STATUS_RULE } from "../read/http_status.ts";
import { queryHash, readCursor } from "../read/cursor.ts";
import { isGlob } from "../source/log_source.ts";
import { overLogs } from "../source/local/many_logs.ts";
import { firstLogs, notReadNote } from "./log_list_words.ts";
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
import { windowFor } from "./time_args.ts";
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

/** Renders level counts for the model. */
export function renderLevels(file: string, r: LevelsResult): string {
  const nonzero = LEVELS.filter((l) => r.counts[l] > 0).map((l) =>
    `${l} ${r.counts[l]}` +
    (r.entries[l] !== r.counts[l] ? ` (${r.entries[l]} ${r.entries[l] === 1 ? "entry" : "entries"})` : "")
  );
  const zero = LEVELS.filter((l) => r.counts[l] === 0);
  const cont = r.continuation_lines
    ? `; ${r.continuation_lines} of the lines continue the entry before them (stack traces, indented lines) ` +
      "and are counted under its level"
    : "";
  const unscaled = r.unscaled_levels
    ? `; ${r.unscaled_levels} UNKNOWN line(s) hold a numeric level on a scale logpeek cannot tell ` +
      '(such as {"level":1}: info on one scale, alert on another), so it was not read'
    : "";
  const d = r.derived;
  const derived = d
    ? `. Derived from the HTTP status (${STATUS_RULE}), not written in the lines: ${d.lines} line(s) have a ` +
      `status: ${
        LEVELS.filter((l) => l !== "UNKNOWN" && d.counts[l] > 0).map((l) => `${l} ${d.counts[l]}`).join(
          ", ",
        ) || "none"
      }` +
      " (derived_levels)"
    : "";
  return `${printable(file)}: ${r.total_lines} line(s): ${nonzero.join(", ") || "none"}` +
    (zero.length ? `; 0 of ${zero.join(", ")}` : "") + cont + unscaled + derived + `. ` +
    (r.complete
      ? "complete: every line was counted."
      : renderStop(r.stop_reason, r.total_lines, "LOGPEEK_LEVELS_MS") +
        "; these counts cover only the lines before that point.");
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
 * Runs `log_levels` (in the tool worker, where log files are read).
 *
 * @param ctx The log source, limits, artifacts, redaction.
 * @param args The validated arguments.
 * @returns The result.
 * @throws {ToolError} for expected failures (the dispatcher turns them into `isError` results).
 */
export async function logLevels(ctx: ToolContext, args: ToolArgs, call?: CallContext): Promise<ToolResult> {
  if (ctx.source.table) return await tableLevels(ctx, ctx.source.table, args, call);
  const deadline = performance.now() + ctx.limits.levelsMs;
  const windowed = args.since !== undefined || args.until !== undefined;
  const query = windowed || isGlob(args.file)
    ? queryHash({ since: args.since, until: args.until, file: isGlob(args.file) ? args.file : undefined })
    : "";
  const zone = ctx.limits.tz;
  const first = args.cursor !== undefined
    ? readCursor(args.cursor, { k: "log_levels", q: query }, ctx.cursorKey)
    : undefined;
  const span = resolveSpan(args, zone, first);
  const many = await overLogs<LevelsResult>(ctx, {
    tool: "log_levels",
    file: args.file,
    query,
    cursor: args.cursor,
    bytes: Infinity,
    deadline,
    span,
  }, (log, resume) =>
    countLevels(log, {
      ...ctx.limits,
      deadline,
      resume,
      window: span ? windowFor(span, log, zone, resume) : undefined,
      signal: call?.signal,
      onProgress: call?.progress,
    }));
  const runs = many.runs;
  const read = runs.reduce((n, r) => n + (r.page.time ? r.page.last_line : r.page.total_lines), 0);
  if (args.cursor === undefined) requireTimestamps(span, runs.map((r) => r.page.time), read, args.file);
  const untimed = timelessLogs(
    span,
    many.glob,
    runs.map((x) => ({ file: x.file, time: x.page.time, lines: x.page.time ? x.page.last_line : 0 })),
    args.cursor !== undefined,
  );
  const counts = Object.fromEntries(
    LEVELS.map((l) => [l, runs.reduce((n, r) => n + r.page.counts[l], 0)]),
  ) as LevelsResult["counts"];
  const entries = Object.fromEntries(
    LEVELS.map((l) => [l, runs.reduce((n, r) => n + r.page.entries[l], 0)]),
  ) as LevelsResult["entries"];
  const last = runs[runs.length - 1].page;
  const known = !many.glob && (last.time?.lineKnown ?? true);
  const withStatus = runs.filter((x) => x.page.derived);
  const derived: LevelsResult["derived"] = withStatus.length
    ? {
      counts: Object.fromEntries(
        LEVELS.map((l) => [l, withStatus.reduce((n, x) => n + x.page.derived!.counts[l], 0)]),
      ) as LevelsResult["counts"],
      lines: withStatus.reduce((n, x) => n + x.page.derived!.lines, 0),
    }
    : undefined;
  const r: LevelsResult = {
    counts,
    entries,
    continuation_lines: runs.reduce((n, x) => n + x.page.continuation_lines, 0),
    unscaled_levels: runs.reduce((n, x) => n + x.page.unscaled_levels, 0),
    total_lines: runs.reduce((n, x) => n + x.page.total_lines, 0),
    log_format: runs[0].page.log_format,
    last_line: last.last_line,
    complete: many.complete && !seekBroken(runs.map((x) => x.page.time)) && untimed.length === 0,
    stop_reason: many.complete ? null : last.stop_reason,
    next: null,
    stuck: !many.progress,
    scanned_bytes: runs.reduce((n, x) => n + x.page.scanned_bytes, 0),
    derived,
  };
  const time = timeFields(span, zone, runs.map((x) => x.page.time));
  const logs = many.glob
    ? [
      ...runs.map((x) => ({
        file: x.file,
        complete: x.page.complete && !untimed.includes(x.file),
        stop_reason: untimed.includes(x.file) ? "no_timestamps" as const : x.page.stop_reason as
          | "time_budget"
          | "file_changed"
          | "cancelled"
          | "corrupt_gzip"
          | null,
        scanned_lines: x.page.last_line,
        format: x.page.log_format,
        counts: x.page.counts,
        entries: x.page.entries,
      })),
      ...many.pending.map((file) => ({
        file,
        complete: false,
        stop_reason: "not_reached" as const,
        scanned_lines: 0,
        format: undefined as string | null | undefined,
        counts: undefined,
        entries: undefined,
      })),
    ]
    : undefined;
  const shownFile = many.glob ? args.file : runs[0].file;
  const next_cursor = many.next_cursor;
  const more = next_cursor
    ? `\nTo count the rest, call log_levels again with the same arguments and cursor="${next_cursor}"; add the pages' counts up.`
    : "";
  const stuck = !many.progress
    ? "\nThis page counted nothing within LOGPEEK_LEVELS_MS, so no cursor is given: calling again would not help; raise it."
    : "";
  const perLog = logs
    ? "\nlogs (newest first): " +
      firstLogs(logs, (l) =>
        `${printable(l.file)} ${l.complete ? "complete" : `NOT complete (${l.stop_reason})`}` +
        (l.format ? ` [${l.format}]` : "") +
        (l.counts
          ? `: ${
            LEVELS.filter((v) =>
              l.counts![v] > 0
            ).map((v) => `${v} ${l.counts![v]}`).join(", ") || "none"
          }`
          : ""))
    : "";
  return okResult(
    {
      file: shownFile,
      ...r,
      last_line: known ? r.last_line : null,
      derived: undefined,
      derived_levels: derived?.counts,
      derived_from: derived ? `http_status: ${STATUS_RULE}` : undefined,
      next: undefined,
      stuck: undefined,
      log_format: many.glob ? undefined : r.log_format,
      next_cursor,
      progress: many.progress,
      logs: logs?.map(({ format: _, ...l }) => l), // each log's format is in the text only (tools/list's size)
      not_read: many.glob ? many.notRead : undefined,
      ...time,
    },
    withWindow(
      span && r.complete
        ? renderLevels(shownFile, r).replace("every line was counted", "every line in the window was counted")
        : !r.complete && r.stop_reason === null
        ? renderLevels(shownFile, { ...r, complete: true }).replace(
          /complete: every line was counted\.$/,
          "NOT complete: some matching logs were not read, or their lines could not be placed in the window " +
            "(see below).",
        )
        : renderLevels(shownFile, r),
      time,
    ) + (many.glob ? "" : renderFormat(r.log_format)) + perLog +
      notReadNote(many.notRead, many.notReadCount) + timelessNote(untimed) + more + stuck +
      (seekBroken(runs.map((x) => x.page.time)) ? SEEK_BROKEN : ""),
  );
}
