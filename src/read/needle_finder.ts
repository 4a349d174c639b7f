/**
 * Finding a needle's candidates in a scan's buffer on raw bytes: SIMD looks for two of the needle's
 * rarest bytes at once (rarest in the file's first piece, {@linkcode rarePair}), each hit is compared;
 * and, for a case-insensitive needle with `k` or `s`, the K (U+212A) and ſ (U+017F) that may stand for
 * them ({@linkcode NeedleFinder.findPartner}).
 *
 * @module
 */

import type { simdScanner } from "./simd.ts";
import { foldPartners, KELVIN_BYTES, LONG_S_BYTES, matchSpan } from "./fold.ts";

/** True for A-Z and a-z. */
function isAsciiLetter(b: number): boolean {
  return (b >= 65 && b <= 90) || (b >= 97 && b <= 122);
}

/** How many of a file's first bytes {@linkcode rarePair} counts in. */
export const SAMPLE_BYTES = 65536;

/**
 * Picks two offsets in `needle` for SIMD to look for at once (memchr's "packed pair"): among the
 * needle's four rarest bytes in `sample` (a piece of the file itself; byte frequencies, both cases of a
 * letter where `mask` has 0x20), the pair with the fewest places in `sample` where both stand at their
 * offsets, ties going to the rarer bytes. Two rare bytes that often stand together (`blk_`'s `b` and `_`
 * in an HDFS log) make many candidates, each a call out of SIMD and a compare; counting the pairs
 * themselves avoids them.
 *
 * @param needle The needle's bytes (lower-case letters where `mask` has 0x20).
 * @param sample Bytes to count in (only the first {@linkcode SAMPLE_BYTES} are used).
 * @param mask Per needle byte, 0x20 where case is ignored; default none.
 * @returns Offsets `[o1, o2]` into the needle (different bytes when the needle has two).
 */
export function rarePair(needle: Uint8Array, sample: Uint8Array, mask?: Uint8Array): [number, number] {
  sample = sample.subarray(0, SAMPLE_BYTES);
  const m = mask ?? new Uint8Array(needle.length);
  const freq = new Uint32Array(256);
  for (let i = 0; i < sample.length; i++) freq[sample[i]]++;
  const often = (o: number) => freq[needle[o]] + (m[o] ? freq[needle[o] & ~0x20] : 0);
  const order = Array.from(needle.keys()).sort((a, b) => often(a) - often(b) || b - a);
  const firsts = order.filter((o, k) => order.findIndex((p) => needle[p] === needle[o]) === k).slice(0, 4);
  if (firsts.length < 2) return [order[0], order[order.length - 1]];
  // Where each of them stands in the sample (found by indexOf: rare bytes, few places).
  const places = firsts.map((o) => placesOf(sample, needle[o], m[o]));
  let best: [number, number] = [firsts[0], firsts[1]];
  let fewest = Infinity;
  for (let x = 0; x < firsts.length; x++) {
    for (let y = x + 1; y < firsts.length; y++) {
      // Walk the places of the rarer byte of the two; compare the other at its offset.
      const [i, j] = places[x].length <= places[y].length ? [x, y] : [y, x];
      const o1 = firsts[i], o2 = firsts[j];
      const b2 = needle[o2], m2 = m[o2];
      const lo = Math.min(o1, o2), hi = Math.max(o1, o2);
      let n = 0;
      for (const at of places[i]) {
        const s = at - o1;
        if (s + lo >= 0 && s + hi < sample.length && (sample[s + o2] | m2) === b2) n++;
      }
      if (n < fewest) [fewest, best] = [n, [firsts[x], firsts[y]]];
    }
  }
  return best;
}

/** The offsets in `sample` of byte `b` (of `b` and `b & ~0x20` when `mask` is 0x20), ascending. */
function placesOf(sample: Uint8Array, b: number, mask: number): number[] {
  const out: number[] = [];
  for (const v of mask ? [b, b & ~mask] : [b]) {
    for (let at = sample.indexOf(v); at >= 0; at = sample.indexOf(v, at + 1)) out.push(at);
  }
  return out;
}

/**
 * A scan's needle and how it is looked for in the scan's buffer (`simd.buf`): the needle's ASCII letters
 * lower-cased with `ignoreCase`, its rare pair (chosen from the first piece read, {@linkcode choosePair}),
 * and whether K or ſ may stand for its `k` or `s`. Offsets are bytes in that buffer.
 */
export class NeedleFinder {
  /** The needle (ASCII letters lower-cased with `ignoreCase`). */
  readonly needle: Uint8Array;
  /** Per needle byte, 0x20 where case is ignored. */
  readonly mask: Uint8Array;
  readonly nlen: number;
  /** The most bytes a match takes: `nlen`, more when K or ſ may stand for `k` or `s` (`matchSpan`). */
  readonly span: number;
  /** Look for K (U+212A) and for ſ (U+017F) as well as for the needle. */
  readonly kelvin: boolean;
  readonly longS: boolean;
  /**
   * With K or ſ looked for: the needle's bytes before its first `k` or `s` when there are two or more
   * (0 else). The rare pair is then chosen among them, so that SIMD finds an occurrence written with K or
   * ſ in the same pass as the needle's own ({@linkcode findCounted} tells them apart: {@linkcode variant}),
   * and no second pass for K and ſ is needed.
   */
  readonly head: number;
  /** Set by {@linkcode findCounted}: its answer is a place where the needle may stand with K or ſ in it. */
  variant = false;
  /** Set by {@linkcode NeedleFinder.attach}: the scan's SIMD scanner and its buffer. */
  simd!: ReturnType<typeof simdScanner>;
  buf!: Uint8Array;
  // The needle's rare pair (offsets, bytes, case masks), chosen after the first read.
  o1 = 0;
  o2 = 0;
  b1 = 0;
  b2 = 0;
  m1 = 0;
  m2 = 0;

  /**
   * @param needle The bytes looked for.
   * @param ignoreCase Match the needle's ASCII letters in either case (`byte | 0x20`).
   * @param partners Look for K and ſ too (a case-insensitive scan with a `verify`).
   * @throws {TypeError} when the needle is empty or contains a line feed.
   */
  constructor(needle: Uint8Array, ignoreCase: boolean, partners: boolean) {
    // With ignoreCase, ASCII letters of the needle are lower-cased and compared as (byte | 0x20).
    this.needle = ignoreCase ? needle.map((b) => (isAsciiLetter(b) ? b | 0x20 : b)) : needle;
    this.mask = this.needle.map((b) => (ignoreCase && isAsciiLetter(b) ? 0x20 : 0));
    if (this.needle.length === 0 || this.needle.includes(10)) {
      throw new TypeError("the needle must be 1 or more bytes without a line feed");
    }
    this.nlen = this.needle.length;
    const p = ignoreCase && partners ? foldPartners(this.needle) : { kelvin: false, longS: false };
    this.kelvin = p.kelvin;
    this.longS = p.longS;
    this.span = matchSpan(this.needle, this.kelvin || this.longS);
    const first = this.needle.findIndex((b) => b === 0x6b || b === 0x73);
    this.head = (this.kelvin || this.longS) && first >= 2 ? first : 0;
  }

  /** Looks in `simd`'s buffer from now on (made for a size that has room for `span - 1` more bytes). */
  attach(simd: ReturnType<typeof simdScanner>): void {
    this.simd = simd;
    this.buf = simd.buf;
  }

  /** Chooses the rare pair by the bytes of `sample` (the first piece read, {@linkcode rarePair}). */
  choosePair(sample: Uint8Array): void {
    const needle = this.needle;
    [this.o1, this.o2] = this.head > 0
      ? rarePair(needle.subarray(0, this.head), sample, this.mask.subarray(0, this.head))
      : rarePair(needle, sample, this.mask);
    this.b1 = needle[this.o1];
    this.b2 = needle[this.o2];
    this.m1 = this.mask[this.o1];
    this.m2 = this.mask[this.o2];
  }

  /**
   * The first K (U+212A) or ſ (U+017F) that starts in buf[from, to) and is whole there, when the needle
   * may match through it; else -1. SIMD finds their first two bytes, as for the needle.
   */
  findPartner(from: number, to: number): number {
    let best = -1;
    if (this.kelvin && this.longS) {
      // One pass for both: E2 84 (K) and C5 BF (ſ) are the same pair once bits 0x27 of the first byte
      // and 0x3B of the second are set (E2|27 = C5|27 = E7, 84|3B = BF|3B = BF); each candidate, rare
      // outside non-ASCII text, is then checked exactly.
      const [k0, k1, k2] = KELVIN_BYTES;
      const [s0, s1] = LONG_S_BYTES;
      const b = this.buf;
      for (let s = from; s <= to - 2;) {
        s = this.simd.find2(s, to - 2, k0 | 0x27, 0, k1 | 0x3b, 1, 0x27, 0x3b);
        if (s < 0) break;
        if (
          (b[s] === s0 && b[s + 1] === s1) ||
          (s <= to - 3 && b[s] === k0 && b[s + 1] === k1 && b[s + 2] === k2)
        ) {
          return s;
        }
        s++;
      }
      return -1;
    }
    if (this.kelvin) {
      const [b0, b1, b2] = KELVIN_BYTES;
      for (let s = from; s <= to - 3;) {
        s = this.simd.find2(s, to - 3, b0, 0, b1, 1);
        if (s < 0) break;
        if (this.buf[s + 2] === b2) {
          best = s;
          break;
        }
        s++;
      }
    }
    if (this.longS) {
      const s = this.simd.find2(from, (best >= 0 ? best : to) - 2, LONG_S_BYTES[0], 0, LONG_S_BYTES[1], 1);
      if (s >= 0) best = s;
    }
    return best;
  }

  /** Line feeds {@linkcode NeedleFinder.findCounted} passed over. */
  lineFeeds = 0;

  /**
   * {@linkcode NeedleFinder.findNeedle} that counts line feeds in the same pass (`simd.findCount`):
   * returns the first occurrence `m` of the needle that starts in buf[from, to - nlen], or -1, and sets
   * {@linkcode NeedleFinder.lineFeeds} to the line feeds in buf[from, m), or in buf[from, to) with -1; with
   * K or ſ looked for, also {@linkcode NeedleFinder.high}.
   */
  findCounted(from: number, to: number): number {
    const { buf, simd, nlen, mask, needle } = this;
    const last = to - nlen;
    // With a head (the pair found in the bytes before any k or s), no separate look for K or ſ.
    const partners = (this.kelvin || this.longS) && this.head === 0;
    this.variant = false;
    let lf = 0;
    let high = -1;
    while (from <= last) {
      const s = partners
        ? simd.findCountHigh(from, last, this.b1, this.o1, this.b2, this.o2, this.m1, this.m2)
        : simd.findCount(from, last, this.b1, this.o1, this.b2, this.o2, this.m1, this.m2);
      lf += simd.counted();
      if (partners && high < 0) high = simd.high();
      if (s < 0) {
        from = last + 1;
        break;
      }
      let k = 0;
      while (k < nlen && (buf[s + k] | mask[k]) === needle[k]) k++;
      if (k === nlen || (this.head > 0 && this.mayStandAt(s, k, to))) {
        this.variant = k < nlen;
        this.lineFeeds = lf;
        this.high = high < 0 ? to : high;
        return s;
      }
      if (buf[s] === 10) lf++; // the candidate's own first byte, passed over from here
      from = s + 1;
    }
    this.lineFeeds = lf + (from < to ? simd.count(from, to) : 0);
    // The bytes past `last` the blocks may not have covered.
    for (let i = from; high < 0 && partners && i < to; i++) if (buf[i] >= 0x80) high = i;
    this.high = high < 0 ? to : high;
    return -1;
  }

  /**
   * Whether the needle may stand at `s` with K for a `k` or ſ for an `s`, its first `k` bytes being there
   * as they are (in either case): each further byte as it is, a `k` also as K's three bytes, an `s` also as
   * ſ's two. True too when the buffer ends (`to`) before that is known: the line is a candidate, and the
   * pattern or the folded text decides.
   */
  mayStandAt(s: number, k: number, to: number): boolean {
    const { buf, needle, mask, nlen } = this;
    let p = s + k;
    for (let i = k; i < nlen; i++) {
      if (p >= to) return true;
      const c = needle[i];
      if ((buf[p] | mask[i]) === c) p++;
      else if (c === 0x6b && this.kelvin && buf[p] === KELVIN_BYTES[0] && buf[p + 1] === KELVIN_BYTES[1]) {
        if (p + 2 >= to) return true;
        if (buf[p + 2] !== KELVIN_BYTES[2]) return false;
        p += 3;
      } else if (c === 0x73 && this.longS && buf[p] === LONG_S_BYTES[0]) {
        if (p + 1 >= to) return true;
        if (buf[p + 1] !== LONG_S_BYTES[1]) return false;
        p += 2;
      } else return false;
    }
    return true;
  }

  /**
   * After {@linkcode NeedleFinder.findCounted} with K or ſ looked for: no byte ≥ 0x80 (so no K or ſ) starts
   * in buf[from, high) of the bytes it passed over (`to` or more: none before its answer, or before `to`).
   */
  high = 0;

  /** First occurrence of the needle that starts in buf[from, to - nlen], or -1. */
  findNeedle(from: number, to: number): number {
    const { buf, simd, nlen, mask, needle } = this;
    const last = to - nlen;
    while (from <= last) {
      const s = simd.find2(from, last, this.b1, this.o1, this.b2, this.o2, this.m1, this.m2);
      if (s < 0) return -1;
      let k = 0;
      while (k < nlen && (buf[s + k] | mask[k]) === needle[k]) k++;
      if (k === nlen) return s;
      from = s + 1;
    }
    return -1;
  }
}
