/**
 * Turning what a tool handler did into an MCP tool result (the seed's three outcomes): a result, an
 * expected failure (`isError` with a text that says what happened and what to do), or an unexpected
 * exception (`isError` with a generic text and a short error id; the stack goes to stderr).
 *
 * @module
 */

import { ToolError } from "../core/errors.ts";
import { redactLine } from "../guard/redact.ts";

/** An MCP `CallToolResult` as logpeek's tools return it. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A successful result: `structuredContent` plus its compact text rendering for the model.
 *
 * @param structured The result, matching the tool's outputSchema.
 * @param text The same facts as text.
 */
export function okResult(structured: Record<string, unknown>, text: string): ToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/**
 * Wraps a tool handler so that no exception leaves it. An expected failure's message is masked
 * (`guard/redact.ts` `redactLine`): it may echo what the caller sent, a secret in a pattern or a name.
 *
 * @param tool The tool's name, for the stderr line.
 * @param stderr Receives the diagnostics of unexpected exceptions.
 * @param handler The handler.
 * @returns A handler that always returns a result.
 */
export function guarded<A>(
  tool: string,
  stderr: (line: string) => void,
  handler: (args: A) => Promise<ToolResult>,
): (args: A) => Promise<ToolResult> {
  return async (args: A) => {
    try {
      return await handler(args);
    } catch (e) {
      if (e instanceof ToolError) {
        // The message may echo an argument (a pattern, a file name): masked as the trace masks arguments.
        return {
          content: [{ type: "text", text: `${e.kind}: ${redactLine(e.message).text}` }],
          isError: true,
        };
      }
      const id = crypto.randomUUID().slice(0, 8);
      stderr(
        `logpeek: ${tool} failed unexpectedly (error id ${id}): ${e instanceof Error ? e.stack : String(e)}`,
      );
      return {
        content: [{
          type: "text",
          text:
            `internal_error: ${tool} failed unexpectedly (error id ${id}); nothing was read for this call. ` +
            "The details are in the server's stderr; call again, or report the id.",
        }],
        isError: true,
      };
    }
  };
}
