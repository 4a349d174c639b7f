/**
 * A/B of `countLevels` (`read/count_levels.ts`: what `log_levels` runs, the HTTP statuses of `derived_levels`
 * included), in one process, this worktree's against another copy of the repository's (`--base`, say
 * `git archive` of an older commit), on logs of one folder, rounds interleaved (issue #26, item 3): CPU ms
 * (user + system, steadier than wall time on a shared machine) and wall ms, medians. Both sides must give
 * the same counts, entries, continuation and unscaled lines, or it says DIFFER (with `--derived`, the
 * derived counts too).
 *
 * ```sh
 * deno run -A bench/levels_count_ab.ts --base /tmp/base --dir /tmp/lpbench \
 *   corpora-both-200000000.log corpora-loghub-200000000.log [--runs 5] [--derived]
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { resolve } from "node:path";
import process from "node:process";
import { median } from "./measure.ts";

const { values: o, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    base: { type: "string" },
    dir: { type: "string" },
    runs: { type: "string", default: "5" },
    derived: { type: "boolean", default: false },
  },
});
if (!o.base || !o.dir) throw new Error("--base DIR and --dir LOGS are required");

/** A counter of `root`'s code: the answer without its byte count (and derived counts, unless asked). */
async function counter(root: string): Promise<(name: string) => Promise<string>> {
  const { openRoots } = await import(resolve(root, "src/source/local/roots.ts"));
  const { openLogSync } = await import(resolve(root, "src/source/local/log_file.ts"));
  const { countLevels } = await import(resolve(root, "src/read/count_levels.ts"));
  const roots = openRoots([resolve(o.dir!)], "/");
  return async (name) => {
    using log = openLogSync(roots, name);
    const r = await countLevels(log, { levelsMs: 600_000, pieceSize: 1 << 20 });
    const { scanned_bytes: _, derived, ...rest } = r;
    return JSON.stringify(rest) + (o.derived ? JSON.stringify(derived) : "");
  };
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const sides = [["base", await counter(o.base)], ["this tree", await counter(".")]] as const;
for (const name of positionals) {
  const times = sides.map(() => ({ cpu: [] as number[], wall: [] as number[], out: "" }));
  for (let i = 0; i < Number(o.runs); i++) {
    for (const [k, [, f]] of sides.entries()) {
      const c = cpu(), w = performance.now();
      times[k].out = await f(name);
      times[k].cpu.push(cpu() - c);
      times[k].wall.push(performance.now() - w);
    }
  }
  const cols = sides.map(([label], k) =>
    `${label}: CPU ${median(times[k].cpu).toFixed(0)} ms, wall ${median(times[k].wall).toFixed(0)} ms`
  );
  console.log(`${name}  ${cols.join(" | ")}  ${times[0].out === times[1].out ? "same counts" : "DIFFER"}`);
}
