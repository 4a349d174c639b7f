/**
 * Issue #23 item 2, end to end through the real MCP client: a log built here from entries of each kind
 * the general level rules read (Monolog's `channel.LEVEL:`, numbered debug levels, java.util.logging
 * names and its two-line layout, journald's `PRIORITY`, OpenTelemetry's `severityNumber`, pino numbers,
 * numbers on no named scale), each followed by continuation lines of each kind (stack frames, `Caused
 * by:`, `Stack trace:`, `#0 …`, indented lines, lines without the entry's header). The expected counts
 * come from the construction: each entry's written level, its continuation lines under it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "./fixtures.ts";
import { connect } from "./mcp_client.ts";
import { assertCounts } from "./case_logs.ts";

/** A seeded generator (mulberry32), so a failure can be rerun. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Entries: a line (`S` stands for a time) and its level, or its level and `unscaled` (a number off scale). */
const ENTRIES: [string, string, boolean?][] = [
  ["[S] shop.ERROR: order failed {} []", "ERROR"],
  ["[S] shop.WARNING: stock low {} []", "WARN"],
  ["[S] shop.CRITICAL: db gone {} []", "FATAL"],
  ["S debug3 poll", "DEBUG"],
  ["S DEBUG2 frame", "DEBUG"],
  ["S SEVERE payment refused", "ERROR"],
  ["S FINEST enter", "TRACE"],
  ["S CONFIG pool=4", "DEBUG"],
  ['{"t":"S","PRIORITY":"3","MESSAGE":"unit failed"}', "ERROR"],
  ['{"t":"S","PRIORITY":"5","MESSAGE":"reloaded"}', "NOTICE"],
  ['{"t":"S","severityNumber":13,"body":"slow"}', "WARN"],
  ['{"t":"S","level":30,"msg":"up"}', "INFO"],
  ['{"t":"S","level":1,"message":"cron ran"}', "UNKNOWN", true],
  ['{"t":"S","level":0,"message":"x"}', "UNKNOWN", true],
  ["S plain message without a level", "UNKNOWN"],
];

/** Continuation lines, none with a level of its own that counts. */
const CONTINUATIONS = [
  "\tat com.shop.Orders.place(Orders.java:88)",
  "    at Object.<anonymous> (/srv/shop/index.js:7:3)",
  "Caused by: java.net.SocketException: reset",
  "\t... 4 more",
  "Stack trace:",
  "#0 /srv/shop/src/Orders.php(12): place()",
  "#1 {main}",
  "[stacktrace]",
  '"} ',
  "Traceback (most recent call last):",
  '  File "/srv/shop/jobs.py", line 4, in run',
  "ValueError: bad sku",
  "  thrown in /srv/shop/src/Orders.php on line 12",
  "<order><sku>abc</sku></order>", // no digit near its start (`<order id='7'/>` would be an entry)
];

Deno.test({
  name: "log_levels: each entry's written level by the general rules; its continuation lines under it, apart",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const rand = mulberry32(2323);
    const dir = tempDir("logpeek-rules-");
    const lines: string[] = [];
    const want: Record<string, number> = {}, entries: Record<string, number> = {};
    let continued = 0, unscaled = 0;
    for (let i = 0; i < 400; i++) {
      const [shape, level, off] = ENTRIES[Math.floor(rand() * ENTRIES.length)];
      const time = `2024-03-02 11:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${
        String(i % 60).padStart(2, "0")
      }`;
      lines.push(shape.replace("S", time));
      entries[level] = (entries[level] ?? 0) + 1;
      if (off) unscaled++;
      const n = Math.floor(rand() * 4);
      for (let k = 0; k < n; k++) lines.push(CONTINUATIONS[Math.floor(rand() * CONTINUATIONS.length)]);
      want[level] = (want[level] ?? 0) + 1 + n;
      continued += n;
    }
    // java.util.logging's SimpleFormatter: the time and source on one line, `LEVEL: message` on the next.
    lines.push("Mar 02, 2024 11:59:58 AM com.shop.Orders place", "SEVERE: order 9 failed");
    lines.push("\tat com.shop.Orders.place(Orders.java:88)");
    want.ERROR = (want.ERROR ?? 0) + 3;
    entries.ERROR = (entries.ERROR ?? 0) + 1;
    continued += 2;
    Deno.writeTextFileSync(join(dir, "shop.log"), lines.join("\n") + "\n");
    await using s = await connect([dir]);
    const r = await s.call("log_levels", { file: "shop.log" });
    const lv = r.structuredContent;
    assertCounts(lv.counts, want);
    assertCounts(lv.entries, entries);
    assert.deepEqual(
      [lv.total_lines, lv.continuation_lines, lv.unscaled_levels, lv.complete],
      [lines.length, continued, unscaled, true],
    );
    assert.ok(unscaled > 0 && continued > 0);
    assert.match(r.content[0].text, new RegExp(`${continued} of the lines continue the entry before them`));
    assert.match(r.content[0].text, new RegExp(`${unscaled} UNKNOWN line\\(s\\) hold a numeric level`));
  },
});
