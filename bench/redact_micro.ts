/**
 * The redactor alone (`src/guard/redact.ts`), in-process, on real lines: every line of the Loghub and
 * lnav corpora in `../shared/corpus` (`loghub/*.log`, `lnav/logs/*`), held in memory, masked again and
 * again for about `--ms` ms a run; `--runs` runs (default 5), the median and the best printed in lines per
 * second and ns per line, for:
 *
 * 1. `redactLine` of every line;
 * 2. `LineRedactor.line` (contiguous, as a tail masks);
 * 3. `mayHoldSecret` of every line (the regex search's fast path);
 * 4. `redactLine` of the lines `mayHoldSecret` lets through only (the lines the rules really run on).
 *
 * `--module` names another copy of `redact.ts` to time instead (an older one, for a before/after in
 * separate processes: run each in turn, twice or more, on a quiet machine).
 *
 * ```sh
 * deno run --allow-read bench/redact_micro.ts [--runs 5] [--ms 1000] [--module /tmp/redact_old.ts]
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { sharedDir } from "../tests/shared_dir.ts";
import { median } from "./measure.ts";

type Redact = typeof import("../src/guard/redact.ts");

/** Every line of both corpora, in file name order. */
function corpusLines(shared: string): string[] {
  const lines: string[] = [];
  for (const [sub, keep] of [["loghub", /\.log$/], ["lnav/logs", /./]] as const) {
    const dir = join(shared, "corpus", sub);
    const names = [...Deno.readDirSync(dir)].filter((e) => e.isFile && keep.test(e.name)).map((e) => e.name);
    for (const name of names.sort()) {
      const text = new TextDecoder().decode(Deno.readFileSync(join(dir, name)));
      lines.push(...text.split("\n").map((l) => l.replace(/\r$/, "")));
    }
  }
  return lines;
}

/** Runs `pass` over `lines` until `ms` have passed; returns ns per line. */
function timed(lines: string[], ms: number, pass: (l: string) => unknown): number {
  let n = 0;
  let sink = 0;
  const t = performance.now();
  do {
    for (const l of lines) if (pass(l)) sink++;
    n += lines.length;
  } while (performance.now() - t < ms);
  const ns = ((performance.now() - t) * 1e6) / n;
  if (sink < 0) console.error(sink);
  return ns;
}

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      runs: { type: "string", default: "5" },
      ms: { type: "string", default: "1000" },
      module: { type: "string" },
    },
  });
  const shared = sharedDir("the redactor micro-benchmark");
  if (!shared) return;
  const url = values.module ? pathToFileURL(resolve(values.module)).href : "../src/guard/redact.ts";
  const r: Redact = await import(url);
  const lines = corpusLines(shared);
  const keyed = lines.filter((l) => r.mayHoldSecret(l));
  const ms = Number(values.ms);
  const stages: [string, string[], (l: string) => unknown][] = [
    ["redactLine", lines, (l) => r.redactLine(l).count],
    ["LineRedactor.line", lines, ((red) => (l: string) => red.line(l) !== l)(new r.LineRedactor(true, true))],
    ["mayHoldSecret", lines, (l) => r.mayHoldSecret(l)],
    [`redactLine, mayHoldSecret lines`, keyed, (l) => r.redactLine(l).count],
  ];
  console.log(
    `${values.module ?? "src/guard/redact.ts"}: ${lines.length} lines, ${keyed.length} may hold a secret`,
  );
  for (const [name, set, pass] of stages) {
    timed(set, 200, pass); // warm-up
    const ns = Array.from({ length: Number(values.runs) }, () => timed(set, ms, pass));
    const best = Math.min(...ns);
    const fmt = (x: number) => `${(1e9 / x / 1e6).toFixed(2)} M lines/s (${x.toFixed(0)} ns/line)`;
    console.log(`  ${name.padEnd(34)} median ${fmt(median(ns))}, best ${fmt(best)}`);
  }
}

if (import.meta.main) await main();
