/**
 * How a search page ends (both kinds of search: `search.ts` `searchFormatted` and `search_page.ts`
 * `searchPage`): where the next page starts so that it neither loses nor repeats a line, and whether the
 * page got anywhere.
 *
 * @module
 */

import type { LogLine } from "./log_line.ts";
import type { ResumePoint } from "./readable_log.ts";
import type { ScanResult, StopReason } from "./scanner.ts";
import type { SearchResult } from "./search_options.ts";

/**
 * The next page's resume point (`next`), or null when it would start where this page started
 * (`from`): no progress (a budget too small to read anything, or a pattern that cannot finish on the
 * page's first line).
 */
export function progressed(from: ResumePoint, next: ResumePoint | null): ResumePoint | null {
  if (!next) return null;
  return next.off > from.off || next.line > from.line ? next : null;
}

/**
 * Where the page after this one starts (offsets in bytes of the file). After `limit`, at the line after
 * the last match. After a budget, exactly where reading stopped (inside a line, if so), remembering
 * whether that line already holds the needle and was already returned (cut) so the next page neither
 * loses nor repeats it.
 */
function nextPoint(
  from: ResumePoint,
  r: ScanResult,
  stop: StopReason | null,
  lastReported: number,
): ResumePoint | null {
  if (stop === "limit") {
    const at = from.off + r.resumeAt;
    return { off: at, ls: at, line: r.lines, pending: false, skip: 0 };
  }
  if (stop !== "time_budget" && stop !== "size_budget") return null;
  const unfinished = r.lines + 1;
  const returned = (r.pending && lastReported === unfinished) || from.skip === unfinished;
  return {
    off: from.off + r.bytesRead,
    ls: from.off + r.resumeAt,
    line: r.lines,
    pending: r.pending,
    skip: returned ? unfinished : 0,
  };
}

/**
 * A search page's result, from what its scan did (both kinds of search end the same way).
 *
 * @param from Where the page started.
 * @param r What its scan did.
 * @param damage Why the source ended early (a changed file, a damaged gzip), or null.
 * @param lastReported The number of the last line returned.
 */
export function pageResult(
  from: ResumePoint,
  r: ScanResult,
  damage: StopReason | null,
  lastReported: number,
  matches: LogLine[],
  replaced: number,
  redactions: number,
): Omit<SearchResult, "scanned_bytes"> {
  const stop = r.stop ?? damage;
  const next = nextPoint(from, r, stop, lastReported);
  return {
    matches,
    scanned_lines: r.lines,
    complete: stop === null,
    stop_reason: stop,
    replaced_bytes: replaced,
    redactions,
    next,
    stuck: next !== null && progressed(from, next) === null,
  };
}
