/**
 * Cutting text for output on a character boundary (issue #10, item 5): every place that shortens text for an
 * answer, a trace line or an error message cuts here, so no cut lands inside a UTF-16 surrogate pair and the
 * result is always well-formed Unicode (a lone surrogate already in the input becomes U+FFFD, as
 * `String.prototype.toWellFormed` does, ECMAScript 2024).
 *
 * @module
 */

/**
 * `s` made well-formed and cut to at most `max` UTF-16 code units, never between the two halves of a
 * surrogate pair (the cut may fall one unit short of `max` to keep a pair whole).
 *
 * @param s Any string (lone surrogates allowed).
 * @param max The most UTF-16 code units to keep (JavaScript `length` units, not bytes); ≥ 0.
 * @returns A well-formed prefix of `s` of at most `max` code units; `s` itself (well-formed) when it fits.
 * @throws {RangeError} When `max` is negative or not an integer.
 * @example
 * ```ts
 * import { cutText } from "./text_cut.ts";
 * console.assert(cutText("a😀b", 2) === "a"); // the emoji's pair is not split
 * console.assert(cutText("a😀b", 3) === "a😀");
 * console.assert(cutText("ok", 10) === "ok");
 * ```
 */
export function cutText(s: string, max: number): string {
  if (!Number.isInteger(max) || max < 0) {
    throw new RangeError(`cutText: max must be an integer ≥ 0, got ${max}`);
  }
  // Only the first max + 1 units can matter (the last one only to see a pair at the cut): time O(max),
  // whatever the length of `s` (a 4 MiB traced argument).
  if (s.length > max + 1) s = s.slice(0, max + 1);
  const t = s.isWellFormed() ? s : s.toWellFormed();
  if (t.length <= max) return t;
  const c = t.charCodeAt(max - 1);
  // A high surrogate as the last kept unit would be cut from its low half: keep one unit less.
  return t.slice(0, c >= 0xd800 && c <= 0xdbff ? max - 1 : max);
}

/**
 * `s` cut from the end: its last at most `max` UTF-16 code units, never starting on the low half of a
 * surrogate pair; well-formed, as {@linkcode cutText}.
 *
 * @param s Any string.
 * @param max The most UTF-16 code units to keep; ≥ 0.
 * @returns A well-formed suffix of `s`.
 * @throws {RangeError} When `max` is negative or not an integer.
 * @example
 * ```ts
 * import { cutTextEnd } from "./text_cut.ts";
 * console.assert(cutTextEnd("a😀b", 2) === "b");
 * console.assert(cutTextEnd("a😀b", 3) === "😀b");
 * ```
 */
export function cutTextEnd(s: string, max: number): string {
  if (!Number.isInteger(max) || max < 0) {
    throw new RangeError(`cutTextEnd: max must be an integer ≥ 0, got ${max}`);
  }
  if (s.length > max + 1) s = s.slice(s.length - max - 1); // time O(max), as cutText
  const t = s.isWellFormed() ? s : s.toWellFormed();
  if (t.length <= max) return t;
  if (max === 0) return "";
  const start = t.length - max;
  const c = t.charCodeAt(start);
  return t.slice(c >= 0xdc00 && c <= 0xdfff ? start + 1 : start);
}
