/**
 * The tools' dispatcher in this process over a temporary folder (`server/handlers.ts` `localDispatch`),
 * for tests that need a real answer without a server: masking on, default limits, no artifacts.
 *
 * @module
 */

import { DEFAULT_LIMITS } from "../src/core/config.ts";
import { localDispatch } from "../src/server/handlers.ts";
import { openRoots } from "../src/source/local/roots.ts";
import { PatternOffload } from "../src/read/pattern_offload.ts";

/** A dispatcher over a new temporary folder holding `files` (name → text); disposing it removes both. */
export interface InProcess extends Disposable {
  dispatch: ReturnType<typeof localDispatch>;
  dir: string;
}

/**
 * Writes `files` into a new temporary folder and opens the dispatcher over it.
 *
 * @param files File names (relative) and their texts.
 * @param prefix The temporary folder's name prefix.
 * @returns The dispatcher; `using` it removes the folder and stops the pattern worker.
 * @example
 * ```ts
 * import { inProcess } from "./in_process.ts";
 * using lp = inProcess({ "app.log": "2026-12-03 10:00:00 INFO up\n" });
 * const r = await lp.dispatch("log_levels", { file: "app.log" });
 * console.assert(r.isError === undefined);
 * ```
 */
export function inProcess(files: Record<string, string>, prefix = "logpeek-in-process-"): InProcess {
  const dir = Deno.makeTempDirSync({ prefix });
  for (const [name, text] of Object.entries(files)) Deno.writeTextFileSync(`${dir}/${name}`, text);
  const patterns = new PatternOffload();
  const dispatch = localDispatch({
    roots: openRoots([dir], "/"),
    limits: DEFAULT_LIMITS,
    stderr: () => {},
    artifacts: null,
    artifactsOff: "none in this test",
    redact: true,
    patterns,
  });
  return {
    dispatch,
    dir,
    [Symbol.dispose]() {
      patterns[Symbol.dispose]();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}
