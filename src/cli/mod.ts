/**
 * # src/cli/
 *
 * The command line: `logpeek [options] ROOT...` (serve), `logpeek config`, `logpeek trace-report`; flags,
 * usage text, exit codes (one place, `cli.ts`), reading the command line into options with every mistake as
 * one line (`command_line.ts`, `did_you_mean.ts`, `shown_arg.ts`), the Deno permission flags logpeek runs
 * with (`flags.ts`) and client entries (`client_config.ts`). It wires the layers together at start and may import every layer
 * below it. Nothing here runs per call.
 *
 * Layers, highest first: cli, server, tools, state, source, read, guard, core; an import goes to
 * the same layer or a lower one (`tests/layers_test.ts`; ARCHITECTURE.md).
 *
 * @module
 */

export {};
