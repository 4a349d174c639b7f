/**
 * Text renderings shared by the reading tools: compact, and carrying the same facts as the
 * structuredContent (completeness and its reason included), never a raw JSON dump.
 *
 * @module
 */

import { plural } from "../core/plural.ts";
import type { LogLine } from "../read/log_line.ts";
import { printable } from "../guard/printable.ts";
import type { StopReason } from "../read/scanner.ts";

/**
 * One line as `NUMBER LEVEL text`, `-` for an unknown number, with a cut marker. The text is shown
 * {@linkcode printable}: its control characters and line separators escaped, so it takes exactly one
 * line of the answer and cannot forge others (`../shared/cases/28-…`); `LogLine.text` keeps them raw.
 */
export function renderLine(l: LogLine): string {
  return `${l.line_no ?? "-"} ${l.level} ${printable(l.text)}${l.cut ? " …[cut]" : ""}`;
}

/** Says why a scan is not complete, and what to do about it. */
export function renderStop(stop: StopReason | null, lines: number, budgetVar: string): string {
  switch (stop) {
    case null:
      return `complete: the whole file was read (${plural(lines, "line")})`;
    case "limit":
      return `NOT complete (stop_reason: limit): stopped at the match limit after line ${lines}; ` +
        "more matches may follow: raise limit, or narrow the text or level";
    case "time_budget":
      return `NOT complete (stop_reason: time_budget): the time budget (${budgetVar}) ran out after ` +
        `${
          plural(lines, "line")
        }; the rest of the file was not read, so absence of a line there proves nothing`;
    case "file_changed":
      return `NOT complete (stop_reason: file_changed): the log changed while it was read (it shrank: ` +
        `truncated or rotated in place; or it was rewritten in place: same size, new modification time) ` +
        `after ${plural(lines, "line")}; what follows was not read and what was read may be of the old ` +
        "content, so the counts are not the file's: call again";
    case "corrupt_gzip":
      return `NOT complete (stop_reason: corrupt_gzip): the compressed data is damaged or cut short after ` +
        `${plural(lines, "line")}; the rest could not be read`;
    case "cancelled":
      return `NOT complete (stop_reason: cancelled): the client cancelled the call after ${
        plural(lines, "line")
      }`;
    case "size_budget":
      return `NOT complete (stop_reason: size_budget): the byte budget (LOGPEEK_SEARCH_BYTES) ran out after ` +
        `${
          plural(lines, "line")
        }; the rest of the file was not read, so absence of a line there proves nothing`;
  }
}

export { plural };
