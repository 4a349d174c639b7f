/**
 * The logpeek MCP server: `createServer(config)` builds it with its four tools; `main.ts` connects it
 * to stdio. No module-level mutable state: everything a tool needs comes through its deps.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "../tools/deps.ts";
import { registerLogFilesTool } from "../tools/log_files.ts";
import { registerLogLevelsTool } from "../tools/log_levels.ts";
import { registerLogPatternsTool } from "../tools/log_patterns.ts";
import { registerLogSearchTool } from "../tools/log_search.ts";
import { registerLogTailTool } from "../tools/log_tail.ts";
import { registerReadArtifactTool } from "../tools/read_artifact.ts";
import { VERSION } from "../core/version.ts";

/** What the server is built from: the limits (quoted in descriptions) and where calls run. */
export type ServerConfig = ToolDeps;

/**
 * Builds the MCP server with `log_files`, `log_tail`, `log_search`, `log_levels` and `read_artifact`.
 *
 * @param config Limits, and the dispatcher that runs the tools (the tool worker, or in-process).
 * @returns The server, not yet connected.
 */
export function createServer(config: ServerConfig): McpServer {
  const server = new McpServer(
    { name: "logpeek", version: VERSION },
    {
      instructions: "logpeek reads this host's log files, read-only. Call log_files first for the names. " +
        "Every answer says what it did not see: trust 'complete: false' and stop_reason, never treat a " +
        "partial search as proof that something is absent.",
    },
  );
  registerLogFilesTool(server, config);
  registerLogTailTool(server, config);
  registerLogSearchTool(server, config);
  registerLogLevelsTool(server, config);
  registerLogPatternsTool(server, config);
  registerReadArtifactTool(server, config);
  return server;
}
