/**
 * `log_files`: the logs the other tools can read (issue #12: a glob, newest first, pages past 1000 with a
 * sealed cursor: `list_cursor.ts`).
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { strictArgs, wholeNumber } from "./args.ts";
import {
  COUNT_STOPPED,
  type ListSort,
  type ListWalk,
  type LogEntry,
  type LogList,
} from "../source/log_source.ts";
import { ToolError } from "../core/errors.ts";
import { globHash, type ListStart, makeListCursor, MAX_LIST_CURSOR, readListCursor } from "./list_cursor.ts";
import { printable } from "../guard/printable.ts";
import { okResult, type ToolResult } from "./outcome.ts";
import type { Limits } from "../core/config.ts";
import { READ_ONLY, type ToolContext, type ToolDeps } from "./deps.ts";
import { artifactSchema, spill, spillSummarySchema } from "./spill.ts";

/** The most entries one `log_files` page lists (issue #2; `limit`, and its default). */
export const MAX_FILES = 1000;

/** The longest glob (UTF-16 code units): a log name's longest, as a name is a glob of itself. */
export const MAX_GLOB = 4096;

const inputSchema = strictArgs("log_files", {
  glob: z.string().min(1).max(MAX_GLOB).optional().describe("globstar: **/app*.log*, {a,b}")
    .meta({
      details: "only logs whose names match: * and ? never cross /, ** matches any folders (**/app*.log*), " +
        "[abc] [a-z] [!a], {a,b}, \\ escapes (bash globstar rules; dot files too)",
    }),
  sort: z.enum(["name", "modified"]).optional().describe("modified: newest first").meta({
    details: "name (default: each folder's entries in code-unit order) or modified (newest first)",
  }),
  limit: wholeNumber("limit", 1, MAX_FILES, "the next page starts at next_cursor").optional().meta({
    details: `the most entries on this page (1..${MAX_FILES}, default ${MAX_FILES})`,
  }),
  cursor: z.string().max(MAX_LIST_CURSOR).optional().meta({
    details:
      "next_cursor from the last page of the same call (same glob and sort): lists the entries after it",
  }),
});

const outputSchema = z.object({
  files: z.array(z.object({
    file: z.string().describe("the name the other tools take as file"),
    size_bytes: z.number().int().nullable().describe("its size in bytes; null for a table's log (see rows)"),
    rows: z.number().int().optional().describe("a table's log (a ClickHouse root): its rows"),
    modified: z.string().nullable().describe("last modification, ISO 8601"),
    format: z.string().nullable().describe(
      "what its first bytes say: text, gzip, or a format the reading tools refuse (xz, zip, journal, utf-16le, …); null if it could not be opened",
    ),
    log_format: z.string().nullable().optional().describe(
      "a text log's format (docs/formats.md), detected from its first lines; null: none known (general rules)",
    ),
    unsupported: z.string().nullable().describe(
      "null when log_tail, log_search and log_levels read it; else what it is and what to run instead",
    ),
    compression: z.enum(["gzip"]).nullable().describe("gzip for a gzip-compressed log, else null"),
    readable: z.boolean().describe("whether log_tail, log_search and log_levels read it"),
    reason: z.string().nullable().describe(
      "null when readable; else why not, as the reading tools would answer: permission_denied: …, unsupported_format: …, unsupported_encoding: …",
    ),
  })),
  complete: z.boolean().describe(
    "true only when every entry that could be a log is listed (with a glob: every one it matches; with a cursor: every one after it): false when more exist than are listed (see next_cursor), a folder could not be read, or an entry was refused (a symlink out of the roots)",
  ),
  unreadable: z.array(z.string()).describe(
    "entries not listed, the first 20, each with the reason (folders that could not be read or may not be descended into, symlinks that lead outside the roots, names that are not UTF-8, loops)",
  ),
  not_listed: z.number().int().describe(
    "how many entries were not listed, all of them (files past the limit included); a lower bound only when unreadable ends with '(the count): …'",
  ),
  next_cursor: z.string().nullable().describe(
    "when more entries match than this page lists, or a newest-first walk stopped at its time budget before every file was compared (files then empty): pass as cursor, with the same glob and sort, for the next page",
  ),
  artifact: artifactSchema,
  spill_summary: spillSummarySchema,
});

const config = {
  title: "List logs",
  description: "Logs under the roots (size, modified, format) as the tools name them; " +
    `${MAX_FILES} a page (next_cursor).`,
  inputSchema,
  outputSchema: outputSchema.shape,
  annotations: READ_ONLY,
};

/**
 * What `log_files` does, in full (`docs/tool_schemas.md`; the listed description is short).
 *
 * @param _limits The limits (none is quoted).
 * @returns The text.
 */
export const toolDocs = (_limits: Readonly<Limits>): string =>
  "Lists the log files logpeek can read: regular files under its roots, recursively, " +
  "with size in bytes and last modification time; sorted by name, or newest first (sort: modified). " +
  "glob keeps the names it matches (**/nginx/*.log*, app.log*: rotated siblings too). " +
  `At most limit (default and most ${MAX_FILES}) per page; complete is false beyond, not_listed counts ` +
  "every entry not listed, and next_cursor, passed as cursor, lists the next page. " +
  "Each file value is exactly what log_tail, log_search and log_levels take. A file they do not read is " +
  "listed with readable false and the reason: a format they refuse (xz, bzip2, zstd, zip, tar, a systemd " +
  "journal, UTF-16, …; also in unsupported, with what to run instead on its absolute path), or no " +
  "permission to open it. Over a ClickHouse root (a table), each source is a log TABLE/SOURCE and each row " +
  "a line TIME LEVEL BODY (line_no null); listed with their rows.";

/** What a listing was asked for, as its header says it. */
export interface FilesCall {
  /** The glob, if any. */
  glob?: string;
  /** The order; default `name`. */
  sort?: ListSort;
  /** Whether the page came after a cursor. */
  paged?: boolean;
}

/**
 * The first line of a listing's text: how many are listed (and of what: a glob, an order, after a
 * cursor), how many entries are not (all of them), how to go on, and how many the reading tools do not
 * read.
 *
 * @param list The listing.
 * @param call What was asked (default: everything by name, first page).
 */
export function filesHeader(list: LogList, call: FilesCall = {}): string {
  const { what: noun, items } = list.listed_as ?? { what: "log file(s)", items: "files" };
  const refused = list.files.filter((f) => f.unsupported !== null).length;
  const closed = list.files.filter((f) => !f.readable && f.unsupported === null).length;
  const named = list.unreadable.filter((u) => !u.startsWith(COUNT_STOPPED));
  const lowerBound = named.length < list.unreadable.length;
  const more = list.not_listed > named.length ? ` (and ${list.not_listed - named.length} more)` : "";
  const what = (call.glob !== undefined ? ` matching the glob '${printable(call.glob)}'` : "") +
    (call.sort === "modified" ? ", newest first" : "") + (call.paged ? ", after the cursor" : "");
  const first = call.paged ? "" : "the first ";
  return (list.complete
    ? `${list.files.length} ${noun}${what}; the list is complete.`
    : `${list.files.length} ${noun} listed${what}; the list is NOT complete: ` +
      `${lowerBound ? "at least " : ""}${list.not_listed} entr${
        list.not_listed === 1 ? "y" : "ies"
      } not listed` +
      (list.next ? ` (only ${first}${list.files.length} ${items} are listed)` : "") +
      (lowerBound ? "; the count stopped at its time budget, so more may exist" : "") +
      (named.length ? `; not listed: ${printable(named.join("; "))}${more}` : "") + "." +
      (list.next ? " Pass next_cursor as cursor (same glob and sort) for the next page." : "")) +
    (refused
      ? ` ${refused} of them in a format log_tail, log_search and log_levels do not read (marked NOT READ).`
      : "") +
    (closed ? ` ${closed} of them could not be opened (marked NOT READ, with why).` : "") +
    (list.closest?.length
      ? ` No log matches; the closest names: ${list.closest.map(printable).join(", ")}.`
      : "");
}

/** One listed log as a line of text: its size (a table's log: its rows), modified time, what it is. */
export function renderEntry(f: LogEntry): string {
  const size = f.rows !== undefined ? `${f.rows} rows` : `${f.size_bytes} bytes`;
  return `${printable(f.file)}\t${size}\t${f.modified ?? "?"}` +
    (f.compression ? `\t${f.compression}` : "") +
    (f.log_format ? `\tformat ${f.log_format}` : "") +
    (f.unsupported ? `\tNOT READ: ${printable(f.unsupported)}` : "") +
    (!f.readable && !f.unsupported ? `\tNOT READ: ${printable(f.reason ?? "?")}` : "");
}

/**
 * Registers `log_files` on `server`.
 *
 * @param server The MCP server.
 * @param deps Limits and the dispatcher.
 * @returns The registered tool (`server/tool_list.ts` lists it).
 */
export function registerLogFilesTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  return server.registerTool(
    "log_files",
    config,
    (args: ToolArgs) => deps.dispatch("log_files", args),
  );
}

/** The validated arguments of `log_files`. */
export type ToolArgs = z.infer<typeof inputSchema>;

/**
 * Runs `log_files` (in the tool worker, where log files are read).
 *
 * @param ctx The log source, limits, artifacts, redaction, the cursor key.
 * @param args The validated arguments.
 * @returns The result.
 * @throws {ToolError} for expected failures (the dispatcher turns them into `isError` results):
 *   `invalid_pattern` for a malformed glob, `invalid_cursor` for a cursor this server did not make or
 *   made for another glob or sort.
 */
export async function logFiles(ctx: ToolContext, args: ToolArgs): Promise<ToolResult> {
  const sort = args.sort ?? "name";
  const call = { glob: args.glob, sort, source: ctx.backend.shown };
  const start = args.cursor === undefined ? {} : readListCursor(args.cursor, call, ctx.cursorKey);
  const resume = start.walk === undefined ? undefined : readWalk(ctx, start.walk, call);
  let list: LogList;
  try {
    list = await ctx.backend.list({
      glob: args.glob,
      sort,
      limit: args.limit ?? MAX_FILES,
      after: start.after,
      resume,
      deadline: performance.now() + ctx.limits.searchMs,
    });
  } catch (e) {
    if (args.glob !== undefined && (e instanceof TypeError || e instanceof RangeError)) {
      throw new ToolError("invalid_pattern", `the glob '${printable(args.glob)}' is malformed: ${e.message}`);
    }
    throw e;
  }
  if (list.walk) return walkStoppedResult(ctx, list, call, start);
  const header = filesHeader(list, { ...call, paged: args.cursor !== undefined });
  const out = spill(ctx, "log_files", header, list.files.map(renderEntry));
  return okResult({
    files: list.files.slice(0, out.shown).map(({ modified_ms: _, ...f }) => f),
    complete: list.complete,
    unreadable: list.unreadable,
    not_listed: list.not_listed,
    next_cursor: list.next ? makeListCursor(list.next, call, ctx.cursorKey) : null,
    artifact: out.artifact,
    spill_summary: out.summary,
  }, out.text);
}

/** What the state of a stopped newest-first walk is saved as (issue #22). */
interface SavedWalk {
  /** The glob's hash and the sort it belongs to. */
  g: string;
  s: string;
  /** The walk. */
  w: ListWalk;
}

/**
 * The answer of a newest-first page whose walk stopped at its time budget before every file was
 * compared: no entry (none can be named the newest yet), and a cursor to the walk's saved state, which
 * the next call takes up where it stopped (nothing is skipped, whatever the order of the tree).
 */
function walkStoppedResult(
  ctx: ToolContext,
  list: LogList,
  call: { glob?: string; sort: ListSort; source?: string },
  start: ListStart,
): ToolResult {
  const walk = list.walk!;
  let next_cursor: string | null = null;
  let why = "";
  if (ctx.artifacts) {
    try {
      const saved: SavedWalk = { g: globHash(call.glob), s: call.sort, w: walk };
      const id = ctx.artifacts.writeState("log_files", JSON.stringify(saved));
      next_cursor = makeListCursor(start.after ?? null, call, ctx.cursorKey, id);
    } catch (e) {
      why = `its state could not be saved (${e instanceof Error ? e.message : e})`;
    }
  } else why = `no cursor can be given: ${ctx.artifactsOff}`;
  const text =
    `No log file listed yet${
      call.glob !== undefined ? ` matching the glob '${printable(call.glob)}'` : ""
    }, ` +
    `newest first: the walk stopped at its time budget (LOGPEEK_SEARCH_MS, ${ctx.limits.searchMs} ms) after ` +
    `comparing ${walk.seen} files, before every file was compared, so none can be named the newest yet; ` +
    "the list is NOT complete. " +
    (next_cursor
      ? "Pass next_cursor as cursor (same glob and sort) to go on walking where it stopped (nothing is skipped)."
      : `${why}: raise LOGPEEK_SEARCH_MS or narrow the listing with a glob.`);
  return okResult({
    files: [],
    complete: false,
    unreadable: list.unreadable,
    not_listed: list.not_listed,
    next_cursor,
  }, text);
}

/**
 * The saved state of a stopped walk that a cursor names, checked to belong to this call.
 *
 * @throws {ToolError} `artifact_not_found` when it is gone (`state/artifacts.ts`); `invalid_cursor` when
 *   it is not a walk of this glob and sort, or no state directory is in use.
 */
function readWalk(
  ctx: ToolContext,
  id: string,
  call: { glob?: string; sort: ListSort; source?: string },
): ListWalk {
  if (!ctx.artifacts) {
    throw new ToolError("invalid_cursor", `the cursor names a saved walk: ${ctx.artifactsOff}`);
  }
  let saved: SavedWalk;
  try {
    saved = JSON.parse(ctx.artifacts.readState("log_files", id)) as SavedWalk;
  } catch (e) {
    if (e instanceof ToolError) throw e;
    throw new ToolError("invalid_cursor", "the saved walk is damaged; start again without cursor");
  }
  if (
    typeof saved !== "object" || saved === null || saved.g !== globHash(call.glob) ||
    saved.s !== call.sort ||
    typeof saved.w?.at !== "string" || !Array.isArray(saved.w.kept) || !Array.isArray(saved.w.dirs)
  ) {
    throw new ToolError(
      "invalid_cursor",
      "the saved walk belongs to another listing; start again without cursor",
    );
  }
  return saved.w;
}
