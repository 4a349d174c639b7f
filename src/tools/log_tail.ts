/**
 * `log_tail`: the last lines of a log.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { fileArg, levelArg, strictArgs, wholeNumber } from "./args.ts";
import { type Level } from "../read/level.ts";
import { printable } from "../guard/printable.ts";
import { logLineSchema } from "../read/log_line.ts";
import { okResult, type ToolResult } from "./outcome.ts";
import type { TailAnswer } from "../source/backend.ts";
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
import { timeFieldsSchema, windowArgs, withWindow } from "./time_args.ts";
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
 * @param a The tail the backend read.
 * @param level The level asked for, if any.
 * @returns The sentence (its window words added by `withWindow`).
 */
export function tailHeader(a: TailAnswer, level?: Level): string {
  const what = `${a.lines.length} ${a.unit}(s)${level ? ` of level ${level}` : ""}`;
  const bad = a.replaced_bytes ? `; ${a.replaced_bytes} invalid UTF-8 byte(s) replaced by U+FFFD` : "";
  const secrets = a.redactions ? `; ${a.redactions} secret(s) masked as ***` : "";
  return `${printable(a.file)}: last ${what}; ${a.scope}${bad}${secrets}.`;
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
  const a = await ctx.backend.tail({
    file: args.file,
    lines: args.lines,
    level: args.level,
    window: { since: args.since, until: args.until },
  }, call);
  const header = withWindow(
    tailHeader(a, args.level) +
      (a.unplaced_lines
        ? ` ${a.unplaced_lines} line(s) at the tail window's start had no timestamp, and their time is not known.`
        : "") +
      (a.log_format !== undefined ? renderFormat(a.log_format) : "") +
      unresolvedNote(a.unresolved_levels),
    a.time,
  );
  // A spilled tail shows its newest lines (what happened last); the older ones are in the artifact.
  const out = spill(ctx, "log_tail", header, a.lines.map(renderLine), a.lines.map((l) => l.level), true);
  const { time, unit: _unit, scope: _scope, ...fields } = a;
  return okResult({
    ...fields,
    ...time,
    lines: a.lines.slice(out.from, out.from + out.shown),
    artifact: out.artifact,
    spill_summary: out.summary,
  }, out.text);
}
