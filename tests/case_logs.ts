/**
 * Helpers shared by the tests of `../shared/cases/`: each case's log folder (stored, or built by its
 * `make.sh` in a temporary copy, since `../shared` is read-only) and a level-count check.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "./fixtures.ts";

/** A returned line as the tools' structuredContent gives it. */
export type Line = { line_no: number | null; text: string; level: string; cut: boolean };

/**
 * The case's log folder: the stored one, or one built by its make.sh in a temporary copy (always when
 * `build`, e.g. case 13, whose stored copy has its symlinks flattened into small files; and for a case
 * whose logs are not stored, such as case 21's Windows-style names).
 *
 * @param shared The shared folder (`sharedDir()`), not null.
 * @param name The case's folder name, e.g. `21-windows-style-names-listed-not-readable`.
 * @param sub The folder the logs are in, relative to the case's folder.
 * @param build Run make.sh even when the folder is stored.
 * @returns An absolute path.
 * @throws {Error} When make.sh fails (its stderr in the message).
 */
export function caseLogs(shared: string, name: string, sub = "logs", build = false): string {
  const src = join(shared, "cases", name);
  try {
    if (!build && Deno.statSync(join(src, sub)).isDirectory) return join(src, sub);
  } catch {
    // not stored: build it
  }
  const tmp = tempDir(`logpeek-case-${name.slice(0, 2)}-`);
  Deno.copyFileSync(join(src, "make.sh"), join(tmp, "make.sh"));
  const out = new Deno.Command("bash", { args: [join(tmp, "make.sh")], stdout: "null", stderr: "piped" })
    .outputSync();
  if (!out.success) throw new Error(`make.sh of ${name} failed: ${new TextDecoder().decode(out.stderr)}`);
  return join(tmp, sub);
}

/**
 * Asserts a `log_levels` answer's `counts`: `nonzero` as given, every other level 0.
 *
 * @throws {AssertionError} When they differ.
 */
export function assertCounts(c: Record<string, number>, nonzero: Record<string, number>): void {
  const all = { TRACE: 0, DEBUG: 0, INFO: 0, NOTICE: 0, WARN: 0, ERROR: 0, FATAL: 0, UNKNOWN: 0, ...nonzero };
  assert.deepEqual(c, all);
}
