import assert from "node:assert/strict";
import { renderReport, traceReport } from "./trace_report.ts";

Deno.test("traceReport: per-tool counts, avg, max exact and p95 within 1%, damaged lines counted apart", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-tr-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  Deno.mkdirSync(`${dir}/traces`);
  const rec = (tool: string, ms: number, ok = true, spilled = false) =>
    JSON.stringify({ tool, ms, ok, spilled });
  const old = Array.from({ length: 50 }, (_, i) => rec("log_tail", i + 1)).join("\n") + "\n";
  const cur = Array.from({ length: 50 }, (_, i) => rec("log_tail", i + 51, i % 10 !== 0)).join("\n") +
    "\n{broken\n" + rec("log_search", 7, true, true) + "\n";
  Deno.writeTextFileSync(`${dir}/traces/calls.jsonl.1`, old);
  Deno.writeTextFileSync(`${dir}/traces/calls.jsonl`, cur);
  const r = await traceReport(dir);
  assert.deepEqual([r.lines, r.unreadable, r.files.length], [102, 1, 2]);
  const [search, tail] = r.tools;
  assert.deepEqual(search, {
    tool: "log_search",
    calls: 1,
    failures: 0,
    spills: 1,
    avg_ms: 7,
    p95_ms: 7,
    max_ms: 7,
  });
  assert.deepEqual([tail.tool, tail.calls, tail.failures, tail.spills, tail.avg_ms, tail.max_ms], [
    "log_tail",
    100,
    5,
    0,
    50.5,
    100,
  ]);
  assert.ok(Math.abs(tail.p95_ms - 95) <= 0.95, `p95 ${tail.p95_ms}`);
  assert.match(renderReport(r), /1 of 102 trace lines were unreadable/);
});

Deno.test("traceReport on a state directory with no trace yet is empty, not an error", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-tr-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  const r = await traceReport(dir);
  assert.deepEqual(r, { tools: [], lines: 0, unreadable: 0, files: [] });
});
