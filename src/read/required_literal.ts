/**
 * The required literal of a regular expression (issue #11): a run of literal characters that every match
 * must contain, so that the byte scanner can find candidate lines before the pattern runs (ripgrep's
 * "required literal" prefilter). `pattern.ts` re-exports it beside `compilePattern`.
 *
 * @module
 */

/** A literal that every match of a pattern contains. */
export interface RequiredLiteral {
  /** The literal's UTF-8 bytes (no line feed). */
  bytes: Uint8Array;
  /** True when the pattern matches it in either case (then it is ASCII only). */
  ignoreCase: boolean;
  /**
   * True when every match starts with it: the pattern begins with the run (no flag group but a leading
   * one, no anchor, class or group before it), so a match starts at one of its occurrences.
   */
  prefix: boolean;
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
 * @param source The pattern (it compiles: call `compilePattern` of `pattern.ts` first).
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
  return new LiteralWalk(source, ignoreCase).walk();
}

/** One walk of a pattern's top level for {@linkcode requiredLiteral}: the runs of literals seen so far. */
class LiteralWalk {
  readonly #source: string;
  /** Where the walk is in the pattern (UTF-16 code units). */
  #i = 0;
  /** Case ignored (the option, or a leading `(?i)`): only ASCII literals are used. */
  readonly #fold: boolean;
  /** The longest run (in UTF-8 bytes) ended so far. */
  #best = "";
  /** The run being read, one code point an entry. */
  #run: string[] = [];
  /** The last atom read was a literal of the run (a quantifier after it applies to it). */
  #lastWasLiteral = false;
  /** Where the pattern's atoms start (after a leading flag group). */
  #start = 0;
  /** The run being read began at {@linkcode #start}, and no run ended before it. */
  #runAtStart = false;
  /** The first run, when it began at {@linkcode #start} (every match starts with it); null else. */
  #prefix: string | null = null;
  /** A run has ended (after it, no run is a prefix). */
  #ended = false;

  constructor(source: string, ignoreCase: boolean) {
    this.#source = source;
    let fold = ignoreCase;
    // A leading flag group: (?i), (?s), (?m), (?U) and combinations; a `-` (clearing flags) gives up.
    const lead = /^\(\?([imsU]+)\)/.exec(source);
    if (lead) {
      if (lead[1].includes("i")) fold = true;
      this.#i = lead[0].length;
    }
    this.#start = this.#i;
    this.#fold = fold;
  }

  /** The literal, or null: none, or the pattern holds what gives none (a top-level `|`, a flag change). */
  walk(): RequiredLiteral | null {
    const source = this.#source;
    while (this.#i < source.length) {
      const c = source[this.#i];
      // Quantifiers apply to the atom before them.
      if (c === "*" || c === "?" || c === "+" || c === "{") {
        this.#quantifier(c);
        continue;
      }
      this.#lastWasLiteral = false;
      if (c === "|") return null;
      if (c === "(" || c === "[") {
        if (!this.#skipGroup(c)) return null;
      } else if (c === "\\") {
        if (!this.#escape()) return null;
      } else if (META.has(c)) {
        this.#endRun();
        this.#i++;
      } else {
        const ch = String.fromCodePoint(source.codePointAt(this.#i)!);
        this.#literal(ch);
        this.#lastWasLiteral = this.#run.length > 0;
        this.#i += ch.length;
      }
    }
    this.#endRun();
    if (this.#best === "") return null;
    return {
      bytes: new TextEncoder().encode(this.#best),
      ignoreCase: this.#fold,
      prefix: this.#prefix !== null && this.#best === this.#prefix,
    };
  }

  /** Ends the run, keeping it when it is longer (in UTF-8 bytes) than the best so far. */
  #endRun(): void {
    const s = this.#run.join("");
    if (new TextEncoder().encode(s).length > new TextEncoder().encode(this.#best).length) this.#best = s;
    if (this.#runAtStart && s !== "") this.#prefix = s;
    this.#runAtStart = false;
    this.#ended = true;
    this.#run = [];
  }

  /** Appends one literal character (a code point), or ends the run when it cannot be used. */
  #literal(ch: string): void {
    if (ch === "\n" || (this.#fold && ch.codePointAt(0)! > 0x7f)) this.#endRun();
    else {
      if (this.#run.length === 0 && !this.#ended && this.#i === this.#start) this.#runAtStart = true;
      this.#run.push(ch);
    }
  }

  /**
   * A quantifier (`*`, `?`, `+`, `{n,m}`) at the walk's place: the atom before it leaves the run unless
   * it is repeated at least once, and the run ends there. A `{` that is no repeat is a literal brace.
   */
  #quantifier(c: string): void {
    const source = this.#source;
    let min = c === "+" ? 1 : 0;
    let len = 1;
    if (c === "{") {
      const m = /^\{(\d*)(,(\d*))?\}/.exec(source.slice(this.#i));
      if (!m || m[1] === "") {
        // RE2 reads a `{` that is not a repeat as a literal brace.
        this.#literal("{");
        this.#lastWasLiteral = true;
        this.#i++;
        return;
      }
      min = Number(m[1]);
      len = m[0].length;
    }
    if (this.#lastWasLiteral) {
      const atom = this.#run.pop()!;
      if (min >= 1) this.#run.push(atom);
    }
    this.#endRun();
    this.#i += len;
    if (source[this.#i] === "?") this.#i++; // lazy
    this.#lastWasLiteral = false;
  }

  /**
   * A group (`(`) or a class (`[`) at the walk's place: it ends the run and is skipped whole. False when
   * the pattern gives no literal: a flag change in mid-pattern, or no closing bracket.
   */
  #skipGroup(c: string): boolean {
    const source = this.#source, i = this.#i;
    if (c === "(" && source.startsWith("(?", i) && !/^\(\?(:|P?<|[imsU-]*:)/.test(source.slice(i))) {
      return false; // a flag change in mid-pattern
    }
    const end = c === "(" ? groupEnd(source, i) : classEnd(source, i);
    if (end < 0) return false;
    this.#endRun();
    this.#i = end;
    return true;
  }

  /**
   * An escape at the walk's place: `\Q…\E` and escaped ASCII punctuation are literals; any other escape
   * (a class, an assertion, a code point by number) ends the run and is skipped. False when the pattern
   * ends in `\` or an escape's braces are not closed.
   */
  #escape(): boolean {
    const source = this.#source, i = this.#i;
    const n = source[i + 1];
    if (n === undefined) return false;
    if (n === "Q") {
      const stop = source.indexOf("\\E", i + 2);
      const quoted = source.slice(i + 2, stop < 0 ? source.length : stop);
      for (const ch of quoted) this.#literal(ch);
      // A quantifier after \E applies to the last quoted character.
      this.#lastWasLiteral = quoted.length > 0;
      this.#i = stop < 0 ? source.length : stop + 2;
      return true;
    }
    if (/[\p{P}\p{S}]/u.test(n) && n.codePointAt(0)! < 0x80) {
      this.#literal(n);
      this.#lastWasLiteral = true;
      this.#i += 2;
      return true;
    }
    this.#endRun();
    if (n === "p" || n === "P") {
      this.#i += source[i + 2] === "{" ? source.indexOf("}", i) + 1 - i : 3;
      if (this.#i <= 0) return false;
    } else if (n === "x") {
      this.#i += source[i + 2] === "{" ? source.indexOf("}", i) + 1 - i : 4;
      if (this.#i <= 0) return false;
    } else if (/[0-7]/.test(n)) {
      let k = i + 1;
      while (k < i + 4 && /[0-7]/.test(source[k] ?? "")) k++;
      this.#i = k;
    } else this.#i += 2;
    return true;
  }
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
