/**
 * The test ClickHouse server (`tests/clickhouse_server.ts`, groundwork for issue #14) starts, answers,
 * honours the settings logpeek's budgets will map to, and stops by its PID. SKIP where it is not installed.
 */
import assert from "node:assert/strict";
import { NEEDS_CLICKHOUSE, startClickHouse } from "./clickhouse_server.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  ...NEEDS_CLICKHOUSE,
  name:
    "clickhouse: a server started by the tests answers, refuses writes with readonly=1, breaks at its limits, stops",
  ...opts,
  async fn() {
    const ch = await startClickHouse("the ClickHouse test server");
    if (ch === null) return;
    try {
      const v = await ch.query("SELECT version()");
      assert.equal(v.status, 200, v.body);
      assert.match(v.body.trim(), /^\d+\.\d+/);
      // readonly=1: every query logpeek sends will carry it; a write is refused.
      const w = await ch.query("CREATE TABLE t (x UInt8) ENGINE = Memory", { readonly: 1 });
      assert.notEqual(w.status, 200);
      assert.match(w.body, /readonly/i);
      // A table to read: 3,000,000 numbers.
      assert.equal((await ch.query("CREATE TABLE n (x UInt64) ENGINE = MergeTree ORDER BY x")).status, 200);
      const ins = await ch.query("INSERT INTO n SELECT number FROM system.numbers LIMIT 3000000");
      assert.equal(ins.status, 200, ins.body);
      const all = await ch.query("SELECT count() FROM n", { readonly: 1 });
      assert.equal(all.body.trim(), "3000000");
      // max_bytes_to_read with read_overflow_mode=break: the query stops early and returns what it read,
      // the count below the table's (what logpeek will report as complete: false with a cursor).
      const cut = await ch.query("SELECT count() FROM n", {
        readonly: 1,
        max_bytes_to_read: 1_000_000,
        read_overflow_mode: "break",
      });
      assert.equal(cut.status, 200, cut.body);
      const n = Number(cut.body.trim());
      assert.ok(n > 0 && n < 3_000_000, `a query broken at 1 MB read ${n} rows`);
      // The same limit with the default mode (throw) is an error, not a short answer.
      const thrown = await ch.query("SELECT count() FROM n", { readonly: 1, max_bytes_to_read: 1_000_000 });
      assert.notEqual(thrown.status, 200);
    } finally {
      await ch.stop();
    }
    // Stopped: nothing answers on its port any more.
    const after = await new Deno.Command("curl", {
      args: ["-s", "-m", "2", ch.url + "/ping"],
      stdout: "piped",
    })
      .output();
    assert.notEqual(new TextDecoder().decode(after.stdout).trim(), "Ok.");
  },
});
