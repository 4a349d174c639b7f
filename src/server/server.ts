/**
 * The logpeek MCP server: `createServer(config)` builds it with its six tools; `main.ts` connects it
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
import { listToolsCompactly, type ToolSet } from "./tool_list.ts";
import { checkOutputsInOnePass } from "./output_check.ts";

/** What the server is built from: the limits (quoted in descriptions) and where calls run. */
export type ServerConfig = ToolDeps;

/**
 * Builds the MCP server with `log_files`, `log_tail`, `log_search`, `log_levels`, `log_patterns` and
 * `read_artifact`, listed compactly (`tool_list.ts`), each answer checked against its output schema
 * (`output_check.ts`).
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
        "partial search as proof that something is absent. since/until take ISO 8601 instants (without a zone: " +
        "LOGPEEK_TZ) or durations back from now (-15m, -2h, -3d); since is inclusive, until exclusive.",
    },
  );
  // Each answer checked against its output schema in the tool's handler, in one synchronous pass.
  listToolsCompactly(server, checkOutputsInOnePass(registerTools(server, config)));
  return server;
}

/**
 * Registers logpeek's tools on `server` (`createServer` does; `scripts/tool_docs.ts` too, for their schemas).
 *
 * @param server The MCP server.
 * @param config Limits, and the dispatcher that runs the tools.
 * @returns The registered tools by name, in the order `tools/list` lists them.
 */
export function registerTools(server: McpServer, config: ServerConfig): ToolSet {
  return {
    log_files: registerLogFilesTool(server, config),
    log_tail: registerLogTailTool(server, config),
    log_search: registerLogSearchTool(server, config),
    log_levels: registerLogLevelsTool(server, config),
    log_patterns: registerLogPatternsTool(server, config),
    read_artifact: registerReadArtifactTool(server, config),
  };
}
