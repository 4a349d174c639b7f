/**
 * The state cache of the byte DFA (`byte_dfa.ts`, issue #26, item 1): states built on demand from a
 * pattern's byte program (`byte_dfa_compile.ts`), as RE2's DFA builds them: a state is the set of program
 * nodes alive after a byte, with the empty-width conditions known there (the line's beginning, whether the
 * last byte was an ASCII word byte); its transitions, one per byte class, are kept in one flat table (and
 * two-byte transitions beside it when the classes are few). The table is bounded: when full it is cleared
 * and rebuilt from the current state; when that happens too often, or a state is built for fewer than 16
 * bytes scanned, `failed` is set (the DFA gives up). Running it over lines is `byte_dfa.ts` `ByteDfa`.
 *
 * @module
 */

import {
  type ByteProgram,
  EMPTY_BEGIN_LINE,
  EMPTY_BEGIN_TEXT,
  EMPTY_END_LINE,
  EMPTY_END_TEXT,
  EMPTY_NO_WORD_BOUNDARY,
  EMPTY_WORD_BOUNDARY,
  K_ALT,
  K_BYTES,
  K_EMPTY,
  K_MATCH,
  K_NOP,
} from "./byte_dfa_compile.ts";

/** A transition not built yet. */
export const UNKNOWN = -1;
/** The transition on `\n`: the line ends. */
export const LINE_END = -2;
/** A state that holds a match: the line matches. */
export const MATCHED = -3;
/** State flag: the last byte was an ASCII word byte (above the empty-width bits). */
const LAST_WORD = 0x100;
/** The most bytes of transition tables (4 bytes an entry), so that a search stays within its memory. */
const TABLE_BYTES = 4 << 20;
/** The most states kept at once (RE2 bounds its cache by memory; this bounds the time to fill it too). */
const MAX_STATES = 10_000;
/**
 * The give-up rule on building: past {@linkcode FREE_BUILDS} states, fewer than this many bytes scanned
 * per state built means the DFA costs more than it saves (a pattern such as `[ab]*a[ab]{60}c` on random
 * `a`/`b` text builds a state at nearly every byte, each with a look at every node): it gives up, and
 * every line goes to re2js, which reads the clock between lines.
 */
const BYTES_PER_BUILD = 16;
/** States built before {@linkcode BYTES_PER_BUILD} applies (a pattern's first lines build most of its). */
const FREE_BUILDS = 1000;
/** The most entries of a state's row for two-byte transitions (32² entries a state). */
const PAIR_STRIDE = 32;
/**
 * The most bytes of two-byte transitions: past that many states they are dropped and the DFA goes on a
 * byte at a time (a pattern with that many states is rare in logs).
 */
const PAIR_BYTES = 2 << 20;

/** Whether each byte is an ASCII word byte (`[0-9A-Za-z_]`, RE2's `\b`). */
function wordBytes(): Uint8Array {
  const w = new Uint8Array(256);
  for (let b = 0; b < 256; b++) {
    w[b] = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || b === 0x5f || (b >= 0x61 && b <= 0x7a)
      ? 1
      : 0;
  }
  return w;
}

/** One DFA state: its program nodes (sorted), its flags (empty-width bits, `LAST_WORD`), those it needs. */
interface State {
  nodes: Int32Array;
  flag: number;
  need: number;
  /** A match at the end of the text here: -1 not known yet, else 0 or 1. */
  atEnd: number;
}

/**
 * The states and transitions of one pattern's lazy DFA (see the module's doc). States are named by their
 * row's first index in the table (the state's number × the row's stride); {@linkcode UNKNOWN},
 * {@linkcode LINE_END} and {@linkcode MATCHED} are the transitions that are not states.
 */
export class DfaStates {
  /** Entries a state's row has: the class count, rounded up to a power of 2 (`1 << shift`). */
  readonly stride: number;
  readonly shift: number;
  readonly maxStates: number;
  /** True once the table was rebuilt too often: every line is picked. */
  failed = false;
  /** Times the table was cleared. */
  resets = 0;
  /** Transitions built. */
  built = 0;
  protected table: Int32Array;
  /**
   * Two-byte transitions, when the classes are few ({@linkcode PAIR_STRIDE}): state `s`, classes `c1`,
   * `c2` at `(s << 2 shift) + (c1 << shift) + c2`, holding the next state's row `<< shift`, or -1 (not
   * built: then one byte at a time).
   */
  protected pairs: Int32Array | null;
  /** The most states with two-byte transitions ({@linkcode PAIR_BYTES}). */
  private readonly pairStates: number;
  private states: State[] = [];
  private known = new Map<string, number>();
  protected startRow = 0;
  private readonly word = wordBytes();
  private readonly lfClass: number;
  private readonly crClass: number;
  private mark: Int32Array;
  private stamp = 0;
  /** Bytes scanned by the calls so far, before the current call (for the give-up rule), at the last clear. */
  protected scanned = 0;
  protected callBase = 0;
  private scannedAtReset = 0;

  /**
   * @param prog The pattern's byte program (`byte_dfa_compile.ts` `compileByteProgram`).
   * @param maxTested Lines longer than this (bytes) are always picked (`TESTED_BYTES`).
   * @param tableBytes The most bytes of transition table (default 4 MiB).
   */
  constructor(readonly prog: ByteProgram, readonly maxTested: number, tableBytes = TABLE_BYTES) {
    this.shift = Math.max(1, Math.ceil(Math.log2(prog.classCount)));
    this.stride = 1 << this.shift;
    const pairs = this.stride <= PAIR_STRIDE;
    this.pairStates = Math.floor(PAIR_BYTES / (4 * this.stride * this.stride));
    this.maxStates = Math.max(16, Math.min(MAX_STATES, Math.floor(tableBytes / (4 * this.stride))));
    this.table = new Int32Array(Math.min(this.maxStates, 64) * this.stride);
    this.pairs = pairs ? new Int32Array(this.table.length * this.stride).fill(UNKNOWN) : null;
    this.lfClass = prog.classes[10];
    this.crClass = prog.classes[13];
    this.mark = new Int32Array(prog.kind.length);
    this.startRow = this.intern([prog.start], EMPTY_BEGIN_TEXT | EMPTY_BEGIN_LINE, 0);
  }

  /**
   * Keeps the two-byte transition from state `row` on classes `c1`, `c2` when both one-byte transitions
   * are known states; true when it did.
   */
  protected pair(row: number, c1: number, c2: number): boolean {
    const a = this.table[row + c1];
    if (a < 0) return false;
    const b = this.table[a + c2];
    if (b < 0) return false;
    this.pairs![(row << this.shift) + (c1 << this.shift) + c2] = b << this.shift;
    return true;
  }

  /** A match at the end of the text in state `row`. */
  protected atEnd(row: number): boolean {
    const s = this.states[row / this.stride];
    if (s.atEnd < 0) s.atEnd = this.matchBefore(s, EMPTY_END_LINE | EMPTY_END_TEXT, false) ? 1 : 0;
    return s.atEnd === 1;
  }

  /** Whether state `s` holds a match before a byte (`isWord`: a word byte) or the text's end (`extra`). */
  private matchBefore(s: State, extra: number, isWord: boolean): boolean {
    const old = s.flag & 0xff;
    let before = old | extra;
    before |= isWord === ((s.flag & LAST_WORD) !== 0) ? EMPTY_NO_WORD_BOUNDARY : EMPTY_WORD_BOUNDARY;
    let nodes = s.nodes;
    if ((before & ~old & s.need) !== 0) nodes = this.closure(Array.from(nodes), before).nodes;
    const kind = this.prog.kind;
    for (let i = 0; i < nodes.length; i++) if (kind[nodes[i]] === K_MATCH) return true;
    return false;
  }

  /**
   * Builds the transition from state `row` on byte class `cls` and keeps it (unless the table was just
   * cleared). A `\r` first checks a match at the end of the text.
   *
   * @param at Bytes scanned so far in this call (for the give-up rule).
   * @returns The next state's row, or {@linkcode MATCHED}.
   */
  protected build(row: number, cls: number, at: number): number {
    if (++this.built > FREE_BUILDS && this.built * BYTES_PER_BUILD > this.callBase + at) this.failed = true;
    const s = this.states[row / this.stride];
    const byte = this.prog.sample[cls];
    const isWord = this.word[byte] === 1;
    let next: number;
    if (cls === this.crClass && this.atEnd(row)) next = MATCHED;
    else if (this.matchBefore(s, 0, isWord)) next = MATCHED;
    else {
      const { kind, edgeStart, edgeEnd, lo, hi, to } = this.prog;
      const old = s.flag & 0xff;
      let before = old |
        (isWord === ((s.flag & LAST_WORD) !== 0) ? EMPTY_NO_WORD_BOUNDARY : EMPTY_WORD_BOUNDARY);
      if ((before & ~old & s.need) === 0) before = old;
      const nodes = before === old ? s.nodes : this.closure(Array.from(s.nodes), before).nodes;
      const targets: number[] = [];
      for (let i = 0; i < nodes.length; i++) {
        const n = nodes[i];
        if (kind[n] !== K_BYTES) continue;
        for (let k = edgeStart[n]; k < edgeEnd[n]; k++) {
          if (lo[k] <= byte && byte <= hi[k]) targets.push(to[k]);
        }
      }
      targets.push(this.prog.start);
      const cleared = this.resets;
      next = this.intern(targets, isWord ? LAST_WORD : 0, at);
      if (this.resets !== cleared) return next; // `row` is gone
    }
    this.table[row + cls] = next;
    return next;
  }

  /** The closure of `nodes` under the empty-width conditions `flag`: the nodes kept, those they need. */
  private closure(nodes: number[], flag: number): { nodes: Int32Array; need: number } {
    const { kind, out, arg } = this.prog;
    const mark = this.mark;
    const stamp = ++this.stamp;
    const kept: number[] = [];
    let need = 0;
    const stack = nodes.slice();
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n === 0 || mark[n] === stamp) continue;
      mark[n] = stamp;
      const k = kind[n];
      if (k === K_ALT) stack.push(arg[n], out[n]);
      else if (k === K_NOP) stack.push(out[n]);
      else if (k === K_EMPTY) {
        kept.push(n);
        need |= arg[n];
        if ((arg[n] & ~flag) === 0) stack.push(out[n]);
      } else if (k === K_BYTES || k === K_MATCH) kept.push(n);
    }
    return { nodes: Int32Array.from(kept.sort((a, b) => a - b)), need };
  }

  /** The row of the state of `nodes` (closed under `flag`'s empty-width bits), built when new. */
  private intern(nodes: number[], flag: number, at: number): number {
    const c = this.closure(nodes, flag & 0xff);
    const stateFlag = c.need === 0 ? 0 : flag;
    const key = `${stateFlag}:${c.nodes.join(",")}`;
    const row = this.known.get(key);
    if (row !== undefined) return row;
    if (this.states.length >= this.maxStates) this.clear(at);
    return this.add(key, { nodes: c.nodes, flag: stateFlag, need: c.need, atEnd: -1 });
  }

  /** A new state's row (the table grows by doubling, up to `maxStates`). */
  private add(key: string, s: State): number {
    const row = this.states.length * this.stride;
    if (this.states.length >= this.pairStates) this.pairs = null;
    if (row + this.stride > this.table.length) {
      const grown = new Int32Array(Math.min(this.maxStates * this.stride, this.table.length * 2));
      grown.set(this.table);
      grown.fill(UNKNOWN, this.table.length);
      this.table = grown;
      if (this.pairs) {
        const more = new Int32Array(grown.length * this.stride).fill(UNKNOWN);
        more.set(this.pairs);
        this.pairs = more;
      }
    }
    this.table.fill(UNKNOWN, row, row + this.stride);
    this.pairs?.fill(UNKNOWN, row * this.stride, (row + this.stride) * this.stride);
    this.table[row + this.lfClass] = LINE_END;
    this.states.push(s);
    this.known.set(key, row);
    return row;
  }

  /** The table is full: cleared (the start state built again); gives up when this comes too often. */
  private clear(at: number): void {
    const scanned = this.callBase + at;
    if (this.resets > 0 && scanned - this.scannedAtReset < 10 * this.maxStates) this.failed = true;
    this.resets++;
    this.scannedAtReset = scanned;
    this.states = [];
    this.known.clear();
    this.startRow = 0;
    this.startRow = this.intern([this.prog.start], EMPTY_BEGIN_TEXT | EMPTY_BEGIN_LINE, at);
  }
}
