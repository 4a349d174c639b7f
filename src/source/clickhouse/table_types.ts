/**
 * The types of a table of log rows that answers queries itself (issue #14): where a query resumes in
 * its rows' order, what a query reads, a row, a page, and the table (`LogTable`, implemented by
 * `table.ts`). Only the ClickHouse backend's modules see them; the tools see the seam's answers.
 *
 * @module
 */

import type { ListOptions, LogList } from "../log_types.ts";

/** Where a query over a table resumes: a position in its rows' order (time, hash, then content). */
export interface TablePosition {
  /** The time key (seconds for `DateTime`, ms for `DateTime64`), or null: from the first row. */
  t: number | null;
  /**
   * The tie-breaker of the last row passed (`cityHash64(salt, source, level, body)` as decimal digits; masked in a cursor), or
   * null: every row at time `t` or later.
   */
  h: string | null;
  /** How many rows with exactly the key (t, h) were passed: equal rows are skipped by count. */
  d: number;
}

/** Where a query over a table resumes, and how much of the table (in time) one query takes. */
export interface TableResume {
  /** The position. */
  at: TablePosition;
  /**
   * The time span (in time-key units) the next query covers from `at`, or null: all the rest. Set after a
   * query was cut by a budget (then halved), doubled after each whole one.
   */
  span: number | null;
  /**
   * The scope's last time key when a span was first set (a span reaching it is left open, so rows written
   * since are read too); null: not known.
   */
  last?: number | null;
}

/** What a query over a table reads: which logs, levels and window, under which budgets. */
export interface TableScope {
  /**
   * The sources (the source column's values, not the names); null: every source (a glob that matched all
   * of them: no filter, so no list that could outgrow a query).
   */
  sources: string[] | null;
  /** Only rows of this level (folded as `read/level.ts` `levelOfName`). */
  level?: string;
  /** Rows at or after this instant (epoch ms), before `until`; null: no bound. */
  since: number | null;
  /** Rows before this instant (epoch ms); null: no bound. */
  until: number | null;
  /** When the call's time budget ends (`performance.now()` ms). */
  deadline: number;
  /** The bytes the call may make the server read. */
  maxBytes: number;
  /**
   * The call's time budget in ms, as configured: 0 reads nothing (as over files); any other budget reads at
   * least one query's worth (a query gets whole seconds), even when naming the logs spent it.
   */
  budgetMs: number;
  /** The client cancelled. */
  signal?: AbortSignal;
}

/** One row of a table, as read (the body's first bytes only). */
export interface TableRow {
  /** Its time, epoch ms. */
  timeMs: number;
  /** Its source (the log it belongs to). */
  source: string;
  /** Its level text as stored. */
  rawLevel: string;
  /** The body's first bytes. */
  body: Uint8Array;
  /** The body's whole length in bytes. */
  bodyBytes: number;
}

/** What a page over a table did. */
export interface TablePage<T> {
  /** What was kept, in the table's order (time, then the tie-breaker). */
  items: T[];
  /** True when every row of the scope was read (and, for a search, every match returned). */
  complete: boolean;
  /** Why not complete. */
  stop_reason: "limit" | "time_budget" | "size_budget" | "cancelled" | null;
  /** Where the next page resumes; null when complete, or when no progress can be made. */
  next: TableResume | null;
  /** False when this page read nothing whole within its budget and a next page would not either. */
  progress: boolean;
  /**
   * Rows the server read for this page: of the first whole query over each span (a query that goes on in
   * the same span re-reads it and is not counted again).
   */
  scanned_rows: number;
  /**
   * Bytes the server read for this page, as `scanned_rows` counts (cut queries included); the byte budget
   * counts every query.
   */
  scanned_bytes: number;
  /** Queries cut by a budget whose rows were not used (the next page covers them in smaller spans). */
  cut_queries: number;
}

/** A table that answers the reading tools' questions itself (issue #14). */
export interface LogTable {
  /** The root as shown (never a password). */
  shown: string;
  /** The prefix of its logs' names. */
  label: string;
  /** Lists its logs (each distinct source), with row counts and the last time as `modified`. */
  list(opts: ListOptions, scope: { deadline: number; maxBytes: number; budgetMs: number }): Promise<LogList>;
  /**
   * The sources a `file` argument names: one log's name (first, even when it holds a glob's characters),
   * or a glob over the names.
   *
   * @throws {ToolError} `not_found` (naming the closest names), `outside_roots` for a name of another root,
   *   `invalid_pattern` for a malformed glob, `invalid_argument` for a source that is not served (its value
   *   holds a secret, or is not valid UTF-8).
   */
  sources(
    file: string,
    scope: { deadline: number; maxBytes: number },
  ): Promise<{ names: string[]; all: boolean }>;
  /** The last `n` rows of the scope, oldest first (ties in the table's order). */
  tail(scope: TableScope, n: number, bodyBytes: number): Promise<{ rows: TableRow[]; scanned_bytes: number }>;
  /**
   * The rows whose body holds `text` (or matches `regex`, RE2 on the server), in the table's order, from
   * `resume`, each offered to `keep` (the caller's own test of the row as it will show it; false drops
   * it), until `limit` are kept or the scope is read or a budget ends.
   */
  search<T>(
    scope: TableScope,
    find: { text: string; regex: boolean; ignoreCase: boolean },
    limit: number,
    bodyBytes: number,
    resume: TableResume | null,
    keep: (row: TableRow) => T | null,
  ): Promise<TablePage<T>>;
  /**
   * Rows per source and stored level text (`[source, level text, rows]`), from `resume` until the scope is
   * read or a budget ends.
   */
  levels(scope: TableScope, resume: TableResume | null): Promise<TablePage<[string, string, number]>>;
}
