/**
 * The memory bound, measured from outside the server (VmHWM): see `bench/memory.ts`.
 */
import assert from "node:assert/strict";
import { makeMemoryInputs, measureMemory, mib } from "../bench/memory.ts";
import { connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";
import { peakRss } from "../bench/peak_rss.ts";

const dir = tempDir("logpeek-mem-");
makeMemoryInputs(dir);
const canMeasure = peakRss(Deno.pid) !== null;
if (!canMeasure) console.error("SKIP memory bound: no VmHWM in /proc/<pid>/status here (not Linux?)");

Deno.test({
  name: "memory: huge inputs add at most 16 MiB to the server's peak RSS (80 MiB for gzip logs)",
  ignore: !canMeasure,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    for (const r of await measureMemory(dir)) {
      assert.ok(r.ok, `${r.scenario}: grew ${mib(r.growth)} MiB (bound ${mib(r.limit)} MiB)`);
    }
  },
});

Deno.test({
  name: "memory inputs answer correctly: the sparse files' last line, the line after a 64 MiB line",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using s = await connect([dir], { LOGPEEK_SEARCH_BYTES: String(128 * 1024 * 1024) });
    for (const file of ["sparse64m.log", "sparse1g.log"]) {
      const t = (await s.call("log_tail", { file, lines: 5 })).structuredContent;
      assert.deepEqual(t.lines.map((l: { text: string; line_no: number | null }) => [l.line_no, l.text]), [
        [null, "2024-05-01 10:00:01 ERROR the last line"],
      ]);
      assert.equal(t.dropped_partial, true);
    }
    const r = (await s.call("log_search", { file: "longline.log", text: "after" })).structuredContent;
    assert.deepEqual(r.matches.map((l: { line_no: number }) => l.line_no), [2]);
    assert.equal(r.complete, true);
    const l = (await s.call("log_levels", { file: "longline.log" })).structuredContent;
    assert.deepEqual([l.counts.ERROR, l.counts.INFO, l.total_lines], [1, 1, 2]);
  },
});
