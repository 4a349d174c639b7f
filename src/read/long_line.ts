/**
 * A line longer than the scan's buffer (`scanner.ts` `scan`, its fourth step): streamed through the
 * buffer, its first `headBytes` kept in `head` (for its level and its returned text, cut when the line is
 * longer), only the `span - 1` bytes a match could straddle carried between reads, and handed on from
 * `head` once its end is in view.
 *
 * @module
 */

import type { LineScan } from "./line_scan.ts";

/**
 * Step 4 of `scan`: a line longer than the buffer takes the new bytes from `from` up to its end: its
 * first bytes go to `head`, the needle is looked for in it, and it is handed on when its end is in view.
 *
 * @param s The scan.
 * @param from Where the new bytes begin in `s.buf`.
 * @returns Where the bytes after the long line begin (`from` when no long line is being read), or -1
 *   when the sink stopped the scan.
 */
export function streamLongLine(s: LineScan, from: number): number {
  if (!s.long) return from;
  const needle = s.needle;
  const nl = s.find(10, from, s.end);
  const lineEnd = nl < 0 ? s.end : nl;
  if (needle && !(s.pending && s.sure)) {
    if (s.finder!.findNeedle(0, lineEnd) >= 0) {
      s.pending = true;
      s.sure = true;
    } else if (!s.pending && s.finder!.findPartner(0, lineEnd) >= 0) {
      s.pending = true;
      s.sure = false;
    }
  }
  const more = Math.min(s.headBytes - s.headLen, lineEnd - from);
  if (more > 0) {
    s.head.set(s.buf.subarray(from, from + more), s.headLen);
    s.headLen += more;
  }
  s.longLen += lineEnd - from;
  if (nl < 0) {
    s.ls = 0;
    return s.end; // the long line goes on past this piece
  }
  s.long = false;
  const go = finishLong(s, true);
  s.pending = false;
  s.sure = true;
  s.ls = nl + 1;
  if (go) return nl + 1;
  s.stop = "limit";
  return -1;
}

/**
 * The long line is finished: handed on from `head` (or counted by level), cut when it was longer than
 * `head`; a fragment at the scan's start is dropped instead.
 *
 * @param s The scan.
 * @param hasNewline False at the source's end (a final `\r` is then part of the line).
 * @returns The sink's answer: false to stop the scan.
 */
export function finishLong(s: LineScan, hasNewline: boolean): boolean {
  if (s.dropping) {
    s.dropping = false;
    s.droppedPartial = true;
    return true;
  }
  s.lineNo++;
  if (s.needle && !s.pending) return true;
  const { head, longLen, headBytes } = s;
  if (longLen <= headBytes) { // the whole line fit in `head` after all
    const e = hasNewline && longLen > 0 && head[longLen - 1] === 13 ? longLen - 1 : longLen;
    if (s.needle && !s.sure && !s.opts.verify!(head, 0, e)) return true;
    if (s.levels) return s.count(head, 0, e);
    return s.sink.line(head, 0, e, s.lineNo, false, -1, s.longStart);
  }
  if (s.levels) return s.count(head, 0, s.headLen);
  // A candidate is decided on the line's first `headBytes` only (documented as a limit).
  if (s.needle && !s.sure && !s.opts.verify!(head, 0, s.headLen)) return true;
  return s.sink.line(head, 0, s.headLen, s.lineNo, true, -1, s.longStart);
}
