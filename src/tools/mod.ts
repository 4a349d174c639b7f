/**
 * # src/tools/
 *
 * One file per tool (schema, config with annotations, `registerXTool(server, deps)`, the handler), plus what
 * they share: the context (`deps.ts`), the outcome wrapper (`outcome.ts`), text rendering (`render.ts`,
 * `context_render.ts`), spilling (`spill.ts`), one call over one log or every log a glob matches
 * (`many_logs.ts`), the time window arguments (`time_args.ts`) and the listing cursor (`list_cursor.ts`). Tools reach logs only through the `LogSource` seam (`source/log_source.ts`), never
 * an implementation. May import state, that seam, read, guard and core.
 *
 * Layers, highest first: cli, server, tools, state, source, read, guard, core; an import goes to
 * the same layer or a lower one (`tests/layers_test.ts`; ARCHITECTURE.md).
 *
 * @module
 */

export {};
