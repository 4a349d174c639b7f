import assert from "node:assert/strict";
import { isClickHouseRoot, OTEL_COLUMNS, parseClickHouseRoot, readColumns } from "./target.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("a ClickHouse root: host, port, database, table, user, and the label", () => {
  const t = parseClickHouseRoot("clickhouse://logs.internal:8123/otel.otel_logs", env({}));
  assert.deepEqual(
    [t.host, t.port, t.database, t.table, t.user, t.password, t.label, t.netPermission],
    ["logs.internal", 8123, "otel", "otel_logs", "default", "", "otel_logs", "logs.internal:8123"],
  );
  assert.deepEqual(t.columns, OTEL_COLUMNS);
  const u = parseClickHouseRoot(
    "clickhouse://reader@[::1]:8124/db.t",
    env({ LOGPEEK_CLICKHOUSE_USER: "other", LOGPEEK_CLICKHOUSE_PASSWORD: "pw" }),
  );
  assert.deepEqual([u.host, u.user, u.password, u.netPermission], ["[::1]", "reader", "pw", "[::1]:8124"]);
  assert.equal(
    parseClickHouseRoot("clickhouse://h:1/d.t", env({ LOGPEEK_CLICKHOUSE_USER: "other" })).user,
    "other",
  );
  assert.ok(isClickHouseRoot("ClickHouse://h:1/d.t") && !isClickHouseRoot("/var/log/clickhouse"));
});

Deno.test("a ClickHouse root with a password, no port, or names that are not plain identifiers is refused", () => {
  assert.throws(
    () => parseClickHouseRoot("clickhouse://u:s3cret@h:8123/d.t", env({})),
    (e: Error) =>
      e instanceof RangeError && /LOGPEEK_CLICKHOUSE_PASSWORD/.test(e.message) &&
      !e.message.includes("s3cret"),
  );
  for (
    const bad of [
      "clickhouse://h/d.t",
      "clickhouse://h:8123/d",
      "clickhouse://h:8123/d.t;x",
      "clickhouse://h:99999/d.t",
      "clickhouse://h:8123/d-1.t",
      "clickhouse://h:8123/d.t.u",
    ]
  ) {
    assert.throws(() => parseClickHouseRoot(bad, env({})), RangeError, bad);
  }
});

Deno.test("LOGPEEK_CLICKHOUSE_COLUMNS renames roles; a wrong pair names what is wrong", () => {
  assert.deepEqual(readColumns("time=ts, body=msg,level=lvl,source=host"), {
    time: "ts",
    body: "msg",
    level: "lvl",
    source: "host",
  });
  assert.deepEqual(readColumns("body=Message"), { ...OTEL_COLUMNS, body: "Message" });
  assert.throws(() => readColumns("bodyMessage"), /role=column pairs/);
  assert.throws(() => readColumns("message=x"), /role=column pairs/);
  assert.throws(() => readColumns("body=a,body=b"), /twice/);
  assert.throws(() => readColumns("body=a`b"), /not a plain identifier/);
});
