/**
 * `read_artifact`: pages of a result that was too long to show whole.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Limits } from "../core/config.ts";
import { strictArgs, wholeNumber } from "./args.ts";
import { ToolError } from "../core/errors.ts";
import { okResult, type ToolResult } from "./outcome.ts";
import { printable } from "../guard/printable.ts";
import { cutText } from "../core/text_cut.ts";
import { READ_ONLY, type ToolContext, type ToolDeps } from "./deps.ts";

const inputSchema = strictArgs("read_artifact", {
  artifact_id: z.string().max(100).meta({ details: "the id a spilled result gave" }),
  offset: z.number().int().min(0).default(0).describe("next_offset (0-based)").meta({
    details: "the first line to return, 0-based",
  }),
  limit: wholeNumber("limit", 1, 200, "the next page starts at next_offset").default(50).meta({
    details: "how many lines at most (1..200)",
  }),
});

const outputSchema = z.object({
  artifact_id: z.string(),
  offset: z.number().int(),
  lines: z.array(z.string()),
  total_lines: z.number().int(),
  next_offset: z.number().int().nullable().describe(
    "where the next page starts; null at the end. A page holds at most limit lines and no more than fit within LOGPEEK_INLINE_CHARS (a longer single line is cut, ending with …)",
  ),
});

/**
 * What `read_artifact` does, in full (`docs/tool_schemas.md`; the listed description is short).
 *
 * @param limits The limits it quotes.
 * @returns The text.
 */
export const toolDocs = (limits: Readonly<Limits>): string =>
  "Reads a page of a result that another logpeek tool saved as an artifact because it was " +
  "too long to show whole (its answer says the artifact_id and the offset to start from). Artifacts " +
  `expire after ${limits.artifactTtlS} s (LOGPEEK_ARTIFACT_TTL_S), or sooner when together they ` +
  "exceed LOGPEEK_ARTIFACT_MAX_BYTES (the oldest are removed first).";

/**
 * Registers `read_artifact` on `server`.
 *
 * @param server The MCP server.
 * @param deps The artifact store and limits.
 * @returns The registered tool (`server/tool_list.ts` lists it).
 */
export function registerReadArtifactTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  return server.registerTool(
    "read_artifact",
    {
      title: "Read a saved answer",
      description: `Pages an answer too long to show whole (kept ${deps.limits.artifactTtlS} s).`,
      inputSchema,
      outputSchema: outputSchema.shape,
      annotations: READ_ONLY,
    },
    (args: ToolArgs) => deps.dispatch("read_artifact", args),
  );
}

/** The validated arguments of `read_artifact`. */
export type ToolArgs = z.infer<typeof inputSchema>;

/**
 * Runs `read_artifact` (in the tool worker, where log files are read).
 *
 * @param ctx The log source, limits, artifacts, redaction.
 * @param args The validated arguments.
 * @returns The result.
 * @throws {ToolError} for expected failures (the dispatcher turns them into `isError` results).
 */
export async function readArtifact(ctx: ToolContext, args: ToolArgs): Promise<ToolResult> {
  if (!ctx.artifacts) {
    throw new ToolError("artifact_not_found", `no artifacts can be read here: ${ctx.artifactsOff}`);
  }
  const got = await ctx.artifacts.read(args.artifact_id, args.offset, args.limit);
  if (got.lines.length === 0 && args.offset >= got.total_lines) {
    const past =
      `artifact ${args.artifact_id}: offset ${args.offset} is past its end (${got.total_lines} lines, ` +
      `offsets 0..${Math.max(0, got.total_lines - 1)}).`;
    return okResult({ artifact_id: args.artifact_id, offset: args.offset, ...got }, printable(past));
  }
  const head = (shown: number, next: number | null, cut: boolean) =>
    `artifact ${args.artifact_id}: lines ${args.offset + 1}..${args.offset + shown} of ${got.total_lines}` +
    (shown < got.lines.length
      ? ` (of the ${got.lines.length} asked, as many as fit within LOGPEEK_INLINE_CHARS, ${ctx.limits.inlineChars})`
      : "") +
    (cut ? `; line ${args.offset + 1} is longer than that and is cut (its start shown)` : "") + "; " +
    (next === null
      ? "that is the end."
      : `more: read_artifact(artifact_id="${args.artifact_id}", offset=${next}, limit=${args.limit}).`);
  // The room the lines have: what the longest header (every count at its largest) leaves; in
  // structuredContent, what its other fields leave.
  const worst = head(0, args.offset + got.lines.length + got.total_lines, true).length + 1;
  // The saved items were rendered printable when written; escaped again here (it changes nothing
  // then), a line of the artifact file still takes exactly one line of the answer.
  const fit = fitPage(got.lines.map(printable), ctx.limits.inlineChars - worst, ctx.limits.inlineChars - 200);
  const next = fit.lines.length < got.lines.length ? args.offset + fit.lines.length : got.next_offset;
  return okResult(
    { artifact_id: args.artifact_id, offset: args.offset, ...got, lines: fit.lines, next_offset: next },
    [printable(head(fit.lines.length, next, fit.cut)), ...fit.lines].join("\n"),
  );
}

/**
 * The longest line a page shows whole when it is the page's only line, in characters (UTF-16 code
 * units): a page is at most this, its header and JSON's escapes, when LOGPEEK_INLINE_CHARS is smaller.
 */
export const ONE_LINE = 4000;

/**
 * The lines of a page that fit (issue #24: a page of 200 lines of 1,000 characters was 203,633
 * characters, four times what clients accept): as many whole lines as fit in `textRoom` characters of
 * text (each line and a line feed) and in `jsonRoom` characters of structuredContent (each line's
 * `JSON.stringify` and a comma); at least one: the first, whole up to {@linkcode ONE_LINE} characters,
 * else cut to fit (ending with `…`).
 *
 * @param lines The printable lines asked for, in order.
 * @param textRoom Characters of text the lines may take.
 * @param jsonRoom Characters of JSON the lines may take.
 * @returns The lines to show, and whether the first was cut.
 */
export function fitPage(
  lines: string[],
  textRoom: number,
  jsonRoom: number,
): { lines: string[]; cut: boolean } {
  const out: string[] = [];
  let text = 0;
  let json = 0;
  for (const line of lines) {
    const t = line.length + 1;
    const j = JSON.stringify(line).length + 1;
    if (text + t > textRoom || json + j > jsonRoom) break;
    out.push(line);
    text += t;
    json += j;
  }
  if (out.length > 0 || lines.length === 0) return { lines: out, cut: false };
  // A line alone is shown whole up to ONE_LINE characters, whatever a small LOGPEEK_INLINE_CHARS leaves
  // (a saved template is one JSON object a line: cut, it could not be read).
  if (lines[0].length <= ONE_LINE) return { lines: [lines[0]], cut: false };
  // One line longer than the room: its start, cut so its JSON (escapes take up to six characters a
  // character) fits as well.
  let n = Math.max(1, Math.min(textRoom, jsonRoom) - 2);
  let head = cutText(lines[0], n);
  while (JSON.stringify(head + "…").length + 1 > jsonRoom && n > 1) {
    head = cutText(lines[0], n = Math.floor(n * 0.8));
  }
  return { lines: [head + "…"], cut: true };
}
