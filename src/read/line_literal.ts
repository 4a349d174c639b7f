/**
 * A byte search for a literal inside one line at a time ({@linkcode LineLiteral}), for a search that
 * hands every line to its sink (a window, context: `search_page.ts`).
 *
 * @module
 */

/**
 * Lines up to this many bytes are searched byte by byte by a {@linkcode LineLiteral}; a longer one
 * through `indexOf` on a view of the line (a view costs more than a short line's loop).
 */
const SHORT_LINE = 128;

/**
 * A byte search for a literal inside one line at a time (case-sensitive: the needle's own bytes), for
 * a search that hands every line to its sink (a window, context). Its work on a line is bounded by the
 * line: no byte at or after the line's end is read (issue #22: an `indexOf` from the line's start ran on
 * to the end of the 1 MiB piece when the needle's first byte was rare, so a piece of short lines cost
 * seconds), and a line of near-matches (`aaaa…` for `aaa…ab`) costs at most about three passes over
 * it: once the comparisons after first-byte hits pass twice the line's length, the rest of the line is
 * read by Knuth–Morris–Pratt, one pass.
 */
export class LineLiteral {
  /** The bytes looked for (at least one). */
  readonly needle: Uint8Array;
  /** KMP's failure function, made when a line first needs it. */
  #fail: Int32Array | null = null;

  /**
   * @param needle The bytes looked for.
   * @throws {RangeError} when `needle` is empty.
   */
  constructor(needle: Uint8Array) {
    if (needle.length === 0) throw new RangeError("a literal of no bytes");
    this.needle = needle;
  }

  /**
   * True when `buf[s, e)` holds the needle.
   *
   * @param buf Holds the line.
   * @param s The line's first byte.
   * @param e Past its last byte.
   */
  holds(buf: Uint8Array, s: number, e: number): boolean {
    const needle = this.needle;
    const n = needle.length;
    const b0 = needle[0];
    const last = e - n; // the last offset a match can start at
    if (last < s) return false;
    /** Comparisons allowed after first-byte hits before the line goes to KMP. */
    let left = 2 * (e - s) + 16;
    if (e - s <= SHORT_LINE) {
      for (let i = s; i <= last; i++) {
        if (buf[i] !== b0) continue;
        let k = 1;
        while (k < n && buf[i + k] === needle[k]) k++;
        if (k === n) return true;
        if ((left -= k) < 0) return this.#kmp(buf, i + 1, e);
      }
      return false;
    }
    const line = buf.subarray(s, last + 1); // where a match can start: indexOf stops at its end
    for (let j = line.indexOf(b0); j >= 0; j = line.indexOf(b0, j + 1)) {
      const i = s + j;
      let k = 1;
      while (k < n && buf[i + k] === needle[k]) k++;
      if (k === n) return true;
      if ((left -= k) < 0) return this.#kmp(buf, i + 1, e);
    }
    return false;
  }

  /** Knuth–Morris–Pratt over `buf[from, e)`: true when a match starts there. */
  #kmp(buf: Uint8Array, from: number, e: number): boolean {
    const needle = this.needle;
    const n = needle.length;
    const fail = this.#fail ??= failure(needle);
    let q = 0;
    for (let i = from; i < e; i++) {
      const b = buf[i];
      while (q > 0 && b !== needle[q]) q = fail[q - 1];
      if (b === needle[q] && ++q === n) return true;
    }
    return false;
  }
}

/** KMP's failure function: `f[q]`, the longest proper prefix of `needle[0, q]` that is also its suffix. */
function failure(needle: Uint8Array): Int32Array {
  const f = new Int32Array(needle.length);
  let k = 0;
  for (let q = 1; q < needle.length; q++) {
    while (k > 0 && needle[q] !== needle[k]) k = f[k - 1];
    if (needle[q] === needle[k]) k++;
    f[q] = k;
  }
  return f;
}
