/**
 * Races (issue #4): a file swapped for a symlink to an outside file, or for a FIFO, in a tight loop
 * while calls run. Not one outside byte may come back, and no call may hang the server.
 */
import assert from "node:assert/strict";
import { connect, textFor } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

/** Starts a python loop that swaps `target` between a regular file and `kind` for `seconds`. */
function swapper(dir: string, kind: "symlink" | "fifo", seconds: number): Deno.ChildProcess {
  const code = `
import os, time, sys
d = sys.argv[1]; kind = sys.argv[2]; end = time.time() + float(sys.argv[3])
good = os.path.join(d, "logs", "good.tmp"); other = os.path.join(d, "logs", "other.tmp"); t = os.path.join(d, "logs", "race.log")
while time.time() < end:
    with open(good, "w") as f: f.write("2024-05-01 10:00:00 INFO inside line\\n")
    os.rename(good, t)
    if kind == "symlink":
        try: os.remove(other)
        except FileNotFoundError: pass
        os.symlink(os.path.join(d, "outside", "secret.log"), other)
    else:
        try: os.remove(other)
        except FileNotFoundError: pass
        os.mkfifo(other)
    os.rename(other, t)
`;
  return new Deno.Command("python3", { args: ["-c", code, dir, kind, String(seconds)], stdout: "null" })
    .spawn();
}

function setup(): string {
  const dir = tempDir("logpeek-race-");
  Deno.mkdirSync(`${dir}/logs`);
  Deno.mkdirSync(`${dir}/outside`);
  Deno.writeTextFileSync(`${dir}/outside/secret.log`, "2024-05-01 10:00:00 ERROR CANARY-race-outside\n");
  Deno.writeTextFileSync(`${dir}/logs/race.log`, "2024-05-01 10:00:00 INFO inside line\n");
  Deno.writeTextFileSync(`${dir}/logs/other.log`, "2024-05-01 10:00:00 INFO other line\n");
  return dir;
}

Deno.test({
  name:
    "race: a file swapped for a symlink to an outside file never leaks a byte (only logpeek's check stands)",
  ...opts,
  async fn() {
    const dir = setup();
    // Read permission covers the outside file too: Deno would not stop a leak, only the open-then-check.
    await using s = await connect([`${dir}/logs`], {}, [dir]);
    const loop = swapper(dir, "symlink", 4);
    let answered = 0, refused = 0;
    const deadline = Date.now() + 3500;
    while (Date.now() < deadline) {
      for (const tool of ["log_tail", "log_search", "log_levels"]) {
        const r = await s.call(tool, { file: "race.log", ...textFor(tool, "line") });
        assert.doesNotMatch(JSON.stringify(r), /CANARY/);
        if (r.isError) refused++;
        else answered++;
      }
    }
    await loop.status;
    console.error(`symlink race: ${answered} answered from inside, ${refused} refused, 0 leaked`);
    assert.ok(
      answered > 0 && refused > 0,
      `the race was exercised: ${answered} answered, ${refused} refused`,
    );
  },
});

Deno.test({
  name: "race: a file swapped for a FIFO never hangs the server",
  ...opts,
  async fn() {
    const dir = setup();
    await using s = await connect([`${dir}/logs`]);
    const loop = swapper(dir, "fifo", 4);
    let calls = 0;
    const deadline = Date.now() + 3500;
    let slowest = 0;
    while (Date.now() < deadline) {
      const t = performance.now();
      await s.call("log_tail", { file: "race.log" });
      slowest = Math.max(slowest, performance.now() - t);
      calls++;
    }
    await loop.status;
    // The open never blocks on a FIFO (O_NONBLOCK): no call waits, no thread is left stuck in open(2),
    // and other logs are still read (a trial wedged the server after ~30 two-second open timeouts).
    console.error(`FIFO race: ${calls} calls, slowest ${slowest.toFixed(0)} ms`);
    assert.ok(slowest < 1000, `every call answered within 1 s (slowest ${slowest.toFixed(0)} ms)`);
    assert.ok(calls > 100, `the race was exercised (${calls} calls)`);
    const after = await s.call("log_files");
    assert.equal(after.isError, undefined, "the server still answers");
    const other = await s.call("log_tail", { file: "other.log" });
    assert.equal(other.isError, undefined, JSON.stringify(other));
    assert.equal(other.structuredContent.lines[0].text, "2024-05-01 10:00:00 INFO other line");
  },
});
