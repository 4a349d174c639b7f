/**
 * The seam's listing types for the tools (`log_types.ts`: a listed log, a listing, its key and order);
 * what a tool asks a backend is `backend.ts`. Implementations import `log_types.ts` itself. A tool never
 * imports a backend's folder (`local/`, `clickhouse/`; `tests/layers_test.ts`).
 *
 * @module
 */

export * from "./log_types.ts";
