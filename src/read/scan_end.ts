/**
 * The end of a scan (`scanner.ts` `scan`, its last step): the unterminated last line handed on, a match
 * cut by a budget passed on, and what the scan did ({@linkcode ScanResult}).
 *
 * @module
 */

import type { LineScan } from "./line_scan.ts";
import type { ScanResult } from "./scan_options.ts";
import { finishLong } from "./long_line.ts";

/**
 * Step 6 of `scan`, the end of the source: an unterminated last line still counts, and is handed on.
 * When the sink stops there, `resumeAfterStop` is awaited as between two lines (a line to test in a
 * worker). Nothing is done after a stop.
 *
 * @param s The scan.
 */
export async function finishEnd(s: LineScan): Promise<void> {
  if (s.stop !== null) return;
  const { buf, ls, end } = s;
  let go = true;
  if (s.long) {
    s.endHanded = true;
    go = finishLong(s, false);
  } else if (end > ls) {
    s.endHanded = true;
    if (s.needle && !s.pending) s.lineNo++;
    else if (s.needle && !s.sure && !s.opts.verify!(buf, ls, end)) s.lineNo++;
    else go = s.finish(ls, end, false);
  }
  if (!go && !(s.opts.resumeAfterStop && await s.opts.resumeAfterStop())) s.stop = "limit";
}

/**
 * What the scan did, once it ended or stopped: a line a budget cut that holds the needle is handed on
 * (cut) first, and where the next page resumes is worked out (`ScanResult.resumeAt`).
 *
 * @param s The scan, after {@linkcode finishEnd}.
 * @returns Lines, bytes read, why it stopped, and where to resume.
 */
export function scanResult(s: LineScan): ScanResult {
  const { buf, head, ls, end, bytesRead } = s;
  const budget = s.stop === "time_budget" || s.stop === "size_budget";
  if (budget && s.pending && !s.sure) {
    // A candidate cut by the budget: decided on what was read; a match that straddles into the
    // unread part is found by the next page (it carries the `span - 1` bytes before its start).
    const ok = s.long ? s.opts.verify!(head, 0, s.headLen) : s.opts.verify!(buf, ls, end);
    if (ok) s.sure = true;
    else s.pending = false;
  }
  if (budget && s.pending && !s.long && bytesRead - (end - ls) > 0) {
    // A budget ran out inside a line that holds the needle, after this page read a line before it:
    // the page ends at the line's start, so that the next page reads it whole (a match the budget
    // straddles is shown whole, as without a budget: the contract's `budget_whole`).
    s.pending = false;
    s.sure = true;
    s.bytesRead = bytesRead - (end - ls);
    s.end = ls;
  } else if (budget && s.pending) {
    // A budget ran out inside a line that holds the needle, and the page read nothing before it, or
    // the line is longer than the buffer (shown as its first `headBytes` anyway): the match is real, so it is passed on, cut
    // (its end was not read), though the line is not counted as read to its end.
    if (s.long) s.sink.line(head, 0, s.headLen, s.lineNo + 1, true, -1, s.longStart);
    else s.sink.line(buf, ls, end, s.lineNo + 1, true, -1, bytesRead - end + ls);
  }
  const stop = s.stop;
  // An unterminated last line handed on at the end (`finishEnd`) was read: a stop there ("limit")
  // resumes after it, not at its start (a trial's pages repeated it forever).
  const read = s.bytesRead;
  const resumeAt = stop === null || s.endHanded ? read : s.long ? s.longStart : read - (s.end - ls);
  return {
    lines: s.lineNo,
    bytesRead: read,
    stop,
    droppedPartial: s.droppedPartial,
    resumeAt,
    pending: s.pending,
  };
}
