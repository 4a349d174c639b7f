/**
 * How a page of a ClickHouse log goes on after a query that a budget cut (`table.ts`, **Budgets**): the
 * same rows in a shorter span of the time key, shortened in proportion to what the cut query read.
 *
 * @module
 */

import type { TablePosition, TableResume, TableScope } from "./table_types.ts";
import { secondsLeft, type TableDb } from "./columns.ts";
import { runQuery } from "./http.ts";
import { endKey, scopeWhere, startKey } from "./rows.ts";

/**
 * The first and last time keys and the count of the scope's rows with keys in [from, to] (each bound
 * open when null).
 *
 * @returns The keys and count; `"empty"` when there are none; null when the query did not finish.
 */
async function keyRange(
  db: TableDb,
  scope: TableScope,
  from: number | null,
  to: number | null,
): Promise<[number, number, number] | "empty" | null> {
  const where = scopeWhere(db, scope);
  if (from !== null) where.push(`${db.c.time} >= ${db.tk.at(from)}`);
  if (to !== null) where.push(`${db.c.time} <= ${db.tk.at(to)}`);
  const r = await runQuery<{ a: string; b: string; c: string }>(
    db.t,
    `SELECT min(${db.tk.key}) AS a, max(${db.tk.key}) AS b, count() AS c FROM ${db.from} WHERE ${
      where.join(" AND ")
    }`,
    { seconds: Math.max(1, secondsLeft(scope.deadline)), bytes: null },
    scope.signal,
  );
  if (r.cut || !r.rows.length) return null;
  if (Number(r.rows[0].c) === 0) return "empty";
  return [Number(r.rows[0].a), Number(r.rows[0].b), Number(r.rows[0].c)];
}

/**
 * Where the next page resumes after a query from `at` over `span` was cut, having read `rowsRead` rows:
 * the same rows in a span shortened in proportion to what the query read of them (at most half; at
 * least 0: one instant). An open span is first closed at the scope's end or its last row, and an open
 * start moved to the scope's first row.
 *
 * @param db The table.
 * @param scope The call's scope.
 * @param at Where the cut query began.
 * @param span Its span in time keys (null: open).
 * @param rowsRead The rows the server read before the cut.
 * @returns The resume; `empty` when a count says the cut span holds no row of the scope.
 */
export async function shorterSpan(
  db: TableDb,
  scope: TableScope,
  at: TablePosition,
  span: number | null,
  rowsRead: number,
): Promise<TableResume & { empty?: boolean }> {
  const start = startKey(db, scope, at);
  const end = endKey(db, scope);
  const asked = span !== null && start !== null ? start + span : end;
  const range = await keyRange(db, scope, start, asked);
  if (range === "empty") {
    // The count (a whole query) says the cut span holds no row of the scope: it is passed, and an open
    // one ends the scope.
    return asked === null ? { at, span: null, last: null, empty: true } : {
      at: { t: asked + 1, h: null, d: 0 },
      span: span === null ? null : Math.max(1, span * 2),
      last: null,
    };
  }
  if (range === null) return { at, span: span === null ? 0 : Math.floor(span / 2), last: null };
  const lo = at.t ?? range[0];
  const hi = Math.min(asked ?? range[1], range[1]);
  // A cut query that read as many rows as the span holds was stopped by what it must read whatever the
  // span (whole granules, other sources' rows in them): a shorter span helps less, so it shrinks eightfold
  // and soon reaches one instant, which says at once when even that cannot be read (a second trial: 16
  // empty pages of halving).
  const ratio = (0.8 * rowsRead) / range[2];
  const share = ratio >= 1 ? 0.125 : Math.min(0.5, Math.max(0, ratio));
  return {
    at: at.t === null ? { t: lo, h: null, d: 0 } : at,
    span: Math.max(0, Math.floor((hi - lo) * share)),
    last: asked === null ? range[1] : null,
  };
}
