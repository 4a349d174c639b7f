/**
 * ClickHouse table sources of any name (issue #22, item 5): a source value is a log's name
 * (`<table>/<source>`), and values hold what file names never do — quotes, backslashes (a trailing one
 * gave `internal_error`), NUL and other control bytes, glob characters, `/`, astral and separator code
 * points. Each is answered with exactly its rows (counted here from the rows inserted, which are loaded
 * with `JSONEachRow`, not through logpeek's literals) or refused with an explained error; never
 * `internal_error`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { NEEDS_CLICKHOUSE, startClickHouse } from "./clickhouse_server.ts";
import { connect } from "./mcp_client.ts";
import { text } from "./clickhouse_calls.ts";

/** Source values, each with what a client passes to name it alone (the value itself unless given). */
const NAMES: { value: string; ask?: string }[] = [
  { value: "inj\\" },
  { value: "a\\b" },
  { value: "\\" },
  { value: "\\\\" },
  { value: "it's" },
  { value: "''" },
  { value: 'say "hi"' },
  { value: "nul\u0000byte" },
  { value: "ctl\u0001\u001f\u007f" },
  { value: "tab\there" },
  { value: "nl\nline" },
  { value: "cr\rline" },
  { value: "😀 astral 𝄞" },
  { value: "sep\u2028par\u2029" },
  { value: "rtl\u202eoverride" },
  { value: "café" },
  { value: " lead and trail " },
  { value: "slash/in/name" },
  { value: ".." },
  { value: "%_like" },
  { value: "-- comment" },
  { value: "'; DROP TABLE t.canary; --" },
  { value: "a*b" },
  { value: "q?" },
  { value: "[x]" },
  { value: "{a,b}" },
  { value: "back\\*" },
];

const BASE = Date.UTC(2026, 10, 1) / 1000;

interface Row {
  time: number;
  body: string;
  level: string;
  source: string;
}

function rowsOf(): Row[] {
  const rows: Row[] = [];
  NAMES.forEach((n, k) => {
    for (let j = 0; j <= k % 5; j++) {
      rows.push({ time: BASE + k * 10 + j, body: `row ${k}-${j}`, level: "info", source: n.value });
    }
  });
  // Rows whose sources have close names, which an unescaping or a prefix would catch instead.
  for (const value of ["inj", "a*bb", "axb", "q!", "x", "a,b", "back\\x", "nul"]) {
    rows.push({ time: BASE + 9999, body: "decoy", level: "info", source: value });
  }
  return rows;
}

function iso(sec: number): string {
  return new Date(sec * 1000).toISOString().replace("T", " ").slice(0, 19);
}

Deno.test(
  "over ClickHouse, sources of any name are answered with exactly their rows, never internal_error",
  NEEDS_CLICKHOUSE,
  async (t) => {
    await using ch = await startClickHouse("table sources of any name (issue #22)");
    if (!ch) return;
    const port = new URL(ch.url).port;
    const ok = async (sql: string) => {
      const r = await ch.query(sql);
      assert.equal(r.status, 200, `${sql.slice(0, 80)}: ${r.body}`);
      return r.body;
    };
    await ok("CREATE DATABASE t");
    await ok(
      "CREATE TABLE t.nm (Timestamp DateTime, Body String, SeverityText String, ServiceName String) " +
        "ENGINE = MergeTree ORDER BY (ServiceName, Timestamp)",
    );
    await ok("CREATE TABLE t.canary (x UInt8) ENGINE = Memory");
    await ok("INSERT INTO t.canary VALUES (1)");
    const rows = rowsOf();
    await ok(
      "INSERT INTO t.nm FORMAT JSONEachRow\n" +
        rows.map((r) =>
          JSON.stringify({
            Timestamp: iso(r.time),
            Body: r.body,
            SeverityText: r.level,
            ServiceName: r.source,
          })
        ).join("\n"),
    );
    // A value that is not UTF-8 (0xFF, then NUL), which no argument can name.
    await ok("INSERT INTO t.nm SELECT toDateTime(1793491200), 'row bin', 'info', unhex('62FF00')");
    // The values as stored, read back independently (hex, not JSON).
    const stored = (await ok("SELECT DISTINCT hex(ServiceName) FROM t.nm FORMAT TSV")).trim().split("\n");
    const hex = (s: string) =>
      [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, "0")).join("").toUpperCase();
    for (const n of NAMES) assert.ok(stored.includes(hex(n.value)), JSON.stringify(n.value));

    await using s = await connect([`clickhouse://127.0.0.1:${port}/t.nm`], {});
    const mine = (value: string) => rows.filter((r) => r.source === value);
    const bodies = (lines: { text: string }[]) => lines.map((l) => l.text.replace(/^\S+ \S+ /, "")).sort();

    for (const n of NAMES) {
      const file = `nm/${n.ask ?? n.value}`;
      const want = mine(n.value).map((r) => r.body).sort();
      await t.step(`log_tail, log_search, log_levels of ${JSON.stringify(n.value)}`, async () => {
        const tail = await s.call("log_tail", { file, lines: 50 });
        assert.ok(!tail.isError, `${JSON.stringify(file)}: ${text(tail)}`);
        assert.deepEqual(bodies(tail.structuredContent.lines), want);
        const found = await s.call("log_search", { file, text: "row", limit: 50 });
        assert.ok(!found.isError, `${JSON.stringify(file)}: ${text(found)}`);
        assert.deepEqual(bodies(found.structuredContent.matches), want);
        assert.equal(found.structuredContent.complete, true);
        const lv = await s.call("log_levels", { file });
        assert.ok(!lv.isError, `${JSON.stringify(file)}: ${text(lv)}`);
        assert.equal(lv.structuredContent.total_lines, want.length);
        assert.equal(lv.structuredContent.counts.INFO, want.length);
      });
    }

    await t.step(
      "log_files lists every value once; a glob over all counts each served source's rows",
      async () => {
        const files = await s.call("log_files", {});
        assert.ok(!files.isError, text(files));
        const listed = files.structuredContent.files as {
          file: string;
          rows: number;
          readable: boolean;
          reason: string;
        }[];
        const values = [...new Set(rows.map((r) => r.source))];
        assert.deepEqual(
          listed.filter((f) => f.readable).map((f) => f.file).sort(),
          values.map((v) => `nm/${v}`).sort(),
        );
        for (const f of listed.filter((f) => f.readable)) {
          assert.equal(
            f.rows,
            mine(f.file.slice(3)).length,
            f.file,
          );
        }
        // The value that is not UTF-8 is listed, not served, and says why.
        const bad = listed.filter((f) => !f.readable);
        assert.deepEqual(bad.map((f) => [f.file, f.rows]), [["nm/b\ufffd\u0000", 1]]);
        assert.match(bad[0].reason, /^invalid_argument: .*not valid UTF-8/);
        // `**` matches every name, `/` included.
        for (const tool of ["log_levels", "log_search"] as const) {
          const r = await s.call(tool, {
            file: "nm/**",
            ...(tool === "log_search" ? { text: ".", regex: true, limit: 1000 } : {}),
          });
          assert.ok(!r.isError, text(r));
          assert.equal(r.structuredContent.complete, true);
          if (tool === "log_search") {
            assert.equal(r.structuredContent.matches.length, rows.length);
            continue;
          }
          assert.equal(r.structuredContent.total_lines, rows.length);
          const per = new Map<string, number>(
            r.structuredContent.logs.map((
              l: { file: string; scanned_lines: number },
            ) => [l.file, l.scanned_lines]),
          );
          for (const v of values) assert.equal(per.get(`nm/${v}`), mine(v).length, JSON.stringify(v));
        }
      },
    );

    await t.step(
      "a name that is no log's, or not UTF-8, is refused with why; never internal_error",
      async () => {
        const cases: [string, RegExp][] = [
          ["nm/zz\\", /^not_found: no log "nm\/zz\\\\" in .*the closest: /],
          ["inj\\", /^not_found: no log "inj\\\\" in .*the closest: nm\/inj\\/],
          ["nm/inj\\\\", /^not_found: .*the closest: nm\/inj\\/],
          ["nm/a\\*b", /^not_found: .*the closest: nm\/a\*b/],
          ["nm/nl\nlinX", /^not_found: .*the closest: nm\/nl\\nline/],
          ["nm/*\\", /^invalid_pattern: the glob 'nm\/\*\\' is malformed: a lone \\ at character 5/],
          ["nm/[", /^invalid_pattern: the glob 'nm\/\[' is malformed/],
          ["nm/b\ufffd\u0000", /^invalid_argument: the log's name \(its source value\) is not valid UTF-8/],
        ];
        for (const [file, why] of cases) {
          for (
            const [tool, args] of [["log_tail", {}], ["log_search", { text: "row" }], [
              "log_levels",
              {},
            ]] as const
          ) {
            const r = await s.call(tool, { file, ...args });
            assert.equal(r.isError, true, `${tool} ${JSON.stringify(file)}`);
            assert.match(text(r), why, `${tool} ${JSON.stringify(file)}`);
            assert.ok(!text(r).includes("\n") && !text(r).includes("\u0000"), `one line, no NUL: ${text(r)}`);
          }
        }
      },
    );

    await t.step("nothing was written", async () => {
      assert.equal((await ok("SELECT count() FROM t.canary")).trim(), "1");
    });
  },
);
