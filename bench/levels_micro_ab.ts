/**
 * In-process A/B of `LevelTally.add` (`read/level.ts`), this tree's against another copy's (`--base`, say
 * `git archive` of an older commit), on the first `--mb` MB of a log, rounds interleaved (issue #26,
 * item 3): the file is read in 1 MiB pieces cut at line ends, each copied into one SIMD buffer and its
 * lines listed (`simd.ts`), then tallied; CPU ms (user + system) per round, medians and fastest rounds, and
 * the listing alone beside them. Both sides must give the same counts, or it throws. For small changes to
 * the rules, whose few percent the whole server's A/B (`bench/levels_ab.ts`) cannot see on a shared machine.
 *
 * ```sh
 * deno run -A bench/levels_micro_ab.ts --base /tmp/base --file /work/lpbench/corpora-rare-1073741824.log \
 *   [--mb 200] [--runs 9]
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { resolve } from "node:path";
import process from "node:process";
import { POSITIONS, type SimdScanner, simdScanner } from "../src/read/simd.ts";
import { median } from "./measure.ts";

const { values: o } = parseArgs({
  args: Deno.args,
  options: {
    base: { type: "string" },
    file: { type: "string" },
    mb: { type: "string", default: "200" },
    runs: { type: "string", default: "9" },
  },
});
if (!o.base || !o.file) throw new Error("--base DIR and --file LOG are required");

/** The shape of `LevelTally` both sides share. */
interface Tally {
  counts: Float64Array;
  unscaled: number;
  add(buf: Uint8Array, start: number, end: number, hint?: number): number;
}

const PIECE = 1 << 20;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The first `mb` MB of the file, whole lines, cut into pieces of at most PIECE bytes at line ends. */
function load(path: string, mb: number): { data: Uint8Array; pieces: [number, number][] } {
  const f = Deno.openSync(path);
  const data = new Uint8Array(mb * 1e6);
  let got = 0;
  while (got < data.length) {
    const n = f.readSync(data.subarray(got));
    if (n === null) break;
    got += n;
  }
  f.close();
  const used = data.subarray(0, data.lastIndexOf(10, got - 1) + 1);
  const pieces: [number, number][] = [];
  for (let at = 0; at < used.length;) {
    let end = Math.min(used.length, at + PIECE);
    if (end < used.length) end = used.lastIndexOf(10, end - 1) + 1;
    pieces.push([at, end]);
    at = end;
  }
  return { data: used, pieces };
}

/** One round: every piece copied and listed, each line given to `tally` (null: listing alone); CPU ms. */
function round(s: SimdScanner, data: Uint8Array, pieces: [number, number][], tally: Tally | null): number {
  const t = cpu();
  const { buf, positions } = s;
  for (const [a, b] of pieces) {
    buf.set(data.subarray(a, b), 0);
    const end = b - a;
    let ls = 0;
    while (ls < end) {
      const count = s.lines(ls, end);
      for (let k = 0; k < count; k++) {
        const e = positions[k];
        const nl = e & 0xffffff;
        if (tally) tally.add(buf, ls, nl > ls && buf[nl - 1] === 13 ? nl - 1 : nl, e >>> 24);
        ls = nl + 1;
      }
      if (count < POSITIONS) break;
    }
  }
  return cpu() - t;
}

const sides = await Promise.all([resolve(o.base), resolve(".")].map(async (root) => {
  const m = await import(resolve(root, "src/read/level.ts"));
  return () => new m.LevelTally() as Tally;
}));
const { data, pieces } = load(o.file, Number(o.mb));
const s = simdScanner(PIECE);
const times: number[][] = [[], [], []];
const outs: string[] = ["", ""];
for (let r = 0; r < Number(o.runs); r++) {
  times[2].push(round(s, data, pieces, null));
  for (const k of r % 2 ? [1, 0] : [0, 1]) {
    const tally = sides[k]();
    times[k].push(round(s, data, pieces, tally));
    outs[k] = JSON.stringify([...tally.counts, tally.unscaled]);
  }
}
if (outs[0] !== outs[1]) throw new Error(`counts differ:\nbase ${outs[0]}\nthis ${outs[1]}`);
const [b, t, l] = times.map(median);
const mbs = (ms: number) => (data.length / 1e3 / ms).toFixed(0);
console.log(
  `${data.length} bytes, ${o.runs} rounds: listing ${l.toFixed(0)} ms | base ${b.toFixed(0)} ms ` +
    `(${mbs(b)} MB/s) | this tree ${t.toFixed(0)} ms (${mbs(t)} MB/s) | this/base ${(t / b).toFixed(3)}, ` +
    `rules only ${((t - l) / (b - l)).toFixed(3)}; same counts`,
);
// The fastest rounds too: contention on a shared machine only ever adds time.
const [bm, tm, lm] = times.map((xs) => Math.min(...xs));
console.log(
  `fastest rounds: listing ${lm.toFixed(0)} ms | base ${bm.toFixed(0)} ms | this tree ${
    tm.toFixed(0)
  } ms | ` +
    `this/base ${(tm / bm).toFixed(3)}, rules only ${((tm - lm) / (bm - lm)).toFixed(3)}`,
);
