/**
 * Where the project's shared material is (`../shared` beside the repository, or `LOGPEEK_SHARED`).
 * Tests that use it call {@linkcode sharedDir} and skip, with a printed notice, where it is absent.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The shared directory's absolute path, or null (after printing a SKIP line to stderr) when absent.
 *
 * @param what What the caller would have tested, for the SKIP line.
 */
export function sharedDir(what: string): string | null {
  const dir = Deno.env.get("LOGPEEK_SHARED") ??
    join(fileURLToPath(new URL("../..", import.meta.url)), "shared");
  try {
    if (Deno.statSync(dir).isDirectory) return dir;
  } catch {
    // absent: fall through to the notice
  }
  console.error(`SKIP ${what}: ${dir} is absent (the shared corpus and cases live there)`);
  return null;
}
