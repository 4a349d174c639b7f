/**
 * Issue #11 item 3 and `../shared/cases/24-slow-regex-overruns-budget`: no pattern and no line can hold a
 * call past its time budget or delay a cancel. A line that may be slow to test is tested in a worker the
 * search stops at the deadline or on cancel (`src/read/pattern_offload.ts`), in both ways the server
 * runs its tools (on its main thread, with read permission narrowed by the command line; in the tool
 * worker, when read permission covers everything).
 *
 * Times are wall times seen by the client, on a machine others share: the bounds carry a margin over
 * the (budget + 100 ms, cancel within 50 ms), and each measured value is printed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { caseLogs } from "./case_logs.ts";
import { loadScaled, tempDir } from "./fixtures.ts";
import { type CallResult, connect, type Session } from "./mcp_client.ts";
import { sharedDir } from "./shared_dir.ts";
import { compilePattern } from "../src/read/pattern.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const CASE = "24-slow-regex-overruns-budget";
const B64 = "[A-Za-z0-9+/]{1000}=";
/** 3 s a 64 KiB line of `a`s for RE2JS here: its DFA misses its cache and falls back to the NFA. */
const SLOW = "(?:a|aa){1,1000}b";

/** True when some `=` in `line` follows 1000 base64 characters: the case's pattern, checked by hand. */
function b64Match(line: string): boolean {
  let run = 0;
  for (const c of line) {
    if (c === "=" && run >= 1000) return true;
    run = /[A-Za-z0-9+/]/.test(c) ? run + 1 : 0;
  }
  return false;
}

/**
 * Starts a `log_search`, cancels it 300 ms later, and calls `log_files`: how long after the cancel that
 * answer came, in ms (the search must have stopped for the server to answer), the answer, and how long a
 * `log_files` took just before, with no search running (`alone`: what the listing itself costs now; on
 * a loaded machine it alone took 150–400 ms).
 */
async function cancelThenList(s: Session, args: Record<string, unknown>) {
  const t0 = performance.now();
  await s.call("log_files", {});
  const alone = performance.now() - t0;
  const ac = new AbortController();
  const call = s.client.callTool({ name: "log_search", arguments: args }, undefined, {
    signal: ac.signal,
    timeout: 600_000,
  });
  await new Promise((r) => setTimeout(r, 300));
  const at = performance.now();
  ac.abort("enough");
  await assert.rejects(call);
  const files = await s.call("log_files", {});
  return { ms: performance.now() - at, alone, files };
}

/**
 * Calls `log_search` from the start up to three times, until one answer comes within `bound` ms of the
 * server's own time (its trace): the least of three runs, as a benchmark takes it. A shared two-core
 * machine deschedules a process for tens of ms at a time (measured here: a call stopped at its deadline
 * answered 1,000–1,200 ms into a 1,000 ms budget at a load average of 4), so one run proves nothing
 * either way; a server that overruns its budget does so every time, and still fails.
 *
 * @returns The answer and times of the first run within the bound, else of the last; every run's times.
 */
async function leastOfThree(s: Session, args: Record<string, unknown>, bound: number) {
  const runs: { ms: number; traced: number }[] = [];
  let r;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    r = await s.call("log_search", args);
    const ms = performance.now() - t;
    const traced = Deno.readTextFileSync(`${s.stateDir}/traces/calls.jsonl`).trim().split("\n")
      .map((l) => JSON.parse(l)).filter((x) => x.tool === "log_search").at(-1).ms;
    runs.push({ ms, traced });
    if (traced <= bound) break;
  }
  return { r: r!, ...runs.at(-1)!, runs: runs.map((x) => `${x.traced} ms`).join(", ") };
}

/**
 * {@linkcode cancelThenList} up to three times, until `log_files` answers within `bound` ms of a cancel
 * beyond what a listing alone took (`over`; the least of three, as in {@linkcode leastOfThree}).
 */
async function cancelLeastOfThree(s: Session, args: Record<string, unknown>, bound: number) {
  const all: string[] = [];
  let last;
  for (let i = 0; i < 3; i++) {
    last = await cancelThenList(s, args);
    all.push(`${Math.round(last.ms)} ms (alone ${Math.round(last.alone)})`);
    if (last.ms - last.alone <= bound) break;
  }
  return { ...last!, over: last!.ms - last!.alone, all: all.join(", ") };
}

const dir = tempDir("logpeek-slowre-");
// A light first line (so a page can get past it), then 20 lines that cost RE2JS ~5 s each, then a match.
// The slow lines match in their first 64 KiB (the part tested), so the byte DFA (`byte_dfa.ts`), which
// passes over a line that cannot match in a fraction of a ms, hands them on to RE2JS.
Deno.writeTextFileSync(
  `${dir}/slow.log`,
  "2024-05-01 10:00:00 INFO start\n" + ("b" + "a".repeat(65534) + "b" + "c\n").repeat(20) + "aab\n",
);

// 2,000 lines of 4,090 random a/b (under 4 KiB: tested in place), 3 s a 1 MiB piece for LIGHT below.
{
  // xorshift32: random enough that RE2's DFA keeps missing its cache (a linear congruential
  // generator's repeating bits let it hit).
  let x = 2463534242;
  const rnd = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const line = () => "c" + Array.from({ length: 4090 }, () => (rnd() < 0.5 ? "a" : "b")).join("");
  Deno.writeTextFileSync(`${dir}/light.log`, Array.from({ length: 2000 }, line).join("\n") + "\n");
}
/** The most ms re2js takes on one of the first 20 lines of `light.log` here, now (each tested once). */
function slowestLineMs(): number {
  const re = compilePattern(LIGHT, false);
  const enc = new TextEncoder();
  const lines = Deno.readTextFileSync(`${dir}/light.log`).split("\n").slice(0, 20);
  let most = 0;
  for (const l of lines) {
    const bytes = enc.encode(l);
    const t = performance.now();
    re.test(bytes);
    most = Math.max(most, performance.now() - t);
  }
  return most;
}

/** Tens of ms a 4 KiB line of random a/b (the trial's: 3 s for the 256 lines of a 1 MiB piece). */
const LIGHT = "[ab]*a[ab]{60}c";

for (const mode of ["main thread", "worker"] as const) {
  const extra = mode === "worker" ? { broadRead: true } : {};

  Deno.test({
    name: `e2e (${mode}): costly lines under 4 KiB end at the budget and yield to a cancel inside a piece`,
    ...opts,
    async fn() {
      await using s = await connect([dir], { LOGPEEK_SEARCH_MS: "1000" }, [], extra);
      const bound = 1000 + loadScaled(100);
      const least = await leastOfThree(s, { file: "light.log", text: LIGHT, regex: true }, bound);
      const { ms, traced } = least;
      const r = least.r.structuredContent;
      console.error(
        `light lines (${mode}): ${ms.toFixed(0)} ms (server ${least.runs}), ${r.scanned_lines} lines`,
      );
      assert.ok(
        traced <= bound,
        `server ${least.runs} (issue #11: within the budget + 100 ms; ${bound} here)`,
      );
      assert.deepEqual([r.complete, r.stop_reason, r.matches.length], [false, "time_budget", 0]);
      assert.ok(r.next_cursor && r.scanned_lines > 0 && r.scanned_lines < 2000, `${r.scanned_lines} lines`);
      // A second page goes on from there.
      const r2 =
        (await s.call("log_search", { file: "light.log", text: LIGHT, regex: true, cursor: r.next_cursor }))
          .structuredContent;
      assert.ok(r2.scanned_lines > r.scanned_lines, `${r2.scanned_lines} after ${r.scanned_lines}`);
      // A cancel is seen within the piece, between two lines: the next call is answered once the line
      // being tested is done. A line costs re2js 12–60 ms here, by the machine's speed: the bound is 250
      // ms (scaled by the load) plus twice the slowest of 20 lines tested in this process now.
      const lineMs = slowestLineMs();
      const cancelBound = loadScaled(250) + 2 * lineMs;
      const { ms: after, over, all } = await cancelLeastOfThree(
        s,
        { file: "light.log", text: LIGHT, regex: true },
        cancelBound,
      );
      console.error(
        `light lines (${mode}): log_files answered ${after.toFixed(0)} ms after the cancel, ${
          over.toFixed(0)
        } ms more than alone (bound ${cancelBound.toFixed(0)} ms; a line ${lineMs.toFixed(0)} ms at most)`,
      );
      assert.ok(over <= cancelBound, all);
    },
  });

  const SHARED_0 = sharedDir("case 24 (a slow regex overruns its budget)");
  Deno.test({
    ignore: SHARED_0 === null,
    name:
      `e2e (${mode}): case 24 — a {1000} repetition on 60,000-character base64 lines ends near its 500 ms budget`,
    ...opts,
    async fn() {
      const shared = SHARED_0!;
      const logs = caseLogs(shared, CASE);
      const lines = Deno.readTextFileSync(`${logs}/blob.log`).split("\n").filter((l) => l);
      assert.deepEqual(lines.map(b64Match), [false, false, false]); // CASE.md: no match on any line
      await using s = await connect([logs], { LOGPEEK_SEARCH_MS: "500" }, [], extra);
      let cursor: string | undefined;
      let pages = 0;
      while (true) {
        // Each page the least of up to three runs from the same cursor (see leastOfThree).
        let r: CallResult | undefined;
        let ms = Infinity;
        const tries: string[] = [];
        // A page that could not test one line in its budget (a loaded machine) gives no cursor: tried again.
        const stuck = () =>
          r?.structuredContent.stop_reason === "time_budget" && !r?.structuredContent.next_cursor;
        const pageBound = 500 + loadScaled(500);
        for (let i = 0; i < 6 && (ms > pageBound || stuck()); i++) {
          const t = performance.now();
          r = await s.call("log_search", { file: "blob.log", text: B64, regex: true, cursor });
          ms = performance.now() - t;
          tries.push(`${ms.toFixed(0)} ms`);
        }
        if (!r) throw new Error("no call ran");
        console.error(
          `case 24 (${mode}), page ${++pages}: ${tries.join(", ")}, ${r.structuredContent.stop_reason}`,
        );
        assert.ok(
          ms <= pageBound,
          `${tries.join(", ")} for a 500 ms budget (case 24: ≤ 1000 ms; ${pageBound} here)`,
        );
        assert.deepEqual(r.structuredContent.matches, []);
        if (r.structuredContent.complete) break;
        assert.equal(r.structuredContent.stop_reason, "time_budget");
        if (stuck()) {
          // Six pages in a row could not test one 60,000-character line in 500 ms: the machine is too
          // loaded for the rest of the case (each page still ended within its bound, asserted above).
          console.error(
            `SKIP case 24 (${mode}) after page ${pages}: no line tested within 500 ms, six tries`,
          );
          assert.equal(r.structuredContent.progress, false, "a page with no cursor says it made no progress");
          break;
        }
        cursor = r.structuredContent.next_cursor;
        assert.ok(cursor, "a page stopped by its budget carries a cursor");
        assert.ok(pages < 10);
      }
    },
  });

  Deno.test({
    name:
      `e2e (${mode}): a pattern that costs seconds a line ends at its budget, with a cursor past the lines tested`,
    ...opts,
    async fn() {
      await using s = await connect([dir], { LOGPEEK_SEARCH_MS: "1000" }, [], extra);
      // The server's own time for the call (its trace), and the client's, which adds the round trip.
      const bound = 1000 + loadScaled(100);
      const { r, ms, traced, runs } = await leastOfThree(
        s,
        { file: "slow.log", text: SLOW, regex: true },
        bound,
      );
      console.error(
        `slow pattern (${mode}): answered in ${ms.toFixed(0)} ms (server ${runs}) for a 1000 ms budget`,
      );
      assert.ok(traced <= bound, `server ${runs} (issue #11: within the budget + 100 ms; ${bound} here)`);
      assert.ok(ms < 1000 + loadScaled(400), `${ms} ms`);
      const sc = r.structuredContent;
      assert.deepEqual([sc.complete, sc.stop_reason, sc.matches.length], [false, "time_budget", 0]);
      assert.ok(sc.next_cursor);
      assert.ok(sc.scanned_lines >= 1 && sc.scanned_lines < 21, `${sc.scanned_lines} lines`);
    },
  });

  Deno.test({
    name: `e2e (${mode}): a cancel stops a pattern inside a line: the server answers the next call at once`,
    ...opts,
    async fn() {
      await using s = await connect([dir], { LOGPEEK_SEARCH_MS: "600000" }, [], extra);
      const { ms, over, files, all } = await cancelLeastOfThree(
        s,
        { file: "slow.log", text: SLOW, regex: true },
        loadScaled(250),
      );
      console.error(
        `cancel (${mode}): log_files answered ${ms.toFixed(0)} ms after the cancel, ${
          over.toFixed(0)
        } ms more than alone`,
      );
      assert.equal(files.isError, undefined);
      assert.ok(
        over <= loadScaled(250),
        `${all} (case 24: ≤ 250 ms more than a listing alone, scaled by the load)`,
      );
      // And the search is really stopped: the trace says cancelled, and a later call is quick too.
      await new Promise((r) => setTimeout(r, 200));
      const tails: number[] = [];
      const quick = loadScaled(250);
      for (let i = 0; i < 3 && !(tails.at(-1)! < quick); i++) {
        const t = performance.now();
        await s.call("log_tail", { file: "slow.log", lines: 1 });
        tails.push(performance.now() - t);
      }
      assert.ok(tails.at(-1)! < quick, tails.map((x) => `${x.toFixed(0)} ms`).join(", "));
      const trace = Deno.readTextFileSync(`${s.stateDir}/traces/calls.jsonl`).trim().split("\n")
        .map((l) => JSON.parse(l));
      const cancelled = trace.find((x) => x.tool === "log_search");
      assert.deepEqual([cancelled.cancelled, cancelled.error.kind], [true, "cancelled"]);
      // The pattern worker ran (in the worker mode, with no permission at all): no fallback was noted.
      assert.ok(!s.stderr().includes("pattern worker"), s.stderr());
    },
  });
}

Deno.test({
  name: "e2e: a pattern that costs seconds a line, given the time, finds the match after those lines",
  ...opts,
  async fn() {
    // 20 lines at ~3 s each would be a minute: two lines only, with a budget that covers them.
    const d = tempDir("logpeek-slowre2-");
    Deno.writeTextFileSync(`${d}/two.log`, ("b" + "a".repeat(20000) + "c\n").repeat(2) + "aab\n");
    await using s = await connect([d], { LOGPEEK_SEARCH_MS: "60000" });
    const r = await s.call("log_search", { file: "two.log", text: SLOW, regex: true });
    const sc = r.structuredContent;
    // grep -E agrees: only line 3 holds an `a` followed by `b`.
    const grep = new TextDecoder().decode(
      new Deno.Command("grep", { args: ["-n", "-E", "ab", `${d}/two.log`], stdout: "piped" }).outputSync()
        .stdout,
    );
    assert.equal(grep.trim().split("\n").map((l) => Number(l.split(":")[0])).join(), "3");
    assert.deepEqual([sc.complete, sc.matches.map((m: { line_no: number }) => m.line_no)], [true, [3]]);
  },
});
