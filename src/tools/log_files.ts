/**
 * `log_files`: the logs the other tools can read.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { LogList } from "../source/log_source.ts";
import { printable } from "../guard/printable.ts";
import { okResult, type ToolResult } from "./outcome.ts";
import { READ_ONLY, type ToolContext, type ToolDeps } from "./deps.ts";
import { artifactSchema, spill, spillSummarySchema } from "./spill.ts";

/** The most entries `log_files` lists (issue #2). */
export const MAX_FILES = 1000;

const outputSchema = z.object({
  files: z.array(z.object({
    file: z.string().describe("the name the other tools take as file"),
    size_bytes: z.number().int(),
    modified: z.string().nullable().describe("last modification, ISO 8601"),
  })),
  complete: z.boolean().describe("false when more logs exist than are listed, or a folder could not be read"),
  unreadable: z.array(z.string()).describe(
    "entries not listed (folders that could not be read or may not be descended into, names that are not UTF-8, loops), with the reason",
  ),
  artifact: artifactSchema,
  spill_summary: spillSummarySchema,
});

const config = {
  title: "List log files",
  description: "Lists the log files logpeek can read: regular files under its roots, recursively, sorted, " +
    `with size in bytes and last modification time. At most ${MAX_FILES}; complete is false beyond. ` +
    "Each file value is exactly what log_tail, log_search and log_levels take.",
  inputSchema: {},
  outputSchema: outputSchema.shape,
  annotations: { ...READ_ONLY, title: "List log files" },
};

/** The first line of a listing's text. */
export function filesHeader(list: LogList): string {
  return list.complete
    ? `${list.files.length} log file(s); the list is complete.`
    : `${list.files.length} log file(s) listed; the list is NOT complete` +
      (list.files.length >= MAX_FILES ? ` (more than ${MAX_FILES} exist)` : "") +
      (list.unreadable.length ? `; not listed: ${printable(list.unreadable.join("; "))}` : "") + ".";
}

/** One listed file as a line of text. */
export function renderEntry(f: LogList["files"][number]): string {
  return `${printable(f.file)}\t${f.size_bytes} bytes\t${f.modified ?? "?"}`;
}

/**
 * Registers `log_files` on `server`.
 *
 * @param server The MCP server.
 * @param deps Limits and the dispatcher.
 */
export function registerLogFilesTool(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "log_files",
    config,
    (args: ToolArgs) => deps.dispatch("log_files", args),
  );
}

/** The validated arguments of `log_files`. */
export type ToolArgs = Record<string, never>;

/**
 * Runs `log_files` (in the tool worker, where log files are read).
 *
 * @param ctx The log source, limits, artifacts, redaction.
 * @param args The validated arguments.
 * @returns The result.
 * @throws {ToolError} for expected failures (the dispatcher turns them into `isError` results).
 */
export function logFiles(ctx: ToolContext, _args: ToolArgs): Promise<ToolResult> {
  const list = ctx.source.list(MAX_FILES);
  const out = spill(ctx, "log_files", filesHeader(list), list.files.map(renderEntry));
  return Promise.resolve(okResult({
    ...list,
    files: list.files.slice(0, out.shown),
    artifact: out.artifact,
    spill_summary: out.summary,
  }, out.text));
}
