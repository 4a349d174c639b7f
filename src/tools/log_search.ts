/**
 * `log_search`: lines that hold a literal text, or match a regular expression (RE2 syntax, run in
 * linear time by re2js).
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { checkCursor, makeCursor, queryHash } from "../read/cursor.ts";
import { printable } from "../guard/printable.ts";
import { levelSchema, logLineSchema } from "../read/log_line.ts";
import { okResult, type ToolResult } from "./outcome.ts";
import { searchLog, type SearchResult } from "../read/search.ts";
import {
  type CallContext,
  callContext,
  READ_ONLY,
  type RequestExtra,
  type ToolContext,
  type ToolDeps,
} from "./deps.ts";
import { renderLine, renderStop } from "./render.ts";
import { artifactSchema, spill, spillSummarySchema } from "./spill.ts";

/** The most matches one call may ask for (issue #3; larger answers spill to an artifact). */
export const MAX_LIMIT = 5000;

const inputSchema = z.object({
  file: z.string().describe("the log, as log_files lists it"),
  text: z.string().min(1).max(100).refine((t) => !/[\r\n]/.test(t), {
    message: "text must be on one line: each line of the log is searched on its own",
  }).refine((t) => !t.includes("\uFFFD"), {
    message: "text holds U+FFFD, which stands for bytes that are not valid UTF-8; the search matches the " +
      "log's raw bytes, so it cannot find them: search for the text around them",
  }).refine((t) => t.isWellFormed(), {
    message: "text holds a lone surrogate (half of a UTF-16 pair, such as \\ud800): it is no character, " +
      "and no line of a log holds one: send the whole character",
  }).describe(
    "the text to find, 1..100 characters (UTF-16 units): literal and case-sensitive unless ignore_case or regex",
  ),
  level: levelSchema.optional().describe("keep only matching lines of this level"),
  ignore_case: z.boolean().default(false).describe(
    "match letters in either case by Unicode simple case folding (σ/ς/Σ, ß/ẞ, k/K (U+212A), s/ſ; İ " +
      "and ı only themselves): an ASCII text on the raw bytes, any other on each line's first 64 KiB, decoded",
  ),
  regex: z.boolean().default(false).describe(
    "text is a regular expression in RE2 syntax (RE2's, not JavaScript's: (?P<name>…), [[:digit:]], \\pL, " +
      "(?i) work; backreferences and lookaround do not; repeat counts up to 1000), run " +
      "by re2js in time linear in the line's length; tested on each line's first 64 KiB (65,536 bytes), " +
      "decoded, secrets masked",
  ),
  cursor: z.string().max(2000).optional().describe(
    "next_cursor from an incomplete answer to the same call: goes on exactly where it stopped",
  ),
  limit: z.number().int().min(1).max(MAX_LIMIT).default(20).describe(
    `the most matches to return (1..${MAX_LIMIT}); a long answer is saved as an artifact, read with read_artifact`,
  ),
});

const outputSchema = z.object({
  file: z.string(),
  matches: z.array(logLineSchema),
  scanned_lines: z.number().int().describe("lines read to their end"),
  complete: z.boolean().describe("the whole file was read and every match returned"),
  stop_reason: z.enum(["limit", "time_budget", "size_budget", "file_changed", "cancelled", "corrupt_gzip"])
    .nullable()
    .describe(
      "why not complete",
    ),
  replaced_bytes: z.number().int().describe("invalid UTF-8 bytes replaced by U+FFFD in the returned lines"),
  redactions: z.number().int().describe("secrets masked in the returned lines"),
  next_cursor: z.string().nullable().describe(
    "pass as cursor to the same call to go on where this one stopped",
  ),
  partially_tested: z.number().int().optional().describe(
    "regex, or ignore_case on a text with letters outside ASCII: lines longer than the 64 KiB (65,536 bytes) " +
      "that were tested; a match beyond that was not looked for",
  ),
  artifact: artifactSchema,
  spill_summary: spillSummarySchema,
});

/**
 * The first line of a search's text: how many matches for what, and whether the search was complete.
 * The text or pattern is shown as the client wrote it, in double quotes, only control characters (and
 * lone surrogates) escaped ({@linkcode printable}), never JSON-escaped: `\d+` stays `\d+`.
 *
 * @param file The log's name.
 * @param text The text or pattern searched for.
 * @param r The search's result.
 * @param kind What `text` is: a literal (default), a literal in either case, or a pattern.
 */
export function searchHeader(
  file: string,
  text: string,
  r: SearchResult,
  kind: { regex?: boolean; ignore_case?: boolean } = {},
): string {
  const what = `${kind.regex ? "pattern" : "text"} "${printable(text)}"${
    kind.ignore_case ? " (ignoring case)" : ""
  }`;
  return `${printable(file)}: ${r.matches.length} match(es) for ${what}; ` +
    renderStop(r.stop_reason, r.scanned_lines, "LOGPEEK_SEARCH_MS") +
    (r.replaced_bytes ? `; ${r.replaced_bytes} invalid UTF-8 byte(s) replaced by U+FFFD` : "") +
    (r.redactions ? `; ${r.redactions} secret(s) masked as ***` : "") + ".";
}

/**
 * Registers `log_search` on `server`.
 *
 * @param server The MCP server.
 * @param deps Limits and the dispatcher.
 */
export function registerLogSearchTool(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "log_search",
    {
      title: "Search a log",
      description:
        "Finds lines holding a literal text, or matching an RE2 regular expression (optionally of one " +
        "level), from the file's start, with " +
        "exact line numbers. Stops at limit matches, after LOGPEEK_SEARCH_MS ms " +
        `(${deps.limits.searchMs}) or LOGPEEK_SEARCH_BYTES bytes (${deps.limits.searchBytes}), and says so: ` +
        "complete is true only when the whole file was read. Zero matches with complete false proves nothing: " +
        "pass next_cursor as cursor to go on where it stopped. Options: level, ignore_case, regex. Reads .gz logs.",
      inputSchema: inputSchema.shape,
      outputSchema: outputSchema.shape,
      annotations: { ...READ_ONLY, title: "Search a log" },
    },
    (args: ToolArgs, extra: RequestExtra) => deps.dispatch("log_search", args, callContext(extra)),
  );
}

/** The validated arguments of `log_search`. */
export type ToolArgs = z.infer<typeof inputSchema>;

/**
 * Runs `log_search` (in the tool worker, where log files are read).
 *
 * @param ctx The log source, limits, artifacts, redaction.
 * @param args The validated arguments.
 * @returns The result.
 * @throws {ToolError} for expected failures (the dispatcher turns them into `isError` results).
 */
export async function logSearch(ctx: ToolContext, args: ToolArgs, call?: CallContext): Promise<ToolResult> {
  using log = await ctx.source.open(args.file);
  const query = queryHash({
    text: args.text,
    level: args.level,
    ignore_case: args.ignore_case,
    regex: args.regex,
  });
  const resume = args.cursor !== undefined
    ? checkCursor(args.cursor, log, { k: "log_search", f: log.name, q: query }, ctx.cursorKey)
    : undefined;
  const r = await searchLog(log, {
    ...ctx.limits,
    text: args.text,
    level: args.level,
    limit: args.limit,
    redact: ctx.redact,
    ignoreCase: args.ignore_case,
    regex: args.regex,
    resume,
    signal: call?.signal,
    onProgress: call?.progress,
    patterns: ctx.patterns,
  });
  const next_cursor = r.next
    ? makeCursor(log, { k: "log_search", f: log.name, q: query, ...r.next }, ctx.cursorKey)
    : null;
  const header = searchHeader(log.name, args.text, r, args);
  const partial = r.partially_tested
    ? `\n${r.partially_tested} line(s) were longer than the 64 KiB (65,536 bytes) ${
      args.regex ? "a pattern" : "a case-insensitive text with letters outside ASCII"
    } is tested on: a match beyond that was not looked for` +
      (args.regex ? ", and an end anchor `$` may have matched at the cut." : ".")
    : "";
  const stuck = r.stuck
    ? (next_cursor
      ? "\nThis page got nowhere within its budget: calling again with the same budgets may not help; raise " +
        "LOGPEEK_SEARCH_MS or LOGPEEK_SEARCH_BYTES."
      : `\nNo cursor: the pattern did not finish on line ${
        r.scanned_lines + 1
      } within the time budget, and would ` +
        "not next time either: simplify the pattern, or raise LOGPEEK_SEARCH_MS.")
    : "";
  const more = next_cursor
    ? `\nTo go on from where this stopped, call log_search again with the same text and cursor="${next_cursor}".`
    : "";
  const out = spill(
    ctx,
    "log_search",
    header + more + stuck + partial,
    r.matches.map(renderLine),
    r.matches.map((l) => l.level),
  );
  return okResult({
    file: log.name,
    ...r,
    matches: r.matches.slice(0, out.shown),
    next: undefined,
    stuck: undefined,
    next_cursor,
    artifact: out.artifact,
    spill_summary: out.summary,
  }, out.text);
}
