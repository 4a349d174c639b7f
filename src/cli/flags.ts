/**
 * The Deno permission flags logpeek runs with: read access to the roots (and their real paths, since
 * Deno checks an opened file's resolved path) and to the state directory, write access to the state
 * directory only, the environment variables it reads, its own user id (`--allow-sys=uid`: whose folders
 * are safe from swaps, `confine.ts`), and nothing else: no net, run, ffi or other sys access.
 *
 * @module
 */

import { ENV_NAMES } from "../core/config.ts";

/**
 * The `deno run` flags for serving `readPaths` with state in `stateDir`.
 *
 * @param readPaths Absolute paths to allow reading: each root, and its real path where that differs.
 * @param stateDir The state directory (pass it to logpeek as `--state-dir` too).
 * @returns Flags to put before the script name.
 * @example
 * ```ts
 * import { serverFlags } from "./flags.ts";
 * const f = serverFlags(["/var/log/app"], "/home/me/.local/state/logpeek");
 * console.assert(f[1] === "--allow-read=/var/log/app,/home/me/.local/state/logpeek");
 * console.assert(f[2] === "--allow-write=/home/me/.local/state/logpeek");
 * ```
 */
export function serverFlags(readPaths: string[], stateDir: string): string[] {
  return [
    "--no-prompt",
    `--allow-read=${[...new Set([...readPaths, stateDir])].join(",")}`,
    `--allow-write=${stateDir}`,
    `--allow-env=${ENV_NAMES.join(",")}`,
    "--allow-sys=uid",
  ];
}
