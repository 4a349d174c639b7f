/**
 * A regex is tested on a line as shown (issue #11 trial): masked, and cut at `LOGPEEK_MAX_LINE`, where `$`
 * and `\z` then match. A line longer than that is never passed over because it does not match as read
 * (the mask proof and the byte DFA, `byte_dfa.ts`, hold only for a line shown whole): a trial (issue #26)
 * found `x$`, `\pL+$` and `abc$` answering no match over lines whose shown part ends so.
 */
import assert from "node:assert/strict";
import { RE2JS } from "re2js";
import { connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

/** Lines whose part shown ends so that each pattern matches it there, and not as read. */
const cases: { name: string; line: string; env: Record<string, string>; patterns: string[] }[] = [
  {
    // A line over 4 KiB (tested in the pattern worker) whose first 1000 characters end in `x`.
    name: "a 5 KiB line, a secret in its shown part",
    line: "password=hunter2 " + "a".repeat(982) + "x" + "b".repeat(4000),
    env: {},
    patterns: ["x$", "ax$", "x\\z", "[x]$", "x.?$"],
  },
  {
    name: "a 1 KiB line of letters, a secret at its start",
    line: "password=hunter2 " + "a".repeat(1000) + " 1",
    env: {},
    patterns: ["\\pL+$", "\\pL$", "\\p{Latin}\\z"],
  },
  {
    name: "LOGPEEK_MAX_LINE=20",
    line: "password=hunter2 abcdef",
    env: { LOGPEEK_MAX_LINE: "20" },
    patterns: ["abc$", "c$", "[a-c]{3}$", "abc\\z", "(?m)abc$", "abc.?$", "ab[c ]$"],
  },
];

for (const c of cases) {
  Deno.test(`regex on a masked line cut at LOGPEEK_MAX_LINE: its shown part decides (${c.name})`, async () => {
    const dir = tempDir("logpeek-masked-cut-");
    Deno.writeTextFileSync(`${dir}/c.log`, `2024-05-01 10:00:00 INFO start\n${c.line}\n`);
    await using s = await connect([dir], c.env);
    // The lines as shown: log_tail gives them (masked, cut); re2js on each text is the answer.
    const tail = (await s.call("log_tail", { file: "c.log", lines: 2 })).structuredContent;
    const texts: string[] = tail.lines.map((l: { text: string }) => l.text);
    assert.equal(tail.lines[1].cut, true);
    assert.ok(texts[1].includes("***") && !texts[1].includes("hunter2"), texts[1].slice(0, 40));
    for (const p of c.patterns) {
      const re = RE2JS.compile(p);
      const want = texts.flatMap((t, i) => (re.test(t) ? [i + 1] : []));
      assert.ok(want.includes(2), `${p}: the case expects the cut line's shown part to match`);
      const r = (await s.call("log_search", { file: "c.log", text: p, regex: true })).structuredContent;
      assert.deepEqual(r.matches.map((m: { line_no: number }) => m.line_no), want, p);
      assert.deepEqual(r.matches.map((m: { text: string }) => m.text), want.map((n) => texts[n - 1]), p);
      assert.equal(r.complete, true);
    }
  });
}
