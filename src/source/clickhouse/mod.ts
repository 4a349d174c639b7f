/**
 * The ClickHouse backend (issue #14): a table of log rows, each distinct source one log. What the rest of
 * logpeek takes from this folder: the source (`table.ts`), and the root's parsing (`target.ts`).
 *
 * Permission: `--allow-net=HOST:PORT`.
 *
 * @module
 */

export { clickHouseTable, MAX_SOURCES } from "./table.ts";
export { ClickHouseBackend } from "./backend.ts";
