/**
 * The logs a glob names, for a reading tool given a glob as `file` (issue #12, "many logs in one call"):
 * the readable logs whose names (as `log_files` lists them) the glob matches, newest first, so a call
 * that stops at its budget has read the newest. Rotated siblings (`app.log.1`, `app.log.2.gz`) are among
 * them when the glob matches their names (`app.log*`). A glob that matches nothing is an error that names
 * the closest log names.
 *
 * @module
 */

import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import { BestOf } from "../core/best_of.ts";
import { globDistanceTo } from "./glob.ts";
import { COUNT_STOPPED, type ListKey, type LogEntry, type LogList, type LogSource } from "./log_types.ts";

/**
 * How long {@linkcode matchingLogList} may walk the roots by default, in milliseconds (a reading tool
 * passes its own time budget).
 */
export const MATCHING_MS = 10_000;

/** How long {@linkcode closestLogNames} looks through the listing, in milliseconds. */
export const CLOSEST_MS = 2000;

/**
 * The readable logs whose names match `glob`, newest first (modified time, then name), at most `max`.
 *
 * @param source The log source.
 * @param glob The glob (`glob.ts`).
 * @param max The most logs one call reads: a whole number from 1.
 * @param ms How long the walk may take, in milliseconds.
 * @returns The logs, newest first: at least one, at most `max`.
 * @throws {ToolError} as {@linkcode matchingLogList}.
 */
export async function matchingLogs(
  source: LogSource,
  glob: string,
  max: number,
  ms = MATCHING_MS,
): Promise<LogEntry[]> {
  return (await matchingLogList(source, glob, max, ms)).files;
}

/**
 * {@linkcode matchingLogs} with the rest of the listing: `unreadable` names the matching entries that are
 * not read and why (refused formats, permission, links out, folders that could not be read; the first
 * 20), `not_listed` counts them, and `complete` is false when there are any — for the answer to say
 * which matching logs it did not read.
 *
 * @param source The log source.
 * @param glob The glob (`glob.ts`).
 * @param max The most logs one call reads: a whole number from 1.
 * @param ms How long the walk may take, in milliseconds (the calling tool's time budget).
 * @returns The listing: `files` newest first, at least one, at most `max`; `next` always null.
 * @throws {ToolError} `invalid_pattern` for a malformed glob (an unclosed `[` or `{`, …; its braces
 *   expanding too far); `not_found` when no readable log matches, saying which matched but are not
 *   readable and naming up to 5 log names closest to the glob ({@linkcode closestNames});
 *   `budget_exceeded` when more than `max` readable logs match, saying how many at least, or when the walk
 *   could not compare every matching file's modified time within `ms` (issue #22: the newest cannot be
 *   told from part of the tree).
 * @throws {RangeError} when `max` is not a whole number from 1.
 */
export async function matchingLogList(
  source: LogSource,
  glob: string,
  max: number,
  ms = MATCHING_MS,
): Promise<LogList> {
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`max is a whole number from 1, not ${max}`);
  let list: LogList;
  try {
    const deadline = performance.now() + ms;
    list = await source.list({ glob, sort: "modified", limit: max, readableOnly: true, deadline });
  } catch (e) {
    if (e instanceof TypeError || e instanceof RangeError) {
      throw new ToolError("invalid_pattern", `the glob '${printable(glob)}' is malformed: ${e.message}`);
    }
    throw e;
  }
  const shown = `'${printable(glob)}'`;
  if (list.walk) {
    throw new ToolError(
      "budget_exceeded",
      `the logs matching the glob ${shown} could not all be compared by modified time within ${ms} ms ` +
        `(${list.walk.seen} files seen so far), so the newest cannot be told: narrow the glob`,
    );
  }
  if (list.files.length === 0) {
    const near = await closestLogNames(source, glob);
    const more = list.not_listed > list.unreadable.length
      ? ` (and ${list.not_listed - list.unreadable.length} more)`
      : "";
    const notRead = list.unreadable.length
      ? ` (not read, though matching or maybe holding a match: ${
        printable(list.unreadable.join("; "))
      }${more})`
      : "";
    throw new ToolError(
      "not_found",
      `no readable log matches the glob ${shown}${notRead}. ` +
        (near.length
          ? `The closest log names: ${near.map(printable).join(", ")}. `
          : "There are no logs under the roots. ") +
        "A glob matches whole names as log_files lists them: * and ? stop at /, ** crosses folders " +
        "(**/x.log); call log_files with glob to try one",
    );
  }
  if (list.next !== null && list.unreadable.some((u) => u.startsWith(COUNT_STOPPED))) {
    throw new ToolError(
      "budget_exceeded",
      `the listing of the logs matching the glob ${shown} stopped at its time budget with ${list.files.length} ` +
        `found, the most one call reads (${max}), and more may match: narrow the glob`,
    );
  }
  if (list.next !== null) {
    throw new ToolError(
      "budget_exceeded",
      `more than ${max} readable logs match the glob ${shown} (at least ${list.files.length + 1}); ` +
        `one call reads at most ${max}: narrow the glob (log_files with the glob lists them, newest first ` +
        `with sort: "modified")`,
    );
  }
  return list;
}

/**
 * Up to `n` log names closest to matching `glob` ({@linkcode closestNames}), from the whole listing, a
 * page of 1000 names at a time, keeping only the best `n`; for at most `ms` milliseconds (then from the
 * names seen so far, in name order).
 *
 * @param source The log source.
 * @param glob The glob (well-formed).
 * @param n How many to give.
 * @param ms How long to look, in milliseconds ({@linkcode CLOSEST_MS}).
 * @returns The closest names, closest first.
 * @throws {TypeError} for a malformed glob (`glob.ts`).
 */
export async function closestLogNames(
  source: LogSource,
  glob: string,
  n = 5,
  ms = CLOSEST_MS,
): Promise<string[]> {
  const deadline = performance.now() + ms;
  const score = scorer(glob);
  const best = new BestOf<Scored>(n, byScore);
  let after: ListKey | undefined;
  do {
    const page = await source.list({ sort: "name", limit: 1000, after, deadline });
    for (const f of page.files) {
      best.offer({ name: f.file, d: score(f.file) });
      if (performance.now() > deadline) return best.sorted().map((s) => s.name);
    }
    after = page.next ?? undefined;
  } while (after);
  return best.sorted().map((s) => s.name);
}

/**
 * Up to `n` of `names` closest to matching `glob`: fewest edits first (`glob.ts` `globDistance`, `*` and
 * `?` free), then shorter, then in code-unit order. When the glob has no `/`, a name's base name counts
 * too (`acess.log` is one edit from `nginx/access.log`).
 *
 * @param glob The glob.
 * @param names The log names.
 * @param n How many to give.
 * @returns The closest names, closest first.
 * @throws {TypeError} for a malformed glob (`glob.ts`).
 */
export function closestNames(glob: string, names: readonly string[], n = 5): string[] {
  const score = scorer(glob);
  const best = new BestOf<Scored>(n, byScore);
  for (const name of names) best.offer({ name, d: score(name) });
  return best.sorted().map((s) => s.name);
}

/** A name and its distance from the glob. */
interface Scored {
  name: string;
  d: number;
}

/** Closest first, then shorter, then in code-unit order. */
const byScore = (a: Scored, b: Scored) =>
  a.d - b.d || a.name.length - b.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** A name's distance from the glob; its base name's too when the glob has no `/`. */
function scorer(glob: string): (name: string) => number {
  const dist = globDistanceTo(glob);
  const flat = !glob.includes("/");
  return (name) => {
    const d = dist(name);
    return flat && d > 0 ? Math.min(d, dist(name.slice(name.lastIndexOf("/") + 1))) : d;
  };
}
