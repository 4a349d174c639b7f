/**
 * Generates a seeded log shaped like the seed article's demo log (`../shared/seeds/004_…`):
 * `2026-10-28 10:MM:SS LEVEL job=N msg=task step I`, levels 80% INFO, 10% WARN, 10% ERROR, with one
 * needle line near the end. The same seed and size give the same bytes.
 *
 * @module
 */

import { rng } from "./loghub_log.ts";

/** The needle `bench.ts` searches for; it occurs once, in the last 1% of the file. */
export const NEEDLE = "needle-7f3a9c";

/**
 * Writes `bytes` (rounded up to whole lines) of log to `path`, unless a file of that size with the
 * same seed marker is already there.
 *
 * @param path Where to write.
 * @param bytes About how many bytes.
 * @param seed The PRNG seed.
 * @returns The file's size in bytes and its line count.
 */
export function generateLog(path: string, bytes: number, seed = 42): { size: number; lines: number } {
  const marker = `${path}.seed-${seed}-${bytes}`;
  try {
    const [size, lines] = Deno.readTextFileSync(marker).split(" ").map(Number);
    if (Deno.statSync(path).size === size) return { size, lines };
  } catch {
    // not generated yet
  }
  const rnd = rng(seed);
  const levels = ["INFO", "INFO", "INFO", "INFO", "INFO", "INFO", "INFO", "INFO", "WARN", "ERROR"];
  const enc = new TextEncoder();
  const f = Deno.openSync(path, { write: true, create: true, truncate: true });
  let size = 0;
  let i = 0;
  let needleDone = false;
  while (size < bytes) {
    let chunk = "";
    while (chunk.length < 1 << 20) {
      const lv = levels[Math.floor(rnd() * 10)];
      const mm = String(Math.floor(i / 600) % 60).padStart(2, "0");
      const ss = String(i % 60).padStart(2, "0");
      let msg = `task step ${i}`;
      if (!needleDone && size + chunk.length > bytes * 0.99) {
        msg = `task step ${i} ${NEEDLE}`;
        needleDone = true;
      }
      chunk += `2026-10-28 10:${mm}:${ss} ${lv} job=${i % 37} msg=${msg}\n`;
      i++;
    }
    const b = enc.encode(chunk);
    f.writeSync(b);
    size += b.length;
  }
  f.close();
  Deno.writeTextFileSync(marker, `${size} ${i}`);
  return { size, lines: i };
}

if (import.meta.main) {
  const [path, mib] = Deno.args;
  console.log(generateLog(path, Number(mib) * 1024 * 1024));
}
