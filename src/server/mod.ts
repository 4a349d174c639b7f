/**
 * # src/server/
 *
 * The MCP server: `createServer` (`server.ts`) registers the tools and lists them compactly (`tool_list.ts`:
 * the same schemas as zod's, without what accepts nothing more or less); calls reach them through a dispatcher,
 * in-process (`handlers.ts`) or in the permission-narrowed tool worker (`worker_host.ts`, `tool_worker.ts`).
 * Frames come in through logpeek's own stdio transport (`stdio_transport.ts`, frame caps) wrapped by the
 * call trace (`trace.ts`). May import tools, state, source, read, guard and core; never cli.
 *
 * Layers, highest first: cli, server, tools, state, source, read, guard, core; an import goes to
 * the same layer or a lower one (`tests/layers_test.ts`; ARCHITECTURE.md).
 *
 * @module
 */

export {};
