/**
 * Context lines for a search (issue #12): the lines before and after each match, each line given once,
 * merged the way GNU grep's `-C N` merges them, within a fixed memory bound.
 *
 * The scanner hands the collector every line of the file, in order: a match to
 * {@linkcode ContextCollector.match}, any other line to {@linkcode ContextCollector.other}. The rule
 * (GNU grep 3.x, `grep -C N`; `src/grep.c` `prtext`/`prpending`):
 *
 * - a match's `after` takes the lines that follow it, up to N, until the next match: a match inside
 *   them ends them, and starts its own `after` (so a run of matches shows up to N lines after the last);
 * - a match's `before` takes up to N of the lines just before it that no earlier match took as `after`
 *   (a line is shown once, never as both one match's `after` and the next one's `before`);
 * - two matches whose shown lines touch or overlap form one group; between groups grep prints `--`,
 *   which `adjoins` tells (false: at least one line lies unshown between this match's first shown line
 *   and the previous match's last). With N = 0, `before` and `after` are always empty and `adjoins` is
 *   true only for a match on the line right after the previous match (`grep -C 0` prints `--` between
 *   any two matches that are not adjacent).
 *
 * Memory: N slots of `keepBytes` bytes each (one buffer, allocated when first needed, then reused),
 * plus the `T`s made for the returned lines (at most 2N per match). Only a line's first `keepBytes`
 * bytes are kept; a longer line is marked cut, as `tail.ts` keeps its window's lines.
 *
 * @module
 */

/** One match's context: its lines before and after, each made by the collector's `make`, oldest first. */
export interface WithContext<T> {
  /** The lines just before the match (at most N), not already given as an earlier match's `after`. */
  before: T[];
  /**
   * The lines just after the match (at most N), up to the next match; filled by later
   * {@linkcode ContextCollector.other} calls (so it is complete only once the next match came, the
   * scan ended, or {@linkcode ContextCollector.wantsAfter} turned false).
   */
  after: T[];
  /**
   * Set by {@linkcode ContextCollector.match}: true when this match's first shown line (its first
   * `before` line, or the match itself) comes right after the previous match's last shown line (its last
   * `after` line, or that match), so both belong to one group (no `--` between them, as `grep -C`
   * prints); false for the first match, or when a line lies unshown between them. Optional so that a
   * caller may build a `WithContext` without a collector; the renderer then falls back on line numbers.
   */
  adjoins?: boolean;
}

/**
 * Makes a returned line from a kept line's bytes.
 *
 * @param bytes Holds the line's bytes at `[0, len)`; valid only during the call (a ring slot, or the
 *   scanner's buffer, reused afterwards): copy or decode what you keep.
 * @param len How many bytes: at most the collector's `keepBytes`.
 * @param lineNo The line's 1-based number, or null when unknown.
 * @param cut True when `bytes` holds only the line's first bytes (cut by the scanner, or at `keepBytes`).
 * @param code What the caller handed with the line to {@linkcode ContextCollector.other} (a search: its
 *   level as its entry's, `entry_levels.ts`), or -1.
 */
export type MakeLine<T> = (
  bytes: Uint8Array,
  len: number,
  lineNo: number | null,
  cut: boolean,
  code: number,
) => T;

/**
 * Collects the context lines of each match, as grep `-C N` shows them (the rule is in this module's
 * comment). Feed it every line of a file, in file order, each once; use one collector per file (or
 * {@linkcode ContextCollector.reset} between files: a group never spans two files).
 *
 * @typeParam T What a returned line is (logpeek: a `LogLine`, made with `log_line.ts` `toLogLine`).
 * @example
 * ```ts
 * import { ContextCollector } from "./context.ts";
 * const dec = new TextDecoder();
 * const c = new ContextCollector(1, 100, (b, len) => dec.decode(b.subarray(0, len)));
 * const lines = ["a", "b", "MATCH", "c", "d"].map((s) => new TextEncoder().encode(s));
 * let m;
 * lines.forEach((l, i) => {
 *   if (dec.decode(l) === "MATCH") m = c.match(i + 1);
 *   else c.other(l, 0, l.length, i + 1, false);
 * });
 * console.assert(m!.before.join() === "b" && m!.after.join() === "c");
 * ```
 */
export class ContextCollector<T> {
  /** N: the most lines before and after each match. */
  readonly n: number;
  /** The most bytes kept of one line (logpeek: `LOGPEEK_MAX_LINE × 4 + 1`, as `tail.ts` keeps). */
  readonly keepBytes: number;
  #make: MakeLine<T>;
  /** The ring: slot k holds a line's first bytes at `[k × keepBytes, k × keepBytes + lens[k])`. */
  #ring: Uint8Array | null = null;
  /** Each slot's length, line number (NaN: unknown) and cut flag (1: cut). */
  #lens: Int32Array;
  #nos: Float64Array;
  #cuts: Uint8Array;
  /** Each slot's `code` (see {@linkcode MakeLine}). */
  #codes: Int16Array;
  /** The slot the next line goes to. */
  #next = 0;
  /** How many lines the ring holds (at most n). */
  #size = 0;
  /** Lines put in the ring since the last match (more than n: some were dropped unshown). */
  #ringed = 0;
  /** The last match's context, whose `after` may still grow; null before the first match. */
  #last: WithContext<T> | null = null;
  /** The number of the last line handed in (other or match), null when unknown or none yet. */
  #prevNo: number | null = null;

  /**
   * @param n The most lines before and after each match: an integer ≥ 0 (`log_search` allows 0..10).
   * @param keepBytes The most bytes kept of one line: an integer ≥ 1.
   * @param make Makes a returned line from a kept line ({@linkcode MakeLine}); called by `other` for an
   *   `after` line and by `match` for each `before` line.
   * @throws {RangeError} When `n` or `keepBytes` is not such an integer.
   */
  constructor(n: number, keepBytes: number, make: MakeLine<T>) {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`context must be an integer ≥ 0, not ${n}`);
    if (!Number.isSafeInteger(keepBytes) || keepBytes < 1) {
      throw new RangeError(`keepBytes must be an integer ≥ 1, not ${keepBytes}`);
    }
    this.n = n;
    this.keepBytes = keepBytes;
    this.#make = make;
    this.#lens = new Int32Array(n);
    this.#nos = new Float64Array(n);
    this.#cuts = new Uint8Array(n);
    this.#codes = new Int16Array(n);
  }

  /**
   * A line that is not a match: appended to the last match's `after` while that has fewer than N lines
   * (and no later match came); otherwise kept in the ring (its first `keepBytes` bytes copied into a
   * preallocated slot, the oldest line dropped when the ring is full), for the next match's `before`.
   *
   * @param buf Holds the line at `[start, end)`, without its end of line; read only during the call.
   * @param start Offset of the line's first byte.
   * @param end Offset past its last byte.
   * @param lineNo The line's 1-based number, or null when unknown.
   * @param cut True when `buf` holds only the line's first bytes (the scanner streamed a long line).
   * @param code Handed to `make` with the line (a small integer, -32768..32767); default -1.
   * @throws {RangeError} When `lineNo` and the previous line's number are both known and `lineNo` is not
   *   the next one (a line skipped or handed twice would make the context wrong).
   */
  other(buf: Uint8Array, start: number, end: number, lineNo: number | null, cut: boolean, code = -1): void {
    this.#follow(lineNo);
    const whole = end - start;
    const len = whole < this.keepBytes ? whole : this.keepBytes;
    const last = this.#last;
    if (last !== null && last.after.length < this.n) {
      last.after.push(this.#make(buf.subarray(start, start + len), len, lineNo, cut || len < whole, code));
      return;
    }
    this.#ringed++;
    const n = this.n;
    if (n === 0) return;
    // One buffer for all slots, allocated once, and typed arrays beside it: 4 to 5 times faster than an
    // object per slot (`bench/context_micro.ts`).
    const ring = this.#ring ??= new Uint8Array(n * this.keepBytes);
    const k = this.#next;
    ring.set(buf.subarray(start, start + len), k * this.keepBytes);
    this.#lens[k] = len;
    this.#nos[k] = lineNo ?? NaN;
    this.#cuts[k] = cut || len < whole ? 1 : 0;
    this.#codes[k] = code;
    this.#next = this.#next + 1 === n ? 0 : this.#next + 1;
    if (this.#size < n) this.#size++;
  }

  /**
   * A match: returns its context. `before` holds the ring's lines (at most N, oldest first: those
   * just before the match that no earlier match took as `after`), made now; `after` is empty and is
   * filled by the next `other` calls. The ring is cleared.
   *
   * @param lineNo The match's 1-based number, or null when unknown.
   * @returns The match's context, with `adjoins` set (see {@linkcode WithContext.adjoins}).
   * @throws {RangeError} As {@linkcode ContextCollector.other}, when `lineNo` is not the next line's.
   */
  match(lineNo: number | null): WithContext<T> {
    this.#follow(lineNo);
    const n = this.n;
    const before: T[] = [];
    let i = this.#size === n ? this.#next : 0;
    for (let k = 0; k < this.#size; k++) {
      const at = i * this.keepBytes;
      const len = this.#lens[i];
      const no = this.#nos[i];
      before.push(
        this.#make(
          this.#ring!.subarray(at, at + len),
          len,
          Number.isNaN(no) ? null : no,
          this.#cuts[i] === 1,
          this.#codes[i],
        ),
      );
      i = i + 1 === n ? 0 : i + 1;
    }
    const adjoins = this.#last !== null && this.#ringed <= n;
    this.#next = 0;
    this.#size = 0;
    this.#ringed = 0;
    const ctx: WithContext<T> = { before, after: [], adjoins };
    this.#last = ctx;
    return ctx;
  }

  /**
   * True while the last match's `after` still wants lines (fewer than N so far). A search that reached
   * its match limit goes on handing lines to `other` until this is false, then stops: the last match
   * then has its full `after`, as `grep -m M -C N` prints trailing context after its M-th match (a line
   * that matches but is past the limit may be handed to `other`: it is then shown as context).
   */
  wantsAfter(): boolean {
    return this.#last !== null && this.#last.after.length < this.n;
  }

  /** Forgets the ring, the last match and the last line number (the slots are kept): for the next file. */
  reset(): void {
    this.#next = 0;
    this.#size = 0;
    this.#ringed = 0;
    this.#last = null;
    this.#prevNo = null;
  }

  /** Checks that `lineNo` follows the previous line's number when both are known. */
  #follow(lineNo: number | null): void {
    const prev = this.#prevNo;
    if (prev !== null && lineNo !== null && lineNo !== prev + 1) {
      throw new RangeError(
        `context lines must be handed every line in order: line ${lineNo} came after line ${prev}`,
      );
    }
    this.#prevNo = lineNo;
  }
}
