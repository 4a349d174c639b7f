/**
 * Where a literal search's time goes (issue #26, item 5): in-process timings of its parts on a real log,
 * each a pass over the whole file (page cache warm), interleaved, medians; then the same search through
 * the MCP client (a separate server process) on the log and on a one-line log (the per-call fixed cost:
 * the round trip, opening, the confinement and stat checks, the answer), beside `rg -n -F` and `rg -c -F`.
 *
 * The passes, each adding one step to the one before:
 * - `read`: `log.bytes()` `readSync` into one piece of a `simd.ts` buffer (what the scanner reads into);
 * - `read+count`: and the SIMD line-feed count of every piece (`simd.count`);
 * - `read+find`: and the SIMD rare-pair search for the needle (`simd.find2`), no count;
 * - `read+count+find`: both, separately (what `hand_lines.ts` `handMatchingLines` did before 2026-12-02);
 * - `read+findCount`: the fused pass (`simd.findCount`: the pair search and the line-feed count at once);
 * - `searchLog`: the whole search in-process (`read/search.ts`), its answer and level detection included.
 *
 * ```sh
 * deno run -A bench/literal_split.ts [--file /tmp/lpbench/loghub-100000000.log] [--needle vortex-kestrel-17]
 *   [--pieces 65536,262144,1048576] [--runs 7] [--mcp]
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { basename, dirname, join } from "node:path";
import { openRoots } from "../src/source/local/roots.ts";
import { openLogSync } from "../src/source/local/log_file.ts";
import { searchLog } from "../src/read/search.ts";
import { simdScanner } from "../src/read/simd.ts";
import { rarePair } from "../src/read/needle_finder.ts";
import { median, runCommand } from "./measure.ts";
import { connect } from "../tests/mcp_client.ts";

const { values: o } = parseArgs({
  args: Deno.args,
  options: {
    file: { type: "string", default: "/tmp/lpbench/loghub-100000000.log" },
    needle: { type: "string", default: "vortex-kestrel-17" },
    pieces: { type: "string", default: "65536,262144,1048576" },
    runs: { type: "string", default: "7" },
    mcp: { type: "boolean", default: false },
  },
});
const roots = openRoots([dirname(o.file!)], "/");
const name = basename(o.file!);
const size = Deno.statSync(o.file!).size;
const needle = new TextEncoder().encode(o.needle!);
const pieces = o.pieces!.split(",").map(Number);

/** One pass over the file in pieces of `piece` bytes; `step` is called on each piece; returns a tally. */
function pass(piece: number, step: (s: ReturnType<typeof simdScanner>, n: number) => number): number {
  using log = openLogSync(roots, name);
  const src = log.bytes(0);
  const s = simdScanner(piece + needle.length);
  let tally = 0;
  while (true) {
    const n = src.readSync(s.buf.subarray(0, piece)) ?? 0;
    if (n === 0) break;
    tally += step(s, n);
  }
  return tally;
}

/** The file's first 64 KiB: what the scan chooses its rare pair by. */
function firstBytes(path: string): Uint8Array {
  using f = Deno.openSync(path);
  const buf = new Uint8Array(65536);
  return buf.subarray(0, f.readSync(buf) ?? 0);
}
const sample = firstBytes(o.file!);
const [o1, o2] = rarePair(needle, sample);
const [b1, b2] = [needle[o1], needle[o2]];
/** Candidates of the rare pair in buf[0, n), each compared. */
function find(s: ReturnType<typeof simdScanner>, n: number): number {
  let hits = 0;
  for (let at = 0; at <= n - needle.length;) {
    const m = s.find2(at, n - needle.length, b1, o1, b2, o2);
    if (m < 0) break;
    let k = 0;
    while (k < needle.length && s.buf[m + k] === needle[k]) k++;
    if (k === needle.length) hits++;
    at = m + 1;
  }
  return hits;
}

/** The same with the fused pass: candidates found and line feeds counted at once. */
function findCount(s: ReturnType<typeof simdScanner>, n: number): number {
  let hits = 0, lf = 0;
  for (let at = 0; at <= n - needle.length;) {
    const m = s.findCount(at, n - needle.length, b1, o1, b2, o2);
    lf += s.counted();
    if (m < 0) break;
    let k = 0;
    while (k < needle.length && s.buf[m + k] === needle[k]) k++;
    if (k === needle.length) hits++;
    at = m + 1;
  }
  return hits + lf;
}

const jobs: [string, (piece: number) => Promise<number> | number][] = [
  ["read", (p) => pass(p, (_s, n) => n)],
  ["read+count", (p) => pass(p, (s, n) => s.count(0, n))],
  ["read+find", (p) => pass(p, (s, n) => find(s, n))],
  ["read+count+find", (p) => pass(p, (s, n) => s.count(0, n) + find(s, n))],
  ["read+findCount", (p) => pass(p, (s, n) => findCount(s, n))],
  ["searchLog", async (pieceSize) => {
    using log = openLogSync(roots, name);
    const r = await searchLog(log, {
      text: o.needle!,
      limit: 5000,
      searchMs: 1e9,
      searchBytes: 1e12,
      maxLine: 1000,
      pieceSize,
      redact: true,
    });
    if (!r.complete) throw new Error("the search did not finish");
    return r.matches.length;
  }],
];

const times = new Map<string, number[]>();
for (let round = 0; round < Number(o.runs); round++) {
  for (const [key, job] of jobs) {
    for (const piece of pieces) {
      const t = performance.now();
      await job(piece);
      const k = `${key} ${piece}`;
      times.set(k, [...(times.get(k) ?? []), performance.now() - t]);
    }
  }
}
console.log(`${o.file}: ${size} bytes; needle ${o.needle}; median of ${o.runs} runs, in-process`);
for (const [k, xs] of times) {
  const m = median(xs);
  console.log(
    `${k.padEnd(24)} ${m.toFixed(1).padStart(7)} ms ${(size / 1e6 / m).toFixed(2).padStart(6)} GB/s`,
  );
}

if (o.mcp) {
  // The one-line log sits beside the log, under the same root (the log's folder).
  const one = join(dirname(o.file!), "split-one-line.log");
  Deno.writeTextFileSync(one, `2026-12-02 INFO ${o.needle}\n`);
  const env = { LOGPEEK_SEARCH_MS: "60000", LOGPEEK_SEARCH_BYTES: String(16 * 1024 ** 3) };
  await using s = await connect([dirname(o.file!)], env, [], { lines: true });
  const call = async (file: string) => {
    const t = performance.now();
    const r = await s.client.callTool({
      name: "log_search",
      arguments: { file, text: o.needle, limit: 5000 },
    });
    if (r.isError) throw new Error(JSON.stringify(r.content));
    return performance.now() - t;
  };
  const rows: Record<string, number[]> = {
    "mcp one-line log": [],
    "mcp log": [],
    "rg -n -F": [],
    "rg -c -F": [],
  };
  for (let i = 0; i < Number(o.runs); i++) {
    rows["mcp one-line log"].push(await call(basename(one)));
    rows["mcp log"].push(await call(name));
    rows["rg -n -F"].push((await runCommand("rg", ["-n", "-F", o.needle!, o.file!])).ms);
    rows["rg -c -F"].push((await runCommand("rg", ["-c", "-F", o.needle!, o.file!])).ms);
  }
  for (const [k, xs] of Object.entries(rows)) {
    console.log(`${k.padEnd(24)} ${median(xs).toFixed(1).padStart(7)} ms`);
  }
  Deno.removeSync(one);
}
