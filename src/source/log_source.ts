/**
 * The seam between what the tools ask and where log lines come from: a **log source** lists its logs
 * (name, size, modified time) and opens one for reading (`read/readable_log.ts` `ReadableLog`: forward
 * bytes from an offset, a tail window's bytes, identity for cursors). The tools see only this module of
 * `source/` (`ToolContext.source`); they never import an implementation (`tests/layers_test.ts`).
 *
 * The types are in `log_types.ts` (implementations import them from there). Implementations:
 * `local_source.ts` (files under the roots given on the command line, confined and opened race-free), and
 * `clickhouse/` (a ClickHouse table, issue #14). A table is not bytes: it answers queries itself (the
 * engine filters, sorts and counts), so a source that is a table has a `LogTable` in `table`, and the
 * reading tools ask it instead of opening a log (`list` and `open` of such a source refuse).
 *
 * What works over any source is exported here too, for the tools: `isGlob` and `globMatcher`
 * (`glob.ts`), and `matchingLogs`, `matchingLogList`, `closestNames` and `closestLogNames`
 * (`matching_logs.ts`: the logs a glob names, newest first).
 *
 * @module
 */

export * from "./log_types.ts";
export { globMatcher, isGlob } from "./glob.ts";
export { closestLogNames, closestNames, matchingLogList, matchingLogs } from "./matching_logs.ts";
