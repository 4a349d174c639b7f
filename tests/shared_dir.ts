/**
 * Where the project's shared material is (`../shared` beside the repository, or `LOGPEEK_SHARED`).
 * Tests that use it call {@linkcode sharedDir} and skip, with a printed notice, where it is absent.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The shared directory's absolute real path (symlinks resolved), or null (after printing a SKIP line to
 * stderr) when absent.
 *
 * @param what What the caller would have tested, for the SKIP line.
 */
export function sharedDir(what: string): string | null {
  const dir = Deno.env.get("LOGPEEK_SHARED") ??
    join(fileURLToPath(new URL("../..", import.meta.url)), "shared");
  try {
    // Its real path: when ../shared is a symlink, Deno's --allow-read checks the path a file resolves to,
    // so a flag built from the link's path would not cover the files (issue #10, item 13).
    if (Deno.statSync(dir).isDirectory) return Deno.realPathSync(dir);
  } catch {
    // absent: fall through to the notice
  }
  console.error(`SKIP ${what}: ${dir} is absent (the shared corpus and cases live there)`);
  return null;
}
