/**
 * A `log_search` over a glob of a table's sources whose answer spills (issue #25: one renderer for both
 * backends): each log's heading is its own line (`==> NAME <==`, as over files), so the artifact holds one
 * line per item and `read_artifact` pages through them with nothing lost, repeated or run together. Before,
 * a table's heading was glued to its match as one item (`== NAME ==\n…`): the artifact counted 300 items
 * for 600 lines, and a page of it showed a heading and its match as one line.
 *
 * The expectations are built from the rows as loaded (not from logpeek): the rows whose body holds the
 * text, in time order, each `- LEVEL TIME RAWLEVEL BODY`, a heading where the source changes.
 */
import assert from "node:assert/strict";
import { NEEDS_CLICKHOUSE, startClickHouse } from "./clickhouse_server.ts";
import { connect } from "./mcp_client.ts";
import { text } from "./clickhouse_calls.ts";

const FOLD: Record<string, string> = { info: "INFO", err: "ERROR", warning: "WARN" };

Deno.test(
  "over a table, a glob's spilled search has its headings on lines of their own; read_artifact gives every match once",
  NEEDS_CLICKHOUSE,
  async () => {
    await using ch = await startClickHouse("a table glob's spilled search (issue #25)");
    if (!ch) return;
    const port = new URL(ch.url).port;
    assert.equal((await ch.query("CREATE DATABASE t")).status, 200);
    const create = await ch.query(
      "CREATE TABLE t.gen (Timestamp DateTime, Body String, SeverityText String, ServiceName String) " +
        "ENGINE = MergeTree ORDER BY (ServiceName, Timestamp)",
    );
    assert.equal(create.status, 200, create.body);
    const base = Date.UTC(2026, 10, 1) / 1000;
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      time: base + i, // one row a second: the time order is the load order
      body: i % 4 === 3 ? `idle ${i}` : `request ${i} took ${i % 900}ms`,
      level: ["info", "err", "warning"][i % 3],
      source: i % 10 < 6 ? "api" : "db", // runs of 6 and 4 rows: a heading at each change
    }));
    const iso = (sec: number) => new Date(sec * 1000).toISOString().replace("T", " ").slice(0, 19);
    const ins = await ch.query(
      "INSERT INTO t.gen FORMAT JSONEachRow\n" +
        rows.map((r) =>
          JSON.stringify({
            Timestamp: iso(r.time),
            Body: r.body,
            SeverityText: r.level,
            ServiceName: r.source,
          })
        ).join("\n"),
    );
    assert.equal(ins.status, 200, ins.body);
    const limit = 300;
    const hits = rows.filter((r) => r.body.includes("request")).slice(0, limit);
    const want: string[] = [];
    hits.forEach((r, i) => {
      if (i === 0 || hits[i - 1].source !== r.source) want.push(`==> gen/${r.source} <==`);
      const time = new Date(r.time * 1000).toISOString().replace(".000Z", "Z");
      want.push(`- ${FOLD[r.level]} ${time} ${r.level} ${r.body}`);
    });

    await using s = await connect([`clickhouse://127.0.0.1:${port}/t.gen`], { LOGPEEK_INLINE_CHARS: "4000" });
    const r = await s.call("log_search", { file: "gen/*", text: "request", limit });
    assert.ok(!r.isError, text(r));
    const sc = r.structuredContent;
    assert.equal(sc.stop_reason, "limit");
    const id = sc.artifact?.artifact_id;
    assert.ok(id, `the answer spilled: ${text(r).slice(0, 300)}`);
    assert.equal(sc.artifact.total_lines, want.length, "one artifact line per heading and per match");
    // The matches shown inline are the first ones, whole, with their logs.
    assert.ok(sc.matches.length > 0 && sc.matches.length < limit, `${sc.matches.length} shown`);
    assert.deepEqual(
      sc.matches.map((m: { file: string; text: string }) => `${m.file} ${m.text}`),
      hits.slice(0, sc.matches.length).map((h) =>
        `gen/${h.source} ${new Date(h.time * 1000).toISOString().replace(".000Z", "Z")} ${h.level} ${h.body}`
      ),
    );
    const got: string[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page = await s.call("read_artifact", { artifact_id: id, offset, limit: 200 });
      assert.ok(!page.isError, text(page));
      got.push(...page.structuredContent.lines);
      offset = page.structuredContent.next_offset;
    }
    assert.deepEqual(got, want);
  },
);
