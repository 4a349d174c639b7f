/**
 * The ClickHouse seed data (`tests/clickhouse_seed.ts`, issue #14): table `loghub` holds every CSV row of
 * the seven Loghub samples (counts and raw levels per service against the CSVs and the raw `.log` files),
 * table `big` holds what its formula says, and the exported files have one line per row. SKIP where
 * clickhouse-server is not installed or `../shared` is absent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { NEEDS_CLICKHOUSE, startClickHouse } from "./clickhouse_server.ts";
import {
  BIG_SERVICES,
  DATABASE,
  DUP_BODY,
  exportTable,
  LOGHUB_SYSTEMS,
  NEEDLE,
  NEEDLE_MOD,
  NEEDLE_REM,
  seedBig,
  seedLoghub,
} from "./clickhouse_seed.ts";
import { tempDir } from "./fixtures.ts";
import { sharedDir } from "./shared_dir.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

/** Lines as `wc -l` would count them, plus a last line without a line feed. */
function lineCount(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === 10) n++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? n + 1 : n;
}

/** Line feeds only (every exported line must end in one). */
function lfCount(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === 10) n++;
  return n;
}

/** `SELECT` rows as tab-separated fields. */
async function rows(ch: { query: (s: string) => Promise<{ status: number; body: string }> }, sql: string) {
  const r = await ch.query(sql + " FORMAT TabSeparatedRaw");
  assert.equal(r.status, 200, r.body);
  return r.body.split("\n").filter((l) => l !== "").map((l) => l.split("\t"));
}

const shared = sharedDir("the ClickHouse seed data");

Deno.test({
  ignore: NEEDS_CLICKHOUSE.ignore || shared === null,
  name:
    "clickhouse seed: loghub rows and levels match the CSVs, big matches its formula, exports have every row",
  ...opts,
  async fn() {
    const corpus = join(shared!, "corpus", "loghub");
    const ch = await startClickHouse("the ClickHouse seed data");
    if (ch === null) return;
    try {
      // loghub: per service, rows = CSV rows = lines of the raw .log = 2000; raw levels as in the CSV.
      const truth = await seedLoghub(ch, corpus);
      assert.deepEqual(Object.keys(truth).sort(), LOGHUB_SYSTEMS.map((s) => s.toLowerCase()).sort());
      const counts = new Map(
        (await rows(ch, `SELECT ServiceName, count() FROM ${DATABASE}.loghub GROUP BY ServiceName`))
          .map(([s, n]) => [s, Number(n)]),
      );
      const levels = await rows(
        ch,
        `SELECT ServiceName, SeverityText, count() FROM ${DATABASE}.loghub GROUP BY ServiceName, SeverityText`,
      );
      const last = new Map(
        (await rows(
          ch,
          `SELECT ServiceName, formatDateTime(max(Timestamp), '%Y-%m-%dT%H:%M:%SZ', 'UTC') ` +
            `FROM ${DATABASE}.loghub GROUP BY ServiceName`,
        )).map(([s, t]) => [s, t]),
      );
      for (const system of LOGHUB_SYSTEMS) {
        const service = system.toLowerCase();
        const csv = parse(Deno.readTextFileSync(join(corpus, `${system}_2k.log_structured.csv`)), {
          columns: true,
        }) as Record<string, string>[];
        const raw = lineCount(Deno.readFileSync(join(corpus, `${system}_2k.log`)));
        assert.equal(raw, 2000, `${system}_2k.log lines`);
        assert.equal(csv.length, raw, `${system}: CSV rows vs .log lines`);
        assert.equal(truth[service].rows, csv.length, `${service}: truth rows`);
        assert.equal(counts.get(service), csv.length, `${service}: table rows`);
        // Raw levels: the CSV's Level as is, none for Linux (a host name there) and OpenSSH.
        const want: Record<string, number> = {};
        for (const r of csv) {
          const lv = system === "Linux" || system === "OpenSSH" ? "" : r.Level;
          want[lv] = (want[lv] ?? 0) + 1;
        }
        assert.deepEqual(truth[service].levels, want, `${service}: truth levels`);
        const got: Record<string, number> = {};
        for (const [s, lv, n] of levels) if (s === service) got[lv] = Number(n);
        assert.deepEqual(got, want, `${service}: table levels`);
        assert.equal(last.get(service), truth[service].lastTimestamp, `${service}: last timestamp`);
      }
      assert.deepEqual(truth.apache.levels, { notice: 1405, error: 595 });
      assert.equal(truth.apache.firstTimestamp, "2005-12-04T04:47:44Z");
      assert.equal(truth.hdfs.firstTimestamp, "2008-11-09T20:36:15Z");
      assert.equal(truth.openssh.firstTimestamp, "2017-12-10T06:55:46Z");
      // A body with backslashes came through JSONEachRow unchanged.
      const jar = await rows(
        ch,
        `SELECT Body FROM ${DATABASE}.loghub WHERE ServiceName = 'hadoop' AND Body LIKE '%AppData%'`,
      );
      assert.equal(jar.length, 1);
      assert.match(jar[0][0], /to C:\\Users\\msrabi\\AppData\\Local\\Temp\\Jetty_/);

      // big, small: counts by the formula, cross-checked with count().
      const N = 200_000;
      const big = await seedBig(ch, N);
      assert.equal(big.rows, N);
      const total = await rows(ch, `SELECT count() FROM ${DATABASE}.big`);
      assert.equal(Number(total[0][0]), N);
      const perService = new Map(
        (await rows(ch, `SELECT ServiceName, count() FROM ${DATABASE}.big GROUP BY ServiceName`))
          .map(([s, n]) => [s, Number(n)]),
      );
      for (const s of BIG_SERVICES) assert.equal(perService.get(s), big.perService[s], `big ${s} rows`);
      const bigLevels: Record<string, Record<string, number>> = {};
      for (
        const [s, lv, n] of await rows(
          ch,
          `SELECT ServiceName, SeverityText, count() FROM ${DATABASE}.big GROUP BY ServiceName, SeverityText`,
        )
      ) (bigLevels[s] ??= {})[lv] = Number(n);
      assert.deepEqual(bigLevels, big.levels);
      for (const s of BIG_SERVICES) {
        assert.equal(Object.values(big.levels[s]).reduce((a, b) => a + b, 0), big.perService[s]);
        assert.ok(Object.keys(big.levels[s]).length >= 12, `${s}: every raw level occurs`);
      }
      // The needle: exactly the rows where number % 1000003 = 17 (one row below 1000020).
      assert.equal(big.needleRows, Math.floor((N - 1 - NEEDLE_REM) / NEEDLE_MOD) + 1);
      assert.deepEqual(big.needleNumbers, [NEEDLE_REM]);
      const needle = await rows(
        ch,
        `SELECT count() FROM ${DATABASE}.big WHERE position(Body, '${NEEDLE}') > 0`,
      );
      assert.equal(Number(needle[0][0]), big.needleRows);
      const secrets = await rows(
        ch,
        `SELECT countIf(position(Body, 'password=') > 0), countIf(position(Body, 'token=') > 0), ` +
          `countIf(Body = '${DUP_BODY}') FROM ${DATABASE}.big`,
      );
      assert.deepEqual(secrets[0].map(Number), [big.passwordRows, big.tokenRows, big.duplicateRows]);
      assert.ok(big.passwordRows > 0 && big.tokenRows > 0 && big.duplicateRows > 0);
      // Equal-key ties: identical (Timestamp, Body, SeverityText, ServiceName) rows.
      const ties = await rows(
        ch,
        `SELECT count() FROM (SELECT count() AS c FROM ${DATABASE}.big ` +
          `GROUP BY Timestamp, Body, SeverityText, ServiceName HAVING c > 1)`,
      );
      assert.ok(Number(ties[0][0]) > 0, "big has identical rows");
      const edges = await rows(
        ch,
        `SELECT formatDateTime(min(Timestamp), '%Y-%m-%dT%H:%M:%SZ', 'UTC'), ` +
          `formatDateTime(max(Timestamp), '%Y-%m-%dT%H:%M:%SZ', 'UTC') FROM ${DATABASE}.big`,
      );
      assert.deepEqual(edges[0], [big.firstTimestamp, big.lastTimestamp]);

      // Exports: one file per service, one LF-terminated line per row, in Timestamp order.
      const dir = tempDir("logpeek-chseed-");
      await exportTable(ch, "big", dir);
      await exportTable(ch, "loghub", dir);
      const files = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
      assert.deepEqual(
        files,
        [...BIG_SERVICES, ...LOGHUB_SYSTEMS.map((s) => s.toLowerCase())].map((s) => `${s}.log`).sort(),
      );
      for (const s of BIG_SERVICES) {
        const bytes = Deno.readFileSync(join(dir, `${s}.log`));
        assert.equal(lfCount(bytes), big.perService[s], `${s}.log line feeds`);
        assert.equal(bytes.at(-1), 10);
      }
      for (const system of LOGHUB_SYSTEMS) {
        const service = system.toLowerCase();
        const text = Deno.readTextFileSync(join(dir, `${service}.log`));
        assert.equal(
          lfCount(new TextEncoder().encode(text)),
          truth[service].rows,
          `${service}.log line feeds`,
        );
        const lines = text.slice(0, -1).split("\n");
        const stamps = lines.map((l) => l.slice(0, 20));
        assert.ok(stamps.every((t) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(t)), `${service}: stamps`);
        assert.deepEqual(stamps, [...stamps].sort(), `${service}: in time order`);
        assert.equal(stamps.at(-1), truth[service].lastTimestamp);
        const level = (l: string) => l.slice(21, l.indexOf(" ", 21));
        const lv: Record<string, number> = {};
        for (const l of lines) {
          const k = level(l) === "-" ? "" : level(l);
          lv[k] = (lv[k] ?? 0) + 1;
        }
        assert.deepEqual(lv, truth[service].levels, `${service}.log levels`);
      }
      const rg = await new Deno.Command("rg", { args: ["-c", NEEDLE, dir], stdout: "piped" }).output();
      const byFile = new TextDecoder().decode(rg.stdout).trim().split("\n").filter((l) => l !== "");
      const found = byFile.reduce((a, l) => a + Number(l.slice(l.lastIndexOf(":") + 1)), 0);
      assert.equal(found, big.needleRows, `rg -c '${NEEDLE}': ${byFile.join(", ")}`);
    } finally {
      await ch.stop();
    }
  },
});
