/**
 * The types of the seam between what the tools ask and where log lines come from (`log_source.ts`
 * re-exports them for the tools): a log source, its listing, a table's pages. Implementations import
 * them from here, so no implementation imports the seam that re-exports it (no import circle, issue #25).
 *
 * Also the marker of a listing's stopped count ({@linkcode COUNT_STOPPED}), part of `LogList.unreadable`'s
 * contract.
 *
 * @module
 */

import type { ReadableLog } from "../read/readable_log.ts";

/** One listed log. */
export interface LogEntry {
  /** Its name: exactly the string the other tools take as `file`. */
  file: string;
  /** Its size in bytes; null for a table's log (its `rows` are counted instead). */
  size_bytes: number | null;
  /** A table's log (issue #14): its rows. Absent for a file. */
  rows?: number;
  /** When it was last modified (ISO 8601, UTC); null when the system does not say. */
  modified: string | null;
  /**
   * What its first bytes say it is (`read/format.ts`): `text`, `gzip`, or a format the reading tools
   * refuse (`xz`, `zip`, `journal`, `utf-16le`, …); null when it could not be opened to look.
   */
  format: string | null;
  /**
   * A text log's format (`read/log_format.ts`, detected from its first lines as the reading tools do), or
   * null when it matches none (the general rules); absent for a gzip, refused or unopened log and a table's.
   */
  log_format?: string | null;
  /** Null when the reading tools read it; else why they refuse it and what to run instead. */
  unsupported: string | null;
  /** `"gzip"` for a gzip-compressed log (read, or refused for what it holds), else null. */
  compression: "gzip" | null;
  /**
   * Whether the reading tools read it: false when its format or encoding is one they refuse
   * (`unsupported`), or it could not be opened (permission, gone since it was listed).
   */
  readable: boolean;
  /**
   * Null when readable; else why not, as `kind: message` with the kind a reading tool would answer
   * (`permission_denied: …`, `unsupported_format: xz-compressed; run …`, `unsupported_encoding: …`).
   */
  reason: string | null;
  /**
   * `modified` as epoch milliseconds, or null: the key of the `modified` sort, and what tells the year
   * of a log's year-less timestamps. Not part of `log_files`' answer.
   */
  modified_ms: number | null;
}

/** How a listing is ordered: by name (each folder's entries in code-unit order), or newest first. */
export type ListSort = "name" | "modified";

/**
 * Where a listing resumes: the sort key of the last entry listed. With sort `name` only `file` counts
 * (entries after it in name order); with `modified`, entries after it newest first: older, or as old and
 * after it by name (code-unit order), a null time after every time.
 */
export interface ListKey {
  /** The last entry's name. */
  file: string;
  /** Its `modified_ms`. */
  modified_ms: number | null;
}

/** What to list. */
export interface ListOptions {
  /** Only names this glob matches (`glob.ts`); all when absent. */
  glob?: string;
  /** The order; default `name`. */
  sort?: ListSort;
  /** The most entries to list: a whole number from 1 (1000 for `log_files`). */
  limit: number;
  /** Resume after this entry (from a listing cursor): only entries after it in the order are listed. */
  after?: ListKey;
  /**
   * List only entries the reading tools read (`readable`): one that matches but is not is named in
   * `unreadable` with its reason instead (for a glob given to a reading tool). Default false.
   */
  readableOnly?: boolean;
  /**
   * When the walk must stop (`performance.now()` ms; default: no limit). A walk that stops there says so
   * ({@linkcode LogList.complete} false) and gives where to go on: in name order `next`, in the
   * `modified` order `walk` (issue #22: a newest-first page is given only once every file was compared).
   */
  deadline?: number;
  /** Go on with a newest-first walk that stopped at its deadline (its {@linkcode LogList.walk}). */
  resume?: ListWalk;
}

/**
 * A newest-first walk stopped at its deadline before every file was compared (issue #22): where it
 * stopped and what it kept, for a later call to go on from (`log_files` saves it in the state
 * directory). JSON-safe.
 */
export interface ListWalk {
  /** The name (as listed) of the last entry the walk finished with; the walk goes on after it. */
  at: string;
  /** The newest files kept so far: `[file, real path, modified ms or null, size, dev, ino or null]`. */
  kept: [string, string, number | null, number, number, number | null][];
  /** Entries counted as not listed so far. */
  not_listed: number;
  /** Of those, files past the cap. */
  beyond: number;
  /** A readable file is known past the page (with `readableOnly`). */
  overflow: boolean;
  /** The `unreadable` entries so far. */
  unreadable: string[];
  /** The real paths of the folders walked so far (a link to one is not walked twice). */
  dirs: string[];
  /** Files compared so far, over every call of this walk. */
  seen: number;
}

/** The `log_files` result. */
export interface LogList {
  /**
   * The logs in the order asked: by name segment by segment (each folder's entries in code-unit order;
   * several roots in their order), or newest first (modified time, then name in code-unit order).
   */
  files: LogEntry[];
  /**
   * True only when every entry under the roots that could be a log (that the glob matches, with one;
   * after the key, with one) is listed: false when more logs exist than were listed, a folder could not
   * be read, or an entry was refused (a symlink out of the roots, a name the tools could not take).
   */
  complete: boolean;
  /** Entries not listed (the first 20), each `name: reason`. */
  unreadable: string[];
  /** How many entries were not listed, all of them (`unreadable` names only the first 20). */
  not_listed: number;
  /** The key to resume after ({@linkcode ListOptions.after}) when more entries match; else null. */
  next: ListKey | null;
  /**
   * Set when a newest-first walk stopped at its deadline before every file was compared: then `files` is
   * empty (no file can be named the newest yet) and this is passed back as {@linkcode ListOptions.resume}.
   */
  walk?: ListWalk;
  /**
   * How `log_files`' header names what is listed, in the backend's words, when not log files under the
   * roots: `what`, the count's noun and what one entry is (a table's: `log(s) in t.gen (each a value of
   * its source column, …)`); `items`, the plural noun. Absent: `log file(s)`, `files`.
   */
  listed_as?: { what: string; items: string };
  /**
   * A first page of a glob that matched nothing: the log names closest to it, closest first, where the
   * backend looks for them (files; absent for a table).
   */
  closest?: string[];
}

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

/** A place logs come from. */
export interface LogSource {
  /** A table that answers queries itself (a ClickHouse root); absent for files. */
  table?: LogTable;
  /**
   * Lists the logs, in a stable order.
   *
   * @param opts The glob, the order, the most entries, where to resume.
   * @returns The entries, whether they are all of them, and where the next page starts.
   * @throws {TypeError} for a malformed glob (`glob.ts` `globMatcher`).
   * @throws {RangeError} for a limit that is not a whole number from 1, or a glob whose braces expand
   *   too far.
   */
  list(opts: ListOptions): Promise<LogList>;
  /**
   * Opens one log for reading; the caller closes it.
   *
   * @param name The log's name, as {@linkcode LogSource.list} gives it.
   * @throws {ToolError} (`src/core/errors.ts`) when the log cannot be read: `not_found`,
   *   `outside_roots`, `unsafe_path`, `permission_denied`, `not_a_file`, `invalid_path`,
   *   `unsupported_encoding`, `unsupported_format`.
   */
  open(name: string): Promise<ReadableLog>;
}

/**
 * How an entry of {@linkcode LogList.unreadable} begins when it says the count of entries not listed is a
 * lower bound (the walk past the cap stopped at its time budget: `list_logs.ts` `countStopped`).
 */
export const COUNT_STOPPED = "(the count):";
