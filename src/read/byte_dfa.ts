/**
 * A lazy DFA over bytes (issue #26, item 1): a pattern's byte program (`byte_dfa_compile.ts`) run over
 * the scanner's buffer across many lines in one loop, without decoding, to pick the lines that may match.
 * It follows RE2's DFA (and re2js's port of it): a state is the set of program nodes alive after a byte,
 * with the empty-width conditions known at that point (beginning of the line, whether the last byte was
 * an ASCII word byte), built on demand; its transitions, one per byte class, are kept in one flat table.
 * The search is unanchored (the program's start is added after every byte); a line's end checks a match
 * at the end of the text (`$`, `\z`, `\b`), then the next line starts from the start state. A `\r` also
 * checks a match at the end of the text there, since a `\r` before `\n` is not part of the line.
 *
 * It is a prefilter: a line it passes over cannot match (re2js, on the same bytes); a line it picks may
 * (its program accepts a little more than re2js: `byte_dfa_compile.ts`), and re2js decides. Lines longer
 * than `maxTested` bytes are always picked (re2js tests only their first bytes, where `$` may then match).
 * The table is bounded: when full it is cleared and rebuilt from the current state, as RE2 does; when that
 * happens too often (fewer than 10 bytes per state between two clears), or when it builds a state for
 * fewer than 16 bytes scanned, the DFA gives up and picks every line.
 *
 * @module
 */

import type { RE2JS } from "re2js";
import {
  type ByteProgram,
  compileByteProgram,
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
const UNKNOWN = -1;
/** The transition on `\n`: the line ends. */
const LINE_END = -2;
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
 * The lazy DFA of one pattern (see the module's doc). Offsets are bytes in the buffer given; states are
 * named by their row's first index in the table (the state's number × the class count).
 */
export class ByteDfa {
  /** Entries a state's row has: the class count, rounded up to a power of 2 (`1 << shift`). */
  readonly stride: number;
  readonly shift: number;
  readonly maxStates: number;
  /** Where the last {@linkcode scan} left off: the start of the line it was in, lines passed over. */
  lineStart = 0;
  lines = 0;
  /** The state at the end of the last {@linkcode scan} (a row, or {@linkcode MATCHED}). */
  state = 0;
  /** True once the table was rebuilt too often: every line is picked. */
  failed = false;
  /** Times the table was cleared. */
  resets = 0;
  /** Transitions built. */
  built = 0;
  private table: Int32Array;
  /**
   * Two-byte transitions, when the classes are few ({@linkcode PAIR_STRIDE}): state `s`, classes `c1`,
   * `c2` at `(s << 2 shift) + (c1 << shift) + c2`, holding the next state's row `<< shift`, or -1 (not
   * built: then one byte at a time).
   */
  private pairs: Int32Array | null;
  /** The most states with two-byte transitions ({@linkcode PAIR_BYTES}). */
  private readonly pairStates: number;
  private states: State[] = [];
  private known = new Map<string, number>();
  private startRow = 0;
  private readonly word = wordBytes();
  private readonly lfClass: number;
  private readonly crClass: number;
  private mark: Int32Array;
  private stamp = 0;
  /** Bytes scanned by the calls so far, before the current call (for the give-up rule), at the last clear. */
  private scanned = 0;
  private callBase = 0;
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
    this.restart();
  }

  /** The next scan starts a line, in the start state. */
  restart(): void {
    this.state = this.startRow;
  }

  /**
   * Scans `buf[pos, end)`, in the current state (`state`) of the line that starts at `ls`, over lines
   * that cannot match, up to the first that may.
   *
   * @param buf The bytes.
   * @param ls Where the line being scanned starts (`pos` when {@linkcode restart} was called before).
   * @param pos Where to go on from.
   * @param end The end of the valid bytes.
   * @returns The line feed that ends the first line that may match (its start in `lineStart`, the lines
   *   passed over before it in `lines`; the next scan starts a line), or -1 at `end` (`lineStart`: the
   *   unfinished line's start; `state`: where it stands, for a scan that goes on with the next bytes).
   */
  scan(buf: Uint8Array, ls: number, pos: number, end: number): number {
    const { classes } = this.prog;
    const shift = this.shift;
    let st = this.state, lines = 0, i = pos;
    this.callBase = this.scanned;
    this.scanned += end - pos;
    while (true) {
      if (st === MATCHED || this.failed) {
        const nl = buf.indexOf(10, i);
        return this.found(nl >= 0 && nl < end ? nl : -1, ls, lines, MATCHED);
      }
      const { table, pairs } = this;
      let stop = end;
      if (pairs) {
        // Two bytes a step while both transitions are known (one load on the path from state to state).
        let p = st << shift;
        for (; i + 1 < end; i += 2) {
          const nx = pairs[p + (classes[buf[i]] << shift) + classes[buf[i + 1]]];
          if (nx < 0) break;
          p = nx;
        }
        st = p >> shift;
        if (i + 1 < end && this.pair(st, classes[buf[i]], classes[buf[i + 1]])) continue;
        stop = Math.min(end, i + 1); // one byte alone, then pairs again
      }
      let next = 0;
      for (; i < stop; i++) {
        next = table[st + classes[buf[i]]];
        if (next < 0) break;
        st = next;
      }
      if (i >= end) return this.found(-1, ls, lines, st);
      if (i >= stop) continue;
      if (next === LINE_END) {
        if (i - ls > this.maxTested || this.atEnd(st)) return this.found(i, ls, lines, st);
        lines++;
        ls = ++i;
        st = this.startRow;
      } else {
        st = this.build(st, classes[buf[i]], i - pos);
        i++;
        if (st === MATCHED) i--; // looks for the line feed from here
      }
    }
  }

  /**
   * Keeps the two-byte transition from state `row` on classes `c1`, `c2` when both one-byte transitions
   * are known states; true when it did.
   */
  private pair(row: number, c1: number, c2: number): boolean {
    const a = this.table[row + c1];
    if (a < 0) return false;
    const b = this.table[a + c2];
    if (b < 0) return false;
    this.pairs![(row << this.shift) + (c1 << this.shift) + c2] = b << this.shift;
    return true;
  }

  /** The end of {@linkcode scan}: -1 keeps `st` for the next call, a line feed starts a line after it. */
  private found(nl: number, ls: number, lines: number, st: number): number {
    this.lineStart = ls;
    this.lines = lines;
    this.state = nl < 0 ? st : this.startRow;
    return nl;
  }

  /**
   * Whether the line `buf[s, e)` (no `\n` in it) may match: the same DFA, on one line (for tests, and
   * for a line handed on otherwise).
   */
  mayMatch(buf: Uint8Array, s: number, e: number): boolean {
    if (this.failed || e - s > this.maxTested) return true;
    const { classes } = this.prog;
    const shift = this.shift;
    let st = this.startRow, i = s;
    this.callBase = this.scanned;
    this.scanned += e - s;
    while (true) {
      const { table, pairs } = this; // (a build may have grown them)
      let stop = e;
      if (pairs) {
        // Two bytes a step while both transitions are known, as in `scan`.
        let p = st << shift;
        for (; i + 1 < e; i += 2) {
          const nx = pairs[p + (classes[buf[i]] << shift) + classes[buf[i + 1]]];
          if (nx < 0) break;
          p = nx;
        }
        st = p >> shift;
        if (i + 1 < e && this.pair(st, classes[buf[i]], classes[buf[i + 1]])) continue;
        stop = Math.min(e, i + 1);
      }
      let next = 0;
      for (; i < stop; i++) {
        next = table[st + classes[buf[i]]];
        if (next < 0) break;
        st = next;
      }
      if (i >= e) return this.atEnd(st);
      if (i >= stop) continue;
      if (next !== UNKNOWN) return true; // MATCHED, or a line feed (not in a line: "may")
      next = this.build(st, classes[buf[i]], i - s);
      if (next < 0 || this.failed) return true;
      st = next;
      i++;
    }
  }

  /** A match at the end of the text in state `row`. */
  private atEnd(row: number): boolean {
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
  private build(row: number, cls: number, at: number): number {
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

/**
 * The lazy DFA of a compiled pattern, or null when its program cannot be read or uses what the byte
 * program does not support (`byte_dfa_compile.ts`): then every line is tested by re2js.
 *
 * @param re A pattern compiled by `pattern.ts` `compilePattern`.
 * @param maxTested Lines longer than this (bytes) are always picked (`TESTED_BYTES`).
 */
export function lineDfa(re: RE2JS, maxTested: number): ByteDfa | null {
  const prog = compileByteProgram(re);
  return prog ? new ByteDfa(prog, maxTested) : null;
}
