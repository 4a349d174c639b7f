/**
 * Lines per second of `TemplateMiner.add` alone (issue #13; the target through the `log_patterns` tool
 * is ≥ 500 k lines/s end to end, so ≥ 900 k lines/s for the miner): the seven Loghub samples
 * (`../shared/corpus/loghub`, 14,000 lines, CRs removed) given to one miner, line numbers going on.
 *
 * Printed:
 * - three runs of `LOGPEEK_BENCH_REPEAT` passes (default 30) over the lines, each on a new miner, and
 *   the best of the three (the figure);
 * - the best single pass of `LOGPEEK_BENCH_PASSES` (default 200) over the lines on one miner whose
 *   templates are formed: on a shared, loaded machine the shortest pass is the one least disturbed, so
 *   this figure moves least from run to run;
 * - the first pass on a new miner (templates forming: more new clusters, more masking-cache misses).
 *
 * Run it in its own process:
 *
 * ```sh
 * deno run --allow-read --allow-env bench/template_micro.ts
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { TemplateMiner } from "../src/read/template_miner.ts";
import { sharedDir } from "../tests/shared_dir.ts";

const NAMES = ["Apache", "HDFS", "Hadoop", "Linux", "OpenSSH", "Spark", "Zookeeper"];

/** Lines per second, rounded, with thousands separators. */
function rate(lines: number, ms: number): string {
  return Math.round(lines / ms * 1000).toLocaleString("en");
}

if (import.meta.main) {
  const dir = sharedDir("template_micro");
  if (dir !== null) {
    const lines: string[] = [];
    for (const n of NAMES) {
      const text = Deno.readTextFileSync(join(dir, "corpus", "loghub", `${n}_2k.log`));
      for (const l of text.split("\n")) if (l !== "") lines.push(l.endsWith("\r") ? l.slice(0, -1) : l);
    }
    const repeat = Number(Deno.env.get("LOGPEEK_BENCH_REPEAT") ?? 30);
    const passes = Number(Deno.env.get("LOGPEEK_BENCH_PASSES") ?? 200);
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const m = new TemplateMiner();
      let no = 0;
      const t0 = performance.now();
      for (let r = 0; r < repeat; r++) for (const l of lines) m.add(l, ++no);
      const ms = performance.now() - t0;
      best = Math.min(best, ms);
      console.log(
        `run ${run + 1}: ${no} lines in ${(ms / 1000).toFixed(3)} s, ${m.templates().length} templates`,
      );
    }
    console.log(`best of 3: ${rate(repeat * lines.length, best)} lines/s`);
    const m = new TemplateMiner();
    let no = 0, first = 0, bestPass = Infinity;
    for (let p = 0; p < passes; p++) {
      const t0 = performance.now();
      for (const l of lines) m.add(l, ++no);
      const ms = performance.now() - t0;
      if (p === 0) first = ms;
      bestPass = Math.min(bestPass, ms);
    }
    console.log(`best single pass of ${passes}: ${rate(lines.length, bestPass)} lines/s`);
    console.log(`first pass (new miner): ${rate(lines.length, first)} lines/s`);
  }
}
