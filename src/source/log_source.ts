/**
 * The seam between what the tools ask and where log lines come from: a **log source** lists its logs
 * (name, size, modified time) and opens one for reading ({@linkcode ReadableLog}: forward bytes from an
 * offset, a tail window's bytes, identity for cursors). The tools see only this interface
 * (`ToolContext.source`); they never import an implementation.
 *
 * Implementations: `local_source.ts` (files under the roots given on the command line, confined and
 * opened race-free). A second one (a ClickHouse table, issue #14) answers the same calls.
 *
 * What works over any source is exported here too, for the tools: `isGlob` and `globMatcher`
 * (`glob.ts`), and `matchingLogs`, `matchingLogList`, `closestNames` and `closestLogNames` (`matching_logs.ts`: the logs a
 * glob names, newest first).
 *
 * @module
 */

import type { ReadableLog } from "../read/readable_log.ts";

// What works on any log source, for the tools (which import this module only of source/): globs over
// log names, and the logs a glob names.
export { globMatcher, isGlob } from "./glob.ts";
export { closestLogNames, closestNames, matchingLogList, matchingLogs } from "./matching_logs.ts";

/** One listed log. */
export interface LogEntry {
  /** Its name: exactly the string the other tools take as `file`. */
  file: string;
  /** Its size in bytes. */
  size_bytes: number;
  /** When it was last modified (ISO 8601, UTC); null when the system does not say. */
  modified: string | null;
  /**
   * What its first bytes say it is (`read/format.ts`): `text`, `gzip`, or a format the reading tools
   * refuse (`xz`, `zip`, `journal`, `utf-16le`, …); null when it could not be opened to look.
   */
  format: string | null;
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
  list(opts: ListOptions): LogList;
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
