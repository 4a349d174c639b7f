/**
 * The parts of a row query over a ClickHouse log table: the conditions of a call's scope (sources, level,
 * window), the SELECT list of a row in logpeek's total order (time key, salted hash, source, level, body),
 * the condition "after a position", and a row of the answer as a {@linkcode TableRow}.
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import { levelNames, LEVELS } from "../../read/level.ts";
import type { TablePosition, TableRow, TableScope } from "./table_types.ts";
import { type TableDb, windowKeys } from "./columns.ts";
import { hexBytes } from "./names.ts";
import { sqlInt, sqlString } from "./sql.ts";

/** The most characters of a list of sources in one query (ClickHouse's max_query_size is 256 KiB). */
const MAX_SOURCE_LIST = 200_000;

/**
 * The WHERE conditions of a scope (sources, level, window), as SQL; never empty (`1` first).
 * A level is chosen by the stored texts that fold to it (`lower(level) IN (…)`, the words of
 * `read/level.ts` `levelNames`); UNKNOWN is every other text.
 *
 * @param db The table.
 * @param scope The call's scope.
 * @returns The conditions, to be joined with AND.
 * @throws {ToolError} `invalid_argument` when the scope's list of sources is too long for one query.
 * @throws {RangeError} for a level that is not one of `LEVELS`.
 */
export function scopeWhere(db: TableDb, scope: TableScope): string[] {
  const c = db.c;
  const out: string[] = ["1"]; // never an empty WHERE
  if (scope.sources !== null) {
    const list = scope.sources.map(sqlString).join(", ");
    if (list.length > MAX_SOURCE_LIST) {
      throw new ToolError(
        "invalid_argument",
        `the glob names ${scope.sources.length} logs, too many to list in one query: narrow it, or use a glob ` +
          "that matches every log (then no list is sent)",
      );
    }
    out.push(`${c.source} IN (${list})`);
  }
  if (scope.level !== undefined) {
    const code = LEVELS.indexOf(scope.level as typeof LEVELS[number]);
    if (code < 0) throw new RangeError(`no level ${scope.level}`);
    const names = levelNames();
    if (LEVELS[code] === "UNKNOWN") {
      out.push(`lower(${c.level}) NOT IN (${names.flat().map(sqlString).join(", ")})`);
    } else {
      out.push(names[code].length ? `lower(${c.level}) IN (${names[code].map(sqlString).join(", ")})` : "0");
    }
  }
  const w = windowKeys(scope, db.tk);
  if (w === "empty") out.push("0");
  else {
    if (w.lo !== null) out.push(`${c.time} >= ${db.tk.at(w.lo)}`);
    if (w.hi !== null) out.push(`${c.time} <= ${db.tk.at(w.hi)}`);
  }
  return out;
}

/**
 * The SELECT list and FROM of a row query: `lp_t` the time key, `lp_h` the salted hash, `lp_s` source,
 * `lp_l` level, `lp_b` the body's first `bodyBytes` bytes as hex, `lp_n` its length in bytes.
 *
 * @param db The table.
 * @param bodyBytes The most bytes of a body to fetch.
 * @returns The SQL, up to (not including) WHERE.
 */
export function selectRows(db: TableDb, bodyBytes: number): string {
  const c = db.c;
  return `SELECT ${db.tk.key} AS lp_t, cityHash64(${
    sqlString(db.salt)
  }, ${c.source}, ${c.level}, ${c.body}) ` +
    `AS lp_h, ${c.source} AS lp_s, ${c.level} AS lp_l, hex(substring(${c.body}, 1, ${sqlInt(bodyBytes)})) ` +
    `AS lp_b, length(${c.body}) AS lp_n FROM ${db.from}`;
}

/**
 * The condition "after the position" (rows at its key are all kept: the caller skips `d` of them).
 *
 * @param db The table.
 * @param at The position.
 * @returns The conditions (none for the start).
 */
export function afterPosition(db: TableDb, at: TablePosition): string[] {
  if (at.t === null) return [];
  // The column's own bound first: the engine skips the parts and granules before it.
  const from = `${db.c.time} >= ${db.tk.at(at.t)}`;
  if (at.h === null) return [from];
  return [from, `(lp_t > ${sqlInt(at.t)} OR (lp_t = ${sqlInt(at.t)} AND lp_h >= ${sqlInt(at.h)}))`];
}

/**
 * The end of the scope, as an inclusive time key; null when open.
 *
 * @param db The table.
 * @param scope The call's scope.
 */
export function endKey(db: TableDb, scope: TableScope): number | null {
  const w = windowKeys(scope, db.tk);
  return w === "empty" ? null : w.hi;
}

/**
 * The first time key of a position (its own, or the window's start).
 *
 * @param db The table.
 * @param scope The call's scope.
 * @param at The position.
 */
export function startKey(db: TableDb, scope: TableScope, at: TablePosition): number | null {
  const w = windowKeys(scope, db.tk);
  return at.t ?? (w === "empty" ? null : w.lo);
}

/** A row as the JSON format gives it ({@linkcode selectRows}' names; numbers as text). */
export interface RowJson {
  lp_t: string;
  lp_h: string;
  lp_s: string;
  lp_l: string;
  lp_b: string;
  lp_n: string;
}

/**
 * A row of an answer as the tools take it.
 *
 * @param db The table (its time kind).
 * @param r The row.
 * @returns The row: time in epoch ms, the body's bytes (as fetched) and its whole length.
 */
export function toRow(db: TableDb, r: RowJson): TableRow {
  return {
    timeMs: Number(r.lp_t) * db.tk.unitMs,
    source: r.lp_s,
    rawLevel: r.lp_l,
    body: hexBytes(r.lp_b),
    bodyBytes: Number(r.lp_n),
  };
}
