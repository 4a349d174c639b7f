/**
 * Issue #24, "errors that teach", through the MCP SDK's client: a level in any case; an unknown argument
 * refused, naming it and the ones the tool takes; a whole message line (over 1,000 characters) as a
 * search text, found as `grep -c -F` finds it; a limit's refusal that says the range and what to do
 * instead; a misspelled log name answered with the closest names. Each value against an independent
 * count (grep) or the names written.
 */
import assert from "node:assert/strict";
import { connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

/** `grep -c -F text file` (0 when none). */
function grepCount(file: string, text: string, flags: string[] = []): number {
  const out = new Deno.Command("grep", { args: ["-c", ...flags, "-F", "--", text, file], stdout: "piped" })
    .outputSync();
  return Number(new TextDecoder().decode(out.stdout).trim() || "0");
}

Deno.test({
  name:
    "errors that teach: level in any case, unknown arguments, a 1,500-character text, limits, closest names",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-teach-");
    const long = "payment failed for order 4711: " + "upstream said: connection reset by peer; ".repeat(36);
    assert.ok(long.length > 1500);
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) {
      const level = i % 5 === 0 ? "ERROR" : i % 3 === 0 ? "WARN" : "INFO";
      lines.push(
        `2024-05-01 10:00:${String(i % 60).padStart(2, "0")} ${level} ${i % 50 === 7 ? long : `step ${i}`}`,
      );
    }
    Deno.writeTextFileSync(`${dir}/app.log`, lines.join("\n") + "\n");
    Deno.writeTextFileSync(`${dir}/access.log`, "GET / 200\n");
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "1000000" });

    // A level in any case is that level: the same answer as upper case, as many as grep counts.
    const errors = grepCount(`${dir}/app.log`, " ERROR ");
    for (const level of ["error", "Error", " ERROR"]) {
      const r = await s.call("log_search", { file: "app.log", text: "2024", level, limit: 5000 });
      assert.ok(!r.isError, `${level}: ${r.content[0].text}`);
      assert.equal(r.structuredContent.matches.length, errors, level);
      const t = await s.call("log_tail", { file: "app.log", lines: 200, level });
      assert.ok(t.structuredContent.lines.every((l: { level: string }) => l.level === "ERROR"), level);
    }
    const bad = await s.call("log_search", { file: "app.log", text: "x", level: "loud" });
    assert.match(
      bad.content[0].text,
      /a level is one of TRACE, DEBUG, INFO, NOTICE, WARN, ERROR, FATAL, UNKNOWN \(in any case\)/,
    );

    // An unknown argument is refused, naming it and every argument the tool takes.
    const unknown = await s.call("log_search", { file: "app.log", pattern: "boom" });
    assert.equal(unknown.isError, true);
    assert.match(
      unknown.content[0].text,
      /unknown argument 'pattern': log_search takes file, text, template_id, level, /,
    );
    const two = await s.call("log_tail", { file: "app.log", n: 5, grep: "x" });
    assert.match(
      two.content[0].text,
      /unknown arguments 'n', 'grep': log_tail takes file, lines, level, since, until/,
    );

    // A whole message line as the needle, literal and with ignore_case.
    const want = grepCount(`${dir}/app.log`, long);
    assert.equal(want, 6);
    for (const ignore_case of [false, true]) {
      const text = ignore_case ? long.toUpperCase() : long;
      const r = await s.call("log_search", { file: "app.log", text, ignore_case, limit: 5000 });
      assert.ok(!r.isError, r.content[0].text.slice(0, 300));
      assert.equal(
        r.structuredContent.matches.length,
        grepCount(`${dir}/app.log`, text, ignore_case ? ["-i"] : []),
      );
      assert.equal(r.structuredContent.matches.length, want);
    }
    const tooLong = await s.call("log_search", { file: "app.log", text: "y".repeat(5000) });
    assert.match(
      tooLong.content[0].text,
      /text is at most 4096 characters: search for a distinctive part of the line/,
    );

    // A limit's refusal says the range and the way past it.
    const lines500 = await s.call("log_tail", { file: "app.log", lines: 500 });
    assert.match(
      lines500.content[0].text,
      /lines is a whole number from 1 to 200: for more, log_search with since\/until/,
    );
    const ctx = await s.call("log_search", { file: "app.log", text: "x", context: 50 });
    assert.match(ctx.content[0].text, /context is a whole number from 0 to 10: /);
    const lim = await s.call("log_search", { file: "app.log", text: "x", limit: 0 });
    assert.match(lim.content[0].text, /limit is a whole number from 1 to 5000 at limit$/);

    // A misspelled name: not found, with the closest log names (the listing's, app.log first).
    for (const tool of ["log_tail", "log_search", "log_levels", "log_patterns"]) {
      const r = await s.call(tool, { file: "app.lgo", ...(tool === "log_search" ? { text: "x" } : {}) });
      assert.equal(r.isError, true, tool);
      assert.match(
        r.content[0].text,
        /^not_found: log app\.lgo not found; .*; the closest log names: app\.log(, access\.log)?$/,
        tool,
      );
    }
  },
});
