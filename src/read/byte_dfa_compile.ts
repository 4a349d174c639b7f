/**
 * A pattern's program over bytes, for the lazy DFA (`byte_dfa.ts`): re2js's compiled program (its
 * instructions over runes) with each rune instruction turned into a trie of byte ranges, the UTF-8
 * sequences of the runes it matches (`utf8_ranges.ts`). A rune instruction that matches U+FFFD also
 * takes any single byte 0x80–0xFF, because re2js reads each byte of invalid UTF-8 as U+FFFD: the program
 * then accepts more than re2js (a byte inside a valid character, too), never less — it serves as a
 * prefilter, whose "maybe" re2js confirms.
 *
 * re2js does not export its program: it is read from the compiled object's fields (`re2Input.prog`,
 * its `inst`, `start`), checked for the shape of re2js 2.10; any other shape, or an instruction this
 * does not know (lookbehind), gives null and the search tests every line with re2js as before.
 *
 * @module
 */

import type { RE2JS } from "re2js";
import { MASK_CHARS } from "./mask_proof_program.ts";
import { utf8Sequences } from "./utf8_ranges.ts";

/** Node kinds of a {@linkcode ByteProgram}: no way on. */
export const K_FAIL = 0;
/** Consumes a byte by its edges (`edgeStart`…`edgeEnd`). */
export const K_BYTES = 1;
/** Goes on to `out` and to `arg`. */
export const K_ALT = 2;
/** Goes on to `out`. */
export const K_NOP = 3;
/** Goes on to `out` when the empty-width conditions `arg` (re2js's `EMPTY_*` bits) hold. */
export const K_EMPTY = 4;
/** A match. */
export const K_MATCH = 5;

/** re2js's empty-width bits (`Utils.EMPTY_*`, the same in RE2): `^` with `(?m)`. */
export const EMPTY_BEGIN_LINE = 1;
/** `$` with `(?m)`. */
export const EMPTY_END_LINE = 2;
/** `^`, `\A`. */
export const EMPTY_BEGIN_TEXT = 4;
/** `$`, `\z`. */
export const EMPTY_END_TEXT = 8;
/** `\b` (ASCII word bytes on either side differ). */
export const EMPTY_WORD_BOUNDARY = 16;
/** `\B`. */
export const EMPTY_NO_WORD_BOUNDARY = 32;

/**
 * A program over bytes: nodes (re2js's instructions keep their numbers; the inner nodes of the byte
 * tries follow), each with a kind (`K_*`), `out` and `arg`, and, for `K_BYTES`, edges `[lo, hi] → to`
 * (bytes, inclusive) at `edgeStart[n]` up to `edgeEnd[n]`. `classes` maps each byte to its class: bytes
 * of one class take the same edges everywhere and are alike for `\b` (ASCII word bytes) and for the
 * line's end (`\n` and `\r` have classes of their own).
 */
export interface ByteProgram {
  start: number;
  kind: Uint8Array;
  out: Int32Array;
  arg: Int32Array;
  edgeStart: Int32Array;
  edgeEnd: Int32Array;
  lo: Uint8Array;
  hi: Uint8Array;
  to: Int32Array;
  classes: Uint8Array;
  classCount: number;
  /** One byte of each class (`classes[sample[c]] === c`). */
  sample: Uint8Array;
}

/** The fields of a re2js instruction read here. */
interface Re2Inst {
  op: number;
  out: number;
  arg: number;
  runes: Int32Array;
  matchRune(r: number): boolean;
}

/** re2js's instruction codes (`Inst` in its build). */
const OP = { ALT: 1, ALT_MATCH: 2, CAPTURE: 3, EMPTY_WIDTH: 4, FAIL: 5, MATCH: 6, NOP: 7 } as const;
const RUNE = 8, RUNE1 = 9, RUNE_ANY = 10, RUNE_ANY_NOT_NL = 11;
/** re2js's `RE2Flags.FOLD_CASE`, on a one-rune instruction. */
const FOLD_CASE = 1;
/** The most nodes a program may have (larger ones are left to re2js). */
const MAX_NODES = 200_000;
/**
 * The most UTF-8 byte sequences of a program's rune instructions (`\pL` has ~700, `.` 8): a larger
 * program (`\pL{100}`) is left to re2js, as it would cost more to build than to run.
 */
const MAX_SEQUENCES = 20_000;

/**
 * The byte program of a compiled pattern, or null when re2js's object does not have the expected shape
 * or uses what this does not support.
 *
 * With `relax` (issue #26, item 2), the program of what a line must hold as read for the pattern to match
 * it as shown (decoded, secrets masked): masking turns a line into its own stretches, in order, with a
 * mask (characters of `mask_proof_program.ts` `MASK_CHARS`) in place of each secret, and decoding puts
 * U+FFFD for invalid bytes. So each rune instruction that matches one of those characters also takes any
 * run of bytes but `\n` (it may stand for a mask, or for the secret's bytes it replaced, or for nothing
 * when other instructions took the mask), and `\b`/`\B` hold everywhere (a mask changes what is beside
 * a word); every other instruction must match the line's own bytes. A line that this program does not
 * match as read cannot match the pattern as shown. `^` and `$` stay: masking keeps a line's ends.
 *
 * @param re A pattern compiled by `pattern.ts` `compilePattern`.
 * @param relax The relaxed program described above, instead of the pattern's own.
 * @returns The program, or null (then every line is tested by re2js).
 */
export function compileByteProgram(re: RE2JS, relax = false): ByteProgram | null {
  try {
    // deno-lint-ignore no-explicit-any
    const re2 = (re as any).re2Input;
    const prog = re2?.prog;
    const insts: Re2Inst[] | undefined = prog?.inst;
    if (!Array.isArray(insts) || typeof prog.start !== "number" || !(prog.start < insts.length)) return null;
    const b = new Builder(insts.length, relax);
    for (let pc = 0; pc < insts.length; pc++) {
      if (!b.add(pc, insts[pc], () => foldCandidates(re2))) return null;
      if (b.kind.length > MAX_NODES || b.cost > MAX_SEQUENCES) return null;
    }
    return b.finish(prog.start);
  } catch {
    return null;
  }
}

/**
 * The runes re2js's own DFA splits its rune classes at (`DFA.classBounds`), which include every member
 * of each case-folding orbit of the pattern's runes: the candidates a one-rune `FOLD_CASE` instruction
 * is asked about (`matchRune`).
 */
// deno-lint-ignore no-explicit-any
function foldCandidates(re2: any): Int32Array {
  const bounds = re2.dfa?.classBounds;
  if (!(bounds instanceof Int32Array)) throw new TypeError("re2js: no class bounds");
  return bounds;
}

/** Whether a rune instruction matches a character masking or decoding may put in a line. */
function takesMask(inst: Re2Inst): boolean {
  if (inst.op === RUNE_ANY || inst.op === RUNE_ANY_NOT_NL) return true;
  if (typeof inst.matchRune !== "function") throw new TypeError("re2js: no matchRune");
  return MASK_CHARS.some((c) => inst.matchRune(c));
}

/** Builds a {@linkcode ByteProgram} node by node. */
class Builder {
  kind: number[] = [];
  out: number[] = [];
  arg: number[] = [];
  /** Each node's edges, [lo, hi, to, …]. */
  edges: number[][] = [];
  foldBounds: Int32Array | null = null;
  seqCache = new Map<string, number[][]>();
  /** Byte sequences placed so far (the program's size, bounded by {@linkcode MAX_SEQUENCES}). */
  cost = 0;

  /** @param relax Build the relaxed program ({@linkcode compileByteProgram}). */
  constructor(n: number, readonly relax = false) {
    for (let i = 0; i < n; i++) this.node(K_FAIL, 0, 0);
  }

  node(kind: number, out: number, arg: number): number {
    this.kind.push(kind);
    this.out.push(out);
    this.arg.push(arg);
    this.edges.push([]);
    return this.kind.length - 1;
  }

  /** Instruction `pc`; false for one not supported. */
  add(pc: number, inst: Re2Inst, bounds: () => Int32Array): boolean {
    const { op, out, arg } = inst;
    const set = (kind: number, o: number, a: number) => {
      this.kind[pc] = kind;
      this.out[pc] = o;
      this.arg[pc] = a;
    };
    if (op === OP.ALT || op === OP.ALT_MATCH) set(K_ALT, out, arg);
    else if (op === OP.CAPTURE || op === OP.NOP) set(K_NOP, out, 0);
    else if (op === OP.EMPTY_WIDTH) {
      const a = this.relax ? arg & ~(EMPTY_WORD_BOUNDARY | EMPTY_NO_WORD_BOUNDARY) : arg;
      if (a === 0) set(K_NOP, out, 0);
      else set(K_EMPTY, out, a);
    } else if (op >= RUNE && op <= RUNE_ANY_NOT_NL && this.relax && takesMask(inst)) {
      // Any run of bytes but \n, then `out`: a choice between `out` and one more byte back to here.
      const loop = this.node(K_BYTES, 0, 0);
      this.edges[loop].push(0x00, 0x09, pc, 0x0b, 0xff, pc);
      set(K_ALT, out, loop);
    } else if (op === OP.MATCH) set(K_MATCH, 0, 0);
    else if (op === OP.FAIL) set(K_FAIL, 0, 0);
    else if (op >= RUNE && op <= RUNE_ANY_NOT_NL) {
      const ranges = this.runeRanges(inst, bounds);
      if (!ranges) return false;
      set(K_BYTES, out, 0);
      this.trie(pc, ranges, out, inst.matchRune(0xfffd));
    } else return false;
    return typeof out === "number" && out >= 0 && typeof arg === "number";
  }

  /** The runes instruction `inst` matches, as sorted ranges [lo, hi, …]; null when not understood. */
  runeRanges(inst: Re2Inst, bounds: () => Int32Array): number[] | null {
    const { op, runes } = inst;
    if (op === RUNE_ANY) return [0, 0x10ffff];
    if (op === RUNE_ANY_NOT_NL) return [0, 9, 11, 0x10ffff];
    if (!(runes instanceof Int32Array)) return null;
    if (runes.length === 1) {
      const r0 = runes[0];
      if (op === RUNE1 || (inst.arg & FOLD_CASE) === 0) return [r0, r0];
      this.foldBounds ??= bounds();
      const members = new Set<number>([r0]);
      if ((r0 | 0x20) >= 0x61 && (r0 | 0x20) <= 0x7a) members.add(r0 ^ 0x20);
      for (const c of this.foldBounds) {
        for (const r of [c - 1, c]) if (r >= 0 && inst.matchRune(r)) members.add(r);
      }
      const out: number[] = [];
      for (const r of [...members].sort((x, y) => x - y)) if (inst.matchRune(r)) out.push(r, r);
      return out;
    }
    if (runes.length % 2 !== 0 || op !== RUNE) return null;
    return Array.from(runes);
  }

  /** Edges from `root` spelling the UTF-8 of `ranges`, ending at `out`; `fffd`: any byte 0x80–0xFF too. */
  trie(root: number, ranges: number[], out: number, fffd: boolean): void {
    const inner = new Map<string, number>();
    for (const seq of this.sequences(ranges)) {
      {
        let at = root;
        let path = "";
        for (let k = 0; k < seq.length; k += 2) {
          const lo = seq[k], hi = seq[k + 1];
          if (k + 2 === seq.length) {
            this.edges[at].push(lo, hi, out);
            break;
          }
          path += `${lo}-${hi},`;
          let next = inner.get(path);
          if (next === undefined) {
            next = this.node(K_BYTES, 0, 0);
            inner.set(path, next);
            this.edges[at].push(lo, hi, next);
          }
          at = next;
        }
      }
    }
    if (fffd) this.edges[root].push(0x80, 0xff, out);
  }

  /** The UTF-8 sequences of `ranges` (`utf8_ranges.ts`), computed once for each set of ranges. */
  sequences(ranges: number[]): number[][] {
    const key = ranges.join(",");
    let seqs = this.seqCache.get(key);
    if (!seqs) {
      const found: number[][] = [];
      for (let i = 0; i < ranges.length; i += 2) {
        utf8Sequences(ranges[i], ranges[i + 1], (q) => found.push(q.slice()));
      }
      this.seqCache.set(key, seqs = found);
    }
    this.cost += seqs.length;
    return seqs;
  }

  /** The program, with its byte classes. */
  finish(start: number): ByteProgram {
    const n = this.kind.length;
    const edgeStart = new Int32Array(n), edgeEnd = new Int32Array(n);
    let total = 0;
    for (const e of this.edges) total += e.length / 3;
    const lo = new Uint8Array(total), hi = new Uint8Array(total), to = new Int32Array(total);
    const cut = new Uint8Array(257); // cut[b]: a class begins at byte b
    cut[0] = 1;
    let k = 0;
    for (let i = 0; i < n; i++) {
      edgeStart[i] = k;
      const e = this.edges[i];
      for (let j = 0; j < e.length; j += 3, k++) {
        lo[k] = e[j];
        hi[k] = e[j + 1];
        to[k] = e[j + 2];
        cut[e[j]] = 1;
        cut[e[j + 1] + 1] = 1;
      }
      edgeEnd[i] = k;
    }
    // \n and \r alone; with \b or \B, the ASCII word bytes apart from the others.
    const word = this.kind.some((k, i) =>
      k === K_EMPTY && (this.arg[i] & (EMPTY_WORD_BOUNDARY | EMPTY_NO_WORD_BOUNDARY)) !== 0
    );
    const apart = [[10, 10], [13, 13]];
    if (word) apart.push([0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]);
    for (const [a, z] of apart) {
      cut[a] = 1;
      cut[z + 1] = 1;
    }
    const classes = new Uint8Array(256);
    const sample: number[] = [];
    let c = -1;
    for (let byte = 0; byte < 256; byte++) {
      if (cut[byte]) sample[++c] = byte;
      classes[byte] = c;
    }
    return {
      start,
      kind: Uint8Array.from(this.kind),
      out: Int32Array.from(this.out),
      arg: Int32Array.from(this.arg),
      edgeStart,
      edgeEnd,
      lo,
      hi,
      to,
      classes,
      classCount: c + 1,
      sample: Uint8Array.from(sample),
    };
  }
}
