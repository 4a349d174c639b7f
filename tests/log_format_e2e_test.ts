/**
 * The detected log format end to end, through the real MCP client (issue #23 item 2): `log_files` and every
 * reading answer (`log_tail`, `log_search`, `log_levels`, `log_patterns`) name it in `log_format` and in
 * their text, and a format whose levels the general rules misread (Redis's `*`/`#`, .NET's `fail:`) has its
 * levels read its own way — counted against `grep -c` of the level's own mark, an independent count.
 */
import assert from "node:assert/strict";
import { tempDir } from "./fixtures.ts";
import { connect } from "./mcp_client.ts";
import { SAMPLES } from "../src/read/log_format_samples.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

/** `grep -c -E pattern file`, as a number. */
function grepCount(pattern: string, file: string): number {
  const out = new Deno.Command("grep", { args: ["-c", "-E", pattern, file], stdout: "piped" }).outputSync();
  return Number(new TextDecoder().decode(out.stdout).trim());
}

/** A Redis log written from the sample lines of its docs, repeated (each line's pid varied). */
function redisLog(dir: string): string {
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) lines.push(...SAMPLES.redis.map(([t]) => t.replace(/^1:/, `${100 + i}:`)));
  Deno.writeTextFileSync(`${dir}/redis-server.log`, lines.join("\n") + "\n");
  return `${dir}/redis-server.log`;
}

Deno.test({
  name:
    "e2e: a Redis log is named redis everywhere, and its # lines are WARN, * NOTICE, . and - DEBUG (grep's counts)",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-formats-");
    const path = redisLog(dir);
    Deno.writeTextFileSync(`${dir}/plain.log`, "hello\nworld\nthird line\n");
    const warn = grepCount("^[0-9]+:[XCSM] [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9:.]{12} # ", path);
    const notice = grepCount("^[0-9]+:[XCSM] [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9:.]{12} \\* ", path);
    const debug = grepCount("^[0-9]+:[XCSM] [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9:.]{12} [-.] ", path);
    const lines = grepCount("", path);
    assert.deepEqual([warn, notice, debug, lines], [80, 80, 80, 240]);
    await using s = await connect([dir]);

    const files = (await s.call("log_files", {})).structuredContent.files;
    assert.deepEqual(
      files.map((f: { file: string; log_format: string | null }) => [f.file, f.log_format]),
      [["plain.log", null], ["redis-server.log", "redis"]],
    );

    const lv = await s.call("log_levels", { file: "redis-server.log" });
    assert.equal(lv.structuredContent.log_format, "redis");
    assert.deepEqual(
      [
        lv.structuredContent.counts.WARN,
        lv.structuredContent.counts.NOTICE,
        lv.structuredContent.counts.DEBUG,
      ],
      [warn, notice, debug],
    );
    assert.equal(lv.structuredContent.counts.UNKNOWN, 0);
    assert.match(lv.content[0].text, /log_format: redis\./);

    const tail = await s.call("log_tail", { file: "redis-server.log", lines: 6, level: "WARN" });
    assert.equal(tail.structuredContent.log_format, "redis");
    assert.ok(tail.structuredContent.lines.length === 6);
    for (const l of tail.structuredContent.lines) assert.match(l.text, / # /);
    assert.match(tail.content[0].text, /log_format: redis\./);

    const found = await s.call("log_search", {
      file: "redis-server.log",
      text: "Ready to accept",
      limit: 100,
    });
    assert.equal(found.structuredContent.log_format, "redis");
    assert.equal(found.structuredContent.matches.length, grepCount("Ready to accept", path));
    assert.ok(found.structuredContent.matches.every((m: { level: string }) => m.level === "NOTICE"));
    assert.match(found.content[0].text, /log_format: redis\./);

    const pats = await s.call("log_patterns", { file: "redis-server.log" });
    assert.equal(pats.structuredContent.log_format, "redis");
    assert.match(pats.content[0].text, /log_format: redis\./);

    const plain = await s.call("log_levels", { file: "plain.log" });
    assert.equal(plain.structuredContent.log_format, null);
    assert.match(plain.content[0].text, /log_format: null \(no known format; general level rules\)\./);
  },
});

Deno.test({
  name: "e2e: a .NET console log's fail: entries and their indented message lines are ERROR",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-formats-");
    const entries = SAMPLES.dotnet_console.map(([t]) => t);
    Deno.writeTextFileSync(`${dir}/app.log`, Array(10).fill(entries.join("\n")).join("\n") + "\n");
    const fails = grepCount("^fail: ", `${dir}/app.log`);
    assert.equal(fails, 10);
    await using s = await connect([dir]);
    const lv = (await s.call("log_levels", { file: "app.log" })).structuredContent;
    assert.equal(lv.log_format, "dotnet_console");
    // Each entry is two lines: its header and its message, indented six spaces (a continuation line).
    assert.deepEqual([lv.entries.ERROR, lv.counts.ERROR, lv.continuation_lines], [fails, 2 * fails, 60]);
  },
});
