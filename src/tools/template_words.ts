/**
 * The words of an answer by `template_id` (`log_search`): the template, its lines found, and why not all.
 *
 * @module
 */

import { printable } from "../guard/printable.ts";
import type { SearchAnswer } from "../source/backend.ts";
import { renderStop } from "./render.ts";

/**
 * The answer's first line for a search by template.
 *
 * @param a The answer (`scanned_lines`: the lines mined; `notes`: why not complete without a stop).
 * @param t Its template, with the lines earlier pages returned.
 */
export function renderTemplateHeader(a: SearchAnswer, t: NonNullable<SearchAnswer["template"]>): string {
  const shown = a.matches.length === 0
    ? "no line shown"
    : `lines ${t.skipped + 1}..${t.skipped + a.matches.length} of them`;
  const status = a.complete
    ? "complete: every line of the template was returned (this page and the ones before)."
    : a.stop_reason === null
    ? "NOT complete: " + a.notes.join("; ") + "."
    : a.stop_reason === "limit"
    ? "NOT complete (stop_reason: limit): more lines of it follow; pass next_cursor."
    : renderStop(a.stop_reason, a.scanned_lines, "LOGPEEK_PATTERNS_MS") + ".";
  return `${printable(a.file)}: template ${t.template_id} ${printable(t.template)}: ` +
    `${t.count} line(s) in all (${a.scanned_lines} mined); ${shown}. ${status}`;
}
