/**
 * A line's level as `log_levels` counts it (`level.ts` `LevelTally`: a continuation line, such as a stack
 * frame, under the level of the entry it continues), for readers that do not see every line from the
 * file's start: `log_tail` (which reads a window at the file's end) and `log_search` (whose scanner hands
 * on only the lines that hold the text).
 *
 * Which lines fix the state a line's level depends on, as `LevelTally` reads them (a "stamped" line has a
 * digit near its start, or is a JSON record, or names a level field; see `level.ts`):
 * 1. a stamped line with a level: an entry of that level, whatever came before;
 * 2. an unstamped line with a level: an entry of that level, unless the line before it is a stamped line
 *    with no level (then it gives that line its level and continues it: java.util.logging's two-line
 *    record), so the line before it decides;
 * 3. a stamped line with no level: an entry of level UNKNOWN, whatever came before;
 * 4. an unstamped line with no level, and 5. a continuation (rule 0 of `level.ts`): decided by the entry
 *    before them.
 * So a line's level is found by reading back, line by line, to the nearest line of kind 1, 2 or 3 (its
 * entry's header, or a line after which the state is known), then forward through the lines between
 * with a `LevelTally` — at most {@linkcode LOOKBACK_BYTES} back. A line whose state that bound does not
 * reach is {@linkcode UNRESOLVED}: reported, never guessed. Reading back reaches the file's start as
 * `log_levels` does (a continuation before any entry is UNKNOWN's).
 *
 * A line of kind 3 may be given its level by the line after it (kind 2 above): with `ahead`, that line is
 * read too (a plain log only); a reader that sees every line in order (`log_tail`) asks for
 * {@linkcode EntryLevels.retro} after the next line instead.
 *
 * @module
 */

import { CONTINUED, LevelTally, stamped, STRUCTURED_BYTES, UNKNOWN } from "./level.ts";
import { type LogFormat, tallyFor } from "./log_format.ts";
import type { ReadableLog } from "./readable_log.ts";

/** How many bytes before a line are read at most to find the state its level depends on (1 MiB). */
export const LOOKBACK_BYTES = 1 << 20;

/** How many bytes {@linkcode EntryLevels.ahead} reads at once (64 KiB): the next lines' too. */
const AHEAD_BYTES = 64 << 10;

/** The first read back: 16 KiB, doubled until the state is found or {@linkcode LOOKBACK_BYTES} read. */
const FIRST_READ = 16 << 10;

/**
 * The code {@linkcode EntryLevels.levelAt} gives a line whose entry could not be found within
 * {@linkcode LOOKBACK_BYTES} before it (or in a log that cannot be read back, a `.gz`): its level is
 * UNKNOWN and it may be a continuation.
 */
export const UNRESOLVED = 2 * CONTINUED;

/** Random access to a log's raw bytes (`ReadableLog.readRange`). */
export interface RangeReader {
  /** Up to `length` raw bytes at `offset` (fewer at the end). */
  readRange(offset: number, length: number): Uint8Array;
}

/** True when `code` (of {@linkcode EntryLevels.levelAt}) is a continuation line's. */
export function isContinuation(code: number): boolean {
  return code >= CONTINUED;
}

/** The level code (an index into `LEVELS`) of a code of {@linkcode EntryLevels.levelAt}. */
export function levelCode(code: number): number {
  return code >= UNRESOLVED ? UNKNOWN : code >= CONTINUED ? code - CONTINUED : code;
}

/** A copy of a tally's state (the counts are not needed here). */
function copyState(from: LevelTally, into: LevelTally): LevelTally {
  into.entry = from.entry;
  into.stampedEntry = from.stampedEntry;
  into.bare = from.bare;
  return into;
}

/**
 * Lines' levels as `log_levels` counts them, each line given with its file offset; lines that follow
 * each other are read on with no read back.
 */
export class EntryLevels {
  readonly #reader: RangeReader | null;
  readonly #floor: number;
  readonly #size: number;
  readonly #bound: number;
  /** The state after the last line given; valid when {@linkcode #next} >= 0 and not {@linkcode #blind}. */
  #tally: LevelTally;
  /** Where the line after the last line given starts (first, the log's first line); -1 when not known. */
  #next: number;
  /**
   * True when the state at {@linkcode #next} is not known: the last line given was {@linkcode UNRESOLVED}
   * (so no line between `#next - bound` and `#next` fixes it, and a later line need not read before it).
   */
  #blind = false;
  readonly #scratch: LevelTally;
  /** A fresh tally of the log's kind (its format's, `log_format.ts` `tallyFor`, or the general rules'). */
  readonly #newTally: () => LevelTally;
  /** The bytes last read ahead ({@linkcode ahead}), from file offset {@linkcode #aheadAt}. */
  #ahead: Uint8Array = new Uint8Array(0);
  #aheadAt = 0;
  /** Lines given {@linkcode UNRESOLVED}. */
  unresolved = 0;
  /** Bytes read back (and ahead) from the log. */
  bytesRead = 0;
  /**
   * After {@linkcode levelAt}: the level (code) the line just given gave the line before it (a stamped
   * line with no level, continued by `SEVERE: …`), or -1.
   */
  retro = -1;

  /**
   * @param reader The log's bytes (null: a log that cannot be read back, a `.gz`).
   * @param floor Where the log's first line starts (after a byte-order mark).
   * @param size The log's size (no byte at or past it is read).
   * @param bound The most bytes read back ({@linkcode LOOKBACK_BYTES}).
   * @param newTally Makes a fresh tally that reads lines as the log's format does (default: the general
   *   rules' `LevelTally`).
   */
  constructor(
    reader: RangeReader | null,
    floor: number,
    size: number,
    bound = LOOKBACK_BYTES,
    newTally: () => LevelTally = () => new LevelTally(),
  ) {
    this.#newTally = newTally;
    this.#tally = newTally();
    this.#scratch = newTally();
    this.#reader = reader;
    this.#floor = floor;
    this.#size = size;
    this.#bound = bound;
    this.#next = floor;
  }

  /**
   * The level of the line `buf[s, e)` that starts at file offset `off`.
   *
   * @param buf Holds the line (its first bytes when `cut`; a trailing `\r` excluded, as the scanner gives it).
   * @param hint As `level.ts` `levelOf`'s.
   * @param cut True when `e` is not the line's end (the next line's offset is then unknown).
   * @param ahead Read the next line when it may give this line its level (a plain log only).
   * @returns A level code, `CONTINUED` + a level code for a continuation line, or {@linkcode UNRESOLVED}.
   */
  levelAt(
    buf: Uint8Array,
    s: number,
    e: number,
    hint: number,
    off: number,
    cut: boolean,
    ahead = false,
  ): number {
    this.retro = -1;
    let tally = this.#tally;
    if (off !== this.#next || this.#blind) {
      const fresh = this.#fresh();
      const code = fresh.add(buf, s, e, hint);
      if (code < CONTINUED && fresh.stampedEntry) {
        // Kind 1 or 3: the line fixes the state itself (kind 2, unstamped, is read back below).
        copyState(fresh, tally);
        this.#blind = false;
        return this.#done(code, buf, s, e, off, cut, ahead);
      }
      const found = this.#readBack(off);
      if (!found) {
        this.unresolved++;
        this.#blind = true;
        this.#next = cut ? -1 : off + (e - s) + (buf[e] === 13 ? 2 : 1);
        return UNRESOLVED;
      }
      this.#blind = false;
      tally = copyState(found, this.#tally);
    }
    const wasBare = tally.bare;
    const code = tally.add(buf, s, e, hint);
    if (wasBare && code > CONTINUED && code < CONTINUED + UNKNOWN) this.retro = code - CONTINUED;
    return this.#done(code, buf, s, e, off, cut, ahead);
  }

  /**
   * True when the line last given is a stamped line with no level that the next line may give its level
   * (java.util.logging's `SEVERE: …` under its time line): see {@linkcode retro}.
   */
  get bare(): boolean {
    return this.#next >= 0 && this.#tally.bare;
  }

  /** The scratch tally, in the state of a file's start. */
  #fresh(): LevelTally {
    const t = this.#scratch;
    t.entry = UNKNOWN;
    t.stampedEntry = t.bare = false;
    return t;
  }

  /** Notes where the next line starts; with `ahead`, reads it when it may give this line its level. */
  #done(
    code: number,
    buf: Uint8Array,
    s: number,
    e: number,
    off: number,
    cut: boolean,
    ahead: boolean,
  ): number {
    this.#next = cut ? -1 : off + (e - s) + (buf[e] === 13 ? 2 : 1);
    return ahead && code === UNKNOWN ? this.ahead(code) : code;
  }

  /**
   * The level the line after the one last given gives it, when that line is a stamped line with no level
   * ({@linkcode bare}) and the next one, unstamped, has a level (`SEVERE: …`); else `code`. Reads the next
   * line (a plain log only; in a `.gz`, `code`).
   *
   * @param code The code {@linkcode levelAt} gave the line last given.
   */
  ahead(code: number): number {
    if (!this.bare || this.#blind || !this.#reader || this.#next >= this.#size) return code;
    // Lines come in file order: one read serves the next lines' look-ahead too (a log of stamped lines
    // without a level, a syslog's, asks for every line).
    const at = this.#next;
    if (at < this.#aheadAt || at + STRUCTURED_BYTES > this.#aheadAt + this.#ahead.length) {
      if (this.#aheadAt + this.#ahead.length < this.#size || at < this.#aheadAt) {
        this.#ahead = this.#reader.readRange(at, Math.min(AHEAD_BYTES, this.#size - at));
        this.#aheadAt = at;
        this.bytesRead += this.#ahead.length;
      }
    }
    const bytes = this.#ahead;
    const from = at - this.#aheadAt;
    if (from >= bytes.length) return code;
    let end = bytes.indexOf(10, from);
    if (end < 0 || end > from + STRUCTURED_BYTES) end = Math.min(bytes.length, from + STRUCTURED_BYTES);
    if (end > from && bytes[end - 1] === 13) end--;
    if (stamped(bytes, from, end)) return code; // an entry of its own: it gives the line before nothing
    const next = copyState(this.#tally, this.#scratch).add(bytes, from, end);
    return next > CONTINUED && next < CONTINUED + UNKNOWN ? next - CONTINUED : code;
  }

  /**
   * The state before the line at `off` (a line start), read back from it; null when not found within
   * the bound (or with no reader).
   */
  #readBack(off: number): LevelTally | null {
    if (off <= this.#floor) return this.#newTally();
    if (!this.#reader) return null;
    // The state is known (or known to be unknowable) at #next: no need to read before it.
    // (At `off` itself when the line just before was given: then nothing is read.)
    const known = this.#next >= 0 && this.#next <= off ? this.#next : -1;
    for (let want = FIRST_READ;; want *= 2) {
      let lo = Math.max(this.#floor, off - Math.min(want, this.#bound));
      if (known >= 0 && lo <= known) lo = known;
      const bytes = this.#reader.readRange(lo, off - lo);
      this.bytesRead += bytes.length;
      const from = lo === known ? (this.#blind ? null : this.#tally) : undefined;
      const state = this.#stateIn(bytes, lo, from);
      if (state || lo === known || lo === this.#floor || off - lo >= this.#bound) return state;
    }
  }

  /**
   * The state after the lines of `bytes` (the file's bytes from `lo` up to a line start), from the last
   * line that fixes it (see the module's doc); from the first when `lo` is the file's start; null when
   * no line fixes it.
   *
   * @param from When `lo` is a line start where the state is known: that state (null: known to be
   *   unknowable); undefined when `lo` may fall inside a line.
   */
  #stateIn(bytes: Uint8Array, lo: number, from?: LevelTally | null): LevelTally | null {
    const starts: number[] = [];
    const ends: number[] = [];
    const whole = lo === this.#floor || from !== undefined;
    let i = whole ? 0 : bytes.indexOf(10) + 1;
    if (i === 0 && !whole) return null; // no whole line
    while (i < bytes.length) {
      const nl = bytes.indexOf(10, i);
      const stop = nl < 0 ? bytes.length : nl;
      starts.push(i);
      ends.push(stop > i && bytes[stop - 1] === 13 ? stop - 1 : stop);
      if (nl < 0) break;
      i = nl + 1;
    }
    const known = lo === this.#floor ? this.#newTally() : from ? copyState(from, this.#newTally()) : null;
    let first = 0;
    if (!known) {
      // The state at `lo` is not known: from the last line that fixes it.
      first = -1;
      for (let k = starts.length - 1; k >= 0; k--) {
        const t = this.#fresh();
        const code = t.add(bytes, starts[k], ends[k]);
        if (code >= CONTINUED || (code === UNKNOWN && !t.stampedEntry)) continue; // kinds 4 and 5
        // Kind 2 (a level, unstamped) needs the line before it, which says whether it continues that one.
        if (t.stampedEntry) first = k;
        else if (k > 0) first = k - 1;
        break;
      }
      if (first < 0) return null;
    }
    const tally = known ?? this.#newTally();
    for (let k = first; k < starts.length; k++) tally.add(bytes, starts[k], ends[k]);
    return tally;
  }
}

/**
 * Each line's level as its entry's ({@linkcode EntryLevels}), read back in a plain log; a `.gz` cannot be read
 * back, so there only lines read one after another carry a level over. Lines are read the way of the
 * log's format (`log_format.ts` `tallyFor`), or by the general rules.
 */
export function entryLevels(log: ReadableLog, format: LogFormat | null = null): EntryLevels {
  const tally = () => tallyFor(format);
  return log.gzip
    ? new EntryLevels(null, 0, Infinity, undefined, tally)
    : new EntryLevels(log, log.bomLength, log.size, undefined, tally);
}
