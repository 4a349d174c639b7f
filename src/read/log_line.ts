/**
 * The line every reading tool returns.
 *
 * @module
 */

import { z } from "zod";
import { decodeLine } from "./decode.ts";
import { CONTINUED, levelOf, LEVELS } from "./level.ts";
import { levelCode } from "./entry_levels.ts";
import type { LineRedactor } from "../guard/redact.ts";

/** The zod schema of a level name (issue #2: `TRACE DEBUG INFO NOTICE WARN ERROR FATAL UNKNOWN`). */
export const levelSchema = z.enum(LEVELS);

/** The zod schema of {@linkcode LogLine}. */
export const logLineSchema = z.object({
  line_no: z.number().int().nullable().describe(
    "1-based line number counted from the file's start; null when only the file's end was read",
  ),
  level: levelSchema,
  continuation: z.boolean().optional().describe(
    "the line continues an entry (a stack frame, an indented line): level is that entry's",
  ),
  text: z.string().describe("the line without its end of line; invalid UTF-8 replaced by U+FFFD"),
  cut: z.boolean().describe(
    "true when text is not the whole line (cut to LOGPEEK_MAX_LINE Unicode code points, never inside a character)",
  ),
});

/**
 * One returned line: `{line_no, level, text, cut}`. `text` excludes the end of line (LF or CRLF) and
 * holds at most `LOGPEEK_MAX_LINE` characters, counted as Unicode code points (an emoji is one, though
 * it takes 4 UTF-8 bytes and 2 UTF-16 units; an invalid byte sequence shown as U+FFFD is one): the cut
 * falls between two characters, never inside one, so `text` is always well-formed Unicode (issue #10,
 * item 5).
 */
export type LogLine = z.infer<typeof logLineSchema>;

/**
 * Makes a {@linkcode LogLine} from raw bytes: finds the level, decodes, cuts.
 *
 * @param buf Bytes holding the line (or only its start when `partial`).
 * @param start Offset of the line's first byte.
 * @param end Offset past its last byte (end of line excluded).
 * @param lineNo The line's number, or null when unknown.
 * @param partial True when the bytes are only the line's start.
 * @param maxLine The most characters of text, in Unicode code points (`LOGPEEK_MAX_LINE`).
 * @param redactor Masks secrets in the text (and counts them); none: the text is returned as read.
 * @param code The line's level as its entry's (`entry_levels.ts` `EntryLevels.levelAt`: a level code,
 *   `CONTINUED` + one for a continuation, `UNRESOLVED`); none: the line's own, by `readLevel`.
 * @param readLevel How a line's own level is read (a log format's own way, `log_format.ts` `levelReader`);
 *   default the general rules, `level.ts` `levelOf`.
 * @returns The line and how many of its bytes were replaced.
 */
export function toLogLine(
  buf: Uint8Array,
  start: number,
  end: number,
  lineNo: number | null,
  partial: boolean,
  maxLine: number,
  redactor?: LineRedactor,
  code?: number,
  readLevel: (buf: Uint8Array, start: number, end: number) => number = levelOf,
): { line: LogLine; replaced: number } {
  // Each character takes at most 4 bytes: no more are needed for maxLine characters (and one more
  // to know whether there is more).
  const take = Math.min(end, start + maxLine * 4 + 1);
  const d = decodeLine(buf.subarray(start, take), maxLine, partial || take < end);
  const level = code === undefined ? readLevel(buf, start, end) : levelCode(code);
  const line = logLineOf(lineNo, level, redactor ? redactor.line(d.text, d.cut) : d.text, d.cut, code);
  return { line, replaced: d.replaced };
}

/**
 * The {@linkcode LogLine} of a line's text as shown (decoded, cut, masked), as {@linkcode toLogLine}
 * makes it.
 *
 * @param lineNo The line's number, or null when unknown.
 * @param level The line's level (a `LEVELS` index).
 * @param text Its text as shown.
 * @param cut Whether the text is not the whole line.
 * @param code Its level code as its entry's (`entry_levels.ts`), when known: a continuation line
 *   (`CONTINUED` + its level) is marked `continuation`.
 */
export function logLineOf(
  lineNo: number | null,
  level: number,
  text: string,
  cut: boolean,
  code?: number,
): LogLine {
  const line: LogLine = { line_no: lineNo, level: LEVELS[level], text, cut };
  if (code !== undefined && code >= CONTINUED && code < 2 * CONTINUED) line.continuation = true;
  return line;
}
