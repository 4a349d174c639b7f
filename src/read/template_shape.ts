/**
 * A template miner's cache from a line's shape to the cluster it joins (`template_miner.ts`, issue #26
 * item 4): most lines of a log differ from an earlier line only in their numbers, and such lines are
 * scanned, masked, sent down the tree and scored alike, so the cluster the earlier line joined is the one
 * this line joins, as long as that leaf's clusters have not changed since.
 *
 * Two lines have the same shape ({@linkcode sameShape}) when they have the same whitespace and tokens
 * (runs of non-whitespace, as `Scan` splits them) and each pair of tokens is
 * - equal, or
 * - both holding a digit and no letter, equal but in the lengths of their digit runs (`Scan` masks such a
 *   token whole, and the header's rules read only its non-digit characters: a `[`, a `]`, a last `:`), or
 * - both holding a letter and a digit, equal but in which digits they hold, a digit before `x`/`X` being
 *   `0` in both or in neither (the mask cache's shape in `template_tokens.ts`: no masking rule tells two
 *   digits apart but `0x`).
 * Lines of one shape have the same masked tokens, spaces and header under one layout, so the tree gives
 * them the same leaf and the leaf's search the same cluster while no cluster of that leaf changed: the
 * miner bumps a leaf's {@linkcode Node.ver} whenever a cluster of it widens or is added, and an entry
 * holds the version it was made at. An entry is made only when the line joined a cluster and changed
 * nothing in it (a cluster widened may no longer be the one the tree gives: a tie with a more literal
 * cluster then goes the other way), so while the leaf's version holds, its clusters are as they were when
 * the tree chose, and a hit changes nothing in the cluster either (the same tokens and spaces joined it).
 *
 * Memory: {@linkcode SHAPE_SLOTS} entries, each a line of at most {@linkcode SHAPE_LINE} UTF-16 code
 * units (so at most 8 MiB of two-byte text), a node, and three numbers.
 *
 * @module
 */

import type { HeaderLayout } from "./template_header.ts";
import type { Node } from "./template_tree.ts";

/** Entries of a {@linkcode ShapeCache}, a power of two: two-way set-associative by {@linkcode shapeHash}. */
export const SHAPE_SLOTS = 8192;

/** The longest line (UTF-16 code units) an entry holds; longer lines always take the tree. */
export const SHAPE_LINE = 512;

/** A code unit's class for {@linkcode shapeHash} and {@linkcode sameShape}: a digit, whitespace, a letter. */
const DIGIT = 1, SPACE = 2, LETTER = 4;

/**
 * The classes of the ASCII code units (whitespace as `\s`, letters as `Scan`'s: A–Z, a–z), one call's
 * table: a module constant, never written after it is made.
 */
const ASCII: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (let c = 48; c <= 57; c++) t[c] = DIGIT;
  for (const c of [9, 10, 11, 12, 13, 32]) t[c] = SPACE;
  for (let c = 65; c <= 90; c++) t[c] = t[c + 32] = LETTER;
  return t;
})();

/** The class of a code unit above 127: whitespace for `\s` (as `Scan` splits), else a letter (as `Scan` counts). */
function wide(c: number): number {
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
      c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
    ? SPACE
    : LETTER;
}

/**
 * A 32-bit hash of a line's shape: its characters with each run of digits as one digit, and, in a token
 * holding a letter, each digit run's length too (lines of one shape, {@linkcode sameShape}, hash alike).
 *
 * @param line The line (UTF-16).
 * @returns The hash, unsigned.
 */
export function shapeHash(line: string): number {
  const n = line.length;
  let h = 0x811c9dc5 | 0, t = 0, lit = 0, run = 0;
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    const k = c < 128 ? ASCII[c] : wide(c);
    if (k === DIGIT) {
      if (run++ === 0) h = Math.imul(h ^ 49, 0x01000193);
      continue;
    }
    if (run !== 0) t = Math.imul(t ^ run, 0x01000193), run = 0;
    if (k === SPACE) {
      if (lit !== 0) h = Math.imul(h ^ t, 0x01000193);
      t = lit = 0;
    } else lit |= k;
    h = Math.imul(h ^ c, 0x01000193);
  }
  if (run !== 0) t = Math.imul(t ^ run, 0x01000193);
  if (lit !== 0) h = Math.imul(h ^ t, 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

/**
 * Whether two lines have the same shape (see the module's doc): one pass over both, and where two digit
 * runs differ in length (or in a `0` before `x`), a look at their token for a letter.
 *
 * @param a A line.
 * @param b Another line.
 * @returns True when the miner treats them alike but for their numbers.
 */
export function sameShape(a: string, b: string): boolean {
  const na = a.length, nb = b.length;
  let i = 0, j = 0;
  while (i < na && j < nb) {
    const c = a.charCodeAt(i), d = b.charCodeAt(j);
    const cd = c - 48 >>> 0 < 10;
    if (!cd) {
      if (c !== d) return false;
      i++, j++;
      continue;
    }
    if (d - 48 >>> 0 >= 10) return false;
    let ei = i + 1, ej = j + 1;
    while (ei < na && a.charCodeAt(ei) - 48 >>> 0 < 10) ei++;
    while (ej < nb && b.charCodeAt(ej) - 48 >>> 0 < 10) ej++;
    // (The characters after the runs are compared next: a's is b's, or the lines differ.)
    if (
      (ei - i !== ej - j ||
        (ei < na && (a.charCodeAt(ei) | 32) === 120 &&
          (a.charCodeAt(ei - 1) === 48) !== (b.charCodeAt(ej - 1) === 48))) &&
      hasLetter(a, i, ei)
    ) {
      return false;
    }
    i = ei, j = ej;
  }
  return i === na && j === nb;
}

/** Whether the token holding `a.slice(s, e)` (a digit run) holds a letter. */
function hasLetter(a: string, s: number, e: number): boolean {
  for (let k = s - 1; k >= 0; k--) {
    const c = a.charCodeAt(k), cl = c < 128 ? ASCII[c] : wide(c);
    if (cl === SPACE) break;
    if (cl === LETTER) return true;
  }
  for (let k = e; k < a.length; k++) {
    const c = a.charCodeAt(k), cl = c < 128 ? ASCII[c] : wide(c);
    if (cl === SPACE) break;
    if (cl === LETTER) return true;
  }
  return false;
}

/**
 * The cache (see the module's doc): per entry its line, the header layout it was mined with, its leaf,
 * the leaf's version then, and the cluster it joined.
 */
export class ShapeCache {
  readonly #line: (string | undefined)[] = new Array(SHAPE_SLOTS);
  readonly #layout: (HeaderLayout | null)[] = new Array(SHAPE_SLOTS);
  readonly #node: (Node | null)[] = new Array(SHAPE_SLOTS);
  readonly #ver = new Float64Array(SHAPE_SLOTS);
  readonly #best = new Int32Array(SHAPE_SLOTS);
  /** The set (its first slot) of the line last looked up. */
  #set = 0;

  /**
   * The cluster a line joins, if an entry of its shape holds it and its leaf has not changed since.
   *
   * @param line The line.
   * @param layout The header layout it is mined with.
   * @returns The cluster's index, or -1 (then {@linkcode ShapeCache.keep} may follow for this line).
   */
  find(line: string, layout: HeaderLayout | null): number {
    if (line.length > SHAPE_LINE) return this.#set = -1;
    const set = this.#set = shapeHash(line) & (SHAPE_SLOTS - 2);
    for (let s = set; s < set + 2; s++) {
      const l = this.#line[s];
      if (l === undefined || this.#layout[s] !== layout || !sameShape(line, l)) continue;
      if (this.#node[s]!.ver !== this.#ver[s]) return -1;
      if (s !== set) this.#swap(set);
      return this.#best[set];
    }
    return -1;
  }

  /**
   * Keeps, for the line last given to {@linkcode ShapeCache.find}, the cluster it joined in `node` (the
   * newest entry of its set first, the older one second, the one before dropped).
   */
  keep(line: string, layout: HeaderLayout | null, node: Node, best: number): void {
    const set = this.#set;
    if (set < 0) return;
    const s = this.#line[set] !== undefined && sameShape(line, this.#line[set]!) ? set : set + 1;
    if (s === set + 1) this.#swap(set);
    this.#line[set] = line;
    this.#layout[set] = layout;
    this.#node[set] = node;
    this.#ver[set] = node.ver;
    this.#best[set] = best;
  }

  /** Swaps a set's two entries. */
  #swap(s: number): void {
    const t = s + 1;
    [this.#line[s], this.#line[t]] = [this.#line[t], this.#line[s]];
    [this.#layout[s], this.#layout[t]] = [this.#layout[t], this.#layout[s]];
    [this.#node[s], this.#node[t]] = [this.#node[t], this.#node[s]];
    [this.#ver[s], this.#ver[t]] = [this.#ver[t], this.#ver[s]];
    [this.#best[s], this.#best[t]] = [this.#best[t], this.#best[s]];
  }
}
