/**
 * The seam between what the tools ask and where log lines come from: a **log source** lists its logs
 * (name, size, modified time) and opens one for reading ({@linkcode ReadableLog}: forward bytes from an
 * offset, a tail window's bytes, identity for cursors). The tools see only this interface
 * (`ToolContext.source`); they never import an implementation.
 *
 * Implementations: `local_source.ts` (files under the roots given on the command line, confined and
 * opened race-free). A second one (a ClickHouse table, issue #14) answers the same calls.
 *
 * @module
 */

import type { ReadableLog } from "../read/readable_log.ts";

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
}

/** The `log_files` result. */
export interface LogList {
  /** The logs, sorted by name segment by segment (each folder's entries in code-unit order). */
  files: LogEntry[];
  /**
   * True only when every entry under the roots that could be a log is listed: false when more logs exist
   * than were listed, a folder could not be read, or an entry was refused (a symlink out of the roots, a
   * name the tools could not take).
   */
  complete: boolean;
  /** Entries not listed (the first 20), each `name: reason`. */
  unreadable: string[];
  /** How many entries were not listed, all of them (`unreadable` names only the first 20). */
  not_listed: number;
}

/** A place logs come from. */
export interface LogSource {
  /**
   * Lists the logs, in a stable order.
   *
   * @param max The most entries to list.
   * @returns The entries, and whether they are all of them.
   */
  list(max: number): LogList;
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
