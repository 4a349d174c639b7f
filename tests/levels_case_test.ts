/**
 * Level detection end to end, through the real MCP client: case 18 of `../shared/cases/` (level words
 * glued to a bracket or colon; its CASE.md gives the right answers), and lines whose level stands after
 * a long header (Blue Gene/L RAS logs, issue #10), written by hand with their true level beside them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "./fixtures.ts";
import { connect, type Session } from "./mcp_client.ts";
import { sharedDir } from "./shared_dir.ts";
import { assertCounts, type Line } from "./case_logs.ts";

const shared = sharedDir("the level cases");
const opts = { sanitizeResources: false, sanitizeOps: false };

async function withLogs(dir: string, fn: (s: Session) => Promise<void>) {
  await using s = await connect([dir]);
  await fn(s);
}

Deno.test({
  name: "case 18: a level word glued to a bracket or colon is a level (ERROR[…], [4242]INFO:, error[E0308])",
  ...opts,
  ignore: shared === null,
  fn: () =>
    withLogs(join(shared!, "cases", "18-level-glued-to-bracket", "logs"), async (s) => {
      // Call 1: INFO 2, WARN 1, ERROR 3, DEBUG 1, TRACE 1, FATAL 1, total 9, complete.
      const lv = (await s.call("log_levels", { file: "glued.log" })).structuredContent;
      assertCounts(lv.counts, { INFO: 2, WARN: 1, ERROR: 3, DEBUG: 1, TRACE: 1, FATAL: 1 });
      assert.deepEqual([lv.total_lines, lv.complete], [9, true]);
      // Call 2: the level of each line, as in the CASE.md table.
      const tail = (await s.call("log_tail", { file: "glued.log", lines: 9 })).structuredContent;
      assert.deepEqual(tail.lines.map((l: Line) => [l.line_no, l.level]), [
        [1, "INFO"],
        [2, "WARN"],
        [3, "ERROR"],
        [4, "DEBUG"],
        [5, "TRACE"],
        [6, "FATAL"],
        [7, "INFO"],
        [8, "ERROR"],
        [9, "ERROR"],
      ]);
      // Call 3: the ERROR lines are 3, 8 and 9.
      const err =
        (await s.call("log_tail", { file: "glued.log", lines: 10, level: "ERROR" })).structuredContent;
      assert.deepEqual(err.lines.map((l: Line) => l.line_no), [3, 8, 9]);
      assert.equal(err.lines[2].text, "error[E0308]: mismatched types in build step 3");
    }),
});

/**
 * Blue Gene/L RAS lines (the layout of Loghub's BGL log: alert tag, epoch seconds, date, node, time,
 * node, `RAS`, component, level, message) and Thunderbird syslog lines, with the level each one really
 * has (its level column, or none); their messages hold level words after the real level.
 */
const LONG_HEADERS: [string, string][] = [
  [
    "- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO instruction cache parity error corrected",
    "INFO",
  ],
  [
    "KERNDTLB 1118536327 2005.06.11 R30-M0-N9-C:J16-U01 2005-06-11-17.32.07.581048 R30-M0-N9-C:J16-U01 RAS KERNEL FATAL data TLB error interrupt",
    "FATAL",
  ],
  [
    "- 1118009553 2005.06.05 bglmaster 2005-06-05-15.12.33.345620 bglmaster RAS BGLMASTER FAILURE ciodb exited abnormally, error 6",
    "FATAL",
  ],
  [
    "- 1118100000 2005.06.06 R72-M1-N9 2005-06-06-12.10.11.172219 R72-M1-N9 RAS HARDWARE WARNING PrepareForService: fatal error on Node card",
    "WARN",
  ],
  [
    "- 1118200000 2005.06.07 R23-M0-NE-C:J05-U01 2005-06-07-01.00.00.000000 R23-M0-NE-C:J05-U01 RAS DISCOVERY SEVERE Can not get assembly information, warning",
    "ERROR",
  ],
  [
    "- 1117955341 2005.06.05 NULL 2005-06-05-00.09.01.903643 NULL RAS MMCS ERROR idoproxydb hit ASSERT condition: info lost",
    "ERROR",
  ],
  [
    "- 1131566461 2005.11.09 dn228 Nov 9 12:01:01 dn228/dn228 crond(pam_unix)[2915]: session failure: error for user root",
    "UNKNOWN",
  ],
  [
    "- 1131566461 2005.11.09 tbird-admin1 Nov 10 12:01:01 local@tbird-admin1 postfix/postdrop[10896]: warning: unable to look up public/pickup",
    "WARN",
  ],
];

Deno.test({
  name: "e2e: a level after a long header (Blue Gene/L RAS) is found; message words after it are not",
  ...opts,
  fn: async () => {
    const dir = tempDir("logpeek-levels-");
    Deno.writeTextFileSync(join(dir, "bgl.log"), LONG_HEADERS.map(([l]) => l).join("\n") + "\n");
    await withLogs(dir, async (s) => {
      const lv = (await s.call("log_levels", { file: "bgl.log" })).structuredContent;
      assertCounts(lv.counts, { INFO: 1, FATAL: 2, WARN: 2, ERROR: 2, UNKNOWN: 1 });
      assert.equal(lv.total_lines, 8);
      const tail = (await s.call("log_tail", { file: "bgl.log", lines: 8 })).structuredContent;
      assert.deepEqual(tail.lines.map((l: Line) => l.level), LONG_HEADERS.map(([, want]) => want));
      const fatal = (await s.call("log_search", { file: "bgl.log", text: "RAS", level: "FATAL" }))
        .structuredContent;
      assert.deepEqual(fatal.matches.map((l: Line) => l.line_no), [2, 3]);
    });
  },
});
