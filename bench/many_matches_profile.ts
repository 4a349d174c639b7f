/**
 * Where a page of many matches spends its time (issue #26, item 2): `log_search` with a regex that
 * matches often (`real_log.ts` `QUERIES.manyMatches`), paged at the schema's largest `limit`, run
 * in-process (the tools' dispatcher, no MCP client) so that the scan, the per-match work and the
 * answer's encoding are timed apart:
 *
 * - `scan`: the same regex with words no line holds (`…terminatingQQ|deletingQQ`): the same candidate
 *   lines read and tested, no match;
 * - `pages`: the real pattern, every page timed (the search and the answer built: text and
 *   structuredContent);
 * - `json`: `JSON.stringify` of each page's result, as the transport sends it.
 *
 * ```sh
 * deno run --no-prompt --allow-read --allow-write --allow-run --allow-env bench/many_matches_profile.ts \
 *   /tmp/lpbench loghub-100000000.log [runs]
 * ```
 *
 * The in-process stages are timed by the wall clock and by this process's CPU time (user + system, all
 * threads), steadier on a loaded machine. With `--cpu-prof` before the script's name, Deno writes a profile of the whole run. Then the same
 * search through the MCP client over a line-splitting transport, as the benchmark calls it (`client`):
 * beyond the in-process pages, the protocol's cost (the SDK's output check, JSON both ways, the pipe).
 *
 * @module
 */
import { localDispatch } from "../src/server/handlers.ts";
import { openRoots } from "../src/source/local/roots.ts";
import { DEFAULT_LIMITS } from "../src/core/config.ts";
import { PatternOffload } from "../src/read/pattern_offload.ts";
import { MAX_LIMIT } from "../src/tools/log_search.ts";
import { QUERIES } from "./real_log.ts";
import { median } from "./measure.ts";
import { connect } from "../tests/mcp_client.ts";
import process from "node:process";

const [dir = "/tmp/lpbench", file = "loghub-100000000.log", runsArg = "3"] = Deno.args;
const runs = Number(runsArg);
using patterns = new PatternOffload();
const dispatch = localDispatch({
  roots: openRoots([dir], Deno.cwd()),
  limits: { ...DEFAULT_LIMITS, searchMs: 600_000, searchBytes: 16 * 1024 ** 3, inlineChars: 100_000_000 },
  stderr: (s) => console.error(s),
  artifacts: null,
  artifactsOff: "the profile keeps no artifacts",
  redact: true,
  patterns,
});

/** One whole search, page by page: per page its ms, its matches and its JSON's ms and length. */
async function searchAll(text: string, call = dispatch) {
  const pages: { ms: number; matches: number; jsonMs: number; chars: number }[] = [];
  let cursor: string | undefined;
  do {
    const t = performance.now();
    const r = await call("log_search", {
      file,
      text,
      regex: true,
      ignore_case: false,
      limit: MAX_LIMIT,
      context: 0,
      ...(cursor ? { cursor } : {}),
    });
    const ms = performance.now() - t;
    if (r.isError) throw new Error(JSON.stringify(r.content));
    const t2 = performance.now();
    const chars = JSON.stringify({ jsonrpc: "2.0", id: 1, result: r }).length;
    const jsonMs = performance.now() - t2;
    // deno-lint-ignore no-explicit-any
    const sc = r.structuredContent as any;
    pages.push({ ms, matches: sc.matches.length, jsonMs, chars });
    cursor = sc.next_cursor ?? undefined;
  } while (cursor);
  return pages;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const none = QUERIES.manyMatches.replace("terminating|deleting", "terminatingQQ|deletingQQ");
const scanMs: number[] = [];
const pageMs: number[] = [];
const jsonMs: number[] = [];
const scanCpu: number[] = [];
const pageCpu: number[] = [];
/** CPU ms (user + system) since `from`. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(from);
  return (c.user + c.system) / 1000;
};
let last: Awaited<ReturnType<typeof searchAll>> = [];
for (let i = 0; i < runs; i++) {
  let c = process.cpuUsage();
  scanMs.push(sum((await searchAll(none)).map((p) => p.ms)));
  scanCpu.push(cpuSince(c));
  c = process.cpuUsage();
  last = await searchAll(QUERIES.manyMatches);
  pageCpu.push(cpuSince(c));
  pageMs.push(sum(last.map((p) => p.ms)));
  jsonMs.push(sum(last.map((p) => p.jsonMs)));
}
const matches = sum(last.map((p) => p.matches));
const scan = median(scanMs), all = median(pageMs), json = median(jsonMs);
console.log(
  `${file}: ${matches} matches in ${last.length} pages of at most ${MAX_LIMIT}; ${runs} run(s), medians`,
);
console.log(`  scan only (no match):      ${scan.toFixed(0)} ms`);
console.log(`  pages (search + answer):   ${all.toFixed(0)} ms`);
console.log(
  `  per match beyond the scan: ${((all - scan) / matches * 1000).toFixed(2)} µs ` +
    `(${(all - scan).toFixed(0)} ms)`,
);
console.log(
  `  JSON.stringify of pages:   ${json.toFixed(0)} ms (${
    (sum(last.map((p) => p.chars)) / 1e6).toFixed(1)
  } M chars)`,
);
console.log(`  pages: ${last.map((p) => `${p.ms.toFixed(0)}`).join(" ")} ms`);
const sc = median(scanCpu), pc = median(pageCpu);
console.log(
  `  CPU: scan only ${sc.toFixed(0)} ms, pages ${pc.toFixed(0)} ms (with JSON), per match beyond the scan ` +
    `${((pc - sc) / matches * 1000).toFixed(2)} µs`,
);

await using s = await connect(
  [dir],
  {
    LOGPEEK_SEARCH_MS: "600000",
    LOGPEEK_SEARCH_BYTES: String(16 * 1024 ** 3),
    LOGPEEK_INLINE_CHARS: "100000000",
  },
  [],
  { lines: true },
);
/** The server's CPU ms (user + system, `/proc/PID/stat`, in clock ticks of 10 ms), or NaN. */
const serverCpu = () => {
  try {
    // (Deno reads /proc only with --allow-all: `cat` reads it.)
    const out = new Deno.Command("cat", { args: [`/proc/${s.pid}/stat`] }).outputSync();
    const f = new TextDecoder().decode(out.stdout).split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
};
const ownCpu: number[] = [];
const clientMs: number[] = [];
const clientCpu: number[] = [];
for (let i = 0; i < runs; i++) {
  // deno-lint-ignore no-explicit-any
  const viaClient = (tool: string, args: Record<string, unknown>) => s.call(tool, args) as any;
  const c = serverCpu();
  const c0 = process.cpuUsage();
  clientMs.push(sum((await searchAll(QUERIES.manyMatches, viaClient)).map((p) => p.ms)));
  clientCpu.push(serverCpu() - c);
  ownCpu.push(cpuSince(c0));
}
const client = median(clientMs);
console.log(
  `  through the MCP client:    ${client.toFixed(0)} ms (protocol ${(client - all).toFixed(0)} ms); ` +
    `CPU: the server ${median(clientCpu).toFixed(0)} ms, the client ${median(ownCpu).toFixed(0)} ms`,
);
