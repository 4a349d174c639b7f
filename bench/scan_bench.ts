/**
 * Issue #11, the plain-log hot paths through the real server, beside ripgrep in the same run:
 * `log_levels` over every line vs `rg -c -w -e INFO -e WARN -e ERROR`, and `log_search` for a rare
 * literal (line numbers) vs `rg -n -F`, with `ignore_case` vs `rg -n -i -F`. Rounds are interleaved
 * (logpeek, the optional baseline, ripgrep, then the next call); the table gives medians.
 *
 * Usage (the file must hold real, varied lines; ~1 GiB of shuffled Loghub lines was used):
 * ```sh
 * deno run -A bench/scan_bench.ts [--file /tmp/scan/mix1g.log] [--needle blk_8952177028039691517]
 *   [--runs 5] [--base /tmp/scan/base] [--only levels,search,icase]
 * ```
 * `--base DIR[,DIR…]`: other copies of the repository (say `git archive` of the commit before a change): its
 * server is started too, with its own `tests/mcp_client.ts`, and timed in the same rounds (A/B).
 *
 * The answers are checked first: `log_levels`' line total against `wc -l`, every `log_search` line
 * number against `rg -n`'s.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { basename, dirname, resolve } from "node:path";
import type { Session } from "../tests/mcp_client.ts";

const { values: o } = parseArgs({
  args: Deno.args,
  options: {
    file: { type: "string", default: "/tmp/scan/mix1g.log" },
    needle: { type: "string", default: "blk_8952177028039691517" },
    runs: { type: "string", default: "5" },
    base: { type: "string" },
    only: { type: "string", default: "levels,search,icase" },
  },
});
const file = resolve(o.file!);
const runs = Number(o.runs);
const only = new Set(o.only!.split(","));
const GIB = 1024 ** 3;
const env = {
  LOGPEEK_SEARCH_MS: "600000",
  LOGPEEK_SEARCH_BYTES: String(8 * GIB),
  LOGPEEK_LEVELS_MS: "600000",
  LOGPEEK_INLINE_CHARS: "100000000",
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function run(
  cmd: string,
  args: string[],
  stdout: "piped" | "null" = "piped",
): Promise<{ ms: number; out: string }> {
  const t = performance.now();
  const r = await new Deno.Command(cmd, { args, stdout, stderr: "null" }).output();
  return { ms: performance.now() - t, out: stdout === "piped" ? new TextDecoder().decode(r.stdout) : "" };
}

async function start(repo: string): Promise<Session> {
  const { connect } = await import(resolve(repo, "tests/mcp_client.ts"));
  return await connect([dirname(file)], env);
}

async function call(
  s: Session,
  tool: string,
  args: Record<string, unknown>,
  // deno-lint-ignore no-explicit-any
): Promise<{ ms: number; sc: any }> {
  const t = performance.now();
  const r = await s.call(tool, args);
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`${tool}: ${r.content[0].text}`);
  return { ms, sc: r.structuredContent };
}

const size = Deno.statSync(file).size;
await run("cat", [file], "null"); // into the page cache
const lines = Number((await run("wc", ["-l", file])).out.trim().split(" ")[0]);
const servers: [string, Session][] = [["logpeek", await start(new URL("..", import.meta.url).pathname)]];
for (const b of o.base ? o.base.split(",") : []) servers.push([basename(b), await start(b)]);

const name = basename(file);
const needle = o.needle!;
type Case = { key: string; tool: string; args: Record<string, unknown>; peer: string[] };
// Each peer runs twice: as a user runs it (ripgrep maps a single file into memory, which costs page
// faults here) and with --no-mmap (read(2) into a buffer, as logpeek reads: the faster one here).
const cases: Case[] = [
  {
    key: "levels",
    tool: "log_levels",
    args: { file: name },
    peer: ["rg", "-c", "-w", "-e", "INFO", "-e", "WARN", "-e", "ERROR", file],
  },
  {
    key: "search",
    tool: "log_search",
    args: { file: name, text: needle, limit: 5000 },
    peer: ["rg", "-n", "-F", needle, file],
  },
  {
    key: "icase",
    tool: "log_search",
    args: { file: name, text: needle.toUpperCase(), ignore_case: true, limit: 5000 },
    peer: ["rg", "-n", "-i", "-F", needle.toUpperCase(), file],
  },
].filter((c) => only.has(c.key));

const times = new Map<string, number[]>();
const add = (k: string, ms: number) => times.set(k, [...(times.get(k) ?? []), ms]);
for (let round = 0; round < runs; round++) {
  for (const c of cases) {
    for (const [who, s] of servers) {
      const r = await call(s, c.tool, c.args);
      add(`${c.key}|${who}`, r.ms);
      if (round === 0) check(c, who, r.sc, (await run(c.peer[0], c.peer.slice(1))).out);
    }
    for (const peer of [c.peer, [...c.peer.slice(0, -1), "--no-mmap", file]]) {
      add(`${c.key}|${peer.slice(0, -1).join(" ")}`, (await run(peer[0], peer.slice(1))).ms);
    }
  }
}

// deno-lint-ignore no-explicit-any
function check(c: Case, who: string, sc: any, peerOut: string): void {
  if (c.tool === "log_levels") {
    if (!sc.complete || sc.total_lines !== lines) {
      throw new Error(`${who}: ${sc.total_lines} lines, wc -l ${lines}`);
    }
    return;
  }
  const want = peerOut.trim().split("\n").filter(Boolean).map((l) => Number(l.split(":")[0]));
  const got = sc.matches.map((m: { line_no: number }) => m.line_no);
  if (!sc.complete || got.join() !== want.join()) {
    throw new Error(
      `${who} ${c.key}: ${got.length} matches vs rg's ${want.length} (complete ${sc.complete})`,
    );
  }
}

for (const [, s] of servers) await s[Symbol.asyncDispose]();
console.log(
  `\n${file}: ${size} bytes, ${lines} lines; needle ${JSON.stringify(needle)}; median of ${runs} rounds.\n`,
);
console.log("| case | who | median ms | MB/s | runs (ms) |");
console.log("|---|---|---:|---:|---|");
for (const [k, xs] of times) {
  const [c, who] = k.split("|");
  const m = median(xs);
  console.log(
    `| ${c} | ${who} | ${m.toFixed(0)} | ${(size / 1e6 / (m / 1000)).toFixed(0)} | ${
      xs.map((x) => x.toFixed(0)).join(" ")
    } |`,
  );
}
for (const c of cases) {
  const peer = median(times.get(`${c.key}|${c.peer.slice(0, -1).join(" ")}`)!);
  const fast = median(times.get(`${c.key}|${c.peer.slice(0, -1).join(" ")} --no-mmap`)!);
  for (const [who] of servers) {
    const ms = median(times.get(`${c.key}|${who}`)!);
    console.log(`- ${c.key}, ${who}: ${(peer / ms).toFixed(2)}× rg, ${(fast / ms).toFixed(2)}× rg --no-mmap`);
  }
}
