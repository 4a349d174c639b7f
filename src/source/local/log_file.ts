/**
 * Opening one log for reading: confined ({@linkcode resolveLog}), a regular file (a FIFO is refused, and
 * the open never blocks on one), the open handle checked to be the file whose real path passed the
 * check (same device and inode; CVE-2025-53109/53110 were check-then-open races of path checks), and
 * its first bytes sniffed for an encoding or a format logpeek does not read (`read/format.ts`).
 *
 * Permission: read access to the log (through its root).
 *
 * @module
 */

import fs from "node:fs";
import { ToolError } from "../../core/errors.ts";
import { checkMiddleFolders, type FolderId, sameFolders } from "./confine.ts";
import { type LogRef, osError, printable, resolveLog, type Root } from "./roots.ts";
import type { LogBytes, LogIdentity, ReadableLog } from "../../read/readable_log.ts";
import { refusalText, SNIFF_BYTES, type Sniffed, sniffFormat, sniffGzipInner } from "../../read/format.ts";
import { detectFormat } from "../../read/log_format.ts";
import { SAMPLE_BYTES as HEAD_SAMPLE } from "../../read/timestamp.ts";

/** An open log file: a {@linkcode ReadableLog} over a file descriptor. Close it with `using` or `close()`. */
export interface OpenLog extends ReadableLog {
  /** Which log. */
  ref: LogRef;
}

/**
 * Opens `path` for reading without ever blocking: `O_NONBLOCK` (through `node:fs`, which passes the flag
 * on; Deno's own `open` has none) makes the open of a FIFO return at once instead of waiting for a
 * writer, so a FIFO swapped in after every check cannot hold a thread, and the handle is then refused as
 * not a regular file. On a regular file the flag changes nothing.
 */
function openNonBlocking(path: string): number {
  return fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
}

/**
 * What a listed file is, from its first bytes (`read/format.ts`), for `log_files` to mark the logs the
 * reading tools refuse. The open is the reading tools' (non-blocking; and `O_NOFOLLOW`: `real` is a real
 * path, so a symlink there was swapped in) and the handle must be the file `info` describes (same device
 * and inode, a regular file), so a swap never makes it look at a file outside the roots.
 *
 * @param real The file's real path.
 * @param info Its device and inode, from the listing's `lstat` (the opened file must be that one).
 * @param name Its name as listed (for login records, known by name).
 * @returns What it is, and for a text log the format of its lines (`read/log_format.ts` `detectFormat` on
 *   its first `SAMPLE_BYTES`, as the reading tools detect it; absent for a gzip or refused log); null when
 *   it could not be opened or was swapped meanwhile.
 */
export function sniffListed(
  real: string,
  info: { dev: number; ino: number | null },
  name: string,
): (Sniffed & { logFormat?: string | null }) | null {
  let fd: number;
  try {
    fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.dev !== info.dev || st.ino !== info.ino) return null;
    const sniffed = sniffOpen(fd, name);
    if (sniffed.format !== "text" || sniffed.refusal) return sniffed;
    return {
      ...sniffed,
      logFormat: detectFormat(wholeLines(readAt(fd, sniffed.bomLength, HEAD_SAMPLE)))?.name ?? null,
    };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Opens the log that `name` names.
 *
 * @param roots The log roots.
 * @param name The log's name, as `log_files` lists it.
 * @returns The open log; the caller closes it.
 * @throws {ToolError} `invalid_path`, `outside_roots`, `unsafe_path`, `not_found`, `permission_denied`, `not_a_file`,
 *   `unsupported_encoding` (a UTF-16 or UTF-32 byte-order mark), or `unsupported_format` (xz, zip, a
 *   systemd journal, … by its magic bytes: `read/format.ts`; a gzip log whose content is one of them).
 */
export function openLog(roots: Root[], name: string): Promise<OpenLog> {
  try {
    return Promise.resolve(openLogSync(roots, name));
  } catch (e) {
    return Promise.reject(e);
  }
}

/** {@linkcode openLog}, synchronously: nothing in it can block (see {@linkcode openNonBlocking}). */
export function openLogSync(roots: Root[], name: string): OpenLog {
  const ref = resolveLog(roots, name);
  const checked = !ref.root.unsafeNoPathCheck;
  let fd: number;
  let folders: FolderId[] = [];
  try {
    // The folders in the middle of the path must be ones no untrusted user can swap (confine.ts): no
    // check before or after an open can see a swap there, so logpeek refuses to depend on one.
    if (checked) folders = checkMiddleFolders(ref.root.real, ref.real, ref.root.trust, ref.file);
    const st = Deno.statSync(ref.real);
    if (!st.isFile) {
      const what = st.isDirectory ? "a directory" : "not a regular file (a FIFO, socket or device)";
      throw new ToolError(
        "not_a_file",
        `${printable(ref.file)} is ${what}; logpeek reads regular log files: call log_files`,
      );
    }
    // Opened by its real path: no symlink on the way, and its middle folders are the checked ones.
    fd = openNonBlocking(ref.real);
  } catch (e) {
    throw osError(e, ref.file);
  }
  const close = () => fs.closeSync(fd);
  try {
    // Open first, then check: the handle must be the file whose real path passed the check. lstat
    // does not follow links, so a swap of the last component for a symlink (or anything else) between
    // the check and the open shows as another file or a link, and the call is refused. The middle
    // folders must still be the ones checked (a swap by a trusted user, which the rule allows).
    const fst = fs.fstatSync(fd);
    const lst = Deno.lstatSync(ref.real);
    if (
      !fst.isFile() || !lst.isFile || fst.dev !== lst.dev || fst.ino !== lst.ino ||
      (checked && !sameFolders(folders))
    ) {
      throw new ToolError(
        "outside_roots",
        `${printable(ref.file)} changed while it was being opened (swapped or rotated); refused: call again`,
      );
    }
    const sniffed = sniffOpen(fd, ref.file);
    if (sniffed.refusal) {
      throw new ToolError(sniffed.refusal.kind, refusalText(printable(ref.file), sniffed.refusal, ref.real));
    }
    return fileLog(
      ref,
      fd,
      { size: fst.size, mtimeMs: fst.mtimeMs },
      sniffed.bomLength,
      sniffed.format === "gzip",
    );
  } catch (e) {
    close();
    throw osError(e, ref.file);
  }
}

/**
 * What an open log is (`read/format.ts`): its first {@linkcode SNIFF_BYTES} sniffed, and for a gzip log
 * the start of what it holds (read further only then: its header, and up to 64 KiB of compressed data).
 */
function sniffOpen(fd: number, name: string): Sniffed {
  const sniffed = sniffFormat(readHead(fd, SNIFF_BYTES), name);
  return sniffed.format === "gzip" ? sniffGzipInner((offset, n) => readAt(fd, offset, n), name) : sniffed;
}

/** `head` cut after its last end of line when it fills `SAMPLE_BYTES` (as `read/scan_source.ts` `logHead`). */
function wholeLines(head: Uint8Array): Uint8Array {
  if (head.length < HEAD_SAMPLE) return head;
  const nl = head.lastIndexOf(10);
  return nl < 0 ? head : head.subarray(0, nl + 1);
}

/** Up to `n` bytes of an open file at `offset` (fewer at its end). */
function readAt(fd: number, offset: number, n: number): Uint8Array {
  const buf = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const r = fs.readSync(fd, buf, got, n - got, offset + got);
    if (!r) break;
    got += r;
  }
  return buf.subarray(0, got);
}

/** Up to `n` first bytes of an open file (fewer when it is shorter). */
export function readHead(fd: number, n: number): Uint8Array {
  const head = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const r = fs.readSync(fd, head, got, n - got, got);
    if (!r) break;
    got += r;
  }
  return head.subarray(0, got);
}

/** What `fstat` said of a log when it was opened: what a change while it is read is measured against. */
interface Snapshot {
  /** Bytes. */
  size: number;
  /** Modification time, in milliseconds (the precision node:fs gives under Deno). */
  mtimeMs: number;
}

/** The first bytes a read got, at their offset: compared again when the log grew. */
interface Sample {
  offset: number;
  bytes: Uint8Array;
}

/** How many of the first bytes a read got are kept to compare ({@linkcode Sample}). */
const SAMPLE_BYTES = 64;

/**
 * How the open file `fd` has changed since `snap`, as `fstat` shows it, or null: it shrank (truncated,
 * rotated in place by copytruncate), or it was rewritten in place (same size, another modification time),
 * or it grew but the first bytes read (`sample`) are no longer there (truncated and written again past its
 * old size). A file that grew with those bytes in place is taken for one appended to (a live log), and is
 * not a change: only the bytes it had at the snapshot are read. (An append together with an in-place
 * rewrite elsewhere is not seen.)
 */
function changeOf(fd: number, snap: Snapshot, sample: Sample | null): string | null {
  const st = fs.fstatSync(fd);
  if (st.size < snap.size) {
    return `shrank from ${snap.size} to ${st.size} bytes (truncated or rotated in place)`;
  }
  if (st.size === snap.size && st.mtimeMs !== snap.mtimeMs) {
    return "was rewritten in place (its modification time changed, its size did not)";
  }
  if (st.size > snap.size && sample) {
    const now = new Uint8Array(sample.bytes.length);
    const n = fs.readSync(fd, now, 0, now.length, sample.offset);
    if (n !== now.length || now.some((b, i) => b !== sample.bytes[i])) {
      return `was truncated and written again (it grew from ${snap.size} to ${st.size} bytes, but the ` +
        `bytes read at offset ${sample.offset} are no longer there)`;
    }
  }
  return null;
}

/** Bytes read between two checks for a change ({@linkcode changeOf}) while a log is read. */
export const CHANGE_CHECK_BYTES = 1024 * 1024;

/** The {@linkcode ReadableLog} over an open file descriptor (`node:fs`; reads at explicit offsets). */
function fileLog(ref: LogRef, fd: number, snap: Snapshot, bomLength: number, gzip: boolean): OpenLog {
  const close = () => fs.closeSync(fd);
  return {
    ref,
    name: ref.file,
    size: snap.size,
    modifiedMs: snap.mtimeMs,
    bomLength,
    gzip,
    bytes: (start, end = snap.size) => fileBytes(fd, start, end, snap),
    byteAt(offset: number): number | null {
      const one = new Uint8Array(1);
      return fs.readSync(fd, one, 0, 1, offset) ? one[0] : null;
    },
    readRange(offset: number, length: number): Uint8Array {
      const buf = new Uint8Array(Math.max(0, length));
      let got = 0;
      while (got < buf.length) {
        const n = fs.readSync(fd, buf, got, buf.length - got, offset + got);
        if (!n) break;
        got += n;
      }
      return buf.subarray(0, got);
    },
    identity(): LogIdentity {
      const st = fs.fstatSync(fd);
      return { dev: st.dev, ino: st.ino, size: st.size };
    },
    close,
    [Symbol.dispose]: close,
  };
}

/**
 * Bytes of an open file from `start` to `end`. Lines appended during the call are not read. A file that
 * changes while it is read ({@linkcode changeOf}: it shrank, was rewritten in place, or was truncated and
 * written again) is checked for every {@linkcode CHANGE_CHECK_BYTES} read and at the end: reading stops
 * there and `changed` says how.
 */
function fileBytes(fd: number, start: number, end: number, snap: Snapshot): LogBytes {
  let pos = start;
  let changed: string | null = null;
  let sinceCheck = 0;
  let sample: Sample | null = null;
  const check = (): string | null => (changed ??= changeOf(fd, snap, sample));
  return {
    get changed() {
      return changed;
    },
    check,
    readSync(into: Uint8Array): number | null {
      if (changed) return null;
      if (pos >= end) {
        check();
        return null;
      }
      if (sinceCheck >= CHANGE_CHECK_BYTES) {
        sinceCheck = 0;
        if (check()) return null;
      }
      const n = fs.readSync(fd, into, 0, Math.min(into.length, end - pos), pos);
      if (!n) {
        changed = check() ?? `ended at ${pos} bytes, before the ${end} it had when opened`;
        return null;
      }
      if (!sample) sample = { offset: pos, bytes: into.slice(0, Math.min(n, SAMPLE_BYTES)) };
      pos += n;
      sinceCheck += n;
      return n;
    },
    atEnd: () => pos >= end || changed !== null,
  };
}
