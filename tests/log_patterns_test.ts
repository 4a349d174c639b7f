/**
 * `log_patterns` and `log_search` by `template_id` (issue #13) end to end, through the real MCP client.
 * Nothing here knows the miner's templates (its grouping may change): every number is checked against a
 * source logpeek does not compute — `wc -l`, the files read here, the Loghub CSVs' levels and times, the
 * counts of logs this test writes itself — and the templates against their own lines:
 * - the seven Loghub logs: the templates partition the lines (search by each id returns exactly its
 *   count; the union is every line once), each line matches its template (`<*>` = any run), levels and
 *   times are the CSVs';
 * - a time window (the CSVs' times), a level, a glob with a `.gz`;
 * - a call stopped by its budget, followed by its cursor, equals one uncut call; bad cursors;
 * - a baseline (another log, another window): new, gone, up, same, the rate ratio and the order;
 * - LOGPEEK_MAX_TEMPLATES (other_lines), secrets (never shown), bad arguments, LOGPEEK_MAX_LINE.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { RE2JS } from "re2js";
import { connect, type Session } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";
import { sharedDir } from "./shared_dir.ts";
import { csvTimes, LOGHUB, trueLevels } from "./loghub_truth.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
/** Whole answers inline (none spilled to an artifact), so that every line is in structuredContent. */
const WHOLE = { LOGPEEK_INLINE_CHARS: "100000000" };

/** One template of a `log_patterns` answer. */
interface Tpl {
  template_id: string;
  template: string;
  count: number;
  levels: Record<string, number>;
  first_line_no: number | null;
  last_line_no: number | null;
  first_file?: string;
  last_file?: string;
  first_time: string | null;
  last_time: string | null;
  example: string;
  baseline_count?: number;
  change?: string;
  rate_ratio?: number | null;
}

/** One line `log_search` by template returned. */
interface Match {
  line_no: number | null;
  level: string;
  text: string;
  cut: boolean;
  file?: string;
}

/** `wc -l` of a file, plus one when its last line has no line feed: its lines as logpeek counts them. */
function lineCount(path: string): number {
  const out = new Deno.Command("wc", { args: ["-l", path], stdout: "piped" }).outputSync();
  const lf = Number(new TextDecoder().decode(out.stdout).trim().split(/\s+/)[0]);
  const bytes = Deno.readFileSync(path);
  return lf + (bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? 1 : 0);
}

/** A file's lines as shown: split on LF, a CR before it dropped, no empty last line, cut at `maxLine` code points. */
function shownLines(text: string, maxLine = 1000): string[] {
  const ls = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (text.endsWith("\n")) ls.pop();
  return ls.map((l) => [...l].slice(0, maxLine).join(""));
}

/** A template as a whole-line RE2 expression, `<*>` standing for any run of characters (linear time). */
function templateRe(t: string): RE2JS {
  return RE2JS.compile(t.split("<*>").map((p) => RE2JS.quote(p)).join("(?s:.*)"));
}

/** Runs `n` at a time; `f` is told the runner (0..n-1), to spread calls over sessions. */
async function pool<T, R>(items: T[], n: number, f: (x: T, runner: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: n }, async (_, runner) => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i], runner);
    }
  }));
  return out;
}

/** A `log_patterns` call that must succeed; its structured answer. */
// deno-lint-ignore no-explicit-any
async function patterns(s: Session, args: Record<string, unknown>): Promise<any> {
  const r = await s.call("log_patterns", args);
  assert.equal(r.isError, undefined, `${JSON.stringify(args)}: ${r.content[0].text.slice(0, 500)}`);
  return r.structuredContent;
}

/** Every line of a template (`log_search` by `template_id`, one page of at most 5000), and the answer. */
async function byTemplate(
  s: Session,
  args: Record<string, unknown>,
): Promise<{ matches: Match[]; template: { template_id: string; template: string; count: number } }> {
  const r = await s.call("log_search", { limit: 5000, ...args });
  assert.equal(r.isError, undefined, `${JSON.stringify(args)}: ${r.content[0].text.slice(0, 500)}`);
  const sc = r.structuredContent;
  assert.equal(sc.complete, true, r.content[0].text.slice(0, 500));
  assert.equal(sc.next_cursor, null);
  return { matches: sc.matches, template: sc.template };
}

/** The properties every answer without a baseline has, whatever the miner: sums, ids, levels. */
// deno-lint-ignore no-explicit-any
function checkSums(sc: any, what: string): void {
  const ts: Tpl[] = sc.templates;
  assert.equal(sc.complete, true, what);
  assert.equal(sc.stop_reason, null, what);
  assert.equal(sc.next_cursor, null, what);
  assert.equal(ts.reduce((n, t) => n + t.count, 0) + sc.other_lines, sc.total_lines, `${what}: sum`);
  assert.equal(sc.distinct_templates, ts.length, `${what}: distinct`);
  assert.equal(new Set(ts.map((t) => t.template_id)).size, ts.length, `${what}: ids unique`);
  assert.equal(new Set(ts.map((t) => t.template)).size, ts.length, `${what}: texts unique`);
  for (const t of ts) {
    assert.match(t.template_id, /^[0-9a-f]{16}$/);
    assert.ok(t.count > 0, `${what}: ${t.template}`);
    assert.equal(
      Object.values(t.levels).reduce((n, v) => n + v, 0),
      t.count,
      `${what}: levels of ${t.template}`,
    );
    assert.ok(templateRe(t.template).matches(t.example), `${what}: example ${t.example} of ${t.template}`);
  }
  // Most frequent first.
  for (let i = 1; i < ts.length; i++) assert.ok(ts[i - 1].count >= ts[i].count, `${what}: order at ${i}`);
}

/** The seven Loghub logs copied into `dir` as `<Name>.log`, the syslog ones dated as time_window_test does. */
function copyLoghub(src: string, dir: string): void {
  for (const name of LOGHUB) Deno.copyFileSync(join(src, `${name}_2k.log`), join(dir, `${name}.log`));
  Deno.utimeSync(join(dir, "Linux.log"), new Date("2005-08-01T00:00:00Z"), new Date("2005-08-01T00:00:00Z"));
  Deno.utimeSync(
    join(dir, "OpenSSH.log"),
    new Date("2005-12-11T00:00:00Z"),
    new Date("2005-12-11T00:00:00Z"),
  );
}

const tally = (xs: string[]) => {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
};

Deno.test({
  name:
    "e2e: log_patterns on the seven Loghub logs: a partition of the lines, each its template's, levels and times the CSVs'",
  ...opts,
  async fn(t) {
    const shared = sharedDir("log_patterns over the Loghub logs");
    if (!shared) return;
    const src = join(shared, "corpus", "loghub");
    const dir = tempDir("logpeek-patterns-");
    copyLoghub(src, dir);
    // --no-redact: the lines shown are the file's (the corpus holds no secret; secrets are tested below).
    await using s = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    // A second server, so that the searches by template (the miner's work, one at a time per server) use
    // both cores.
    await using s2 = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    for (const name of LOGHUB) {
      await t.step(name, async () => {
        const path = join(dir, `${name}.log`);
        const n = lineCount(path);
        const lines = shownLines(Deno.readTextFileSync(path));
        assert.equal(lines.length, n, "the file read here has wc's lines");
        const levels = trueLevels(src, name);
        const times = csvTimes(src, name);
        assert.equal(levels.length, n);
        const sc = await patterns(s, { file: `${name}.log`, limit: 1000 });
        checkSums(sc, name);
        assert.equal(sc.total_lines, n);
        assert.equal(sc.other_lines, 0, "the default cap holds every template of 2,000 lines");
        assert.equal(sc.artifact, undefined, "all templates inline");
        const ts: Tpl[] = sc.templates;
        // Every template's lines, by its id.
        const found = await pool(
          ts,
          4,
          (tp, k) => byTemplate(k % 2 ? s2 : s, { file: `${name}.log`, template_id: tp.template_id }),
        );
        const seen = new Uint8Array(n + 1);
        const levelTotals: Record<string, number> = {};
        ts.forEach((tp, k) => {
          const { matches, template } = found[k];
          const what = `${name} ${tp.template_id} ${tp.template}`;
          assert.deepEqual(
            template,
            { template_id: tp.template_id, template: tp.template, count: tp.count },
            what,
          );
          assert.equal(matches.length, tp.count, what);
          const re = templateRe(tp.template);
          const nos: number[] = [];
          for (const m of matches) {
            const no = m.line_no!;
            assert.ok(Number.isInteger(no) && no >= 1 && no <= n, `${what}: line ${no}`);
            assert.equal(seen[no], 0, `${what}: line ${no} is in two templates`);
            seen[no] = 1;
            nos.push(no);
            assert.equal(m.text, lines[no - 1], `${what}: line ${no}`);
            assert.ok(re.matches(m.text), `${what}: line ${no} ${m.text} does not match`);
            assert.equal(m.level, levels[no - 1], `${what}: level of line ${no}`);
          }
          assert.deepEqual(nos, [...nos].sort((a, b) => a - b), `${what}: in line order`);
          // The template's numbers are its lines': levels (the CSV's), first and last line, example, times.
          assert.deepEqual(tp.levels, tally(nos.map((no) => levels[no - 1])), `${what}: levels`);
          assert.equal(tp.first_line_no, nos[0], what);
          assert.equal(tp.last_line_no, nos[nos.length - 1], what);
          assert.equal(tp.example, lines[nos[0] - 1], what);
          assert.equal(Date.parse(tp.first_time!), times[nos[0] - 1], `${what}: first_time`);
          assert.equal(Date.parse(tp.last_time!), times[nos[nos.length - 1] - 1], `${what}: last_time`);
          for (const [lv, c] of Object.entries(tp.levels)) levelTotals[lv] = (levelTotals[lv] ?? 0) + c;
        });
        // A partition: every line 1..N in exactly one template.
        assert.equal(seen.slice(1).reduce((a, b) => a + b, 0), n, `${name}: every line in a template`);
        // Levels over all templates: the CSV's counts, and log_levels'.
        assert.deepEqual(levelTotals, tally(levels), `${name}: level totals`);
        const lv = await s.call("log_levels", { file: `${name}.log` });
        const nonzero = Object.fromEntries(
          Object.entries(lv.structuredContent.counts as Record<string, number>).filter(([, c]) => c > 0),
        );
        assert.deepEqual(levelTotals, nonzero, `${name}: level totals = log_levels`);
      });
    }
    // Apache's header holds the level in brackets: grep -c agrees.
    const grepC = (re: string) =>
      Number(
        new TextDecoder().decode(
          new Deno.Command("grep", { args: ["-c", re, join(dir, "Apache.log")], stdout: "piped" })
            .outputSync()
            .stdout,
        ).trim(),
      );
    const ap = await patterns(s, { file: "Apache.log", limit: 1000 });
    const sum = (lv: string) => (ap.templates as Tpl[]).reduce((n, tp) => n + (tp.levels[lv] ?? 0), 0);
    assert.deepEqual([sum("ERROR"), sum("NOTICE")], [
      grepC("^\\[[^]]*\\] \\[error\\]"),
      grepC("^\\[[^]]*\\] \\[notice\\]"),
    ]);
    // limit below the templates: the first `limit` inline, all of them in the artifact, in the same order.
    const few = await patterns(s, { file: "Hadoop.log", limit: 5 });
    const all = await patterns(s, { file: "Hadoop.log", limit: 1000 });
    assert.deepEqual(few.templates, all.templates.slice(0, 5));
    assert.ok(few.artifact, "more templates than the limit: an artifact");
    const saved: Tpl[] = [];
    for (let offset = 0; offset < 100_000;) {
      const a = await s.call("read_artifact", { artifact_id: few.artifact.artifact_id, offset, limit: 200 });
      assert.equal(a.isError, undefined, a.content[0].text);
      saved.push(...a.structuredContent.lines.map((l: string) => JSON.parse(l)));
      if (a.structuredContent.next_offset === null) break;
      offset = a.structuredContent.next_offset;
    }
    assert.deepEqual(saved, all.templates);
    assert.equal(few.artifact.total_lines, all.templates.length);
  },
});

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Checks that searching each template by id (same window, level) returns its count, and that together
 * they return exactly the lines `want` (0-based indexes into `lines`), each once; returns the lines' indexes
 * per template.
 */
async function checkPartition(
  sessions: Session[],
  file: string,
  extra: Record<string, unknown>,
  ts: Tpl[],
  lines: string[],
  want: number[],
  what: string,
): Promise<number[][]> {
  const found = await pool(
    ts,
    2 * sessions.length,
    (tp, k) => byTemplate(sessions[k % sessions.length], { file, template_id: tp.template_id, ...extra }),
  );
  const unnumbered = found.some((f) => f.matches.some((m) => m.line_no === null));
  const got: number[][] = [];
  ts.forEach((tp, k) => {
    const { matches, template } = found[k];
    assert.equal(template.count, tp.count, `${what}: ${tp.template}`);
    assert.equal(matches.length, tp.count, `${what}: ${tp.template}`);
    const re = templateRe(tp.template);
    for (const m of matches) {
      assert.ok(re.matches(m.text), `${what}: ${m.text} does not match ${tp.template}`);
    }
    if (!unnumbered) {
      for (const m of matches) assert.equal(m.text, lines[m.line_no! - 1], `${what}: line ${m.line_no}`);
      got.push(matches.map((m) => m.line_no! - 1));
    } else got.push([]);
  });
  if (unnumbered) {
    // After a time seek line numbers are not known: the texts, as multisets.
    const texts = found.flatMap((f) => f.matches.map((m) => m.text)).sort();
    assert.deepEqual(texts, want.map((i) => lines[i]).sort(), `${what}: the window's lines`);
  } else {
    assert.deepEqual(got.flat().sort((a, b) => a - b), want, `${what}: the window's lines, each once`);
  }
  return got;
}

Deno.test({
  name: "e2e: log_patterns in a time window: the CSV's lines of the window, and search by template in it",
  ...opts,
  async fn() {
    const shared = sharedDir("log_patterns with since/until over the Loghub logs");
    if (!shared) return;
    const src = join(shared, "corpus", "loghub");
    const dir = tempDir("logpeek-patterns-window-");
    copyLoghub(src, dir);
    await using s = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    await using s2 = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    for (const name of ["HDFS", "Zookeeper"] as const) {
      const times = csvTimes(src, name);
      const levels = trueLevels(src, name);
      const lines = shownLines(Deno.readTextFileSync(join(dir, `${name}.log`)));
      const sorted = [...times].sort((x, y) => x - y);
      for (const [a, b] of [[300, 900], [1200, 2000]]) {
        const since = sorted[a];
        const later = sorted.slice(b).find((x) => x > since);
        const until = b < 2000 && later !== undefined ? later : Infinity;
        const win: Record<string, unknown> = { since: iso(since) };
        if (until !== Infinity) win.until = iso(until);
        const want = times.map((tm, i) => (tm >= since && tm < until ? i : -1)).filter((i) => i >= 0);
        const what = `${name} ${a}..${b}`;
        const sc = await patterns(s, { file: `${name}.log`, limit: 1000, ...win });
        checkSums(sc, what);
        assert.equal(sc.total_lines, want.length, `${what}: total_lines`);
        const ts: Tpl[] = sc.templates;
        const levelTotals: Record<string, number> = {};
        for (const tp of ts) {
          for (const [lv, c] of Object.entries(tp.levels)) levelTotals[lv] = (levelTotals[lv] ?? 0) + c;
          // Its first and last time lie in the window.
          assert.ok(Date.parse(tp.first_time!) >= since && Date.parse(tp.last_time!) < until, what);
        }
        assert.deepEqual(levelTotals, tally(want.map((i) => levels[i])), `${what}: levels`);
        const got = await checkPartition([s, s2], `${name}.log`, win, ts, lines, want, what);
        // Each template's levels are its lines' (the CSV's).
        ts.forEach((tp, k) => {
          if (got[k].length) assert.deepEqual(tp.levels, tally(got[k].map((i) => levels[i])), what);
        });
      }
    }
  },
});

Deno.test({
  name: "e2e: log_patterns of one level: the CSV's (and grep's) lines of that level",
  ...opts,
  async fn() {
    const shared = sharedDir("log_patterns with level over the Loghub logs");
    if (!shared) return;
    const src = join(shared, "corpus", "loghub");
    const dir = tempDir("logpeek-patterns-level-");
    copyLoghub(src, dir);
    await using s = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    await using s2 = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    const grepC = (re: string, file: string) =>
      Number(
        new TextDecoder().decode(
          new Deno.Command("grep", { args: ["-cE", re, join(dir, file)], stdout: "piped" }).outputSync()
            .stdout,
        ).trim(),
      );
    for (
      const [name, level, header] of [
        ["Zookeeper", "ERROR", "^[0-9-]+ [0-9:,]+ - ERROR "],
        ["Hadoop", "WARN", "^[0-9-]+ [0-9:,]+ WARN \\["],
        ["HDFS", "WARN", "^[0-9]{6} [0-9]{6} [0-9]+ WARN "],
      ] as const
    ) {
      const levels = trueLevels(src, name);
      const lines = shownLines(Deno.readTextFileSync(join(dir, `${name}.log`)));
      const want = levels.map((l, i) => (l === level ? i : -1)).filter((i) => i >= 0);
      assert.ok(want.length > 0);
      assert.equal(grepC(header, `${name}.log`), want.length, `${name}: grep agrees with the CSV`);
      const sc = await patterns(s, { file: `${name}.log`, level, limit: 1000 });
      checkSums(sc, `${name} ${level}`);
      assert.equal(sc.total_lines, want.length, `${name} ${level}: total_lines`);
      for (const tp of sc.templates as Tpl[]) assert.deepEqual(tp.levels, { [level]: tp.count });
      await checkPartition([s, s2], `${name}.log`, { level }, sc.templates, lines, want, `${name} ${level}`);
    }
  },
});

Deno.test({
  name:
    "e2e: log_patterns over a glob with a .gz: every log's lines, first_file/last_file, search by template gives file",
  ...opts,
  async fn() {
    const shared = sharedDir("log_patterns over a glob of Loghub logs");
    if (!shared) return;
    const src = join(shared, "corpus", "loghub");
    const dir = tempDir("logpeek-patterns-glob-");
    Deno.mkdirSync(join(dir, "g"));
    // The first 1,000 lines of three logs (LF ends, a whole last line); one gzipped.
    const logs: [string, string, number][] = [["Apache", "g/a.log", 3], ["HDFS", "g/b.log", 2], [
      "OpenSSH",
      "g/c.log.gz",
      1,
    ]];
    const lines: Record<string, string[]> = {};
    let total = 0;
    for (const [name, file, age] of logs) {
      const text = shownLines(Deno.readTextFileSync(join(src, `${name}_2k.log`))).slice(0, 1000).join("\n") +
        "\n";
      const plain = join(dir, `${name}.plain`);
      Deno.writeTextFileSync(plain, text);
      total += lineCount(plain);
      lines[file] = shownLines(text);
      const path = join(dir, file);
      if (file.endsWith(".gz")) Deno.writeFileSync(path, gzipSync(new TextEncoder().encode(text)));
      else Deno.writeTextFileSync(path, text);
      const m = new Date(Date.UTC(2024, 4, 10 - age));
      Deno.utimeSync(path, m, m);
    }
    await using s = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    await using s2 = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    const sc = await patterns(s, { file: "g/*.log*", limit: 1000 });
    checkSums(sc, "glob");
    assert.equal(sc.total_lines, total);
    assert.deepEqual(
      sc.logs.map((l: { file: string; complete: boolean }) => [l.file, l.complete]),
      [["g/c.log.gz", true], ["g/b.log", true], ["g/a.log", true]], // newest first
    );
    const ts: Tpl[] = sc.templates;
    const found = await pool(
      ts,
      4,
      (tp, k) => byTemplate(k % 2 ? s2 : s, { file: "g/*.log*", template_id: tp.template_id }),
    );
    const seen = new Set<string>();
    ts.forEach((tp, k) => {
      const { matches, template } = found[k];
      assert.equal(template.count, tp.count, tp.template);
      assert.equal(matches.length, tp.count, tp.template);
      const re = templateRe(tp.template);
      for (const m of matches) {
        assert.ok(m.file && m.file in lines, `${m.file}`);
        assert.equal(m.text, lines[m.file!][m.line_no! - 1], `${m.file}:${m.line_no}`);
        assert.ok(re.matches(m.text), `${m.text} / ${tp.template}`);
        const key = `${m.file}:${m.line_no}`;
        assert.ok(!seen.has(key), `${key} in two templates`);
        seen.add(key);
      }
      // first_file/last_file and the line numbers: the first and last of its lines (read newest first).
      assert.equal(tp.first_file, matches[0].file, tp.template);
      assert.equal(tp.first_line_no, matches[0].line_no, tp.template);
      assert.equal(tp.last_file, matches[matches.length - 1].file, tp.template);
      assert.equal(tp.last_line_no, matches[matches.length - 1].line_no, tp.template);
    });
    assert.equal(seen.size, total, "every line of every log in one template");
  },
});
