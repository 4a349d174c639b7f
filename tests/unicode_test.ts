/**
 * Issue #10, items 5 and 6 end to end, through the MCP SDK's client: every cut of text for output lands on
 * a character boundary and every answer is well-formed Unicode (emoji straddling the line cap, the
 * inline cap, `spill_summary.first`/`.last`, trace values, SDK error texts; lone surrogates sent by a
 * client); and `ignore_case` is simple case folding (Greek, Turkish, German, Kelvin sign, long s),
 * never finding fewer lines than the case-sensitive search, checked against expectations written from
 * `CaseFolding.txt` and against ripgrep's `rg -i -F -c` where it is installed.
 */
import assert from "node:assert/strict";
import { type CallResult, connect, type Session } from "./mcp_client.ts";
import { tempDir, wellFormed } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const dir = tempDir("logpeek-unicode-");
const E = "😀"; // U+1F600: 4 UTF-8 bytes, 2 UTF-16 units (a surrogate pair), 1 code point

/** Every string anywhere in a result (texts, structured fields, keys) is well-formed. */
function assertAllWellFormed(v: unknown, where = "result"): void {
  if (typeof v === "string") assert.ok(wellFormed(v), `${where} is not well-formed: ${JSON.stringify(v)}`);
  else if (Array.isArray(v)) v.forEach((x, i) => assertAllWellFormed(x, `${where}[${i}]`));
  else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      assert.ok(wellFormed(k), `a key of ${where}`);
      assertAllWellFormed(x, `${where}.${k}`);
    }
  }
}

function traceLines(s: Session) {
  return Deno.readTextFileSync(`${s.stateDir}/traces/calls.jsonl`).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
}

/** Line numbers of `file` holding `needle`, by `grep -n -F` (an independent reader). */
function grepLines(file: string, needle: string): number[] {
  const out = new Deno.Command("grep", { args: ["-n", "-F", "--", needle, file], stdout: "piped" })
    .outputSync();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map((l) => Number(l.split(":")[0]));
}

Deno.test({
  name:
    "e2e: the line cap (LOGPEEK_MAX_LINE code points) keeps an emoji at the boundary whole or leaves it out",
  ...opts,
  async fn() {
    Deno.writeTextFileSync(
      `${dir}/cap.log`,
      [`INFO abcd${E}xyz`, `INFO abcde${E}`, `INFO ${E.repeat(8)}`, `INFO a€é${E}`].join("\n") + "\n",
    );
    // "INFO " is 5 code points: a cap of 10 keeps 5 more.
    await using s = await connect([dir], { LOGPEEK_MAX_LINE: "10" });
    const r = await s.call("log_tail", { file: "cap.log", lines: 10 });
    assertAllWellFormed(r);
    assert.deepEqual(
      r.structuredContent.lines.map((l: { text: string; cut: boolean }) => [l.text, l.cut]),
      [
        [`INFO abcd${E}`, true], // the emoji is the 10th code point: kept whole
        ["INFO abcde", true], // the 11th: left out whole
        [`INFO ${E.repeat(5)}`, true], // 10 code points, 15 UTF-16 units, 25 UTF-8 bytes
        [`INFO a€é${E}`, false], // 9 code points: not cut
      ],
    );
    assert.ok(r.content[0].text.includes(`\n1 INFO INFO abcd${E} …[cut]\n`));
    const found = await s.call("log_search", { file: "cap.log", text: "xyz" });
    assert.equal(found.structuredContent.matches[0].text, `INFO abcd${E}`);
  },
});

Deno.test({
  name:
    "e2e: LOGPEEK_INLINE_CHARS=500: a spilled answer says none fits (never 'items 1..0'), first/last cut before an emoji, artifact whole",
  ...opts,
  async fn() {
    // Rendered items are "N INFO " + the line; the summary keeps 50 UTF-16 units of each at this inline
    // cap. Line 1 puts an emoji's first half at unit 49 ("1 INFO INFO " is 12 units + 37 a's), the last
    // line likewise ("68 INFO INFO " is 13 units + 36).
    const lines: string[] = [];
    for (let i = 1; i <= 68; i++) {
      lines.push(`INFO ${"a".repeat(i === 68 ? 36 : 37)}${E} tail ${i} ${"b".repeat(60)}`);
    }
    Deno.writeTextFileSync(`${dir}/spill.log`, lines.join("\n") + "\n");
    const want = grepLines(`${dir}/spill.log`, "tail");
    assert.equal(want.length, 68);
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "500" });
    const r = await s.call("log_search", { file: "spill.log", text: "tail", limit: 100 });
    assertAllWellFormed(r);
    const sc = r.structuredContent;
    const text = r.content[0].text;
    assert.doesNotMatch(text, /items 1\.\.0\b/);
    assert.equal(sc.artifact.total_lines, 68);
    assert.equal(sc.spill_summary.first, `1 INFO INFO ${"a".repeat(37)}…`);
    assert.equal(sc.spill_summary.last, `68 INFO INFO ${"a".repeat(36)}…`);
    assert.ok(text.includes(`First: 1 INFO INFO ${"a".repeat(37)}…\nLast: 68 INFO INFO ${"a".repeat(36)}…`));
    const k = sc.matches.length;
    assert.equal(sc.artifact.next_offset, k);
    if (k === 0) {
      assert.match(
        text,
        /Shown: none of the 68 items fits within LOGPEEK_INLINE_CHARS \(500\)\. All 68 are saved: read them with read_artifact\(artifact_id="[^"]+", offset=0, limit=200\)\./,
      );
    } else assert.match(text, new RegExp(`Shown: items 1\\.\\.${k} of 68\\.`));
    // Pages of what fits within LOGPEEK_INLINE_CHARS (issue #24), followed by next_offset: all 68, whole.
    const saved: string[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page = await s.call("read_artifact", {
        artifact_id: sc.artifact.artifact_id,
        offset,
        limit: 200,
      });
      assertAllWellFormed(page);
      assert.ok(page.content[0].text.length <= 500 + 200, `${page.content[0].text.length}`);
      saved.push(...page.structuredContent.lines);
      offset = page.structuredContent.next_offset;
    }
    assert.deepEqual(saved.map((l: string) => Number(l.split(" ")[0])), want);
    assert.equal(saved[0], `1 INFO ${lines[0]}`);
  },
});

Deno.test({
  name:
    "e2e: trace values and SDK error texts are cut before an emoji, never inside it; lone surrogates never come back",
  ...opts,
  async fn() {
    Deno.writeTextFileSync(`${dir}/t.log`, "INFO one\n");
    await using s = await connect([dir]);
    // A file name whose 200th UTF-16 unit is an emoji's first half (MAX_ARG_CHARS = 200).
    const longName = "x".repeat(199) + E + "y".repeat(50);
    const a = await s.call("log_search", { file: longName, text: "one" });
    assert.equal(a.isError, true);
    assertAllWellFormed(a);
    // A tool name whose 128th unit is an emoji's first half (MAX_TOOL_CHARS = 128) and that makes the
    // SDK's error text longer than 1000 units: the emoji straddles unit 1000 of that text.
    const probe = await s.call("no_such_tool", {});
    const prefix = probe.content[0].text.slice(0, probe.content[0].text.indexOf("no_such_tool"));
    const toolName = "t".repeat(127) + E + "u".repeat(999 - prefix.length - 129) + E + "v".repeat(100);
    assert.equal((prefix + toolName).charCodeAt(999), 0xd83d);
    const b = await s.call(toolName, {});
    assertAllWellFormed(b);
    assert.equal(b.isError, true);
    const bText = b.content[0].text;
    assert.equal(bText.slice(0, 999), (prefix + toolName).slice(0, 999));
    assert.match(bText.slice(999), /^…\[cut, \d+ chars in all\]$/);
    // Lone surrogates from the client: in a text, a file name, a tool name.
    const c = await s.call("log_search", { file: "t.log", text: "on\ud800" });
    const d = await s.call("log_search", { file: "t\udc00.log", text: "one" });
    const e = await s.call("x\ud800y", {});
    for (const r of [c, d, e]) {
      assert.equal(r.isError, true);
      assertAllWellFormed(r);
    }
    assert.match(c.content[0].text, /lone surrogate/);
    const trace = traceLines(s);
    assertAllWellFormed(trace, "trace");
    const [ta, , tb, tc, td, te] = trace;
    assert.equal(ta.args.file, "x".repeat(199) + `…[cut, ${longName.length} chars in all]`);
    assert.equal(tb.tool, "t".repeat(127) + `…[cut, ${toolName.length} chars in all]`);
    assert.equal(tc.args.text, "on\ufffd");
    assert.equal(td.args.file, "t\ufffd.log");
    assert.equal(te.tool, "x\ufffdy");
  },
});

/** A log of the letters simple case folding treats specially. */
const FOLD_LINES = [
  "ΣΑΣ αρχείο", // 1 capital sigmas
  "σας αρχείο", // 2 final sigma
  "ασα", // 3 medial sigma only
  "İstanbul", // 4 U+0130: no simple folding (F and T only)
  "istanbul", // 5
  "ıstanbul", // 6 U+0131: no folding at all
  "Istanbul", // 7
  "Straße", // 8
  "STRAẞE", // 9 U+1E9E folds to ß (status S)
  "STRASSE", // 10 ß → ss is full folding only: not matched by ß
  "dis\u212a full", // 11 KELVIN SIGN folds to k (status C)
  "DISK full", // 12
  "u\u017fer login", // 13 LONG S folds to s (status C)
  "USER login", // 14
];
/** Needle → lines, written from CaseFolding.txt (each needle's and line's code points folded by C+S). */
const FOLD_EXPECTED: [string, number[]][] = [
  ["ΑΣ", [1, 2, 3]],
  ["σας", [1, 2]],
  ["ς", [1, 2, 3]],
  ["İ", [4]],
  ["ıs", [6]],
  ["ß", [8, 9]],
  ["ẞE", [8, 9]],
  ["stanbul", [4, 5, 6, 7]],
  ["istanbul", [5, 7]],
  ["disk", [11, 12]],
  ["user", [13, 14]],
  ["k", [11, 12]],
  ["s", [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]],
  ["ser login", [13, 14]],
];

function rgCount(file: string, needle: string): number | null {
  try {
    const out = new Deno.Command("rg", { args: ["-i", "-F", "-c", "--", needle, file], stdout: "piped" })
      .outputSync();
    return Number(new TextDecoder().decode(out.stdout).trim() || "0");
  } catch {
    return null; // not installed
  }
}

for (const worker of [false, true]) {
  Deno.test({
    name: `e2e${
      worker ? " (worker)" : ""
    }: ignore_case is simple case folding: Greek sigmas, Turkish I, German ß/ẞ, Kelvin sign, long s; ⊇ case-sensitive; rg -i -F agrees`,
    ...opts,
    async fn() {
      const file = `${dir}/fold.log`;
      Deno.writeTextFileSync(file, FOLD_LINES.join("\n") + "\n");
      await using s = await connect([dir], {}, [], { broadRead: worker });
      const nos = (r: CallResult) => r.structuredContent.matches.map((m: { line_no: number }) => m.line_no);
      let rgChecked = 0;
      for (const [text, want] of FOLD_EXPECTED) {
        const ci = await s.call("log_search", { file: "fold.log", text, ignore_case: true, limit: 100 });
        const cs = await s.call("log_search", { file: "fold.log", text, limit: 100 });
        assertAllWellFormed(ci);
        assert.deepEqual(nos(ci), want, `"${text}" ignoring case`);
        assert.deepEqual(nos(cs), grepLines(file, text), `"${text}" case-sensitive = grep -F`);
        for (const n of nos(cs)) assert.ok(nos(ci).includes(n), `"${text}": ignore_case ⊇ case-sensitive`);
        assert.ok(ci.content[0].text.includes(`for text "${text}" (ignoring case)`));
        const rg = rgCount(file, text);
        if (rg !== null) {
          assert.equal(rg, want.length, `rg -i -F -c "${text}"`);
          rgChecked++;
        }
      }
      if (!rgChecked) console.error("SKIP the rg comparison: rg is not installed");
      // A regex in either case (RE2JS CASE_INSENSITIVE) folds the same way.
      const re = await s.call("log_search", {
        file: "fold.log",
        text: "^(?:dis|u)[kſs]",
        regex: true,
        ignore_case: true,
      });
      assert.deepEqual(nos(re), [11, 12, 13, 14]);
    },
  });
}
