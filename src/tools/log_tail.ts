/**
 * `log_tail`: the last lines of a log.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { fileArg, levelArg, strictArgs, wholeNumber } from "./args.ts";
import { tableTail } from "./table_calls.ts";
import { type Level } from "../read/level.ts";
import { printable } from "../guard/printable.ts";
import { logLineSchema } from "../read/log_line.ts";
import { okResult, type ToolResult } from "./outcome.ts";
import { tailLog, type TailResult } from "../read/tail.ts";
import {
  type CallContext,
  callContext,
  READ_ONLY,
  type RequestExtra,
  type ToolContext,
  type ToolDeps,
} from "./deps.ts";
import { logFormatSchema, renderFormat, renderLine, unresolvedNote } from "./render.ts";
import type { Limits } from "../core/config.ts";
import {
  requireTimestamps,
  resolveSpan,
  timeFields,
  timeFieldsSchema,
  windowArgs,
  windowFor,
  withWindow,
} from "./time_args.ts";
import { artifactSchema, spill, spillSummarySchema } from "./spill.ts";

const inputSchema = strictArgs("log_tail", {
  file: fileArg(false).describe("from log_files"),
  lines: wholeNumber(
    "lines",
    1,
    200,
    'for more, log_search (text="^", regex=true: every line; since/until for a window) pages through any number of lines with next_cursor',
  ).default(20).meta({ details: "how many lines at most (1..200)" }),
  level: levelArg.optional().meta({ details: "keep only lines of this level" }),
  ...windowArgs,
});

const outputSchema = z.object({
  file: z.string(),
  lines: z.array(logLineSchema),
  whole_file: z.boolean().describe("the window covered the whole file: only then are line numbers known"),
  dropped_partial: z.boolean().describe("the window began inside a line; that fragment was dropped"),
  replaced_bytes: z.number().int().describe("invalid UTF-8 bytes replaced by U+FFFD in the returned lines"),
  redactions: z.number().int().describe("secrets masked in the returned lines"),
  scanned_bytes: z.number().int().describe("bytes read (probes of a time seek included)"),
  unplaced_lines: z.number().int().optional().describe(
    "with a window: lines at the tail window's start with no timestamp of their own whose time is not known " +
      "(the timestamped line before them lies before the window): not returned",
  ),
  log_format: logFormatSchema,
  unresolved_levels: z.number().int().optional().describe(
    "lines whose level could not be told: no line within 1 MiB before them tells their entry (UNKNOWN)",
  ),
  ...timeFieldsSchema,
  artifact: artifactSchema,
  spill_summary: spillSummarySchema,
});

/**
 * The first line of a tail's text: what was read and what was not.
 *
 * @param file The log's name.
 * @param r The tail read.
 * @param tailBytes The window's size in bytes (LOGPEEK_TAIL_BYTES).
 * @param level The level asked for, if any.
 * @param asked How many lines were asked for; fewer from a window that began inside a line means a line
 *   longer than the window stands before them, and the header says how to read past it.
 * @returns The sentence.
 */
export function tailHeader(
  file: string,
  r: TailResult,
  tailBytes: number,
  level?: Level,
  asked = 0,
): string {
  const what = `${r.lines.length} line(s)${level ? ` of level ${level}` : ""}`;
  const scope = r.whole_file
    ? "the window covered the whole file, so line numbers are exact"
    : `read only the last ${tailBytes} bytes, so line numbers are unknown (-)` +
      (r.dropped_partial ? "; the window began inside a line and that fragment was dropped" : "") +
      (r.dropped_partial && !level && r.lines.length < asked
        ? ` (fewer lines than the ${asked} asked: a line longer than the window stands before them; ` +
          'log_search with text="^", regex=true and until= the first line\'s time reads the lines before it)'
        : "");
  const bad = r.replaced_bytes ? `; ${r.replaced_bytes} invalid UTF-8 byte(s) replaced by U+FFFD` : "";
  const secrets = r.redactions ? `; ${r.redactions} secret(s) masked as ***` : "";
  const more = level && !r.whole_file
    ? `; lines of level ${level} may also exist before the window: log_search with level=${level} reads from the start`
    : "";
  return `${printable(file)}: last ${what}; ${scope}${bad}${secrets}${more}.`;
}

/**
 * What `log_tail` does, in full (`docs/tool_schemas.md`; the listed description is short).
 *
 * @param limits The limits it quotes.
 * @returns The text.
 */
export const toolDocs = (limits: Readonly<Limits>): string =>
  "Returns the last lines of a log (optionally only one level), oldest first. Of a plain log " +
  `it reads at most the last ${limits.tailBytes} bytes (LOGPEEK_TAIL_BYTES) whatever the file's ` +
  "size; line numbers are given only when that window covers the whole file, and a fragment at the " +
  "window's start is dropped and reported. A .gz log is decompressed whole (within LOGPEEK_LEVELS_MS), " +
  "so its line numbers are known. A continuation line (a stack frame) has its entry's level and " +
  "continuation true (read back up to 1 MiB for a window that starts inside an entry). since/until keep the lines of a time window: with until, the tail " +
  "ends where until is passed (found by a binary search over timestamps on a log in time order). " +
  "A long answer shows the newest lines and saves all in an artifact. Over a ClickHouse root (a table), " +
  "each source is a log TABLE/SOURCE and each row a line TIME LEVEL BODY (line_no null); the last rows by time.";

/**
 * Registers `log_tail` on `server`.
 *
 * @param server The MCP server.
 * @param deps Limits and the dispatcher.
 * @returns The registered tool (`server/tool_list.ts` lists it).
 */
export function registerLogTailTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  return server.registerTool(
    "log_tail",
    {
      title: "Tail a log",
      description: `A log's last lines, oldest first, from its last ${deps.limits.tailBytes} bytes ` +
        "(line_no null unless that is all; a .gz is read whole).",
      inputSchema,
      outputSchema: outputSchema.shape,
      annotations: READ_ONLY,
    },
    (args: ToolArgs, extra: RequestExtra) => deps.dispatch("log_tail", args, callContext(extra)),
  );
}

/** The validated arguments of `log_tail`. */
export type ToolArgs = z.infer<typeof inputSchema>;

/**
 * Runs `log_tail` (in the tool worker, where log files are read).
 *
 * @param ctx The log source, limits, artifacts, redaction.
 * @param args The validated arguments.
 * @returns The result.
 * @throws {ToolError} for expected failures (the dispatcher turns them into `isError` results).
 */
export async function logTail(ctx: ToolContext, args: ToolArgs, call?: CallContext): Promise<ToolResult> {
  if (ctx.source.table) return await tableTail(ctx, ctx.source.table, args, call);
  using log = await ctx.source.open(args.file);
  const zone = ctx.limits.tz;
  const span = resolveSpan(args, zone, undefined);
  const r = await tailLog(log, {
    ...ctx.limits,
    lines: args.lines,
    level: args.level,
    redact: ctx.redact,
    gzipMs: ctx.limits.levelsMs,
    signal: call?.signal,
    window: span ? windowFor(span, log, zone, undefined) : undefined,
  });
  requireTimestamps(span, [r.time], r.read_lines, log.name);
  const time = timeFields(span, zone, [r.time]);
  const header = withWindow(
    tailHeader(log.name, r, ctx.limits.tailBytes, args.level, args.lines) +
      (r.unplaced_lines
        ? ` ${r.unplaced_lines} line(s) at the tail window's start had no timestamp, and their time is not known.`
        : "") +
      renderFormat(r.log_format) +
      unresolvedNote(r.unresolved_levels),
    time,
  );
  // A spilled tail shows its newest lines (what happened last); the older ones are in the artifact.
  const out = spill(ctx, "log_tail", header, r.lines.map(renderLine), r.lines.map((l) => l.level), true);
  return okResult({
    file: log.name,
    ...r,
    time: undefined,
    read_lines: undefined,
    ...time,
    lines: r.lines.slice(out.from, out.from + out.shown),
    artifact: out.artifact,
    spill_summary: out.summary,
  }, out.text);
}
