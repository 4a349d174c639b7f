/**
 * Issue #24, "every answer fits": the text and the structuredContent of every tool's answer stay within
 * `LOGPEEK_INLINE_CHARS` plus a fixed allowance, whatever the lines' length — 1,000-character lines and
 * 64 KiB lines (with `LOGPEEK_MAX_LINE` raised so they are shown whole), with the largest limits the
 * schemas accept. A page cut by size says so and gives the next offset, and paging on loses no line
 * (checked against the lines written).
 */
import assert from "node:assert/strict";
import { connect, type Session } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const INLINE = 8000;
/**
 * structuredContent holds, beside each item's text, its fields (`line_no`, `level`, `cut`, context lines'
 * numbers): on lines of a character or none it is up to five times the text. The stated bound (README,
 * docs): structuredContent ≤ 6 × LOGPEEK_INLINE_CHARS + ALLOWANCE.
 */
const STRUCTURED_FACTOR = 6;

/**
 * What an answer may take beyond LOGPEEK_INLINE_CHARS, in characters: the header and footer lines, the
 * fields of structuredContent around its items (counts, cursors, the artifact's reference, the summary's
 * first and last items of at most 300 characters each).
 */
const ALLOWANCE = 4000;

/** A log of `n` lines of `width` characters, each with its number and a level, and its lines. */
function wideLog(dir: string, n: number, width: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const head =
      `2024-05-01 10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${
        String(i % 60).padStart(2, "0")
      } ` +
      `${i % 7 === 0 ? "ERROR" : "INFO"} request ${i} `;
    lines.push(head + "x".repeat(Math.max(0, width - head.length)));
  }
  Deno.writeTextFileSync(`${dir}/wide.log`, lines.join("\n") + "\n");
  return lines;
}

/** The sizes of an answer: its text, and its structuredContent as JSON. */
function sizes(r: { content: { text: string }[]; structuredContent?: unknown }) {
  return { text: r.content[0].text.length, json: JSON.stringify(r.structuredContent ?? {}).length };
}

async function checkAll(s: Session, lines: string[], what: string) {
  const calls: [string, Record<string, unknown>][] = [
    ["log_files", {}],
    ["log_tail", { file: "wide.log", lines: 200 }],
    ["log_search", { file: "wide.log", text: "request", limit: 5000 }],
    ["log_search", { file: "wide.log", text: "ERROR", limit: 5000, context: 5 }],
    ["log_levels", { file: "wide.log" }],
    ["log_patterns", { file: "wide.log", limit: 200 }],
  ];
  let artifact: string | undefined;
  for (const [tool, args] of calls) {
    const r = await s.call(tool, args);
    assert.ok(!r.isError, `${what} ${tool}: ${r.content[0].text.slice(0, 300)}`);
    const z = sizes(r);
    assert.ok(z.text <= INLINE + ALLOWANCE, `${what} ${tool} ${JSON.stringify(args)}: text ${z.text}`);
    assert.ok(
      z.json <= INLINE + ALLOWANCE,
      `${what} ${tool} ${JSON.stringify(args)}: structuredContent ${z.json}`,
    );
    if (tool === "log_search" && !args.context) artifact = r.structuredContent.artifact?.artifact_id;
  }
  // read_artifact with the spill hint's own limit=200, paged to the end: every line once, in order.
  assert.ok(artifact, `${what}: the search spilled`);
  const got: string[] = [];
  let offset: number | null = 0;
  let pages = 0;
  while (offset !== null) {
    const r = await s.call("read_artifact", { artifact_id: artifact, offset, limit: 200 });
    const z = sizes(r);
    assert.ok(z.text <= INLINE + ALLOWANCE, `${what} read_artifact at ${offset}: text ${z.text}`);
    assert.ok(
      z.json <= INLINE + ALLOWANCE,
      `${what} read_artifact at ${offset}: structuredContent ${z.json}`,
    );
    got.push(...r.structuredContent.lines);
    const next: number | null = r.structuredContent.next_offset;
    if (next !== null && r.structuredContent.lines.length < 200) {
      assert.match(r.content[0].text, /as many as fit within LOGPEEK_INLINE_CHARS|is cut/);
    }
    assert.ok(next === null || next > offset, "each page gets further");
    offset = next;
    assert.ok(++pages < 20_000);
  }
  assert.equal(got.length, lines.length, `${what}: every saved line read back`);
  return got;
}

Deno.test({
  name: "answers fit: 1,000-character lines, the largest limits, read_artifact with limit=200 (issue #24)",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-fit-");
    const lines = wideLog(dir, 3000, 1000);
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: String(INLINE) });
    const got = await checkAll(s, lines, "1000-char lines");
    // Each saved line is a search match: its number and its text, whole (1,000 characters is the cap).
    for (const [i, g] of got.entries()) assert.ok(g.endsWith(lines[i]), `line ${i + 1}`);
  },
});

Deno.test({
  name: "answers fit: lines of one character or none, where structuredContent is largest beside its text",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-fit-short-");
    Deno.writeTextFileSync(`${dir}/short.log`, "x\n\n".repeat(20_000));
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: String(INLINE) });
    for (
      const args of [
        { file: "short.log", text: "x", limit: 5000 },
        { file: "short.log", text: "x", limit: 5000, context: 5 },
        { file: "short.log", text: "^$", regex: true, limit: 5000 },
      ]
    ) {
      const r = await s.call("log_search", args);
      const z = sizes(r);
      assert.ok(z.text <= INLINE + ALLOWANCE, `${JSON.stringify(args)}: text ${z.text}`);
      assert.ok(
        z.json <= STRUCTURED_FACTOR * INLINE + ALLOWANCE,
        `${JSON.stringify(args)}: structured ${z.json}`,
      );
      // What is shown is what the lines are: the first matches, by number.
      const first = args.regex ? 2 : 1;
      assert.equal(r.structuredContent.matches[0].line_no, first);
    }
    const t = await s.call("log_tail", { file: "short.log", lines: 200 });
    assert.ok(sizes(t).json <= STRUCTURED_FACTOR * INLINE + ALLOWANCE);
    assert.equal(t.structuredContent.lines.at(-1).line_no, 40_000);
  },
});

Deno.test({
  name: "answers fit: 64 KiB lines shown whole (LOGPEEK_MAX_LINE=65536): a longer line is cut and said so",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-fit64-");
    const lines = wideLog(dir, 40, 65536);
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: String(INLINE), LOGPEEK_MAX_LINE: "65536" });
    const got = await checkAll(s, lines, "64 KiB lines");
    for (const [i, g] of got.entries()) {
      assert.ok(g.endsWith("…"), `line ${i + 1} is cut to fit`);
      assert.ok(g.includes(lines[i].slice(0, 1000)), `line ${i + 1}: its start, as written`);
    }
  },
});
