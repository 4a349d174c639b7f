/**
 * `../shared/cases/`: inputs from public bug reports about log tools, each with its right answer in
 * CASE.md. Each test below asserts those values through the real client.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connect, type Session } from "./mcp_client.ts";
import { sharedDir } from "./shared_dir.ts";
import { assertCounts, caseLogs, type Line } from "./case_logs.ts";

const shared = sharedDir("the public bug-report cases");
const opts = { sanitizeResources: false, sanitizeOps: false, ignore: shared === null };

const texts = (ls: Line[]) => ls.map((l) => l.text);
const nos = (ls: Line[]) => ls.map((l) => l.line_no);

async function withCase(name: string, fn: (s: Session) => Promise<void>, env: Record<string, string> = {}) {
  await using s = await connect([caseLogs(shared!, name)], env);
  await fn(s);
}

Deno.test({
  name: "case 01: a tail window that starts exactly on a line boundary keeps that line",
  ...opts,
  fn: () =>
    withCase("01-tail-window-exact-boundary", async (s) => {
      // (200 lines of 64 bytes exceed the inline limit: raised below so the lines come back inline.)
      const a = (await s.call("log_tail", { file: "aligned.log", lines: 200 })).structuredContent;
      assert.equal(a.dropped_partial, false);
      assert.equal(a.replaced_bytes, 0);
      assert.ok(a.lines.every((l: Line) => l.line_no === null));
      assert.equal(a.lines.at(-1).text, "2024-05-01T10:00:00Z INFO seq=005000 msg=tick xxxxxxxxxxxxxxxxx");
      const m = (await s.call("log_tail", { file: "misaligned.log", lines: 200 })).structuredContent;
      assert.equal(m.dropped_partial, true);
      assert.equal(m.lines.at(-1).text, "2024-05-01T10:00:00Z INFO seq=005000 msg=tick xxxxxxxxxxxxxxxxxx");
      const ten = (await s.call("log_tail", { file: "aligned.log", lines: 10 })).structuredContent;
      assert.deepEqual(texts(ten.lines).map((t: string) => t.slice(26, 36)), [
        "seq=004991",
        "seq=004992",
        "seq=004993",
        "seq=004994",
        "seq=004995",
        "seq=004996",
        "seq=004997",
        "seq=004998",
        "seq=004999",
        "seq=005000",
      ]);
      assert.deepEqual(nos(ten.lines), Array(10).fill(null));
    }, { LOGPEEK_INLINE_CHARS: "1000000" }),
});

Deno.test({
  name: "case 01: the whole window is 4096 lines from seq=000905 (aligned) and 4095 from seq=000906",
  ...opts,
  fn: async () => {
    // log_tail returns at most 200 lines, so the window's first line is checked with a level filter
    // that every line passes and a search-free count: the number of lines in the window.
    const dir = caseLogs(shared!, "01-tail-window-exact-boundary");
    const { tailLog } = await import("../src/read/tail.ts");
    const { openLog } = await import("../src/source/local/log_file.ts");
    const { openRoots } = await import("../src/source/local/roots.ts");
    const roots = openRoots([dir], "/");
    for (
      const [file, count, first] of [["aligned.log", 4096, "seq=000905"], [
        "misaligned.log",
        4095,
        "seq=000906",
      ]]
    ) {
      using log = await openLog(roots, file as string);
      const r = await tailLog(log, {
        lines: 5000,
        tailBytes: 262144,
        maxLine: 1000,
        pieceSize: 65536,
        redact: true,
        gzipMs: 30000,
      });
      assert.equal(r.lines.length, count, file as string);
      assert.equal(r.lines[0].text.slice(26, 36), first);
      assert.ok(!r.lines.some((l) => l.text.startsWith("024-05-01")), "no fragment");
    }
  },
});

Deno.test({
  name: "case 02: the last line counts with and without its newline",
  ...opts,
  fn: () =>
    withCase("02-last-line-without-newline", async (s) => {
      for (const file of ["no_eol.log", "with_eol.log"]) {
        const two = (await s.call("log_tail", { file, lines: 2 })).structuredContent;
        assert.deepEqual(two.lines.map((l: Line) => [l.line_no, l.text]), [
          [4, "2024-05-01 10:00:04 INFO step 4"],
          [5, "2024-05-01 10:00:05 INFO step 5"],
        ]);
        assert.equal(two.replaced_bytes, 0);
        const one = (await s.call("log_tail", { file, lines: 1 })).structuredContent;
        assert.deepEqual(one.lines.map((l: Line) => [l.line_no, l.text]), [[
          5,
          "2024-05-01 10:00:05 INFO step 5",
        ]]);
        const lv = (await s.call("log_levels", { file })).structuredContent;
        assertCounts(lv.counts, { INFO: 5 });
        assert.equal(lv.total_lines, 5);
      }
      const found = (await s.call("log_search", { file: "no_eol.log", text: "step 5" })).structuredContent;
      assert.deepEqual(found.matches.map((l: Line) => [l.line_no, l.text]), [[
        5,
        "2024-05-01 10:00:05 INFO step 5",
      ]]);
      assert.equal(found.complete, true);
    }),
});

Deno.test({
  name: "case 03: a file of only newlines, and an empty file",
  ...opts,
  fn: () =>
    withCase("03-newline-only-and-empty", async (s) => {
      const three = (await s.call("log_tail", { file: "newlines.log", lines: 3 })).structuredContent;
      assert.deepEqual(three.lines.map((l: Line) => [l.line_no, l.text]), [[1, ""], [2, ""], [3, ""]]);
      const two = (await s.call("log_tail", { file: "newlines.log", lines: 2 })).structuredContent;
      assert.deepEqual(nos(two.lines), [2, 3]);
      const ten = (await s.call("log_tail", { file: "newlines.log", lines: 10 })).structuredContent;
      assert.deepEqual(nos(ten.lines), [1, 2, 3]);
      const lv = (await s.call("log_levels", { file: "newlines.log" })).structuredContent;
      assertCounts(lv.counts, { UNKNOWN: 3 });
      const x = (await s.call("log_search", { file: "newlines.log", text: "x" })).structuredContent;
      assert.deepEqual([x.matches, x.complete], [[], true]);
      const e = await s.call("log_tail", { file: "empty.log", lines: 10 });
      assert.equal(e.isError, undefined);
      assert.deepEqual([e.structuredContent.lines, e.structuredContent.replaced_bytes], [[], 0]);
      const es = (await s.call("log_search", { file: "empty.log", text: "x" })).structuredContent;
      assert.deepEqual([es.matches, es.complete], [[], true]);
      const el = (await s.call("log_levels", { file: "empty.log" })).structuredContent;
      assertCounts(el.counts, {});
      assert.equal(el.total_lines, 0);
      const files = (await s.call("log_files")).structuredContent.files;
      assert.deepEqual(files.map((f: { file: string; size_bytes: number }) => [f.file, f.size_bytes]), [
        ["empty.log", 0],
        ["newlines.log", 3],
      ]);
    }),
});

Deno.test({
  name: "case 04: CRLF endings, and a CR/LF pair split across two reads",
  ...opts,
  fn: () =>
    withCase("04-crlf-line-endings", async (s) => {
      const t = (await s.call("log_tail", { file: "crlf.log", lines: 2 })).structuredContent;
      assert.deepEqual(t.lines.map((l: Line) => [l.line_no, l.text]), [
        [4, 'ts=2024-05-01T10:00:03Z msg="retrying" level=WARN'],
        [5, "2024-05-01 10:00:04 INFO done"],
      ]);
      const d = (await s.call("log_search", { file: "crlf.log", text: "done" })).structuredContent;
      assert.deepEqual(d.matches.map((l: Line) => [l.line_no, l.text]), [[
        5,
        "2024-05-01 10:00:04 INFO done",
      ]]);
      assert.equal(d.complete, true);
      assertCounts((await s.call("log_levels", { file: "crlf.log" })).structuredContent.counts, {
        INFO: 2,
        WARN: 2,
        ERROR: 1,
      });
      const m = (await s.call("log_search", { file: "crlf_split.log", text: "MARK" })).structuredContent;
      assert.deepEqual(m.matches.map((l: Line) => [l.line_no, l.text]), [
        [1424, "2024-05-01 10:00:01 INFO MARK-A chunk-end " + ".".repeat(35)],
        [1425, "2024-05-01 10:00:02 INFO MARK-B chunk-start"],
      ]);
      assert.equal(m.complete, true);
      const lv = (await s.call("log_levels", { file: "crlf_split.log" })).structuredContent;
      assertCounts(lv.counts, { INFO: 1428 });
      const t2 = (await s.call("log_tail", { file: "crlf_split.log", lines: 2 })).structuredContent;
      assert.deepEqual(t2.lines.map((l: Line) => [l.line_no, l.text]), [
        [1427, "2024-05-01 10:00:00 INFO filler seq=01424 ok"],
        [1428, "2024-05-01 10:00:00 INFO filler seq=01425 ok"],
      ]);
    }),
});

Deno.test({
  name: "case 06: matches that straddle 64 KiB pieces are found exactly once, on the right lines",
  ...opts,
  fn: () =>
    withCase("06-match-across-64k-chunk", async (s) => {
      const r = (await s.call("log_search", { file: "straddle.log", text: "ORDER-47" })).structuredContent;
      assert.deepEqual(r.matches.map((l: Line) => [l.line_no, l.text]), [
        [1365, "2024-05-01 10:00:01 ERROR payment pad=" + "_".repeat(19) + "ORDER-4711-FAILED code=17"],
        [2730, "2024-05-01 10:00:01 ERROR payment pad=" + "_".repeat(6) + "ORDER-4712-FAILED code=17"],
        [4094, "2024-05-01 10:00:01 ERROR payment pad=" + "_".repeat(33) + "ORDER-4713-FAILED code=17"],
        [5458, "2024-05-01 10:00:01 ERROR payment pad=" + "_".repeat(46) + "ORDER-4714-FAILED"],
        [5459, "ORDER-4715-FAILED code=17 (line starts at 262144)"],
      ]);
      assert.deepEqual([r.complete, r.replaced_bytes], [true, 0]);
      const one =
        (await s.call("log_search", { file: "straddle.log", text: "4711-FAILED" })).structuredContent;
      assert.deepEqual(nos(one.matches), [1365]);
      const four =
        (await s.call("log_search", { file: "straddle.log", text: "FAILED code=17" })).structuredContent;
      assert.deepEqual(nos(four.matches), [1365, 2730, 4094, 5459]);
      const lv = (await s.call("log_levels", { file: "straddle.log" })).structuredContent;
      assertCounts(lv.counts, { INFO: 5457, ERROR: 4, UNKNOWN: 1 });
      assert.equal(lv.total_lines, 5462);
    }),
});

Deno.test({
  name: "case 08: a UTF-16LE log is refused as such, never answered as UTF-8",
  ...opts,
  fn: () =>
    withCase("08-utf16le-bom", async (s) => {
      for (
        const [tool, args] of [["log_search", { text: "Error: 18456" }], ["log_tail", { lines: 2 }], [
          "log_levels",
          {},
        ]] as const
      ) {
        const r = await s.call(tool, { file: "errorlog.log", ...args });
        assert.equal(r.isError, true, tool);
        assert.match(
          r.content[0].text,
          /^unsupported_encoding: errorlog.log is UTF-16LE \(byte-order mark FF FE\)/,
        );
      }
    }),
});

Deno.test({
  name: "case 09: a declared level field wins over level words elsewhere in the line",
  ...opts,
  fn: () =>
    withCase("09-jsonl-declared-level", async (s) => {
      const lv = (await s.call("log_levels", { file: "app-json.log" })).structuredContent;
      assertCounts(lv.counts, { INFO: 3, WARN: 2, ERROR: 2, DEBUG: 1 });
      assert.equal(lv.total_lines, 8);
      const r =
        (await s.call("log_search", { file: "app-json.log", text: '"level":"error"' })).structuredContent;
      assert.deepEqual(r.matches.map((l: Line) => [l.line_no, l.text]), [
        [4, '{"ts":"2024-05-01T10:00:03Z","level":"error","msg":"upstream timeout"}'],
      ]);
      assert.equal(r.complete, true);
    }),
});

Deno.test({
  name: "case 10: level spellings fold (warning, WRN, ERR, INF, DBG, klog letters)",
  ...opts,
  fn: () =>
    withCase("10-level-synonyms-abbrev", async (s) => {
      const lv = (await s.call("log_levels", { file: "levels.log" })).structuredContent;
      assertCounts(lv.counts, { WARN: 6, ERROR: 3, INFO: 3, DEBUG: 2 });
      assert.equal(lv.total_lines, 14);
    }),
});

Deno.test({
  name: "case 12: a gzip-rotated log is listed and read through decompression (option A)",
  ...opts,
  fn: () =>
    withCase("12-gzip-rotated-file", async (s) => {
      const files = (await s.call("log_files")).structuredContent.files;
      assert.deepEqual(files.map((f: { file: string; size_bytes: number }) => [f.file, f.size_bytes]), [
        ["app.log", 142],
        ["app.log.1.gz", 113],
      ]);
      const r =
        (await s.call("log_search", { file: "app.log.1.gz", text: "status=bounced" })).structuredContent;
      assert.deepEqual(r.matches.map((l: Line) => [l.line_no, l.text]), [
        [2, "2024-05-01 08:00:01 ERROR delivery id=B200 status=bounced"],
      ]);
      assert.deepEqual([r.complete, r.replaced_bytes], [true, 0]);
      const lv = (await s.call("log_levels", { file: "app.log.1.gz" })).structuredContent;
      assertCounts(lv.counts, { INFO: 2, ERROR: 1 });
      assert.equal(lv.total_lines, 3);
      const t = (await s.call("log_tail", { file: "app.log.1.gz", lines: 5 })).structuredContent;
      assert.deepEqual(t.lines.map((l: Line) => [l.line_no, l.text]), [
        [1, "2024-05-01 08:00:00 INFO queue run started"],
        [2, "2024-05-01 08:00:01 ERROR delivery id=B200 status=bounced"],
        [3, "2024-05-01 08:00:02 INFO queue run finished"],
      ]);
    }),
});

Deno.test({
  name: "case 13: symlinks out of the log directory are refused; links inside and a linked root work",
  ...opts,
  fn: async () => {
    const logs = caseLogs(shared!, "13-symlink-escape", "root/logs", true);
    {
      await using s = await connect([logs]);
      for (
        const [tool, file] of [
          ["log_tail", "leak.log"],
          ["log_search", "leak.log"],
          ["log_levels", "leak.log"],
          ["log_tail", "archive/secret.txt"],
        ]
      ) {
        // Each tool with its own arguments: an unknown one is refused (issue #24).
        const extra = tool === "log_search" ? { text: "CANARY" } : tool === "log_tail" ? { lines: 5 } : {};
        const r = await s.call(tool, { file, ...extra });
        assert.match(
          r.content[0].text,
          /^outside_roots: .*access denied/,
          `${tool} ${file}: ${r.content[0].text}`,
        );
        assert.doesNotMatch(JSON.stringify(r), /CANARY-outside-7731/);
      }
      const d = await s.call("log_tail", { file: "dangling.log", lines: 5 });
      assert.equal(d.isError, true);
      const c = (await s.call("log_tail", { file: "current.log", lines: 5 })).structuredContent;
      assert.deepEqual(c.lines.map((l: Line) => [l.line_no, l.text]), [
        [1, "2024-05-01 10:00:00 INFO app started"],
        [2, "2024-05-01 10:00:01 INFO app ready"],
      ]);
      const files = (await s.call("log_files")).structuredContent.files.map((f: { file: string }) => f.file);
      assert.deepEqual(files, ["app.log", "current.log"]);
    }
    {
      const link = join(logs, "..", "logs-link");
      await using s = await connect([link], {}, [Deno.realPathSync(link)]);
      const one = (await s.call("log_tail", { file: "app.log", lines: 1 })).structuredContent;
      assert.deepEqual(one.lines.map((l: Line) => [l.line_no, l.text]), [[
        2,
        "2024-05-01 10:00:01 INFO app ready",
      ]]);
      const leak = await s.call("log_tail", { file: "leak.log", lines: 5 });
      assert.match(leak.content[0].text, /^outside_roots:/);
    }
  },
});

Deno.test({
  name: "case 15: one 10 MiB line: later lines still found and counted, returned text capped",
  ...opts,
  fn: async () => {
    const logs = caseLogs(shared!, "15-ten-mib-line");
    {
      await using s = await connect([logs], { LOGPEEK_SEARCH_BYTES: "5242880" });
      // A byte budget (5 MiB, the default before issue #12) smaller than the file: an honest incomplete answer.
      const partial =
        (await s.call("log_search", { file: "long.log", text: "marker=LL-42" })).structuredContent;
      assert.deepEqual([partial.matches, partial.complete, partial.stop_reason], [[], false, "size_budget"]);
      const p = await s.call("log_search", { file: "long.log", text: "payload=" });
      assert.deepEqual(nos(p.structuredContent.matches), [2]);
      const m = p.structuredContent.matches[0];
      assert.ok(m.text.startsWith("2024-05-01 10:00:01 ERROR payload=AAAA"));
      assert.deepEqual([m.text.length, m.cut], [1000, true]);
      assert.ok(JSON.stringify(p).length < 10_000, "the response stays small");
      const t = (await s.call("log_tail", { file: "long.log", lines: 3 })).structuredContent;
      assert.deepEqual(t.lines.map((l: Line) => [l.line_no, l.text]), [
        [null, "2024-05-01 10:00:02 WARN after-long-line marker=LL-42"],
        [null, "2024-05-01 10:00:03 INFO end"],
      ]);
      assert.equal(t.dropped_partial, true);
      const lv = (await s.call("log_levels", { file: "long.log" })).structuredContent;
      assertCounts(lv.counts, { INFO: 2, ERROR: 1, WARN: 1 });
      assert.equal(lv.total_lines, 4);
    }
    {
      // The default budgets read the whole file in one call (issue #12).
      await using s = await connect([logs]);
      const r = (await s.call("log_search", { file: "long.log", text: "marker=LL-42" })).structuredContent;
      assert.deepEqual(r.matches.map((l: Line) => [l.line_no, l.text]), [
        [3, "2024-05-01 10:00:02 WARN after-long-line marker=LL-42"],
      ]);
      assert.equal(r.complete, true);
    }
  },
});
