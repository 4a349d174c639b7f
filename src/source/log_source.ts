/**
 * What the tools take from `source/` besides the backend seam (`backend.ts`): the seam's listing types
 * (`log_types.ts`: a listed log, a listing, its key), and what works over any names: `isGlob` and
 * `globMatcher` (`glob.ts`), and `matchingLogs`, `matchingLogList`, `closestNames` and `closestLogNames`
 * (`matching_logs.ts`: the logs a glob names, newest first). A tool never imports a backend's folder
 * (`local/`, `clickhouse/`; `tests/layers_test.ts`).
 *
 * @module
 */

export * from "./log_types.ts";
export { globMatcher, isGlob } from "./glob.ts";
export { closestLogNames, closestNames, matchingLogList, matchingLogs } from "./matching_logs.ts";
