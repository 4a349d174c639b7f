/**
 * `log_tail` over a table (issue #14): the last rows of one source (of a level, in a window), oldest first.
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import { printable } from "../../guard/printable.ts";
import { LineRedactor } from "../../guard/redact.ts";
import type { Call } from "../backend.ts";
import type { TailAnswer, TailQuery } from "../tail_query.ts";
import { bodyBytes, NO_LINE_NUMBERS, scopeOf } from "./call_scope.ts";
import type { ClickHouseEnv } from "./clickhouse_env.ts";
import { rowLine } from "./row_line.ts";

/**
 * The last `q.lines` rows of one source of the table, by time (equal times in the table's stable order).
 *
 * @param env The table, limits, masking.
 * @param q The log (`TABLE/SOURCE`), how many rows, the level, the window.
 * @param call The client's cancellation.
 * @returns The rows as lines (`TIME LEVEL BODY`, `line_no` null), oldest first.
 * @throws {ToolError} `invalid_argument` for a glob; `budget_exceeded` when the query did not finish within
 *   the search budgets; `invalid_time`; the table's errors (`not_found` naming the closest names, …).
 */
export async function tableTail(env: ClickHouseEnv, q: TailQuery, call?: Call): Promise<TailAnswer> {
  const { table } = env;
  const { scope, window, glob } = await scopeOf(
    env,
    table,
    { file: q.file, level: q.level, ...q.window },
    { ms: env.limits.searchMs, bytes: env.limits.searchBytes },
    undefined,
    call,
  );
  if (glob) {
    throw new ToolError("invalid_argument", "log_tail takes one log, not a glob: log_files lists them");
  }
  const got = await table.tail(scope, q.lines, bodyBytes(env.limits.maxLine));
  const redactor = new LineRedactor(env.redact, true);
  let replaced = 0;
  const lines = got.rows.map((row) => {
    const l = rowLine(row, env, redactor);
    replaced += l.replaced;
    return l.line;
  });
  return {
    file: q.file,
    lines,
    whole_file: false,
    dropped_partial: false,
    replaced_bytes: replaced,
    redactions: redactor.count,
    scanned_bytes: got.scanned_bytes,
    time: window,
    unit: "row",
    scope: `of ${printable(table.shown)}, by time (equal times in a stable order); ${NO_LINE_NUMBERS}`,
  };
}
