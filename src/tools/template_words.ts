/**
 * The words of an answer by `template_id` (`log_search`): the template, its lines found, and why not all.
 *
 * @module
 */

import { printable } from "../guard/printable.ts";
import type { TemplateSearchResult } from "../source/local/template_search.ts";
import { renderStop } from "./render.ts";

/** The answer's first line for a search by template. */
export function renderTemplateHeader(file: string, r: TemplateSearchResult): string {
  const shown = r.matches.length === 0
    ? "no line shown"
    : `lines ${r.skipped + 1}..${r.skipped + r.matches.length} of them`;
  const status = r.complete
    ? "complete: every line of the template was returned (this page and the ones before)."
    : r.stop_reason === null
    ? "NOT complete: " + r.notes.join("; ") + "."
    : r.stop_reason === "limit"
    ? "NOT complete (stop_reason: limit): more lines of it follow; pass next_cursor."
    : renderStop(r.stop_reason, r.mined, "LOGPEEK_PATTERNS_MS") + ".";
  return `${printable(file)}: template ${r.template.template_id} ${printable(r.template.template)}: ` +
    `${r.template.count} line(s) in all (${r.mined} mined); ${shown}. ${status}`;
}
