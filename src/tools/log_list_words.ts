/**
 * The words of an answer over a glob (issue #12): the per-log list, and the matching entries not read.
 *
 * @module
 */

import { printable } from "../guard/printable.ts";

/** What an answer over a glob says of the matching entries it does not read (`OverLogs.notRead`). */
export function notReadNote(notRead: string[], count: number): string {
  if (count === 0) return "";
  const more = count > notRead.length ? ` (and ${count - notRead.length} more)` : "";
  return `\nNOT read, though the glob matches them, so this answer is NOT complete: ${
    printable(notRead.join("; "))
  }${more}.`;
}

/** How many logs an answer's text lists one by one (`logs` in structuredContent has them all). */
export const LOGS_SHOWN = 20;

/**
 * The per-log list of an answer over a glob, as text: the first {@linkcode LOGS_SHOWN}, and how many more
 * (a glob over hundreds of logs must not push the matches out of the answer).
 */
export function firstLogs<L>(logs: L[], show: (l: L) => string): string {
  const more = logs.length - LOGS_SHOWN;
  return logs.slice(0, LOGS_SHOWN).map(show).join("; ") +
    (more > 0 ? `; and ${more} more (in logs in the structured result)` : "");
}
