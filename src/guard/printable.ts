/**
 * Text as it may appear in the answer a model reads (issue #8, item 8; `../shared/cases/28-…`): one
 * log line, or one file name, takes exactly one line of that text.
 *
 * Every character a reader may take for a line break — LF, CR, VT, FF, NEL (U+0085), LINE SEPARATOR
 * (U+2028), PARAGRAPH SEPARATOR (U+2029): the mandatory breaks of Unicode's line-breaking algorithm,
 * UAX #14 classes BK, CR, LF and NL — and every other C0 and C1 control character and DEL is shown
 * escaped, so a value a service logged verbatim cannot forge an entry of its own (log forging, OWASP;
 * `https://github.com/augustd/owasp-security-logging/issues/59`). ESC is escaped too, so an ANSI colour
 * sequence shows as `\x1b[31m` and cannot move a terminal's cursor or hide text.
 *
 * Tab is escaped as well (`\t`): `log_files` separates its columns with tabs, and one rule for names and
 * lines is simpler to trust than two. A backslash is left as it is, so text that already held `\n` (two
 * characters) looks like an escaped line feed: the structured `text` field keeps every line exactly as
 * read, and is the one to use when the difference matters.
 *
 * @module
 */

// deno-lint-ignore no-control-regex
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/;

/** How each unprintable UTF-16 unit is shown: `\n`, `\r`, `\t`, `\xNN` (other C0 and DEL), `\uNNNN`. */
const ESCAPES: string[] = [];
for (let c = 0; c <= 0x2029; c++) {
  if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) {
    ESCAPES[c] = c === 0x0a
      ? "\\n"
      : c === 0x0d
      ? "\\r"
      : c === 0x09
      ? "\\t"
      : c < 0x80
      ? `\\x${c.toString(16).padStart(2, "0")}`
      : `\\u${c.toString(16).padStart(4, "0")}`;
  }
}

/**
 * A text (a log line, a file name) with its control characters and line separators shown escaped, so it
 * takes exactly one line of the model-facing answer. One pass over the text (after a regular-expression
 * check that finds most texts printable): time linear in its length (4 MiB of U+2028, which grows six-fold,
 * took 0.4–0.8 s on the project's 2-core machine; a returned line is cut to `LOGPEEK_MAX_LINE` first).
 * Printable text comes back unchanged (the same string), and escaping twice changes nothing more. A lone
 * surrogate (a UTF-16 unit without its pair, which a client's JSON may send as `"\ud800"`) is shown
 * escaped as `\udXXX`, so the result is always well-formed Unicode (issue #10, item 5); a pair (an emoji,
 * any character beyond U+FFFF) stays as it is.
 *
 * @param text Any string.
 * @returns The text with C0 controls, DEL, C1 controls (U+0080–U+009F), U+2028, U+2029 and lone
 *   surrogates escaped: `\n`, `\r`, `\t`, `\xNN` below U+0080, `\uNNNN` from U+0080.
 * @example
 * ```ts
 * import { printable } from "./printable.ts";
 * console.assert(printable("a\nb") === "a\\nb");
 * console.assert(printable("x\ud800") === "x\\ud800" && printable("😀") === "😀");
 * ```
 */
export function printable(text: string): string {
  if (!UNPRINTABLE.test(text) && text.isWellFormed()) return text;
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) {
      out += text.slice(from, i) + ESCAPES[c];
      from = i + 1;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1); // NaN past the end
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++; // a pair: one character, kept
        continue;
      }
      out += text.slice(from, i) + `\\u${c.toString(16)}`;
      from = i + 1;
    }
  }
  return out + text.slice(from);
}
