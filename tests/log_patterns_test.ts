/**
 * `log_patterns` and `log_search` by `template_id` (issue #13) end to end, through the real MCP client.
 * Nothing here knows the miner's templates (its grouping may change): every number is checked against a
 * source logpeek does not compute — `wc -l`, the files read here, the Loghub CSVs' levels and times, the
 * counts of logs this test writes itself — and the templates against their own lines:
 * - the seven Loghub logs: the templates partition the lines (search by each id returns exactly its
 *   count; the union is every line once), each line matches its template (`<*>` = any run), levels and
 *   times are the CSVs';
 * - a time window (the CSVs' times), a level, a glob with a `.gz`; a window entered by a seek;
 * - a call stopped by its budget: a partial answer that adds up; bad and tampered cursors refused; its
 *   cursor followed to the end equals one uncut call (ignored for now: FAILS, see that test);
 * - a baseline (another log, another window, lines without times): new, gone, up, same, the rate ratio
 *   and the order;
 * - LOGPEEK_MAX_TEMPLATES (other_lines), secrets (never shown), bad arguments, search-by-template pages,
 *   LOGPEEK_MAX_LINE.
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

/** The Loghub logs: their folder, a temporary root holding their copies, two servers on it. */
interface Loghub {
  src: string;
  dir: string;
  s: Session;
  s2: Session;
}

/**
 * Each of the seven logs whole: the templates partition the lines, each line matches its template, the
 * levels and times are the CSVs'; the artifact holds every template.
 */
async function wholeLogs(t: Deno.TestContext, { src, dir, s, s2 }: Loghub): Promise<void> {
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
}

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
  // Line numbers are all known, or (after a time seek) none.
  assert.ok(found.every((f) => f.matches.every((m) => (m.line_no === null) === unnumbered)), what);
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

/** Windows of two logs (the CSVs' times): the window's lines, and search by template in it. */
async function timeWindows({ src, dir, s, s2 }: Loghub): Promise<void> {
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
}

/** One level of three logs: the CSV's (and grep's) lines of that level. */
async function oneLevel({ src, dir, s, s2 }: Loghub): Promise<void> {
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
}

/** A glob over three logs, one a .gz: every log's lines, first_file/last_file, search gives `file`. */
async function globWithGz({ src, dir, s, s2 }: Loghub): Promise<void> {
  Deno.mkdirSync(join(dir, "g"));
  // The first 500 lines of three logs (LF ends, a whole last line); one gzipped.
  const logs: [string, string, number][] = [["Apache", "g/a.log", 3], ["HDFS", "g/b.log", 2], [
    "OpenSSH",
    "g/c.log.gz",
    1,
  ]];
  const lines: Record<string, string[]> = {};
  let total = 0;
  for (const [name, file, age] of logs) {
    const text = shownLines(Deno.readTextFileSync(join(src, `${name}_2k.log`))).slice(0, 500).join("\n") +
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
}

const SHARED_0 = sharedDir("log_patterns over the Loghub logs");
Deno.test({
  ignore: SHARED_0 === null,
  name: "e2e: log_patterns over the Loghub logs: whole, in a window, of a level, over a glob with a .gz",
  ...opts,
  async fn(t) {
    const shared = SHARED_0!;
    const src = join(shared, "corpus", "loghub");
    const dir = tempDir("logpeek-patterns-");
    copyLoghub(src, dir);
    // --no-redact: the lines shown are the file's (the corpus holds no secret; secrets are tested below).
    await using s = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    // A second server, so that the searches by template (the miner's work, one call at a time per server)
    // use both cores; both shared by the steps (a server's start and warm-up cost seconds).
    await using s2 = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    const lh = { src, dir, s, s2 };
    await t.step(
      "each log whole: a partition of its lines, each its template's, levels and times the CSVs'",
      (t) => wholeLogs(t, lh),
    );
    await t.step(
      "a time window (the CSVs' times): the window's lines, and search by template in it",
      () => timeWindows(lh),
    );
    await t.step("one level: the CSV's (and grep's) lines of that level", () => oneLevel(lh));
    await t.step(
      "a glob with a .gz: every log's lines, first_file/last_file, search by template gives file",
      () => globWithGz(lh),
    );
  },
});

/** A fixed pseudo-random sequence (xorshift32) in [0, 1). */
function prng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/**
 * A log of `n` lines of a dozen events, one line a second from `t0`, some events only in its second half
 * (templates a later page begins) and one whose words vary (a template a later page widens).
 */
function busyLog(n: number, t0: number, seed = 7): string {
  const r = prng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const users = ["alice", "bob", "carol", "dave", "erin"];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const ts = iso(t0 + i * 1000);
    const k = Math.floor(r() * (i < n / 2 ? 8 : 11));
    const num = Math.floor(r() * 100000);
    out.push(
      k === 0
        ? `${ts} INFO worker-${num % 7} handled request ${num} in ${num % 97} ms`
        : k === 1
        ? `${ts} WARN cache miss for key user:${num % 1000} after ${num % 13} retries`
        : k === 2
        ? `${ts} ERROR upstream ${pick(["db", "auth", "billing"])} timed out after ${num} ms`
        : k === 3
        ? `${ts} INFO session ${num.toString(16).padStart(8, "0")}${num} opened for ${pick(users)}`
        : k === 4
        ? `${ts} DEBUG gc pause ${num % 50}.${num % 10} ms heap ${num % 4096} MB`
        : k === 5
        ? `${ts} INFO user ${i < n / 2 ? "alice" : pick(users)} logged in from 10.0.${num % 256}.${num % 7}`
        : k === 6
        ? `${ts} INFO GET /api/v1/items/${num} 200 ${num % 900} bytes`
        : k === 7
        ? `${ts} WARN disk /dev/sd${pick(["a", "b"])} at ${num % 100}% full`
        : k === 8
        ? `${ts} ERROR payment ${num} declined: card expired`
        : k === 9
        ? `${ts} INFO shutdown requested by signal ${num % 32}`
        : `${ts} FATAL out of memory allocating ${num} bytes`,
    );
  }
  return out.join("\n") + "\n";
}

/** A file under `dir` (any depth) named `name`, or null. */
function findFile(dir: string, name: string): string | null {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) {
      const f = findFile(p, name);
      if (f) return f;
    } else if (e.name === name) return p;
  }
  return null;
}

/** The cursor test's log (~4.5 MB: several 1 MiB pieces; a page reads at least one) and its line count. */
function busyDir(): { dir: string; n: number } {
  const dir = tempDir("logpeek-patterns-cursor-");
  const n = 60_000;
  Deno.writeTextFileSync(join(dir, "busy.log"), busyLog(n, Date.UTC(2024, 4, 1)));
  assert.equal(lineCount(join(dir, "busy.log")), n);
  return { dir, n };
}

Deno.test({
  name:
    "e2e: log_patterns stopped by LOGPEEK_PATTERNS_MS: a partial answer that adds up, a cursor; bad cursors are refused",
  ...opts,
  async fn() {
    const { dir, n } = busyDir();
    const args = { file: "busy.log", limit: 1000 };
    // 0 ms: nothing mined, no cursor (nothing to go on from), said so.
    {
      await using zero = await connect([dir], { ...WHOLE, LOGPEEK_PATTERNS_MS: "0" });
      const z = await patterns(zero, args);
      assert.deepEqual(
        [z.complete, z.stop_reason, z.progress, z.next_cursor, z.total_lines, z.templates],
        [false, "time_budget", false, null, 0, []],
      );
    }
    // 10 ms: the page mines about one piece (the budget is looked at between pieces) and stops.
    await using s = await connect([dir], { ...WHOLE, LOGPEEK_PATTERNS_MS: "10" });
    // deno-lint-ignore no-explicit-any
    let first: any = null;
    // Under load a 10 ms page can be spent before its first piece is mined: ask again (up to 30 times).
    for (let k = 0; k < 30 && !first?.progress; k++) first = await patterns(s, args);
    assert.equal(first.progress, true, "a page mined something in 10 ms");
    assert.deepEqual([first.complete, first.stop_reason], [false, "time_budget"]);
    assert.ok(first.total_lines > 0 && first.total_lines < n, `${first.total_lines} of ${n}`);
    const ts: Tpl[] = first.templates;
    assert.equal(ts.reduce((a, t) => a + t.count, 0) + first.other_lines, first.total_lines);
    for (const t of ts) assert.ok(t.last_line_no! <= first.total_lines, "only the lines mined so far");
    const c0: string = first.next_cursor;
    assert.match(c0, /^a[0-9a-f]{24}~./);
    // A search by template needs every line mined first: within 10 ms it cannot, and says so.
    const q = await s.call("log_search", { file: "busy.log", template_id: ts[0].template_id });
    assert.equal(q.isError, undefined, q.content[0].text);
    assert.deepEqual(
      [q.structuredContent.complete, q.structuredContent.stop_reason, q.structuredContent.matches],
      [false, "time_budget", []],
    );
    assert.equal(q.structuredContent.next_cursor, null);
    // Another query's arguments with this cursor: refused (limit may change).
    for (const changed of [{ level: "ERROR" }, { since: "2024-05-01T00:00:00Z" }, { file: "busy.lo*" }]) {
      const r = await s.call("log_patterns", { ...args, ...changed, cursor: c0 });
      assert.equal(r.isError, true, JSON.stringify(changed));
      assert.match(r.content[0].text, /^invalid_cursor: /, JSON.stringify(changed));
    }
    // Tampered: another state id, a bad shape; none is an internal error.
    const [sid, rest] = [c0.slice(0, c0.indexOf("~")), c0.slice(c0.indexOf("~") + 1)];
    const otherId = sid.slice(0, -1) + (sid.endsWith("0") ? "1" : "0");
    for (
      const [cursor, code] of [
        [`${otherId}~${rest}`, "artifact_not_found"],
        [`../../etc/passwd~${rest}`, "artifact_not_found"],
        [`${sid}~x${rest}`, "invalid_cursor"],
        ["garbage", "invalid_cursor"],
      ]
    ) {
      const r = await s.call("log_patterns", { ...args, cursor });
      assert.equal(r.isError, true, cursor);
      assert.match(r.content[0].text, new RegExp(`^${code}: `), cursor);
    }
    // read_artifact never returns a saved state.
    const ra = await s.call("read_artifact", { artifact_id: sid });
    assert.equal(ra.isError, true);
    assert.doesNotMatch(ra.content[0].text, /^internal_error/);
    // The saved state damaged on disk.
    const stateFile = findFile(s.stateDir, `${sid}.txt`);
    assert.ok(stateFile, "the state is an artifact file");
    for (const junk of ["{}", "not json", '{"run":{"v":1},"call":{}}']) {
      Deno.writeTextFileSync(stateFile, junk + "\n");
      const r = await s.call("log_patterns", { ...args, cursor: c0 });
      assert.equal(r.isError, true, junk);
      assert.match(r.content[0].text, /^invalid_cursor: /, junk);
    }
  },
});

Deno.test({
  name: "e2e: log_patterns paged by its cursor until complete equals one uncut call",
  // (A trial found every cursor refused: the saved mining was parsed twice. Fixed; this is its test.)
  ...opts,
  async fn() {
    const { dir, n } = busyDir();
    const args = { file: "busy.log", limit: 1000 };
    let uncut;
    {
      await using whole = await connect([dir], WHOLE);
      uncut = await patterns(whole, args);
    }
    checkSums(uncut, "uncut");
    assert.equal(uncut.total_lines, n);
    // A page stops within its budget inside a piece (the clock is read every few lines mined): 30 ms pages
    // take a few pages over 60,000 lines (100 ms pages took only two once mining ran at ~0.4 M lines/s).
    await using s = await connect([dir], { ...WHOLE, LOGPEEK_PATTERNS_MS: "30" });
    // deno-lint-ignore no-explicit-any
    let page: any = null;
    const cursors: string[] = [];
    let pages = 0;
    let lastTotal = 0;
    for (let k = 0; k < 200; k++) {
      const cursor = cursors.at(-1);
      const p = await patterns(s, { ...args, ...(cursor ? { cursor } : {}) });
      pages++;
      if (!p.progress) continue; // mined nothing in its budget (a slow start): the same call again
      assert.ok(p.total_lines > lastTotal, "the counts cover every page so far");
      lastTotal = p.total_lines;
      page = p;
      if (p.next_cursor === null) break;
      assert.deepEqual([p.complete, p.stop_reason], [false, "time_budget"]);
      assert.equal(p.templates.reduce((a: number, t: Tpl) => a + t.count, 0) + p.other_lines, p.total_lines);
      cursors.push(p.next_cursor);
    }
    assert.ok(cursors.length >= 2, `stopped ${cursors.length} times in ${pages} pages: too few to test`);
    assert.equal(page.complete, true);
    assert.equal(page.total_lines, n);
    assert.deepEqual(page.templates, uncut.templates, "the paged answer is the uncut one");
    assert.equal(page.distinct_templates, uncut.distinct_templates);
    // limit may change between pages; a cursor used twice gives the same page.
    const again = await patterns(s, { ...args, limit: 3, cursor: cursors[0] });
    assert.equal(again.templates.length, 3);
    const p1 = await patterns(s, { ...args, cursor: cursors[1] });
    const p1b = await patterns(s, { ...args, cursor: cursors[1] });
    if (p1.progress && p1b.progress && p1.total_lines === p1b.total_lines) {
      assert.deepEqual(p1.templates, p1b.templates);
    }
    // Another query's arguments: refused because of the query (not the state).
    const r = await s.call("log_patterns", { ...args, level: "ERROR", cursor: cursors[0] });
    assert.match(r.content[0].text, /^invalid_cursor: the cursor belongs to another query/);
  },
});

/** An event of the baseline test: its word, lines yesterday and today, level. */
const EVENTS = [
  {
    key: "session",
    yesterday: 120,
    today: 120,
    line: (i: number) => `INFO user session opened for uid ${i}`,
  },
  {
    key: "cache",
    yesterday: 40,
    today: 120,
    line: (i: number) => `WARN cache miss on key k${i} in region eu`,
  },
  {
    key: "quota",
    yesterday: 0,
    today: 30,
    line: (i: number) => `ERROR disk quota exceeded on volume vol${i}`,
  },
  {
    key: "replica",
    yesterday: 50,
    today: 0,
    line: (i: number) => `INFO replica lag detected on shard ${i} now`,
  },
];

/** One side's lines, shuffled, timed evenly over `spanS` seconds from `t0`; its first and last instants. */
function side(which: "yesterday" | "today", t0: number, spanS: number): { text: string; hours: number } {
  const r = prng(which === "today" ? 11 : 29);
  const lines: string[] = [];
  for (const e of EVENTS) for (let i = 0; i < e[which]; i++) lines.push(e.line(Math.floor(r() * 100000)));
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  const times = lines.map((_, i) => t0 + Math.round((i * spanS) / (lines.length - 1)) * 1000);
  return {
    text: lines.map((l, i) => `${iso(times[i])} ${l}\n`).join(""),
    hours: (times[times.length - 1] - times[0]) / 3_600_000,
  };
}

/**
 * Checks a baseline answer against the events' own counts and the two sides' lengths in hours (null: the
 * lines have no time, so rates are shares of each side's lines).
 */
// deno-lint-ignore no-explicit-any
function checkBaseline(sc: any, hours: { window: number; base: number } | null, what: string): void {
  const ts: Tpl[] = sc.templates;
  const todayLines = EVENTS.reduce((a, e) => a + e.today, 0);
  const yesterdayLines = EVENTS.reduce((a, e) => a + e.yesterday, 0);
  assert.equal(sc.complete, true, what);
  assert.equal(sc.total_lines, todayLines, what);
  assert.equal(sc.baseline.total_lines, yesterdayLines, what);
  assert.equal(sc.baseline.complete, true, what);
  if (hours) {
    assert.ok(Math.abs(sc.window_hours - hours.window) < 0.001, `${what}: window_hours ${sc.window_hours}`);
    assert.ok(
      Math.abs(sc.baseline.hours - hours.base) < 0.001,
      `${what}: baseline hours ${sc.baseline.hours}`,
    );
    assert.equal(sc.rate_basis, "per_hour");
  } else {
    assert.deepEqual(
      [sc.window_hours, sc.baseline.hours, sc.rate_basis],
      [null, null, "share_of_lines"],
      what,
    );
  }
  const scale = hours ? hours.window / hours.base : todayLines / yesterdayLines;
  // Lines that differ only in a number are one event: one template each.
  const of = (key: string) => {
    const m = ts.filter((t) => t.example.includes(` ${key} `) || t.template.includes(` ${key} `));
    assert.equal(m.length, 1, `${what}: one template for ${key}: ${JSON.stringify(m)}`);
    return m[0];
  };
  assert.equal(ts.length, EVENTS.length, `${what}: ${JSON.stringify(ts.map((t) => t.template))}`);
  const ratio = (e: typeof EVENTS[number]) => (e.today / e.yesterday) / scale;
  for (const e of EVENTS) {
    const t = of(e.key);
    assert.equal(t.count, e.today, `${what}: ${e.key} count`);
    assert.equal(t.baseline_count, e.yesterday, `${what}: ${e.key} baseline_count`);
    const want = e.yesterday === 0
      ? "new"
      : e.today === 0
      ? "gone"
      : ratio(e) >= 2
      ? "up"
      : ratio(e) <= 0.5
      ? "down"
      : "same";
    assert.equal(t.change, want, `${what}: ${e.key} change`);
    if (e.yesterday === 0 || e.today === 0) assert.equal(t.rate_ratio, null, `${what}: ${e.key}`);
    else assert.ok(Math.abs(t.rate_ratio! - ratio(e)) <= 0.0006, `${what}: ${e.key} ratio ${t.rate_ratio}`);
    if (e.today === 0) {
      assert.deepEqual(
        [t.first_line_no, t.last_line_no, t.first_time, t.levels],
        [null, null, null, {}],
        what,
      );
    }
  }
  assert.equal(of("session").change, "same");
  assert.equal(of("cache").change, "up");
  // Most changed first: new, then gone (so the window's own events lead), then by |log2 ratio|.
  assert.deepEqual(
    ts.map((t) => t.template_id),
    ["quota", "replica", "cache", "session"].map((k) => of(k).template_id),
  );
  assert.equal(sc.distinct_templates, ts.filter((t) => t.count > 0).length);
}

Deno.test({
  name: "e2e: log_patterns with a baseline (another log, another window): new, gone, up, same, ratios, order",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-patterns-baseline-");
    const day1 = Date.UTC(2024, 4, 1, 10), day2 = Date.UTC(2024, 4, 2, 10);
    // Today's lines span the hour, yesterday's 50 minutes: the rates differ from the counts' ratio.
    const y = side("yesterday", day1, 3000);
    const td = side("today", day2, 3599);
    Deno.writeTextFileSync(join(dir, "yesterday.log"), y.text);
    Deno.writeTextFileSync(join(dir, "today.log"), td.text);
    Deno.writeTextFileSync(join(dir, "both.log"), y.text + td.text);
    await using s = await connect([dir], WHOLE);
    // Another log: each side's length is its first to last line.
    const f = await patterns(s, { file: "today.log", baseline_file: "yesterday.log", limit: 100 });
    checkBaseline(f, { window: td.hours, base: y.hours }, "baseline_file");
    assert.equal(f.baseline.file, "yesterday.log");
    // The window's templates are those of a call without a baseline: search by id finds their lines.
    const plain = await patterns(s, { file: "today.log", limit: 100 });
    for (const t of f.templates as Tpl[]) {
      if (t.count === 0) continue;
      assert.ok(
        (plain.templates as Tpl[]).some((p) => p.template_id === t.template_id && p.count === t.count),
      );
      const { matches } = await byTemplate(s, { file: "today.log", template_id: t.template_id });
      assert.equal(matches.length, t.count);
    }
    // One log holding both days; two windows of one hour each: rates per hour of the windows.
    const hour = (ms: number) => ({ since: iso(ms), until: iso(ms + 3_600_000) });
    const w = hour(day2), b = hour(day1);
    const win = await patterns(s, {
      file: "both.log",
      ...w,
      baseline_since: b.since,
      baseline_until: b.until,
      limit: 100,
    });
    checkBaseline(win, { window: 1, base: 1 }, "baseline window");
    assert.equal(win.templates.find((t: Tpl) => t.example.includes(" cache "))?.rate_ratio, 3);
    assert.deepEqual(win.baseline.window, {
      since: b.since.replace(".000", ""),
      until: b.until.replace(".000", ""),
    });
    // Lines without a time: rates are shares of each side's lines.
    const untimed = (t: string) => t.replace(/^\S+ /gm, "");
    Deno.writeTextFileSync(join(dir, "today.txt.log"), untimed(td.text));
    Deno.writeTextFileSync(join(dir, "yesterday.txt.log"), untimed(y.text));
    const shares = await patterns(s, {
      file: "today.txt.log",
      baseline_file: "yesterday.txt.log",
      limit: 100,
    });
    checkBaseline(shares, null, "no times");
    // The baseline's own templates can also be seen the other way round: the same events, swapped.
    const back = await patterns(s, {
      file: "both.log",
      ...b,
      baseline_since: w.since,
      baseline_until: w.until,
      limit: 100,
    });
    const change = (sc: { templates: Tpl[] }, key: string) =>
      sc.templates.find((t) => t.example.includes(` ${key} `))?.change;
    assert.deepEqual(
      ["session", "cache", "quota", "replica"].map((k) => change(back, k)),
      ["same", "down", "gone", "new"],
    );
  },
});

const SHARED_1 = sharedDir("LOGPEEK_MAX_TEMPLATES over a Loghub log");
Deno.test({
  ignore: SHARED_1 === null,
  name: "e2e: LOGPEEK_MAX_TEMPLATES=3: lines past the cap in other_lines, the sums still whole",
  ...opts,
  async fn() {
    const shared = SHARED_1!;
    const dir = tempDir("logpeek-patterns-cap-");
    Deno.copyFileSync(join(shared, "corpus", "loghub", "Hadoop_2k.log"), join(dir, "Hadoop.log"));
    const n = lineCount(join(dir, "Hadoop.log"));
    const lines = shownLines(Deno.readTextFileSync(join(dir, "Hadoop.log")));
    await using s = await connect([dir], { ...WHOLE, LOGPEEK_MAX_TEMPLATES: "3" }, [], {
      args: ["--no-redact"],
    });
    const sc = await patterns(s, { file: "Hadoop.log", limit: 1000 });
    checkSums(sc, "cap 3");
    assert.equal(sc.total_lines, n);
    assert.ok(sc.templates.length >= 1 && sc.templates.length <= 3, `${sc.templates.length} templates`);
    assert.ok(sc.other_lines > 0, "Hadoop has more than 3 events");
    // The held templates' lines, by id: their counts, disjoint; the rest is other_lines.
    const seen = new Set<number>();
    for (const t of sc.templates as Tpl[]) {
      const { matches } = await byTemplate(s, { file: "Hadoop.log", template_id: t.template_id });
      assert.equal(matches.length, t.count);
      const re = templateRe(t.template);
      for (const m of matches) {
        assert.ok(!seen.has(m.line_no!));
        seen.add(m.line_no!);
        assert.equal(m.text, lines[m.line_no! - 1]);
        assert.ok(re.matches(m.text));
      }
    }
    assert.equal(n - seen.size, sc.other_lines);
  },
});

// Every secret below is made up for this test (shapes from src/guard/redact_test.ts).
const GH = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
const AWS_ID = "AKIA" + "IOSFODNN7EXAMPLE";

Deno.test({
  name: "e2e: secrets never reach a template, an example, the artifact or a search by template",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-patterns-secrets-");
    const r = prng(5);
    const tokens = Array.from(
      { length: 15 },
      () => Math.floor(r() * 2 ** 32).toString(16).padStart(8, "0") + "zq",
    );
    const out: string[] = [];
    for (let i = 0; i < 60; i++) {
      const ts = iso(Date.UTC(2024, 4, 1, 9) + i * 1000);
      out.push(`${ts} INFO login user=u${i} password=hunter2 ok`);
      if (i % 4 === 0) out.push(`${ts} WARN git push with ${GH} failed for repo r${i}`);
      if (i % 5 === 0) out.push(`${ts} INFO aws key ${AWS_ID} region=us-east-${i % 2}`);
      if (i % 4 === 1) out.push(`${ts} INFO session token=${tokens[i % 15]} expired`);
      out.push(`${ts} DEBUG plain line ${i} of the log`);
    }
    Deno.writeTextFileSync(join(dir, "s.log"), out.join("\n") + "\n");
    const secrets = ["hunter2", GH, GH.slice(4), AWS_ID, AWS_ID.slice(4), ...tokens];
    const clean = (what: string, x: unknown) => {
      const j = JSON.stringify(x);
      for (const sec of secrets) assert.ok(!j.includes(sec), `${what} shows ${sec}`);
    };
    // Inline answers short, so that the templates spill to an artifact too.
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "500" });
    const p = await s.call("log_patterns", { file: "s.log", limit: 1 });
    assert.equal(p.isError, undefined, p.content[0].text);
    clean("log_patterns", p);
    const sc = p.structuredContent;
    assert.equal(sc.total_lines, lineCount(join(dir, "s.log")));
    assert.ok(sc.artifact, "more templates than the limit: an artifact");
    const all: Tpl[] = [];
    for (let offset = 0; offset < 1000;) {
      const a = await s.call("read_artifact", { artifact_id: sc.artifact.artifact_id, offset, limit: 200 });
      assert.equal(a.isError, undefined, a.content[0].text);
      clean("artifact", a);
      all.push(...a.structuredContent.lines.map((l: string) => JSON.parse(l)));
      if (a.structuredContent.next_offset === null) break;
      offset = a.structuredContent.next_offset;
    }
    assert.equal(all.reduce((a, t) => a + t.count, 0) + sc.other_lines, sc.total_lines);
    // A constant secret is part of its template, masked.
    const login = all.filter((t) => t.example.includes(" login user="));
    assert.equal(login.length, 1, JSON.stringify(login));
    assert.ok(login[0].template.includes("password=***"), login[0].template);
    assert.equal(login[0].count, out.filter((l) => l.includes("password=hunter2")).length);
    const push = all.filter((t) => t.example.includes(" git push with "));
    assert.equal(push.length, 1);
    assert.ok(push[0].template.includes("ghp_***"), push[0].template);
    assert.equal(push[0].count, out.filter((l) => l.includes(GH)).length);
    for (const t of all) {
      const q = await s.call("log_search", { file: "s.log", template_id: t.template_id, limit: 5000 });
      assert.equal(q.isError, undefined, q.content[0].text);
      clean(`search ${t.template}`, q);
      // With LOGPEEK_INLINE_CHARS=500 the lines may spill: their count is the template's anyway.
      assert.equal(q.structuredContent.template.count, t.count);
      if (q.structuredContent.artifact) {
        const a = await s.call("read_artifact", {
          artifact_id: q.structuredContent.artifact.artifact_id,
          limit: 200,
        });
        clean(`search artifact ${t.template}`, a);
      }
    }
    // A baseline of other secrets (templates only there are "gone": their examples come from it).
    const ts0 = Date.UTC(2024, 4, 1, 8);
    Deno.writeTextFileSync(
      join(dir, "old.log"),
      Array.from({ length: 30 }, (_, i) => `${iso(ts0 + i * 1000)} INFO deploy with ${GH} as ${AWS_ID}\n`)
        .join(""),
    );
    const b = await s.call("log_patterns", { file: "s.log", baseline_file: "old.log", limit: 100 });
    assert.equal(b.isError, undefined, b.content[0].text);
    clean("baseline", b);
    // With LOGPEEK_INLINE_CHARS=500 few templates fit the answer (issue #24): the rest are in the artifact.
    const every: Tpl[] = [...b.structuredContent.templates];
    if (b.structuredContent.artifact) {
      every.length = 0;
      for (let offset: number | null = 0; offset !== null;) {
        const a = await s.call("read_artifact", {
          artifact_id: b.structuredContent.artifact.artifact_id,
          offset,
          limit: 200,
        });
        clean("baseline artifact", a);
        every.push(...a.structuredContent.lines.map((l: string) => JSON.parse(l)));
        offset = a.structuredContent.next_offset;
      }
    }
    const gone = every.filter((t) => t.change === "gone");
    assert.ok(gone.length >= 1 && gone.every((t) => t.example.includes("ghp_***")), JSON.stringify(gone));
    // The check itself sees a secret where one is shown: a server run with --no-redact shows them.
    await using raw = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    const shown = await raw.call("log_patterns", { file: "s.log", limit: 100 });
    assert.throws(() => clean("--no-redact", shown), /shows hunter2/);
  },
});

Deno.test({
  name: "e2e: bad arguments: text with template_id, neither, regex with it, an unknown id, limits 0 and 1001",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-patterns-bad-");
    Deno.writeTextFileSync(join(dir, "b.log"), busyLog(3000, Date.UTC(2024, 4, 1)));
    await using s = await connect([dir], WHOLE);
    const sc = await patterns(s, { file: "b.log" });
    const id = (sc.templates as Tpl[])[0].template_id;
    const err = async (tool: string, args: Record<string, unknown>, re: RegExp) => {
      const r = await s.call(tool, args);
      assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}`);
      assert.match(r.content[0].text, re, `${tool} ${JSON.stringify(args)}`);
      assert.doesNotMatch(r.content[0].text, /internal_error/);
    };
    await err("log_search", { file: "b.log", text: "INFO", template_id: id }, /^invalid_argument: /);
    await err("log_search", { file: "b.log" }, /^invalid_argument: /);
    await err("log_search", { file: "b.log", template_id: id, regex: true }, /^invalid_argument: /);
    await err("log_search", { file: "b.log", template_id: id, context: 2 }, /^invalid_argument: /);
    await err("log_search", { file: "b.log", template_id: "0123456789abcdef" }, /^not_found: /);
    await err("log_search", { file: "b.log", template_id: id, level: "FATAL" }, /^not_found: /);
    await err("log_search", { file: "b.log", template_id: "xyz" }, /template_id/);
    for (const limit of [0, 1001, 2.5]) await err("log_patterns", { file: "b.log", limit }, /limit/);
    // A search by template pages by its own cursor: the pages are the one answer, none lost or repeated.
    const t = (sc.templates as Tpl[]).find((x) => x.count > 250)!;
    assert.ok(t, "a template of more than 250 lines");
    const whole = await byTemplate(s, { file: "b.log", template_id: t.template_id });
    const paged: Match[] = [];
    let cursor: string | undefined;
    for (let k = 0; k < 100; k++) {
      const r = await s.call("log_search", { file: "b.log", template_id: t.template_id, limit: 100, cursor });
      assert.equal(r.isError, undefined, r.content[0].text);
      paged.push(...r.structuredContent.matches);
      cursor = r.structuredContent.next_cursor ?? undefined;
      if (!cursor) {
        assert.equal(r.structuredContent.complete, true);
        break;
      }
      assert.equal(r.structuredContent.stop_reason, "limit");
    }
    assert.deepEqual(paged, whole.matches);
    assert.equal(paged.length, t.count);
    // Its cursor belongs to its template and file.
    const first = await s.call("log_search", { file: "b.log", template_id: t.template_id, limit: 1 });
    const other = (sc.templates as Tpl[]).find((x) => x.template_id !== t.template_id)!;
    await err(
      "log_search",
      { file: "b.log", template_id: other.template_id, cursor: first.structuredContent.next_cursor },
      /^invalid_cursor: /,
    );
    // A line of the template written between two pages: the count changed, said so.
    Deno.writeTextFileSync(join(dir, "b.log"), t.example + "\n", { append: true });
    await err(
      "log_search",
      { file: "b.log", template_id: t.template_id, limit: 1, cursor: first.structuredContent.next_cursor },
      /^file_changed: /,
    );
    const grown = await byTemplate(s, { file: "b.log", template_id: t.template_id });
    assert.equal(grown.matches.length, t.count + 1);
  },
});

Deno.test({
  name: "e2e: a line longer than LOGPEEK_MAX_LINE is counted; its template ends with <*>; its example is cut",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-patterns-long-");
    const r = prng(3);
    const out: string[] = [];
    const long: string[] = [];
    for (let i = 0; i < 40; i++) {
      const ts = iso(Date.UTC(2024, 4, 1, 9) + i * 1000);
      out.push(`${ts} INFO short line ${i}`);
      if (i % 8 === 0) {
        // 600 characters after the head, some of them two UTF-8 bytes: the cut is in code points.
        const body = Array.from({ length: 600 }, () => "abcdé0123"[Math.floor(r() * 9)]).join("");
        const l = `${ts} ERROR dump state=${body}`;
        out.push(l);
        long.push(l);
      }
    }
    Deno.writeTextFileSync(join(dir, "l.log"), out.join("\n") + "\n");
    await using s = await connect([dir], { ...WHOLE, LOGPEEK_MAX_LINE: "200" });
    const sc = await patterns(s, { file: "l.log", limit: 100 });
    checkSums(sc, "long lines");
    assert.equal(sc.total_lines, lineCount(join(dir, "l.log")));
    const dumps = (sc.templates as Tpl[]).filter((t) => t.example.includes(" ERROR dump state="));
    assert.equal(dumps.reduce((a, t) => a + t.count, 0), long.length, "every long line counted");
    const cut = (l: string) => [...l].slice(0, 200).join("");
    for (const t of dumps) {
      assert.ok(t.template.endsWith("<*>"), t.template);
      assert.ok([...t.example].length <= 200, `example of ${[...t.example].length} characters`);
      assert.equal(
        t.example,
        cut(long.find((l) => cut(l) === t.example) ?? ""),
        "the example is a line's start",
      );
      const { matches } = await byTemplate(s, { file: "l.log", template_id: t.template_id });
      assert.equal(matches.length, t.count);
      const re = templateRe(t.template);
      for (const m of matches) {
        const full = out[m.line_no! - 1];
        assert.equal(m.cut, true);
        assert.equal(m.text, cut(full));
        assert.ok(re.matches(full), "the whole line matches its template");
        assert.ok(re.matches(m.text), "its shown start too");
      }
    }
  },
});

Deno.test({
  name: "e2e: a window on a big time-ordered log is entered by a seek: the window's lines, no line numbers",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-patterns-seek-");
    const t0 = Date.UTC(2024, 2, 1);
    const lines: string[] = [];
    const times: number[] = [];
    for (let i = 0; i < 200_000; i++) {
      const tm = t0 + i * 1000;
      lines.push(
        `${iso(tm)} ${i % 13 ? "INFO" : "ERROR"} worker-${i % 5} handled request ${i} in ${i % 97} ms`,
      );
      times.push(tm);
      if (i % 7 === 0) {
        lines.push(`\tat com.example.Worker.run(Worker.java:${i % 300})`, "\t... 12 more");
        times.push(tm, tm);
      }
    }
    const path = join(dir, "big.log");
    Deno.writeTextFileSync(path, lines.join("\n") + "\n"); // 12 MB: more than a log read whole (8 MiB)
    assert.equal(lineCount(path), lines.length);
    const since = times[Math.floor(times.length * 0.99)];
    const until = times[Math.floor(times.length * 0.995)];
    const want = times.map((tm, i) => (tm >= since && tm < until ? i : -1)).filter((i) => i >= 0);
    await using s = await connect([dir], WHOLE);
    const win = { since: iso(since), until: iso(until) };
    const sc = await patterns(s, { file: "big.log", ...win, limit: 1000 });
    checkSums(sc, "seek");
    assert.equal(sc.time_order, "seek");
    assert.ok(sc.scanned_bytes < Deno.statSync(path).size * 0.1, `${sc.scanned_bytes} bytes read`);
    assert.equal(sc.total_lines, want.length);
    for (const t of sc.templates as Tpl[]) {
      assert.deepEqual([t.first_line_no, t.last_line_no], [null, null], "no line numbers after a seek");
    }
    // The ERROR lines of the window by level, and every template's lines by id: the window's lines.
    const errors = await patterns(s, { file: "big.log", ...win, level: "ERROR", limit: 1000 });
    // A frame (`\tat …`, `\t... 12 more`) is its entry's: the nearest line before it that is no frame.
    const entryOf = (i: number) => {
      while (i > 0 && lines[i].startsWith("\t")) i--;
      return lines[i];
    };
    assert.equal(errors.total_lines, want.filter((i) => / ERROR /.test(entryOf(i))).length);
    await checkPartition([s], "big.log", win, sc.templates, lines, want, "seek");
    const one = await byTemplate(s, { file: "big.log", template_id: sc.templates[0].template_id, ...win });
    assert.ok(one.matches.length > 0 && one.matches.every((m) => m.line_no === null));
  },
});

Deno.test({
  name: "e2e: 200,000 all-different lines mined whole within the default budget, every line counted",
  ...opts,
  async fn() {
    // Lines of random words share no template: each starts one until the cap (5000), the rest are
    // other_lines. Before issue #22 each such line was compared with the thousands of templates of its
    // tree leaf: 200,000 lines took over 45 s, past the default LOGPEEK_PATTERNS_MS of 30 s.
    const dir = tempDir("logpeek-patterns-distinct-");
    const r = prng(22);
    const word = () => {
      let w = "";
      for (let k = 3 + Math.floor(r() * 7); k > 0; k--) w += String.fromCharCode(97 + Math.floor(r() * 26));
      return w;
    };
    const lines = Array.from({ length: 200_000 }, () => Array.from({ length: 7 }, word).join(" "));
    assert.equal(new Set(lines).size, lines.length, "the lines are all different");
    Deno.writeTextFileSync(join(dir, "d.log"), lines.join("\n") + "\n");
    const n = lineCount(join(dir, "d.log"));
    assert.equal(n, 200_000);
    await using s = await connect([dir], WHOLE, [], { lines: true });
    const sc = await patterns(s, { file: "d.log", limit: 1000 });
    assert.equal(sc.complete, true, `stop_reason ${sc.stop_reason} after ${sc.total_lines} lines`);
    assert.equal(sc.total_lines, n);
    // No digit, nothing masked, no two lines alike: 5000 templates, the first 5000 lines, each once.
    // Listed most frequent first, ties by first line: the first 1000 lines; the top count is 1, so every
    // template's is, and the lines under none are the rest.
    assert.equal(sc.distinct_templates, 5000);
    const ts: Tpl[] = sc.templates;
    assert.deepEqual(
      ts.map((t) => [t.first_line_no, t.template, t.count, t.example]),
      lines.slice(0, 1000).map((l, i) => [i + 1, l, 1, l]),
    );
    assert.equal(sc.other_lines, n - 5000);
  },
});

Deno.test({
  name:
    "e2e: log_patterns over a glob with a window: a log with no timestamp is NOT complete (no_timestamps)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const d = Deno.makeTempDirSync({ prefix: "logpeek-untimed-" });
    const timed = Array.from({ length: 10 }, (_, i) => `2026-12-01 10:0${i}:00 INFO step ${i % 3}`);
    Deno.writeTextFileSync(`${d}/timed.log`, timed.join("\n") + "\n");
    Deno.writeTextFileSync(`${d}/untimed.log`, "INFO:root:step 1\nINFO:root:step 2\n");
    await using s = await connect([d]);
    const r = await s.call("log_patterns", {
      file: "*.log",
      since: "2026-12-01T10:02:00Z",
      until: "2026-12-01T10:04:00Z",
    });
    const sc = r.structuredContent;
    const byFile = Object.fromEntries(sc.logs.map((l: { file: string }) => [l.file, l]));
    assert.deepEqual([byFile["untimed.log"].complete, byFile["untimed.log"].stop_reason], [
      false,
      "no_timestamps",
    ]);
    assert.deepEqual([byFile["timed.log"].complete, byFile["timed.log"].stop_reason], [true, null]);
    assert.equal(sc.complete, false);
    // The timed log's lines in the window, as grep counts them (10:02 and 10:03; until is exclusive).
    const grep = new Deno.Command("grep", {
      args: ["-c", "^2026-12-01 10:0[23]:", `${d}/timed.log`],
      stdout: "piped",
    })
      .outputSync();
    const mined = sc.templates.reduce((n: number, t: { count: number }) => n + t.count, 0);
    assert.equal(mined, Number(new TextDecoder().decode(grep.stdout).trim()));
  },
});
