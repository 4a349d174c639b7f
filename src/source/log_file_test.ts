import assert from "node:assert/strict";
import { openLog } from "./log_file.ts";
import { openRoots } from "./roots.ts";
import { scan } from "../read/scanner.ts";

Deno.test("a log truncated while it is read is noticed, never taken for its end", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-trunc-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  Deno.writeTextFileSync(`${dir}/app.log`, "2024-05-01 10:00:00 INFO some line of text\n".repeat(10000));
  using log = await openLog(openRoots([dir], "/"), "app.log");
  const src = log.bytes(0);
  let seen = 0;
  const r = await scan(src, {
    line() {
      if (++seen === 1) Deno.truncateSync(`${dir}/app.log`, 100); // copytruncate, mid-read
      return true;
    },
  }, { pieceSize: 4096 });
  assert.equal(r.stop, null);
  assert.equal(src.truncated, true);
  assert.ok(r.lines < 10000);
});

Deno.test("lines appended during a call are not read: the answer is the log as the call found it", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-grow-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  Deno.writeTextFileSync(`${dir}/app.log`, "a\nb\n");
  using log = await openLog(openRoots([dir], "/"), "app.log");
  Deno.writeTextFileSync(`${dir}/app.log`, "c\n", { append: true });
  const src = log.bytes(0);
  const r = await scan(src, { line: () => true }, {});
  assert.deepEqual([r.lines, r.stop, src.truncated], [2, null, false]);
});

Deno.test("a cancelled scan stops within 50 ms of the abort", async () => {
  const { countLevels } = await import("../read/count_levels.ts");
  const { DEFAULT_LIMITS } = await import("../core/config.ts");
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-cancel-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  const f = Deno.openSync(`${dir}/big.log`, { write: true, create: true });
  f.truncateSync(8 * 1024 ** 3);
  f.close();
  using log = await openLog(openRoots([dir], "/"), "big.log");
  const ac = new AbortController();
  let abortedAt = 0;
  setTimeout(() => {
    abortedAt = performance.now();
    ac.abort();
  }, 100);
  const r = await countLevels(log, { ...DEFAULT_LIMITS, signal: ac.signal });
  const latency = performance.now() - abortedAt;
  assert.equal(r.stop_reason, "cancelled");
  assert.ok(latency < 50, `stopped ${latency.toFixed(1)} ms after the abort`);
});
