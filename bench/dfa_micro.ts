/**
 * The byte DFA alone (`src/read/byte_dfa.ts`, issue #26 item 1), in MB/s, on a file read into memory in
 * 64 KiB pieces, beside re2js's `test` on each line (what a search without a literal did before) and
 * `rg -c` on the same file in the same run. Prints lines picked, re2js's matches and rg's count.
 *
 * ```sh
 * deno run -A bench/dfa_micro.ts [--file /tmp/lpbench/corpora-both-200000000.log] [--runs 3]
 *   [--pattern '[0-9]{3}-[a-z]{4}x[0-9]'] [--re2js-mb 20]
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { RE2JS } from "re2js";
import { lineDfa } from "../src/read/byte_dfa.ts";

const { values: o } = parseArgs({
  args: Deno.args,
  options: {
    file: { type: "string", default: "/tmp/lpbench/corpora-both-200000000.log" },
    runs: { type: "string", default: "3" },
    pattern: { type: "string", multiple: true },
    "re2js-mb": { type: "string", default: "20" },
  },
});
const patterns = o.pattern ?? [
  "[0-9]{3}-[a-z]{4}x[0-9]",
  "[0-9]{3}-[a-z]{4}",
  "blk_-?[0-9]+ .*(terminating|deleting)",
  "(?i)error.*\\bfailed\\b",
  "\\pL{3}\\d{4}$",
];
const bytes = Deno.readFileSync(o.file!);
const PIECE = 65536;

/** Lines the DFA picks over the whole file, scanned piece by piece as the scanner does. */
function dfaPass(re: RE2JS): number {
  const dfa = lineDfa(re, 65536)!;
  let picked = 0, ls = 0;
  for (let start = 0; start < bytes.length; start += PIECE) {
    const end = Math.min(bytes.length, start + PIECE);
    let pos = Math.max(start, ls);
    while (true) {
      const nl = dfa.scan(bytes, ls, pos, end);
      if (nl < 0) {
        ls = dfa.lineStart;
        break;
      }
      picked++;
      ls = pos = nl + 1;
    }
  }
  return picked;
}

/** re2js on each line of the first `limit` bytes (the path before the DFA). */
function re2jsPass(re: RE2JS, limit: number): number {
  let n = 0, ls = 0;
  while (ls < limit) {
    let nl = bytes.indexOf(10, ls);
    if (nl < 0) nl = bytes.length;
    const e = nl > ls && bytes[nl - 1] === 13 ? nl - 1 : nl;
    if (re.test(bytes.subarray(ls, e))) n++;
    ls = nl + 1;
  }
  return n;
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

const mb = bytes.length / 1e6;
const re2jsBytes = Math.min(bytes.length, Number(o["re2js-mb"]) * 1e6);
console.log(`${o.file}: ${mb.toFixed(0)} MB; median of ${o.runs} runs`);
console.log("| pattern | DFA MB/s | lines picked | re2js per line MB/s | rg -c MB/s | rg -c |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const p of patterns) {
  const re = RE2JS.compile(p);
  const d: number[] = [], r: number[] = [], g: number[] = [];
  let picked = 0, rgCount = "";
  for (let i = 0; i < Number(o.runs); i++) {
    let t = performance.now();
    picked = dfaPass(re);
    d.push(performance.now() - t);
    t = performance.now();
    re2jsPass(re, re2jsBytes);
    r.push(performance.now() - t);
    t = performance.now();
    const out = new Deno.Command("rg", { args: ["-c", "--", p, o.file!], stdout: "piped" }).outputSync();
    g.push(performance.now() - t);
    rgCount = new TextDecoder().decode(out.stdout).trim();
  }
  const rate = (b: number, ms: number) => (b / 1e6 / (ms / 1000)).toFixed(0);
  console.log(
    `| \`${p}\` | ${rate(bytes.length, median(d))} | ${picked} | ${rate(re2jsBytes, median(r))} | ${
      rate(bytes.length, median(g))
    } | ${rgCount} |`,
  );
}
