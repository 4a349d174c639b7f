/**
 * What logpeek learns of a ClickHouse table once, before its first query: that it exists, that it has the
 * four columns a log needs (time, body, level, source: `LOGPEEK_CLICKHOUSE_COLUMNS`), which of them are
 * Nullable (read as `''` where null), and the time column's kind (`DateTime` in seconds or `DateTime64` in
 * milliseconds), with the keys it can hold. Also the time window as keys of that column, and the limits
 * a query gets from a call's budget.
 *
 * Permission: `--allow-net=HOST:PORT`.
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import type { TableScope } from "./table_types.ts";
import { runQuery } from "./http.ts";
import { sqlIdent, sqlInt, sqlString } from "./sql.ts";
import type { ClickHouseTarget } from "./target.ts";

/** The time column's kind, learned from the server once. */
export interface TimeKind {
  /** Milliseconds per unit of the time key. */
  unitMs: number;
  /** The key of the time column, as an integer expression. */
  key: string;
  /** A value of the time column at a key, as an expression. */
  at: (k: number) => string;
  /**
   * The keys the column can hold (`DateTime`: 0 .. 2^32 − 1 seconds; 18.16's `toDateTime` wraps a number
   * outside them), or null when not bounded here.
   */
  bounds: [number, number] | null;
}

/** The columns as SQL expressions: a Nullable text column reads as `''` where it is null. */
export interface ColumnExprs {
  time: string;
  body: string;
  level: string;
  source: string;
}

/** What a query over the table is built from: where it is, its columns, its time kind, the order's salt. */
export interface TableDb {
  /** The root. */
  t: ClickHouseTarget;
  /** `database`.`table`, quoted. */
  from: string;
  /** The columns as expressions. */
  c: ColumnExprs;
  /** The time column's kind. */
  tk: TimeKind;
  /** Hashed before each row's values in the tie-breaker (`table.ts`). */
  salt: string;
}

/** The most seconds a `DateTime` holds (2106-02-07T06:28:15Z). */
const DATETIME_MAX = 2 ** 32 - 1;

/** What a call lets a query spend: its deadline (`performance.now()` ms) and bytes, and its cancel. */
export interface QueryScope {
  deadline: number;
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * Asks the server for the table's columns and checks them: the four a log needs, none of the time
 * column Nullable, the time column a `DateTime` or `DateTime64`.
 *
 * @param t The root.
 * @param scope The call's deadline and cancel (no byte limit: `system.columns` is small).
 * @param salt The order's salt, carried into the result.
 * @returns The query context every other query is built from.
 * @throws {ToolError} `not_found` when there is no such table (or the user may not see it), `source_error`
 *   when a column is missing, the time column is Nullable or of another type; and what `runQuery` throws.
 */
export async function learnTable(t: ClickHouseTarget, scope: QueryScope, salt: string): Promise<TableDb> {
  const r = await runQuery<{ name: string; type: string }>(
    t,
    `SELECT name, type FROM system.columns WHERE database = ${sqlString(t.database)} AND table = ${
      sqlString(t.table)
    }`,
    { seconds: secondsLeft(scope.deadline), bytes: null },
    scope.signal,
  );
  if (r.rows.length === 0) {
    throw new ToolError(
      "not_found",
      `ClickHouse at ${t.netPermission} has no table ${t.database}.${t.table} (or the user ` +
        `'${t.user}' may not see it): check the root's DATABASE.TABLE`,
    );
  }
  const types = new Map(r.rows.map((x) => [x.name, x.type]));
  const cols = t.columns;
  const missing = (["time", "body", "level", "source"] as const).filter((k) => !types.has(cols[k]));
  if (missing.length) {
    throw new ToolError(
      "source_error",
      `the table ${t.database}.${t.table} has no column ${
        missing.map((k) => `${cols[k]} (${k})`).join(", ")
      }; ` +
        `its columns are ${[...types.keys()].slice(0, 30).join(", ")}: name them with ` +
        "LOGPEEK_CLICKHOUSE_COLUMNS=time=…,body=…,level=…,source=…",
    );
  }
  const nullable = new Set(
    [...types].filter(([, type]) => /^(LowCardinality\()?Nullable\(/.test(type)).map(([n]) => n),
  );
  if (nullable.has(cols.time)) {
    throw new ToolError(
      "source_error",
      `the time column ${cols.time} of ${t.database}.${t.table} is Nullable: logpeek orders and ` +
        "pages rows by time, so every row needs one; name a column that always has one with " +
        "LOGPEEK_CLICKHOUSE_COLUMNS=time=…",
    );
  }
  const text = (name: string) => nullable.has(name) ? `ifNull(${sqlIdent(name)}, '')` : sqlIdent(name);
  const c = {
    time: sqlIdent(cols.time),
    body: text(cols.body),
    level: text(cols.level),
    source: text(cols.source),
  };
  const tk = timeKind(t, types.get(cols.time)!, c.time);
  return { t, from: `${sqlIdent(t.database)}.${sqlIdent(t.table)}`, c, tk, salt };
}

/**
 * The time column's kind from its type.
 *
 * @throws {ToolError} `source_error` for a type other than `DateTime` or `DateTime64`.
 */
function timeKind(t: ClickHouseTarget, type: string, time: string): TimeKind {
  const tt = type.replace(/^Nullable\((.*)\)$/, "$1").replace(/^LowCardinality\((.*)\)$/, "$1");
  if (/^DateTime(\(|$)/.test(tt)) {
    return {
      unitMs: 1000,
      key: `toUInt32(${time})`,
      at: (k) => `toDateTime(${sqlInt(Math.min(DATETIME_MAX, Math.max(0, k)))})`,
      bounds: [0, DATETIME_MAX],
    };
  }
  if (/^DateTime64/.test(tt)) {
    // Newer servers (the OTel exporter's DateTime64(9)): keyed by milliseconds. Not tested here (18.16).
    return {
      unitMs: 1,
      key: `toUnixTimestamp64Milli(${time})`,
      at: (k) => `fromUnixTimestamp64Milli(toInt64(${sqlInt(k)}))`,
      // What DateTime64 holds: 1900-01-01 .. 2299-12-31.
      bounds: [Date.UTC(1900, 0, 1), Date.UTC(2299, 11, 31, 23, 59, 59, 999)],
    };
  }
  throw new ToolError(
    "source_error",
    `the time column ${t.columns.time} of ${t.database}.${t.table} is ${tt}, not DateTime or DateTime64: ` +
      "name another with LOGPEEK_CLICKHOUSE_COLUMNS=time=…",
  );
}

/**
 * The window as inclusive time keys (since inclusive, until exclusive: a row at key k, at k·unit ms, is in
 * when since ≤ k·unit < until), each null when open; bounds the column cannot pass are left open (every row
 * is within them), and a window wholly outside them is `"empty"` (no row can be in it).
 *
 * @param scope The call's window (`since`, `until`: epoch ms or null).
 * @param tk The time column's kind.
 * @returns The keys, or `"empty"`.
 */
export function windowKeys(
  scope: Pick<TableScope, "since" | "until">,
  tk: TimeKind,
): { lo: number | null; hi: number | null } | "empty" {
  let lo = scope.since === null ? null : Math.ceil(scope.since / tk.unitMs);
  let hi = scope.until === null ? null : Math.ceil(scope.until / tk.unitMs) - 1;
  if (tk.bounds) {
    const [min, max] = tk.bounds;
    if ((lo !== null && lo > max) || (hi !== null && hi < min)) return "empty";
    if (lo !== null && lo <= min) lo = null;
    if (hi !== null && hi >= max) hi = null;
  }
  if (lo !== null && hi !== null && lo > hi) return "empty";
  return { lo, hi };
}

/**
 * A byte budget as a query's limit.
 *
 * @param bytes Bytes left (Infinity for none).
 * @returns Null (no limit) for an infinite one, else at least 1.
 */
export function byteLimit(bytes: number): number | null {
  return Number.isFinite(bytes) ? Math.max(1, Math.ceil(bytes)) : null;
}

/**
 * Whole seconds left until `deadline` (`performance.now()` ms), at least 1 (ClickHouse 18.16's
 * `max_execution_time` takes no fraction).
 *
 * @param deadline The deadline.
 * @returns Seconds.
 */
export function secondsLeft(deadline: number): number {
  return Math.max(1, Math.floor((deadline - performance.now()) / 1000));
}
