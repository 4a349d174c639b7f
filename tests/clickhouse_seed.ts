/**
 * Test and bench data in the ClickHouse test server (issue #14; the server: `tests/clickhouse_server.ts`).
 *
 * Both tables have the OpenTelemetry Collector exporter's column names in 18.16's types:
 * `(Timestamp DateTime, Body String, SeverityText String, ServiceName String) ENGINE = MergeTree
 * ORDER BY (ServiceName, Timestamp)`, in database {@linkcode DATABASE}.
 *
 * - {@linkcode seedLoghub}: table `loghub`, the seven Loghub samples' CSV rows, one service each.
 * - {@linkcode seedBig}: table `big`, generated server-side (`INSERT … SELECT … FROM numbers(N)`) by a
 *   formula this module also evaluates in TypeScript ({@linkcode bigTruth}), for the expected counts.
 * - {@linkcode exportTable}: a table's rows as one local log file per service, for the bench's "the same
 *   work on a local file".
 *
 * Times go in and out as Unix seconds or formatted in UTC, never through the server's time zone.
 *
 * @module
 */
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import type { ClickHouse } from "./clickhouse_server.ts";

/** The database both tables are in. */
export const DATABASE = "logpeek_test";

/** The columns and engine of both tables. */
const SCHEMA = "(Timestamp DateTime, Body String, SeverityText String, ServiceName String) " +
  "ENGINE = MergeTree ORDER BY (ServiceName, Timestamp)";

/** Runs `sql`; throws with the server's answer when the status is not 200. */
async function run(ch: ClickHouse, sql: string, settings?: Record<string, string | number>): Promise<string> {
  const r = await ch.query(sql, settings);
  if (r.status !== 200) {
    throw new Error(`ClickHouse answered ${r.status} to ${sql.slice(0, 200)}…: ${r.body.slice(0, 2000)}`);
  }
  return r.body;
}

/** A string as a ClickHouse SQL literal (`'…'`, backslash and quote escaped). */
function sqlString(s: string): string {
  return `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/** `YYYY-MM-DDTHH:MM:SSZ` of Unix seconds (the form {@linkcode exportTable} writes). */
export function isoSeconds(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 19) + "Z";
}

// ---------------------------------------------------------------------------------------------------
// loghub

/** The seven Loghub samples (`X_2k.log_structured.csv`), by their file names' system names. */
export const LOGHUB_SYSTEMS = ["Apache", "HDFS", "Hadoop", "Linux", "OpenSSH", "Spark", "Zookeeper"] as const;

/** One service's ground truth, from its CSV (never from ClickHouse). */
export interface ServiceTruth {
  /** CSV rows (= table rows of the service). */
  rows: number;
  /** Rows per raw `SeverityText` (the CSV's `Level` as is; `""` for Linux and OpenSSH). */
  levels: Record<string, number>;
  /** The earliest Timestamp, `YYYY-MM-DDTHH:MM:SSZ`. */
  firstTimestamp: string;
  /** The latest Timestamp (the last row in Timestamp order), `YYYY-MM-DDTHH:MM:SSZ`. */
  lastTimestamp: string;
}

/** Per service (`apache`, `hdfs`, `hadoop`, `linux`, `openssh`, `spark`, `zookeeper`): its truth. */
export type LoghubTruth = Record<string, ServiceTruth>;

/** One table row. `Timestamp` in Unix seconds. */
interface LogRow {
  Timestamp: number;
  Body: string;
  SeverityText: string;
  ServiceName: string;
}

const MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Unix seconds of a UTC date and time; throws on a field that is not a number or a month name. */
function utc(y: number, mon: number | string, d: number, h: number, mi: number, s: number): number {
  const m = typeof mon === "string" ? MON.indexOf(mon) : mon - 1;
  const ms = Date.UTC(y, m, d, h, mi, s);
  if (!Number.isFinite(ms) || m < 0) throw new Error(`not a time: ${[y, mon, d, h, mi, s].join(" ")}`);
  return ms / 1000;
}

/** `HH:MM:SS` or `HH:MM:SS,mmm` as [h, m, s] (milliseconds dropped). */
const hms = (t: string) => t.split(",")[0].split(":").map(Number) as [number, number, number];

/** A CSV row's Timestamp (Unix seconds, UTC) by its system's date and time columns. */
function rowTime(system: typeof LOGHUB_SYSTEMS[number], r: Record<string, string>): number {
  switch (system) {
    case "Apache": {
      // Sun Dec 04 04:47:44 2005
      const [, mon, d, t, y] = r.Time.trim().split(/\s+/);
      return utc(+y, mon, +d, ...hms(t));
    }
    case "HDFS": {
      // 081109 203615
      const d = r.Date.padStart(6, "0"), t = r.Time.padStart(6, "0");
      return utc(
        2000 + +d.slice(0, 2),
        +d.slice(2, 4),
        +d.slice(4, 6),
        +t.slice(0, 2),
        +t.slice(2, 4),
        +t.slice(4),
      );
    }
    case "Hadoop":
    case "Zookeeper": {
      // 2015-10-18 18:01:47,978
      const [y, m, d] = r.Date.split("-").map(Number);
      return utc(y, m, d, ...hms(r.Time));
    }
    case "Spark": {
      // 17/06/09 20:10:40
      const [y, m, d] = r.Date.split("/").map(Number);
      return utc(2000 + y, m, d, ...hms(r.Time));
    }
    case "Linux":
      // Jun 14 15:16:01, no year
      return utc(2005, r.Month, +r.Date, ...hms(r.Time));
    case "OpenSSH":
      // Dec 10 06:55:46, no year
      return utc(2017, r.Date, +r.Day, ...hms(r.Time));
  }
}

/**
 * The rows of one Loghub sample as table rows, in CSV order.
 *
 * @param corpusDir The `loghub` folder.
 * @param system One of {@linkcode LOGHUB_SYSTEMS}.
 */
export function loghubRows(corpusDir: string, system: typeof LOGHUB_SYSTEMS[number]): LogRow[] {
  const csv = parse(Deno.readTextFileSync(join(corpusDir, `${system}_2k.log_structured.csv`)), {
    columns: true,
  }) as Record<string, string>[];
  const service = system.toLowerCase();
  // Linux's Level column is its host name; OpenSSH has none.
  const hasLevel = system !== "Linux" && system !== "OpenSSH";
  return csv.map((r) => ({
    Timestamp: rowTime(system, r),
    Body: r.Content,
    SeverityText: hasLevel ? r.Level : "",
    ServiceName: service,
  }));
}

/**
 * Creates database `logpeek_test` and loads table `loghub` (dropped first when there) from the Loghub
 * CSVs, over HTTP in `FORMAT JSONEachRow`. Returns per-service ground truth computed here from the CSVs.
 *
 * @param ch The server.
 * @param corpusDir The `loghub` folder (`../shared/corpus/loghub`).
 * @throws {Error} when a CSV cannot be read or parsed, or the server refuses a statement.
 */
export async function seedLoghub(ch: ClickHouse, corpusDir: string): Promise<LoghubTruth> {
  const truth: LoghubTruth = {};
  const lines: string[] = [];
  for (const system of LOGHUB_SYSTEMS) {
    const rows = loghubRows(corpusDir, system);
    const levels: Record<string, number> = {};
    let first = Infinity, last = -Infinity;
    for (const r of rows) {
      levels[r.SeverityText] = (levels[r.SeverityText] ?? 0) + 1;
      first = Math.min(first, r.Timestamp);
      last = Math.max(last, r.Timestamp);
      lines.push(JSON.stringify(r));
    }
    truth[system.toLowerCase()] = {
      rows: rows.length,
      levels,
      firstTimestamp: isoSeconds(first),
      lastTimestamp: isoSeconds(last),
    };
  }
  await run(ch, `CREATE DATABASE IF NOT EXISTS ${DATABASE}`);
  await run(ch, `DROP TABLE IF EXISTS ${DATABASE}.loghub`);
  await run(ch, `CREATE TABLE ${DATABASE}.loghub ${SCHEMA}`);
  await run(ch, `INSERT INTO ${DATABASE}.loghub FORMAT JSONEachRow\n${lines.join("\n")}\n`);
  return truth;
}

// ---------------------------------------------------------------------------------------------------
// big

/** The services of `big`, by `number % 4`. */
export const BIG_SERVICES = ["api", "db", "worker", "edge"] as const;

/** `big`'s first Timestamp, 2026-11-01T00:00:00Z, in Unix seconds; row `number` is this + number / 40. */
export const BIG_START = Date.UTC(2026, 10, 1) / 1000;

/** Rows sharing one second in `big`. */
export const BIG_PER_SECOND = 40;

/** The rare text of `big`: in exactly the rows where `number % NEEDLE_MOD = NEEDLE_REM`. */
export const NEEDLE = "checksum mismatch";
/** The modulus of the {@linkcode NEEDLE} rows. */
export const NEEDLE_MOD = 1_000_003;
/** The remainder of the {@linkcode NEEDLE} rows. */
export const NEEDLE_REM = 17;

/**
 * The duplicate rows: `number % 1000 < DUP_BELOW` (and not a needle row) have body {@linkcode DUP_BODY}
 * and level `INFO`; all eight fall in one second, two per service, so equal (Timestamp, Body, level,
 * service) rows exist.
 */
export const DUP_BELOW = 8;
/** The body of the duplicate rows. */
export const DUP_BODY = "health check ok status=200 path=/healthz";

/**
 * Raw levels and their weights (out of 100), by `number * 7919 % 10007 % 100`: folding
 * must map these to logpeek's names (`''` is no level).
 */
export const BIG_LEVELS: readonly [string, number][] = [
  ["info", 30],
  ["INFO", 15],
  ["Information", 5],
  ["debug", 12],
  ["warning", 8],
  ["WARN", 6],
  ["err", 4],
  ["ERROR", 7],
  ["fatal", 1],
  ["CRITICAL", 2],
  ["", 8],
  ["weird", 2],
];

/** Which template each of 20 slots uses, by `number * 104729 % 10009 % 20` (uneven weights). */
const TEMPLATE_SLOTS = [0, 0, 0, 0, 0, 1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 7, 7, 8, 8, 9];

/** The body templates, as SQL expressions over `number`; 1 holds a password, 5 a token. */
const TEMPLATES_SQL = [
  `concat('GET /api/v1/orders/', toString(number % 9973), ' 200 ', toString(number % 997), 'ms req_id=r', toString(number))`,
  `concat('login ok user=u', toString(number % 5000), ' password=hunter', toString(number % 89), 'x')`,
  `concat('query took ', toString(number % 3001), 'ms rows=', toString(number % 777), ' table=orders_', toString(number % 16))`,
  `concat('job ', toString(intDiv(number, 16)), ' finished in ', toString(number % 60), 's queue=default')`,
  `concat('cache miss key=/var/cache/app/', toString(number % 4096), '.bin')`,
  `concat('refresh token=tk_', toString(number * 7919 % 1000000007), ' issued for client c', toString(number % 300))`,
  `concat('connection reset by peer 10.', toString(number % 256), '.', toString(intDiv(number, 256) % 256), '.7:', toString(1024 + number % 50000))`,
  `concat('GC pause ', toString(number % 150), 'ms heap=', toString(512 + number % 1536), 'MB')`,
  `concat('upstream timeout after 30000ms path=/srv/edge/', toString(number % 31), '/index.html')`,
  `concat('retrying write to shard ', toString(number % 12), ' attempt ', toString(number % 5 + 1), ' of 5 "busy" dir=C:\\\\data\\\\shard', toString(number % 12))`,
];
/** The template holding `password=`. */
const PASSWORD_TEMPLATE = 1;
/** The template holding `token=`. */
const TOKEN_TEMPLATE = 5;

/** What `big` holds, from the formula (computed in TypeScript, not read from ClickHouse). */
export interface BigTruth {
  rows: number;
  /** Rows per service. */
  perService: Record<string, number>;
  /** Rows per service and raw SeverityText. */
  levels: Record<string, Record<string, number>>;
  /** Rows holding {@linkcode NEEDLE}. */
  needleRows: number;
  /** Their `number`s (the row's generator index). */
  needleNumbers: number[];
  /** Rows with {@linkcode DUP_BODY}. */
  duplicateRows: number;
  /** Rows holding `password=`. */
  passwordRows: number;
  /** Rows holding `token=`. */
  tokenRows: number;
  /** The first and last Timestamp, `YYYY-MM-DDTHH:MM:SSZ`. */
  firstTimestamp: string;
  lastTimestamp: string;
}

/** The level index of row `n` into {@linkcode BIG_LEVELS}, before the needle and duplicate overrides. */
function levelIndex(n: number): number {
  const k = n * 7919 % 10007 % 100;
  let acc = 0;
  for (let i = 0; i < BIG_LEVELS.length; i++) {
    acc += BIG_LEVELS[i][1];
    if (k < acc) return i;
  }
  throw new Error("BIG_LEVELS weights do not add up to 100");
}

/**
 * `big`'s contents by the formula, for `rows` rows (the same formula {@linkcode seedBig} sends as SQL).
 *
 * @param rows How many rows.
 */
export function bigTruth(rows: number): BigTruth {
  const perService: Record<string, number> = {};
  const levels: Record<string, Record<string, number>> = {};
  for (const s of BIG_SERVICES) {
    perService[s] = 0;
    levels[s] = {};
  }
  const counts = BIG_SERVICES.map(() => new Array<number>(BIG_LEVELS.length).fill(0));
  const needleNumbers: number[] = [];
  const needleErrors = [0, 0, 0, 0], dupInfo = [0, 0, 0, 0];
  let dup = 0, password = 0, token = 0;
  for (let n = 0; n < rows; n++) {
    const s = n % 4;
    if (n % NEEDLE_MOD === NEEDLE_REM) {
      needleNumbers.push(n);
      needleErrors[s]++;
    } else if (n % 1000 < DUP_BELOW) {
      dup++;
      dupInfo[s]++;
    } else {
      counts[s][levelIndex(n)]++;
      const t = TEMPLATE_SLOTS[n * 104729 % 10009 % 20];
      if (t === PASSWORD_TEMPLATE) password++;
      else if (t === TOKEN_TEMPLATE) token++;
    }
  }
  BIG_SERVICES.forEach((name, s) => {
    perService[name] = Math.floor(rows / 4) + (s < rows % 4 ? 1 : 0);
    const l = levels[name];
    BIG_LEVELS.forEach(([lv], i) => {
      if (counts[s][i] > 0) l[lv] = counts[s][i];
    });
    if (needleErrors[s] > 0) l.ERROR = (l.ERROR ?? 0) + needleErrors[s];
    if (dupInfo[s] > 0) l.INFO = (l.INFO ?? 0) + dupInfo[s];
  });
  return {
    rows,
    perService,
    levels,
    needleRows: needleNumbers.length,
    needleNumbers,
    duplicateRows: dup,
    passwordRows: password,
    tokenRows: token,
    firstTimestamp: isoSeconds(BIG_START),
    lastTimestamp: isoSeconds(BIG_START + Math.floor(Math.max(rows - 1, 0) / BIG_PER_SECOND)),
  };
}

/**
 * The `INSERT … SELECT` that fills `big` with `rows` rows: a `UNION ALL` of one branch per body (the
 * needle, the duplicate, each template), each over the `numbers` that take it. ClickHouse 18.16's
 * `multiIf` evaluates every branch on every row, so one `multiIf` over the ten templates costs ten
 * bodies a row (~45 s for 10M rows); the branches also run in parallel.
 */
export function bigInsertSql(rows: number): string {
  let acc = 0;
  const level = `multiIf(${
    BIG_LEVELS.map(([lv, w]) => `k < ${(acc += w)}, ${sqlString(lv)}`).join(", ")
  }, '')`;
  const needle = `number % ${NEEDLE_MOD} = ${NEEDLE_REM}`;
  const dup = `number % 1000 < ${DUP_BELOW}`;
  const branch = (where: string, body: string, severity: string) =>
    `SELECT
  toDateTime(${BIG_START} + intDiv(number, ${BIG_PER_SECOND})) AS Timestamp,
  ${body} AS Body,
  ${severity} AS SeverityText,
  arrayElement([${BIG_SERVICES.map(sqlString).join(", ")}], number % 4 + 1) AS ServiceName
FROM (
  SELECT number,
    number * 7919 % 10007 % 100 AS k,
    arrayElement([${TEMPLATE_SLOTS.join(", ")}], number * 104729 % 10009 % 20 + 1) AS tpl
  FROM numbers(${rows})
)
WHERE ${where}`;
  const branches = [
    branch(
      needle,
      `concat('${NEEDLE} in segment seg_', toString(number), ' expected=0x1f2e got=0x0000')`,
      "'ERROR'",
    ),
    branch(`NOT (${needle}) AND ${dup}`, sqlString(DUP_BODY), "'INFO'"),
    ...TEMPLATES_SQL.map((t, i) => branch(`NOT (${needle}) AND NOT (${dup}) AND tpl = ${i}`, t, level)),
  ];
  return `INSERT INTO ${DATABASE}.big (Timestamp, Body, SeverityText, ServiceName)\n${
    branches.join("\nUNION ALL\n")
  }`;
}

/**
 * Creates table `logpeek_test.big` (dropped first when there) with `rows` generated rows, server-side
 * (`INSERT … SELECT … FROM numbers(rows)`). Returns what the formula says it holds ({@linkcode bigTruth}).
 *
 * @param ch The server.
 * @param rows How many rows (default 10,000,000).
 * @throws {Error} when the server refuses a statement.
 */
export async function seedBig(ch: ClickHouse, rows = 10_000_000): Promise<BigTruth> {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`rows must be a whole number, got ${rows}`);
  await run(ch, `CREATE DATABASE IF NOT EXISTS ${DATABASE}`);
  await run(ch, `DROP TABLE IF EXISTS ${DATABASE}.big`);
  await run(ch, `CREATE TABLE ${DATABASE}.big ${SCHEMA}`);
  await run(ch, bigInsertSql(rows), {
    max_insert_block_size: 4_194_304,
    min_insert_block_size_rows: 4_194_304,
    max_block_size: 262_144,
  });
  return bigTruth(rows);
}

// ---------------------------------------------------------------------------------------------------
// export

/**
 * Writes the rows of `logpeek_test.<table>` to local files, one per ServiceName (`<dir>/<service>.log`),
 * ordered by (Timestamp, cityHash64(ServiceName, SeverityText, Body), ServiceName, SeverityText, Body),
 * each line `<YYYY-MM-DDTHH:MM:SSZ> <SeverityText, or - when empty> <Body>`, LF-terminated. The server
 * formats the lines and `curl` writes them straight to the file (10M rows never pass through here).
 *
 * @param ch The server.
 * @param table The table's name in `logpeek_test` (letters, digits, `_`).
 * @param dir An existing folder.
 * @throws {Error} on a table or service name unfit for a file name, or when the server refuses a query.
 */
export async function exportTable(ch: ClickHouse, table: string, dir: string): Promise<void> {
  if (!/^\w+$/.test(table)) throw new Error(`not a plain table name: ${table}`);
  const services = (await run(
    ch,
    `SELECT DISTINCT ServiceName FROM ${DATABASE}.${table} ORDER BY ServiceName FORMAT TabSeparatedRaw`,
  )).split("\n").filter((s) => s !== "");
  for (const service of services) {
    if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(service)) throw new Error(`not a file name: ${service}`);
    const sql = `SELECT concat(formatDateTime(Timestamp, '%Y-%m-%dT%H:%M:%SZ', 'UTC'), ' ',
  if(SeverityText = '', '-', SeverityText), ' ', Body)
FROM ${DATABASE}.${table} WHERE ServiceName = ${sqlString(service)}
ORDER BY Timestamp, cityHash64(ServiceName, SeverityText, Body), ServiceName, SeverityText, Body
FORMAT TabSeparatedRaw`;
    const file = join(dir, `${service}.log`);
    const child = new Deno.Command("curl", {
      args: ["-s", "-S", "-o", file, "-w", "%{http_code}", "--data-binary", "@-", ch.url + "/"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(sql));
    await w.close();
    const out = await child.output();
    const status = Number(new TextDecoder().decode(out.stdout).trim());
    if (!out.success || status !== 200) {
      let body = "";
      try {
        body = Deno.readTextFileSync(file).slice(0, 2000);
      } catch {
        // no file
      }
      throw new Error(
        `exporting ${table}/${service}: curl ${out.code}, HTTP ${status}: ` +
          `${new TextDecoder().decode(out.stderr)}${body}`,
      );
    }
  }
}
