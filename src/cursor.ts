/**
 * Resume cursors (issue #5): an incomplete `log_search` or `log_levels` returns `next_cursor`, and the
 * same call with `cursor` goes on exactly where the last one stopped — no line lost, none repeated,
 * line numbers continuous.
 *
 * A cursor is opaque to the client (base64url of JSON) and records: the tool, the log's name, a hash
 * of the query, the file's identity (device and inode), where the next page starts (a byte offset at a
 * line start, and the lines before it), and fingerprints of what was read (the first bytes, and the
 * bytes just before the offset). Resuming refuses, saying which: a cursor for another tool, file or
 * query; a log rotated away (another file has its name now); a log truncated below the offset; a log
 * whose already-read part changed. It never continues silently on a different file.
 *
 * @module
 */

import { ToolError } from "./errors.ts";
import { type OpenLog, readRange, type ResumePoint } from "./log_file.ts";

/** What a cursor says. */
export interface Cursor extends ResumePoint {
  /** The tool. */
  k: "log_search" | "log_levels";
  /** The log's name. */
  f: string;
  /** Hash of the query (text, level, options); "" for log_levels. */
  q: string;
  /** Device and inode of the log. */
  dev: number;
  ino: number;
  /** Where the next page reads from, the start of the line it is in, lines before that, and more. */
  off: number;
  ls: number;
  line: number;
  pending: boolean;
  skip: number;
  /** Fingerprints: FNV-1a of the first bytes, and of the bytes just before `off`. */
  h0: string;
  h1: string;
  /** Checksum of the fields above. */
  s: string;
}

const FINGERPRINT_BYTES = 256;

/** FNV-1a (32-bit) of some bytes, as 8 hex digits. */
export function fnv1a(bytes: Uint8Array, seed = 0x811c9dc5): string {
  let h = seed;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/** A stable hash of a query: which text, level and options a cursor belongs to. */
export function queryHash(query: Record<string, unknown>): string {
  const keys = Object.keys(query).filter((k) => query[k] !== undefined).sort();
  return fnv1a(new TextEncoder().encode(JSON.stringify(keys.map((k) => [k, query[k]]))));
}

function fingerprints(log: OpenLog, off: number): { h0: string; h1: string } {
  // A gzip log's offsets are in its decompressed stream: its compressed start and its size stand in
  // (a rotated .gz is not written again).
  if (log.gzip) {
    return { h0: fnv1a(readRange(log, 0, FINGERPRINT_BYTES)), h1: `size-${log.file.statSync().size}` };
  }
  const start = Math.max(0, off - FINGERPRINT_BYTES);
  // h0: the first bytes, and 16 samples of 64 bytes spread over the part already read, so an edit
  // anywhere in it is likely (not certain) to show; h1: the bytes just before the offset.
  let h0 = fnv1a(readRange(log, 0, Math.min(off, FINGERPRINT_BYTES)));
  for (let k = 1; k <= 16 && off > FINGERPRINT_BYTES * 2; k++) {
    const at = Math.floor((off * k) / 17);
    h0 = fnv1a(readRange(log, at, Math.min(64, off - at)), parseInt(h0, 16));
  }
  return { h0, h1: fnv1a(readRange(log, start, off - start)) };
}

/** A checksum of a cursor's fields, so a cursor mangled in copying is refused rather than trusted. */
function sealOf(c: Omit<Cursor, "s">): string {
  return fnv1a(
    new TextEncoder().encode(
      JSON.stringify([c.k, c.f, c.q, c.dev, c.ino, c.off, c.ls, c.line, c.pending, c.skip, c.h0, c.h1]),
    ),
  );
}

/**
 * Makes the cursor for the page after a scan that stopped at `off`.
 *
 * @param log The open log.
 * @param c The tool, name, query hash, offset, lines before it, and the line not to repeat.
 * @returns The opaque cursor string.
 */
export function makeCursor(log: OpenLog, c: Omit<Cursor, "dev" | "ino" | "h0" | "h1" | "s">): string {
  const st = log.file.statSync();
  const fields = { ...c, dev: st.dev, ino: st.ino ?? 0, ...fingerprints(log, c.off) };
  const full: Cursor = { ...fields, s: sealOf(fields) };
  return btoa(JSON.stringify(full)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/**
 * Checks a cursor against the call and the log, and says where to resume.
 *
 * @param text The cursor string.
 * @param log The open log.
 * @param expect The tool, log name and query hash of this call.
 * @returns The cursor's contents.
 * @throws {ToolError} `invalid_cursor` (malformed, or for another tool, file or query) or
 *   `file_changed` (rotated, truncated, or its already-read part changed).
 */
export function checkCursor(
  text: string,
  log: OpenLog,
  expect: { k: Cursor["k"]; f: string; q: string },
): Cursor {
  let c: Cursor;
  try {
    c = JSON.parse(atob(text.replaceAll("-", "+").replaceAll("_", "/")));
    if (typeof c.off !== "number" || typeof c.line !== "number" || typeof c.h1 !== "string") {
      throw new Error();
    }
    if (c.s !== sealOf(c)) throw new Error("damaged in copying");
  } catch {
    throw new ToolError(
      "invalid_cursor",
      "the cursor is not one this server made (or was damaged in copying); start again without cursor",
    );
  }
  if (c.k !== expect.k) {
    throw new ToolError("invalid_cursor", `the cursor belongs to ${c.k}, not ${expect.k}`);
  }
  if (c.f !== expect.f) throw new ToolError("invalid_cursor", `the cursor belongs to another log (${c.f})`);
  if (c.q !== expect.q) {
    throw new ToolError(
      "invalid_cursor",
      "the cursor belongs to another query: use the same text, level and options",
    );
  }
  const st = log.file.statSync();
  if (st.dev !== c.dev || (st.ino ?? 0) !== c.ino) {
    throw new ToolError(
      "file_changed",
      `${expect.f} is another file now (rotated?): the cursor cannot go on; start again without cursor`,
    );
  }
  if (!log.gzip && st.size < c.off) {
    throw new ToolError(
      "file_changed",
      `${expect.f} was truncated below where the last page stopped; start again without cursor`,
    );
  }
  const now = fingerprints(log, c.off);
  if (now.h0 !== c.h0 || now.h1 !== c.h1) {
    throw new ToolError(
      "file_changed",
      `the part of ${expect.f} already read has changed since the last page; start again without cursor`,
    );
  }
  return c;
}
