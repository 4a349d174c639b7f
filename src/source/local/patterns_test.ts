/**
 * `log_patterns` at the seam (issue #25): `LocalBackend.patterns` counts every line of a log this test
 * writes (each event's lines, counted here as they are written), a page its budget stopped goes on from
 * the state it gave back (`PatternsAnswer.resume`, kept here as a tool keeps it) to the same templates,
 * a state of another query or cursor is refused, and a table's backend refuses to mine.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_LIMITS } from "../../core/config.ts";
import { ToolError } from "../../core/errors.ts";
import { ClickHouseBackend } from "../clickhouse/backend.ts";
import type { LogTable } from "../clickhouse/table_types.ts";
import type { PatternsAnswer, PatternsQuery } from "../patterns_query.ts";
import { LocalBackend } from "./backend.ts";
import { localSource } from "./local_source.ts";
import { openRoots } from "./roots.ts";

const EVENTS = [
  (i: number) => `INFO user session opened for uid ${i}`,
  (i: number) => `WARN cache miss on key k${i} in region eu`,
  (i: number) => `ERROR disk quota exceeded on volume v${i}`,
];

/** A log of `n` lines, event `i % 3` on line `i`, and each event's lines as written. */
function writeLog(dir: string, n: number): number[] {
  const counts = EVENTS.map(() => 0);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const e = (i * 7) % EVENTS.length;
    counts[e]++;
    lines.push(`${new Date(Date.UTC(2024, 4, 2, 10) + i * 1000).toISOString()} ${EVENTS[e](i * 13)}`);
  }
  Deno.writeTextFileSync(join(dir, "app.log"), lines.join("\n") + "\n");
  return counts;
}

/** A backend over `dir` with a budget of `patternsMs`, on `clock`. */
function backend(dir: string, patternsMs: number, clock?: () => number): LocalBackend {
  const env = {
    limits: { ...DEFAULT_LIMITS, patternsMs },
    stderr: () => {},
    redact: true,
    cursorKey: new Uint8Array(32).fill(3),
    clock,
  };
  return new LocalBackend(localSource(openRoots([dir], "/")), env, dir);
}

/** A clock far ahead of `performance.now()` that moves one ms each time it is read. */
function countingClock(): () => number {
  let t = performance.now() + 1e9;
  return () => t++;
}

/** The rejection of `p`, which must be a {@linkcode ToolError} of `code`. */
async function refused(p: Promise<unknown>, code: string): Promise<string> {
  const e = await p.then(() => null, (e) => e);
  assert.ok(e instanceof ToolError, String(e));
  assert.equal(e.kind, code, e.message);
  return e.message;
}

Deno.test("LocalBackend.patterns: every line counted; a stopped page goes on from the state it gave back", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-seam-patterns-" });
  const N = 3000;
  const counts = writeLog(dir, N);
  const q: PatternsQuery = { file: "app.log", window: {} };
  const whole = await backend(dir, 60_000).patterns(q);
  assert.deepEqual([whole.complete, whole.stop_reason, whole.resume, whole.notes], [true, null, null, []]);
  assert.equal(whole.total_lines, N);
  const byCount = (xs: number[]) => xs.sort((x, y) => x - y);
  assert.deepEqual(byCount(whole.templates.map((t) => t.count)), byCount(counts));
  // A budget of a few reads of the clock: pages, each going on from the last one's state.
  const clock = countingClock();
  let a: PatternsAnswer = await backend(dir, 30, clock).patterns(q);
  let pages = 1;
  let kept: { cursor: string; state: string } | undefined;
  while (!a.complete) {
    assert.ok(a.resume !== null && a.stopped && a.progress, `page ${pages}: ${a.stop_reason}`);
    assert.equal(a.stop_reason, "time_budget");
    kept = { cursor: a.resume.cursor, state: a.resume.state().join("\n") };
    a = await backend(dir, 30, clock).patterns({ ...q, resume: kept });
    assert.ok(++pages < 500, `too many pages (${a.total_lines} lines)`);
  }
  assert.ok(pages > 1, "the budget should have made pages");
  assert.deepEqual(a.templates, whole.templates);
  assert.equal(a.total_lines, N);
  // The last state kept: with another cursor, or for another query, it is refused.
  assert.ok(kept);
  const other = await refused(
    backend(dir, 60_000).patterns({ ...q, resume: { ...kept, cursor: kept.cursor + "x" } }),
    "invalid_cursor",
  );
  assert.match(other, /does not match its saved state/);
  const query = await refused(
    backend(dir, 60_000).patterns({ ...q, level: "ERROR", resume: kept }),
    "invalid_cursor",
  );
  assert.match(query, /belongs to another query/);
});

Deno.test("ClickHouseBackend.patterns refuses to mine a table, in the words lacks() gives", async () => {
  const table = { shown: "logs.app" } as unknown as LogTable;
  const env = { limits: DEFAULT_LIMITS, stderr: () => {}, redact: true, cursorKey: new Uint8Array(32) };
  const b = new ClickHouseBackend(table, env);
  const why = await refused(b.patterns({ file: "gen/api", window: {} }), "invalid_argument");
  assert.equal(why, b.lacks("patterns"));
  assert.match(why, /^log_patterns reads files; logs\.app is a table, which it does not mine \(yet\)/);
});
