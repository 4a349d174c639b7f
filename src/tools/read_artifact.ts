/**
 * `read_artifact`: pages of a result that was too long to show whole.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { ToolError } from "../core/errors.ts";
import { okResult, type ToolResult } from "./outcome.ts";
import { printable } from "../guard/printable.ts";
import { READ_ONLY, type ToolContext, type ToolDeps } from "./deps.ts";

const inputSchema = z.object({
  artifact_id: z.string().max(100).describe("the id a spilled result gave"),
  offset: z.number().int().min(0).default(0).describe("the first line to return, 0-based"),
  limit: z.number().int().min(1).max(200).default(50).describe("how many lines at most (1..200)"),
});

const outputSchema = z.object({
  artifact_id: z.string(),
  offset: z.number().int(),
  lines: z.array(z.string()),
  total_lines: z.number().int(),
  next_offset: z.number().int().nullable().describe("where the next page starts; null at the end"),
});

/**
 * Registers `read_artifact` on `server`.
 *
 * @param server The MCP server.
 * @param deps The artifact store and limits.
 */
export function registerReadArtifactTool(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "read_artifact",
    {
      title: "Read a saved result",
      description: "Reads a page of a result that another logpeek tool saved as an artifact because it was " +
        "too long to show whole (its answer says the artifact_id and the offset to start from). Artifacts " +
        `expire after ${deps.limits.artifactTtlS} s (LOGPEEK_ARTIFACT_TTL_S), or sooner when together they ` +
        "exceed LOGPEEK_ARTIFACT_MAX_BYTES (the oldest are removed first).",
      inputSchema: inputSchema.shape,
      outputSchema: outputSchema.shape,
      annotations: { ...READ_ONLY, title: "Read a saved result" },
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
  const page = await ctx.artifacts.read(args.artifact_id, args.offset, args.limit);
  const past = page.lines.length === 0 && args.offset >= page.total_lines;
  const head = past
    ? `artifact ${args.artifact_id}: offset ${args.offset} is past its end (${page.total_lines} lines, ` +
      `offsets 0..${Math.max(0, page.total_lines - 1)}).`
    : `artifact ${args.artifact_id}: lines ${args.offset + 1}..${args.offset + page.lines.length} of ` +
      `${page.total_lines}; ` +
      (page.next_offset === null
        ? "that is the end."
        : `more: read_artifact(artifact_id="${args.artifact_id}", offset=${page.next_offset}, limit=${args.limit}).`);
  // The saved items were rendered printable when written; escaped again here (it changes nothing
  // then), a line of the artifact file still takes exactly one line of the answer.
  return okResult(
    { artifact_id: args.artifact_id, offset: args.offset, ...page },
    [printable(head), ...page.lines.map(printable)].join("\n"),
  );
}
