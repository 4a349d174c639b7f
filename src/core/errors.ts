/**
 * Expected failures of a tool call, which reach the model as `isError` results that say what happened
 * and what to do next (the seed's "ожидаемая ошибка": a log that is missing is a reason for the next
 * observation, never an empty answer).
 *
 * @module
 */

/**
 * What kind of expected failure happened. The kind is the first word of the error text.
 * - `not_found`: no such log (renamed, rotated or never there);
 * - `permission_denied`: the operating system or Deno's permissions refused the read;
 * - `not_a_file`: a directory, FIFO, socket or device;
 * - `outside_roots`: the path leads outside the log roots (`..`, an absolute path, a symlink out);
 * - `invalid_path`: the path is malformed (empty, NUL byte, backslash);
 * - `unsafe_path`: a folder on the path could be swapped by a user other than root and logpeek's own
 *   (`confine.ts`), so what the path leads to cannot be trusted;
 * - `unsupported_encoding`: the log is UTF-16 or UTF-32 (a byte-order mark says so);
 * - `unsupported_format`: the log is in a format logpeek does not read as text — compressed other than
 *   by gzip (xz, bzip2, zstd, …), an archive (zip, tar, …), a systemd journal, a binary database or
 *   program — recognised by its magic bytes (`read/format.ts`); the message names what to run instead;
 * - `corrupt_gzip`: a gzip log whose compressed data is damaged or cut short;
 * - `budget_exceeded`: the work did not fit in its time budget (a whole `.gz` to tail);
 * - `invalid_artifact_id`: not an artifact id of this server's form;
 * - `artifact_not_found`: no such artifact (never made, expired, or removed to keep the size cap);
 * - `file_changed`: the log shrank while it was being read (truncated, rotated in place), was rewritten
 *   in place (its modification time changed, its size did not), or changed under a resume cursor;
 * - `invalid_cursor`: a cursor this server did not make, or made for another tool, log or query;
 * - `invalid_pattern`: a regular expression that does not compile;
 * - `invalid_time`: a `since` or `until` that is no instant or duration, or a window that ends before it
 *   begins (issue #12);
 * - `no_timestamps`: a time window was asked of logs in which no line's timestamp could be read, so no
 *   line could be placed in it (issue #12: never an empty "complete" answer);
 * - `invalid_argument`: arguments that cannot go together, or a needed one missing (`log_search` takes
 *   `text` or `template_id`, issue #13), or a call a ClickHouse root does not answer (issue #14);
 * - `source_unreachable`: the ClickHouse server of a root did not answer (refused, no route, a name that
 *   does not resolve, no answer in time): check that it runs and the root's host and port;
 * - `source_error`: the ClickHouse server answered with an error other than those above (a missing
 *   column, a wrong type, a setting it refuses); the message names what to check.
 */
export type ToolErrorKind =
  | "not_found"
  | "permission_denied"
  | "not_a_file"
  | "outside_roots"
  | "invalid_path"
  | "unsafe_path"
  | "unsupported_encoding"
  | "unsupported_format"
  | "corrupt_gzip"
  | "budget_exceeded"
  | "invalid_artifact_id"
  | "artifact_not_found"
  | "file_changed"
  | "invalid_cursor"
  | "invalid_pattern"
  | "invalid_time"
  | "no_timestamps"
  | "invalid_argument"
  | "source_unreachable"
  | "source_error";

/**
 * An expected failure of a tool call. Tool handlers throw it; the outcome wrapper turns it into an
 * `isError` result whose text is `kind: message`. Any other exception is unexpected.
 */
export class ToolError extends Error {
  /** What kind of failure. */
  readonly kind: ToolErrorKind;
  /**
   * @param kind What kind of failure.
   * @param message What happened and what to do next, for the model to read.
   */
  constructor(kind: ToolErrorKind, message: string) {
    super(message);
    this.name = "ToolError";
    this.kind = kind;
  }
}
