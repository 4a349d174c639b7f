/**
 * In-process timings of level detection on real lines (issue #23, item 6), for finding what costs; the
 * numbers that count come from `bench/levels_speed.ts` (the real server). Two tables:
 *
 * - `--file F`: F read in 1 MiB pieces (cut at line ends) into one SIMD buffer, then, per round, the SIMD
 *   line listing alone, it plus `lineLevel` per line, and it plus `LevelTally.add`: CPU ms and MB/s, median.
 * - `--per-file`: each text file of both corpora alone (its lines repeated to ~1 MB), the fastest round's CPU ns per line of
 *   `LevelTally.add`, and which path its lines take, costliest first.
 *
 * ```sh
 * deno run -A bench/levels_micro.ts --file /tmp/lp23/both.log [--mb 300] [--runs 5]
 * deno run -A bench/levels_micro.ts --per-file [--shared ../shared]
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { basename } from "node:path";
import { LevelTally, lineLevel } from "../src/read/level.ts";
import { POSITIONS, type SimdScanner, simdScanner } from "../src/read/simd.ts";
import { binaryOrGzip, corporaFiles, splitLines } from "./corpora_log.ts";
import { sharedDir } from "../tests/shared_dir.ts";
import { median } from "./measure.ts";
import process from "node:process";

/** This process's CPU time (user + system) in ms: steadier than wall time on a shared machine. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const { values: o } = parseArgs({
  args: Deno.args,
  options: {
    file: { type: "string" },
    mb: { type: "string", default: "300" },
    runs: { type: "string", default: "5" },
    "per-file": { type: "boolean", default: false },
    shared: { type: "string" },
    only: { type: "string" },
  },
});

const PIECE = 1 << 20;

/** Pieces of a buffer cut at line ends: [start, end) pairs, each at most PIECE bytes. */
function pieces(data: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let at = 0;
  while (at < data.length) {
    let end = Math.min(data.length, at + PIECE);
    if (end < data.length) end = data.lastIndexOf(10, end - 1) + 1;
    out.push([at, end]);
    at = end;
  }
  return out;
}

type Work = (s: SimdScanner, end: number) => number;

const listOnly: Work = (s, end) => {
  let ls = 0, n = 0;
  while (ls < end) {
    const count = s.lines(ls, end);
    for (let k = 0; k < count; k++) ls = (s.positions[k] & 0xffffff) + 1;
    n += count;
    if (count < POSITIONS) break;
  }
  return n;
};

const withLevel: Work = (s, end) => {
  const { buf, positions } = s;
  let ls = 0, acc = 0;
  while (ls < end) {
    const count = s.lines(ls, end);
    for (let k = 0; k < count; k++) {
      const e = positions[k];
      const nl = e & 0xffffff;
      acc += lineLevel(buf, ls, nl, e >>> 24);
      ls = nl + 1;
    }
    if (count < POSITIONS) break;
  }
  return acc;
};

function withTally(tally: LevelTally): Work {
  return (s, end) => {
    const { buf, positions } = s;
    let ls = 0, n = 0;
    while (ls < end) {
      const count = s.lines(ls, end);
      for (let k = 0; k < count; k++) {
        const e = positions[k];
        const nl = e & 0xffffff;
        tally.add(buf, ls, nl, e >>> 24);
        ls = nl + 1;
      }
      n += count;
      if (count < POSITIONS) break;
    }
    return n;
  };
}

/** Runs `work` over every piece of `data` once (each piece copied into the SIMD buffer); ms. */
function round(s: SimdScanner, data: Uint8Array, ps: [number, number][], work: Work): number {
  const t = cpuMs();
  for (const [a, b] of ps) {
    s.buf.set(data.subarray(a, b), 0);
    work(s, b - a);
  }
  return cpuMs() - t;
}

if (o.file) {
  const f = Deno.openSync(o.file);
  const data = new Uint8Array(Number(o.mb) * 1e6);
  let got = 0;
  while (got < data.length) {
    const n = f.readSync(data.subarray(got));
    if (n === null) break;
    got += n;
  }
  f.close();
  const used = data.subarray(0, data.lastIndexOf(10, got - 1) + 1);
  const ps = pieces(used);
  const s = simdScanner(PIECE);
  const jobs: [string, () => Work][] = [
    ["copy only", () => () => 0],
    ["lines listed", () => listOnly],
    ["+ lineLevel", () => withLevel],
    ["+ LevelTally", () => withTally(new LevelTally())],
  ];
  const times = new Map<string, number[]>();
  for (let r = 0; r < Number(o.runs); r++) {
    for (const [k, make] of jobs) times.set(k, [...(times.get(k) ?? []), round(s, used, ps, make())]);
  }
  for (const [k, xs] of times) {
    const m = median(xs);
    console.log(`${k.padEnd(14)} ${m.toFixed(0).padStart(6)} ms ${(used.length / 1e3 / m).toFixed(0)} MB/s`);
  }
}

if (o["per-file"]) {
  const shared = o.shared ?? sharedDir("levels_micro --per-file");
  if (shared === null) Deno.exit(0);
  const s = simdScanner(PIECE);
  const rows: [string, number, number, number, number][] = [];
  for (const file of corporaFiles(shared, "both")) {
    const bytes = Deno.readFileSync(file);
    if (binaryOrGzip(file, bytes) || (o.only && !basename(file).includes(o.only))) continue;
    const lines = splitLines(bytes);
    if (lines.length === 0) continue;
    const one = lines.reduce((n, l) => n + l.length + 1, 0);
    const copies = Math.max(1, Math.floor((PIECE - 1) / one));
    let at = 0;
    for (let c = 0; c < copies && at + one <= PIECE; c++) {
      for (const l of lines) {
        s.buf.set(l, at);
        at += l.length;
        s.buf[at++] = 10;
      }
    }
    const n = lines.length * copies;
    const ns = (work: () => Work) => {
      const xs: number[] = [];
      for (let r = 0; r < Number(o.runs); r++) {
        const t = cpuMs();
        for (let k = 0; k < 4; k++) work()(s, at);
        xs.push((cpuMs() - t) / 4);
      }
      return (Math.min(...xs) * 1e6) / n;
    };
    rows.push([
      basename(file),
      ns(() => withTally(new LevelTally())),
      ns(() => withLevel),
      ns(() => listOnly),
      lines.length,
    ]);
  }
  rows.sort((a, b) => b[1] - a[1]);
  console.log(`${"file".padEnd(36)} ns/line: tally  lineLevel  listing`);
  for (const [f, a, b, c, n] of rows) {
    console.log(`${f.padEnd(36)} ${[a, b, c].map((x) => x.toFixed(0).padStart(6)).join(" ")}  ${n} lines`);
  }
}
