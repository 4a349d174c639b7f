/**
 * The line scanner: reads a log forward through one fixed buffer, finds its lines (and, when searching,
 * the lines that hold a needle) on raw bytes, and hands them to a sink, within budgets of bytes and time.
 *
 * The shape follows ripgrep's searcher and the seed (`../shared/seeds/000_…`, "Предел — на чтении"):
 * - one buffer of `pieceSize` bytes; each read asks for at most what the buffer and the byte budget have
 *   room for, so memory never grows with the file or with one line;
 * - the unfinished line at the end of a piece is moved to the buffer's front before the next read, so a
 *   line shorter than a piece is always whole in the buffer and a match that straddles two reads is
 *   whole too;
 * - a line longer than the buffer is streamed: its first `headBytes` are kept in a second small buffer
 *   (for its level and its returned text, marked cut when the line is longer than that), and only
 *   `needle.length - 1` bytes are carried between reads, so a match anywhere in it is found;
 * - line feeds are counted and listed with SIMD, and needle candidates are found with SIMD by two of
 *   the needle's rarest bytes (rarest in the file's first piece), then compared
 *   ({@linkcode simdScanner}): only the lines a sink keeps are ever decoded.
 *
 * A line ends at `\n`; a `\r` just before it is not part of the line; the last line counts without a
 * final `\n` (`../shared/cases/CONVENTIONS.md`).
 *
 * @module
 */

import { POSITIONS, simdScanner } from "./simd.ts";

/** Where the scanner's bytes come from: a file positioned at the scan's start, or a test double. */
export interface ByteSource {
  /** Reads at most `into.length` bytes into `into`; returns how many, or null at the end. */
  readSync(into: Uint8Array): number | null;
  /** True when no byte is left after those read: a budget spent exactly at the end is no stop. */
  atEnd(): boolean;
  /** When present, used instead of `readSync` (a decompressing source). */
  read?(into: Uint8Array): Promise<number | null>;
}

/** Receives lines. */
export interface LineSink {
  /**
   * One line: `buf[start, end)` is the line without its end of line, or only its first bytes when
   * `cut` (a line longer than the buffer). The bytes are valid only during the call.
   *
   * @param lineNo 1-based number of the line, counted from where the scan started.
   * @param cut True when only the line's first bytes are passed.
   * @param hint The offset from `start` of the line's first ASCII letter or ESC within its first 32
   *   bytes, 255 when none, -1 when not known (`levelOf` uses it).
   * @param at The line's first byte, counted from the scan's start (negative for a resumed line).
   * @returns false to stop the scan (reported as `stop: "limit"`).
   */
  line(
    buf: Uint8Array,
    start: number,
    end: number,
    lineNo: number,
    cut: boolean,
    hint: number,
    at: number,
  ): boolean;
}

/**
 * Why a scan stopped before the end of its source. `file_changed` is set by the tools, not the scanner:
 * the log shrank (was truncated) while it was being read.
 */
export type StopReason =
  | "limit"
  | "time_budget"
  | "size_budget"
  | "file_changed"
  | "cancelled"
  | "corrupt_gzip";

/** Options of {@linkcode scan}. */
export interface ScanOptions {
  /** Bytes per read and buffer size; default 65536 (the seed's CHUNK). */
  pieceSize?: number;
  /** Most bytes to read; default unlimited. */
  maxBytes?: number;
  /** `performance.now()` value (ms) after which no further read starts; default none. */
  deadline?: number;
  /** True when having read `maxBytes` means the end (a tail window that ends at the size it saw). */
  maxBytesIsEnd?: boolean;
  /** False when the scan starts inside a line: that fragment is skipped, not counted or passed on. */
  firstLineWhole?: boolean;
  /** How many of a long line's first bytes are kept for its sink call; default 4096. */
  headBytes?: number;
  /** When set, only lines holding these bytes reach the sink. Must not contain `\n`. */
  needle?: Uint8Array;
  /** Match the needle's ASCII letters in either case. */
  ignoreCase?: boolean;
  /** Called between reads at most every `yieldMs` (default 20 ms) to let other work run. */
  yieldMs?: number;
  /** Lines before the scan's start (a resumed scan): the first line is numbered `lineBase + 1`. */
  lineBase?: number;
  /**
   * A scan resumed inside a line: the source starts `resume.lineLen` bytes into line `lineBase + 1`.
   * `head` is that line's first bytes (up to `headBytes`), `carry` the last `needle.length - 1` bytes
   * before the source's start (so a match across the resumption is found), `pending` whether the line
   * already holds the needle.
   */
  resume?: { head: Uint8Array; lineLen: number; carry: Uint8Array; pending: boolean };
  /** Checked before every read: when it returns true the scan stops (`stop: "cancelled"`). */
  cancelled?: () => boolean;
  /** Called before reads, at most every `progressMs` (default 250 ms), with the bytes read so far. */
  onProgress?: (bytesRead: number, lines: number) => void;
  /** The least time between two `onProgress` calls, in ms. */
  progressMs?: number;
}

/** What a scan did. */
export interface ScanResult {
  /** Lines read to their end (the last, unterminated line included when the source ended). */
  lines: number;
  /** Bytes read from the source. */
  bytesRead: number;
  /** Why it stopped early; null when it reached the end of the source. */
  stop: StopReason | null;
  /** True when a fragment at the start was skipped (`firstLineWhole: false` and the source was not empty). */
  droppedPartial: boolean;
  /**
   * Bytes from the scan's start to the start of the first line not read to its end (negative when that
   * line began before the scan; all of `bytesRead` when the scan reached the end).
   */
  resumeAt: number;
  /** True when the line not read to its end holds the needle. */
  pending: boolean;
}

function isAsciiLetter(b: number): boolean {
  return (b >= 65 && b <= 90) || (b >= 97 && b <= 122);
}

/**
 * Picks two offsets in `needle` whose bytes are rarest in `sample` (a piece of the file itself), the
 * second with a different byte where the needle has one: SIMD looks for both at once.
 *
 * @param needle The needle's bytes.
 * @param sample Bytes to count frequencies in.
 * @returns Offsets `[o1, o2]` into the needle.
 */
export function rarePair(needle: Uint8Array, sample: Uint8Array): [number, number] {
  const freq = new Uint32Array(256);
  for (let i = 0; i < sample.length; i++) freq[sample[i]]++;
  const order = Array.from(needle.keys()).sort((a, b) => freq[needle[a]] - freq[needle[b]] || b - a);
  const o1 = order[0];
  const o2 = order.find((o) => needle[o] !== needle[o1]) ?? order[order.length - 1];
  return [o1, o2];
}

/**
 * Scans `src` from its current position to its end, or until a budget or the sink stops it.
 *
 * @param src The bytes, positioned where the scan starts.
 * @param sink Receives every line, or only the lines that hold `opts.needle`.
 * @param opts Budgets, buffer size and start conditions.
 * @returns Lines read, bytes read, and why it stopped (null: the end was reached).
 * @throws {TypeError} when the needle is empty or contains a line feed.
 * @throws Whatever `src.readSync` throws (a read error is never turned into a short answer).
 * @example
 * ```ts
 * import { scan } from "./scanner.ts";
 * const bytes = new TextEncoder().encode("a\nERROR b\r\nc");
 * let pos = 0;
 * const src = {
 *   readSync(into: Uint8Array) {
 *     const n = Math.min(into.length, bytes.length - pos);
 *     into.set(bytes.subarray(pos, pos + n));
 *     pos += n;
 *     return n || null;
 *   },
 *   atEnd: () => pos >= bytes.length,
 * };
 * const seen: number[] = [];
 * const r = await scan(src, { line: (_b, _s, _e, no) => (seen.push(no), true) }, { pieceSize: 4 });
 * console.assert(r.lines === 3 && seen.join() === "1,2,3" && r.stop === null);
 * ```
 */
export async function scan(src: ByteSource, sink: LineSink, opts: ScanOptions = {}): Promise<ScanResult> {
  const pieceSize = opts.pieceSize ?? 65536;
  const maxBytes = opts.maxBytes ?? Infinity;
  const deadline = opts.deadline ?? Infinity;
  const headBytes = opts.headBytes ?? 4096;
  const yieldMs = opts.yieldMs ?? 20;
  const ignoreCase = opts.ignoreCase ?? false;
  // With ignoreCase, ASCII letters of the needle are lower-cased and compared as (byte | 0x20).
  const needle = opts.needle && ignoreCase
    ? opts.needle.map((b) => (isAsciiLetter(b) ? b | 0x20 : b))
    : opts.needle;
  const mask = needle ? needle.map((b) => (ignoreCase && isAsciiLetter(b) ? 0x20 : 0)) : new Uint8Array();
  if (needle && (needle.length === 0 || needle.includes(10))) {
    throw new TypeError("the needle must be 1 or more bytes without a line feed");
  }
  const nlen = needle ? needle.length : 0;
  let o1 = 0, o2 = 0, b1 = 0, b2 = 0, m1 = 0, m2 = 0; // the needle's rare pair, chosen after the first read
  // Room for one piece after the `nlen - 1` bytes a long line carries, so every read has room.
  const bufSize = pieceSize + Math.max(0, nlen - 1);
  const simd = simdScanner(bufSize);
  const buf = simd.buf;
  const head = new Uint8Array(headBytes);

  let end = 0; // valid bytes in buf
  let ls = 0; // start of the current, unfinished line in buf
  let lineNo = opts.lineBase ?? 0; // lines finished
  let longStart = 0; // bytes before the long line's start
  let lastProgress = performance.now();
  const progressMs = opts.progressMs ?? 250;
  let bytesRead = 0;
  let dropping = opts.firstLineWhole === false; // skipping a fragment
  let droppedPartial = false;
  let pending = false; // the unfinished line holds the needle
  let long = false; // the unfinished line outgrew the buffer; its start is in `head`
  let headLen = 0;
  let longLen = 0; // bytes of the long line so far
  let stop: StopReason | null = null;
  let lastYield = performance.now();
  if (opts.resume) {
    long = true;
    headLen = Math.min(headBytes, opts.resume.head.length);
    head.set(opts.resume.head.subarray(0, headLen));
    longLen = opts.resume.lineLen;
    longStart = -opts.resume.lineLen;
    buf.set(opts.resume.carry.subarray(0, Math.max(0, nlen - 1)));
    end = Math.min(opts.resume.carry.length, Math.max(0, nlen - 1));
    pending = opts.resume.pending;
  }

  /** First `b` in buf[from, to), or -1. */
  const find = (b: number, from: number, to: number): number => {
    const i = buf.indexOf(b, from);
    return i >= 0 && i < to ? i : -1;
  };
  /** First occurrence of the needle that starts in buf[from, to - nlen], or -1. */
  const findNeedle = (from: number, to: number): number => {
    const last = to - nlen;
    while (from <= last) {
      const s = simd.find2(from, last, b1, o1, b2, o2, m1, m2);
      if (s < 0) return -1;
      let k = 0;
      while (k < nlen && (buf[s + k] | mask[k]) === needle![k]) k++;
      if (k === nlen) return s;
      from = s + 1;
    }
    return -1;
  };
  /** The line buf[a, nl) is finished (nl is its `\n`, or the end of the source). */
  const finish = (a: number, nl: number, hasNewline: boolean, hint = -1): boolean => {
    if (dropping) {
      dropping = false;
      droppedPartial = true;
      return true;
    }
    lineNo++;
    let e = nl;
    if (hasNewline && e > a && buf[e - 1] === 13) e--;
    return sink.line(buf, a, e, lineNo, false, hint, bytesRead - end + a);
  };
  const finishLong = (hasNewline: boolean): boolean => {
    if (dropping) {
      dropping = false;
      droppedPartial = true;
      return true;
    }
    lineNo++;
    if (needle && !pending) return true;
    if (longLen <= headBytes) { // the whole line fit in `head` after all
      const e = hasNewline && longLen > 0 && head[longLen - 1] === 13 ? longLen - 1 : longLen;
      return sink.line(head, 0, e, lineNo, false, -1, longStart);
    }
    return sink.line(head, 0, headLen, lineNo, true, -1, longStart);
  };

  read: while (true) {
    // Move the unfinished line to the front; a line that fills the buffer becomes a long line.
    if (ls > 0) {
      buf.copyWithin(0, ls, end);
      end -= ls;
      ls = 0;
    }
    if (end === bufSize) {
      if (!long) {
        long = true;
        longStart = bytesRead - end;
        headLen = Math.min(headBytes, end);
        longLen = end;
        head.set(buf.subarray(0, headLen));
      }
      const keep = needle && !pending ? nlen - 1 : 0;
      buf.copyWithin(0, end - keep, end);
      end = keep;
    }
    const now = performance.now();
    if (opts.cancelled?.()) {
      stop = "cancelled";
      break;
    }
    if (opts.onProgress && now - lastProgress >= progressMs) {
      lastProgress = now;
      opts.onProgress(bytesRead, lineNo);
    }
    const left = maxBytes - bytesRead;
    if (now >= deadline || left <= 0) {
      if (left <= 0 && opts.maxBytesIsEnd) break;
      if (!src.atEnd()) stop = now >= deadline ? "time_budget" : "size_budget";
      break;
    }
    if (now - lastYield >= yieldMs) {
      await new Promise((r) => setTimeout(r, 0));
      lastYield = performance.now();
    }
    const into = buf.subarray(end, end + Math.min(bufSize - end, pieceSize, left));
    const n = (src.read ? await src.read(into) : src.readSync(into)) ?? 0;
    if (n === 0) break;
    if (needle && bytesRead === 0) {
      [o1, o2] = rarePair(needle, buf.subarray(end, end + n));
      b1 = needle[o1];
      b2 = needle[o2];
      m1 = mask[o1];
      m2 = mask[o2];
    }
    bytesRead += n;
    const oldEnd = end;
    end += n;

    let from = oldEnd; // where new bytes begin
    if (long) {
      const nl = find(10, from, end);
      const lineEnd = nl < 0 ? end : nl;
      if (needle && !pending && findNeedle(0, lineEnd) >= 0) pending = true;
      const more = Math.min(headBytes - headLen, lineEnd - from);
      if (more > 0) {
        head.set(buf.subarray(from, from + more), headLen);
        headLen += more;
      }
      longLen += lineEnd - from;
      if (nl < 0) {
        ls = 0;
        continue;
      }
      long = false;
      const go = finishLong(true);
      pending = false;
      ls = from = nl + 1;
      if (!go) {
        stop = "limit";
        break;
      }
    }

    if (!needle) {
      const positions = simd.positions;
      while (ls < end) {
        const count = simd.lines(ls, end);
        for (let k = 0; k < count; k++) {
          const entry = positions[k];
          const nl = entry & 0xffffff;
          const go = finish(ls, nl, true, entry >>> 24);
          ls = nl + 1;
          if (!go) {
            stop = "limit";
            break read;
          }
        }
        if (count < POSITIONS) break;
      }
      continue;
    }

    // Searching: count lines in bulk, look only at lines that hold the needle.
    let pos = ls;
    let searchFrom = Math.max(ls, from - (nlen - 1));
    while (true) {
      if (pending) {
        const nl = find(10, Math.max(pos, from), end);
        if (nl < 0) break;
        pending = false;
        const go = finish(pos, nl, true);
        pos = searchFrom = nl + 1;
        if (!go) {
          ls = pos;
          stop = "limit";
          break read;
        }
        continue;
      }
      const m = findNeedle(searchFrom, end);
      if (m < 0) {
        const last = buf.lastIndexOf(10, end - 1);
        if (last >= pos) {
          lineNo += simd.count(pos, last + 1);
          pos = last + 1;
        }
        break;
      }
      const prevNl = m > pos ? buf.lastIndexOf(10, m - 1) : -1;
      const lineStart = prevNl >= pos ? prevNl + 1 : pos;
      if (lineStart > pos) lineNo += simd.count(pos, lineStart);
      pos = lineStart;
      pending = true;
    }
    ls = pos;
  }

  if ((stop === "time_budget" || stop === "size_budget") && pending) {
    // A budget ran out inside a line that holds the needle: the match is real, so it is passed on,
    // cut (its end was not read), though the line is not counted as read to its end.
    if (long) sink.line(head, 0, headLen, lineNo + 1, true, -1, longStart);
    else sink.line(buf, ls, end, lineNo + 1, true, -1, bytesRead - end + ls);
  } else if (stop === null) {
    // The end: an unterminated last line still counts.
    if (long) {
      if (!finishLong(false)) stop = "limit";
    } else if (end > ls) {
      if (needle && !pending) lineNo++;
      else if (!finish(ls, end, false)) stop = "limit";
    }
  }
  const resumeAt = stop === null ? bytesRead : long ? longStart : bytesRead - (end - ls);
  return { lines: lineNo, bytesRead, stop, droppedPartial, resumeAt, pending };
}
