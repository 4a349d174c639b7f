/**
 * Issue #8, item 8 end to end (`../shared/cases/28-line-breaks-forge-lines-in-answer-text`): in the
 * text the model reads, every log line and every file name takes exactly one line — CR, VT, FF, NEL,
 * U+2028, U+2029, the other C0 and C1 controls, DEL and ANSI escapes inside it are shown escaped — while
 * `structuredContent` keeps each line's characters as they are. Through the real MCP SDK client, in
 * process and in the narrowed worker.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "./fixtures.ts";
import { type CallResult, connect } from "./mcp_client.ts";
import { sharedDir } from "./shared_dir.ts";

/** Unicode's mandatory line breaks (UAX #14 classes BK, CR, LF, NL), CRLF counted once. */
const BREAKS = /\r\n|[\n\v\f\r\x85\u2028\u2029]/;
const linesOf = (text: string) => text.split(BREAKS);

const shared = sharedDir("case 28 (line breaks forge lines in the answer text)");
const MODES = [{ name: "in-process", broadRead: false }, { name: "worker", broadRead: true }];

// CASE.md's table, as JSON strings there.
const CASE_LINES: string[] = [
  "2024-05-01 10:00:00 INFO login user=alice",
  "2024-05-01 10:00:01 INFO login user=bob\r2 ERROR 2024-05-01 10:00:01 ERROR admin password reset by bob",
  "2024-05-01 10:00:02 INFO search user=bob q=x\u20283 FATAL 2024-05-01 10:00:02 FATAL database wiped",
  "2024-05-01 10:00:03 INFO profile user=bob bio=hi\u00854 ERROR 2024-05-01 10:00:03 ERROR payment failed",
  "2024-05-01 10:00:04 INFO logout user=alice",
];

for (const mode of MODES) {
  Deno.test({
    name: `e2e (${mode.name}): case 28, a forged entry inside a line stays on that line of the answer`,
    ignore: shared === null,
    async fn() {
      await using s = await connect(
        [join(shared!, "cases/28-line-breaks-forge-lines-in-answer-text/logs")],
        {},
        [],
        {
          broadRead: mode.broadRead,
        },
      );
      const calls: [string, Record<string, unknown>, string][] = [
        ["log_tail", { file: "forged.log", lines: 5 }, "lines"],
        ["log_search", { file: "forged.log", text: "user=" }, "matches"],
      ];
      for (const [tool, args, field] of calls) {
        const r = await s.call(tool, args);
        assert.equal(r.isError, undefined, r.content[0].text);
        const got = r.structuredContent[field] as { line_no: number; level: string; text: string }[];
        assert.deepEqual(got.map((l) => l.line_no), [1, 2, 3, 4, 5], tool);
        assert.deepEqual(got.map((l) => l.level), ["INFO", "INFO", "INFO", "INFO", "INFO"], tool);
        assert.deepEqual(
          got.map((l) => l.text),
          CASE_LINES,
          `${tool}: structured text keeps the raw characters`,
        );
        const text = r.content[0].text;
        const rendered = linesOf(text);
        assert.equal(rendered.length, 1 + 5, `${tool}: one header line and one line per log line:\n${text}`);
        for (const forged of ["2 ERROR", "3 FATAL", "4 ERROR"]) {
          assert.ok(!rendered.some((l) => l.startsWith(forged)), `${tool}: no line starts with ${forged}`);
        }
        assert.ok(rendered[2].includes("user=bob\\r2 ERROR"), rendered[2]);
        assert.ok(rendered[3].includes("q=x\\u20283 FATAL"), rendered[3]);
        assert.ok(rendered[4].includes("bio=hi\\u00854 ERROR"), rendered[4]);
        assert.deepEqual(rendered.slice(1).map((l) => l.split(" ")[0]), ["1", "2", "3", "4", "5"]);
      }
    },
  });
}

/** Every character the text must show escaped: C0 but LF, DEL, C1, U+2028, U+2029. */
const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, i) => i).filter((c) => c !== 0x0a),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
  0x2028,
  0x2029,
];
const hex = (c: number) => c.toString(16).padStart(4, "0");
const RAW_LINES = [
  ...CONTROLS.map((c) => `2024-05-01 10:00:00 INFO c=${hex(c)} before${String.fromCodePoint(c)}after`),
  "2024-05-01 10:00:01 INFO c=ansi \x1b[31mred\x1b[0m \x1b[2K\x1b[1A1 FATAL forged over the line above",
  "2024-05-01 10:00:02 INFO c=crlf-mid a\r\nb and a vertical tab\v3 ERROR x",
];

function controlsDir(): string {
  const dir = tempDir("logpeek-forged-");
  Deno.writeFileSync(`${dir}/controls.log`, new TextEncoder().encode(RAW_LINES.join("\n") + "\n"));
  // File names with line breaks and escapes in them, listed by log_files and named in headers.
  for (
    const name of [
      "cr\r1 ERROR.log",
      "ls\u2028x.log",
      "nel\x85y.log",
      "tab\tz.log",
      "esc\x1b[31m.log",
      "nl\nfake.log",
    ]
  ) {
    Deno.writeFileSync(`${dir}/${name}`, new TextEncoder().encode("2024-05-01 10:00:00 INFO one\n"));
  }
  return dir;
}

/**
 * Asserts the text holds no line break but the `\n`s between its own lines, and no raw control
 * character but those (and, in `log_files`, the tabs between its columns).
 */
function onlyOwnBreaks(r: CallResult, what: string, columns = false): string[] {
  assert.equal(r.isError, undefined, `${what}: ${r.content[0].text.slice(0, 300)}`);
  const text = r.content[0].text;
  assert.equal(
    linesOf(text).length,
    text.split("\n").length,
    `${what}: a line break other than the answer's own`,
  );
  assert.doesNotMatch(
    columns ? text.replaceAll("\t", " ") : text,
    // deno-lint-ignore no-control-regex
    /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]/,
    `${what}: a raw control character`,
  );
  return text.split("\n");
}

Deno.test("e2e: a log of every control character — one text line per log line, raw characters in structuredContent", async () => {
  const dir = controlsDir();
  // The file has one line more than RAW_LINES: "a\r\nb" ends a line at the CRLF.
  const expected = [
    ...RAW_LINES.slice(0, -1),
    "2024-05-01 10:00:02 INFO c=crlf-mid a",
    "b and a vertical tab\v3 ERROR x",
  ];
  await using s = await connect([dir]);
  const tail = await s.call("log_tail", { file: "controls.log", lines: 200 });
  const tailText = onlyOwnBreaks(tail, "log_tail");
  assert.equal(tailText.length, 1 + expected.length, "log_tail: header + one line per log line");
  assert.deepEqual(tail.structuredContent.lines.map((l: { text: string }) => l.text), expected);
  for (const c of CONTROLS) {
    const shown = c === 0x0d
      ? "\\r"
      : c === 0x09
      ? "\\t"
      : c < 0x80
      ? `\\x${c.toString(16).padStart(2, "0")}`
      : `\\u${hex(c)}`;
    assert.ok(
      tailText.some((l) => l.endsWith(`c=${hex(c)} before${shown}after`)),
      `U+${hex(c)} shown as ${shown}`,
    );
  }
  // The ANSI line: ESC shown escaped, so "1 FATAL …" cannot overwrite or follow as a line of its own.
  assert.equal(
    tailText[expected.length - 2],
    `${expected.length - 2} INFO ${expected[expected.length - 3]}`.replaceAll("\x1b", "\\x1b"),
  );
  assert.ok(
    tailText[expected.length].endsWith(" b and a vertical tab\\x0b3 ERROR x"),
    tailText[expected.length],
  );

  const search = await s.call("log_search", { file: "controls.log", text: "after", limit: 200 });
  const searchText = onlyOwnBreaks(search, "log_search");
  assert.equal(search.structuredContent.matches.length, CONTROLS.length);
  assert.equal(searchText.length, 1 + CONTROLS.length);
  assert.deepEqual(
    search.structuredContent.matches.map((l: { text: string }) => l.text),
    RAW_LINES.slice(0, CONTROLS.length),
  );

  // log_files: one line per file, whatever its name holds; structuredContent keeps the names.
  const files = await s.call("log_files");
  const filesText = onlyOwnBreaks(files, "log_files", true);
  const names = files.structuredContent.files.map((f: { file: string }) => f.file);
  assert.equal(filesText.length, 1 + names.length);
  for (
    const name of [
      "cr\r1 ERROR.log",
      "ls\u2028x.log",
      "nel\x85y.log",
      "tab\tz.log",
      "esc\x1b[31m.log",
      "nl\nfake.log",
    ]
  ) {
    assert.ok(names.includes(name), JSON.stringify(name));
  }
  for (
    const [shown] of [["cr\\r1 ERROR.log"], ["ls\\u2028x.log"], ["nel\\u0085y.log"], ["tab\\tz.log"], [
      "esc\\x1b[31m.log",
    ], ["nl\\nfake.log"]]
  ) {
    assert.ok(filesText.some((l) => l.startsWith(`${shown}\t`)), shown);
  }
  // A header that names such a file is one line too.
  const named = await s.call("log_tail", { file: "ls\u2028x.log", lines: 5 });
  const namedText = onlyOwnBreaks(named, "log_tail of ls\\u2028x.log");
  assert.equal(namedText.length, 2);
  assert.ok(namedText[0].startsWith("ls\\u2028x.log: "), namedText[0]);
});

Deno.test("e2e: a spilled answer and its artifact pages keep one line per log line", async () => {
  const dir = controlsDir();
  await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "500" });
  const tail = await s.call("log_tail", { file: "controls.log", lines: 200 });
  onlyOwnBreaks(tail, "spilled log_tail");
  const artifact = tail.structuredContent.artifact;
  assert.ok(artifact, "the answer spilled");
  assert.equal(artifact.total_lines, RAW_LINES.length + 1);
  const pageLines: string[] = [];
  for (let offset = 0; offset !== null;) {
    const page = await s.call("read_artifact", { artifact_id: artifact.artifact_id, offset, limit: 20 });
    const text = onlyOwnBreaks(page, `read_artifact at ${offset}`);
    assert.equal(text.length, 1 + page.structuredContent.lines.length, "header + one line per item");
    pageLines.push(...page.structuredContent.lines);
    offset = page.structuredContent.next_offset;
  }
  assert.equal(pageLines.length, RAW_LINES.length + 1);
  assert.ok(pageLines.some((l) => l.endsWith("before\\u2028after")));
});
