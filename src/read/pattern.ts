/**
 * Regular expressions for `log_search`: compiling a pattern with RE2JS (RE2's syntax, linear-time
 * matching), and finding a literal that every match must contain, so that the byte scanner can find
 * candidate lines before the pattern runs (ripgrep's "required literal" prefilter, issue #11). The walks
 * of a pattern live beside it and are re-exported here: `required_literal.ts` (that literal) and
 * `mask_proof.ts` (whether a line can be tested as read); {@linkcode maskSafe} is here.
 *
 * @module
 */

import { RE2JS } from "re2js";
import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import type { RequiredLiteral } from "./required_literal.ts";

export { type RequiredLiteral, requiredLiteral } from "./required_literal.ts";
export { maskProof } from "./mask_proof.ts";

/**
 * Compiles a pattern with RE2JS, a port of RE2: matching takes time linear in the line's length, so
 * no pattern can hang a search by backtracking. The syntax is RE2's, not JavaScript's: `(?P<name>…)`,
 * `[[:digit:]]`, `\pL` and `(?i)` work; backreferences and lookaround do not, and repeat counts go up
 * to 1000.
 *
 * @param source The pattern as the client wrote it.
 * @param ignoreCase Compile with `CASE_INSENSITIVE` (RE2's simple-fold orbits: the same sets as
 *   `foldMatcher` in `fold.ts`).
 * @returns The compiled pattern.
 * @throws {ToolError} `invalid_pattern`, in two wordings: `invalid regular expression: <RE2's reason>`
 *   when JavaScript (flag `u`) cannot parse it either (a syntax error), else `the regular expression …
 *   uses what RE2 cannot run in linear time …` (backreferences, lookaround, a repeat count over 1000:
 *   valid JavaScript, refused here). The pattern is quoted as written, control characters escaped
 *   ({@linkcode printable}).
 * @example
 * ```ts
 * import { compilePattern } from "./pattern.ts";
 * console.assert(compilePattern("id=[0-9]+", false).test("user id=42"));
 * ```
 */
export function compilePattern(source: string, ignoreCase: boolean): RE2JS {
  try {
    return RE2JS.compile(source, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    const reason = printable(
      String(e instanceof Error ? e.message : e).replace(/^error parsing regexp: /, ""),
    );
    let javascript = true;
    try {
      new RegExp(source, "u");
    } catch {
      javascript = false;
    }
    throw new ToolError(
      "invalid_pattern",
      javascript
        ? `the regular expression \`${printable(source)}\` uses what RE2 cannot run in linear time or ` +
          `beyond its limits (${reason}): backreferences, lookahead and lookbehind, and repeat counts over ` +
          "1000 (repeats inside repeats count as their product: `(a{100}){20}` is 2000) are not supported; " +
          "rewrite it without them, or search for a literal part of it"
        : `invalid regular expression: ${reason} (RE2's syntax, not JavaScript's: no backreferences or ` +
          "lookaround)",
    );
  }
}

/**
 * The required literal, when it may serve as the prefilter of a pattern tested on masked text: a line
 * whose masked text holds it must hold it as read. Masking (`guard/redact.ts`) keeps the line's own
 * characters and inserts only `***`, a blank right before it and a quote (or `\"`) right after it, and
 * decoding inserts U+FFFD; so a literal with no `*` and no U+FFFD, not ending in a blank and not
 * starting with a quote or a backslash, is in the masked text only where it is in the line. Else null:
 * every line is tested.
 *
 * @param literal From {@linkcode requiredLiteral}.
 * @param redact Whether secrets are masked (without masking, any literal serves).
 * @returns The literal, or null.
 */
export function maskSafe(literal: RequiredLiteral | null, redact: boolean): RequiredLiteral | null {
  if (!literal || !redact) return literal;
  const b = literal.bytes;
  const n = b.length;
  if (n === 0 || b[n - 1] === 0x20 || b[0] === 0x22 || b[0] === 0x27 || b[0] === 0x5c) return null;
  for (let i = 0; i < n; i++) {
    if (b[i] === 0x2a) return null;
    if (b[i] === 0xef && b[i + 1] === 0xbf && b[i + 2] === 0xbd) return null;
  }
  return literal;
}
