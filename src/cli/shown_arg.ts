/**
 * Text from the command line or a trace, made safe to print on one line: control characters and line and
 * paragraph separators escaped as `\uXXXX` (so no argument or tool name can forge a line of output), then cut
 * on a character boundary (`core/text_cut.ts`) with `…` after a cut.
 *
 * @module
 */

import { cutText } from "../core/text_cut.ts";

/** Control characters, and line and paragraph separators, that would break a line of output. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * `text` with control characters escaped, cut to `max` UTF-16 code units (then `…` added).
 *
 * @param text Any string.
 * @param max The most code units kept before the `…` (characters, not bytes); default 80.
 * @returns One line of well-formed text, at most `max + 1` code units long.
 * @example
 * ```ts
 * import { shownArg } from "./shown_arg.ts";
 * console.assert(shownArg("a\nb") === "a\\u000ab");
 * console.assert(shownArg("x".repeat(100), 3) === "xxx…");
 * ```
 */
export function shownArg(text: string, max = 80): string {
  const t = text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const cut = cutText(t, max);
  return cut.length < t.length ? `${cut}…` : cut;
}
