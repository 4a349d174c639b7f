/**
 * Issue #22's repro as a benchmark: a literal whose first byte is rare in the log (`Zookeeper` in the
 * generated log of `gen_log.ts`, which holds no `Z`), searched plain, with `context: 2` and with
 * `since`/`until`, beside `rg` and `grep` on the same file in the same run; then how long a `log_tail` of
 * another log takes alone and while the context search is in flight. In both ways the server runs its
 * tools (on its main thread; in the tool worker, when read permission covers everything).
 *
 * ```sh
 * deno run --no-prompt --allow-read --allow-write --allow-run --allow-env bench/call_latency.ts [MB]
 * ```
 *
 * `LOGPEEK_BENCH_DIR` as for `bench.ts` (the log is kept there); `LOGPEEK_BENCH_RUNS` runs a row (3).
 *
 * @module
 */
import { join } from "node:path";
import { connect, type Session } from "../tests/mcp_client.ts";
import { generateLog } from "./gen_log.ts";
import { median, runCommand } from "./measure.ts";

const mb = Number(Deno.args[0] ?? 100);
const runs = Number(Deno.env.get("LOGPEEK_BENCH_RUNS") ?? 3);
const dir = Deno.env.get("LOGPEEK_BENCH_DIR") ?? join(Deno.env.get("TMPDIR") ?? "/tmp", "logpeek-bench");
Deno.mkdirSync(dir, { recursive: true });
const file = `latency-${mb}mb.log`;
const path = join(dir, file);
const { size } = generateLog(path, mb * 1024 * 1024);
Deno.writeTextFileSync(join(dir, "latency-small.log"), "2026-10-28 10:00:00 INFO a short log\n".repeat(100));
await runCommand("cat", [path]); // into the page cache

/** Milliseconds of `fn`, and what it returned. */
async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

/** The median time of `runs` calls, with the last call's outcome. */
async function row(s: Session, args: Record<string, unknown>): Promise<string> {
  const ms: number[] = [];
  let last = "";
  for (let i = 0; i < runs; i++) {
    const { ms: t, value } = await timed(() => s.call("log_search", args));
    const sc = value.structuredContent;
    ms.push(t);
    last = `complete ${sc.complete}, ${sc.stop_reason ?? "-"}, ${
      (sc.scanned_bytes / 2 ** 20).toFixed(0)
    } MiB read`;
  }
  return `${median(ms).toFixed(0).padStart(6)} ms  (${last})`;
}

const tail = (s: Session) => timed(() => s.call("log_tail", { file: "latency-small.log", lines: 1 }));
const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `median ${median(ms).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (${ms.length})`;
};

console.log(`${file}: ${(size / 1e6).toFixed(0)} MB, ${runs} runs a row`);
for (
  const [peer, args] of [["rg", ["-n", "-C", "2", "Zookeeper"]], ["grep", [
    "-n",
    "-C",
    "2",
    "Zookeeper",
  ]]] as const
) {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) ms.push((await runCommand(peer, [...args, path])).ms);
  console.log(`  ${peer} ${args.join(" ")}: ${median(ms).toFixed(0)} ms`);
}
const window = { since: "2026-10-28 10:00:00", until: "2026-10-28 11:00:00" };
for (const mode of ["main thread", "worker"]) {
  await using s = await connect([dir], { LOGPEEK_TZ: "UTC" }, [], {
    lines: true,
    broadRead: mode === "worker",
  });
  console.log(`${mode}:`);
  console.log(`  "Zookeeper"              ${await row(s, { file, text: "Zookeeper" })}`);
  console.log(`  "Zookeeper", context 2   ${await row(s, { file, text: "Zookeeper", context: 2 })}`);
  console.log(`  "Zookeeper", since/until ${await row(s, { file, text: "Zookeeper", ...window })}`);
  const alone: number[] = [];
  for (let i = 0; i < 20; i++) alone.push((await tail(s)).ms);
  let inFlight = true;
  const slow = s.call("log_search", { file, text: "Zookeeper", context: 2 }).then(() => (inFlight = false));
  const during: number[] = [];
  while (inFlight) {
    const { ms } = await tail(s);
    if (inFlight) during.push(ms);
  }
  await slow;
  console.log(`  log_tail alone: ${stats(alone)}; during the context search: ${stats(during)}`);
}
