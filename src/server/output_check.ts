/**
 * Each tool's answer checked against its output schema in one synchronous zod pass, in place of the SDK's
 * own check (issue #26, item 2). The SDK (1.32.2, `McpServer.validateToolOutput`) checks `structuredContent`
 * with zod's `safeParseAsync`, and zod 4 compiles its fast path for an object schema only for a synchronous
 * parse: a page of 5,000 `log_search` matches took 6–10 ms that way against 0.6–0.9 ms with `safeParse`
 * (`docs/performance.md`, "Many matches"). The same schema, the same rules, the same error result: the
 * SDK's message (`Output validation error: …`), as a tool error (`isError`), which the SDK makes of an
 * error thrown by a tool's handler as it does of its own check's.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/types.d.ts"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/zod-compat.d.ts"
import { getParseErrorMessage } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { z } from "zod";
import type { ToolSet } from "./tool_list.ts";

/** A tool handler as the SDK calls it: `(args, extra)` for a tool with an input schema. */
type Handler = (...params: unknown[]) => unknown;

/**
 * Moves the output check of each tool in `tools` from the SDK into the tool's handler, synchronous: the
 * registered tool keeps no `outputSchema` (so the SDK checks nothing), and its handler checks the answer
 * against that schema ({@linkcode checkedOutput}). Call it once, after the tools are registered; list the
 * tools from what it returns (their schemas as registered), not from `tools`.
 *
 * @param tools The registered tools, by name (changed in place).
 * @returns A copy of each tool as registered, with its `outputSchema`, for `tool_list.ts` to list.
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 * import { z } from "zod";
 * import { checkOutputsInOnePass } from "./output_check.ts";
 * const server = new McpServer({ name: "x", version: "1" });
 * const tool = server.registerTool("t", { inputSchema: {}, outputSchema: { n: z.number() } }, () => ({
 *   content: [],
 *   structuredContent: { n: 1 },
 * }));
 * const listed = checkOutputsInOnePass({ t: tool });
 * console.assert(tool.outputSchema === undefined && listed.t.outputSchema !== undefined);
 * ```
 */
export function checkOutputsInOnePass(tools: ToolSet): ToolSet {
  const listed: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    listed[name] = { ...tool };
    const schema = tool.outputSchema as z.ZodType | undefined;
    if (!schema) continue;
    const handler = tool.handler as Handler;
    tool.outputSchema = undefined;
    tool.handler = (async (...params: unknown[]) =>
      checkedOutput(name, schema, await handler(...params))) as typeof tool.handler;
  }
  return listed;
}

/**
 * `result` itself when it is an error result, or when its `structuredContent` is what `schema` accepts
 * (zod's synchronous `safeParse`); the same rules as the SDK's `validateToolOutput`.
 *
 * @param name The tool's name (for the message).
 * @param schema The tool's output schema (a zod object).
 * @param result What the tool's handler returned.
 * @returns `result`.
 * @throws {McpError} `InvalidParams`, "Output validation error: …", when `structuredContent` is missing or
 *   not what the schema accepts (the SDK turns it into an `isError` result).
 */
export function checkedOutput(name: string, schema: z.ZodType, result: unknown): unknown {
  if (result === null || typeof result !== "object" || !("content" in result)) return result;
  const r = result as { isError?: boolean; structuredContent?: unknown };
  if (r.isError) return result;
  if (!r.structuredContent) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Output validation error: Tool ${name} has an output schema but no structured content was provided`,
    );
  }
  const parsed = schema.safeParse(r.structuredContent);
  if (!parsed.success) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Output validation error: Invalid structured content for tool ${name}: ${
        getParseErrorMessage(parsed.error)
      }`,
    );
  }
  return result;
}
