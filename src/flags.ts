/**
 * The Deno permission flags logpeek runs with: read access to the roots (and their real paths, since
 * Deno checks an opened file's resolved path), the environment variables it reads, and nothing else:
 * no write, net, run, ffi or sys.
 *
 * @module
 */

import { ENV_NAMES } from "./config.ts";

/**
 * The `deno run` flags for serving `readPaths`.
 *
 * @param readPaths Absolute paths to allow reading: each root, and its real path where that differs.
 * @returns Flags to put before the script name.
 * @example
 * ```ts
 * import { serverFlags } from "./flags.ts";
 * console.assert(serverFlags(["/var/log/app"])[1] === "--allow-read=/var/log/app");
 * ```
 */
export function serverFlags(readPaths: string[]): string[] {
  return [
    "--no-prompt",
    `--allow-read=${[...new Set(readPaths)].join(",")}`,
    `--allow-env=${ENV_NAMES.join(",")}`,
  ];
}
