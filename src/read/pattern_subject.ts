/**
 * What a pattern is tested on in a line-by-line search (`search_page.ts`): the line as shown, so that a
 * pattern cannot read a secret back (issue #11 trial).
 *
 * @module
 */

import { LineRedactor, mayHoldSecret, redactCutTail, redactLine } from "../guard/redact.ts";
import { decodeLine } from "./decode.ts";
import { shownAsRead } from "./shown_as_read.ts";

/**
 * What the pattern is tested on (issue #11 trial: it must depend on the masked text only, or a
 * pattern could read a secret back one character at a time). With masking on: the line's raw bytes
 * when it surely holds no secret and no invalid UTF-8 (the bytes are then the text as shown, and the
 * DFA runs on them); else its text as shown — decoded, invalid sequences as U+FFFD, secrets masked —
 * encoded again for a test in the pattern worker, or as a string here.
 *
 * @param tested The line's first `TESTED_BYTES` bytes (`search_options.ts`).
 * @param partial True when that is not the whole line.
 * @param redact Mask secrets (false for `--no-redact`: the bytes are tested as they are).
 * @param maxLine The most characters (code points) of a line shown (`LOGPEEK_MAX_LINE`).
 * @returns `tested` itself, or the text as shown.
 */
export function patternSubject(
  tested: Uint8Array,
  partial: boolean,
  redact: boolean,
  maxLine: number,
): Uint8Array | string {
  if (!redact) return tested;
  // Most lines: whole, ASCII (their text is their bytes, and no longer than LOGPEEK_MAX_LINE), no
  // secret by their bytes: the bytes, not decoded (issue #26, item 2: ~1.3 µs a line decoded and checked).
  if (shownAsRead(true, tested, 0, tested.length, partial, maxLine)) return tested;
  const { text, replaced } = decodeLine(tested, Infinity, partial);
  if (text.length > maxLine) {
    // Shown cut at LOGPEEK_MAX_LINE, and masked as a cut line (a trial: the first 1000 characters of
    // a long base64 run are masked as a key body, the whole line is not): when anything is masked in
    // what is shown, the pattern sees only what is shown.
    const shown = decodeLine(tested, maxLine, partial);
    const scratch = new LineRedactor(true, false);
    const masked = scratch.line(shown.text, shown.cut);
    if (scratch.count > 0) return masked;
  } else if (!partial && replaced === 0 && !mayHoldSecret(text)) return tested;
  // The first 64 KiB of a longer line are masked as a cut line too (a secret running into the cut).
  const masked = redactLine(text);
  const tail = partial ? redactCutTail(masked.text) : { text: masked.text, count: 0 };
  return masked.count === 0 && tail.count === 0 && replaced === 0 ? tested : tail.text;
}
