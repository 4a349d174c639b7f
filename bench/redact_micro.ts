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
 * `--module` (repeatable) names the copies of `redact.ts` to time instead of `src/guard/redact.ts` (an
 * older one beside it, for a before/after): each run times every copy in turn, so a load that comes and
 * goes on a shared machine falls on each alike.
 *
 * ```sh
 * deno run --allow-read --allow-env bench/redact_micro.ts [--runs 5] [--ms 1000] \
 *   [--module /tmp/redact_old.ts --module src/guard/redact.ts]
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

/** The passes timed, each over its lines, for one copy of the redactor. */
function stages(r: Redact, lines: string[]): [string, string[], (l: string) => unknown][] {
  const keyed = lines.filter((l) => r.mayHoldSecret(l));
  const tail = new r.LineRedactor(true, true);
  return [
    ["redactLine", lines, (l) => r.redactLine(l).count],
    ["LineRedactor.line", lines, (l) => tail.line(l) !== l],
    ["mayHoldSecret", lines, (l) => r.mayHoldSecret(l)],
    [`redactLine, ${keyed.length} mayHoldSecret lines`, keyed, (l) => r.redactLine(l).count],
  ];
}

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      runs: { type: "string", default: "5" },
      ms: { type: "string", default: "1000" },
      module: { type: "string", multiple: true },
    },
  });
  const shared = sharedDir("the redactor micro-benchmark");
  if (!shared) return;
  const names = values.module?.length ? values.module : ["src/guard/redact.ts"];
  const copies = await Promise.all(
    names.map((m) => import(pathToFileURL(resolve(m)).href) as Promise<Redact>),
  );
  const lines = corpusLines(shared);
  const ms = Number(values.ms);
  const all = copies.map((r) => stages(r, lines));
  console.log(`${lines.length} lines of both corpora; ${names.join(" vs ")}, runs interleaved`);
  const fmt = (x: number) => `${(1e9 / x / 1e6).toFixed(2)} M lines/s (${x.toFixed(0)} ns/line)`;
  for (let s = 0; s < all[0].length; s++) {
    for (const st of all) timed(st[s][1], 200, st[s][2]); // warm-up
    const ns: number[][] = all.map(() => []);
    for (let run = 0; run < Number(values.runs); run++) {
      all.forEach((st, k) => ns[k].push(timed(st[s][1], ms, st[s][2])));
    }
    for (const [k, st] of all.entries()) {
      const label = `${st[s][0]}${names.length > 1 ? ` [${names[k]}]` : ""}`;
      console.log(`  ${label.padEnd(60)} median ${fmt(median(ns[k]))}, best ${fmt(Math.min(...ns[k]))}`);
    }
  }
}

if (import.meta.main) await main();
