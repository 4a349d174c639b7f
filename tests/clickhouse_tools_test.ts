/**
 * The four reading tools over a ClickHouse table (issue #14), through the MCP client against a real
 * server started here (`clickhouse_server.ts`; SKIP where it is not installed). The rows are made here, in
 * TypeScript, and loaded with `JSONEachRow` (not through logpeek's literals): every number an answer gives
 * is checked against these rows, counted here.
 */

import assert from "node:assert/strict";
import { NEEDS_CLICKHOUSE, READER_PASSWORD, startClickHouse } from "./clickhouse_server.ts";
import { connect } from "./mcp_client.ts";
import { FUZZ } from "./clickhouse_fuzz.ts";
import { allPages, text } from "./clickhouse_calls.ts";
import { BLOCK_ROWS } from "../src/source/clickhouse/http.ts";

/** One row as loaded. */
interface Row {
  time: number; // epoch seconds
  body: string;
  level: string;
  source: string;
}

/** The level each raw text folds to, written out here (not logpeek's table). */
const FOLD: Record<string, string> = {
  info: "INFO",
  INFO: "INFO",
  Information: "INFO",
  debug: "DEBUG",
  warning: "WARN",
  WARN: "WARN",
  err: "ERROR",
  ERROR: "ERROR",
  Critical: "FATAL",
  "": "UNKNOWN",
  weird: "UNKNOWN",
  " info": "UNKNOWN",
};
const RAW = Object.keys(FOLD);

const BASE = Date.UTC(2026, 10, 1) / 1000; // 2026-11-01T00:00:00Z

function rowsOf(n: number): Row[] {
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    const source = ["api", "db", "worker"][i % 3];
    const level = RAW[Math.floor(rnd() * RAW.length)];
    let body = `request ${i} path=/v1/items/${i % 97} took ${Math.floor(rnd() * 900)}ms`;
    if (i % 1000 === 17) body = `checksum mismatch on block ${i}`;
    if (i % 250 === 3) body = `login ok user=u${i} password=hunter2x${i % 10}`;
    if (i % 500 === 7) body = `fuzz ${FUZZ[(i / 500 | 0) % FUZZ.length]} here`;
    rows.push({ time: BASE + Math.floor(i / 7), body, level, source });
  }
  // Ten rows equal in every column (a retried write), and three more at the same second with another body.
  for (let k = 0; k < 10; k++) {
    rows.push({ time: BASE + 100, body: "twin event id=7", level: "info", source: "api" });
  }
  for (let k = 0; k < 3; k++) {
    rows.push({ time: BASE + 100, body: "twin event id=8", level: "info", source: "api" });
  }
  return rows;
}

function iso(sec: number): string {
  return new Date(sec * 1000).toISOString().replace("T", " ").slice(0, 19);
}

async function load(
  ch: { query(sql: string): Promise<{ status: number; body: string }> },
  table: string,
  rows: Row[],
) {
  const ok = async (sql: string) => {
    const r = await ch.query(sql);
    assert.equal(r.status, 200, `${sql.slice(0, 80)}: ${r.body}`);
  };
  await ok(
    `CREATE TABLE ${table} (Timestamp DateTime, Body String, SeverityText String, ServiceName String) ` +
      "ENGINE = MergeTree ORDER BY (ServiceName, Timestamp)",
  );
  for (let i = 0; i < rows.length; i += 50_000) {
    await ok(
      `INSERT INTO ${table} FORMAT JSONEachRow\n` +
        rows.slice(i, i + 50_000).map((r) =>
          JSON.stringify({
            Timestamp: iso(r.time),
            Body: r.body,
            SeverityText: r.level,
            ServiceName: r.source,
          })
        ).join("\n"),
    );
  }
}

Deno.test(
  "the tools over a ClickHouse table answer as over files, each number checked against the rows",
  NEEDS_CLICKHOUSE,
  async (t) => {
    await using ch = await startClickHouse("the ClickHouse backend's contract tests (issue #14)");
    if (!ch) return;
    const port = new URL(ch.url).port;
    assert.equal((await ch.query("CREATE DATABASE t")).status, 200);
    const rows = rowsOf(30_000);
    await load(ch, "t.gen", rows);
    await load(ch, "t.canary", [{ time: BASE, body: "canary", level: "info", source: "x" }]);
    const tablesBefore =
      (await ch.query("SELECT database, name FROM system.tables ORDER BY database, name")).body;
    const root = `clickhouse://127.0.0.1:${port}/t.gen`;
    // Every match in structuredContent (a long answer is otherwise spilled to an artifact).
    await using s = await connect([root], { LOGPEEK_INLINE_CHARS: "100000000" });
    const sources = ["api", "db", "worker"];

    await t.step("log_files: each source a log, its rows and its last time", async () => {
      const r = await s.call("log_files", {});
      assert.ok(!r.isError, text(r));
      const files = r.structuredContent.files;
      assert.deepEqual(files.map((f: { file: string }) => f.file), sources.map((x) => `gen/${x}`));
      for (const f of files) {
        const mine = rows.filter((x) => `gen/${x.source}` === f.file);
        assert.equal(f.rows, mine.length, f.file);
        assert.equal(f.size_bytes, null);
        assert.equal(f.modified, new Date(Math.max(...mine.map((x) => x.time)) * 1000).toISOString());
      }
      assert.equal(r.structuredContent.complete, true);
    });

    await t.step("log_levels: the stored level texts folded, per log and over a glob", async () => {
      for (const file of ["gen/db", "gen/*"]) {
        const r = await s.call("log_levels", { file });
        assert.ok(!r.isError, text(r));
        const mine = rows.filter((x) => file === "gen/*" || `gen/${x.source}` === file);
        const want: Record<string, number> = {};
        for (const x of mine) want[FOLD[x.level]] = (want[FOLD[x.level]] ?? 0) + 1;
        for (const [level, n] of Object.entries(r.structuredContent.counts)) {
          assert.equal(n, want[level] ?? 0, `${file} ${level}`);
        }
        assert.equal(r.structuredContent.total_lines, mine.length);
        assert.equal(r.structuredContent.complete, true);
        assert.equal(r.structuredContent.last_line, null);
      }
    });

    await t.step("log_levels in a window: since inclusive, until exclusive", async () => {
      const since = BASE + 1000, until = BASE + 2000;
      const r = await s.call("log_levels", {
        file: "gen/api",
        since: new Date(since * 1000).toISOString(),
        until: new Date(until * 1000).toISOString(),
      });
      const mine = rows.filter((x) => x.source === "api" && x.time >= since && x.time < until);
      assert.equal(r.structuredContent.total_lines, mine.length);
    });

    await t.step("log_tail: the last rows by time, oldest first, line_no null", async () => {
      const r = await s.call("log_tail", { file: "gen/worker", lines: 8 });
      assert.ok(!r.isError, text(r));
      const lines = r.structuredContent.lines;
      assert.equal(lines.length, 8);
      const mine = rows.filter((x) => x.source === "worker").sort((a, b) => a.time - b.time);
      const last = mine.slice(-8);
      // Times equal the last eight times; rows after the first of them are all there.
      const times = lines.map((l: { text: string }) => Date.parse(l.text.split(" ")[0]) / 1000);
      assert.deepEqual(times, last.map((x) => x.time));
      for (const l of lines) assert.equal(l.line_no, null);
      const bodies = lines.map((l: { text: string }) => l.text.slice(l.text.indexOf(" ", 21) + 1));
      for (const x of mine.filter((x) => x.time > last[0].time)) {
        assert.ok(
          bodies.some((b: string) => b.endsWith(x.body.replace(/password=\S+/, "password=***"))),
          x.body,
        );
      }
      assert.match(text(r), /a table has no line numbers/);
    });

    await t.step("log_search: a rare text over a glob, complete, each match a row", async () => {
      const r = await s.call("log_search", { file: "gen/*", text: "checksum mismatch", limit: 1000 });
      assert.ok(!r.isError, text(r));
      const want = rows.filter((x) => x.body.includes("checksum mismatch"));
      assert.equal(r.structuredContent.matches.length, want.length);
      assert.equal(r.structuredContent.complete, true);
      assert.equal(r.structuredContent.stop_reason, null);
      const got = r.structuredContent.matches.map((m: { text: string; file: string }) =>
        `${m.file} ${m.text}`
      )
        .sort();
      const exp = want.map((x) =>
        `gen/${x.source} ${new Date(x.time * 1000).toISOString().replace(".000", "")} ${
          x.level === "" ? "-" : x.level
        } ${x.body}`
      ).sort();
      assert.deepEqual(got, exp);
    });

    await t.step(
      "log_search pages: no row lost or repeated, equal rows and equal times included",
      async () => {
        for (
          const [args, pred] of [
            [
              { file: "gen/api", text: "twin event" },
              (x: Row) => x.source === "api" && x.body.includes("twin event"),
            ],
            [{ file: "gen/*", text: "path=/v1/items/5 " }, (x: Row) => x.body.includes("path=/v1/items/5 ")],
            [
              { file: "gen/*", text: "REQUEST 12", ignore_case: true },
              (x: Row) => x.body.toLowerCase().includes("request 12"),
            ],
            [
              { file: "gen/db", text: "took [0-9]+0ms", regex: true },
              (x: Row) => x.source === "db" && /took [0-9]+0ms/.test(x.body),
            ],
          ] as const
        ) {
          const want = rows.filter(pred);
          for (const limit of args.text === "twin event" ? [1, 3, 5000] : [7, 97]) {
            const { matches, pages } = await allPages((a) => s.call("log_search", a), { ...args, limit });
            assert.equal(matches.length, want.length, `${JSON.stringify(args)} limit ${limit}`);
            const got = matches.map((m) => m.text.replace(/^\S+ /, "")).sort();
            const exp = want.map((x) => `${x.level === "" ? "-" : x.level} ${x.body}`).sort();
            assert.deepEqual(got, exp);
            // In time order across pages.
            const times = matches.map((m) => Date.parse(m.text.split(" ")[0]));
            assert.ok(times.every((v, i) => i === 0 || v >= times[i - 1]));
            for (const p of pages.slice(0, -1)) {
              assert.equal(p.structuredContent.complete, false);
              assert.equal(p.structuredContent.stop_reason, "limit");
            }
            assert.equal(pages.at(-1)!.structuredContent.complete, true);
          }
        }
      },
    );

    await t.step("log_search with level and a window", async () => {
      const since = BASE + 500, until = BASE + 3500;
      const r = await s.call("log_search", {
        file: "gen/*",
        text: "request",
        level: "WARN",
        since: new Date(since * 1000).toISOString(),
        until: new Date(until * 1000).toISOString(),
        limit: 5000,
      });
      assert.ok(!r.isError, text(r));
      const want = rows.filter((x) =>
        x.body.includes("request") && FOLD[x.level] === "WARN" && x.time >= since && x.time < until
      );
      assert.equal(r.structuredContent.matches.length, want.length);
      assert.ok(r.structuredContent.matches.every((m: { level: string }) => m.level === "WARN"));
      assert.equal(
        r.structuredContent.window.since,
        new Date(since * 1000).toISOString().replace(".000Z", "Z"),
      );
      for (const level of ["UNKNOWN", "FATAL"]) {
        const u = await s.call("log_search", { file: "gen/*", text: "request 2", level, limit: 5000 });
        assert.equal(
          u.structuredContent.matches.length,
          rows.filter((x) => x.body.includes("request 2") && FOLD[x.level] === level).length,
          level,
        );
      }
    });

    await t.step("secrets: masked in every answer; a search for one finds nothing and says why", async () => {
      const tail = await s.call("log_search", { file: "gen/*", text: "login ok", limit: 5 });
      for (const m of tail.structuredContent.matches) assert.match(m.text, /password=\*\*\*$/);
      assert.doesNotMatch(text(tail), /hunter2x/);
      // As over files: a literal text is matched on the raw body (the row comes back masked), a pattern on
      // the text as shown.
      const lit = await s.call("log_search", { file: "gen/*", text: "hunter2x3", limit: 5000 });
      assert.equal(
        lit.structuredContent.matches.length,
        rows.filter((x) => x.body.includes("hunter2x3")).length,
      );
      for (const m of lit.structuredContent.matches) assert.doesNotMatch(m.text, /hunter2x/);
      const r = await s.call("log_search", { file: "gen/*", text: "hunter2x3", regex: true, limit: 50 });
      assert.equal(r.structuredContent.matches.length, 0);
      // No oracle: a pattern that matches a secret answers exactly as one that matches nothing.
      const none = await s.call("log_search", { file: "gen/*", text: "hunter2xZ", regex: true, limit: 50 });
      assert.equal(text(r).replace("hunter2x3", "P"), text(none).replace("hunter2xZ", "P"));
      assert.deepEqual(r.structuredContent, none.structuredContent); // scanned_bytes too (a second trial's)
      assert.equal(r.structuredContent.complete, true);
    });

    await t.step("a pattern with ignore_case, or a leading (?i), finds its rows on 18.16", async () => {
      const want = rows.filter((x) => /checksum mismatch/i.test(x.body)).length;
      for (
        const args of [{ text: "CHECKSUM MISMATCH", ignore_case: true }, { text: "(?i)CHECKSUM MIS.ATCH" }]
      ) {
        const r = await s.call("log_search", { file: "gen/*", regex: true, limit: 5000, ...args });
        assert.equal(r.structuredContent.matches.length, want, JSON.stringify(args));
      }
      const named = await s.call("log_search", { file: "gen/*", text: "(?<n>checksum)", regex: true });
      assert.match(text(named), /^invalid_pattern/);
      const glob = await s.call("log_search", { file: "gen/[", text: "x" });
      assert.match(text(glob), /^invalid_pattern: the glob/);
    });

    await t.step(
      "fuzz: quotes, backslashes, NUL, comments, braces and SQL find exactly their rows",
      async () => {
        for (const f of FUZZ) {
          for (const ignore_case of [false, true]) {
            const r = await s.call("log_search", { file: "gen/*", text: f, limit: 5000, ignore_case });
            assert.ok(!r.isError, `${JSON.stringify(f)}: ${text(r)}`);
            const want = rows.filter((x) =>
              ignore_case ? x.body.toLowerCase().includes(f.toLowerCase()) : x.body.includes(f)
            ).length;
            assert.equal(r.structuredContent.matches.length, want, JSON.stringify(f));
          }
          // As a pattern, each character escaped for RE2.
          const re = f.replace(/[\\^$.*+?()[\]{}|\/-]/g, "\\$&").replaceAll("\u0000", "\\x00");
          const r = await s.call("log_search", { file: "gen/*", text: re, regex: true, limit: 5000 });
          assert.ok(!r.isError, `${JSON.stringify(re)}: ${text(r)}`);
          assert.equal(r.structuredContent.matches.length, rows.filter((x) => x.body.includes(f)).length, re);
        }
        const canary = await ch.query("SELECT count() FROM t.canary");
        assert.equal(canary.body.trim(), "1");
        assert.equal(
          (await ch.query("SELECT database, name FROM system.tables ORDER BY database, name")).body,
          tablesBefore,
        );
      },
    );

    await t.step(
      "a cursor holds no hash of a raw row; a text's bytes read do not depend on other logs' rows",
      async () => {
        const a = await s.call("log_search", { file: "gen/api", text: "login ok", limit: 1 });
        const b = await s.call("log_search", { file: "gen/api", text: "login ok", limit: 1 });
        const payload = (c: string) =>
          JSON.parse(atob(c.split(".")[0].replaceAll("-", "+").replaceAll("_", "/")));
        const pa = payload(a.structuredContent.next_cursor), pb = payload(b.structuredContent.next_cursor);
        assert.deepEqual(a.structuredContent.matches, b.structuredContent.matches);
        assert.notEqual(pa.r.at.h, pb.r.at.h, "a new mask each cursor");
        const row = rows.find((x) => x.source === "api" && x.body.startsWith("login ok"))!;
        const raw = await ch.query(`SELECT toString(cityHash64('api', '${row.level}', '${row.body}'))`);
        assert.notEqual(pa.r.at.h, raw.body.trim());
        // Both cursors go on to the same next row.
        const na = await s.call("log_search", {
          file: "gen/api",
          text: "login ok",
          limit: 1,
          cursor: a.structuredContent.next_cursor,
        });
        const nb = await s.call("log_search", {
          file: "gen/api",
          text: "login ok",
          limit: 1,
          cursor: b.structuredContent.next_cursor,
        });
        assert.deepEqual(na.structuredContent.matches, nb.structuredContent.matches);
        assert.notDeepEqual(na.structuredContent.matches, a.structuredContent.matches);
        // A text only db's rows hold, searched in api, reads what a text no row holds reads.
        const dbOnly = rows.find((x) => x.source === "db" && x.body.startsWith("checksum mismatch"))!.body;
        assert.ok(!rows.some((x) => x.source === "api" && x.body.includes(dbOnly)));
        const other = await s.call("log_search", { file: "gen/api", text: dbOnly });
        const nothing = await s.call("log_search", { file: "gen/api", text: "no row holds this" });
        assert.equal(other.structuredContent.scanned_bytes, nothing.structuredContent.scanned_bytes);
      },
    );

    await t.step("a cursor of other arguments or another tool is refused", async () => {
      const r = await s.call("log_search", { file: "gen/*", text: "request", limit: 2 });
      const cursor = r.structuredContent.next_cursor;
      const other = await s.call("log_search", { file: "gen/*", text: "requesT", limit: 2, cursor });
      assert.equal(other.isError, true);
      assert.match(text(other), /^invalid_cursor/);
      const tool = await s.call("log_levels", { file: "gen/*", cursor });
      assert.match(text(tool), /^invalid_cursor/);
    });

    await t.step("what a table does not answer is said, as invalid_argument", async () => {
      for (
        const [tool, args] of [
          ["log_search", { file: "gen/api", text: "x", context: 2 }],
          ["log_patterns", { file: "gen/api" }],
          ["log_tail", { file: "gen/*" }],
        ] as const
      ) {
        const r = await s.call(tool, args);
        assert.equal(r.isError, true, tool);
        assert.match(text(r), /^invalid_argument/);
      }
      const nf = await s.call("log_search", { file: "gen/apj", text: "x" });
      assert.match(text(nf), /^not_found: .*closest: gen\/api/);
    });
  },
);

Deno.test(
  "over a ClickHouse table a byte budget cuts a search; its cursor finishes it exactly",
  NEEDS_CLICKHOUSE,
  async () => {
    await using ch = await startClickHouse("the ClickHouse byte budget (issue #14)");
    if (!ch) return;
    const port = new URL(ch.url).port;
    assert.equal((await ch.query("CREATE DATABASE t")).status, 200);
    const rows = rowsOf(600_000);
    await load(ch, "t.gen", rows);
    await using s = await connect([`clickhouse://127.0.0.1:${port}/t.gen`], {
      LOGPEEK_SEARCH_BYTES: "4000000",
      LOGPEEK_INLINE_CHARS: "100000000",
    });
    const want = rows.filter((x) => x.source === "db" && x.body.includes("took 1"));
    const { matches, pages } = await allPages((a) => s.call("log_search", a), {
      file: "gen/db",
      text: "took 1",
      limit: 5000,
    });
    const first = pages[0].structuredContent;
    assert.equal(first.complete, false);
    assert.equal(first.stop_reason, "size_budget");
    assert.match(text(pages[0]), /cut by ClickHouse at the byte budget/);
    assert.ok(pages.length > 2, `${pages.length} pages`);
    // ClickHouse's `break` is checked after each block, and each of its threads ends the block it reads: a
    // page reads at most its budget and one block per thread. What that is here is asked of the server
    // itself: the same columns of the same rows under a limit of 1 byte read exactly one block per thread.
    const inFlight = await ch.query(
      "SELECT Timestamp, ServiceName, SeverityText, Body FROM t.gen WHERE ServiceName IN ('db') " +
        "AND position(Body, 'took 1') > 0 FORMAT JSON",
      {
        max_bytes_to_read: 1,
        read_overflow_mode: "break",
        max_block_size: BLOCK_ROWS,
        optimize_move_to_prewhere: 0,
      },
    );
    const blocks = JSON.parse(inFlight.body).statistics.bytes_read;
    const scanned = pages.map((p) => p.structuredContent.scanned_bytes);
    console.error(`one block a thread: ${blocks} bytes; pages read ${scanned.slice(0, 8).join(", ")}, …`);
    assert.ok(blocks > 0 && blocks < 4_000_000, `${blocks}`);
    // A block of another span's rows may be a little larger than the first ones (longer bodies): 10%.
    const most = Math.max(...scanned);
    assert.ok(most <= 4_000_000 + blocks * 1.1, `a page read ${most} bytes, past 4000000 + ${blocks}`);
    assert.equal(pages.at(-1)!.structuredContent.complete, true);
    assert.equal(matches.length, want.length);
    assert.deepEqual(
      matches.map((m) => m.text).sort(),
      want.map((x) =>
        `${new Date(x.time * 1000).toISOString().replace(".000", "")} ${x.level || "-"} ${x.body}`
      ).sort(),
    );
    // A budget below what one instant's granules cost says so within a few pages, with no cursor (a second
    // trial's took 16 empty pages).
    await using tiny = await connect([`clickhouse://127.0.0.1:${port}/t.gen`], {
      LOGPEEK_SEARCH_BYTES: "100000",
    });
    const few = await allPages((a) => tiny.call("log_search", a), { file: "gen/*", text: "took 1" }, 10);
    const end = few.pages.at(-1)!.structuredContent;
    assert.equal(end.progress, false, text(few.pages.at(-1)!));
    assert.equal(end.complete, false);
    assert.equal(end.next_cursor, null);
    console.error(`a byte budget of 100000 ends after ${few.pages.length} pages, progress false`);
    // A level no row has (no stored text folds to NOTICE here), under the budget that cut the search above:
    // complete with no match (a third trial's never ended), with and without since.
    for (const since of [undefined, "2026-11-01T01:00:00Z"]) {
      const none = await allPages((a) => s.call("log_search", a), {
        file: "gen/*",
        text: "took",
        level: "NOTICE",
        ...(since ? { since } : {}),
      }, 50);
      assert.equal(none.matches.length, 0);
      assert.equal(none.pages.at(-1)!.structuredContent.complete, true, text(none.pages.at(-1)!));
    }
  },
);

Deno.test("over ClickHouse, errors are explained and never show the password", NEEDS_CLICKHOUSE, async () => {
  await using ch = await startClickHouse("the ClickHouse errors (issue #14)");
  if (!ch) return;
  const port = new URL(ch.url).port;
  assert.equal((await ch.query("CREATE DATABASE t")).status, 200);
  await load(ch, "t.gen", rowsOf(100));
  const cases: [string, Record<string, string>, RegExp][] = [
    [`clickhouse://127.0.0.1:${port}/t.gen`, {
      LOGPEEK_CLICKHOUSE_USER: "reader",
      LOGPEEK_CLICKHOUSE_PASSWORD: "wrong-pw-1",
    }, /^permission_denied: ClickHouse .* refused the user 'reader'/],
    [`clickhouse://127.0.0.1:${port}/t.nope`, {}, /^not_found: .*no table t\.nope/],
    [
      `clickhouse://127.0.0.1:${port}/t.gen`,
      { LOGPEEK_CLICKHOUSE_COLUMNS: "body=Message" },
      /^source_error: the table t\.gen has no column Message \(body\)/,
    ],
    [
      `clickhouse://127.0.0.1:1/t.gen`,
      {},
      /^source_unreachable: the ClickHouse server at 127\.0\.0\.1:1 did not answer/,
    ],
  ];
  for (const [root, env, re] of cases) {
    await using s = await connect([root], env);
    for (const [tool, args] of [["log_files", {}], ["log_search", { file: "gen/api", text: "x" }]] as const) {
      const r = await s.call(tool, args);
      assert.equal(r.isError, true, `${root} ${tool}`);
      assert.match(text(r), re);
      assert.doesNotMatch(text(r), /internal_error/);
    }
  }
  // The right password works, and is in no answer, stderr or trace.
  await using s = await connect([`clickhouse://reader@127.0.0.1:${port}/t.gen`], {
    LOGPEEK_CLICKHOUSE_PASSWORD: READER_PASSWORD,
  });
  const r = await s.call("log_levels", { file: "gen/*" });
  assert.ok(!r.isError, text(r));
  assert.equal(r.structuredContent.total_lines, 113); // 100, and 13 rows at one second
  const trace = Deno.readTextFileSync(`${s.stateDir}/traces/calls.jsonl`);
  for (const where of [trace, s.stderr(), text(r)]) assert.ok(!where.includes(READER_PASSWORD));
});

Deno.test(
  "over ClickHouse: windows beyond DateTime, a budget of 0, Nullable columns, an echoing server",
  NEEDS_CLICKHOUSE,
  async (t) => {
    await using ch = await startClickHouse("the ClickHouse edge cases (issue #14)");
    if (!ch) return;
    const port = new URL(ch.url).port;
    assert.equal((await ch.query("CREATE DATABASE t")).status, 200);
    const rows = rowsOf(3000);
    await load(ch, "t.gen", rows);
    const root = `clickhouse://127.0.0.1:${port}/t.gen`;

    await t.step(
      "a window before 1970 or after 2106 holds no row (18.16's toDateTime would wrap it)",
      async () => {
        await using s = await connect([root], {});
        for (
          const w of [{ until: "1969-12-31T23:59:59Z" }, { until: "1900-01-01T00:00:00Z" }, {
            since: "2106-02-07T06:28:16Z",
          }]
        ) {
          const lv = await s.call("log_levels", { file: "gen/*", ...w });
          assert.ok(!lv.isError, text(lv));
          assert.equal(lv.structuredContent.total_lines, 0, JSON.stringify(w));
          assert.equal(lv.structuredContent.complete, true);
          const sr = await s.call("log_search", { file: "gen/*", text: "request", ...w });
          assert.equal(sr.structuredContent.matches.length, 0, JSON.stringify(w));
          const tl = await s.call("log_tail", { file: "gen/api", ...w });
          assert.equal(tl.structuredContent.lines.length, 0, JSON.stringify(w));
        }
        // A window from before 1970 to after 2106 holds every row.
        const all = await s.call("log_levels", {
          file: "gen/*",
          since: "1900-01-01T00:00:00Z",
          until: "2200-01-01T00:00:00Z",
        });
        assert.equal(all.structuredContent.total_lines, rows.length);
      },
    );

    await t.step("a budget of 0 reads nothing and says so, with no cursor", async () => {
      await using s = await connect([root], { LOGPEEK_SEARCH_BYTES: "0" });
      const r = await s.call("log_search", { file: "gen/*", text: "request" });
      assert.ok(!r.isError, text(r));
      assert.equal(r.structuredContent.complete, false);
      assert.equal(r.structuredContent.stop_reason, "size_budget");
      assert.equal(r.structuredContent.progress, false);
      assert.equal(r.structuredContent.next_cursor, null);
      assert.equal(r.structuredContent.matches.length, 0);
      const tl = await s.call("log_tail", { file: "gen/api" });
      assert.match(text(tl), /^budget_exceeded/);
      // A budget of 1 ms is no budget of 0: naming the logs spends it, yet a query of a whole second runs.
      await using s1 = await connect([root], { LOGPEEK_SEARCH_MS: "1" });
      const one = await s1.call("log_search", { file: "gen/*", text: "checksum mismatch" });
      assert.equal(one.structuredContent.complete, true, text(one));
      assert.equal(
        one.structuredContent.matches.length,
        rows.filter((x) => x.body.includes("checksum mismatch")).length,
      );
      const tl1 = await s1.call("log_tail", { file: "gen/api", lines: 3 });
      assert.equal(tl1.structuredContent.lines.length, 3, text(tl1));
    });

    await t.step("Nullable text columns read as empty; a Nullable time is refused with why", async () => {
      const ok = async (sql: string) => assert.equal((await ch.query(sql)).status, 200, sql);
      await ok(
        "CREATE TABLE t.nul (Timestamp DateTime, Body Nullable(String), SeverityText Nullable(String), " +
          "ServiceName Nullable(String)) ENGINE = MergeTree ORDER BY Timestamp",
      );
      await ok(
        "INSERT INTO t.nul VALUES (1700000000, 'a', NULL, 'api'), (1700000001, NULL, 'warn', 'api'), " +
          "(1700000002, 'c', 'err', NULL)",
      );
      await ok(
        "CREATE TABLE t.nultime (Timestamp Nullable(DateTime), Body String, SeverityText String, ServiceName String) " +
          "ENGINE = Memory",
      );
      await using s = await connect([`clickhouse://127.0.0.1:${port}/t.nul`], {});
      const tl = await s.call("log_tail", { file: "nul/api" });
      assert.ok(!tl.isError, text(tl));
      assert.deepEqual(
        tl.structuredContent.lines.map((l: { level: string; text: string }) => [l.level, l.text]),
        [["UNKNOWN", "2023-11-14T22:13:20Z - a"], ["WARN", "2023-11-14T22:13:21Z warn "]],
      );
      const lv = await s.call("log_levels", { file: "nul/*" });
      assert.equal(lv.structuredContent.total_lines, 3);
      const files = await s.call("log_files", {});
      assert.deepEqual(files.structuredContent.files.map((f: { file: string }) => f.file), [
        "nul/",
        "nul/api",
      ]);
      const empty = await s.call("log_levels", { file: "nul/" });
      assert.equal(empty.structuredContent.counts.ERROR, 1, text(empty));
      await using s2 = await connect([`clickhouse://127.0.0.1:${port}/t.nultime`], {});
      const bad = await s2.call("log_files", {});
      assert.match(text(bad), /^source_error: the time column Timestamp .* is Nullable/);
    });

    await t.step("a source whose value holds a secret is listed masked and not served", async () => {
      const ok = async (sql: string) => assert.equal((await ch.query(sql)).status, 200, sql);
      await ok(
        "CREATE TABLE t.src (Timestamp DateTime, Body String, SeverityText String, ServiceName String) " +
          "ENGINE = MergeTree ORDER BY (ServiceName, Timestamp)",
      );
      await ok(
        "INSERT INTO t.src VALUES (1700000000, 'a', 'info', 'api'), (1700000001, 'b', 'info', 'x password=Src-Pw-91'), " +
          "(1700000002, 'c', 'info', 'AKIAWWWWWWWWWWWWWWWW'), (1700000003, 'd', 'info', 'AKIAZZZZZZZZZZZZZZZZ')",
      );
      await using s = await connect([`clickhouse://127.0.0.1:${port}/t.src`], {});
      const files = await s.call("log_files", {});
      assert.doesNotMatch(text(files), /Src-Pw-91/);
      const masked = files.structuredContent.files.find((f: { readable: boolean }) => !f.readable);
      assert.ok(masked, text(files));
      assert.match(masked.reason, /holds a secret/);
      // Two sources whose masked names are equal are one entry (a third trial's paging lost one); paging by
      // one lists every entry once.
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await s.call("log_files", { limit: 1, ...(cursor ? { cursor } : {}) });
        names.push(...page.structuredContent.files.map((f: { file: string }) => f.file));
        cursor = page.structuredContent.next_cursor ?? undefined;
      } while (cursor);
      assert.equal(names.length, new Set(names).size);
      assert.deepEqual(names, files.structuredContent.files.map((f: { file: string }) => f.file));
      const akia = files.structuredContent.files.find((f: { file: string }) => f.file.startsWith("src/AKIA"));
      assert.equal(akia.rows, 2);
      const all = await s.call("log_search", { file: "src/*", text: "b" });
      assert.equal(all.structuredContent.matches.length, 0, text(all));
      // Asking for it, or for a wrong guess, answers the same.
      const right = await s.call("log_tail", { file: "src/x password=Src-Pw-91" });
      const wrong = await s.call("log_tail", { file: "src/x password=Src-Pw-92" });
      assert.equal(text(right), text(wrong));
      assert.match(text(right), /^invalid_argument/);
    });

    await t.step("an answer without end is cut at 64 MiB, as source_error", async () => {
      const chunk = new Uint8Array(1 << 20).fill(0x41);
      const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
        new Response(
          new ReadableStream({
            pull(c) {
              c.enqueue(chunk);
            },
          }),
          { status: 200 },
        ));
      try {
        await using s = await connect([`clickhouse://127.0.0.1:${server.addr.port}/t.gen`], {});
        const r = await s.call("log_files", {});
        assert.match(text(r), /^source_error: the answer of 127\.0\.0\.1:\d+ passed 67108864 bytes/);
      } finally {
        await server.shutdown();
      }
    });

    await t.step(
      "a server that echoes the request: the password and its Basic form are in no answer",
      async () => {
        const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
          const headers = [...req.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
          // A proxy that echoes the request, and the password in other forms (a trial's).
          const pw = "Echo-Pw-77x";
          return new Response(
            `proxy error\n${headers}\n${btoa(pw)} ${pw.toUpperCase()} ${[...pw].join(" ")} ${
              encodeURIComponent(pw)
            }`,
            { status: 500 },
          );
        });
        try {
          const pw = "Echo-Pw-77x";
          await using s = await connect([`clickhouse://reader@127.0.0.1:${server.addr.port}/t.gen`], {
            LOGPEEK_CLICKHOUSE_PASSWORD: pw,
          });
          const r = await s.call("log_files", {});
          assert.equal(r.isError, true);
          const basic = btoa(`reader:${pw}`);
          assert.match(
            text(r),
            /^source_error: 127\.0\.0\.1:\d+ answered HTTP 500 with a text that is not ClickHouse's/,
          );
          for (const where of [text(r), s.stderr()]) {
            for (const form of [pw, basic, btoa(pw), pw.toUpperCase(), [...pw].join(" ")]) {
              assert.ok(!where.includes(form), where);
            }
          }
        } finally {
          await server.shutdown();
        }
      },
    );
  },
);
