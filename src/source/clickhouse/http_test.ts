import assert from "node:assert/strict";
import { ToolError } from "../../core/errors.ts";
import { runQuery } from "./http.ts";
import { parseClickHouseRoot } from "./target.ts";
import { NEEDS_CLICKHOUSE, startClickHouse } from "../../../tests/clickhouse_server.ts";

Deno.test(
  "runQuery: readonly=1 on every query, a cut told by the statistics, errors explained",
  NEEDS_CLICKHOUSE,
  async () => {
    await using ch = await startClickHouse("runQuery against a server (issue #14)");
    if (!ch) return;
    const port = new URL(ch.url).port;
    assert.equal((await ch.query("CREATE DATABASE d")).status, 200);
    assert.equal(
      (await ch.query("CREATE TABLE d.n (x UInt64) ENGINE = MergeTree ORDER BY x")).status,
      200,
    );
    assert.equal((await ch.query("INSERT INTO d.n SELECT number FROM numbers(3000000)")).status, 200);
    const t = parseClickHouseRoot(`clickhouse://127.0.0.1:${port}/d.n`, () => undefined);
    const whole = await runQuery<{ c: string }>(t, "SELECT count() AS c FROM d.n", {
      seconds: 10,
      bytes: null,
    });
    assert.equal(whole.rows[0].c, "3000000");
    assert.equal(whole.cut, null);
    assert.equal(whole.rowsRead, 3000000);
    // A byte limit far below the column's 24 MB: the server stops early, and the answer says it may be cut.
    const cut = await runQuery<{ c: string }>(t, "SELECT count() AS c FROM d.n", {
      seconds: 10,
      bytes: 1_000_000,
    });
    assert.equal(cut.cut, "size_budget");
    assert.ok(Number(cut.rows[0].c) < 3000000, cut.rows[0].c);
    const enough = await runQuery<{ c: string }>(t, "SELECT count() AS c FROM d.n", {
      seconds: 10,
      bytes: 30_000_000,
    });
    assert.equal(enough.cut, null);
    assert.equal(enough.rows[0].c, "3000000");
    // Writes are refused: the query runs with readonly=1.
    await assert.rejects(
      () => runQuery(t, "CREATE TABLE d.w (x UInt8) ENGINE = Memory", { seconds: 5, bytes: null }),
      (e: ToolError) => e.kind === "source_error" && /readonly/.test(e.message),
    );
    assert.equal((await ch.query("EXISTS TABLE d.w")).body.trim(), "0");
    await assert.rejects(
      () =>
        runQuery({ ...t, port: 1, netPermission: "127.0.0.1:1" }, "SELECT 1", { seconds: 1, bytes: null }),
      (e: ToolError) => e.kind === "source_unreachable" && /127\.0\.0\.1:1 did not answer/.test(e.message),
    );
    await assert.rejects(
      () => runQuery({ ...t, user: "reader", password: "not-it" }, "SELECT 1", { seconds: 1, bytes: null }),
      (e: ToolError) => e.kind === "permission_denied" && !e.message.includes("not-it"),
    );
    await assert.rejects(
      () => runQuery(t, "SELECT nope FROM d.n", { seconds: 1, bytes: null }),
      (e: ToolError) => e.kind === "source_error" && /LOGPEEK_CLICKHOUSE_COLUMNS/.test(e.message),
    );
  },
);
