/**
 * Whether a regular expression can be tested on a line as read rather than as shown (issue #11): a
 * pattern that cannot match what masking or decoding put in a line. `pattern.ts` re-exports it beside
 * `compilePattern`.
 *
 * @module
 */

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
 * @param source The pattern (RE2 syntax), already compiled (`compilePattern` of `pattern.ts`).
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
  return new ProofWalk(source).walk();
}

/** One walk of a pattern for {@linkcode maskProof}, code point by code point. */
class ProofWalk {
  /** The pattern's code points. */
  readonly #cps: number[];
  /** Where the walk is (an index into `#cps`). */
  #i = 0;

  constructor(source: string) {
    this.#cps = [...source].map((c) => c.codePointAt(0)!);
  }

  /** Whether the whole pattern is mask-proof. */
  walk(): boolean {
    const cps = this.#cps;
    while (this.#i < cps.length) {
      const c = cps[this.#i];
      if (c === 0x5c) { // `\`
        this.#i++;
        const e = this.#escape(false);
        if (e === null || (e !== "class" && e.some((v) => MASK_CHARS.has(v)))) return false;
        continue;
      }
      if (c === 0x2e) return false; // `.`
      if (c === 0x5b) { // a class
        if (!this.#class()) return false;
        continue;
      }
      if (c === 0x28 && cps[this.#i + 1] === 0x3f) { // (?flags) (?: (?P<name>
        if (!this.#groupFlags()) return false;
        continue;
      }
      if (c === 0x7b) { // {n}, {n,}, {n,m}: a repeat, not text
        const m = /^\{\d+(?:,\d*)?\}/.exec(String.fromCodePoint(...cps.slice(this.#i, this.#i + 24)));
        if (m) {
          this.#i += m[0].length;
          continue;
        }
      }
      if (MASK_CHARS.has(c) && c !== 0x2a) return false; // a blank, a quote, U+FFFD as text
      this.#i++; // `*` here is a repeat; `(`, `)`, `|`, `^`, `$`, `?`, `+` and other text are fine
    }
    return true;
  }

  /** An escape after `\` (at the walk's place): the code points it may match, or null when unknown or too wide. */
  #escape(inClass: boolean): number[] | "class" | null {
    const cps = this.#cps;
    const c = String.fromCodePoint(cps[this.#i] ?? 0);
    this.#i++;
    if ("dw".includes(c)) return "class"; // ASCII digits, word characters
    if ("tnrfva".includes(c)) return [{ t: 9, n: 10, r: 13, f: 12, v: 11, a: 7 }[c]!];
    if (c === "A" || c === "z") return inClass ? null : []; // anchors: match no character
    if (c === "x") {
      let hex = "";
      if (cps[this.#i] === 0x7b) { // \x{…}
        this.#i++;
        while (this.#i < cps.length && cps[this.#i] !== 0x7d) hex += String.fromCodePoint(cps[this.#i++]);
        this.#i++;
      } else {
        hex = String.fromCodePoint(cps[this.#i] ?? 0, cps[this.#i + 1] ?? 0);
        this.#i += 2;
      }
      const v = parseInt(hex, 16);
      return /^[0-9a-fA-F]+$/.test(hex) && v <= 0x10ffff ? [v] : null;
    }
    const v = cps[this.#i - 1];
    // Escaped punctuation is itself; letters and digits not handled above are classes, assertions or
    // back-references: unknown.
    if (v !== undefined && v < 0x80 && !/[A-Za-z0-9]/.test(c)) return [v];
    return null;
  }

  /** A class `[…]` at the walk's place, walked past: false when it may hold a masking character. */
  #class(): boolean {
    const cps = this.#cps;
    this.#i++;
    if (cps[this.#i] === 0x5e) return false; // negated
    let first = true;
    let prev: number | null = null;
    while (this.#i < cps.length && (cps[this.#i] !== 0x5d || first)) {
      first = false;
      if (cps[this.#i] === 0x5b && cps[this.#i + 1] === 0x3a) { // [:name:]
        if (!this.#posix()) return false;
        prev = null;
        continue;
      }
      let v: number;
      if (cps[this.#i] === 0x5c) {
        this.#i++;
        const e = this.#escape(true);
        if (e === null) return false;
        if (e === "class") {
          prev = null;
          continue;
        }
        if (e.length !== 1) return false;
        v = e[0];
      } else if (cps[this.#i] === 0x2d && prev !== null && cps[this.#i + 1] !== 0x5d) { // a range prev-next
        if (!this.#rangeEnd(prev)) return false;
        prev = null;
        continue;
      } else v = cps[this.#i++];
      if (MASK_CHARS.has(v)) return false;
      prev = v;
    }
    if (cps[this.#i] !== 0x5d) return false;
    this.#i++;
    return true;
  }

  /** A POSIX class `[:name:]` inside a class, walked past: false unless it is one of {@linkcode SAFE_POSIX}. */
  #posix(): boolean {
    const cps = this.#cps;
    let j = this.#i + 2;
    let name = "";
    while (j < cps.length && !(cps[j] === 0x3a && cps[j + 1] === 0x5d)) {
      name += String.fromCodePoint(cps[j++]);
    }
    if (j >= cps.length || !SAFE_POSIX.has(name)) return false;
    this.#i = j + 2;
    return true;
  }

  /** The `-hi` of a range from `lo` inside a class (at its `-`), walked past: false when it spans a masking character. */
  #rangeEnd(lo: number): boolean {
    const cps = this.#cps;
    this.#i++;
    let hi: number;
    if (cps[this.#i] === 0x5c) {
      this.#i++;
      const e = this.#escape(true);
      if (e === null || e === "class" || e.length !== 1) return false;
      hi = e[0];
    } else hi = cps[this.#i++];
    for (const m of MASK_CHARS) if (m >= lo && m <= hi) return false;
    return true;
  }

  /** A group's `(?` at the walk's place: a name or flags, walked past; false for any other `(?`. */
  #groupFlags(): boolean {
    const cps = this.#cps;
    this.#i += 2;
    if (cps[this.#i] === 0x50 && cps[this.#i + 1] === 0x3c) {
      while (this.#i < cps.length && cps[this.#i] !== 0x3e) this.#i++;
      this.#i++;
      return true;
    }
    while (this.#i < cps.length && /[imsU-]/.test(String.fromCodePoint(cps[this.#i]))) this.#i++;
    if (cps[this.#i] === 0x3a || cps[this.#i] === 0x29) this.#i++;
    else return false;
    return true;
  }
}
