/**
 * `log_patterns` with a baseline, stopped by its budget in each phase (issue #22 item 2): a clock that
 * counts its reads (`ToolContext.clock`) stops a page exactly where the test wants — in the window's lines,
 * between the window and the baseline, in the baseline's lines — and no page before the last gives a
 * change; the pages followed to the end equal one call without a budget, whose counts and changes are
 * checked against the events this test writes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_LIMITS } from "../core/config.ts";
import { localSource } from "../source/local/local_source.ts";
import { LocalBackend } from "../source/local/backend.ts";
import { openRoots } from "../source/local/roots.ts";
import { ArtifactStore } from "../state/artifacts.ts";
import type { ToolContext } from "./deps.ts";
import { logPatterns, type ToolArgs } from "./log_patterns.ts";

/** An event: a line of it (`i` varies its number), and its lines in the window and in the baseline. */
const EVENTS = [
  {
    key: "session",
    today: 300,
    yesterday: 300,
    line: (i: number) => `INFO user session opened for uid ${i}`,
  },
  {
    key: "cache",
    today: 450,
    yesterday: 150,
    line: (i: number) => `WARN cache miss on key k${i} in region eu`,
  },
  {
    key: "quota",
    today: 150,
    yesterday: 0,
    line: (i: number) => `ERROR disk quota exceeded on volume v${i}`,
  },
  { key: "replica", today: 0, yesterday: 200, line: (i: number) => `INFO replica lag on shard ${i} is high` },
];
const TODAY = EVENTS.reduce((n, e) => n + e.today, 0);
const YESTERDAY = EVENTS.reduce((n, e) => n + e.yesterday, 0);

/** One side's log: its events' lines in a fixed shuffled order, one every `stepS` seconds from `t0`. */
function sideLog(which: "today" | "yesterday", t0: number, stepS: number): string {
  let seed = which === "today" ? 17 : 23;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const lines: string[] = [];
  for (const e of EVENTS) for (let i = 0; i < e[which]; i++) lines.push(e.line(Math.floor(rnd() * 1e6)));
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  return lines.map((l, i) => `${new Date(t0 + i * stepS * 1000).toISOString()} ${l}\n`).join("");
}

/** A clock far ahead of `performance.now()` that moves one ms each time it is read. */
function countingClock(): () => number {
  let t = performance.now() + 1e9;
  return () => t++;
}

function context(dir: string, state: string, patternsMs: number, clock?: () => number): ToolContext {
  const source = localSource(openRoots([dir], "/"));
  const env = {
    limits: { ...DEFAULT_LIMITS, patternsMs, inlineChars: 100_000_000 },
    stderr: () => {},
    redact: true,
    cursorKey: new Uint8Array(32).fill(7),
    clock,
  };
  return {
    ...env,
    backend: new LocalBackend(source, env, dir),
    artifacts: new ArtifactStore(state, 86_400_000, 1 << 30),
    artifactsOff: null,
  };
}

// deno-lint-ignore no-explicit-any
type Answer = any;
const ARGS: ToolArgs = { file: "today.log", baseline_file: "yesterday.log", limit: 100 };

/** A page's phase, from its counts against the logs' own line numbers (not from its `comparison`). */
function phaseOf(sc: Answer): "window" | "between" | "baseline" | "done" {
  if (sc.complete) return "done";
  if (sc.total_lines < TODAY) return "window";
  return sc.baseline.total_lines === 0 ? "between" : "baseline";
}

/** What a page must say for its phase: no change before both sides are read, which side is missing. */
function checkPage(sc: Answer, text: string, what: string): void {
  const phase = phaseOf(sc);
  const want = {
    window: { given: false, window: "partly_read", baseline: "not_read" },
    between: { given: false, window: "whole", baseline: "not_read" },
    baseline: { given: false, window: "whole", baseline: "partly_read" },
    done: { given: true, window: "whole", baseline: "whole" },
  }[phase];
  assert.deepEqual(sc.comparison, want, `${what} (${phase})`);
  assert.equal(sc.baseline.complete, phase === "done", what);
  if (phase === "done") return;
  assert.deepEqual([sc.stop_reason, sc.progress], ["time_budget", true], what);
  assert.match(sc.next_cursor, /~/, what);
  for (const t of sc.templates) {
    assert.deepEqual([t.change, t.rate_ratio], [undefined, undefined], `${what} (${phase}): ${t.template}`);
    if (phase !== "baseline") assert.equal(t.baseline_count, undefined, `${what}: ${t.template}`);
  }
  assert.deepEqual([sc.rate_basis, sc.window_hours, sc.baseline.hours], [undefined, null, null], what);
  assert.match(text, /\nNo change is given: /, what);
  assert.doesNotMatch(text, /\[(new|gone|up|down|same)\b/, what);
  assert.match(
    text,
    phase === "baseline" ? /\[baseline \d+ so far\]/ : /baseline yesterday\.log: not read yet/,
  );
}

/** The whole answer against the events: counts, baseline counts, changes from the rates per hour. */
function checkWhole(sc: Answer, hoursToday: number, hoursYesterday: number): void {
  assert.equal(sc.complete, true);
  assert.deepEqual([sc.total_lines, sc.baseline.total_lines], [TODAY, YESTERDAY]);
  assert.ok(Math.abs(sc.window_hours - hoursToday) < 0.001, `${sc.window_hours}`);
  assert.ok(Math.abs(sc.baseline.hours - hoursYesterday) < 0.001, `${sc.baseline.hours}`);
  const scale = hoursToday / hoursYesterday;
  assert.equal(
    sc.templates.length,
    EVENTS.length,
    JSON.stringify(sc.templates.map((t: Answer) => t.template)),
  );
  for (const e of EVENTS) {
    const t = sc.templates.find((x: Answer) => x.example.includes(` ${e.key} `));
    assert.ok(t, e.key);
    assert.deepEqual([t.count, t.baseline_count], [e.today, e.yesterday], e.key);
    const ratio = e.today / e.yesterday / scale;
    const want = e.yesterday === 0
      ? "new"
      : e.today === 0
      ? "gone"
      : ratio >= 2
      ? "up"
      : ratio <= 0.5
      ? "down"
      : "same";
    assert.equal(t.change, want, e.key);
    if (want !== "new" && want !== "gone") assert.ok(Math.abs(t.rate_ratio - ratio) < 0.001, e.key);
  }
}

Deno.test("log_patterns: a baseline stopped in each phase gives no change until both sides are read", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-phases-" });
  const state = Deno.makeTempDirSync({ prefix: "logpeek-phases-state-" });
  const t0 = Date.UTC(2024, 4, 2, 10), y0 = Date.UTC(2024, 4, 1, 10);
  Deno.writeTextFileSync(join(dir, "today.log"), sideLog("today", t0, 4));
  Deno.writeTextFileSync(join(dir, "yesterday.log"), sideLog("yesterday", y0, 5));
  // Each side runs from its first to its last line (no window).
  const hoursToday = ((TODAY - 1) * 4) / 3600, hoursYesterday = ((YESTERDAY - 1) * 5) / 3600;
  const uncut = await logPatterns(context(dir, state, 60_000), ARGS);
  const whole: Answer = uncut.structuredContent;
  checkPage(whole, uncut.content[0].text, "unbudgeted");
  checkWhole(whole, hoursToday, hoursYesterday);
  const first = async (k: number) => (await logPatterns(context(dir, state, k, countingClock()), ARGS));
  // The least budget (in reads of the clock) that mines the whole window on the first page: it stops
  // between the window and the baseline; one read less stops in the window, one more in the baseline.
  let lo = 1, hi = 4 * TODAY;
  assert.notEqual(phaseOf((await first(hi)).structuredContent), "window");
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (phaseOf((await first(mid)).structuredContent) === "window") lo = mid + 1;
    else hi = mid;
  }
  const edge = lo;
  assert.deepEqual(
    await Promise.all(
      [edge - 1, edge, edge + 1].map(async (k) => phaseOf((await first(k)).structuredContent)),
    ),
    ["window", "between", "baseline"],
    `budget ${edge}`,
  );
  // Pages followed to the end, stopped in each phase on the way: the last equals the unbudgeted call.
  const seen = new Set<string>();
  for (const k of [Math.floor(edge / 3), edge, edge + 40, Math.floor(edge / 2) + 7]) {
    const clock = countingClock();
    let cursor: string | undefined;
    let sc: Answer;
    for (let page = 0;; page++) {
      assert.ok(page < 100, `budget ${k}: too many pages`);
      const r = await logPatterns(context(dir, state, k, clock), { ...ARGS, ...(cursor ? { cursor } : {}) });
      sc = r.structuredContent;
      seen.add(phaseOf(sc));
      checkPage(sc, r.content[0].text, `budget ${k}, page ${page}`);
      if (sc.complete) break;
      cursor = sc.next_cursor;
    }
    assert.deepEqual(sc.templates, whole.templates, `budget ${k}`);
    assert.deepEqual(sc.baseline, whole.baseline, `budget ${k}`);
    assert.equal(sc.window_hours, whole.window_hours, `budget ${k}`);
  }
  assert.deepEqual([...seen].sort(), ["baseline", "between", "done", "window"]);
});

Deno.test("log_patterns: a baseline with a log that cannot be read gives no change, and says no cursor finishes it", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-flawed-" });
  const state = Deno.makeTempDirSync({ prefix: "logpeek-flawed-state-" });
  Deno.writeTextFileSync(join(dir, "today.log"), sideLog("today", Date.UTC(2024, 4, 2, 10), 4));
  Deno.writeTextFileSync(join(dir, "yesterday.log"), sideLog("yesterday", Date.UTC(2024, 4, 1, 10), 5));
  // An xz file the glob matches: a format logpeek refuses, so the baseline is not read in full.
  Deno.writeFileSync(join(dir, "yesterday.1.log"), new Uint8Array([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0, 1, 2]));
  const r = await logPatterns(context(dir, state, 60_000), { ...ARGS, baseline_file: "yesterday*.log" });
  const sc: Answer = r.structuredContent;
  assert.deepEqual([sc.complete, sc.next_cursor, sc.total_lines], [false, null, TODAY], r.content[0].text);
  for (const t of sc.templates) {
    assert.deepEqual([t.change, t.rate_ratio], [undefined, undefined], t.template);
  }
  assert.deepEqual(sc.comparison, { given: false, window: "whole", baseline: "partly_read" });
  assert.equal(sc.baseline.complete, false);
  // The lines it did read are counted, as read so far.
  const session = sc.templates.find((t: Answer) => t.example.includes(" session "));
  assert.equal(session.baseline_count, EVENTS[0].yesterday);
  assert.match(
    r.content[0].text,
    /\nNo change is given: .* the baseline partly read .*; no cursor can finish it/,
  );
  assert.match(r.content[0].text, /yesterday\.1\.log/);
});
