/**
 * End to end: logpeek spawned as users run it, driven by the MCP SDK's client over stdio.
 */
import assert from "node:assert/strict";
import { connect, textFor } from "./mcp_client.ts";
import { makeFixtures } from "./fixtures.ts";

const dir = makeFixtures();

interface ListedTool {
  name: string;
  annotations?: { readOnlyHint?: boolean; openWorldHint?: boolean };
  inputSchema: { type: string };
  outputSchema?: { type: string };
}
const TOOLS = ["log_files", "log_tail", "log_search", "log_levels", "log_patterns", "read_artifact"];

Deno.test({
  name: "e2e: tools, schemas, annotations and every fixture through the real client",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using s = await connect([dir]);
    const call = s.call;

    await t.step("tools/list: six read-only tools with input and output schemas", async () => {
      const { tools } = (await s.client.listTools()) as { tools: ListedTool[] };
      assert.deepEqual(tools.map((x) => x.name).sort(), [...TOOLS].sort());
      for (const tool of tools) {
        assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
        assert.equal(tool.annotations?.openWorldHint, false, tool.name);
        assert.equal(tool.inputSchema.type, "object");
        assert.equal(tool.outputSchema?.type, "object", tool.name);
      }
    });

    await t.step("log_files: regular files, recursively, sorted, folders and links left out", async () => {
      const r = await call("log_files");
      assert.equal(r.isError, undefined);
      const names = r.structuredContent.files.map((f: { file: string }) => f.file);
      assert.deepEqual(names, [
        "app.log.1.gz",
        "crlf.log",
        "cut.log.gz",
        "empty.log",
        "invalid_utf8.log",
        "levels.log",
        "long_line.log",
        "newlines.log",
        "no_eol.log",
        "split_multibyte.log",
        "sub/nested.log",
        "tail_aligned.log",
        "tail_misaligned.log",
        "utf16.log",
      ]);
      const empty = r.structuredContent.files.find((f: { file: string }) => f.file === "empty.log");
      assert.equal(empty.size_bytes, 0);
      assert.match(empty.modified, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
      assert.equal(r.structuredContent.complete, true);
      assert.match(r.content[0].text, /14 log file\(s\); the list is complete/);
    });

    await t.step("CRLF: no \\r in any text, levels read past it", async () => {
      const r = await call("log_tail", { file: "crlf.log", lines: 2 });
      assert.deepEqual(r.structuredContent.lines, [
        { line_no: 2, level: "WARN", text: "2024-05-01 10:00:01 WARN disk usage 91%", cut: false },
        { line_no: 3, level: "ERROR", text: "2024-05-01 10:00:02 ERROR request failed id=7", cut: false },
      ]);
      assert.equal(r.structuredContent.whole_file, true);
    });

    await t.step("no final newline: the last line counts", async () => {
      const r = await call("log_tail", { file: "no_eol.log", lines: 1 });
      assert.deepEqual(r.structuredContent.lines.map((l: { line_no: number }) => l.line_no), [2]);
      const l = await call("log_levels", { file: "no_eol.log" });
      assert.equal(l.structuredContent.total_lines, 2);
      const s2 = await call("log_search", { file: "no_eol.log", text: "step 2" });
      assert.equal(s2.structuredContent.matches[0].line_no, 2);
    });

    await t.step("empty file: no lines, complete, no error", async () => {
      const tail = await call("log_tail", { file: "empty.log" });
      assert.equal(tail.isError, undefined);
      assert.deepEqual(tail.structuredContent.lines, []);
      const search = await call("log_search", { file: "empty.log", text: "x" });
      assert.deepEqual([search.structuredContent.matches, search.structuredContent.complete], [[], true]);
      const levels = await call("log_levels", { file: "empty.log" });
      assert.equal(levels.structuredContent.total_lines, 0);
      assert.equal(levels.structuredContent.counts.UNKNOWN, 0);
    });

    await t.step("only newlines: three empty UNKNOWN lines", async () => {
      const tail = await call("log_tail", { file: "newlines.log", lines: 10 });
      assert.deepEqual(
        tail.structuredContent.lines.map((l: { line_no: number; text: string }) => [l.line_no, l.text]),
        [
          [1, ""],
          [2, ""],
          [3, ""],
        ],
      );
      const levels = await call("log_levels", { file: "newlines.log" });
      assert.equal(levels.structuredContent.counts.UNKNOWN, 3);
    });

    await t.step("invalid UTF-8: two replaced bytes, said in the text too", async () => {
      const tail = await call("log_tail", { file: "invalid_utf8.log" });
      assert.equal(tail.structuredContent.replaced_bytes, 2);
      assert.equal(tail.structuredContent.lines[1].text, "2024-05-01 10:00:01 ERROR bad \uFFFD\uFFFD");
      assert.match(tail.content[0].text, /2 invalid UTF-8 byte\(s\) replaced/);
      const search = await call("log_search", { file: "invalid_utf8.log", text: "bad" });
      assert.equal(search.structuredContent.replaced_bytes, 2);
    });

    await t.step("a multi-byte character split across a piece boundary decodes whole", async () => {
      const r = await call("log_search", { file: "split_multibyte.log", text: "___é d" });
      assert.deepEqual(r.structuredContent.matches, [
        { line_no: 2048, level: "WARN", text: "2024-05-01 10:00:01 WARN caf___é done", cut: false },
      ]);
      assert.equal(r.structuredContent.replaced_bytes, 0);
    });

    await t.step("tail window that starts right after a newline keeps that line", async () => {
      const r = await call("log_tail", { file: "tail_aligned.log", lines: 50 });
      const sc = r.structuredContent;
      assert.deepEqual([sc.whole_file, sc.dropped_partial, sc.lines.length], [false, false, 50]);
      assert.equal(sc.lines[0].line_no, null);
      assert.match(sc.lines[49].text, /seq=005000/);
      assert.match(r.content[0].text, /line numbers are unknown/);
    });

    await t.step("tail window that starts mid-line drops the fragment and says so", async () => {
      const r = await call("log_tail", { file: "tail_misaligned.log", lines: 3 });
      const sc = r.structuredContent;
      assert.deepEqual([sc.whole_file, sc.dropped_partial], [false, true]);
      assert.match(sc.lines[2].text, /seq=005000 msg=tick x{18}$/);
      assert.match(r.content[0].text, /fragment was dropped/);
    });

    await t.step("a match across a piece boundary inside a 3 MiB line is found and cut", async () => {
      const r = await call("log_search", { file: "long_line.log", text: "NEEDLE-3M" });
      const m = r.structuredContent.matches;
      assert.deepEqual(m.map((x: { line_no: number; cut: boolean }) => [x.line_no, x.cut]), [[2, true], [
        3,
        false,
      ]]);
      assert.equal(m[0].text.length, 1000);
      assert.ok(m[0].text.startsWith("2024-05-01 10:00:02 ERROR dump=AAAA"));
      assert.equal(m[0].level, "ERROR");
      assert.equal(r.structuredContent.complete, true);
      assert.match(r.content[0].text, /…\[cut\]/);
    });

    await t.step("limit stops the search and says more may follow", async () => {
      const r = await call("log_search", { file: "levels.log", text: "2024", limit: 2 });
      const sc = r.structuredContent;
      assert.deepEqual([sc.matches.length, sc.complete, sc.stop_reason, sc.scanned_lines], [
        2,
        false,
        "limit",
        2,
      ]);
      assert.match(r.content[0].text, /NOT complete \(stop_reason: limit\)/);
    });

    await t.step("level filters on tail and search; counts per level", async () => {
      // Line 4 (`    at stack.Frame(…)`) continues the ERROR entry of line 3: kept with it (issue #23).
      const tail = await call("log_tail", { file: "levels.log", level: "ERROR" });
      assert.deepEqual(
        tail.structuredContent.lines.map((l: { line_no: number; continuation?: boolean }) => [
          l.line_no,
          l.continuation ?? false,
        ]),
        [[3, false], [4, true], [5, false]],
      );
      const search = await call("log_search", { file: "levels.log", text: "2024", level: "WARN" });
      assert.deepEqual(search.structuredContent.matches.map((l: { line_no: number }) => l.line_no), [2]);
      const levels = await call("log_levels", { file: "levels.log" });
      // Line 4 (`    at stack.Frame(…)`) continues the ERROR entry of line 3 (issue #23).
      assert.deepEqual(levels.structuredContent.counts, {
        TRACE: 0,
        DEBUG: 0,
        INFO: 1,
        NOTICE: 0,
        WARN: 1,
        ERROR: 3,
        FATAL: 0,
        UNKNOWN: 0,
      });
      assert.deepEqual(
        [levels.structuredContent.entries.ERROR, levels.structuredContent.entries.UNKNOWN],
        [2, 0],
      );
      assert.equal(levels.structuredContent.continuation_lines, 1);
      assert.deepEqual([levels.structuredContent.complete, levels.structuredContent.stop_reason], [
        true,
        null,
      ]);
    });

    await t.step("a missing log is an error that says what to do, for every tool", async () => {
      for (
        const [tool, args] of [
          ["log_tail", {}],
          ["log_search", { text: "x" }],
          ["log_levels", {}],
        ] as const
      ) {
        const r = await call(tool, { file: "gone.log", ...args });
        assert.equal(r.isError, true, tool);
        assert.equal(r.structuredContent, undefined);
        assert.match(r.content[0].text, /^not_found: .*renamed or rotated.*log_files/, tool);
      }
    });

    await t.step("paths outside the roots, malformed names, folders: refused, clearly", async () => {
      const cases: [string, RegExp][] = [
        ["../etc/passwd", /^outside_roots: '\.\.' is refused/],
        ["sub/../../x", /^outside_roots/],
        ["/etc/passwd", /^outside_roots: absolute paths are refused/],
        ["a\0b", /^invalid_path: .*NUL/],
        ["sub\\nested.log", /^not_found: /],
        ["", /^invalid_path/],
        ["dir.log", /^not_a_file: dir.log is a directory/],
        ["sub", /^not_a_file/],
      ];
      for (const [file, want] of cases) {
        const r = await call("log_tail", { file });
        assert.equal(r.isError, true, JSON.stringify(file));
        assert.match(r.content[0].text, want, JSON.stringify(file));
      }
    });

    await t.step("UTF-16 logs are refused with what they are, not read as noise", async () => {
      for (const tool of ["log_tail", "log_search", "log_levels"]) {
        const u = await call(tool, { file: "utf16.log", ...textFor(tool, "A") });
        assert.match(u.content[0].text, /^unsupported_encoding: utf16.log is UTF-16LE/, tool);
      }
    });

    await t.step("gzip logs are read through streaming decompression: search, levels, tail", async () => {
      const s1 = await call("log_search", { file: "app.log.1.gz", text: "old line 4990" });
      assert.deepEqual(
        s1.structuredContent.matches.map((m: { line_no: number; level: string }) => [m.line_no, m.level]),
        [
          [4990, "INFO"],
        ],
      );
      assert.equal(s1.structuredContent.complete, true);
      const lv = await call("log_levels", { file: "app.log.1.gz" });
      assert.deepEqual([
        lv.structuredContent.counts.ERROR,
        lv.structuredContent.counts.INFO,
        lv.structuredContent.total_lines,
      ], [
        500,
        4500,
        5000,
      ]);
      const tail = await call("log_tail", { file: "app.log.1.gz", lines: 2 });
      assert.deepEqual(
        tail.structuredContent.lines.map((l: { line_no: number; text: string }) => [l.line_no, l.text]),
        [
          [4999, "2024-05-01 08:00:00 INFO old line 4999"],
          [5000, "2024-05-01 08:00:00 INFO old line 5000"],
        ],
      );
      assert.equal(tail.structuredContent.whole_file, true);
    });

    await t.step(
      "a gzip log cut short is an honest incomplete answer or error, never a quiet short one",
      async () => {
        const s2 = await call("log_search", { file: "cut.log.gz", text: "old line 4990" });
        assert.deepEqual([
          s2.structuredContent.complete,
          s2.structuredContent.stop_reason,
          s2.structuredContent.matches,
        ], [
          false,
          "corrupt_gzip",
          [],
        ]);
        assert.match(s2.content[0].text, /compressed data is damaged or cut short/);
        const lv = await call("log_levels", { file: "cut.log.gz" });
        assert.deepEqual([lv.structuredContent.complete, lv.structuredContent.stop_reason], [
          false,
          "corrupt_gzip",
        ]);
        assert.ok(lv.structuredContent.total_lines > 0 && lv.structuredContent.total_lines < 5000);
        const tail = await call("log_tail", { file: "cut.log.gz" });
        assert.match(tail.content[0].text, /^corrupt_gzip: cut\.log\.gz is damaged or cut short/);
      },
    );

    await t.step("bad arguments and unknown tools are errors, and the server keeps serving", async () => {
      const big = await call("log_tail", { file: "crlf.log", lines: 201 });
      assert.equal(big.isError, true);
      assert.match(big.content[0].text, /lines/);
      const nl = await call("log_search", { file: "crlf.log", text: "a\nb" });
      assert.match(nl.content[0].text, /text must be on one line/);
      const unknown = await call("log_nope", {});
      assert.equal(unknown.isError, true);
      const ok = await call("log_tail", { file: "crlf.log", lines: 1 });
      assert.equal(ok.isError, undefined);
    });
  },
});
