/**
 * `log_files` over a table (issue #14): each distinct source a log, `<label>/<source>`, with its rows
 * (`size_bytes` null) and its last row's time as `modified`, under the search budgets (`listing.ts`).
 *
 * @module
 */

import { printable } from "../../guard/printable.ts";
import type { ListOptions, LogList } from "../log_types.ts";
import type { ClickHouseEnv } from "./clickhouse_env.ts";

/**
 * One page of the table's logs, with the words that say what a log is there ({@linkcode LogList.listed_as}).
 *
 * @param env The table, limits.
 * @param q The glob, sort, limit, where to resume.
 * @returns The page.
 * @throws {TypeError} for a malformed glob; {@linkcode ToolError} the table's errors.
 * @throws {RangeError} for a limit that is not a whole number from 1, or a glob whose braces expand too far.
 */
export async function tableList(env: ClickHouseEnv, q: ListOptions): Promise<LogList> {
  const { table, limits } = env;
  const list = await table.list(q, {
    deadline: performance.now() + limits.searchMs,
    maxBytes: limits.searchBytes,
    budgetMs: limits.searchMs,
  });
  return {
    ...list,
    listed_as: {
      what: `log(s) in ${printable(table.shown)} (each a value of its source column, named ` +
        `${printable(table.label)}/<source>; rows counted, modified = the last row's time)`,
      items: "logs",
    },
  };
}
