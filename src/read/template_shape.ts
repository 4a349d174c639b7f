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
 * units (so at most 8 MiB of two-byte text), a node, and five numbers; and the lines' bytes for a lookup
 * by bytes ({@linkcode ShapeCache.findBytes}: a line shown as read is looked up without being decoded),
 * {@linkcode SHAPE_LINE} bytes a slot (4 MiB).
 *
 * @module
 */

import { clearInAnyDigits } from "../guard/redact.ts";
import type { HeaderLayout } from "./template_header.ts";
import type { Node } from "./template_tree.ts";

/** Entries of a {@linkcode ShapeCache}, a power of two: set-associative by {@linkcode shapeHash}. */
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
 * A 32-bit hash of a line's shape: its characters, each run of digits as one `1` (lines of one shape,
 * {@linkcode sameShape}, hash alike; lines whose tokens with letters differ in their digits' counts
 * hash alike too, and {@linkcode sameShape} tells them apart).
 *
 * @param line The line (UTF-16).
 * @returns The hash, unsigned.
 */
export function shapeHash(line: string): number {
  const n = line.length;
  let h = 0x811c9dc5 | 0, run = 0;
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    if (c - 48 >>> 0 < 10) {
      if (run === 0) h = Math.imul(h ^ 49, 0x01000193), run = 1;
    } else h = Math.imul(h ^ c, 0x01000193), run = 0;
  }
  return (h ^ (h >>> 15)) >>> 0;
}

/**
 * Whether two lines have the same shape (see the module's doc): equal characters are skipped in one
 * tight loop; where the lines differ, both must be in a run of digits (the runs then taken whole, from
 * where they start), and where two runs differ in length (or in a `0` before `x`), their token must hold
 * no letter.
 *
 * @param a A line.
 * @param b Another line.
 * @returns True when the miner treats them alike but for their numbers.
 */
export function sameShape(a: string, b: string): boolean {
  const na = a.length, nb = b.length;
  let i = 0, j = 0;
  for (;;) {
    while (i < na && j < nb && a.charCodeAt(i) === b.charCodeAt(j)) i++, j++;
    if (i === na && j === nb) return true;
    // Two characters differ (or one line ended): one of them must be a digit.
    if (!(i < na && isDigit(a.charCodeAt(i))) && !(j < nb && isDigit(b.charCodeAt(j)))) return false;
    // The characters since the last runs' ends are equal pairwise, so the runs reaching here start
    // alike: back over the digits before, then on to each run's end.
    let ra = i, rb = j;
    while (ra > 0 && isDigit(a.charCodeAt(ra - 1))) ra--, rb--;
    let ea = i, eb = j;
    while (ea < na && isDigit(a.charCodeAt(ea))) ea++;
    while (eb < nb && isDigit(b.charCodeAt(eb))) eb++;
    if (ea === ra || eb === rb) return false;
    if (
      (ea - ra !== eb - rb ||
        (ea < na && (a.charCodeAt(ea) | 32) === 120 &&
          (a.charCodeAt(ea - 1) === 48) !== (b.charCodeAt(eb - 1) === 48))) &&
      hasLetter(a, ra, ea)
    ) {
      return false;
    }
    i = ea, j = eb;
  }
}

/**
 * {@linkcode shapeHash} of an ASCII line given as its bytes `b[s, e)` (the same number as of its text:
 * each byte is a code unit), without decoding it.
 *
 * @param b Bytes holding the line, every one under 0x80.
 * @param s Offset of its first byte.
 * @param e Offset past its last byte.
 * @returns The hash, unsigned.
 */
export function shapeHashBytes(b: Uint8Array, s: number, e: number): number {
  let h = 0x811c9dc5 | 0, run = 0;
  for (let i = s; i < e; i++) {
    const c = b[i];
    if (c - 48 >>> 0 < 10) {
      if (run === 0) h = Math.imul(h ^ 49, 0x01000193), run = 1;
    } else h = Math.imul(h ^ c, 0x01000193), run = 0;
  }
  return (h ^ (h >>> 15)) >>> 0;
}

/**
 * {@linkcode sameShape} of two ASCII lines given as their bytes, `a[s, e)` and `b[bs, be)` (their texts
 * are their bytes, one code unit each), step for step, without decoding them; the equal stretches
 * compared four bytes at a time (`template_shape_test.ts` checks it against {@linkcode sameShape} over the
 * corpora's lines).
 *
 * @param a Bytes holding one line, every one of `a[s, e)` under 0x80.
 * @param av A view of `a` (`new DataView(a.buffer, a.byteOffset, a.byteLength)`).
 * @param s Offset of its first byte.
 * @param e Offset past its last byte.
 * @param b Bytes holding the other line, every one of `b[bs, be)` under 0x80.
 * @param bv A view of `b`, as `av` of `a`.
 * @param bs Offset of its first byte.
 * @param be Offset past its last byte.
 * @returns True when the miner treats them alike but for their numbers.
 */
export function sameShapeBytes(
  a: Uint8Array,
  av: DataView,
  s: number,
  e: number,
  b: Uint8Array,
  bv: DataView,
  bs: number,
  be: number,
): boolean {
  let i = s, j = bs;
  for (;;) {
    while (i + 4 <= e && j + 4 <= be && av.getUint32(i, true) === bv.getUint32(j, true)) i += 4, j += 4;
    while (i < e && j < be && a[i] === b[j]) i++, j++;
    if (i === e && j === be) return true;
    // Two bytes differ (or one line ended): one of them must be a digit (as in sameShape).
    if (!(i < e && isDigit(a[i])) && !(j < be && isDigit(b[j]))) return false;
    let ra = i, rb = j;
    while (ra > s && isDigit(a[ra - 1])) ra--, rb--;
    let ea = i, eb = j;
    while (ea < e && isDigit(a[ea])) ea++;
    while (eb < be && isDigit(b[eb])) eb++;
    if (ea === ra || eb === rb) return false;
    if (
      (ea - ra !== eb - rb ||
        (ea < e && (a[ea] | 32) === 120 && (a[ea - 1] === 48) !== (b[eb - 1] === 48))) &&
      hasLetterBytes(a, s, e, ra, ea)
    ) {
      return false;
    }
    i = ea, j = eb;
  }
}

/** `hasLetter` of the ASCII line `a[s, e)`: whether the token holding `a[r, q)` (a digit run) holds a letter. */
function hasLetterBytes(a: Uint8Array, s: number, e: number, r: number, q: number): boolean {
  for (let k = r - 1; k >= s; k--) {
    const cl = ASCII[a[k]];
    if (cl === SPACE) break;
    if (cl === LETTER) return true;
  }
  for (let k = q; k < e; k++) {
    const cl = ASCII[a[k]];
    if (cl === SPACE) break;
    if (cl === LETTER) return true;
  }
  return false;
}

/** Whether code unit c is an ASCII digit. */
function isDigit(c: number): boolean {
  return c - 48 >>> 0 < 10;
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

/** The entries of a set of a {@linkcode ShapeCache}, newest first. */
const WAYS = 4;

/**
 * The cache (see the module's doc): per entry its line's {@linkcode shapeHash} and the line, the header
 * layout it was mined with, its leaf, the leaf's version then, and the cluster it joined; set-associative
 * ({@linkcode WAYS} entries a set, the set by the hash), the newest entry of a set first.
 */
export class ShapeCache {
  readonly #hash = new Uint32Array(SHAPE_SLOTS);
  readonly #line: (string | undefined)[] = new Array(SHAPE_SLOTS);
  readonly #layout: (HeaderLayout | null)[] = new Array(SHAPE_SLOTS);
  readonly #node: (Node | null)[] = new Array(SHAPE_SLOTS);
  readonly #ver = new Float64Array(SHAPE_SLOTS);
  readonly #best = new Int32Array(SHAPE_SLOTS);
  /**
   * Each entry's line as bytes, for {@linkcode ShapeCache.findBytes}: at `#at[slot]` in `#arena` (a block
   * of {@linkcode SHAPE_LINE} bytes a slot, moved with its entry inside its set), `#len[slot]` bytes, or
   * -1 for a line not ASCII (no ASCII line has its shape).
   */
  readonly #arena = new Uint8Array(SHAPE_SLOTS * SHAPE_LINE);
  readonly #arenaView = new DataView(this.#arena.buffer);
  readonly #at = Int32Array.from({ length: SHAPE_SLOTS }, (_, k) => k * SHAPE_LINE);
  readonly #len = new Int32Array(SHAPE_SLOTS);
  /**
   * Per entry, whether its line's bytes are clear of secrets in any digits (`guard/redact.ts`
   * `clearInAnyDigits`): 0 not known yet (asked at the first lookup {@linkcode ShapeCache.findBytes}
   * makes `byShape`), 1 clear, 2 not.
   */
  readonly #clear = new Uint8Array(SHAPE_SLOTS);
  /** The bytes the last {@linkcode ShapeCache.findBytes} was given, and a view of them. */
  #buf: Uint8Array | null = null;
  #view: DataView | null = null;
  /** The set (its first slot) of the line last looked up, -1 for a line too long. */
  #set = -1;
  /** That line's hash. */
  #h = 0;

  /**
   * The cluster a line joins, if an entry of its shape holds it and its leaf has not changed since.
   *
   * @param line The line.
   * @param layout The header layout it is mined with.
   * @returns The cluster's index, or -1 (then {@linkcode ShapeCache.keep} may follow for this line).
   */
  find(line: string, layout: HeaderLayout | null): number {
    if (line.length > SHAPE_LINE) return this.#set = -1;
    const h = this.#h = shapeHash(line);
    const set = this.#set = (h & (SHAPE_SLOTS / WAYS - 1)) * WAYS;
    for (let s = set; s < set + WAYS; s++) {
      const l = this.#line[s];
      if (l === undefined) return -1;
      if (this.#hash[s] !== h || this.#layout[s] !== layout || !sameShape(line, l)) continue;
      if (this.#node[s]!.ver !== this.#ver[s]) return -1;
      if (s !== set) this.#first(set, s);
      return this.#best[set];
    }
    return -1;
  }

  /**
   * {@linkcode ShapeCache.find} of an ASCII line given as its bytes `b[s, e)` (the same lookup, the same
   * entry moved to its set's front on a hit, as for its text), without decoding it.
   *
   * @param b Bytes holding the line, every one under 0x80.
   * @param s Offset of its first byte.
   * @param e Offset past its last byte.
   * @param layout The header layout it is mined with.
   * @param byShape True when the line is not known to be shown as read (masking on: it was not asked
   *   `mayHoldSecretBytes`): then the entry of its shape counts only when its line is clear of secrets in
   *   any digits (`clearInAnyDigits`), so that this line, which differs from it only in its digits, holds
   *   no gate text either; else -1, as for a miss (the caller asks the gate and looks up again).
   * @returns The cluster's index, or -1 (then {@linkcode ShapeCache.keep} may follow, for its text).
   */
  findBytes(b: Uint8Array, s: number, e: number, layout: HeaderLayout | null, byShape = false): number {
    if (e - s > SHAPE_LINE) return this.#set = -1;
    const h = this.#h = shapeHashBytes(b, s, e);
    const set = this.#set = (h & (SHAPE_SLOTS / WAYS - 1)) * WAYS;
    if (b !== this.#buf) this.#buf = b, this.#view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const view = this.#view!, arena = this.#arena, arenaView = this.#arenaView;
    for (let k = set; k < set + WAYS; k++) {
      if (this.#line[k] === undefined) return -1;
      const n = this.#len[k], at = this.#at[k];
      if (
        this.#hash[k] !== h || this.#layout[k] !== layout || n < 0 ||
        !sameShapeBytes(b, view, s, e, arena, arenaView, at, at + n)
      ) continue;
      if (byShape && this.#clearAt(k) !== 1) return -1;
      if (this.#node[k]!.ver !== this.#ver[k]) return -1;
      if (k !== set) this.#first(set, k);
      return this.#best[set];
    }
    return -1;
  }

  /** {@linkcode ShapeCache.#clear} of entry k (an ASCII line), asked once. */
  #clearAt(k: number): number {
    const c = this.#clear[k];
    if (c !== 0) return c;
    const at = this.#at[k];
    return this.#clear[k] = clearInAnyDigits(this.#arena, at, at + this.#len[k]) ? 1 : 2;
  }

  /**
   * Keeps, for the line last given to {@linkcode ShapeCache.find}, the cluster it joined in `node`: the
   * set's first entry (a stale entry of its shape replaced, else the set's last entry dropped).
   */
  keep(line: string, layout: HeaderLayout | null, node: Node, best: number): void {
    const set = this.#set;
    if (set < 0) return;
    let s = set;
    while (s < set + WAYS - 1) {
      const l = this.#line[s];
      if (
        l === undefined || (this.#hash[s] === this.#h && this.#layout[s] === layout && sameShape(line, l))
      ) break;
      s++;
    }
    this.#first(set, s);
    this.#hash[set] = this.#h;
    this.#line[set] = line;
    this.#len[set] = ascii(line, this.#arena, this.#at[set]);
    this.#clear[set] = 0;
    this.#layout[set] = layout;
    this.#node[set] = node;
    this.#ver[set] = node.ver;
    this.#best[set] = best;
  }

  /** Moves entry s of the set starting at `set` to its front, the entries before it one place back. */
  #first(set: number, s: number): void {
    if (s === set) return;
    const h = this.#hash[s], l = this.#line[s], y = this.#layout[s], n = this.#node[s];
    const v = this.#ver[s], b = this.#best[s], at = this.#at[s], len = this.#len[s], cl = this.#clear[s];
    for (let k = s; k > set; k--) {
      this.#at[k] = this.#at[k - 1];
      this.#len[k] = this.#len[k - 1];
      this.#clear[k] = this.#clear[k - 1];
      this.#hash[k] = this.#hash[k - 1];
      this.#line[k] = this.#line[k - 1];
      this.#layout[k] = this.#layout[k - 1];
      this.#node[k] = this.#node[k - 1];
      this.#ver[k] = this.#ver[k - 1];
      this.#best[k] = this.#best[k - 1];
    }
    this.#hash[set] = h, this.#line[set] = l, this.#layout[set] = y, this.#node[set] = n;
    this.#ver[set] = v, this.#best[set] = b, this.#at[set] = at, this.#len[set] = len, this.#clear[set] = cl;
  }
}

/** Writes an ASCII line's code units as bytes at `at` of `into`; returns its length, or -1 (and writes part) for a line not ASCII. */
function ascii(line: string, into: Uint8Array, at: number): number {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c > 127) return -1;
    into[at + i] = c;
  }
  return line.length;
}
