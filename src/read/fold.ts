/**
 * Case-insensitive matching of a literal text by Unicode simple case folding (issue #10, item 6).
 *
 * `ignore_case` means: the same simple case folding (Unicode `CaseFolding.txt`, status C and S, one code
 * point to one code point) applied to each code point of the text and of the line. It is not lowercasing
 * both sides: `toLowerCase` depends on context (Σ becomes ς at a word's end, so "ΑΣ" lowercased is "ας"
 * and no longer found in "ασα") and changes lengths (İ becomes i + U+0307). With one folding function
 * applied on both sides, a case-insensitive search finds every line the case-sensitive one finds.
 *
 * The folding is ECMAScript's own: a `RegExp` with the flags `iu` compares `Canonicalize(ch)`, which is
 * `scf(ch)` from `CaseFolding.txt` (ECMA-262, "Canonicalize"), kept up to date with V8's Unicode data. So
 * σ, ς and Σ match one another, ß matches ẞ (U+1E9E; `1E9E; S; 00DF`), k matches K (U+212A KELVIN SIGN)
 * and s matches ſ (U+017F LONG S); İ (U+0130) and ı (U+0131) have no simple folding (only full or Turkic,
 * status F and T) and match only themselves, while I and i match each other. RE2JS's `CASE_INSENSITIVE`
 * (for `regex: true`) matches the same sets: RE2 folds by Unicode's simple-fold orbits.
 *
 * @module
 */

/** U+212A KELVIN SIGN in UTF-8: its simple case folding is ASCII `k` (`212A; C; 006B`). */
export const KELVIN_BYTES: readonly number[] = [0xe2, 0x84, 0xaa];
/** U+017F LATIN SMALL LETTER LONG S in UTF-8: its simple case folding is ASCII `s` (`017F; C; 0073`). */
export const LONG_S_BYTES: readonly number[] = [0xc5, 0xbf];

/**
 * A regular expression that finds `text` literally, letters compared by simple case folding (flags
 * `iu`). Matching a literal is linear in the line's length.
 *
 * @param text The literal text; must be well-formed (no lone surrogate).
 * @returns A `RegExp` without the `g` flag (`test` keeps no state).
 * @example
 * ```ts
 * import { foldMatcher } from "./fold.ts";
 * console.assert(foldMatcher("ΑΣ").test("ασα"));
 * console.assert(foldMatcher("straße").test("STRAẞE"));
 * console.assert(foldMatcher("disk").test("DIS\u212A"));
 * console.assert(!foldMatcher("İ").test("i"));
 * ```
 */
export function foldMatcher(text: string): RegExp {
  return new RegExp(RegExp.escape(text), "iu");
}

/**
 * Which non-ASCII characters fold to one of an ASCII needle's letters: K (U+212A) when it holds `k` or
 * `K`, ſ (U+017F) when it holds `s` or `S`. They are the only two characters outside ASCII whose simple
 * case folding is an ASCII letter (checked over every code point in `fold_test.ts`).
 *
 * @param needle The needle's UTF-8 bytes.
 * @returns Whether a line may match through K, and through ſ.
 */
export function foldPartners(needle: Uint8Array): { kelvin: boolean; longS: boolean } {
  let kelvin = false;
  let longS = false;
  for (const b of needle) {
    if (b === 0x6b || b === 0x4b) kelvin = true;
    else if (b === 0x73 || b === 0x53) longS = true;
  }
  return { kelvin, longS };
}

/**
 * The most bytes a case-insensitive match of an ASCII needle can take in a line: each `k` may be
 * K (3 bytes), each `s` ſ (2 bytes). It is the needle's length when case matters.
 *
 * @param needle The needle's UTF-8 bytes.
 * @param ignoreCase Whether case is ignored.
 * @returns The span in bytes (≥ `needle.length`).
 */
export function matchSpan(needle: Uint8Array, ignoreCase: boolean): number {
  if (!ignoreCase) return needle.length;
  let span = needle.length;
  for (const b of needle) {
    if (b === 0x6b || b === 0x4b) span += KELVIN_BYTES.length - 1;
    else if (b === 0x73 || b === 0x53) span += LONG_S_BYTES.length - 1;
  }
  return span;
}
