/**
 * What an answer over a table says of what it did not read: why a page is not complete.
 *
 * @module
 */

import { plural } from "../../core/plural.ts";
import type { TablePage } from "./table_types.ts";

/** Says why a page over a table is not complete. */
export function tableStop(page: TablePage<unknown>, budgets: { time: string; bytes?: string }): string {
  const rows = `${
    plural(page.scanned_rows, "row")
  } of whole queries and ${page.scanned_bytes} bytes read by the server`;
  switch (page.stop_reason) {
    case null:
      return page.complete ? `complete: every row in scope was read (${rows})` : `NOT complete (${rows})`;
    case "limit":
      return `NOT complete (stop_reason: limit): stopped at the match limit (${rows}); more matches may follow`;
    case "cancelled":
      return `NOT complete (stop_reason: cancelled): the client cancelled the call (${rows})`;
    default: {
      const time = page.stop_reason === "time_budget";
      const name = time ? budgets.time : budgets.bytes;
      return `NOT complete (stop_reason: ${page.stop_reason}): ${
        page.cut_queries
          ? `a query was cut by ClickHouse at the ${time ? "time" : "byte"} budget (${name}, given to it as ${
            time ? "max_execution_time, in whole seconds" : "max_bytes_to_read"
          }, honoured to within ${time ? "a second and " : ""}a block); its rows were not used, and the ` +
            "cursor reads them in a shorter time span"
          : `the ${time ? "time" : "byte"} budget (${name}) would not pay for the next query`
      } (${rows}); absence of a row in what was not read proves nothing`;
    }
  }
}
