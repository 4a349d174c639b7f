/**
 * Time windows end to end (issue #12), through the real client: `since`/`until` on `log_search`,
 * `log_levels` and `log_tail` over the seven Loghub logs, each line's true time taken from its CSV's
 * `Date`/`Time` columns (never from logpeek); a seek on a time-ordered log, checked against a plain
 * split of the file; the errors.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connect, textFor } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";
import { sharedDir } from "./shared_dir.ts";
import { csvTimes, LOGHUB, trueLevels } from "./loghub_truth.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
/** Whole answers inline (none spilled to an artifact), so that every match is in structuredContent. */
const WHOLE = { LOGPEEK_INLINE_CHARS: "100000000" };
const iso = (ms: number) => new Date(ms).toISOString();

const SHARED_0 = sharedDir("time windows over the Loghub logs");
Deno.test({
  ignore: SHARED_0 === null,
  name: "e2e: since/until on the Loghub logs: the lines, level counts and tail the CSVs' times give",
  ...opts,
  async fn(t) {
    const shared = SHARED_0!;
    const src = join(shared, "corpus", "loghub");
    const dir = tempDir("logpeek-window-");
    for (const name of LOGHUB) {
      Deno.copyFileSync(join(src, `${name}_2k.log`), join(dir, `${name}.log`));
    }
    // The year of the year-less syslog lines: the one that puts them before the file's modified time.
    Deno.utimeSync(
      join(dir, "Linux.log"),
      new Date("2005-08-01T00:00:00Z"),
      new Date("2005-08-01T00:00:00Z"),
    );
    Deno.utimeSync(
      join(dir, "OpenSSH.log"),
      new Date("2005-12-11T00:00:00Z"),
      new Date("2005-12-11T00:00:00Z"),
    );
    await using s = await connect([dir], WHOLE, [], { args: ["--no-redact"] });
    for (const name of LOGHUB) {
      await t.step(name, async () => {
        const times = csvTimes(src, name);
        const levels = trueLevels(src, name);
        // As shown: without the line end, cut at LOGPEEK_MAX_LINE (1000) characters.
        const lines = Deno.readTextFileSync(join(src, `${name}_2k.log`)).split("\n").map((l) =>
          [...l.replace(/\r$/, "")].slice(0, 1000).join("")
        );
        for (const [a, b] of [[0, 2000], [300, 900], [1200, 2000], [1990, 2000], [700, 701]]) {
          const sorted = [...times].sort((x, y) => x - y);
          const since = sorted[a];
          // until after since (several lines may share a second): the first time past since from index b.
          const later = sorted.slice(b).find((x) => x > since);
          const until = b < 2000 && later !== undefined ? later : Infinity;
          const args: Record<string, unknown> = { file: `${name}.log`, since: iso(since) };
          if (until !== Infinity) args.until = iso(until);
          const want = times.map((tm, i) => (tm >= since && tm < until ? i : -1)).filter((i) => i >= 0);
          const r = await s.call("log_search", { ...args, text: ".", regex: true, limit: 5000 });
          assert.equal(r.isError, undefined, r.content[0].text);
          const sc = r.structuredContent;
          assert.equal(sc.complete, true, `${name} ${a}..${b}: ${r.content[0].text.slice(0, 300)}`);
          assert.deepEqual(
            sc.matches.map((m: { text: string }) => m.text),
            want.map((i) => lines[i]),
            `${name} ${a}..${b}: ${sc.time_order}`,
          );
          if (sc.time_order !== "seek") {
            assert.deepEqual(sc.matches.map((m: { line_no: number }) => m.line_no), want.map((i) => i + 1));
          } else assert.ok(sc.matches.every((m: { line_no: number | null }) => m.line_no === null));
          assert.equal(sc.window.zone, "UTC");
          if (want.length) {
            assert.ok(Date.parse(sc.first_time) <= Math.min(...want.map((i) => times[i])), sc.first_time);
            assert.ok(Date.parse(sc.last_time) >= Math.max(...want.map((i) => times[i])), sc.last_time);
          }
          if (name === "Zookeeper" && a > 0) assert.equal(sc.time_order, "out_of_order");
          const l = await s.call("log_levels", args);
          assert.equal(l.isError, undefined, l.content[0].text);
          const counts: Record<string, number> = {};
          for (const i of want) counts[levels[i]] = (counts[levels[i]] ?? 0) + 1;
          for (const [lv, n] of Object.entries(l.structuredContent.counts)) {
            if (n || counts[lv]) assert.equal(n, counts[lv] ?? 0, `${name} ${a}..${b} ${lv}`);
          }
          assert.equal(l.structuredContent.total_lines, want.length);
          const tail = await s.call("log_tail", { ...args, lines: 5 });
          assert.equal(tail.isError, undefined, tail.content[0].text);
          assert.deepEqual(
            tail.structuredContent.lines.map((x: { text: string }) => x.text),
            want.slice(-5).map((i) => lines[i]),
            `${name} ${a}..${b} tail`,
          );
        }
      });
    }
  },
});

/** A time-ordered log: `n` lines a second apart from `t0`, every 7th followed by two untimed lines. */
function orderedLog(path: string, n: number, t0: number): { times: number[]; lines: string[] } {
  const lines: string[] = [];
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const tm = t0 + i * 1000;
    lines.push(
      `${iso(tm)} ${i % 13 === 0 ? "ERROR" : "INFO"} worker-${i % 5} handled request ${i} in ${i % 97} ms`,
    );
    times.push(tm);
    if (i % 7 === 0) {
      lines.push(`\tat com.example.Worker.run(Worker.java:${i % 300})`, "\t... 12 more");
      times.push(tm, tm);
    }
  }
  Deno.writeTextFileSync(path, lines.join("\n") + "\n");
  return { times, lines };
}

Deno.test({
  name: "e2e: a window on a time-ordered log is entered by a seek: few bytes read, the lines of a full scan",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-seek-");
    const t0 = Date.UTC(2024, 2, 1);
    const { times, lines } = orderedLog(join(dir, "app.log"), 200_000, t0);
    const size = Deno.statSync(join(dir, "app.log")).size;
    await using s = await connect([dir], WHOLE);
    const since = times[Math.floor(times.length * 0.99)];
    const want = lines.filter((_, i) => times[i] >= since);
    const r = await s.call("log_search", {
      file: "app.log",
      text: "request",
      since: iso(since),
      limit: 5000,
    });
    const sc = r.structuredContent;
    assert.equal(sc.complete, true, r.content[0].text);
    assert.equal(sc.time_order, "seek");
    assert.deepEqual(
      sc.matches.map((m: { text: string }) => m.text),
      want.filter((l) => l.includes("request")),
    );
    assert.ok(sc.matches.every((m: { line_no: number | null }) => m.line_no === null));
    // 1% of the file, and the probes (64 KiB windows at most, a few dozen): far less than a full read.
    assert.ok(sc.scanned_bytes < size * 0.1, `${sc.scanned_bytes} of ${size}`);
    // Paged 500 at a time from a seek: the pages add up to the one answer, none lost, none repeated.
    const paged: string[] = [];
    let cursor: string | undefined;
    for (let k = 0; k < 100; k++) {
      const p = await s.call("log_search", {
        file: "app.log",
        text: "request",
        since: iso(since),
        limit: 500,
        cursor,
      });
      assert.equal(p.isError, undefined, p.content[0].text);
      paged.push(
        ...p.structuredContent.matches.map((m: { text: string; line_no: null }) => `${m.line_no}:${m.text}`),
      );
      cursor = p.structuredContent.next_cursor ?? undefined;
      if (!cursor) break;
    }
    assert.deepEqual(paged, want.filter((l) => l.includes("request")).map((l) => `null:${l}`));
    // The same window with context: the untimed stack lines after a match are its context.
    const c = await s.call("log_search", {
      file: "app.log",
      text: "ERROR",
      since: iso(since),
      context: 2,
      limit: 3,
    });
    const first = c.structuredContent.matches[0];
    const at = lines.indexOf(first.text);
    assert.deepEqual(first.after.map((x: { text: string }) => x.text), lines.slice(at + 1, at + 3));
    // Counting by level in the window agrees with the split.
    const l = await s.call("log_levels", { file: "app.log", since: iso(since) });
    // An ERROR entry's `\tat …` lines are counted under ERROR too (issue #23), apart in `entries`.
    const entryOf = (i: number) => {
      while (lines[i].startsWith("\t")) i--;
      return lines[i];
    };
    const first0 = lines.length - want.length;
    assert.deepEqual(
      [l.structuredContent.entries.ERROR, l.structuredContent.counts.ERROR],
      [
        want.filter((x) => / ERROR /.test(x)).length,
        want.filter((_, k) => / ERROR /.test(entryOf(first0 + k))).length,
      ],
    );
    assert.equal(l.structuredContent.last_line, null);
    // until: the scan reads on to the end (a clock that steps back later would be seen), exact.
    const until = times[Math.floor(times.length * 0.02)];
    const u = await s.call("log_search", {
      file: "app.log",
      text: "request",
      until: iso(until),
      limit: 5000,
    });
    assert.equal(u.structuredContent.complete, true);
    assert.deepEqual(
      u.structuredContent.matches.map((m: { line_no: number }) => m.line_no),
      lines.map((x, i) => (times[i] < until && x.includes("request") ? i + 1 : 0)).filter((i) => i > 0),
    );
    assert.equal(u.structuredContent.scanned_bytes, size);
    assert.equal(u.structuredContent.time_order, "in_order");
  },
});

Deno.test({
  name: "e2e: a window's cursor keeps its instants (-15m does not move) and pages add up to one answer",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-rel-");
    const now = Date.now();
    // One line a minute for an hour, each 30 s off the minute, so no line sits on the window's edge.
    const times = Array.from({ length: 60 }, (_, i) => now - (60 - i) * 60_000 + 30_000);
    Deno.writeTextFileSync(join(dir, "r.log"), times.map((tm, i) => `${iso(tm)} WARN tick ${i}\n`).join(""));
    await using s = await connect([dir], WHOLE);
    const want = times.map((tm, i) => (tm >= now - 15 * 60_000 ? `tick ${i}` : "")).filter((x) => x);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const r = await s.call("log_search", { file: "r.log", text: "tick", since: "-15m", limit: 4, cursor });
      assert.equal(r.isError, undefined, r.content[0].text);
      seen.push(...r.structuredContent.matches.map((m: { text: string }) => m.text.replace(/^.* WARN /, "")));
      cursor = r.structuredContent.next_cursor ?? undefined;
      if (!cursor) break;
    }
    assert.deepEqual(seen, want);
    // A cursor of this window is refused for another window.
    const r1 = await s.call("log_search", { file: "r.log", text: "tick", since: "-15m", limit: 1 });
    const other = await s.call("log_search", {
      file: "r.log",
      text: "tick",
      since: "-16m",
      limit: 1,
      cursor: r1.structuredContent.next_cursor,
    });
    assert.equal(other.isError, true);
    assert.match(other.content[0].text, /^invalid_cursor/);
  },
});

Deno.test({
  name: "e2e: a window over lines with no timestamp is an explained error; a bad instant too",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-notime-");
    Deno.writeTextFileSync(join(dir, "plain.log"), "starting\nERROR something broke\ndone\n");
    await using s = await connect([dir], WHOLE);
    for (const tool of ["log_search", "log_levels", "log_tail"]) {
      const r = await s.call(tool, {
        file: "plain.log",
        ...textFor(tool, "ERROR"),
        since: "2024-01-01T00:00:00Z",
      });
      assert.equal(r.isError, true, tool);
      assert.match(r.content[0].text, /^no_timestamps: no timestamp could be read in the \d+ line/, tool);
    }
    const bad = await s.call("log_search", { file: "plain.log", text: "x", since: "yesterday-ish" });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /^invalid_time: since: /);
    const empty = await s.call("log_search", {
      file: "plain.log",
      text: "x",
      since: "2024-01-02T00:00:00Z",
      until: "2024-01-01T00:00:00Z",
    });
    assert.match(empty.content[0].text, /^invalid_time: the window is empty/);
  },
});

Deno.test({
  name:
    "e2e: times out of order after a seek: the first page reads again from the start; a later page says so",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-disorder-");
    const t0 = Date.UTC(2024, 2, 1);
    const n = 250_000; // 12 MB: more than a log read whole without a seek (8 MiB)
    const times = Array.from({ length: n }, (_, i) => t0 + i * 1000);
    const since = times[n - 1000];
    // Line 6 (index 5) is stamped inside the window, far ahead of its neighbours; 200 lines before the end
    // a line goes back an hour: the order rule is broken twice, once where no seek looks.
    times[5] = since + 10_000;
    times[n - 200] = times[n - 200] - 3_600_000;
    const lines = times.map((tm, i) => `${iso(tm)} INFO request ${i} done`);
    Deno.writeTextFileSync(join(dir, "d.log"), lines.join("\n") + "\n");
    await using s = await connect([dir], WHOLE);
    const want = lines.filter((_, i) => times[i] >= since);
    const r = await s.call("log_search", { file: "d.log", text: "request", since: iso(since), limit: 5000 });
    const sc = r.structuredContent;
    assert.equal(sc.time_order, "out_of_order", r.content[0].text.slice(0, 400));
    assert.equal(sc.complete, true);
    assert.deepEqual(sc.matches.map((m: { text: string }) => m.text), want);
    assert.equal(sc.matches[0].line_no, 6); // read from the start again: numbers known
    // Paged 100 at a time: the first pages come from the seek; the page that meets the hour going back
    // cannot read again what the pages before returned: it says the answer is not complete.
    let cursor: string | undefined;
    let last;
    for (let k = 0; k < 50; k++) {
      last = await s.call("log_search", {
        file: "d.log",
        text: "request",
        since: iso(since),
        limit: 100,
        cursor,
      });
      cursor = last.structuredContent.next_cursor ?? undefined;
      if (!cursor) break;
    }
    assert.equal(last!.structuredContent.complete, false);
    assert.match(last!.content[0].text, /Timestamps went out of order after the first page entered the log/);
  },
});

Deno.test({
  name: "e2e: a line stamped back into the window long after until is seen: the window stays exact",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-stepback-");
    const t0 = Date.UTC(2024, 9, 27, 0, 0, 0);
    // 300,000 lines a second apart (14 MB); line 290,001 is stamped back into the window (a host whose
    // clock was reset; a trial found a stop at until + W hid such a line).
    const times = Array.from({ length: 300_000 }, (_, i) => t0 + i * 1000);
    const since = t0 + 150_000 * 1000, until = since + 600_000;
    times[290_000] = since + 10_000;
    const lines = times.map((tm, i) => `${iso(tm)} INFO tick ${i}`);
    Deno.writeTextFileSync(join(dir, "s.log"), lines.join("\n") + "\n");
    await using s = await connect([dir], WHOLE);
    const want = times.filter((tm) => tm >= since && tm < until).length;
    assert.equal(want, 601);
    const l = await s.call("log_levels", { file: "s.log", since: iso(since), until: iso(until) });
    assert.equal(l.isError, undefined, l.content[0].text);
    assert.deepEqual(
      [l.structuredContent.total_lines, l.structuredContent.complete, l.structuredContent.time_order],
      [want, true, "out_of_order"],
    );
    const r = await s.call("log_search", {
      file: "s.log",
      text: "tick",
      since: iso(since),
      until: iso(until),
      limit: 5000,
    });
    assert.deepEqual(r.structuredContent.matches.map((m: { line_no: number }) => m.line_no).slice(-2), [
      150_600,
      290_001,
    ]);
  },
});

Deno.test({
  name: "e2e: an instant outside the years RFC 3339 writes is invalid_time, not a strange window",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-far-");
    Deno.writeTextFileSync(join(dir, "f.log"), "2024-05-01T10:00:00Z INFO x\n");
    await using s = await connect([dir]);
    const r = await s.call("log_levels", { file: "f.log", since: "-99999999d" });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /^invalid_time: since: '-99999999d' is outside the years 0000\.\.9999/);
  },
});

Deno.test({
  name:
    "e2e: zone-less times across a DST fall-back (LOGPEEK_TZ) are read whole, not seeked: the repeated hour is exact",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-dst-");
    // 2024-11-03 in New York: 01:00-01:59 local happens twice. One line every 100 ms from 00:00 to 03:00
    // local time, zone-less, padded to be over 8 MiB (a log that size is otherwise entered by a seek).
    const start = Date.UTC(2024, 10, 3, 4, 0, 0); // 00:00 EDT
    const lines: string[] = [];
    for (let ms = start; ms < start + 4 * 3600_000; ms += 100) {
      const local = new Date(ms + (ms < Date.UTC(2024, 10, 3, 6) ? -4 : -5) * 3600_000).toISOString();
      lines.push(`${local.slice(0, 10)} ${local.slice(11, 23)} INFO tick ${ms} ${"x".repeat(30)}`);
    }
    Deno.writeTextFileSync(join(dir, "ny.log"), lines.join("\n") + "\n");
    assert.ok(Deno.statSync(join(dir, "ny.log")).size > 8 * 1024 * 1024);
    await using s = await connect([dir], { ...WHOLE, LOGPEEK_TZ: "America/New_York" });
    // By logpeek's rule a repeated local time is the earlier instant (EDT): 01:30-01:45 is 05:30-05:45Z,
    // and both passes of the hour fall in it.
    const want = lines.filter((l) => l.slice(11, 16) >= "01:30" && l.slice(11, 16) < "01:45").length;
    const r = await s.call("log_levels", {
      file: "ny.log",
      since: "2024-11-03T01:30:00",
      until: "2024-11-03T01:45:00",
    });
    assert.equal(r.isError, undefined, r.content[0].text);
    assert.equal(r.structuredContent.total_lines, want);
    assert.equal(r.structuredContent.window.zone, "America/New_York");
    // A tail whose until is before every line is empty, not no_timestamps.
    const t = await s.call("log_tail", { file: "ny.log", until: "2001-01-01T00:00:00Z" });
    assert.equal(t.isError, undefined, t.content[0].text);
    assert.deepEqual(t.structuredContent.lines, []);
  },
});

Deno.test({
  name: "e2e: log_tail with since and until on a log within its window's bytes numbers its lines (grep -n)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const d = Deno.makeTempDirSync({ prefix: "logpeek-tailwin-" });
    const lines = Array.from(
      { length: 40 },
      (_, i) => `2026-12-01 10:${String(i).padStart(2, "0")}:00 INFO step ${i}`,
    );
    Deno.writeTextFileSync(`${d}/small.log`, lines.join("\n") + "\n");
    await using s = await connect([d]);
    const r = await s.call("log_tail", {
      file: "small.log",
      since: "2026-12-01T10:12:00Z",
      until: "2026-12-01T10:15:00Z",
    });
    const sc = r.structuredContent;
    const grep = new TextDecoder().decode(
      new Deno.Command("grep", { args: ["-n", "^2026-12-01 10:1[234]:", `${d}/small.log`], stdout: "piped" })
        .outputSync().stdout,
    ).trim().split("\n").map((l) => Number(l.split(":")[0]));
    assert.equal(sc.whole_file, true);
    assert.deepEqual(sc.lines.map((l: { line_no: number }) => l.line_no), grep);
    assert.deepEqual(grep, [13, 14, 15]);
  },
});
