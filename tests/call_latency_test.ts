/**
 * Issue #22 item 3, "No call can hold the others": with one slow call in flight, a `log_tail` of another
 * file answers within 100 ms of what it takes alone, in both ways the server runs its tools (on its main
 * thread, with read permission narrowed by the command line; in the tool worker, when read permission
 * covers everything).
 *
 * The slow calls are the repro on a 24 MB log whose lines hold no `Z` but three: a literal
 * `Zookeeper` with `context: 2`, and with `since`/`until`. Before the fix each line's search ran on to
 * the end of its 1 MiB piece (3 s a piece), and the scanner read the clock only between pieces, so a
 * tail sent meanwhile waited seconds. Times are wall times seen by the client, on a machine others share:
 * the bound is the slowest of 10 tails alone just before + 100 ms, a try that misses it (a load spike)
 * is made again, up to 5 tries, and every value is printed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { tempDir } from "./fixtures.ts";
import { connect, type Session } from "./mcp_client.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

const dir = tempDir("logpeek-latency-");
/** Line numbers (1-based) of the three lines that hold "Zookeeper". */
const ZK: number[] = [];
{
  // 24 MB of timed lines, ordered, none with a `Z` (its first byte) but three.
  const f = Deno.openSync(`${dir}/big.log`, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  let size = 0;
  let i = 0;
  while (size < 24_000_000) {
    const lines: string[] = [];
    for (let k = 0; k < 10_000; k++, i++) {
      const sec = Math.floor(i / 200);
      const t = `10:${String(Math.floor(sec / 60) % 60).padStart(2, "0")}:${
        String(sec % 60).padStart(2, "0")
      }`;
      const zk = i === 1234 || i === 200_000 || i === 390_000;
      if (zk) ZK.push(i + 1);
      lines.push(
        `2026-10-28 ${t} ${i % 10 ? "INFO" : "WARN"} job=${i % 37} ${zk ? "Zookeeper up" : "task step"} ${i}`,
      );
    }
    const b = enc.encode(lines.join("\n") + "\n");
    f.writeSync(b);
    size += b.length;
  }
  f.close();
  Deno.writeTextFileSync(`${dir}/small.log`, "2026-10-28 10:00:00 INFO a short log\n".repeat(100));
}

/** `grep -n -F` of `text` in `file`: the line numbers. */
function grepLines(text: string, file: string): number[] {
  const out = new Deno.Command("grep", { args: ["-n", "-F", text, file], stdout: "piped" }).outputSync();
  return new TextDecoder().decode(out.stdout).trim().split("\n").filter((l) => l).map((l) =>
    Number(l.split(":")[0])
  );
}

/** One `log_tail` of the small log: its latency at the client, in ms. */
async function tail(s: Session): Promise<number> {
  const t = performance.now();
  const r = await s.call("log_tail", { file: "small.log", lines: 1 });
  assert.equal(r.structuredContent.lines.length, 1);
  return performance.now() - t;
}

const fmt = (ms: number[]) => ms.map((x) => x.toFixed(0)).join(" ");

const SLOW = [
  { file: "big.log", text: "Zookeeper", context: 2 },
  { file: "big.log", text: "Zookeeper", since: "2026-10-28 10:00:00", until: "2026-10-28 11:00:00" },
];

/**
 * One try: 10 tails alone, then the search with tails one after another until it answers (those sent
 * before it did were in flight with it). Returns the latencies and the search's answer.
 */
async function trial(s: Session, args: Record<string, unknown>) {
  const alone: number[] = [];
  for (let i = 0; i < 10; i++) alone.push(await tail(s));
  let answered = Infinity;
  const started = performance.now();
  const slow = s.call("log_search", args).then((r) => ((answered = performance.now()), r));
  const during: number[] = [];
  while (answered === Infinity) {
    const sent = performance.now();
    const ms = await tail(s);
    if (sent < answered) during.push(ms);
  }
  return { alone, during, searchMs: answered - started, sc: (await slow).structuredContent };
}

/** Tries per slow call: one load spike of the shared machine must not fail the test; a stall fails all. */
const TRIES = 5;

for (const mode of ["main thread", "worker"] as const) {
  Deno.test({
    name:
      `e2e (${mode}): a slow search in flight delays a log_tail of another log by under 100 ms (issue #22)`,
    ...opts,
    async fn() {
      assert.deepEqual(grepLines("Zookeeper", `${dir}/big.log`), ZK);
      const extra = mode === "worker" ? { broadRead: true } : {};
      await using s = await connect([dir], { LOGPEEK_SEARCH_MS: "4000" }, [], { ...extra, lines: true });
      if (mode === "worker") assert.match(s.stderr(), /tools run in a worker/);
      for (const args of SLOW) {
        const what = "context" in args ? "context 2" : "since/until";
        const seen: string[] = [];
        for (let t = 1; t <= TRIES; t++) {
          const { alone, during, searchMs, sc } = await trial(s, args);
          const bound = Math.max(...alone) + 100;
          seen.push(`alone ${fmt(alone)}, during ${fmt(during)} (bound ${bound.toFixed(0)})`);
          console.error(
            `${mode}, ${what}, try ${t}: search ${searchMs.toFixed(0)} ms; tails ${seen.at(-1)} ms`,
          );
          // The search did its whole work: the three lines grep finds.
          assert.deepEqual([sc.complete, sc.stop_reason], [true, null], `${what}: ${seen.at(-1)}`);
          assert.deepEqual(sc.matches.map((m: { line_no: number }) => m.line_no), ZK);
          assert.ok(during.length >= 1, "a tail was in flight with the search");
          if (Math.max(...during) <= bound) break;
          assert.ok(
            t < TRIES,
            `${what}: a tail took over 100 ms more than alone in ${TRIES} tries: ${seen.join("; ")}`,
          );
        }
      }
    },
  });
}
