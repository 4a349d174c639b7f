/**
 * The backend seam (issue #25): one interface every log source implements — local files (the scanner,
 * `local/`) and a ClickHouse table (SQL pushed down, `clickhouse/`) — with the same typed queries and
 * answers. A tool turns its validated arguments into one query, asks {@linkcode LogBackend}, and renders
 * the typed answer; it never knows which backend it has (`tests/layers_test.ts` fails on a tool that
 * imports an implementation).
 *
 * What a backend cannot do it says through {@linkcode LogBackend.lacks}: the reason, in words a model
 * acts on, which the tool answers as `invalid_argument` ({@linkcode refuseLacking}). Shaped after
 * thanos-io/objstore: one `Bucket` interface, a folder per provider, one acceptance test over each
 * (`tests/backend_contract_test.ts`).
 *
 * @module
 */

import type { Limits } from "../core/config.ts";
import { ToolError } from "../core/errors.ts";
import type { PatternTester } from "../read/pattern_offload.ts";
import type { ListOptions, LogList } from "./log_types.ts";
import type { TailAnswer, TailQuery } from "./tail_query.ts";
import type { SearchAnswer, SearchQuery } from "./search_query.ts";
import type { LevelsAnswer, LevelsQuery } from "./levels_query.ts";
import type { PatternsAnswer, PatternsQuery } from "./patterns_query.ts";

/** What one call brings besides its query: the client's cancellation and progress reporting. */
export interface Call {
  /** Aborted when the client cancels the call (`notifications/cancelled`). */
  signal?: AbortSignal;
  /**
   * Reports progress (`notifications/progress`) when the client asked for it with a progressToken: the
   * offset reached (bytes for a file), the total, and a short message. Undefined otherwise.
   */
  progress?: (offset: number, total: number, message: string) => void;
}

/** What every backend is built with: the limits and budgets, masking, the cursor key, diagnostics. */
export interface BackendEnv {
  /** Limits and budgets (`core/config.ts`). */
  limits: Limits;
  /** Mask secrets in returned log text (false for `--no-redact`). */
  redact: boolean;
  /** The key cursors are sealed with (HMAC-SHA-256, 32 bytes; `read/cursor.ts`, `core/seal.ts`). */
  cursorKey: Uint8Array;
  /** Writes one diagnostic line to stderr (never stdout). */
  stderr: (line: string) => void;
  /** Where a slow pattern test runs so it can be stopped (`read/pattern_offload.ts`); default a worker. */
  patterns?: PatternTester;
  /** The clock `log_patterns`' budget is read on (`performance.now()` ms scale); default `performance.now`. */
  clock?: () => number;
}

/**
 * What a backend may lack, each named by what a call asks for: `context` (lines around a match),
 * `template_id` (a search by a mined template), `patterns` (`log_patterns`' template mining).
 */
export type Capability = "context" | "template_id" | "patterns";

/** A source of logs that answers the reading tools' queries. */
export interface LogBackend {
  /** The backend's kind, for diagnostics and the trace (`files`, `clickhouse`); no tool branches on it. */
  readonly kind: string;
  /** What it reads, as shown to a model (the roots, or the table; never a password). */
  readonly shown: string;
  /**
   * Why this backend does not answer `what`, in words a model acts on (what to call instead), or null
   * when it does.
   */
  lacks(what: Capability): string | null;
  /**
   * Lists the logs (`log_files`).
   *
   * @throws {TypeError} for a malformed glob; {@linkcode ToolError} the source's errors.
   * @throws {RangeError} for a limit that is not a whole number from 1, or a glob whose braces expand too far.
   */
  list(q: ListOptions, call?: Call): Promise<LogList>;
  /**
   * The last lines of one log (`log_tail`).
   *
   * @throws {ToolError} `not_found`, `invalid_argument` (a glob), `invalid_time`, `no_timestamps`, the source's errors.
   */
  tail(q: TailQuery, call?: Call): Promise<TailAnswer>;
  /**
   * The lines that match, one log or a glob, under the search budgets (`log_search`).
   *
   * @throws {ToolError} `invalid_pattern`, `invalid_cursor`, `invalid_time`, `no_timestamps`, the source's errors.
   */
  search(q: SearchQuery, call?: Call): Promise<SearchAnswer>;
  /**
   * The lines (rows) per level, one log or a glob, under the levels budget (`log_levels`).
   *
   * @throws {ToolError} `invalid_cursor`, `invalid_time`, `no_timestamps`, the source's errors.
   */
  levels(q: LevelsQuery, call?: Call): Promise<LevelsAnswer>;
  /**
   * The templates of the lines and their counts, against a baseline (`log_patterns`).
   *
   * @throws {ToolError} `invalid_argument` where {@linkcode LogBackend.lacks} `patterns`; `invalid_cursor`,
   *   `invalid_time`, the source's errors.
   */
  patterns(q: PatternsQuery, call?: Call): Promise<PatternsAnswer>;
  /**
   * What a failed call throws, with what this backend can add to help the model on: for a `not_found` of
   * a log named outright, the closest names of its logs that open now (issue #24); else `e` as it was.
   * Never rejects.
   *
   * @param e What the call threw.
   * @param names The names the call gave outright (`file`, `baseline_file`).
   * @returns The error to throw instead.
   */
  explain(e: unknown, names: readonly (string | undefined)[]): Promise<unknown>;
}

/**
 * Refuses a call that asks `backend` for what it lacks.
 *
 * @param backend The backend.
 * @param what What the call asks for.
 * @throws {ToolError} `invalid_argument` with the backend's reason, when it lacks `what`.
 * @example
 * ```ts
 * refuseLacking(ctx.backend, "context"); // throws over a table: rows have no neighbours by line
 * ```
 */
export function refuseLacking(backend: LogBackend, what: Capability): void {
  const why = backend.lacks(what);
  if (why !== null) throw new ToolError("invalid_argument", why);
}

export type { TailAnswer, TailQuery } from "./tail_query.ts";
export type { SearchAnswer, SearchQuery } from "./search_query.ts";
export type { LevelsAnswer, LevelsQuery } from "./levels_query.ts";
export type { PatternsAnswer, PatternsQuery } from "./patterns_query.ts";
