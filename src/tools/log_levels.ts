/**
 * `log_levels`: how many lines of each level a log has.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { countLevels, type LevelsResult } from "../read/count_levels.ts";
import { LEVELS } from "../read/level.ts";
import { checkCursor, makeCursor } from "../read/cursor.ts";
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
import { renderStop } from "./render.ts";

const inputSchema = z.object({
  file: z.string().describe("the log, as log_files lists it"),
  cursor: z.string().max(2000).optional().describe(
    "next_cursor from an incomplete answer: counts the rest, from exactly where it stopped",
  ),
});

const outputSchema = z.object({
  file: z.string(),
  counts: z.object(Object.fromEntries(LEVELS.map((l) => [l, z.number().int()])) as Record<
    (typeof LEVELS)[number],
    z.ZodNumber
  >).describe("lines per level; UNKNOWN: lines with no level"),
  total_lines: z.number().int().describe("lines counted in this answer (a page, when resumed)"),
  last_line: z.number().int().describe("the number of the last line counted, from the file's start"),
  next_cursor: z.string().nullable().describe("pass as cursor to count the rest"),
  complete: z.boolean().describe("every line of the file was counted"),
  stop_reason: z.enum(["time_budget", "file_changed", "cancelled", "corrupt_gzip"]).nullable().describe(
    "why not complete",
  ),
});

/** Renders level counts for the model. */
export function renderLevels(file: string, r: LevelsResult): string {
  const nonzero = LEVELS.filter((l) => r.counts[l] > 0).map((l) => `${l} ${r.counts[l]}`);
  const zero = LEVELS.filter((l) => r.counts[l] === 0);
  return `${printable(file)}: ${r.total_lines} line(s): ${nonzero.join(", ") || "none"}` +
    (zero.length ? `; 0 of ${zero.join(", ")}` : "") + `. ` +
    (r.complete
      ? "complete: every line was counted."
      : renderStop(r.stop_reason, r.total_lines, "LOGPEEK_LEVELS_MS") +
        "; these counts cover only the lines before that point.");
}

/**
 * Registers `log_levels` on `server`.
 *
 * @param server The MCP server.
 * @param deps Limits and the dispatcher.
 */
export function registerLogLevelsTool(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "log_levels",
    {
      title: "Count lines by level",
      description:
        "Counts every line of a log by level (TRACE DEBUG INFO NOTICE WARN ERROR FATAL, UNKNOWN for " +
        "lines with none), in one pass whose time grows with the file's size. Stops after LOGPEEK_LEVELS_MS ms " +
        `(${deps.limits.levelsMs}) with complete false, the counts so far, and a next_cursor to count the rest. ` +
        "Reads .gz logs through decompression.",
      inputSchema: inputSchema.shape,
      outputSchema: outputSchema.shape,
      annotations: { ...READ_ONLY, title: "Count lines by level" },
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
  using log = await ctx.source.open(args.file);
  const resume = args.cursor !== undefined
    ? checkCursor(args.cursor, log, { k: "log_levels", f: log.name, q: "" }, ctx.cursorKey)
    : undefined;
  const r = await countLevels(log, {
    ...ctx.limits,
    resume,
    signal: call?.signal,
    onProgress: call?.progress,
  });
  const next_cursor = r.next
    ? makeCursor(log, { k: "log_levels", f: log.name, q: "", ...r.next }, ctx.cursorKey)
    : null;
  const more = next_cursor
    ? `\nTo count the rest, call log_levels again with cursor="${next_cursor}"; add the pages' counts up.`
    : "";
  const stuck = r.stuck
    ? "\nThis page counted nothing within LOGPEEK_LEVELS_MS: calling again may not help; raise it."
    : "";
  return okResult(
    { file: log.name, ...r, next: undefined, stuck: undefined, next_cursor },
    renderLevels(log.name, r) + more + stuck,
  );
}
