/**
 * Whether a compiled pattern can be tested on a line as read rather than as shown (issue #11), decided on
 * its program rather than its text: the claim of `mask_proof.ts` `maskProof` (the pattern cannot match
 * any character masking or decoding puts in a line, and has no `\b` or `\B`), checked on every rune
 * instruction with re2js's own `matchRune`, so `\pL`, `\p{Greek}` or `[^\s*"'\\]` are judged by what they
 * match, not refused for their syntax. The same program read as `byte_dfa_compile.ts` reads it; an
 * unexpected shape gives false.
 *
 * @module
 */

import type { RE2JS } from "re2js";

/**
 * The characters masking (`guard/redact.ts`: `***`, a blank before it, a quote or a backslash beside it)
 * and decoding (U+FFFD) put in a line: `mask_proof.ts`'s, as code points.
 */
export const MASK_CHARS: readonly number[] = [0x20, 0x22, 0x27, 0x2a, 0x5c, 0xfffd];
/** re2js's instruction codes (`Inst`) and empty-width bits for `\b` and `\B`. */
const ALT = 1, ALT_MATCH = 2, CAPTURE = 3, EMPTY_WIDTH = 4, FAIL = 5, MATCH = 6, NOP = 7;
const RUNE = 8, RUNE1 = 9;
const WORD_BOUNDARIES = 16 | 32;

/**
 * True when no rune instruction of the pattern's program matches a character of {@linkcode MASK_CHARS}
 * and none tests a word boundary: then a line that does not match as read cannot match as shown (see
 * `maskProof`).
 *
 * @param re A pattern compiled by `pattern.ts` `compilePattern`.
 * @returns Whether the shortcut holds; false when the program cannot be read.
 */
export function programMaskProof(re: RE2JS): boolean {
  try {
    // deno-lint-ignore no-explicit-any
    const insts = (re as any).re2Input?.prog?.inst;
    if (!Array.isArray(insts)) return false;
    for (const inst of insts) {
      const op = inst.op;
      if (op === ALT || op === ALT_MATCH || op === CAPTURE || op === FAIL || op === MATCH || op === NOP) {
        continue;
      }
      if (op === EMPTY_WIDTH) {
        if ((inst.arg & WORD_BOUNDARIES) !== 0) return false;
        continue;
      }
      if (op === RUNE || op === RUNE1) {
        if (typeof inst.matchRune !== "function") return false;
        for (const c of MASK_CHARS) if (inst.matchRune(c)) return false;
        continue;
      }
      return false; // any character (RUNE_ANY, RUNE_ANY_NOT_NL), lookbehind, or unknown
    }
    return true;
  } catch {
    return false;
  }
}
