/**
 * logpeek's entry point: `deno run --no-prompt --allow-read=ROOT --allow-env=LOGPEEK_… main.ts ROOT...`.
 * See `src/cli/cli.ts` for flags and exit codes.
 *
 * @module
 */

import { main } from "./src/cli/cli.ts";
import { inWorker, runToolWorker } from "./src/server/tool_worker.ts";
import { inPatternWorker, runPatternWorker } from "./src/read/pattern_offload.ts";

if (import.meta.main && inPatternWorker()) {
  // A worker with no permissions that tests a pattern on long lines (src/read/pattern_offload.ts).
  runPatternWorker();
} else if (import.meta.main && inWorker()) {
  // This module also runs as the permission-narrowed tool worker (src/server/worker_host.ts).
  runToolWorker();
} else if (import.meta.main) {
  // stdout carries the MCP protocol only: anything a library logs goes to stderr.
  console.log = console.error;
  console.info = console.error;
  const code = await main(Deno.args);
  if (code !== null) Deno.exit(code);
}
