/**
 * What the ClickHouse backend's calls are built with: the backend's environment and the table.
 *
 * @module
 */

import type { BackendEnv } from "../backend.ts";
import type { LogTable } from "./table_types.ts";

/** The environment of a call over a table. */
export interface ClickHouseEnv extends BackendEnv {
  /** The table (`table.ts`): it answers list, tail, search and level counts with SQL. */
  table: LogTable;
}
