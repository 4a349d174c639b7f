import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_LIMITS } from "../../core/config.ts";
import { localSource } from "./local_source.ts";
import { openRoots } from "./roots.ts";
import type { ResumePoint } from "../../read/readable_log.ts";
import type { LocalEnv } from "./local_env.ts";
import { type LogPage, overLogs } from "./many_logs.ts";

function context(dir: string): LocalEnv {
  return {
    source: localSource(openRoots([dir], "/")),
    limits: DEFAULT_LIMITS,
    stderr: () => {},
    redact: true,
    cursorKey: new Uint8Array(32).fill(7),
  };
}

const page = (over: Partial<LogPage>): LogPage => ({
  complete: true,
  stop_reason: null,
  next: null,
  stuck: false,
  scanned_bytes: 10,
  ...over,
});

Deno.test("overLogs: a page that read one log whole, then nothing of the next, gives a cursor to the next", async () => {
  const dir = Deno.makeTempDirSync();
  for (const [name, day] of [["a.log", 1], ["b.log", 2]] as const) {
    Deno.writeTextFileSync(join(dir, name), `line of ${name}\n`);
    const m = new Date(Date.UTC(2024, 4, day));
    Deno.utimeSync(join(dir, name), m, m);
  }
  const ctx = context(dir);
  const call = {
    tool: "log_search" as const,
    file: "*.log",
    query: "00000000",
    bytes: 1e9,
    deadline: Infinity,
  };
  const start: ResumePoint = { off: 0, ls: 0, line: 0, pending: false, skip: 0 };
  // b.log (newest) read whole; a.log: the time budget ran out before any byte of it.
  const first = await overLogs(ctx, call, (log) =>
    Promise.resolve(
      log.name === "b.log"
        ? page({})
        : page({ complete: false, stop_reason: "time_budget", next: start, stuck: true, scanned_bytes: 0 }),
    ));
  assert.deepEqual(first.runs.map((r) => r.file), ["b.log"]);
  assert.equal(first.progress, true);
  assert.equal(first.complete, false);
  assert.deepEqual(first.pending, ["a.log"]);
  assert.ok(first.next_cursor);
  // The next page goes on with a.log from its start, and b.log is not read again.
  const seen: string[] = [];
  const second = await overLogs(ctx, { ...call, cursor: first.next_cursor! }, (log, resume) => {
    seen.push(`${log.name}@${resume?.off}`);
    return Promise.resolve(page({}));
  });
  assert.deepEqual(seen, ["a.log@0"]);
  assert.equal(second.complete, true);
  // A log that made no progress from its own cursor is stuck: no cursor, no progress.
  const stuck = await overLogs(
    ctx,
    { ...call, cursor: first.next_cursor! },
    () =>
      Promise.resolve(
        page({ complete: false, stop_reason: "time_budget", next: start, stuck: true, scanned_bytes: 0 }),
      ),
  );
  assert.deepEqual([stuck.progress, stuck.next_cursor], [false, null]);
});
