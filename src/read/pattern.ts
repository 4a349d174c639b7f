/**
 * Regular expressions for `log_search`: compiling a pattern with RE2JS (RE2's syntax, linear-time
 * matching), and finding a literal that every match must contain, so that the byte scanner can find
 * candidate lines before the pattern runs (ripgrep's "required literal" prefilter, issue #11).
 *
 * @module
 */

import { RE2JS } from "re2js";
import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";

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
          "1000 are not supported; rewrite it without them, or search for a literal part of it"
        : `invalid regular expression: ${reason} (RE2's syntax, not JavaScript's: no backreferences or ` +
          "lookaround)",
    );
  }
}

/** A literal that every match of a pattern contains. */
export interface RequiredLiteral {
  /** The literal's UTF-8 bytes (no line feed). */
  bytes: Uint8Array;
  /** True when the pattern matches it in either case (then it is ASCII only). */
  ignoreCase: boolean;
}

/** Characters that mean something outside a class in RE2's syntax. */
const META = new Set([..."\\.+*?()|[]{}^$"]);

/**
 * Finds the longest run of literal characters that every match of `source` (RE2 syntax) must contain,
 * by a conservative walk of the pattern's top level: any alternation at the top level, or a flag
 * group `(?flags)` anywhere but at the start, gives none; groups, classes, escapes other than escaped
 * punctuation, `.`, anchors and counted or optional atoms end a run (an optional atom leaves it too).
 * With case ignored (the option, or a leading `(?i)`), only runs of ASCII characters are used, matched
 * by the scanner in either case (the scanner also lets through lines with K or ſ, which fold to `k` and
 * `s`, for the pattern to decide).
 *
 * The rule is: a line that does not contain the literal cannot match. `pattern_test.ts` checks it on
 * every line of the Loghub corpus for a set of patterns, against RE2JS itself.
 *
 * @param source The pattern (it compiles: call {@linkcode compilePattern} first).
 * @param ignoreCase The search's `ignore_case`.
 * @returns The literal, or null when none was found (every line is tested).
 * @example
 * ```ts
 * import { requiredLiteral } from "./pattern.ts";
 * const lit = requiredLiteral("zq-[0-9]+ timed", false)!;
 * console.assert(new TextDecoder().decode(lit.bytes) === " timed");
 * console.assert(requiredLiteral("a|b", false) === null);
 * ```
 */
export function requiredLiteral(source: string, ignoreCase: boolean): RequiredLiteral | null {
  let i = 0;
  let fold = ignoreCase;
  // A leading flag group: (?i), (?s), (?m), (?U) and combinations; a `-` (clearing flags) gives up.
  const lead = /^\(\?([imsU]+)\)/.exec(source);
  if (lead) {
    if (lead[1].includes("i")) fold = true;
    i = lead[0].length;
  }
  let best = "";
  let run: string[] = [];
  const endRun = () => {
    const s = run.join("");
    if (new TextEncoder().encode(s).length > new TextEncoder().encode(best).length) best = s;
    run = [];
  };
  /** Appends one literal character (a code point), or ends the run when it cannot be used. */
  const literal = (ch: string) => {
    if (ch === "\n" || (fold && ch.codePointAt(0)! > 0x7f)) endRun();
    else run.push(ch);
  };
  let lastWasLiteral = false;
  while (i < source.length) {
    const c = source[i];
    // Quantifiers apply to the atom before them.
    if (c === "*" || c === "?" || c === "+" || c === "{") {
      let min = c === "+" ? 1 : 0;
      let len = 1;
      if (c === "{") {
        const m = /^\{(\d*)(,(\d*))?\}/.exec(source.slice(i));
        if (!m || m[1] === "") {
          // RE2 reads a `{` that is not a repeat as a literal brace.
          literal("{");
          lastWasLiteral = true;
          i++;
          continue;
        }
        min = Number(m[1]);
        len = m[0].length;
      }
      if (lastWasLiteral) {
        const atom = run.pop()!;
        if (min >= 1) {
          run.push(atom);
        }
      }
      endRun();
      i += len;
      if (source[i] === "?") i++; // lazy
      lastWasLiteral = false;
      continue;
    }
    lastWasLiteral = false;
    if (c === "|") return null;
    if (c === "(") {
      if (source.startsWith("(?", i) && !/^\(\?(:|P?<|[imsU-]*:)/.test(source.slice(i))) {
        return null; // a flag change in mid-pattern
      }
      const end = groupEnd(source, i);
      if (end < 0) return null;
      endRun();
      i = end;
      continue;
    }
    if (c === "[") {
      const end = classEnd(source, i);
      if (end < 0) return null;
      endRun();
      i = end;
      continue;
    }
    if (c === "\\") {
      const n = source[i + 1];
      if (n === undefined) return null;
      if (n === "Q") {
        const stop = source.indexOf("\\E", i + 2);
        const quoted = source.slice(i + 2, stop < 0 ? source.length : stop);
        for (const ch of quoted) literal(ch);
        // A quantifier after \E applies to the last quoted character.
        lastWasLiteral = quoted.length > 0;
        i = stop < 0 ? source.length : stop + 2;
        continue;
      }
      if (/[\p{P}\p{S}]/u.test(n) && n.codePointAt(0)! < 0x80) {
        literal(n);
        lastWasLiteral = true;
        i += 2;
        continue;
      }
      endRun();
      if (n === "p" || n === "P") {
        i += source[i + 2] === "{" ? source.indexOf("}", i) + 1 - i : 3;
        if (i <= 0) return null;
      } else if (n === "x") {
        i += source[i + 2] === "{" ? source.indexOf("}", i) + 1 - i : 4;
        if (i <= 0) return null;
      } else if (/[0-7]/.test(n)) {
        let k = i + 1;
        while (k < i + 4 && /[0-7]/.test(source[k] ?? "")) k++;
        i = k;
      } else i += 2;
      continue;
    }
    if (META.has(c)) {
      endRun();
      i++;
      continue;
    }
    const ch = String.fromCodePoint(source.codePointAt(i)!);
    literal(ch);
    lastWasLiteral = run.length > 0;
    i += ch.length;
  }
  endRun();
  if (best === "") return null;
  return { bytes: new TextEncoder().encode(best), ignoreCase: fold };
}

/** The index after the `)` that closes the group opened at `open`, or -1. */
function groupEnd(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      if (source[i + 1] === "Q") {
        const stop = source.indexOf("\\E", i + 2);
        if (stop < 0) return -1;
        i = stop + 1;
      } else i++;
    } else if (c === "[") {
      const end = classEnd(source, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i + 1;
  }
  return -1;
}

/** The index after the `]` that closes the class opened at `open`, or -1. */
function classEnd(source: string, open: number): number {
  let i = open + 1;
  if (source[i] === "^") i++;
  if (source[i] === "]") i++; // a `]` first is a literal
  for (; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[" && source[i + 1] === ":") {
      const stop = source.indexOf(":]", i + 2);
      if (stop < 0) return -1;
      i = stop + 1;
    } else if (c === "]") return i + 1;
  }
  return -1;
}

/**
 * Characters that masking can put in a line (`guard/redact.ts`: `***`, a blank before it, a quote or a
 * backslash beside it) and U+FFFD (decoding puts it where bytes are invalid, one for several).
 */
const MASK_CHARS = new Set([0x20, 0x22, 0x27, 0x2a, 0x5c, 0xfffd]);

/** POSIX classes (`[[:alpha:]]`) that hold none of {@linkcode MASK_CHARS}. */
const SAFE_POSIX = new Set(["alnum", "alpha", "digit", "lower", "upper", "xdigit", "word"]);

/**
 * True when the pattern surely cannot match any of the characters masking or decoding put in a line
 * ({@linkcode MASK_CHARS}) and has no word-boundary assertion (`\b`, `\B`, which look at the character
 * beside a match). Then a line that does not match as read cannot match as shown (decoded, secrets
 * masked): every match in the shown text lies in a stretch the line holds as read. A regex search uses
 * this to test most lines once, on their bytes (issue #11). Conservative: any construct it does not
 * know (`.`, a negated class, `\p`, `\S`, `\Q…\E`, a range over those characters) makes it false.
 *
 * @param source The pattern (RE2 syntax), already compiled ({@linkcode compilePattern}).
 * @returns Whether the shortcut holds.
 * @example
 * ```ts
 * import { maskProof } from "./pattern.ts";
 * console.assert(maskProof("[0-9]{3}-[a-z]{4}"));
 * console.assert(!maskProof("password=.+")); // `.` matches `*`
 * console.assert(!maskProof("user \\w+")); // a blank
 * ```
 */
export function maskProof(source: string): boolean {
  const cps = [...source].map((c) => c.codePointAt(0)!);
  let i = 0;
  /** An escape after `\` (at i): the code points it may match, or null when unknown or too wide. */
  const escape = (inClass: boolean): number[] | "class" | null => {
    const c = String.fromCodePoint(cps[i] ?? 0);
    i++;
    if ("dw".includes(c)) return "class"; // ASCII digits, word characters
    if ("tnrfva".includes(c)) return [{ t: 9, n: 10, r: 13, f: 12, v: 11, a: 7 }[c]!];
    if (c === "A" || c === "z") return inClass ? null : []; // anchors: match no character
    if (c === "x") {
      let hex = "";
      if (cps[i] === 0x7b) { // \x{…}
        i++;
        while (i < cps.length && cps[i] !== 0x7d) hex += String.fromCodePoint(cps[i++]);
        i++;
      } else {
        hex = String.fromCodePoint(cps[i] ?? 0, cps[i + 1] ?? 0);
        i += 2;
      }
      const v = parseInt(hex, 16);
      return /^[0-9a-fA-F]+$/.test(hex) && v <= 0x10ffff ? [v] : null;
    }
    const v = cps[i - 1];
    // Escaped punctuation is itself; letters and digits not handled above are classes, assertions or
    // back-references: unknown.
    if (v !== undefined && v < 0x80 && !/[A-Za-z0-9]/.test(c)) return [v];
    return null;
  };
  const bad = (set: number[]) => set.some((v) => MASK_CHARS.has(v));
  while (i < cps.length) {
    const c = cps[i];
    if (c === 0x5c) { // `\`
      i++;
      const e = escape(false);
      if (e === null || (e !== "class" && bad(e))) return false;
      continue;
    }
    if (c === 0x2e) return false; // `.`
    if (c === 0x5b) { // a class
      i++;
      if (cps[i] === 0x5e) return false; // negated
      let first = true;
      let prev: number | null = null;
      while (i < cps.length && (cps[i] !== 0x5d || first)) {
        first = false;
        if (cps[i] === 0x5b && cps[i + 1] === 0x3a) { // [:name:]
          let j = i + 2;
          let name = "";
          while (j < cps.length && !(cps[j] === 0x3a && cps[j + 1] === 0x5d)) {
            name += String.fromCodePoint(cps[j++]);
          }
          if (j >= cps.length || !SAFE_POSIX.has(name)) return false;
          i = j + 2;
          prev = null;
          continue;
        }
        let v: number;
        if (cps[i] === 0x5c) {
          i++;
          const e = escape(true);
          if (e === null) return false;
          if (e === "class") {
            prev = null;
            continue;
          }
          if (e.length !== 1) return false;
          v = e[0];
        } else if (cps[i] === 0x2d && prev !== null && cps[i + 1] !== 0x5d) { // a range prev-next
          i++;
          let hi: number;
          if (cps[i] === 0x5c) {
            i++;
            const e = escape(true);
            if (e === null || e === "class" || e.length !== 1) return false;
            hi = e[0];
          } else hi = cps[i++];
          for (const m of MASK_CHARS) if (m >= prev && m <= hi) return false;
          prev = null;
          continue;
        } else v = cps[i++];
        if (MASK_CHARS.has(v)) return false;
        prev = v;
      }
      if (cps[i] !== 0x5d) return false;
      i++;
      continue;
    }
    if (c === 0x28 && cps[i + 1] === 0x3f) { // (?flags) (?: (?P<name>
      i += 2;
      if (cps[i] === 0x50 && cps[i + 1] === 0x3c) {
        while (i < cps.length && cps[i] !== 0x3e) i++;
        i++;
        continue;
      }
      while (i < cps.length && /[imsU-]/.test(String.fromCodePoint(cps[i]))) i++;
      if (cps[i] === 0x3a || cps[i] === 0x29) i++;
      else return false;
      continue;
    }
    if (c === 0x7b) { // {n}, {n,}, {n,m}: a repeat, not text
      const m = /^\{\d+(?:,\d*)?\}/.exec(String.fromCodePoint(...cps.slice(i, i + 24)));
      if (m) {
        i += m[0].length;
        continue;
      }
    }
    if (MASK_CHARS.has(c) && c !== 0x2a) return false; // a blank, a quote, U+FFFD as text
    i++; // `*` here is a repeat; `(`, `)`, `|`, `^`, `$`, `?`, `+` and other text are fine
  }
  return true;
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
