/**
 * Lines per second of `TemplateMiner.add` alone (issue #13; the target through the `log_patterns` tool
 * is ≥ 500 k lines/s): the seven Loghub samples (`../shared/corpus/loghub`, 14,000 lines) given to one
 * miner, repeated `LOGPEEK_BENCH_REPEAT` times (default 30), line numbers going on; the best of three
 * runs is printed. Run it in its own process:
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

if (import.meta.main) {
  const dir = sharedDir("template_micro");
  if (dir !== null) {
    const lines: string[] = [];
    for (const n of NAMES) {
      const text = Deno.readTextFileSync(join(dir, "corpus", "loghub", `${n}_2k.log`));
      for (const l of text.split("\n")) if (l !== "") lines.push(l.endsWith("\r") ? l.slice(0, -1) : l);
    }
    const repeat = Number(Deno.env.get("LOGPEEK_BENCH_REPEAT") ?? 30);
    let best = 0;
    for (let run = 0; run < 3; run++) {
      const m = new TemplateMiner();
      let no = 0;
      const t0 = performance.now();
      for (let r = 0; r < repeat; r++) for (const l of lines) m.add(l, ++no);
      const s = (performance.now() - t0) / 1000;
      best = Math.max(best, no / s);
      console.log(`run ${run + 1}: ${no} lines in ${s.toFixed(3)} s, ${m.templates().length} templates`);
    }
    console.log(`best: ${Math.round(best).toLocaleString("en")} lines/s`);
  }
}
