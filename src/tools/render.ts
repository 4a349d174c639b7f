/**
 * Text renderings shared by the reading tools: compact, and carrying the same facts as the
 * structuredContent (completeness and its reason included), never a raw JSON dump.
 *
 * @module
 */

import { z } from "zod";
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

/**
 * Says why a scan is not complete, and what to do about it.
 *
 * @param stop The stop reason, or null (complete).
 * @param lines Lines read on this page (counted from where it began: a cursor's point, or a seek's).
 * @param budgetVar The variable of the time budget that may have stopped it.
 * @param last The last match shown, for a stop at the match limit: its log (over a glob) and line
 *   number (null when unknown). Issue #24: "after line 2295144" over a glob was lines read across two
 *   logs, where the last match was `app.log:1044932`.
 */
export function renderStop(
  stop: StopReason | null,
  lines: number,
  budgetVar: string,
  last?: { file?: string; line_no: number | null },
): string {
  switch (stop) {
    case null:
      return `complete: the whole file was read (${plural(lines, "line")})`;
    case "limit":
      return "NOT complete (stop_reason: limit): stopped at the match limit " +
        (last
          ? `at the last match shown, ${last.file ? `${printable(last.file)}:` : "line "}${
            last.line_no ?? "-"
          }` +
            (last.line_no === null ? " (its line number is not known)" : "")
          : `after ${plural(lines, "line")} read`) +
        "; more matches may follow: raise limit, or narrow the text or level";
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

/**
 * The `log_format` field of a reading answer (`read/log_format.ts`): the table's name of the format the log
 * was read as, or null for the general rules; absent for a table (its levels are stored).
 */
export const logFormatSchema = z.string().nullable().optional().describe(
  "the log's format (docs/formats.md); null: general rules",
);

/**
 * The text of an answer's `log_format`: `log_format: redis.`, or that no format of the table matched.
 *
 * @param name The format's name, or null.
 * @returns One short sentence, led by a blank.
 */
export function renderFormat(name: string | null): string {
  return name === null
    ? " log_format: null (no known format; general level rules)."
    : ` log_format: ${name}.`;
}

/**
 * What a tail or search says of lines whose level could not be told (`read/entry_levels.ts`), or "".
 *
 * @param n How many, or undefined for none.
 */
export function unresolvedNote(n: number | undefined): string {
  return n
    ? ` ${n} line(s) have no level of their own, and no line within 1 MiB before them (or, in a .gz, on ` +
      "this page before them) tells the entry they belong to: shown as UNKNOWN, their level not known."
    : "";
}
