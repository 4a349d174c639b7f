/**
 * Issue #24, "numbers that mean what they say", through the MCP SDK's client, each against grep: a stop
 * at the match limit names the last match's log and line (over a glob it said "after line N" of lines
 * read across logs); a spilled search with context counts its matches' levels apart from its context
 * lines.
 */
import assert from "node:assert/strict";
import { connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

/** `grep -n -F text file`: the line numbers. */
function grepLines(file: string, text: string): number[] {
  const out = new Deno.Command("grep", { args: ["-n", "-F", "--", text, file], stdout: "piped" })
    .outputSync();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map((l) => Number(l.split(":")[0]));
}

Deno.test({
  name:
    "numbers: a stop at the match limit names the last match's log and line; a spill counts matches apart",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-numbers-");
    const write = (name: string, n: number, every: number, mtime: number) => {
      const lines = Array.from(
        { length: n },
        (_, i) => `2024-05-01 10:00:00 ${i % every === 3 ? "ERROR boom" : "INFO fine"} ${i + 1}`,
      );
      Deno.writeTextFileSync(`${dir}/${name}`, lines.join("\n") + "\n");
      Deno.utimeSync(`${dir}/${name}`, mtime, mtime);
    };
    write("b.log", 5000, 100, 1_700_000_200); // newest: read first over a glob
    write("a.log", 5000, 50, 1_700_000_100);
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "1000000" });

    // 50 matches in b.log, then the limit stops in a.log at its 10th.
    const b = grepLines(`${dir}/b.log`, "ERROR boom");
    const a = grepLines(`${dir}/a.log`, "ERROR boom");
    assert.deepEqual([b.length, a.length], [50, 100]);
    const r = await s.call("log_search", { file: "*.log", text: "ERROR boom", limit: 60 });
    const sc = r.structuredContent;
    assert.equal(sc.stop_reason, "limit");
    assert.deepEqual(sc.matches.at(-1), { ...sc.matches.at(-1), file: "a.log", line_no: a[9] });
    assert.match(
      r.content[0].text,
      new RegExp(`stopped at the match limit at the last match shown, a\\.log:${a[9]};`),
    );
    // One log, on the page after a cursor: the line number of the last match, not of lines read.
    const p1 = await s.call("log_search", { file: "a.log", text: "ERROR boom", limit: 30 });
    const p2 = await s.call("log_search", {
      file: "a.log",
      text: "ERROR boom",
      limit: 30,
      cursor: p1.structuredContent.next_cursor,
    });
    assert.equal(p2.structuredContent.matches.at(-1).line_no, a[59]);
    assert.match(p2.content[0].text, new RegExp(`at the last match shown, line ${a[59]};`));

    // Spilled with context: the summary counts the 100 matches by level; the items are more.
    await using small = await connect([dir], { LOGPEEK_INLINE_CHARS: "2000" });
    const c = await small.call("log_search", { file: "a.log", text: "boom", limit: 5000, context: 2 });
    const summary = c.structuredContent.spill_summary;
    assert.deepEqual(Object.entries(summary.levels).filter(([, n]) => n), [["ERROR", 100]]);
    const items = c.structuredContent.artifact.total_lines;
    assert.ok(items > 100, `${items} items`);
    assert.match(
      c.content[0].text,
      new RegExp(
        `levels of the 100 matches \\(the ${items} items also hold ${
          items - 100
        } context lines, separators and headings\\): ERROR 100`,
      ),
    );
  },
});
