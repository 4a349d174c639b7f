/**
 * The lines of a piece (`scanner.ts` `scan`, its fifth step): the line ends found in the bytes a read
 * brought, and the finished lines handed to the sink, counted by level, or, searching, only those that
 * hold the needle. These are the scanner's hot loops: each runs over a whole piece in one call.
 *
 * @module
 */

import { POSITIONS } from "./simd.ts";
import type { LevelTally } from "./level.ts";
import type { LineScan } from "./line_scan.ts";

/**
 * Step 5 of `scan`: finds the line ends in the new bytes (from `from`) and hands the finished lines to the sink,
 * or, searching, only those that hold the needle.
 *
 * @param s The scan (its `buf[ls, end)` holds the unfinished line and the new bytes).
 * @param from Where the new bytes begin in `buf`.
 * @returns False when the scan stops here (the sink stopped it, or a look at the clock did).
 */
export function handLines(s: LineScan, from: number): boolean {
  if (s.long) return true; // the long line goes on past this piece
  if (s.needle) return handMatchingLines(s, from);
  if (s.prefilter) return handPickedLines(s);
  if (!s.levels) return handEveryLine(s);
  if (s.dropping) { // the fragment at the start: skipped once its end is in view
    const nl = s.find(10, s.ls, s.end);
    if (nl < 0) return true;
    s.finish(s.ls, nl, true);
    s.ls = nl + 1;
  }
  return countEveryLine(s, s.levels);
}

/**
 * Every line counted by level (see `ScanOptions.levelCounts`): the hot loop of `log_levels`,
 * with `LevelTally.add` called here rather than through a sink, and, when the log's lines carry an HTTP
 * status, `StatusTally.next` beside it (`ScanOptions.statusCounts`).
 */
function countEveryLine(s: LineScan, tally: LevelTally): boolean {
  const { simd, end, buf, statuses } = s;
  const positions = simd.positions;
  let ls = s.ls;
  statuses?.begin(end);
  while (ls < end) {
    const count = simd.lines(ls, end);
    for (let k = 0; k < count; k++) {
      const entry = positions[k];
      const nl = entry & 0xffffff;
      const e = nl > ls && buf[nl - 1] === 13 ? nl - 1 : nl;
      tally.add(buf, ls, e, entry >>> 24);
      if (statuses !== undefined) statuses.next(buf, ls, e);
      ls = nl + 1;
    }
    s.lineNo += count;
    if (count < POSITIONS) break;
    if (ls < end && s.interrupted(ls)) return false; // a look at the clock every batch
  }
  s.ls = ls;
  return true;
}

/** Every line: SIMD lists the line feeds, a batch at a time (the hot loop: `finish` inlined). */
function handEveryLine(s: LineScan): boolean {
  const { simd, end, buf, sink } = s;
  const positions = simd.positions;
  const base = s.bytesRead - end; // bytes before buf[0]
  while (s.ls < end) {
    const count = simd.lines(s.ls, end);
    for (let k = 0; k < count; k++) {
      const entry = positions[k];
      const nl = entry & 0xffffff;
      const a = s.ls;
      let go = true;
      if (s.dropping) go = s.finish(a, nl, true);
      else if ((s.untilCheck -= 1 + ((nl - a) >> 10)) < 0 && s.interrupted(a)) return false;
      else {go = sink.line(
          buf,
          a,
          nl > a && buf[nl - 1] === 13 ? nl - 1 : nl,
          ++s.lineNo,
          false,
          entry >>> 24,
          base + a,
        );}
      s.ls = nl + 1;
      if (!go) {
        s.stop = "limit";
        return false;
      }
    }
    if (count < POSITIONS) break;
  }
  return true;
}

/**
 * Searching with a prefilter (`ScanOptions.prefilter`, a pattern's byte DFA): it runs over the piece
 * across lines, counting those it passes over; only the lines it picks go to the sink. Where it stands in
 * the unfinished line is kept (`filterLine`, `filterDone`), so a line carried to the next piece is not
 * scanned again.
 */
function handPickedLines(s: LineScan): boolean {
  const { buf, end, sink } = s;
  const filter = s.prefilter!;
  const base = s.bytesRead - end; // bytes before buf[0]
  if (s.dropping) { // the fragment at the start: skipped once its end is in view
    const nl = s.find(10, s.ls, end);
    if (nl < 0) return true;
    s.finish(s.ls, nl, true);
    s.ls = nl + 1;
  }
  let ls = s.ls;
  let pos = ls;
  if (s.filterLine === base + ls) pos = ls + s.filterDone;
  else filter.restart();
  s.filterLine = -1;
  while (true) {
    const nl = filter.scan(buf, ls, pos, end);
    s.lineNo += filter.lines;
    ls = filter.lineStart;
    if (nl < 0) {
      s.filterLine = base + ls;
      s.filterDone = end - ls;
      break;
    }
    if ((s.untilCheck -= 1 + ((nl - ls) >> 10)) < 0 && s.interrupted(ls)) return false;
    const go = sink.line(
      buf,
      ls,
      nl > ls && buf[nl - 1] === 13 ? nl - 1 : nl,
      ++s.lineNo,
      false,
      -1,
      base + ls,
    );
    ls = pos = nl + 1;
    if (!go) {
      s.ls = ls;
      s.stop = "limit";
      return false;
    }
  }
  s.ls = ls;
  return true;
}

/** Searching: counts lines in bulk, looks only at lines that hold the needle. */
function handMatchingLines(s: LineScan, from: number): boolean {
  const { buf, simd, end, span } = s;
  const finder = s.finder!;
  let pos = s.ls;
  let searchFrom = Math.max(s.ls, from - (span - 1));
  // K or ſ looked for apart (a needle with a head finds them with its own pass: `finder.variant`).
  const partners = (finder.kelvin || finder.longS) && finder.head === 0;
  while (true) {
    if (s.pending) {
      const nl = s.find(10, Math.max(pos, from), end);
      if (nl < 0) break;
      if ((s.untilCheck -= 1 + ((nl - pos) >> 10)) < 0 && !s.dropping && s.interrupted(pos)) {
        return false;
      }
      s.pending = false;
      let go = true;
      if (s.sure) go = s.finish(pos, nl, true);
      else if (s.verify(pos, nl)) {
        s.sure = true;
        go = s.finish(pos, nl, true);
      } else s.lineNo++; // a K or ſ, but no match
      pos = searchFrom = nl + 1;
      if (!go) {
        s.ls = pos;
        s.stop = "limit";
        return false;
      }
      continue;
    }
    // One SIMD pass finds the needle's next bytes and counts the line feeds before them.
    let m = finder.findCounted(searchFrom, end);
    // Line feeds in [pos, m), or in [pos, end) when there is no m; -1: not counted (a K or ſ).
    let lineFeeds = finder.lineFeeds + (searchFrom > pos ? simd.count(pos, searchFrom) : 0);
    s.sure = !finder.variant;
    // The next K or ſ before the needle's next bytes (when the needle has k or s and case is ignored),
    // looked for only from the first byte ≥ 0x80 that pass saw: in ASCII, no second pass.
    const partnerTo = m < 0 ? end : Math.min(end, m + 3);
    const partner = partners && finder.high < partnerTo ? finder.findPartner(finder.high, partnerTo) : -1;
    // A K or ſ before the needle's next bytes makes its line a candidate, unless those bytes are on the
    // same line (no line feed between): then the line surely matches.
    if (partner >= 0 && (m < 0 || (partner < m && s.find(10, partner, m) >= 0))) {
      m = partner;
      s.sure = false;
      lineFeeds = -1;
    }
    if (m < 0) {
      const last = buf.lastIndexOf(10, end - 1);
      if (last >= pos) {
        s.lineNo += lineFeeds;
        pos = last + 1;
      }
      break;
    }
    const prevNl = m > pos ? buf.lastIndexOf(10, m - 1) : -1;
    const lineStart = prevNl >= pos ? prevNl + 1 : pos;
    if (lineStart > pos) s.lineNo += lineFeeds >= 0 ? lineFeeds : simd.count(pos, lineStart);
    pos = lineStart;
    s.pending = true;
    s.needleOff = s.sure ? m - lineStart : -1; // (not `sure`: `m` is a K or ſ)
  }
  s.ls = pos;
  return true;
}
