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
import { type ByteProgram, compileByteProgram } from "./byte_dfa_compile.ts";
import { DfaStates, LINE_END, MATCHED, UNKNOWN } from "./byte_dfa_states.ts";

export { MATCHED } from "./byte_dfa_states.ts";

/**
 * The lazy DFA of one pattern (see the module's doc), run over lines: its states are
 * `byte_dfa_states.ts` `DfaStates`. Offsets are bytes in the buffer given.
 */
export class ByteDfa extends DfaStates {
  /** Where the last {@linkcode scan} left off: the start of the line it was in, lines passed over. */
  lineStart = 0;
  lines = 0;
  /** The state at the end of the last {@linkcode scan} (a row, or {@linkcode MATCHED}). */
  state = 0;

  /**
   * @param prog The pattern's byte program (`byte_dfa_compile.ts` `compileByteProgram`).
   * @param maxTested Lines longer than this (bytes) are always picked (`TESTED_BYTES`).
   * @param tableBytes The most bytes of transition table (default 4 MiB).
   */
  constructor(prog: ByteProgram, maxTested: number, tableBytes?: number) {
    super(prog, maxTested, tableBytes);
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
    return this.verdict(buf, s, e) !== NO_MATCH;
  }

  /**
   * {@linkcode mayMatch}, told apart: {@linkcode NO_MATCH} (re2js finds no match on these bytes),
   * {@linkcode SURE_MATCH} (the DFA reached a match by a byte other than `\r`, or at the line's end: for
   * a line of ASCII bytes re2js finds one too, since the byte program accepts more than re2js only by
   * bytes 0x80–0xFF, `byte_dfa_compile.ts`, and a `\r` checks a match at the end of the text there,
   * which re2js does not), or {@linkcode MAY_MATCH} (the DFA gave up, the line is over `maxTested`, or a
   * `\r` ended it). For a line with a byte over 0x7f, {@linkcode SURE_MATCH} means only "may".
   */
  verdict(buf: Uint8Array, s: number, e: number): number {
    if (this.failed || e - s > this.maxTested) return MAY_MATCH;
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
      if (i >= e) return this.atEnd(st) ? SURE_MATCH : NO_MATCH;
      if (i >= stop) continue;
      if (next === MATCHED) return buf[i] === 13 ? MAY_MATCH : SURE_MATCH;
      if (next !== UNKNOWN) return MAY_MATCH; // a line feed (not in a line: "may")
      next = this.build(st, classes[buf[i]], i - s);
      if (next === MATCHED && !this.failed) return buf[i] === 13 ? MAY_MATCH : SURE_MATCH;
      if (next < 0 || this.failed) return MAY_MATCH;
      st = next;
      i++;
    }
  }
}

/** {@linkcode ByteDfa.verdict}: the line surely does not match. */
export const NO_MATCH = 0;
/** {@linkcode ByteDfa.verdict}: the line may match (re2js decides). */
export const MAY_MATCH = 1;
/** {@linkcode ByteDfa.verdict}: the line matches, if it is ASCII (else it may). */
export const SURE_MATCH = 2;

/**
 * The lazy DFA of a compiled pattern, or null when its program cannot be read or uses what the byte
 * program does not support (`byte_dfa_compile.ts`): then every line is tested by re2js.
 *
 * @param re A pattern compiled by `pattern.ts` `compilePattern`.
 * @param maxTested Lines longer than this (bytes) are always picked (`TESTED_BYTES`).
 * @param relax The DFA of what a line must hold as read to match as shown (`byte_dfa_compile.ts`
 *   `compileByteProgram`): a line it passes over cannot match the pattern with masking on either.
 */
export function lineDfa(re: RE2JS, maxTested: number, relax = false): ByteDfa | null {
  const prog = compileByteProgram(re, relax);
  return prog ? new ByteDfa(prog, maxTested) : null;
}
