/**
 * # src/source/
 *
 * Where log lines come from. `backend.ts` is the seam the tools call (issue #25): a `LogBackend` lists
 * logs, tails, searches, counts levels and mines templates, each from one typed query (`tail_query.ts`,
 * `search_query.ts`, `levels_query.ts`, `patterns_query.ts`) to one typed answer, and says what it lacks.
 * Two backends, a folder each: `local/` (files under the roots: confinement by real path and against
 * swapped folders, the race-free open, the listing, the scanner's calls over one log or a glob, template
 * mining) and `clickhouse/` (a table; every query SQL). Over any names: globs (`glob.ts`) and the logs a
 * glob names (`matching_logs.ts`). May import read, guard and core.
 *
 * Layers, highest first: cli, server, tools, state, source, read, guard, core; an import goes to
 * the same layer or a lower one (`tests/layers_test.ts`; ARCHITECTURE.md).
 *
 * @module
 */

export {};
