/**
 * What the reading operations (tail, search, level counts, cursors) need of one open log, whatever it
 * comes from: its name, its size and first bytes, forward bytes from an offset, a few bytes at an
 * offset, and its identity. A log source (`src/source/`) gives these; the read layer never opens a
 * file itself.
 *
 * @module
 */

import type { ByteSource } from "./scanner.ts";

/**
 * Forward bytes of a log that notice when the log changes under them: it shrinks (truncated, rotated in
 * place), or is rewritten in place (same size, another modification time). Reading stops at a change.
 * A log that grows is taken for one appended to: only the bytes it had when opened are read, and that
 * is no change. (The local source checks every MiB read and at the end: `source/local/log_file.ts`.)
 */
export interface LogBytes extends ByteSource {
  /** How the log changed while it was read ("shrank from 900 to 100 bytes …"), or null. */
  readonly changed: string | null;
  /**
   * Checks for a change now (after a scan that stopped before the end, say), and returns `changed`.
   */
  check(): string | null;
}

/** The identity of a log for a resume cursor: a rotated or replaced log is another one. */
export interface LogIdentity {
  /** Device and inode (for a file), or any pair of numbers that changes when the log is replaced. */
  dev: number;
  ino: number;
  /** Its size in bytes now (compressed bytes for a gzip log). */
  size: number;
}

/** One open log. Close it with `using` or {@linkcode ReadableLog.close}. */
export interface ReadableLog extends Disposable {
  /** Its name, as `log_files` lists it. */
  readonly name: string;
  /** Its size in bytes when opened (compressed bytes for a gzip log). */
  readonly size: number;
  /** Bytes of a UTF-8 byte-order mark at its start (0 or 3), which no line includes. */
  readonly bomLength: number;
  /**
   * When it was last modified when opened (epoch ms), or null/absent when not known: the year of a
   * timestamp that has none (RFC 3164 syslog) is taken from it (`timestamp.ts`).
   */
  readonly modifiedMs?: number | null;
  /** True for a gzip-compressed log (read through `gzip_source.ts`; offsets are decompressed ones). */
  readonly gzip: boolean;
  /**
   * Its raw bytes from `start` to `end` (default: its size when opened). Lines appended during the call
   * are not read: an answer describes the log as it was when the call began.
   */
  bytes(start: number, end?: number): LogBytes;
  /** Up to `length` raw bytes at `offset` (fewer at the end). */
  readRange(offset: number, length: number): Uint8Array;
  /** The raw byte at `offset`, or null past the end. */
  byteAt(offset: number): number | null;
  /** Its identity and size now. */
  identity(): LogIdentity;
  /** Closes it. */
  close(): void;
}

/** Where a scan goes on: the next page of a search or a count (see `cursor.ts`). */
export interface ResumePoint {
  /** The byte offset reading goes on from. */
  off: number;
  /** The byte offset where the line being read began (`off` when at a line start). */
  ls: number;
  /** Lines read to their end before `ls`. */
  line: number;
  /** The line being read holds the needle already. */
  pending: boolean;
  /** A line number already returned (cut), not to return again; 0 for none. */
  skip: number;
  /**
   * With context lines (issue #12): where the lines before `ls` that the next page shows as context begin
   * (a line start at or before `ls`), and the lines before it; absent (or `ls`) for none. The next page
   * reads them again for context only.
   */
  cs?: number;
  cl?: number;
}
