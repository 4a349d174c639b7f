/**
 * Turning what a tool handler did into an MCP tool result (the seed's three outcomes): a result, an
 * expected failure (`isError` with a text that says what happened and what to do), or an unexpected
 * exception (`isError` with a generic text and a short error id; the stack goes to stderr).
 *
 * @module
 */

import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import { closestLogNames, isGlob, type LogSource } from "../source/log_source.ts";

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
 * Wraps a tool handler so that no exception leaves it.
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
        return { content: [{ type: "text", text: `${e.kind}: ${e.message}` }], isError: true };
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

/**
 * A `not_found` for a log named outright (`file`, `baseline_file`), with the closest log names added
 * (issue #24: `log_tail file=app.lgo` named none, where a glob that matches nothing does); any other
 * error as it was. The names come from the listing (`source/matching_logs.ts` `closestLogNames`, at most
 * 2 s of it), and each is named only if it opens now as a log (`LogSource.open`, confined as reading is).
 *
 * @param source The log source.
 * @param args The call's arguments.
 * @param e What the tool threw.
 * @returns The error to throw.
 */
export async function withClosestNames(
  source: LogSource,
  args: Record<string, unknown>,
  e: unknown,
): Promise<unknown> {
  if (!(e instanceof ToolError) || e.kind !== "not_found" || source.table) return e;
  for (const key of ["file", "baseline_file"]) {
    const name = args[key];
    if (
      typeof name !== "string" || isGlob(name) || !e.message.startsWith(`log ${printable(name)} not found`)
    ) {
      continue;
    }
    let near: string[] = [];
    try {
      near = (await closestLogNames(source, name)).filter((n) => n !== name);
    } catch {
      // a name the glob rules cannot take: no names to add
    }
    // Each name only if it opens as a log now, confined as reading is: a listing walked while a folder
    // was swapped (by logpeek's own user: a known limit of listing) must not name what lies outside.
    const opens: string[] = [];
    for (const n of near) {
      try {
        (await source.open(n)).close();
        opens.push(n);
      } catch {
        // gone, refused or outside: not named
      }
    }
    near = opens;
    if (near.length === 0) return e;
    return new ToolError(
      "not_found",
      `${e.message}; the closest log names: ${near.map(printable).join(", ")}`,
    );
  }
  return e;
}
