/**
 * # src/source/
 *
 * Where log lines come from. `log_source.ts` is the seam the tools call (list logs; open one as a
 * `ReadableLog`); `local_source.ts` is the implementation over local files: the roots (`roots.ts`),
 * confinement by real path and against swapped folders (`confine.ts`), the race-free open (`log_file.ts`)
 * and the listing (`list_logs.ts`); over any source: globs over log names (`glob.ts`) and the logs a glob
 * names, newest first (`matching_logs.ts`). May import read (its types), guard and core.
 *
 * Layers, highest first: cli, server, tools, state, source, read, guard, core; an import goes to
 * the same layer or a lower one (`tests/layers_test.ts`; ARCHITECTURE.md).
 *
 * @module
 */

export {};
