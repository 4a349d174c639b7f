/**
 * `deno task bench`: speed through a real MCP client, beside grep, wc and tail on the same file, in
 * the same run; then the memory bound (`bench/memory.ts`).
 *
 * It generates a seeded 1 GiB log shaped like the seed's (`bench/gen_log.ts`; kept between runs in
 * `$LOGPEEK_BENCH_DIR`, default `$TMPDIR/logpeek-bench`), starts logpeek as users run it with its
 * budgets raised so a search scans the whole file, and times (median of several runs, file in the
 * page cache): `log_search` for a needle near the end vs `grep -c -F`, `log_levels` vs `wc -l` and
 * `grep -c -F`, `log_tail` on 1 MiB and 1 GiB vs `tail -n 20`.
 *
 * Targets (issue #2): log_search ≥ 0.8× the throughput of `grep -c -F`; log_levels ≥ 0.4× of it;
 * log_tail < 20 ms a call, and the same on 1 MiB and 1 GiB within 2×.
 *
 * @module
 */

import { join } from "node:path";
import { connect } from "../tests/mcp_client.ts";
import { generateLog, NEEDLE } from "./gen_log.ts";
import { makeMemoryInputs, measureMemory, memoryTable } from "./memory.ts";
import { PAGED_NEEDLE, pagedSearch } from "./pages.ts";

const dir = Deno.env.get("LOGPEEK_BENCH_DIR") ?? join(Deno.env.get("TMPDIR") ?? "/tmp", "logpeek-bench");
Deno.mkdirSync(dir, { recursive: true });
const GIB = 1024 * 1024 * 1024;
console.error(`generating the 1 GiB log in ${dir} (once; kept for later runs)…`);
const big = generateLog(join(dir, "bench.log"), GIB);
const small = generateLog(join(dir, "small.log"), 1024 * 1024, 7);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timeCommand(
  cmd: string,
  args: string[],
  runs: number,
  stdout: "piped" | "null" = "piped",
): Promise<{ ms: number; out: string }> {
  const times: number[] = [];
  let out = "";
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = await new Deno.Command(cmd, { args, stdout, stderr: "null" }).output();
    times.push(performance.now() - t);
    if (stdout === "piped") out = new TextDecoder().decode(r.stdout).trim();
  }
  return { ms: median(times), out };
}

// Bring the file into the page cache, as the peers will find it.
await timeCommand("cat", [join(dir, "bench.log")], 1, "null");

await using s = await connect([dir], {
  LOGPEEK_SEARCH_MS: "600000",
  LOGPEEK_SEARCH_BYTES: String(4 * GIB),
  LOGPEEK_LEVELS_MS: "600000",
});

async function timeCall(tool: string, args: Record<string, unknown>, runs: number) {
  const times: number[] = [];
  // deno-lint-ignore no-explicit-any
  let sc: any;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = await s.call(tool, args);
    times.push(performance.now() - t);
    if (r.isError) throw new Error(`${tool} failed: ${r.content[0].text}`);
    sc = r.structuredContent;
  }
  return { ms: median(times), sc };
}

const RUNS = 5;
const file = join(dir, "bench.log");
const search = await timeCall("log_search", { file: "bench.log", text: NEEDLE }, RUNS);
const grepC = await timeCommand("grep", ["-c", "-F", NEEDLE, file], RUNS);
const grepN = await timeCommand("grep", ["-n", "-F", NEEDLE, file], RUNS);
const levels = await timeCall("log_levels", { file: "bench.log" }, 3);
const wc = await timeCommand("wc", ["-l", file], RUNS);
const tailBig = await timeCall("log_tail", { file: "bench.log" }, 21);
const tailSmall = await timeCall("log_tail", { file: "small.log" }, 21);
const tailPeer = await timeCommand("tail", ["-n", "20", file], 21, "null");

// The answers must be right before the times mean anything.
const grepLine = Number(grepN.out.split(":")[0]);
if (search.sc.matches.length !== Number(grepC.out) || search.sc.matches[0].line_no !== grepLine) {
  throw new Error(`log_search disagrees with grep: ${JSON.stringify(search.sc.matches)} vs ${grepN.out}`);
}
if (!search.sc.complete || search.sc.scanned_lines !== big.lines) {
  throw new Error("log_search did not scan it all");
}
if (!levels.sc.complete || levels.sc.total_lines !== Number(wc.out.split(" ")[0])) {
  throw new Error(`log_levels counted ${levels.sc.total_lines} lines, wc -l ${wc.out}`);
}

const mbps = (bytes: number, ms: number) => (bytes / 1e6 / (ms / 1000)).toFixed(0);
const size = big.size;
const rows: string[][] = [
  [
    "log_search (needle near the end)",
    search.ms.toFixed(0),
    mbps(size, search.ms),
    "grep -c -F",
    grepC.ms.toFixed(0),
  ],
  ["", "", "", "grep -n -F (counts lines too)", grepN.ms.toFixed(0)],
  ["log_levels (every line)", levels.ms.toFixed(0), mbps(size, levels.ms), "grep -c -F", grepC.ms.toFixed(0)],
  ["", "", "", "wc -l", wc.ms.toFixed(0)],
  ["log_tail, 20 lines, 1 GiB", tailBig.ms.toFixed(1), "", "tail -n 20", tailPeer.ms.toFixed(1)],
  [`log_tail, 20 lines, 1 MiB (${small.lines} lines)`, tailSmall.ms.toFixed(1), "", "", ""],
];
console.log(
  `\n1 GiB log: ${size} bytes, ${big.lines} lines; median of ${RUNS} runs (log_tail: 21), file in the page cache.\n`,
);
console.log("| logpeek call | ms | MB/s | peer | peer ms | throughput vs peer |");
console.log("|---|---:|---:|---|---:|---:|");
for (const [a, ms, rate, peer, pms] of rows) {
  const ratio = ms && pms ? `${(Number(pms) / Number(ms)).toFixed(2)}×` : "";
  console.log(`| ${a} | ${ms} | ${rate} | ${peer} | ${pms} | ${ratio} |`);
}
const checks: [string, boolean][] = [
  [`log_search ≥ 0.8× grep -c -F: ${(grepC.ms / search.ms).toFixed(2)}×`, grepC.ms / search.ms >= 0.8],
  [`log_levels ≥ 0.4× grep -c -F: ${(grepC.ms / levels.ms).toFixed(2)}×`, grepC.ms / levels.ms >= 0.4],
  [
    `log_tail < 20 ms: ${tailBig.ms.toFixed(1)} ms (1 GiB), ${tailSmall.ms.toFixed(1)} ms (1 MiB)`,
    tailBig.ms < 20,
  ],
  [
    `log_tail 1 GiB within 2× of 1 MiB: ${(tailBig.ms / tailSmall.ms).toFixed(2)}×`,
    tailBig.ms <= 2 * tailSmall.ms && tailSmall.ms <= 2 * tailBig.ms,
  ],
];
console.log("\nTargets (issue #2):");
for (const [what, ok] of checks) console.log(`- ${ok ? "met" : "NOT met"}: ${what}`);

const paged = await pagedSearch(dir, "bench.log");
const pagedGrep = Number((await timeCommand("grep", ["-c", "-F", PAGED_NEEDLE, file], 1)).out);
console.log(
  `\nPaged search (issue #5): ${JSON.stringify(PAGED_NEEDLE)} over the 1 GiB log with the default budgets ` +
    `(2 s, 5 MiB a page): ${paged.pages} pages resumed with next_cursor, ${paged.matches} matches in order ` +
    `${paged.ordered ? "(yes)" : "(NO)"}, grep -c -F says ${pagedGrep}: ${
      paged.matches === pagedGrep ? "equal" : "NOT equal"
    }; ` +
    `${paged.seconds.toFixed(1)} s in all.`,
);

const memDir = Deno.makeTempDirSync({ prefix: "logpeek-mem-" });
try {
  makeMemoryInputs(memDir);
  console.log("\nMemory: peak RSS (VmHWM) of the server process, read from /proc by this benchmark.\n");
  console.log(memoryTable(await measureMemory(memDir)));
} finally {
  Deno.removeSync(memDir, { recursive: true });
}
