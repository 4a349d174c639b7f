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
    format: z.string().nullable().describe(
      "what its first bytes say: text, gzip, or a format the reading tools refuse (xz, zip, journal, utf-16le, …); null if it could not be opened",
    ),
    unsupported: z.string().nullable().describe(
      "null when log_tail, log_search and log_levels read it; else what it is and what to run instead",
    ),
  })),
  complete: z.boolean().describe(
    "true only when every entry that could be a log is listed: false when more logs exist than are listed, a folder could not be read, or an entry was refused (a symlink out of the roots)",
  ),
  unreadable: z.array(z.string()).describe(
    "entries not listed, the first 20, each with the reason (folders that could not be read or may not be descended into, symlinks that lead outside the roots, names that are not UTF-8, loops)",
  ),
  not_listed: z.number().int().describe(
    "how many entries were not listed, all of them (files past the cap included); a lower bound only when unreadable ends with '(the count): …'",
  ),
  artifact: artifactSchema,
  spill_summary: spillSummarySchema,
});

const config = {
  title: "List log files",
  description: "Lists the log files logpeek can read: regular files under its roots, recursively, sorted, " +
    `with size in bytes and last modification time. At most ${MAX_FILES}; complete is false beyond, and ` +
    "not_listed counts every entry not listed. " +
    "Each file value is exactly what log_tail, log_search and log_levels take. A file in a format they do " +
    "not read (xz, bzip2, zstd, zip, tar, a systemd journal, …) is marked in unsupported, with what to run " +
    "instead on its absolute path.",
  inputSchema: {},
  outputSchema: outputSchema.shape,
  annotations: { ...READ_ONLY, title: "List log files" },
};

/**
 * How `source/list_logs.ts` begins the `unreadable` entry that says `not_listed` is a lower bound (its
 * `COUNT_STOPPED`; tools do not import it: they reach logs through `source/log_source.ts` only, and
 * `log_files_test.ts` checks the two agree).
 */
const COUNT_STOPPED = "(the count):";

/** The first line of a listing's text: how many are listed, and how many entries are not (all of them). */
export function filesHeader(list: LogList): string {
  const refused = list.files.filter((f) => f.unsupported !== null).length;
  const named = list.unreadable.filter((u) => !u.startsWith(COUNT_STOPPED));
  const lowerBound = named.length < list.unreadable.length;
  const more = list.not_listed > named.length ? ` (and ${list.not_listed - named.length} more)` : "";
  return (list.complete
    ? `${list.files.length} log file(s); the list is complete.`
    : `${list.files.length} log file(s) listed; the list is NOT complete: ` +
      `${lowerBound ? "at least " : ""}${list.not_listed} entr${
        list.not_listed === 1 ? "y" : "ies"
      } not listed` +
      (list.files.length >= MAX_FILES ? ` (only the first ${MAX_FILES} files are listed)` : "") +
      (lowerBound ? "; the count stopped at its time budget, so more may exist" : "") +
      (named.length ? `; not listed: ${printable(named.join("; "))}${more}` : "") + ".") +
    (refused
      ? ` ${refused} of them in a format log_tail, log_search and log_levels do not read (marked NOT READ).`
      : "");
}

/** One listed file as a line of text. */
export function renderEntry(f: LogList["files"][number]): string {
  return `${printable(f.file)}\t${f.size_bytes} bytes\t${f.modified ?? "?"}` +
    (f.unsupported ? `\tNOT READ: ${printable(f.unsupported)}` : "");
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
  const list = ctx.source.list({ limit: MAX_FILES });
  const out = spill(ctx, "log_files", filesHeader(list), list.files.map(renderEntry));
  return Promise.resolve(okResult({
    ...list,
    files: list.files.slice(0, out.shown),
    artifact: out.artifact,
    spill_summary: out.summary,
  }, out.text));
}
