/**
 * logpeek's state directory: where the call trace and spilled artifacts live (issue #3).
 *
 * `--state-dir DIR`, else `LOGPEEK_STATE_DIR`, else `$XDG_STATE_HOME/logpeek`, else
 * `$HOME/.local/state/logpeek` (the XDG Base Directory Specification). Never relative to the working
 * directory: a stdio server inherits its client's, which is the seed's third pitfall
 * (`../shared/seeds/004_…`, 坑 3), so a relative path is refused and a relative `XDG_STATE_HOME` is
 * ignored, as the specification says.
 *
 * Permission: `--allow-read` and `--allow-write` of the directory.
 *
 * @module
 */

import { isAbsolute, join } from "node:path";

/**
 * Chooses the state directory.
 *
 * @param flag The `--state-dir` value, if given.
 * @param env Looks an environment variable up (undefined when unset or not readable).
 * @returns An absolute path.
 * @throws {RangeError} when the chosen path is relative, or no variable gives a home.
 */
export function chooseStateDir(flag: string | undefined, env: (name: string) => string | undefined): string {
  const given = flag ?? env("LOGPEEK_STATE_DIR");
  if (given !== undefined && given !== "") {
    if (!isAbsolute(given)) {
      throw new RangeError(`the state directory must be an absolute path, got '${given}'`);
    }
    return given;
  }
  const xdg = env("XDG_STATE_HOME");
  if (xdg && isAbsolute(xdg)) return join(xdg, "logpeek");
  const home = env("HOME");
  if (home && isAbsolute(home)) return join(home, ".local", "state", "logpeek");
  throw new RangeError("no state directory: pass --state-dir /absolute/path (HOME is not set)");
}

/**
 * Creates the state directory and its `traces` and `artifacts` folders, owner-only (0700).
 *
 * @param dir The state directory.
 * @throws Deno's errors when it cannot be created (NotCapable without `--allow-write`).
 */
export function prepareStateDir(dir: string): void {
  for (const d of [dir, join(dir, "traces"), join(dir, "artifacts")]) {
    Deno.mkdirSync(d, { recursive: true, mode: 0o700 });
    Deno.chmodSync(d, 0o700);
  }
}
