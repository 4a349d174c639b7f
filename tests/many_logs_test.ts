/**
 * Many logs in one call, context lines and budgets sized to the work (issue #12), end to end through the
 * real client; every answer checked against GNU grep on the same files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";
import { sharedDir } from "./shared_dir.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
/** Whole answers inline (none spilled to an artifact), so that every match is in structuredContent. */
const WHOLE = { LOGPEEK_INLINE_CHARS: "100000000" };

/** `grep -n -F text file` (or `-C n`): the output lines. */
function grep(args: string[], cwd?: string): string[] {
  const out = new Deno.Command("grep", { args, cwd, stdout: "piped" }).outputSync();
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "");
}

/** A line shown with context. */
interface Shown {
  line_no: number | null;
  text: string;
  before: { line_no: number | null; text: string }[];
  after: { line_no: number | null; text: string }[];
}

/** The matches and their context lines as `grep -n -C` prints them (`N:` a match, `N-` context), in order. */
function grepShown(matches: Shown[]): string[] {
  return matches.flatMap((m) => [
    ...m.before.map((b) => `${b.line_no}-${b.text}`),
    `${m.line_no}:${m.text}`,
    ...m.after.map((a) => `${a.line_no}-${a.text}`),
  ]);
}

/** Five logs, rotated siblings and a .gz among them, each with its own modified time. */
function rotatedLogs(): { dir: string; newestFirst: string[] } {
  const dir = tempDir("logpeek-many-");
  Deno.mkdirSync(join(dir, "nginx"));
  const files: [string, number][] = [
    ["app.log", 1],
    ["app.log.1", 2],
    ["app.log.2.gz", 3],
    ["nginx/error.log", 4],
    ["worker.log", 5],
  ];
  for (const [name, age] of files) {
    const body = Array.from(
      { length: 300 },
      (_, i) =>
        `2024-05-0${age} 10:${String(i % 60).padStart(2, "0")}:00 ${
          i % 9 === 0 ? "ERROR" : "INFO"
        } ${name} #${i}`,
    ).join("\n") + "\n";
    const path = join(dir, name);
    if (name.endsWith(".gz")) Deno.writeFileSync(path, gzipSync(new TextEncoder().encode(body)));
    else Deno.writeTextFileSync(path, body);
    const m = new Date(Date.UTC(2024, 4, 10 - age));
    Deno.utimeSync(path, m, m);
  }
  return { dir, newestFirst: files.map(([n]) => n) };
}

/** What grep finds in one of them (zcat for the .gz), as `file #N` tags in file order. */
function grepTags(dir: string, file: string, text: string): string[] {
  const path = join(dir, file);
  const lines = file.endsWith(".gz")
    ? new TextDecoder().decode(
      new Deno.Command("zcat", { args: [path], stdout: "piped" }).outputSync().stdout,
    )
      .split("\n").filter((l) => l.includes(text))
    : grep(["-F", text, path]);
  return lines.map((l) => l.replace(/^.* (\S+ #\d+)$/, "$1"));
}

Deno.test({
  name: "e2e: a glob reads every matching log newest first, one budget, the cursor going on across logs",
  ...opts,
  async fn() {
    const { dir, newestFirst } = rotatedLogs();
    await using s = await connect([dir], WHOLE);
    const want = newestFirst.filter((f) => f.startsWith("app.log")).flatMap((f) => grepTags(dir, f, "ERROR"));
    const one = await s.call("log_search", { file: "app.log*", text: "ERROR", limit: 5000 });
    assert.equal(one.isError, undefined, one.content[0].text);
    const sc = one.structuredContent;
    assert.equal(sc.complete, true);
    assert.deepEqual(sc.logs.map((l: { file: string }) => l.file), ["app.log", "app.log.1", "app.log.2.gz"]);
    assert.deepEqual(sc.matches.map((m: { text: string }) => m.text.replace(/^.* (\S+ #\d+)$/, "$1")), want);
    assert.ok(sc.matches.every((m: { file: string; text: string }) => m.text.includes(m.file)));
    // Paged 7 at a time: the pages add up to the one answer, none lost, none repeated.
    const pages: string[] = [];
    let cursor: string | undefined;
    for (let k = 0; k < 50; k++) {
      const r = await s.call("log_search", { file: "app.log*", text: "ERROR", limit: 7, cursor });
      assert.equal(r.isError, undefined, r.content[0].text);
      pages.push(
        ...r.structuredContent.matches.map((m: { file: string; line_no: number }) =>
          `${m.file}:${m.line_no}`
        ),
      );
      cursor = r.structuredContent.next_cursor ?? undefined;
      if (!cursor) {
        assert.equal(r.structuredContent.complete, true);
        break;
      }
    }
    assert.deepEqual(
      pages,
      sc.matches.map((m: { file: string; line_no: number }) => `${m.file}:${m.line_no}`),
    );
    // ** crosses folders; level counts over all logs add up to grep's.
    const all = await s.call("log_levels", { file: "**/*.log" });
    assert.equal(all.isError, undefined, all.content[0].text);
    const plain = ["app.log", "nginx/error.log", "worker.log"];
    assert.deepEqual(all.structuredContent.logs.map((l: { file: string }) => l.file), plain);
    assert.equal(
      all.structuredContent.counts.ERROR,
      plain.reduce((n, f) => n + grepTags(dir, f, "ERROR").length, 0),
    );
    // A glob that matches nothing names the closest logs.
    const none = await s.call("log_search", { file: "ap.lgo*", text: "x" });
    assert.equal(none.isError, true);
    assert.match(none.content[0].text, /^not_found: .*app\.log/);
  },
});

const SHARED_0 = sharedDir("context lines over a Loghub log");
Deno.test({
  ignore: SHARED_0 === null,
  name: "e2e: context lines are grep -C's, groups merged, line numbers exact",
  ...opts,
  async fn() {
    const shared = SHARED_0!;
    const src = join(shared, "corpus", "loghub", "Hadoop_2k.log");
    const dir = tempDir("logpeek-ctx-");
    // LF line ends, so that grep's lines are the lines logpeek shows.
    Deno.writeTextFileSync(join(dir, "h.log"), Deno.readTextFileSync(src).replaceAll("\r\n", "\n"));
    await using s = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    for (const [text, n] of [["WARN", 2], ["ERROR", 3], ["Progress of TaskAttempt", 1]] as const) {
      const r = await s.call("log_search", { file: "h.log", text, context: n, limit: 5000 });
      assert.equal(r.isError, undefined);
      // Every line grep shows, as `N:` (match) or `N-` (context), in order, once each.
      const shown = grepShown(r.structuredContent.matches);
      const g = grep(["-n", "-F", "-C", String(n), text, "h.log"], dir).filter((l) => l !== "--");
      assert.deepEqual(shown, g, `${text} -C ${n}`);
    }
  },
});

Deno.test({
  name:
    "e2e: defaults read a large log in one call; a page that reads nothing says progress false, no cursor",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-budget-");
    // 24 MiB: the old 5 MiB byte budget took five calls.
    const line = "2024-05-01T10:00:00Z INFO nothing to see here, only padding to make the line longer\n";
    const f = await Deno.open(join(dir, "big.log"), { write: true, create: true });
    const chunk = new TextEncoder().encode(line.repeat(12_000));
    for (let i = 0; i < 24 * 1024 * 1024 / chunk.length; i++) await f.write(chunk);
    f.close();
    {
      await using s = await connect([dir], WHOLE);
      const r = await s.call("log_search", { file: "big.log", text: "needle-not-there" });
      assert.equal(r.structuredContent.complete, true, r.content[0].text);
      assert.equal(r.structuredContent.progress, true);
      assert.equal(r.structuredContent.scanned_lines, Number(grep(["-c", "", join(dir, "big.log")])[0]));
    }
    await using z = await connect([dir], { LOGPEEK_SEARCH_BYTES: "0", LOGPEEK_LEVELS_MS: "0" });
    const r = await z.call("log_search", { file: "big.log", text: "x" });
    assert.deepEqual(
      [r.structuredContent.complete, r.structuredContent.progress, r.structuredContent.next_cursor],
      [false, false, null],
    );
    assert.match(r.content[0].text, /read nothing within its budget, so no cursor is given/);
    const l = await z.call("log_levels", { file: "big.log" });
    assert.deepEqual([l.structuredContent.progress, l.structuredContent.next_cursor], [false, null]);
  },
});

Deno.test({
  name: "e2e: a glob says which matching logs it did not read, and a name with glob characters is that log",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-notread-");
    Deno.writeTextFileSync(join(dir, "a.log"), "2024-05-01T10:00:00Z ERROR hi there\n");
    // xz's magic bytes: a format the reading tools refuse (log_files marks it readable: false).
    Deno.writeFileSync(join(dir, "a.log.xz"), new Uint8Array([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 1, 2, 3]));
    Deno.writeTextFileSync(join(dir, "we[ir]d{a,b}.log"), "2024-05-01T10:00:00Z ERROR odd name\n");
    await using s = await connect([dir], WHOLE);
    const r = await s.call("log_search", { file: "a.log*", text: "hi" });
    assert.equal(r.structuredContent.complete, false, r.content[0].text);
    assert.equal(r.structuredContent.matches.length, 1);
    assert.match(r.structuredContent.not_read.join(), /a\.log\.xz/);
    assert.match(r.content[0].text, /NOT read, though the glob matches them.*a\.log\.xz/);
    const listed = await s.call("log_files", { glob: "a.log*" });
    const xz = listed.structuredContent.files.find((f: { file: string }) => f.file === "a.log.xz");
    assert.equal(xz.readable, false);
    // The name log_files lists is what the tools take, glob characters and all.
    const odd = await s.call("log_search", { file: "we[ir]d{a,b}.log", text: "odd" });
    assert.equal(odd.isError, undefined, odd.content[0].text);
    assert.deepEqual(odd.structuredContent.matches.map((m: { line_no: number }) => m.line_no), [1]);
    // A window over a glob where one log has no timestamps: that log is named, and nothing is complete.
    Deno.writeTextFileSync(join(dir, "b.log"), "starting\nfailed to bind\n");
    const w = await s.call("log_search", { file: "*.log", text: "failed", since: "2024-05-01T09:00:00Z" });
    assert.equal(w.isError, undefined, w.content[0].text);
    assert.equal(w.structuredContent.complete, false);
    const b = w.structuredContent.logs.find((l: { file: string }) => l.file === "b.log");
    assert.deepEqual([b.complete, b.stop_reason], [false, "no_timestamps"]);
    assert.match(w.content[0].text, /No timestamp could be read in b\.log/);
    const lv = await s.call("log_levels", { file: "*.log", since: "2024-05-01T09:00:00Z" });
    const lb = lv.structuredContent.logs.find((l: { file: string }) => l.file === "b.log");
    assert.deepEqual([lv.structuredContent.complete, lb.complete, lb.stop_reason], [
      false,
      false,
      "no_timestamps",
    ]);
  },
});

Deno.test({
  name: "e2e: context paged one match at a time shows every line grep -C shows, once",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-ctxpage-");
    const lines = Array.from(
      { length: 60 },
      (_, i) => (i % 4 === 1 || i === 30 || i === 31 ? `HIT ${i}` : `x ${i}`),
    );
    Deno.writeTextFileSync(join(dir, "c.log"), lines.join("\n") + "\n");
    await using s = await connect([dir], WHOLE);
    const shown: string[] = [];
    let cursor: string | undefined;
    for (let k = 0; k < 100; k++) {
      const r = await s.call("log_search", { file: "c.log", text: "HIT", context: 2, limit: 1, cursor });
      shown.push(...grepShown(r.structuredContent.matches));
      cursor = r.structuredContent.next_cursor ?? undefined;
      if (!cursor) break;
    }
    assert.deepEqual(shown, grep(["-n", "-F", "-C", "2", "HIT", "c.log"], dir).filter((l) => l !== "--"));
  },
});

Deno.test({
  name:
    "e2e: a glob over many logs lists the first 20 in the text (all in logs) and keeps the matches in view",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-manylist-");
    for (let i = 0; i < 25; i++) {
      Deno.writeTextFileSync(
        join(dir, `l${String(i).padStart(2, "0")}.log`),
        i === 24 ? "one x here\n" : "nothing\n",
      );
    }
    await using s = await connect([dir]);
    const r = await s.call("log_search", { file: "*.log", text: "x", limit: 1 });
    assert.equal(r.structuredContent.logs.length, 25);
    assert.match(r.content[0].text, /; and 5 more \(in logs in the structured result\)/);
    assert.equal(r.structuredContent.matches.length, 1);
    assert.match(r.content[0].text, /one x here/);
  },
});

Deno.test({
  name: "e2e: context across pages a byte budget cuts: every line grep -C shows, once, at several budgets",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-ctxbudget-");
    const lines = Array.from(
      { length: 400 },
      (_, i) => (i % 11 === 3 || i % 17 === 0 ? `HIT ${i}` : `line ${i} ok`),
    );
    Deno.writeTextFileSync(join(dir, "c.log"), lines.join("\n") + "\n");
    const want = grep(["-n", "-F", "-C", "3", "HIT", "c.log"], dir).filter((l) => l !== "--");
    // From 60 bytes a page holds a match and its 3 after-lines (below that, after-lines past the budget of
    // a page that starts at the match are not shown: docs/tools.md, Time windows).
    for (const [budget, limit] of [[60, 5000], [97, 5000], [300, 5000], [1000, 5000], [97, 2], [300, 3]]) {
      await using s = await connect([dir], { ...WHOLE, LOGPEEK_SEARCH_BYTES: String(budget) });
      const shown: string[] = [];
      let cursor: string | undefined;
      for (let k = 0; k < 2000; k++) {
        const r = await s.call("log_search", { file: "c.log", text: "HIT", context: 3, limit, cursor });
        assert.equal(r.isError, undefined, r.content[0].text);
        shown.push(...grepShown(r.structuredContent.matches));
        cursor = r.structuredContent.next_cursor ?? undefined;
        if (!cursor) break;
      }
      assert.deepEqual(shown, want, `budget ${budget}, limit ${limit}`);
    }
  },
});
