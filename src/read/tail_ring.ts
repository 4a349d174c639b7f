/**
 * The lines a tail keeps (`tail.ts` `tailLog`): the last `lines` lines of the level asked for, each as a
 * copy of its first `keepBytes` bytes in a ring of slots made once, and the one line held back (a stamped
 * line with no level may get its level from the line after it).
 *
 * @module
 */

import { levelCode } from "./entry_levels.ts";

/** A line kept: a copy of its first bytes, its number, whether it was cut, and its level. */
export interface Kept {
  /** The line's first bytes (at most `keepBytes`), in `bytes[0, len)`. */
  bytes: Uint8Array;
  /** Bytes of it kept; -1 in the held slot when nothing is held. */
  len: number;
  lineNo: number;
  /** True when the line is longer than what was kept. */
  cut: boolean;
  /** Its level as its entry's (`EntryLevels.levelAt`). */
  code: number;
}

/**
 * The last `lines` lines of a level, oldest overwritten first. Memory: at most `lines + 1` copies of
 * `keepBytes` bytes.
 */
export class TailRing {
  readonly #ring: Kept[] = [];
  /** The ring slot the next line goes to. */
  #next = 0;
  /** The line held (a stamped line with no level, in the window), until the line after it is read. */
  readonly held: Kept;

  /**
   * @param lines How many lines are kept at most (≥ 1).
   * @param keepBytes The most bytes of one line kept (`4 × maxLine + 1`).
   * @param want The level code kept (`LEVELS` index), -1 for every level.
   */
  constructor(readonly lines: number, readonly keepBytes: number, readonly want: number) {
    this.held = { bytes: new Uint8Array(keepBytes), len: -1, lineNo: 0, cut: false, code: 0 };
  }

  /** Keeps the line `bytes[s, e)` (its first `keepBytes`) when it is of the level wanted. */
  keep(bytes: Uint8Array, s: number, e: number, lineNo: number, cut: boolean, code: number): void {
    if (this.want >= 0 && levelCode(code) !== this.want) return;
    let slot = this.#ring[this.#next];
    if (!slot) {
      slot = this.#ring[this.#next] = {
        bytes: new Uint8Array(this.keepBytes),
        len: 0,
        lineNo: 0,
        cut: false,
        code: 0,
      };
    }
    copyInto(slot, bytes, s, e, lineNo, cut, code);
    this.#next = (this.#next + 1) % this.lines;
  }

  /** Holds the line `bytes[s, e)` until the next is read ({@linkcode TailRing.release}). */
  hold(bytes: Uint8Array, s: number, e: number, lineNo: number, cut: boolean, code: number): void {
    copyInto(this.held, bytes, s, e, lineNo, cut, code);
  }

  /** Keeps the held line, if any (with its level as it stands now). */
  release(): void {
    const held = this.held;
    if (held.len >= 0) this.keep(held.bytes, 0, held.len, held.lineNo, held.cut, held.code);
    held.len = -1;
  }

  /** The lines kept, oldest first. */
  ordered(): Kept[] {
    const ring = this.#ring, next = this.#next;
    return ring.length < this.lines ? ring : [...ring.slice(next), ...ring.slice(0, next)];
  }
}

/** Copies the first `slot.bytes.length` bytes of `bytes[s, e)` and the line's facts into `slot`. */
function copyInto(
  slot: Kept,
  bytes: Uint8Array,
  s: number,
  e: number,
  lineNo: number,
  cut: boolean,
  code: number,
): void {
  const len = Math.min(e - s, slot.bytes.length);
  slot.bytes.set(bytes.subarray(s, s + len));
  slot.len = len;
  slot.lineNo = lineNo;
  slot.cut = cut || len < e - s;
  slot.code = code;
}
