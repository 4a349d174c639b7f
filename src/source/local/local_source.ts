/**
 * The local log source: regular files under the roots given on the command line, listed recursively
 * (`list_logs.ts`) and opened confined and race-free (`log_file.ts`, `confine.ts`).
 *
 * Permission: read access to the roots.
 *
 * @module
 */

import { listLogs } from "./list_logs.ts";
import { openLog } from "./log_file.ts";
import type { LogSource } from "../log_types.ts";
import type { Root } from "./roots.ts";

/**
 * The {@linkcode LogSource} over local files under `roots`.
 *
 * @param roots The roots, from `openRoots` (`roots.ts`).
 * @returns The source the tools read through.
 */
export function localSource(roots: Root[]): LogSource {
  return {
    list: (opts) => listLogs(roots, opts),
    open: (name) => openLog(roots, name),
  };
}
