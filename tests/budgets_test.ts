/**
 * Budgets set through the environment, end to end (the seed's check: 0 ms and 1000 bytes).
 */
import assert from "node:assert/strict";
import { connect, MAIN } from "./mcp_client.ts";
import { makeFixtures } from "./fixtures.ts";

const dir = makeFixtures();
// 40 lines of 25 bytes: exactly 1000 bytes.
Deno.writeTextFileSync(`${dir}/k.log`, "2024-05-01 INFO line ok\r\n".repeat(40));
const opts = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "e2e: LOGPEEK_SEARCH_MS=0 stops with time_budget; LOGPEEK_LEVELS_MS=0 too",
  ...opts,
  async fn() {
    await using s = await connect([dir], { LOGPEEK_SEARCH_MS: "0", LOGPEEK_LEVELS_MS: "0" });
    const r = await s.call("log_search", { file: "tail_aligned.log", text: "seq=004999" });
    assert.deepEqual([r.structuredContent.complete, r.structuredContent.stop_reason], [false, "time_budget"]);
    assert.deepEqual(r.structuredContent.matches, []);
    assert.match(r.content[0].text, /NOT complete \(stop_reason: time_budget\).*proves nothing/);
    const l = await s.call("log_levels", { file: "tail_aligned.log" });
    assert.deepEqual([l.structuredContent.complete, l.structuredContent.stop_reason], [false, "time_budget"]);
    assert.match(l.content[0].text, /cover only the lines before that point/);
    // An empty log is complete even with no time at all: there was nothing left to read.
    const e = await s.call("log_search", { file: "empty.log", text: "x" });
    assert.equal(e.structuredContent.complete, true);
  },
});

Deno.test({
  name: "e2e: LOGPEEK_SEARCH_BYTES=1000 stops with size_budget, except exactly at the end",
  ...opts,
  async fn() {
    await using s = await connect([dir], { LOGPEEK_SEARCH_BYTES: "1000" });
    const r = await s.call("log_search", { file: "tail_aligned.log", text: "seq=004999" });
    const sc = r.structuredContent;
    assert.deepEqual([sc.complete, sc.stop_reason, sc.scanned_lines], [false, "size_budget", 15]);
    const exact = await s.call("log_search", { file: "k.log", text: "nothing like this" });
    assert.deepEqual(
      [
        exact.structuredContent.complete,
        exact.structuredContent.stop_reason,
        exact.structuredContent.scanned_lines,
      ],
      [true, null, 40],
    );
  },
});

Deno.test({
  name: "e2e: LOGPEEK_TAIL_BYTES and LOGPEEK_MAX_LINE shape the answers",
  ...opts,
  async fn() {
    await using s = await connect([dir], { LOGPEEK_TAIL_BYTES: "100", LOGPEEK_MAX_LINE: "10" });
    const r = await s.call("log_tail", { file: "k.log", lines: 200 });
    // The last 100 bytes are four whole 25-byte lines: the byte before the window is "\n".
    assert.equal(r.structuredContent.lines.length, 4);
    assert.equal(r.structuredContent.dropped_partial, false);
    assert.deepEqual(r.structuredContent.lines[0], {
      line_no: null,
      level: "INFO",
      text: "2024-05-01",
      cut: true,
    });
  },
});

Deno.test("a bad budget value stops the server at start, naming the variable", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", `--allow-read=${dir}`, "--allow-env", MAIN, dir],
    env: { LOGPEEK_SEARCH_MS: "soon", NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 1);
  assert.equal(out.stdout.length, 0);
  assert.match(
    new TextDecoder().decode(out.stderr),
    /LOGPEEK_SEARCH_MS must be a whole number from 0 to 9007199254740991, got 'soon'/,
  );
});
