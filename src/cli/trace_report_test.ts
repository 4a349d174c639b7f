import assert from "node:assert/strict";
import { MAX_TOOLS, OTHER_TOOLS, renderReport, traceReport } from "./trace_report.ts";

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

Deno.test("traceReport: made-up tool names get at most 100 rows, the rest one row; names cannot forge rows", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-tr-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  Deno.mkdirSync(`${dir}/traces`);
  const lines = Array.from(
    { length: 5000 },
    (_, i) => JSON.stringify({ tool: `fuzz${i}`, ms: 1, ok: false }),
  );
  lines.push(JSON.stringify({ tool: "fuzz0", ms: 3, ok: false }));
  lines.push(JSON.stringify({ tool: "evil\nlog_tail  999", ms: 1, ok: true }));
  Deno.writeTextFileSync(`${dir}/traces/calls.jsonl`, lines.join("\n") + "\n");
  const r = await traceReport(dir);
  assert.equal(r.tools.length, 101);
  const other = r.tools.find((t) => t.tool === OTHER_TOOLS)!;
  assert.deepEqual([other.calls, other.failures], [4901, 4900]);
  assert.equal(r.tools.find((t) => t.tool === "fuzz0")!.calls, 2);
  assert.equal(MAX_TOOLS, 100);
  const table = renderReport({ ...r, tools: [{ ...r.tools[0], tool: "evil\nlog_tail  999\u2028x" }] });
  assert.equal(table.trimEnd().split("\n").length, 2);
  assert.match(table, /^evil\\u000alog_tail {2}999\\u2028x {2}/m);
});
