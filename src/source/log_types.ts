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

/** A place logs come from. */
export interface LogSource {
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
