/**
 * Opening one log for reading: confined ({@linkcode resolveLog}), a regular file (a FIFO is refused, and
 * the open never blocks on one), the open handle checked to be the file whose real path passed the
 * check (same device and inode; CVE-2025-53109/53110 were check-then-open races of path checks), and
 * its first bytes sniffed for an encoding logpeek does not read.
 *
 * Permission: read access to the log (through its root).
 *
 * @module
 */

import fs from "node:fs";
import { ToolError } from "../core/errors.ts";
import { checkMiddleFolders, type FolderId, sameFolders } from "./confine.ts";
import { type LogRef, osError, printable, resolveLog, type Root } from "./roots.ts";
import type { LogBytes, LogIdentity, ReadableLog } from "../read/readable_log.ts";

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
 * Opens the log that `name` names.
 *
 * @param roots The log roots.
 * @param name The log's name, as `log_files` lists it.
 * @returns The open log; the caller closes it.
 * @throws {ToolError} `invalid_path`, `outside_roots`, `unsafe_path`, `not_found`, `permission_denied`, `not_a_file`,
 *   or `unsupported_encoding` (a UTF-16 or UTF-32 byte-order mark).
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
    const magic = new Uint8Array(4);
    let got = 0;
    while (got < 4) {
      const n = fs.readSync(fd, magic, got, 4 - got, got);
      if (!n) break;
      got += n;
    }
    const gzip = got >= 2 && magic[0] === 0x1f && magic[1] === 0x8b;
    const bomLength = gzip ? 0 : sniff(magic.subarray(0, got), ref.file);
    return fileLog(ref, fd, fst.size, bomLength, gzip);
  } catch (e) {
    close();
    throw osError(e, ref.file);
  }
}

/** Returns the UTF-8 BOM's length, or throws for encodings logpeek does not read (UTF-16, UTF-32). */
function sniff(b: Uint8Array, name: string): number {
  const is = (...sig: number[]) => sig.every((v, i) => b[i] === v) && b.length >= sig.length;
  const encoding = is(0xff, 0xfe, 0, 0)
    ? "UTF-32LE (byte-order mark FF FE 00 00)"
    : is(0, 0, 0xfe, 0xff)
    ? "UTF-32BE (byte-order mark 00 00 FE FF)"
    : is(0xff, 0xfe)
    ? "UTF-16LE (byte-order mark FF FE)"
    : is(0xfe, 0xff)
    ? "UTF-16BE (byte-order mark FE FF)"
    : null;
  if (encoding) {
    throw new ToolError(
      "unsupported_encoding",
      `${name} is ${encoding}, not UTF-8; logpeek reads UTF-8 logs only: convert it (iconv -f UTF-16 -t UTF-8)`,
    );
  }
  return is(0xef, 0xbb, 0xbf) ? 3 : 0;
}

/** The {@linkcode ReadableLog} over an open file descriptor (`node:fs`; reads at explicit offsets). */
function fileLog(ref: LogRef, fd: number, size: number, bomLength: number, gzip: boolean): OpenLog {
  const close = () => fs.closeSync(fd);
  return {
    ref,
    name: ref.file,
    size,
    bomLength,
    gzip,
    bytes: (start, end = size) => fileBytes(fd, start, end),
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
 * Bytes of an open file from `start` to `end`. Lines appended during the call are not read; a file that
 * shrinks while being read (copytruncate rotation) sets `truncated`.
 */
function fileBytes(fd: number, start: number, end: number): LogBytes {
  let pos = start;
  let truncated = false;
  return {
    get truncated() {
      return truncated;
    },
    readSync(into: Uint8Array): number | null {
      if (pos >= end) return null;
      const n = fs.readSync(fd, into, 0, Math.min(into.length, end - pos), pos);
      if (!n) {
        truncated = true;
        return null;
      }
      pos += n;
      return n;
    },
    atEnd: () => pos >= end,
  };
}
