/**
 * Resume cursors (issue #5): an incomplete `log_search` or `log_levels` returns `next_cursor`, and the
 * same call with `cursor` goes on exactly where the last one stopped — no line lost, none repeated,
 * line numbers continuous.
 *
 * A cursor is opaque to the client: `PAYLOAD.MAC`, the payload base64url of JSON recording the tool,
 * hashes of the log's name and of the query, the file's identity (device and inode), where the next page
 * starts (a byte offset, the start of the line it is in, and the lines before it), and fingerprints of what
 * was read (the first bytes and samples over the read part, and the bytes just before the offset); the MAC
 * an HMAC-SHA-256 (RFC 2104) of the payload under a 32-byte key the client never sees — kept in the
 * state directory (`cursor.key`, 0600, so cursors survive a restart) or, without one, made per process
 * (`src/state/state_dir.ts`). A cursor anyone re-sealed, or whose fields are not what this server writes
 * (negative or fractional numbers, wrong types, missing or extra fields, `ls > off`), is refused as
 * `invalid_cursor` before any of it is used (issue #8, item 13: a checksum anyone could recompute let a
 * crafted cursor reach the reader with a negative offset). Resuming then refuses, saying which: a cursor
 * for another tool, file or query; a log rotated away (another file has its name now); a log truncated
 * below the offset; a log whose already-read part changed. It never continues silently on a different
 * file.
 *
 * @module
 */

import { createHmac, timingSafeEqual } from "node:crypto";
import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import type { ReadableLog, ResumePoint } from "./readable_log.ts";

/** What a cursor says. */
export interface Cursor extends ResumePoint {
  /** The tool. */
  k: "log_search" | "log_levels" | "log_patterns";
  /**
   * A hash of the log's name (FNV-1a, 8 hex digits; given to {@linkcode makeCursor} as the name): a
   * cursor stays short whatever the name's length (up to 4096 characters, more than a cursor may hold).
   */
  f: string;
  /** Hash of the query (text, level, options, window, glob); "" for log_levels of one log without a window. */
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
  /**
   * A time window's instants (epoch ms) as the first page resolved them (`-15m` means the same on every
   * page), null for an open side or no window (issue #12).
   */
  t0: number | null;
  t1: number | null;
  /** The last and the greatest timestamp read before `off` (null: none): `time_window.ts` `TimeCarry`. */
  lt: number | null;
  mx: number | null;
  /** Line numbers are known: false when the first page entered the log by a seek. */
  nk: boolean;
  /** The order broke on a page after a seek: every later page says the answer is not complete. */
  ob: boolean;
  /** Context lines: where the lines shown as the next page's context begin, and the lines before them. */
  cs: number;
  cl: number;
  /**
   * A call over many logs (a glob): FNV-1a of the matching names, sorted, and which of them are done (a
   * bit per name in that order, base64url); both "" for one log.
   */
  g: string;
  dn: string;
  /** The seal: HMAC-SHA-256 of the payload under the server's cursor key, base64url. */
  s: string;
}

/** The fields a one-log cursor without a window leaves at their defaults. */
type CursorExtras = "t0" | "t1" | "lt" | "mx" | "nk" | "ob" | "cs" | "cl" | "g" | "dn";

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

function fingerprints(log: ReadableLog, off: number): { h0: string; h1: string } {
  // A gzip log's offsets are in its decompressed stream: its compressed start and its size stand in
  // (a rotated .gz is not written again).
  if (log.gzip) {
    return { h0: fnv1a(log.readRange(0, FINGERPRINT_BYTES)), h1: `size-${log.identity().size}` };
  }
  const start = Math.max(0, off - FINGERPRINT_BYTES);
  // h0: the first bytes, and 16 samples of 64 bytes spread over the part already read, so an edit
  // anywhere in it is likely (not certain) to show; h1: the bytes just before the offset.
  let h0 = fnv1a(log.readRange(0, Math.min(off, FINGERPRINT_BYTES)));
  for (let k = 1; k <= 16 && off > FINGERPRINT_BYTES * 2; k++) {
    const at = Math.floor((off * k) / 17);
    h0 = fnv1a(log.readRange(at, Math.min(64, off - at)), parseInt(h0, 16));
  }
  return { h0, h1: fnv1a(log.readRange(start, off - start)) };
}

/** The hash a cursor holds of a log's name. */
const nameHash = (name: string) => fnv1a(new TextEncoder().encode(name));

/** Why any cursor that fails its seal or its shape is refused: one message, saying what to do. */
const NOT_OURS =
  "the cursor is not one this server made (it was made over another server's logs: other roots or another " +
  "table; or it was damaged in copying); start again without cursor";

/** base64url without padding (RFC 4648 §5). */
function b64url(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/** The HMAC-SHA-256 (RFC 2104) of `payload` under `key`, base64url: 43 characters. */
function macOf(key: Uint8Array, payload: string): string {
  return createHmac("sha256", key).update(payload).digest("base64url");
}

/** The fields of a cursor's payload, in the order it is written. */
const FIELDS = [
  "k",
  "f",
  "q",
  "dev",
  "ino",
  "off",
  "ls",
  "line",
  "pending",
  "skip",
  "h0",
  "h1",
  "t0",
  "t1",
  "lt",
  "mx",
  "nk",
  "ob",
  "cs",
  "cl",
  "g",
  "dn",
] as const;

/** An instant in a cursor: a whole number of ms within ±8.64e15 (what `Date` holds), or null. */
const isInstant = (v: unknown): boolean =>
  v === null || (Number.isSafeInteger(v) && Math.abs(v as number) <= 8.64e15);

/** A whole number from 0 to 2^53 − 1 (an offset, a line count). */
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
/** A device or inode number: a non-negative whole number (may exceed 2^53 on some file systems). */
const isId = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
const HEX8 = /^[0-9a-f]{8}$/;

/**
 * The payload as a cursor, when every field has its type and range and nothing else is there: the
 * tool one of two, names and hashes strings, offsets and line counts whole numbers from 0 to 2^53 − 1
 * with `ls <= off` and no more lines before `ls` than bytes, `skip` 0 or the line after `line`, the
 * fingerprints 8 hex digits (or `size-N` for a gzip log's second). Null otherwise.
 */
function validCursor(v: unknown): Omit<Cursor, "s"> | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length !== FIELDS.length || !FIELDS.every((k) => Object.hasOwn(o, k))) return null;
  if (o.k !== "log_search" && o.k !== "log_levels" && o.k !== "log_patterns") return null;
  if (typeof o.f !== "string" || !HEX8.test(o.f)) return null;
  if (typeof o.q !== "string" || !/^(?:[0-9a-f]{8})?$/.test(o.q)) return null;
  if (!isId(o.dev) || !isId(o.ino)) return null;
  if (!isCount(o.off) || !isCount(o.ls) || !isCount(o.line) || !isCount(o.skip)) return null;
  if (o.ls > o.off || o.line > o.ls) return null;
  if (o.skip !== 0 && o.skip !== o.line + 1) return null;
  if (typeof o.pending !== "boolean") return null;
  if (o.k !== "log_search" && (o.pending || o.skip !== 0)) return null;
  if (typeof o.h0 !== "string" || !HEX8.test(o.h0)) return null;
  if (typeof o.h1 !== "string" || !(HEX8.test(o.h1) || /^size-(0|[1-9][0-9]{0,15})$/.test(o.h1))) return null;
  if (![o.t0, o.t1, o.lt, o.mx].every(isInstant) || typeof o.nk !== "boolean" || typeof o.ob !== "boolean") {
    return null;
  }
  if (!isCount(o.cs) || !isCount(o.cl) || o.cs > o.ls || o.cl > o.line || o.cl > o.cs) return null;
  if (typeof o.g !== "string" || !/^(?:[0-9a-f]{8})?$/.test(o.g)) return null;
  if (typeof o.dn !== "string" || !/^[A-Za-z0-9_-]{0,200}$/.test(o.dn) || (o.g === "") !== (o.dn === "")) {
    return null;
  }
  return o as unknown as Omit<Cursor, "s">;
}

/**
 * Makes the cursor for the page after a scan that stopped at `off`: `PAYLOAD.MAC`, the payload the
 * base64url of the fields' JSON, the MAC its HMAC-SHA-256 under `key` (base64url).
 *
 * @param log The open log.
 * @param c The tool, name, query hash, offset, lines before it, and the line not to repeat.
 * @param key The cursor key (`ToolContext.cursorKey`: 32 bytes the client never sees).
 * @returns The opaque cursor string.
 */
export function makeCursor(
  log: ReadableLog,
  c: Omit<Cursor, "dev" | "ino" | "h0" | "h1" | "s" | CursorExtras> & Partial<Pick<Cursor, CursorExtras>>,
  key: Uint8Array,
): string {
  const st = log.identity();
  const all: Omit<Cursor, "s"> = {
    t0: null,
    t1: null,
    lt: null,
    mx: null,
    nk: true,
    ob: false,
    g: "",
    dn: "",
    ...c,
    cs: c.cs ?? c.ls,
    cl: c.cl ?? c.line,
    f: nameHash(c.f),
    dev: st.dev,
    ino: st.ino,
    ...fingerprints(log, c.off),
  };
  const json = JSON.stringify(Object.fromEntries(FIELDS.map((k) => [k, all[k]])));
  const payload = b64url(new TextEncoder().encode(json));
  return `${payload}.${macOf(key, payload)}`;
}

/**
 * Reads a cursor: first its seal (the MAC, compared in constant time), then every field's type and
 * range, then that it belongs to this tool and query. The log it names is checked apart
 * ({@linkcode checkCursorLog}): a call over many logs first finds which log that is.
 *
 * @param text The cursor string.
 * @param expect The tool and query hash of this call.
 * @param key The cursor key it was made with.
 * @returns The cursor's contents.
 * @throws {ToolError} `invalid_cursor` (not sealed with this key, malformed, a field out of range, or
 *   for another tool or query).
 */
export function readCursor(text: string, expect: { k: Cursor["k"]; q: string }, key: Uint8Array): Cursor {
  const dot = text.indexOf(".");
  const payload = text.slice(0, dot);
  const mac = text.slice(dot + 1);
  if (dot < 1 || !/^[A-Za-z0-9_-]+$/.test(payload) || !/^[A-Za-z0-9_-]{43}$/.test(mac)) {
    throw new ToolError("invalid_cursor", NOT_OURS);
  }
  const enc = new TextEncoder();
  if (!timingSafeEqual(enc.encode(macOf(key, payload)), enc.encode(mac))) {
    throw new ToolError("invalid_cursor", NOT_OURS);
  }
  let fields: Omit<Cursor, "s"> | null = null;
  let kind: unknown = undefined;
  try {
    const bin = atob(payload.replaceAll("-", "+").replaceAll("_", "/"));
    const v = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.from(bin, (ch) => ch.charCodeAt(0)),
    ));
    kind = v?.k;
    fields = validCursor(v);
  } catch {
    // not base64 of UTF-8 JSON: refused below
  }
  // Sealed by this server for log_files (a listing cursor, of another shape: `tools/list_cursor.ts`).
  if (!fields && kind === "log_files") {
    throw new ToolError("invalid_cursor", `the cursor belongs to ${kind}, not ${expect.k}`);
  }
  if (!fields) throw new ToolError("invalid_cursor", NOT_OURS);
  const c: Cursor = { ...fields, s: mac };
  if (c.k !== expect.k) {
    throw new ToolError("invalid_cursor", `the cursor belongs to ${c.k}, not ${expect.k}`);
  }
  if (c.q !== expect.q) {
    throw new ToolError(
      "invalid_cursor",
      "the cursor belongs to another query: use the same text, level, options and window",
    );
  }
  return c;
}

/** True when the cursor `c` names the log called `name` (its hash). */
export function cursorNames(c: Cursor, name: string): boolean {
  return c.f === nameHash(name);
}

/**
 * Checks that a read cursor goes on in `log`: the same name, the same file, not truncated below it, the
 * part already read unchanged.
 *
 * @param c The cursor ({@linkcode readCursor}).
 * @param log The open log.
 * @param name The log's name.
 * @throws {ToolError} `invalid_cursor` (for another log) or `file_changed` (rotated, truncated, or its
 *   already-read part changed).
 */
export function checkCursorLog(c: Cursor, log: ReadableLog, name: string): void {
  if (c.f !== nameHash(name)) {
    throw new ToolError("invalid_cursor", `the cursor belongs to another log, not ${printable(name)}`);
  }
  const st = log.identity();
  if (st.dev !== c.dev || st.ino !== c.ino) {
    throw new ToolError(
      "file_changed",
      `${
        printable(name)
      } is another file now (rotated?): the cursor cannot go on; start again without cursor`,
    );
  }
  if (c.ls < log.bomLength) throw new ToolError("invalid_cursor", NOT_OURS);
  if (!log.gzip && st.size < c.off) {
    throw new ToolError(
      "file_changed",
      `${printable(name)} was truncated below where the last page stopped; start again without cursor`,
    );
  }
  const now = fingerprints(log, c.off);
  if (now.h0 !== c.h0 || now.h1 !== c.h1) {
    throw new ToolError(
      "file_changed",
      `the part of ${
        printable(name)
      } already read has changed since the last page; start again without cursor`,
    );
  }
}

/**
 * Checks a cursor against the call and the log, and says where to resume ({@linkcode readCursor}, then
 * {@linkcode checkCursorLog}).
 *
 * @param text The cursor string.
 * @param log The open log.
 * @param expect The tool, log name and query hash of this call.
 * @param key The cursor key it was made with.
 * @returns The cursor's contents.
 * @throws {ToolError} `invalid_cursor` (not sealed with this key, malformed, a field out of range, or
 *   for another tool, file or query) or `file_changed` (rotated, truncated, or its already-read part
 *   changed).
 */
export function checkCursor(
  text: string,
  log: ReadableLog,
  expect: { k: Cursor["k"]; f: string; q: string },
  key: Uint8Array,
): Cursor {
  const c = readCursor(text, expect, key);
  if (c.g !== "") {
    throw new ToolError("invalid_cursor", "the cursor belongs to a call over many logs (a glob)");
  }
  checkCursorLog(c, log, expect.f);
  return c;
}
