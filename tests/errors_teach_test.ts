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

/** `wc -l < file`. */
function wcLines(file: string): number {
  const out = new Deno.Command("wc", { args: ["-l", file], stdout: "piped" }).outputSync();
  return Number(new TextDecoder().decode(out.stdout).trim().split(/\s+/)[0]);
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
    // … and a level word that folds to one as a line's does (syslog's `err`, Python's `ERROR`).
    for (const level of ["error", "Error", " ERROR", "err"]) {
      const r = await s.call("log_search", { file: "app.log", text: "2024", level, limit: 5000 });
      assert.ok(!r.isError, `${level}: ${r.content[0].text}`);
      assert.equal(r.structuredContent.matches.length, errors, level);
      const t = await s.call("log_tail", { file: "app.log", lines: 200, level });
      assert.ok(t.structuredContent.lines.every((l: { level: string }) => l.level === "ERROR"), level);
    }
    const bad = await s.call("log_search", { file: "app.log", text: "x", level: "loud" });
    assert.match(
      bad.content[0].text,
      /a level is one of TRACE, DEBUG, INFO, NOTICE, WARN, ERROR, FATAL, UNKNOWN \(in any case, or a word that folds to one: WARNING, ERR, CRITICAL\)/,
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
      /lines is a whole number from 1 to 200: for more, log_search \(text="\^", regex=true: every line;/,
    );
    // The way past it works: every line, as many as wc -l counts.
    const every = await s.call("log_search", { file: "app.log", text: "^", regex: true, limit: 5000 });
    assert.equal(every.structuredContent.matches.length, wcLines(`${dir}/app.log`));
    assert.equal(every.structuredContent.complete, true);

    // A search without a text says how to match every line; with a level, as many as grep counts.
    const noText = await s.call("log_search", { file: "app.log", level: "ERROR" });
    assert.match(noText.content[0].text, /text="\^" with regex=true matches every line/);
    const allErrors = await s.call("log_search", {
      file: "app.log",
      text: "^",
      regex: true,
      level: "ERROR",
      limit: 5000,
    });
    assert.equal(allErrors.structuredContent.matches.length, grepCount(`${dir}/app.log`, " ERROR "));

    // A missing or mistyped file says it is required and where names come from.
    for (const tool of ["log_tail", "log_search", "log_levels", "log_patterns"]) {
      const r = await s.call(tool, tool === "log_search" ? { text: "x" } : {});
      assert.equal(r.isError, true, tool);
      assert.match(r.content[0].text, /file is required: a log's name as log_files lists it/, tool);
    }
    const mistyped = await s.call("log_tail", { file: 3 });
    assert.match(mistyped.content[0].text, /file is a log's name as log_files lists it \(a string\)/);
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

Deno.test({
  name:
    "errors that teach: a tail that stops at a line longer than its window says so, and the way past it works",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-teach-long-");
    const before = Array.from({ length: 7 }, (_, i) => `2024-05-01 10:00:0${i} INFO step ${i}`);
    const text = [...before, "x".repeat(3_000_000), "2024-05-01 10:00:09 ERROR end"].join("\n") + "\n";
    Deno.writeTextFileSync(`${dir}/big.log`, text);
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "1000000" });
    const t = await s.call("log_tail", { file: "big.log", lines: 5 });
    assert.equal(t.structuredContent.lines.length, 1);
    assert.equal(t.structuredContent.dropped_partial, true);
    assert.match(
      t.content[0].text,
      /fewer lines than the 5 asked: a line longer than the window stands before them/,
    );
    // Following it: every line until the first returned line's time, as grep counts them before it.
    const r = await s.call("log_search", {
      file: "big.log",
      text: "^",
      regex: true,
      until: "2024-05-01T10:00:09Z",
      limit: 100,
    });
    const grep = new Deno.Command("grep", {
      args: ["-c", "^2024-05-01 10:00:0[0-8]", `${dir}/big.log`],
      stdout: "piped",
    })
      .outputSync();
    const dated = r.structuredContent.matches.filter((m: { text: string }) => m.text.startsWith("2024"));
    assert.equal(dated.length, Number(new TextDecoder().decode(grep.stdout).trim()));
    assert.equal(dated.length, 7);
    // Asked for no more lines than it gave, the tail adds nothing.
    const one = await s.call("log_tail", { file: "big.log", lines: 1 });
    assert.doesNotMatch(one.content[0].text, /fewer lines than/);
  },
});
