/**
 * `log_levels` through two servers at once, this tree's and another copy's (`--base`, say `git archive` of
 * an older commit), interleaved with `rg -c -w -e INFO -e WARN -e ERROR` on the same file, so that a
 * before/after comparison on a shared machine sees the same load (issue #23, item 6). Each round calls
 * base, this tree, then rg; medians of the wall times. Both servers must give the same counts, or it throws.
 *
 * ```sh
 * deno run -A bench/levels_ab.ts --base /tmp/base --file /tmp/bench/corpora-both-1073741824.log [--runs 7]
 *   [--window]   # with since 2015-01-01 until 2016-01-01, as bench/levels_speed.ts
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { basename, dirname, resolve } from "node:path";
import { connect } from "../tests/mcp_client.ts";
import { median, runCommand } from "./measure.ts";
import { PEER, WINDOW } from "./levels_speed.ts";

const { values: o } = parseArgs({
  args: Deno.args,
  options: {
    base: { type: "string" },
    file: { type: "string" },
    runs: { type: "string", default: "7" },
    window: { type: "boolean", default: false },
  },
});
if (!o.base || !o.file) throw new Error("--base DIR and --file LOG are required");
const baseClient = await import(resolve(o.base, "tests/mcp_client.ts"));
const env = { LOGPEEK_LEVELS_MS: "600000", LOGPEEK_INLINE_CHARS: "100000000" };
const dir = dirname(resolve(o.file)), name = basename(o.file);
const size = Deno.statSync(o.file).size;
await using base = await baseClient.connect([dir], env, [], { lines: true });
await using mine = await connect([dir], env, [], { lines: true });
const args = { file: name, ...(o.window ? WINDOW : {}) };

// deno-lint-ignore no-explicit-any
async function call(s: any): Promise<{ ms: number; counts: string }> {
  const t = performance.now();
  const r = await s.client.callTool({ name: "log_levels", arguments: args }, undefined, { timeout: 700_000 });
  const ms = performance.now() - t;
  if (r.isError || !r.structuredContent?.complete) {
    throw new Error(`log_levels: ${JSON.stringify(r).slice(0, 300)}`);
  }
  return { ms, counts: JSON.stringify([r.structuredContent.counts, r.structuredContent.total_lines]) };
}

const times: Record<string, number[]> = { base: [], mine: [], rg: [] };
for (let i = 0; i < Number(o.runs); i++) {
  const b = await call(base), m = await call(mine);
  if (b.counts !== m.counts) throw new Error(`counts differ: base ${b.counts}, this tree ${m.counts}`);
  times.base.push(b.ms);
  times.mine.push(m.ms);
  times.rg.push((await runCommand("rg", [...PEER, o.file])).ms);
}
for (const [k, xs] of Object.entries(times)) {
  const ms = median(xs);
  console.log(
    `${k.padEnd(5)} ${ms.toFixed(0).padStart(6)} ms  ${(size / 1e6 / ms).toFixed(2)} GB/s  ` +
      `(${xs.map((x) => x.toFixed(0)).join(" ")})`,
  );
}
