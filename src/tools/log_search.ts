/**
 * `log_search`: lines that hold a literal text, or match a regular expression (RE2 syntax, run in
 * linear time by re2js).
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Limits } from "../core/config.ts";
import { plural } from "../core/plural.ts";
import { fileArg, levelArg, strictArgs, wholeNumber } from "./args.ts";
import { printable } from "../guard/printable.ts";
import { logLineSchema } from "../read/log_line.ts";
import { redactLine } from "../guard/redact.ts";
import { type LogBackend, refuseLacking } from "../source/backend.ts";
import type { SearchAnswer, SearchMatch, SearchQuery } from "../source/search_query.ts";
import { firstLogs, notReadNote } from "./log_list_words.ts";
import { type AnswerItem, renderItem } from "./context_render.ts";
import { AnswerStream } from "./answer_stream.ts";
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
import { logFormatSchema, renderFormat, renderStop, unresolvedNote } from "./render.ts";
import { artifactSchema, spill, spillSummarySchema } from "./spill.ts";
import { renderTemplateHeader } from "./template_words.ts";
import { ToolError } from "../core/errors.ts";

/** The most matches one call may ask for (issue #3; larger answers spill to an artifact). */
export const MAX_LIMIT = 5000;

/**
 * The longest `text`, in UTF-16 code units (issue #24: a whole message line is a normal needle; it was
 * 100).
 */
export const MAX_TEXT = 4096;

/** The most context lines before and after a match (issue #12). */
export const MAX_CONTEXT = 10;

const inputSchema = strictArgs("log_search", {
  file: fileArg(true).describe("from log_files or a glob")
    .meta({
      details:
        "the log, as log_files lists it; or a glob over those names (*.log, **/app*.log*, nginx/*: * " +
        "and ? do not cross /, ** crosses folders): every matching log is read, newest first, under one budget",
    }),
  text: z.string().min(1, { error: "text is at least one character" }).max(MAX_TEXT, {
    error: `text is at most ${MAX_TEXT} characters: search for a distinctive part of the line`,
  }).refine((t) => !/[\r\n]/.test(t), {
    message: "text must be on one line: each line of the log is searched on its own",
  }).refine((t) => !t.includes("\uFFFD"), {
    message: "text holds U+FFFD, which stands for bytes that are not valid UTF-8; the search matches the " +
      "log's raw bytes, so it cannot find them: search for the text around them",
  }).refine((t) => t.isWellFormed(), {
    message: "text holds a lone surrogate (half of a UTF-16 pair, such as \\ud800): it is no character, " +
      "and no line of a log holds one: send the whole character",
  }).optional().describe("literal, case-sensitive").meta({
    details:
      `the text to find, 1..${MAX_TEXT} characters (UTF-16 units): literal and case-sensitive unless ` +
      "ignore_case or regex; give text or template_id",
  }),
  template_id: z.string().regex(/^[0-9a-f]{16}$/, "a template_id is 16 hex digits, as log_patterns gives it")
    .optional().describe("from log_patterns (same file/window/level)").meta({
      details: "instead of text: a template_id from a log_patterns answer on the same file with the same " +
        "since, until and level; finds exactly the lines it counted under that template (as many as its count)",
    }),
  level: levelArg.optional().meta({ details: "keep only matching lines of this level" }),
  ignore_case: z.boolean().default(false).meta({
    details:
      "match letters in either case by Unicode simple case folding (σ/ς/Σ, ß/ẞ, k/K (U+212A), s/ſ; İ " +
      "and ı only themselves): an ASCII text on the raw bytes, any other on each line's first 64 KiB, decoded",
  }),
  regex: z.boolean().default(false).describe("RE2 syntax: no backreferences or lookaround").meta({
    details:
      "text is a regular expression in RE2 syntax (RE2's, not JavaScript's: (?P<name>…), [[:digit:]], \\pL, " +
      "(?i) work; backreferences and lookaround do not; repeat counts up to 1000), run " +
      "by re2js in time linear in the line's length; tested on each line's first 64 KiB (65,536 bytes), " +
      "decoded, secrets masked",
  }),
  cursor: z.string().max(2000).optional().meta({
    details: "next_cursor from an incomplete answer to the same call: goes on exactly where it stopped",
  }),
  limit: wholeNumber("limit", 1, MAX_LIMIT, `pass next_cursor for the next ${MAX_LIMIT}`).default(20).meta({
    details:
      `the most matches to return (1..${MAX_LIMIT}); a long answer is saved as an artifact, read with ` +
      "read_artifact",
  }),
  ...windowArgs,
  context: wholeNumber(
    "context",
    0,
    MAX_CONTEXT,
    "for more lines around a match, log_tail with until just after its time",
  ).default(0).describe("lines around each match (grep -C)").meta({
    details: `lines of context before and after each match (0..${MAX_CONTEXT}), as grep -C shows them: ` +
      "each line once",
  }),
});

const matchSchema = logLineSchema.extend({
  file: z.string().optional().describe("the log it is in (a call over a glob)"),
  before: z.array(logLineSchema).optional().describe(
    "with context: the lines just before, not shown already",
  ),
  after: z.array(logLineSchema).optional().describe(
    "with context: the lines just after, up to the next match",
  ),
});

const logsSchema = z.array(z.object({
  file: z.string(),
  complete: z.boolean(),
  stop_reason: z.enum([
    "limit",
    "time_budget",
    "size_budget",
    "file_changed",
    "cancelled",
    "corrupt_gzip",
    "not_reached",
    "no_timestamps",
  ]).nullable().describe(
    "not_reached: the call stopped before this log (the cursor reads it); no_timestamps: read, but none of " +
      "its lines has a timestamp, so none could be placed in the window",
  ),
  scanned_lines: z.number().int(),
})).optional().describe("a call over a glob: each matching log, in the order read (newest first)");

const outputSchema = z.object({
  file: z.string().describe("the log, or the glob"),
  matches: z.array(matchSchema),
  scanned_lines: z.number().int().describe("lines read to their end"),
  complete: z.boolean().describe(
    "the whole file was read, every line tested whole (none partially_tested) and every match returned",
  ),
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
  progress: z.boolean().describe(
    "false when this page read nothing within its budget (then there is no cursor: calling again would not help)",
  ),
  scanned_bytes: z.number().int().describe("bytes read by this call (probes of a time seek included)"),
  log_format: logFormatSchema,
  logs: logsSchema,
  not_read: z.array(z.string()).optional().describe(
    "a call over a glob: matching entries no page reads, each 'name: why' (a format the tools refuse, no " +
      "permission, a link out of the roots; the first 20): the answer is not complete",
  ),
  ...timeFieldsSchema,
  partially_tested: z.number().int().optional().describe(
    "regex, or ignore_case on a text with letters outside ASCII: lines longer than the 64 KiB (65,536 bytes) " +
      "that were tested; a match beyond that was not looked for",
  ),
  unresolved_levels: z.number().int().optional().describe(
    "lines whose level could not be told: no line within 1 MiB before them tells their entry (UNKNOWN)",
  ),
  template: z.object({ template_id: z.string(), template: z.string(), count: z.number().int() }).optional()
    .describe("a search by template_id: the template, and its lines in all"),
  artifact: artifactSchema,
  spill_summary: spillSummarySchema,
});

/** The last match of an answer, as {@linkcode renderStop} names it: its log (over a glob) and line. */
function lastMatch(a: SearchAnswer): { file?: string; line_no: number | null } | undefined {
  const m = a.matches.at(-1);
  return m ? { file: m.file, line_no: m.line_no } : undefined;
}

/**
 * The first line of a search's text: how many matches for what, and whether the search was complete.
 * The text or pattern is shown as the client wrote it, in double quotes, only control characters (and
 * lone surrogates) escaped ({@linkcode printable}), never JSON-escaped: `\d+` stays `\d+`; a secret in it
 * is masked (`guard/redact.ts` `redactLine`, as the trace masks arguments).
 *
 * @param a The answer (its `scope`: the backend's words for what it read, else a file's, from its data).
 * @param text The text or pattern searched for.
 * @param kind What `text` is: a literal (default), a literal in either case, or a pattern.
 */
export function searchHeader(
  a: SearchAnswer,
  text: string,
  kind: { regex?: boolean; ignore_case?: boolean } = {},
): string {
  // The text as the caller sent it, masked (a secret typed into a search is not echoed back).
  const what = `${kind.regex ? "pattern" : "text"} "${printable(redactLine(text).text)}"${
    kind.ignore_case ? " (ignoring case)" : ""
  }`;
  return `${printable(a.file)}: ${a.matches.length} match(es) for ${what}${a.scope ?? `; ${fileScope(a)}`}` +
    (a.replaced_bytes ? `; ${a.replaced_bytes} invalid UTF-8 byte(s) replaced by U+FFFD` : "") +
    (a.redactions ? `; ${a.redactions} secret(s) masked as ***` : "") + ".";
}

/** The logs of a call over a glob read without a timestamp to place a line in the window. */
function untimedLogs(a: SearchAnswer): string[] {
  return (a.logs ?? []).filter((l) => l.stop_reason === "no_timestamps").map((l) => l.file);
}

/**
 * What a search of files read and did not, from the answer's data: a stop's words (`renderStop`), or
 * why it is not complete without one (entries not read, logs without timestamps, a broken seek), or what
 * a complete read over a glob or a window covered.
 */
function fileScope(a: SearchAnswer): string {
  if (!a.complete && a.stop_reason === null) {
    const untimed = untimedLogs(a).length;
    return "NOT complete: " +
      [
        a.not_read_count
          ? `${a.not_read_count} matching entr${a.not_read_count === 1 ? "y" : "ies"} not read`
          : "",
        untimed ? `${plural(untimed, "log")} without timestamps` : "",
        a.seek_broken ? "a seek whose log went out of order" : "",
        a.partially_tested ? `${plural(a.partially_tested, a.unit)} tested only in part` : "",
      ].filter((x) => x).join(", ") + " (see below)";
  }
  if (a.complete && (a.glob || a.seek_skipped)) {
    return `complete: ${
      a.glob
        ? `every matching log was read (${plural(a.logs?.length ?? 0, "log")} on this page)`
        : "the window was read"
    }` +
      `${a.seek_skipped ? ", the lines before the window skipped where the log is in time order" : ""} (${
        plural(a.scanned_lines, "line")
      } read)`;
  }
  return renderStop(a.stop_reason, a.scanned_lines, "LOGPEEK_SEARCH_MS", lastMatch(a));
}

/**
 * What `log_search` does, in full (`docs/tool_schemas.md`; the listed description is short).
 *
 * @param limits The limits it quotes.
 * @returns The text.
 */
export const toolDocs = (limits: Readonly<Limits>): string =>
  "Finds lines holding a literal text, or matching an RE2 regular expression (optionally of one " +
  "level, in a time window since/until, with context lines), with exact line numbers, in one log or in " +
  "every log a glob matches (newest first). Stops at limit matches, after LOGPEEK_SEARCH_MS ms " +
  `(${limits.searchMs}) or LOGPEEK_SEARCH_BYTES bytes (${limits.searchBytes}) for the whole call, ` +
  "and says so: complete is true only when every log was read to its end (or, in a window, past it). " +
  "Zero matches with complete false proves nothing: pass next_cursor as cursor to go on where it stopped. " +
  "A window on a log in time order is entered by a binary search over timestamps (line numbers then " +
  "null). Options: level, ignore_case, regex, since, until, context. A continuation line (a stack frame) has " +
  "its entry's level and continuation true, so level ERROR returns an error with its trace, as log_levels " +
  "counts it. Reads .gz logs. Over a ClickHouse " +
  "root (a table), each source is a log TABLE/SOURCE and each row a line TIME LEVEL BODY (line_no null); " +
  "the search runs on the server over the bodies, its budgets as ClickHouse limits.";

/**
 * Registers `log_search` on `server`.
 *
 * @param server The MCP server.
 * @param deps Limits and the dispatcher.
 * @returns The registered tool (`server/tool_list.ts` lists it).
 */
export function registerLogSearchTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  return server.registerTool(
    "log_search",
    {
      title: "Search a log",
      description: "Lines with a text (or RE2 regex, or template_id) in a log or glob, with context; " +
        `stops at limit or ${deps.limits.searchMs} ms (complete false proves no absence; next_cursor).`,
      inputSchema,
      outputSchema: outputSchema.shape,
      annotations: READ_ONLY,
    },
    (args: ToolArgs, extra: RequestExtra) => deps.dispatch("log_search", args, callContext(extra)),
  );
}

/** The validated arguments of `log_search`. */
export type ToolArgs = z.infer<typeof inputSchema>;

/**
 * Runs `log_search`: one {@linkcode SearchQuery} from the arguments, asked of the backend, its answer
 * rendered (in the tool worker, where log files are read).
 *
 * @param ctx The backend, limits, artifacts.
 * @param args The validated arguments.
 * @param call The client's cancellation and progress.
 * @returns The result.
 * @throws {ToolError} for expected failures (the dispatcher turns them into `isError` results).
 */
export async function logSearch(ctx: ToolContext, args: ToolArgs, call?: CallContext): Promise<ToolResult> {
  const q = searchQuery(ctx.backend, args);
  // With context, the answer's lines are written out as the scan finds them (issue #22).
  const stream = q.context > 0 && q.match.kind === "text" ? new AnswerStream(ctx, "log_search") : null;
  try {
    const a = await ctx.backend.search(stream ? { ...q, sink: stream } : q, call);
    const text = a.template ? templateText(a, a.template) : matchesText(args, a);
    return spillAnswer(ctx, a, text, stream);
  } catch (e) {
    stream?.abort();
    throw e;
  }
}

/**
 * The query of a call: a text (or pattern) or a template, the level, window, context, limit and cursor.
 *
 * @throws {ToolError} `invalid_argument` with neither text nor template_id, with template_id and what a
 *   template cannot take (text, regex, ignore_case, context), or what the backend lacks (`lacks`).
 */
export function searchQuery(backend: LogBackend, args: ToolArgs): SearchQuery {
  const base = {
    file: args.file,
    level: args.level,
    window: { since: args.since, until: args.until },
    context: args.context,
    limit: args.limit,
    cursor: args.cursor,
  };
  if (args.template_id !== undefined) {
    refuseLacking(backend, "template_id");
    const extra = [
      args.text !== undefined ? "text" : "",
      args.regex ? "regex" : "",
      args.ignore_case ? "ignore_case" : "",
      args.context ? "context" : "",
    ].filter((x) => x);
    if (extra.length) {
      throw new ToolError(
        "invalid_argument",
        `template_id finds a template's lines as log_patterns counted them: ${extra.join(", ")} cannot be ` +
          "given with it (file, level, since, until, limit and cursor can)",
      );
    }
    return { ...base, match: { kind: "template", template_id: args.template_id } };
  }
  if (args.context > 0) refuseLacking(backend, "context");
  if (args.text === undefined) {
    throw new ToolError(
      "invalid_argument",
      'give text (what to find; text="^" with regex=true matches every line, with level and since/until ' +
        `too)${backend.lacks("template_id") === null ? " or template_id (from log_patterns)" : ""}`,
    );
  }
  return {
    ...base,
    match: { kind: "text", text: args.text, regex: args.regex, ignore_case: args.ignore_case },
  };
}

/** The text before the matches of a search by text: the header, the per-log list, the notes, the cursor. */
function matchesText(args: ToolArgs, a: SearchAnswer): string {
  const header = withWindow(searchHeader(a, args.text!, args), a.time) +
    (a.log_format !== undefined ? renderFormat(a.log_format) : "") +
    (a.logs ? `\n${renderLogs(a.logs)}` : "");
  const partial = a.partially_tested
    ? `\n${a.partially_tested} ${a.unit}(s) were longer than the ${
      args.regex
        ? "64 KiB (65,536 bytes) a pattern"
        : "first bytes a text is tested on when each line is tested on its own (ignore_case, a window, context)"
    } is tested on: a match beyond that was not looked for` +
      (args.regex ? ", and an end anchor `$` may have matched at the cut." : ".")
    : "";
  const more = a.next_cursor
    ? `\nTo go on from where this stopped, call log_search again with the same arguments and cursor="${a.next_cursor}".`
    : "";
  return header + unresolvedNote(a.unresolved_levels) + notReadNote(a.not_read ?? [], a.not_read_count) +
    timelessNote(untimedLogs(a)) + more + (!a.progress && a.stuck ? `\n${a.stuck}` : "") + partial +
    (a.seek_broken ? SEEK_BROKEN : "");
}

/** The text before the lines of a search by template: the template, its lines in all, why not all, the cursor. */
function templateText(a: SearchAnswer, t: NonNullable<SearchAnswer["template"]>): string {
  return renderTemplateHeader(a, t) +
    (a.notes.length && a.stop_reason !== null ? `\n${a.notes.join("\n")}` : "") +
    (a.next_cursor
      ? `\nTo go on, call log_search again with the same arguments and cursor="${a.next_cursor}".`
      : "");
}

/**
 * The answer rendered and spilled: the text with the matches that fit, the rest in an artifact; the
 * matches shown are those whose lines are all shown.
 */
function spillAnswer(
  ctx: ToolContext,
  a: SearchAnswer,
  text: string,
  stream: AnswerStream | null,
): ToolResult {
  // One item a line: a match, a context line, a separator or a log's heading. With context, the stream
  // counts, writes and shows them (issue #22: a search with context held its whole text six times over).
  const blocks = stream ? [] : plainBlockItems(a.matches, a.glob);
  const flat = blocks.flat();
  const items = stream ? stream.items() : { length: flat.length, item: (i: number) => renderItem(flat[i]) };
  const lastItemOf: number[] = stream ? [...stream.lastItemOf] : [];
  blocks.reduce((n, b) => (lastItemOf.push(n + b.length), n + b.length), 0);
  const out = spill(ctx, "log_search", text, items, a.matches.map((m) => m.level));
  const shownMatches = out.shown >= items.length
    ? a.matches.length
    : lastItemOf.filter((k) => k <= out.shown).length;
  // With context, the matches kept whole by the stream (the others hold no text now).
  const shown: SearchMatch[] = stream
    ? stream.kept.slice(0, shownMatches).map((m) => ({
      ...m.line,
      ...(m.file !== undefined ? { file: m.file } : {}),
      before: m.context.before,
      after: m.context.after,
    }))
    : a.matches.slice(0, shownMatches);
  const {
    time,
    glob: _glob,
    not_read_count: _count,
    seek_broken: _broken,
    seek_skipped: _skipped,
    unit: _unit,
    scope: _scope,
    stuck: _stuck,
    notes: _notes,
    template,
    ...fields
  } = a;
  return okResult({
    ...fields,
    matches: shown,
    ...time,
    ...(template
      ? {
        template: { template_id: template.template_id, template: template.template, count: template.count },
      }
      : {}),
    artifact: out.artifact,
    spill_summary: out.summary,
  }, out.text);
}

/**
 * The text lines of matches without context, not yet rendered: per match, a heading where its log differs
 * from the previous match's (a call over a glob), then the match as `render.ts` `renderLine` shows it.
 */
function plainBlockItems(matches: readonly SearchMatch[], glob: boolean): AnswerItem[][] {
  return matches.map((m, i): AnswerItem[] =>
    glob && (i === 0 || matches[i - 1].file !== m.file)
      ? [{ heading: m.file! }, { line: m, mark: "plain" }]
      : [{ line: m, mark: "plain" }]
  );
}

/** The per-log list of a call over a glob, as text. */
function renderLogs(
  logs: { file: string; complete: boolean; stop_reason: string | null; scanned_lines: number }[],
): string {
  return "logs (newest first): " +
    firstLogs(
      logs,
      (l) =>
        `${printable(l.file)} ${
          l.complete ? "complete" : `NOT complete (${l.stop_reason})`
        }, ${l.scanned_lines} line(s)`,
    );
}
