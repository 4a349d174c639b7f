/**
 * Issue #10, item 12 end to end: the tool description, the answer texts and the README say the same true
 * thing about `regex` (RE2 via re2js, linear time, the first 64 KiB of a line in bytes, secrets masked),
 * a regex syntax error is worded apart from a pattern RE2 refuses, and the echoed text is shown as it was
 * written, not JSON-escaped.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const dir = tempDir("logpeek-texts-");
/** The tools reference (docs/tools.md, moved out of the README: issue #24) with its line wrapping undone. */
const README = Deno.readTextFileSync(fileURLToPath(new URL("../docs/tools.md", import.meta.url))).replace(
  /\s+/g,
  " ",
);

Deno.test({
  name: "e2e: log_search's description of regex and ignore_case is the README's, and true",
  ...opts,
  async fn() {
    // Line 1: NEEDLE at code point 2,000 (past LOGPEEK_MAX_LINE = 1000, byte 4,000). Line 2: NEEDLE at code
    // point 33,000 but byte 66,000 (é takes 2 bytes): inside 64 K characters, outside 64 KiB of bytes.
    // Line 3: NEEDLE ends exactly at byte 65,536.
    Deno.writeTextFileSync(
      `${dir}/long.log`,
      [
        "é".repeat(2000) + "NEEDLE",
        "é".repeat(33000) + "NEEDLE",
        "a".repeat(65530) + "NEEDLE" + "z".repeat(10),
      ]
        .join("\n") + "\n",
    );
    await using s = await connect([dir], { LOGPEEK_SEARCH_MS: "5000" });
    const { tools } = (await s.client.listTools()) as {
      tools: {
        name: string;
        description?: string;
        inputSchema: { properties: Record<string, { description: string }> };
      }[];
    };
    const search = tools.find((t) => t.name === "log_search")!;
    // The listed descriptions are short (issue #24); the whole ones are in docs/tool_schemas.md, made from
    // the same zod schemas (tests/tool_docs_test.ts keeps it current).
    assert.match(
      search.inputSchema.properties.regex.description,
      /RE2 syntax: no backreferences or lookaround/,
    );
    const docs = Deno.readTextFileSync(new URL("../docs/tool_schemas.md", import.meta.url));
    const row = (field: string) =>
      docs.slice(docs.indexOf("## log_search")).split("\n").find((l) => l.startsWith(`| \`${field}\` |`))!;
    const regex = row("regex");
    assert.match(
      regex,
      /RE2 syntax \(RE2's, not JavaScript's: \(\?P<name>…\), \[\[:digit:\]\], \\pL, \(\?i\) work/,
    );
    assert.match(regex, /re2js/);
    assert.match(regex, /linear/);
    assert.match(regex, /first 64 KiB \(65,536 bytes\)/);
    assert.match(regex, /secrets masked/);
    assert.doesNotMatch(regex, /JavaScript regular expression|LOGPEEK_MAX_LINE/);
    assert.match(row("ignore_case"), /simple case folding/);
    assert.match(search.description!, /RE2/);
    // The README says the same.
    assert.match(
      README,
      /\*\*`regex`\*\* is a pattern in RE2 syntax — RE2's, not JavaScript's: `\(\?P<name>…\)`, `\[\[:digit:\]\]`, `\\pL` and `\(\?i\)` work/,
    );
    assert.match(README, /tested on each line's first 64 KiB \(65,536 bytes, not `LOGPEEK_MAX_LINE`\)/);
    assert.match(README, /\*\*`ignore_case`\*\* is Unicode simple case folding/);
    assert.doesNotMatch(README, /JavaScript regular expression/);
    // And it is true: bytes, not characters, and not LOGPEEK_MAX_LINE.
    const r = await s.call("log_search", { file: "long.log", text: "NEEDLE", regex: true });
    assert.deepEqual(r.structuredContent.matches.map((m: { line_no: number }) => m.line_no), [1, 3]);
    assert.equal(r.structuredContent.partially_tested, 2);
    // grep finds three lines (below): the pattern found two, so the answer is not complete, and says why.
    assert.deepEqual([r.structuredContent.complete, r.structuredContent.stop_reason], [false, null]);
    assert.match(r.content[0].text, /NOT complete: 2 lines tested only in part \(see below\)/);
    const g = await s.call("log_search", { file: "long*.log", text: "NEEDLE", regex: true });
    assert.deepEqual(
      [g.structuredContent.complete, g.structuredContent.logs.map((l: { complete: boolean }) => l.complete)],
      [false, [false]],
    );
    assert.match(
      r.content[0].text,
      /\n2 line\(s\) were longer than the 64 KiB \(65,536 bytes\) a pattern is tested on: a match beyond that was not looked for/,
    );
    // The literal search reads whole lines: all three (grep -c agrees).
    const lit = await s.call("log_search", { file: "long.log", text: "NEEDLE" });
    const grep = new Deno.Command("grep", { args: ["-c", "NEEDLE", `${dir}/long.log`], stdout: "piped" })
      .outputSync();
    assert.equal(lit.structuredContent.matches.length, Number(new TextDecoder().decode(grep.stdout).trim()));
    assert.equal(lit.structuredContent.complete, true);
  },
});

Deno.test({
  name:
    "e2e: a regex syntax error says 'invalid regular expression: <reason>'; a pattern RE2 refuses says why; both quote it as written",
  ...opts,
  async fn() {
    Deno.writeTextFileSync(`${dir}/a.log`, "INFO user id=42 took 120ms\n");
    await using s = await connect([dir]);
    const bad = await s.call("log_search", { file: "a.log", text: "(unclosed", regex: true });
    assert.equal(bad.isError, true);
    assert.equal(
      bad.content[0].text,
      "invalid_pattern: invalid regular expression: missing closing ): `(unclosed` (RE2's syntax, not " +
        "JavaScript's: no backreferences or lookaround)",
    );
    const look = await s.call("log_search", { file: "a.log", text: "(?<=id=)\\d+", regex: true });
    assert.equal(look.isError, true);
    assert.match(
      look.content[0].text,
      /^invalid_pattern: the regular expression `\(\?<=id=\)\\d\+` uses what RE2 cannot run in linear time or beyond its limits \(invalid named capture: `\(\?<=id=\)\\d\+`\): backreferences, lookahead and lookbehind/,
    );
    assert.doesNotMatch(look.content[0].text, /\\\\d/, "not JSON-escaped");
    const back = await s.call("log_search", { file: "a.log", text: "(\\d)\\1", regex: true });
    assert.match(back.content[0].text, /^invalid_pattern: the regular expression `\(\\d\)\\1` uses/);
  },
});

Deno.test({
  name: "e2e: the answer echoes the text as written: backslashes and quotes as they are, a tab escaped",
  ...opts,
  async fn() {
    Deno.writeTextFileSync(`${dir}/e.log`, 'INFO user id=42 took 120ms "quoted"\nINFO a\tb\n');
    await using s = await connect([dir]);
    const re = await s.call("log_search", {
      file: "e.log",
      text: 'id=\\d+ took \\d+ms "quoted"',
      regex: true,
    });
    assert.equal(re.structuredContent.matches.length, 1);
    assert.match(
      re.content[0].text,
      /^e\.log: 1 match\(es\) for pattern "id=\\d\+ took \\d\+ms "quoted""; complete/,
    );
    const tab = await s.call("log_search", { file: "e.log", text: "a\tb", ignore_case: true });
    assert.equal(tab.structuredContent.matches.length, 1);
    assert.match(tab.content[0].text, /^e\.log: 1 match\(es\) for text "a\\tb" \(ignoring case\); complete/);
  },
});
