/**
 * A log line's tokens for template mining (`template_miner.ts`): runs of non-whitespace, masked as every
 * log parser masks them ({@linkcode maskToken}; Zhu et al., "Tools and Benchmarks for Automated Log
 * Parsing", ICSE-SEIP 2019), split in reused buffers ({@linkcode Scan}) with a cache of masks by a
 * token's shape; and whether two tokens name different things ({@linkcode distinct}).
 *
 * @module
 */

export const WILD = "<*>";

/**
 * The masking rules, tried left to right at each place of a token; each match becomes `<*>`.
 * UUID; IPv4 with an optional port; IPv6 (two or more colons between hex groups, at least one hex
 * letter or `::`); block ids (`blk_-123`); `0x` hex; hex ids of 8 or more hex digits holding a digit;
 * paths holding a digit; numbers (signed, decimals, and the digit groups of times and dates).
 */
const MASK = new RegExp(
  [
    String.raw`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`,
    String.raw`(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?![\w.])`,
    String
      .raw`(?<![\w:])(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{0,4}(?![\w:])(?=[^\w]|$)(?<=[a-fA-F:][0-9a-fA-F]{0,4})`,
    String.raw`blk_-?\d+`,
    String.raw`0[xX][0-9a-fA-F]+`,
    String.raw`(?<![\w])(?=[a-fA-F]*\d)[0-9a-fA-F]{8,}(?!\w)`,
    String.raw`(?:/[\w.\-]*)*/[\w.\-]*\d[\w.\-]*(?:/[\w.\-]*)*`,
    String.raw`[-+]?\d+(?:[.,]\d+)*`,
  ].join("|"),
  "g",
);

/** Day and month names, masked among a line's first tokens (the header's timestamp). */
const DATE_WORD = /^\[?(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\]?,?$/;

/** The day and month names as `c0 << 16 | c1 << 8 | c2` of their code units. */
const DATE_CODES = new Set(
  "Mon Tue Wed Thu Fri Sat Sun Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ").map((w) =>
    w.charCodeAt(0) << 16 | w.charCodeAt(1) << 8 | w.charCodeAt(2)
  ),
);

/** {@linkcode DATE_WORD}`.test(t)`, without the regex for the words that cannot match. */
function isDateWord(t: string): boolean {
  const n = t.length;
  if (n < 3 || n > 6) return false;
  const o = t.charCodeAt(0) === 91 ? 1 : 0;
  return n - o >= 3 &&
    DATE_CODES.has(t.charCodeAt(o) << 16 | t.charCodeAt(o + 1) << 8 | t.charCodeAt(o + 2)) &&
    DATE_WORD.test(t);
}

/** How many first tokens may hold the header's timestamp words. */
const HEADER_TOKENS = 4;

/**
 * A token masked: a token holding a digit and no letter (a number, time, date, address: `18:01:47,978`,
 * `/10.10.34.11:3888`) becomes `<*>` whole; otherwise each part matching a masking rule is replaced by
 * `<*>`, runs of `<*>` joined by nothing else folded into one (`sshd[24200]:` → `sshd[<*>]:`).
 *
 * @param token One token (no whitespace).
 * @param index Its place in the line (0-based); the first few may be a header's day or month name.
 * @returns The masked token.
 */
export function maskToken(token: string, index: number): string {
  if (index < HEADER_TOKENS && DATE_WORD.test(token)) return WILD;
  if (!/\d/.test(token)) return token;
  if (!/[A-Za-z\u0080-\uffff]/.test(token)) {
    // A number's punctuation stays (`42,` → `<*>,`, `+0000]` → `<*>]`): the template reads as the line.
    const m = /^([(\["'{]*)(.*?)([)\]"'},;:.]*)$/.exec(token)!;
    return m[2] === "" ? WILD : `${m[1]}${WILD}${m[3]}`;
  }
  return token.replace(MASK, WILD).replaceAll("<*><*>", WILD);
}

/** The slots of a miner's mask cache ({@linkcode Scan}), a power of two; a new shape takes its slot. */
export const MASK_CACHE_SLOTS = 4096;

/** The longest token (UTF-16 code units) the mask cache holds; longer ones are masked each time. */
export const MASK_CACHE_TOKEN = 128;

/** Whether a code unit above 127 is whitespace for `\s` (ECMAScript's WhiteSpace and LineTerminator). */
function wideSpace(c: number): boolean {
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * A line split into tokens (runs of non-whitespace, as `\S+`) and masked, in reused buffers: the
 * miner's hot path allocates only the strings it keeps.
 *
 * Masking a token that holds a digit is cached by the token's shape (each digit as `1`, but a `0` before
 * `x`/`X` kept): no masking rule tells two digits apart except `0x`, so tokens of one shape (the times of
 * one format, say) mask alike. The cache holds at most {@linkcode MASK_CACHE_SLOTS} shapes of at most
 * {@linkcode MASK_CACHE_TOKEN} code units, two-way set-associative by a key of the shape's length and
 * ends ({@linkcode shapeKey}); a hit is a whole shape compared.
 */
export class Scan {
  /** Token count. */
  n = 0;
  /** Masked text per token (the first n). */
  m: string[] = [];
  /** Whitespace before each token and after the last (the first `n + 1`). */
  s: string[] = [];
  /** Each token's start and end offsets in the line. */
  a = new Int32Array(64);
  b = new Int32Array(64);
  /** 1 when a day or month name is among the tokens past the first few (see {@linkcode dateWords}). */
  dates = 0;
  /** 1 where the token holds an ASCII digit. */
  d = new Uint8Array(64);
  /** The mask cache, direct-mapped by the shape's hash: each slot's shape and its masked text. */
  readonly #shapes: (string | undefined)[] = new Array(MASK_CACHE_SLOTS);
  readonly #masks: string[] = new Array(MASK_CACHE_SLOTS);

  /** Splits and masks a line (maskToken's rules, day and month names among the first tokens too). */
  scan(line: string): void {
    const L = line.length, m = this.m, s = this.s;
    let i = 0, n = 0;
    this.dates = 0;
    for (;;) {
      const s0 = i;
      while (i < L) {
        const c = line.charCodeAt(i);
        if (c === 32 || (c <= 13 && c >= 9) || (c > 127 && wideSpace(c))) i++;
        else break;
      }
      s[n] = i === s0 ? "" : i - s0 === 1 && line.charCodeAt(s0) === 32 ? " " : line.slice(s0, i);
      if (i >= L) break;
      if (n === this.a.length) this.#grow();
      const t0 = i;
      let dig = 0, letter = 0;
      while (i < L) {
        const c = line.charCodeAt(i);
        if (c > 32) {
          if (c > 127) {
            if (wideSpace(c)) break;
            letter = 1;
          } else if (c <= 57 && c >= 48) dig = 1;
          else if ((c | 32) >= 97 && (c | 32) <= 122) letter = 1;
          i++;
        } else if (c === 32 || (c <= 13 && c >= 9)) break;
        else i++;
      }
      this.a[n] = t0;
      this.b[n] = i;
      this.d[n] = dig;
      // Digits without letters (numbers, times, dates, addresses) are masked whole.
      if (dig === 1) m[n] = letter === 0 ? WILD : this.mask(line, t0, i);
      else {
        const t = line.slice(t0, i);
        if (isDateWord(t)) {
          if (n < HEADER_TOKENS) m[n] = WILD;
          else m[n] = t, this.dates = 1;
        } else m[n] = t;
      }
      n++;
    }
    // (The buffers keep their length: entries past n + 1 are stale; no reallocation line after line.)
    this.n = n;
  }

  /**
   * {@linkcode maskToken} of `line.slice(a, b)`, which holds a digit (so no day or month name), through
   * the cache; `hash` is the 32-bit FNV-1a of its shape.
   */
  mask(line: string, a: number, b: number): string {
    const cache = b - a <= MASK_CACHE_TOKEN;
    let slot = 0;
    if (cache) {
      slot = shapeKey(line, a, b) & (MASK_CACHE_SLOTS - 2);
      const shapes = this.#shapes;
      let shape = shapes[slot];
      if (shape !== undefined && sameShape(line, a, b, shape)) return this.#masks[slot];
      shape = shapes[slot + 1];
      if (shape !== undefined && sameShape(line, a, b, shape)) return this.#masks[slot + 1];
    }
    const tok = line.slice(a, b);
    const masked = maskToken(tok, HEADER_TOKENS);
    if (cache) {
      // The newest shape first; the one it displaces goes second, the second is dropped.
      this.#shapes[slot + 1] = this.#shapes[slot];
      this.#masks[slot + 1] = this.#masks[slot];
      this.#shapes[slot] = tok.replace(SHAPE, "1");
      this.#masks[slot] = masked;
    }
    return masked;
  }

  /**
   * Joins tokens i..j (and the whitespace between) into token i: a bracketed header field, masked as its
   * tokens were (no masking rule spans whitespace).
   */
  join(i: number, j: number): void {
    const m = this.m, s = this.s;
    let masked = m[i], dig = this.d[i];
    for (let k = i + 1; k <= j; k++) masked += s[k] + m[k], dig |= this.d[k];
    const k = j - i;
    m.splice(i, k + 1, masked);
    s.splice(i + 1, k);
    this.a.copyWithin(i + 1, j + 1, this.n);
    this.b.copyWithin(i, j, this.n);
    this.d.copyWithin(i + 1, j + 1, this.n);
    this.d[i] = dig;
    this.n -= k;
  }

  #grow(): void {
    const a = new Int32Array(this.a.length * 2), b = new Int32Array(a.length), d = new Uint8Array(a.length);
    a.set(this.a), b.set(this.b), d.set(this.d);
    this.a = a, this.b = b, this.d = d;
  }
}

/** The digits a shape writes as `1`: all but a `0` before `x` or `X`. */
const SHAPE = /[1-9]|0(?![xX])/g;

/**
 * A cache key of the shape of `line.slice(a, b)` from its length and its first and last three code
 * units, digits as one (a key picks a cache slot; {@linkcode sameShape} decides).
 */
function shapeKey(line: string, a: number, b: number): number {
  let h = Math.imul(b - a, 0x9e3779b1);
  const e = b - a < 6 ? b : a + 3;
  for (let k = a; k < e; k++) {
    const c = line.charCodeAt(k);
    h = Math.imul(h ^ (c <= 57 && c >= 48 ? 49 : c), 0x01000193);
  }
  for (let k = b - a < 6 ? b : b - 3; k < b; k++) {
    const c = line.charCodeAt(k);
    h = Math.imul(h ^ (c <= 57 && c >= 48 ? 49 : c), 0x01000193);
  }
  return (h ^ (h >>> 15)) >>> 0;
}

/** Whether `line.slice(a, b)` has the shape `shape` (see {@linkcode Scan}). */
function sameShape(line: string, a: number, b: number, shape: string): boolean {
  if (shape.length !== b - a) return false;
  for (let k = a, j = 0; k < b; k++, j++) {
    const c = line.charCodeAt(k), h = shape.charCodeAt(j);
    if (c === h) {
      // A "0" of the line in the shape is a "0" before x: equal text on, equal shape.
      continue;
    }
    // A digit other than that "0": the shape has "1" there, and no "x" after it if the line has "0".
    if (
      h !== 49 || c < 48 || c > 57 || (c === 48 && j + 1 < b - a && (shape.charCodeAt(j + 1) | 32) === 120)
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Masks day and month names beside a masked token or another such name (a date inside a message:
 * `at Sun Jul 10 03:55:15 2005`), in place.
 */
export function dateWords(masked: string[], n: number): void {
  for (let i = 0; i < n; i++) {
    const t = masked[i];
    if (t === WILD || !isDateWord(t)) continue;
    let j = i;
    while (j + 1 < n && isDateWord(masked[j + 1])) j++;
    if ((i > 0 && masked[i - 1] === WILD) || (j + 1 < n && masked[j + 1] === WILD)) {
      for (let k = i; k <= j; k++) masked[k] = WILD;
    }
    i = j;
  }
}

/** An all-capitals word of two or more letters (and `_`): a constant's name, such as a state. */
const CAPS = /^[A-Z][A-Z_]+$/;

/**
 * Whether two unequal masked tokens name different things, so a line holding one never joins a cluster
 * holding the other, however similar the rest:
 * - `key=value` pairs with different keys (a key is a name, not data), or with the same key and values of
 *   different kinds: one holding a number (masked) and the other none (`tty=NODEVssh`, `tty=:0`); empty
 *   values are left out (a field left blank);
 * - two all-capitals words (constants' names: `Transitioned from NEW to SCHEDULED`).
 */
export function distinct(a: string, b: string): boolean {
  const ka = a.indexOf("=");
  if (ka > 0) {
    const kb = b.indexOf("=");
    if (kb > 0) {
      if (ka !== kb || !a.startsWith(b.slice(0, kb))) return true;
      const va = a.slice(ka + 1), vb = b.slice(kb + 1);
      return va !== "" && vb !== "" && va.includes(WILD) !== vb.includes(WILD);
    }
  }
  return isCaps(a) && isCaps(b);
}

/** {@linkcode CAPS}`.test(t)`, without the regex for the words that cannot match. */
function isCaps(t: string): boolean {
  const c0 = t.charCodeAt(0), c1 = t.charCodeAt(1);
  return c0 >= 65 && c0 <= 90 && ((c1 >= 65 && c1 <= 90) || c1 === 95) && CAPS.test(t);
}
