/**
 * A literal `log_search` through two servers at once, this tree's and another copy's (`--base`, say
 * `git archive` of an older commit), interleaved with `rg -n -F` (`-i` with `--ignore-case`) and
 * `rg --no-mmap -n -F` on the same file, so that a before/after comparison on a shared machine sees the
 * same load (issue #26, item 5). Each round calls base, this tree, then the peers; medians of the wall
 * times. Both servers must find the line numbers rg finds, complete, or it throws.
 *
 * ```sh
 * git archive ab5605e | tar -x -C /tmp/base
 * deno run -A bench/literal_ab.ts --base /tmp/base --file /tmp/lpbench/corpora-rare-100000000.log [--runs 11]
 *   [--text vortex-kestrel-17] [--ignore-case]
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { basename, dirname, resolve } from "node:path";
import { connect } from "../tests/mcp_client.ts";
import { firstDifference, lineNumbers, median, runCommand } from "./measure.ts";
import { RARE_TEXT } from "./loghub_log.ts";

const { values: o } = parseArgs({
  args: Deno.args,
  options: {
    base: { type: "string" },
    file: { type: "string" },
    runs: { type: "string", default: "11" },
    text: { type: "string", default: RARE_TEXT },
    "ignore-case": { type: "boolean", default: false },
  },
});
if (!o.base || !o.file) throw new Error("--base DIR and --file LOG are required");
const baseClient = await import(resolve(o.base, "tests/mcp_client.ts"));
const env = { LOGPEEK_SEARCH_MS: "600000", LOGPEEK_SEARCH_BYTES: String(16 * 1024 ** 3) };
const dir = dirname(resolve(o.file)), name = basename(o.file);
const size = Deno.statSync(o.file).size;
await using base = await baseClient.connect([dir], env, [], { lines: true });
await using mine = await connect([dir], env, [], { lines: true });
const icase = o["ignore-case"] ? ["-i"] : [];
const args = { file: name, text: o.text, ignore_case: o["ignore-case"], limit: 5000 };
const want = lineNumbers((await runCommand("rg", ["-n", ...icase, "-F", o.text!, o.file])).out);

// deno-lint-ignore no-explicit-any
async function call(s: any, who: string): Promise<number> {
  const t = performance.now();
  const r = await s.client.callTool({ name: "log_search", arguments: args }, undefined, { timeout: 700_000 });
  const ms = performance.now() - t;
  const sc = r.structuredContent;
  if (r.isError || !sc?.complete) throw new Error(`${who}: ${JSON.stringify(r).slice(0, 300)}`);
  const d = firstDifference(sc.matches.map((m: { line_no: number }) => m.line_no), want);
  if (d) throw new Error(`${who} differs from rg: ${d}`);
  return ms;
}

const times: Record<string, number[]> = { base: [], mine: [], "rg -n -F": [], "rg --no-mmap": [] };
for (let i = 0; i < Number(o.runs); i++) {
  times.base.push(await call(base, "base"));
  times.mine.push(await call(mine, "this tree"));
  times["rg -n -F"].push((await runCommand("rg", ["-n", ...icase, "-F", o.text!, o.file])).ms);
  times["rg --no-mmap"].push(
    (await runCommand("rg", ["--no-mmap", "-n", ...icase, "-F", o.text!, o.file])).ms,
  );
}
const rg = median(times["rg -n -F"]);
for (const [k, xs] of Object.entries(times)) {
  const ms = median(xs);
  console.log(
    `${k.padEnd(13)} ${ms.toFixed(1).padStart(7)} ms  ${(size / 1e6 / ms).toFixed(2)} GB/s  ` +
      `rg -n -F / it ${(rg / ms).toFixed(2)}×  (${xs.map((x) => x.toFixed(0)).join(" ")})`,
  );
}
