/**
 * The Deno permission flags logpeek runs with: read access to the roots (and their real paths, since
 * Deno checks an opened file's resolved path) and to the state directory, write access to the state
 * directory only, network access to the `HOST:PORT` of a ClickHouse root only, the environment variables
 * it reads, its own user id (`--allow-sys=uid`: whose folders
 * are safe from swaps, `confine.ts`), and nothing else: no other net, no run, ffi or other sys access. And the
 * V8 flags that keep resident memory flat under many calls ({@linkcode V8_FLAGS}).
 *
 * @module
 */

import { ENV_NAMES } from "../core/config.ts";
import { patternWorkerFolder } from "../read/pattern_offload.ts";
import { isClickHouseRoot, parseClickHouseRoot } from "../source/clickhouse/target.ts";

/**
 * The V8 flags logpeek runs with (issue #10, item 16: resident memory grew from 98 to 258 MB over 12,000
 * calls). Each call's short-lived garbage goes to V8's young generation, two semi-spaces that V8 lets grow
 * with call volume to 32 MiB each here (Deno 2.9.6, V8 15.0: `node:v8` reports a new space of 64 MiB);
 * `--max-semi-space-size=4` keeps them at 4 MiB each. Measured with `bench/calls_memory.ts` (20,000 mixed
 * calls; docs/performance.md has the table): growth from call 100 to call 20,000 was 78 MiB in-process and 152 MiB
 * in worker mode without it, 23–36 and 24–34 MiB with it (two runs each). A semi-space of 1 MiB grew more
 * (40 MiB: objects promoted early), 2 and 8 MiB peaked higher (47 and 56 MiB in worker mode); the time per
 * call was the same within this machine's noise.
 *
 * No `--max-old-space-size`: it did not reduce growth (72 and 132 MiB with 128), and a cap on the old
 * space cannot be derived from logpeek's bounds, since how many calls are in flight at once is not
 * bounded (each may hold up to 5,000 lines of `LOGPEEK_MAX_LINE` characters); a cap would end the process
 * on a legitimate burst of large answers. A semi-space cap cannot: larger allocations go to the old space.
 */
export const V8_FLAGS: readonly string[] = ["--max-semi-space-size=4"];

/** {@linkcode V8_FLAGS} as one `deno run` / `deno compile` flag. */
export const V8_FLAG = `--v8-flags=${V8_FLAGS.join(",")}`;

/**
 * Why `paths` cannot be put into a Deno permission list, as one line, or null when they can. Deno splits
 * `--allow-read=` and `--allow-write=` at commas, and has no escape: in Deno 2.9.6 `--allow-read=/x/a,,b`
 * grants `/x/a`, `b` and an empty entry, which grants reading everything (tried with `deno eval`).
 *
 * @param paths Absolute paths (roots, their real paths, the state directory).
 * @returns The mistake (exit 2), naming the first path with a comma.
 */
export function commaProblem(paths: readonly string[]): string | null {
  const bad = paths.find((p) => p.includes(","));
  if (bad === undefined) return null;
  return `${bad} has a comma, which a Deno permission list cannot hold (--allow-read splits at commas ` +
    "and has no escape): serve it by a path without a comma";
}

/**
 * The `deno run` flags for serving `readPaths` with state in `stateDir`.
 *
 * Read permission covers `readPaths`, the state directory, and the folder of the worker that tests a
 * pattern on long lines ({@linkcode patternWorkerFolder}: Deno checks read permission when a worker
 * loads its module).
 *
 * @param readPaths Absolute paths to allow reading: each root, and its real path where that differs.
 * @param stateDir The state directory (pass it to logpeek as `--state-dir` too), or null: none (no
 *   `--allow-write`; the server then says on stderr that long answers are cut and calls not traced).
 * @param worker The folder the pattern worker's module is read from: by default this program's
 *   ({@linkcode patternWorkerFolder}); for another program, its own (a bundle's folder, or a checkout's
 *   `src/read`; {@linkcode workerFolderOf}); null: none.
 * @param net `HOST:PORT` of each ClickHouse root (issue #14; {@linkcode netOfRoots}): network access to
 *   those only (`--allow-net=HOST:PORT`); none by default.
 * @returns Flags to put before the script name: the permissions, then {@linkcode V8_FLAG}.
 * @throws {RangeError} when a path has a comma ({@linkcode commaProblem}): callers check first.
 * @example
 * ```ts
 * import { serverFlags } from "./flags.ts";
 * const f = serverFlags(["/var/log/app"], "/home/me/.local/state/logpeek");
 * console.assert(f[1].startsWith("--allow-read=/var/log/app,/home/me/.local/state/logpeek"));
 * console.assert(f[2] === "--allow-write=/home/me/.local/state/logpeek");
 * ```
 */
export function serverFlags(
  readPaths: string[],
  stateDir: string | null,
  worker: string | null = patternWorkerFolder(),
  net: readonly string[] = [],
): string[] {
  const read = [
    ...new Set([
      ...readPaths,
      ...(stateDir === null ? [] : [stateDir]),
      ...(worker === null ? [] : [worker]),
    ]),
  ];
  const problem = commaProblem(read);
  if (problem) throw new RangeError(problem);
  return [
    "--no-prompt",
    `--allow-read=${read.join(",")}`,
    ...(stateDir === null ? [] : [`--allow-write=${stateDir}`]),
    ...(net.length ? [`--allow-net=${net.join(",")}`] : []),
    `--allow-env=${ENV_NAMES.join(",")}`,
    "--allow-sys=uid",
    V8_FLAG,
  ];
}

/**
 * The folder the pattern worker of the program at `path` loads its module from: a bundle's own folder
 * (the worker runs the bundle), a checkout's `src/read` for its `main.ts` (the worker runs
 * `src/read/pattern_offload.ts`).
 *
 * @param kind What `path` is.
 * @param path The program's absolute path.
 * @returns An absolute folder.
 */
export function workerFolderOf(kind: "bundle" | "source", path: string): string {
  const dir = path.replace(/\/[^/]*$/, "") || "/";
  return kind === "bundle" ? dir : `${dir === "/" ? "" : dir}/src/read`;
}

/**
 * The `HOST:PORT` each ClickHouse root of a command line needs (`--allow-net`), and the other roots.
 *
 * @param roots The ROOT arguments.
 * @returns `net`: one `HOST:PORT` per ClickHouse root (a malformed one is left out: the server says what is
 *   wrong with it at start); `files`: the roots that are paths.
 */
export function netOfRoots(roots: readonly string[]): { net: string[]; files: string[] } {
  const net: string[] = [];
  const files: string[] = [];
  for (const r of roots) {
    if (!isClickHouseRoot(r)) files.push(r);
    else {
      try {
        net.push(parseClickHouseRoot(r, () => undefined).netPermission);
      } catch {
        // logpeek itself refuses it, saying why
      }
    }
  }
  return { net: [...new Set(net)], files };
}
