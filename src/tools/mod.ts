/**
 * # src/tools/
 *
 * One file per tool (schema, config with annotations, `registerXTool(server, deps)`, the handler), plus what
 * they share: the context (`deps.ts`), the outcome wrapper (`outcome.ts`), text rendering (`render.ts`) and
 * spilling (`spill.ts`). Tools reach logs only through the `LogSource` seam (`source/log_source.ts`), never
 * an implementation. May import state, that seam, read, guard and core.
 *
 * Layers, highest first: cli, server, tools, state, source, read, guard, core; an import goes to
 * the same layer or a lower one (`tests/layers_test.ts`; ARCHITECTURE.md).
 *
 * @module
 */

export {};
