/**
 * Issue #23 item 2, end to end through the real MCP client: `log_search` and `log_tail` give a
 * continuation line (a stack frame, `Caused by:`, `#0 …`, `[stacktrace]`, an indented line) its entry's
 * level, so that `level: "ERROR"` returns an error with its trace and the lines of a level that a search
 * finds are the lines `log_levels` counts for it. The independent count is awk's: each line under the
 * level of the last line that starts with a time.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { mulberry32, tempDir } from "./fixtures.ts";
import { connect, type Session } from "./mcp_client.ts";
import { sharedDir } from "./shared_dir.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

/** Continuation lines: none has a time, nor a level of its own. */
const CONTINUATIONS = [
  "java.lang.IllegalStateException: order failed",
  "\tat com.shop.Orders.place(Orders.java:88)",
  "\tat com.shop.Api.post(Api.java:12)",
  "Caused by: java.net.SocketException: reset",
  "\t... 4 more",
  "#0 /srv/shop/src/Orders.php(12): place()",
  "[stacktrace]",
  "Traceback (most recent call last):",
  '  File "/srv/shop/jobs.py", line 4, in run',
  "ValueError: bad sku",
  "    at Object.<anonymous> (/srv/shop/index.js:7:3)",
];

/**
 * awk's count: each line under the level of the last line that starts with a time (`lvl` = the awk
 * expression that gives an entry line's level), or the line numbers of one level's lines, holding `grep`
 * when given.
 */
function awk(file: string, header: string, lvl: string, level?: string, grep?: string): string {
  const prog = level
    ? `${header} { lvl = ${lvl} } lvl == "${level}"${grep ? ` && index($0, "${grep}")` : ""} { print NR }`
    : `${header} { lvl = ${lvl} } { c[lvl]++ } END { for (k in c) print k, c[k] }`;
  const out = new Deno.Command("awk", { args: [prog, file], stdout: "piped" }).outputSync();
  assert.ok(out.success, "awk ran");
  return new TextDecoder().decode(out.stdout);
}

/** Every match of a search, page after page (next_cursor). */
async function allMatches(s: Session, args: Record<string, unknown>) {
  const out: { line_no: number; level: string; continuation?: boolean; text: string }[] = [];
  let cursor: string | undefined;
  do {
    const r = await s.call("log_search", { ...args, limit: 5000, ...(cursor ? { cursor } : {}) });
    assert.equal(r.isError, undefined, r.content[0].text);
    assert.equal(r.structuredContent.artifact, undefined, "the whole page is in the answer");
    out.push(...r.structuredContent.matches);
    cursor = r.structuredContent.next_cursor ?? undefined;
    if (!cursor) assert.equal(r.structuredContent.complete, true);
  } while (cursor);
  return out;
}

Deno.test({
  name: "log_search and log_tail: a level filter keeps an entry's continuation lines; per level, search's " +
    "lines = log_levels' counts = awk's, on a generated log of 11,976 lines",
  ...opts,
  async fn() {
    const rand = mulberry32(2323);
    const dir = tempDir("logpeek-entry-levels-");
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const level = ["INFO", "WARN", "ERROR", "DEBUG"][Math.floor(rand() * 4)];
      const t = `2024-03-02 ${String(Math.floor(i / 3600) % 24).padStart(2, "0")}:${
        String(Math.floor(i / 60) % 60).padStart(2, "0")
      }:${String(i % 60).padStart(2, "0")}`;
      lines.push(`${t} ${level} [main] shop: step ${i}`);
      const n = Math.floor(rand() * 7);
      for (let k = 0; k < n; k++) lines.push(CONTINUATIONS[Math.floor(rand() * CONTINUATIONS.length)]);
    }
    const file = join(dir, "shop.log");
    Deno.writeTextFileSync(file, lines.join("\n") + "\n");
    const header = "/^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] /";
    const want: Record<string, number> = {};
    for (const row of awk(file, header, "$3").trim().split("\n")) {
      const [k, v] = row.split(" ");
      want[k] = Number(v);
    }
    assert.ok(lines.length > 11000 && want.ERROR > 2000, `${lines.length} lines, ${want.ERROR} ERROR`);
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: String(1e8) });
    const lv = (await s.call("log_levels", { file: "shop.log" })).structuredContent;
    for (const level of ["INFO", "WARN", "ERROR", "DEBUG"]) {
      assert.equal(lv.counts[level], want[level], `log_levels ${level}`);
      const all = await allMatches(s, { file: "shop.log", text: "^", regex: true, level });
      assert.equal(all.length, want[level], `log_search regex ^ level ${level}`);
      assert.deepEqual(
        all.map((m) => m.line_no).join(),
        awk(file, header, "$3", level).trim().split("\n").join(),
        `${level}: the lines awk gives`,
      );
      // Each line not starting with a time is marked as continuing its entry.
      assert.ok(all.every((m) => (m.continuation === true) === !/^\d{4}-/.test(m.text)), level);
    }
    // A literal (the scanner's needle search hands on only the lines that hold it): frames of errors.
    const frames = await allMatches(s, { file: "shop.log", text: "at com.shop", level: "ERROR" });
    assert.deepEqual(
      frames.map((m) => m.line_no).join(),
      awk(file, header, "$3", "ERROR", "at com.shop").trim().split("\n").join(),
    );
    assert.ok(frames.length > 100 && frames.every((m) => m.continuation === true && m.level === "ERROR"));
    // The tail keeps an error's trace; its window (256 KiB) starts inside the file, so line numbers are
    // unknown: the texts are compared with awk's last lines of level ERROR.
    const tail =
      (await s.call("log_tail", { file: "shop.log", level: "ERROR", lines: 200 })).structuredContent;
    const last = awk(file, header, "$3", "ERROR").trim().split("\n").slice(-200).map((n) =>
      lines[Number(n) - 1]
    );
    assert.deepEqual(tail.lines.map((l: { text: string }) => l.text), last);
    assert.ok(tail.lines.some((l: { continuation?: boolean }) => l.continuation));
  },
});

Deno.test({
  name: "lnav's Laravel log: its 82 errors, 1,416 lines with their traces, by log_levels, log_search level " +
    "ERROR and log_tail, as awk counts them",
  ...opts,
  ignore: sharedDir("the Laravel log's errors") === null,
  async fn() {
    const logs = join(sharedDir("the Laravel log's errors")!, "corpus", "lnav", "logs");
    const file = join(logs, "logfile_laravel.0");
    // awk: a Monolog header `[time] channel.LEVEL: …` starts an entry; every other line is its.
    const header = "/^\\[[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9:]+\\] [a-z]+\\.[A-Z]+: /";
    const lvl = 'substr($3, index($3, ".") + 1, length($3) - index($3, ".") - 1)';
    assert.equal(awk(file, header, lvl).trim(), "ERROR 1416");
    const entries = new Deno.Command("awk", {
      args: [`${header} { n++ } END { print n }`, file],
      stdout: "piped",
    })
      .outputSync();
    assert.equal(new TextDecoder().decode(entries.stdout).trim(), "82");
    await using s = await connect([logs], { LOGPEEK_INLINE_CHARS: String(1e8) });
    const lv = (await s.call("log_levels", { file: "logfile_laravel.0" })).structuredContent;
    assert.deepEqual([lv.counts.ERROR, lv.entries.ERROR, lv.total_lines], [1416, 82, 1416]);
    const all = await allMatches(s, { file: "logfile_laravel.0", text: "^", regex: true, level: "ERROR" });
    assert.equal(all.length, 1416);
    assert.equal(all.filter((m) => !m.continuation).length, 82);
    const trace = await allMatches(s, { file: "logfile_laravel.0", text: "[stacktrace]", level: "ERROR" });
    const grep = new Deno.Command("grep", { args: ["-c", "-F", "[stacktrace]", file], stdout: "piped" })
      .outputSync();
    assert.equal(trace.length, Number(new TextDecoder().decode(grep.stdout))); // every such line is an error's
    assert.ok(trace.length >= 82 && trace.every((m) => m.level === "ERROR"));
    const tail = (await s.call("log_tail", { file: "logfile_laravel.0", level: "ERROR", lines: 200 }))
      .structuredContent;
    assert.deepEqual(
      tail.lines.map((l: { line_no: number }) => l.line_no),
      Array.from({ length: 200 }, (_, k) => 1217 + k),
    );
  },
});
