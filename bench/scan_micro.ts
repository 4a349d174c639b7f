/**
 * In-process timings of the read layer's hot paths on a real log (no server, no protocol): `countLevels`
 * and a literal `searchLog` (with and without `ignore_case`) at several piece sizes, interleaved, medians.
 * For choosing levers quickly; the numbers that count come from `bench/scan_bench.ts` (the real server).
 *
 * ```sh
 * deno run -A bench/scan_micro.ts [--file /tmp/scan/mix1g.log] [--needle …] [--pieces 65536,262144]
 *   [--runs 3] [--only levels,search,icase]
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { basename, dirname } from "node:path";
import { openRoots } from "../src/source/local/roots.ts";
import { openLogSync } from "../src/source/local/log_file.ts";
import { countLevels } from "../src/read/count_levels.ts";
import { searchLog } from "../src/read/search.ts";

const { values: o } = parseArgs({
  args: Deno.args,
  options: {
    file: { type: "string", default: "/tmp/scan/mix1g.log" },
    needle: { type: "string", default: "blk_8952177028039691517" },
    pieces: { type: "string", default: "65536" },
    runs: { type: "string", default: "3" },
    only: { type: "string", default: "levels,search,icase" },
  },
});
const roots = openRoots([dirname(o.file!)], "/");
const name = basename(o.file!);
const size = Deno.statSync(o.file!).size;
const only = new Set(o.only!.split(","));
const pieces = o.pieces!.split(",").map(Number);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const jobs: [string, (piece: number) => Promise<string>][] = [];
if (only.has("levels")) {
  jobs.push(["levels", async (pieceSize) => {
    using log = openLogSync(roots, name);
    const r = await countLevels(log, { levelsMs: 1e9, pieceSize });
    return `${r.total_lines} ${JSON.stringify(r.counts)}`;
  }]);
}
for (const [key, ignoreCase] of [["search", false], ["icase", true]] as const) {
  if (!only.has(key)) continue;
  jobs.push([key, async (pieceSize) => {
    using log = openLogSync(roots, name);
    const r = await searchLog(log, {
      text: ignoreCase ? o.needle!.toUpperCase() : o.needle!,
      ignoreCase,
      limit: 5000,
      searchMs: 1e9,
      searchBytes: 1e12,
      maxLine: 1000,
      pieceSize,
      redact: true,
    });
    return `${r.matches.length} last ${r.matches.at(-1)?.line_no} complete ${r.complete}`;
  }]);
}

const times = new Map<string, number[]>();
const answers = new Map<string, string>();
for (let round = 0; round < Number(o.runs); round++) {
  for (const [key, job] of jobs) {
    for (const piece of pieces) {
      const t = performance.now();
      const a = await job(piece);
      const k = `${key} ${piece}`;
      times.set(k, [...(times.get(k) ?? []), performance.now() - t]);
      if (answers.has(key) && answers.get(key) !== a) throw new Error(`${k}: ${a} vs ${answers.get(key)}`);
      answers.set(key, a);
    }
  }
}
for (const [k, xs] of times) {
  const m = median(xs);
  console.log(
    `${k.padEnd(16)} ${m.toFixed(0).padStart(6)} ms ${
      (size / 1e6 / (m / 1000)).toFixed(0).padStart(6)
    } MB/s  ` +
      `(${xs.map((x) => x.toFixed(0)).join(" ")})`,
  );
}
for (const [k, a] of answers) console.log(`${k}: ${a.slice(0, 200)}`);
