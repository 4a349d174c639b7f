/**
 * Whether a line is shown exactly as read (issue #26): the one test that lets a search's pattern, a
 * page's matches and the template miner take a line's bytes as its text, without decoding it or asking
 * the redactor (~1–1.5 µs a line saved; the byte check costs ~0.5 µs).
 *
 * @module
 */

import { mayHoldSecretBytes } from "../guard/redact.ts";

/**
 * True when the line `buf[s, e)` is shown as read, with masking on: whole (not `cut`), no longer than
 * `maxLine` (`LOGPEEK_MAX_LINE`) bytes, ASCII and by its bytes free of secrets (`guard/redact.ts`
 * `mayHoldSecretBytes`, false only for ASCII), so that a `LineRedactor` that is not contiguous would return
 * its text unchanged and count nothing. False with masking off (nothing to skip; a caller that needs
 * "ASCII and whole" then checks that itself).
 *
 * @param redact Whether secrets are masked.
 * @param buf Bytes holding the line (no end of line).
 * @param s Offset of its first byte.
 * @param e Offset past its last byte.
 * @param cut True when the line was cut (its end not read, or longer than the part kept).
 * @param maxLine The most characters of a line shown (`LOGPEEK_MAX_LINE`).
 * @returns Whether the line's bytes are its text as shown.
 * @example
 * ```ts
 * import { shownAsRead } from "./shown_as_read.ts";
 * const b = new TextEncoder().encode("2024-05-01 INFO started");
 * console.assert(shownAsRead(true, b, 0, b.length, false, 1000));
 * console.assert(!shownAsRead(true, b, 0, b.length, false, 10));
 * ```
 */
export function shownAsRead(
  redact: boolean,
  buf: Uint8Array,
  s: number,
  e: number,
  cut: boolean,
  maxLine: number,
): boolean {
  return redact && !cut && e - s <= maxLine && !mayHoldSecretBytes(buf, s, e);
}
