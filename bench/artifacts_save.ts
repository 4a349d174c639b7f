/**
 * How long saving one spilled answer takes with 250 and with 3,000 artifacts already stored (issue #10,
 * item 14: it used to read every artifact's metadata on each save, 10 ms with 250 and 107 ms with
 * 3,000).
 *
 * For each count, a fresh folder is filled with that many artifacts in the store's own format (written
 * directly, so filling does not depend on the code under test), a store is opened on it as a server
 * does at start (one sweep), and 100 answers of 200 lines (about 24 kB each, a typical spilled
 * `log_search`) are saved; the median and the slowest save are printed. Run it in its own process:
 *
 * ```sh
 * deno run --allow-read --allow-write bench/artifacts_save.ts
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { ArtifactStore } from "../src/state/artifacts.ts";

/** One measured count. */
export interface SaveRow {
  /** Artifacts stored before the saves. */
  stored: number;
  /** The median time of one save, in ms. */
  median_ms: number;
  /** The slowest save, in ms. */
  max_ms: number;
  /** The sweep at start (reads all metadata once), in ms. */
  start_sweep_ms: number;
}

/**
 * Writes `count` artifacts into `dir` as `ArtifactStore` stores them (`<id>.txt`, `<id>.json`), each of
 * `lines` lines, created one ms apart ending at `now`.
 */
export function fillArtifacts(dir: string, count: number, lines: string[], now: number): string[] {
  const body = lines.join("\n") + "\n";
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = "a" + i.toString(16).padStart(24, "0");
    Deno.writeTextFileSync(join(dir, `${id}.txt`), body, { mode: 0o600 });
    const meta = { tool: "log_search", total_lines: lines.length, created_ms: now - count + i };
    Deno.writeTextFileSync(join(dir, `${id}.json`), JSON.stringify(meta), { mode: 0o600 });
    ids.push(id);
  }
  return ids;
}

/** A spilled answer's items: 200 lines of about 120 characters. */
export function answerLines(): string[] {
  return Array.from(
    { length: 200 },
    (_, i) =>
      `${i + 1}: 2024-05-01 10:00:${String(i % 60).padStart(2, "0")} ERROR worker ${i} failed ` +
      "to reach upstream 10.0.0.7:8080 after 3 retries (timeout)",
  );
}

/**
 * Measures saves with `stored` artifacts already there.
 *
 * @param stored How many artifacts to store first.
 * @param saves How many saves to time.
 */
export function measureSaves(stored: number, saves = 100): SaveRow {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-artbench-" });
  try {
    const lines = answerLines();
    fillArtifacts(dir, stored, lines, Date.now());
    const store = new ArtifactStore(dir, 86_400_000, 1 << 30);
    const t0 = performance.now();
    store.sweep();
    const startSweep = performance.now() - t0;
    const times: number[] = [];
    for (let i = 0; i < saves; i++) {
      const t = performance.now();
      store.write("log_search", lines);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return {
      stored,
      median_ms: times[Math.floor(times.length / 2)],
      max_ms: times[times.length - 1],
      start_sweep_ms: startSweep,
    };
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

if (import.meta.main) {
  console.log("| stored | median ms per save | slowest save ms | sweep at start ms |");
  console.log("|---:|---:|---:|---:|");
  for (const n of [250, 3000]) {
    const r = measureSaves(n);
    console.log(
      `| ${r.stored} | ${r.median_ms.toFixed(2)} | ${r.max_ms.toFixed(2)} | ${r.start_sweep_ms.toFixed(1)} |`,
    );
  }
}
