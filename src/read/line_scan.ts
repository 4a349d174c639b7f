/**
 * One scan's state (`scanner.ts` `scan`): its buffer, where its lines stand in it, its counts and its
 * budgets, with the small steps that move them (carry the unfinished line, decide whether to read, read
 * a piece, look at the clock, finish a line). The steps over many lines are beside it: `hand_lines.ts`
 * (lines in a piece), `long_line.ts` (a line longer than the buffer), `scan_end.ts` (the end).
 *
 * @module
 */

import { simdScanner } from "./simd.ts";
import type { LevelTally } from "./level.ts";
import { NeedleFinder } from "./needle_finder.ts";
import { ScanTurns, YIELD_MS } from "./next_turn.ts";
import type {
  ByteSource,
  LinePrefilter,
  LineSink,
  ScanOptions,
  StatusCounter,
  StopReason,
} from "./scan_options.ts";

/**
 * How much sink work (units: one line, plus one per KiB of it) is handed on between two looks at the
 * clock and at a cancel inside a piece: 64 short lines or 64 KiB, a fraction of a ms (a look costs
 * ~160 ns).
 */
export const CHECK_UNITS = 64;

/**
 * One scan's state and its small steps (see `scanner.ts` `scan`): carry the unfinished line to the
 * buffer's front, decide whether to read, read a piece, look at the clock inside a piece, and finish a
 * line. Offsets (`end`, `ls`, arguments `a`, `nl`) are bytes in `buf`; `bytesRead`, bytes of the source.
 */
export class LineScan {
  readonly pieceSize: number;
  readonly maxBytes: number;
  readonly deadline: number;
  readonly headBytes: number;
  readonly yieldMs: number;
  readonly progressMs: number;
  /** The needle (ASCII letters lower-cased with `ignoreCase`), or undefined for every line. */
  readonly needle: Uint8Array | undefined;
  /** How the needle is found; null without one. */
  readonly finder: NeedleFinder | null;
  /** The most bytes a match takes (`NeedleFinder.span`); 0 without a needle. */
  readonly span: number;
  readonly bufSize: number;
  readonly simd: ReturnType<typeof simdScanner>;
  readonly buf: Uint8Array;
  /** A long line's first bytes. */
  readonly head: Uint8Array;
  /** Lines counted by level here instead of by the sink ({@linkcode ScanOptions.levelCounts}). */
  readonly levels: LevelTally | undefined;
  /** Picks the lines the sink gets ({@linkcode ScanOptions.prefilter}); undefined with a needle. */
  readonly prefilter: LinePrefilter | undefined;
  /**
   * Where the prefilter stands in the unfinished line: the line's start (bytes of the source; -1: none)
   * and the bytes of it already scanned.
   */
  filterLine = -1;
  filterDone = 0;
  /** Lines counted by their HTTP status beside their level ({@linkcode ScanOptions.statusCounts}). */
  readonly statuses: StatusCounter | undefined;
  /** Valid bytes in buf. */
  end = 0;
  /** Start of the current, unfinished line in buf. */
  ls = 0;
  /** Lines finished. */
  lineNo: number;
  /** Bytes before the long line's start. */
  longStart = 0;
  lastProgress = performance.now();
  lastYield = performance.now();
  bytesRead = 0;
  /** Skipping a fragment at the start. */
  dropping: boolean;
  droppedPartial = false;
  /** The unfinished line holds the needle (or, when not `sure`, K or ſ: a candidate). */
  pending = false;
  /** The pending line holds the needle's own bytes (folded ASCII); false: `verify` decides. */
  sure = true;
  /**
   * Where the pending line's first occurrence of the needle starts, from the line's first byte (when
   * `sure`, and the line is not long), or -1; handed on with the line by {@linkcode finish}.
   */
  needleOff = -1;
  /** The unfinished line outgrew the buffer; its start is in `head`. */
  long = false;
  headLen = 0;
  /** Bytes of the long line so far. */
  longLen = 0;
  stop: StopReason | null = null;
  /** Set when a look at the clock inside a piece found a turn of the event loop due. */
  paused = false;
  /** Sink work left before the next look at the clock ({@linkcode CHECK_UNITS}). */
  untilCheck = CHECK_UNITS;

  /** The scan's turns of the event loop (closed by `scanner.ts` `scan` at its end). */
  readonly turns: ScanTurns;

  /** True once `finishEnd` handed on the unterminated last line. */
  endHanded = false;

  /**
   * @param src The bytes, positioned where the scan starts.
   * @param sink Receives the lines.
   * @param opts The scan's options.
   * @throws {TypeError} when the needle is empty or contains a line feed, or with both a needle and
   *   `levelCounts`.
   */
  constructor(readonly src: ByteSource, readonly sink: LineSink, readonly opts: ScanOptions) {
    this.pieceSize = opts.pieceSize ?? 65536;
    this.maxBytes = opts.maxBytes ?? Infinity;
    this.deadline = opts.deadline ?? Infinity;
    this.headBytes = opts.headBytes ?? 4096;
    this.yieldMs = opts.yieldMs ?? YIELD_MS;
    this.turns = opts.turns ?? new ScanTurns();
    this.progressMs = opts.progressMs ?? 250;
    this.finder = opts.needle
      ? new NeedleFinder(opts.needle, opts.ignoreCase ?? false, opts.verify !== undefined)
      : null;
    this.needle = this.finder?.needle;
    this.levels = opts.levelCounts;
    this.prefilter = opts.needle || opts.levelCounts ? undefined : opts.prefilter;
    this.statuses = opts.levelCounts ? opts.statusCounts : undefined;
    if (this.levels && this.needle) throw new TypeError("levelCounts is for a scan without a needle");
    this.span = this.finder?.span ?? 0;
    // Room for one piece after the `span - 1` bytes a long line carries, so every read has room.
    this.bufSize = this.pieceSize + Math.max(0, this.span - 1);
    this.simd = simdScanner(this.bufSize);
    this.buf = this.simd.buf;
    this.finder?.attach(this.simd);
    this.head = new Uint8Array(this.headBytes);
    this.lineNo = opts.lineBase ?? 0;
    this.dropping = opts.firstLineWhole === false;
    const r = opts.resume;
    if (r) {
      this.long = true;
      this.headLen = Math.min(this.headBytes, r.head.length);
      this.head.set(r.head.subarray(0, this.headLen));
      this.longLen = r.lineLen;
      this.longStart = -r.lineLen;
      this.buf.set(r.carry.subarray(0, Math.max(0, this.span - 1)));
      this.end = Math.min(r.carry.length, Math.max(0, this.span - 1));
      this.pending = r.pending;
    }
  }
  /** Step 1: moves the unfinished line to the buffer's front; a line that fills it becomes a long line. */
  carryUnfinishedLine(): void {
    const buf = this.buf;
    if (this.ls > 0) {
      buf.copyWithin(0, this.ls, this.end);
      this.end -= this.ls;
      this.ls = 0;
    }
    if (this.end === this.bufSize) {
      if (!this.long) {
        this.long = true;
        this.needleOff = -1; // a long line is handed on from `head`
        this.longStart = this.bytesRead - this.end;
        this.headLen = Math.min(this.headBytes, this.end);
        this.longLen = this.end;
        this.head.set(buf.subarray(0, this.headLen));
      }
      // Only the bytes a match could straddle stay (none once the line is known to hold one).
      const keep = this.needle && !(this.pending && this.sure) ? this.span - 1 : 0;
      buf.copyWithin(0, this.end - keep, this.end);
      this.end = keep;
    }
  }

  /** Step 2: false when the scan stops before another read (cancelled, a budget spent); reports progress. */
  mayRead(): boolean {
    const now = performance.now();
    if (this.opts.cancelled?.()) {
      this.stop = "cancelled";
      return false;
    }
    if (this.opts.onProgress && now - this.lastProgress >= this.progressMs) {
      this.lastProgress = now;
      this.opts.onProgress(this.bytesRead, this.lineNo);
    }
    const left = this.maxBytes - this.bytesRead;
    if (now >= this.deadline || left <= 0) {
      if (left <= 0 && this.opts.maxBytesIsEnd) return false;
      if (!this.src.atEnd()) this.stop = now >= this.deadline ? "time_budget" : "size_budget";
      return false;
    }
    return true;
  }

  /** Lets other work run, at most every `yieldMs`. */
  async yieldNow(): Promise<void> {
    if (performance.now() - this.lastYield >= this.yieldMs) {
      await this.turns.next();
      this.lastYield = performance.now();
    }
  }

  /**
   * A look at the clock (and at a cancel) inside a piece, before the line at `at` is handed on: true
   * when the scan must stop there. Past the deadline or cancelled, it stops as though the piece had
   * ended at `at` (`bytesRead` taken back to it, so the next page starts at that line); when a turn of
   * the event loop is due, `paused` is set and `scan` goes on from `at` after it.
   */
  interrupted(at: number): boolean {
    this.untilCheck = CHECK_UNITS;
    const now = performance.now();
    const stop: StopReason | null = this.opts.cancelled?.()
      ? "cancelled"
      : now >= this.deadline
      ? "time_budget"
      : null;
    if (stop) {
      this.ls = at;
      this.stop = stop;
      this.bytesRead -= this.end - at;
      this.end = at;
      this.pending = false; // the line at `at` is not read: the next page finds its needle again
      this.sure = true;
      return true;
    }
    if (now - this.lastYield < this.yieldMs) return false;
    this.ls = at;
    this.paused = true;
    return true;
  }

  /** Step 3: reads one piece after the buffer's valid bytes; returns where the new bytes begin, -1 at the end. */
  async readPiece(): Promise<number> {
    const { buf, src } = this;
    const room = Math.min(this.bufSize - this.end, this.pieceSize, this.maxBytes - this.bytesRead);
    const into = buf.subarray(this.end, this.end + room);
    const n = (src.read ? await src.read(into) : src.readSync(into)) ?? 0;
    if (n === 0) return -1;
    if (this.finder && this.bytesRead === 0) this.finder.choosePair(buf.subarray(this.end, this.end + n));
    this.bytesRead += n;
    const from = this.end;
    this.end += n;
    return from;
  }

  /** First `b` in buf[from, to), or -1. */
  find(b: number, from: number, to: number): number {
    const i = this.buf.indexOf(b, from);
    return i >= 0 && i < to ? i : -1;
  }

  /**
   * A candidate line without the needle's own bytes (see {@linkcode ScanOptions.verify}): buf[a, nl)
   * less a final CR.
   */
  verify(a: number, nl: number): boolean {
    const e = nl > a && this.buf[nl - 1] === 13 ? nl - 1 : nl;
    return this.opts.verify!(this.buf, a, e);
  }

  /** The line buf[a, nl) is finished (nl is its `\n`, or the end of the source). */
  finish(a: number, nl: number, hasNewline: boolean, hint = -1): boolean {
    if (this.dropping) {
      this.dropping = false;
      this.droppedPartial = true;
      return true;
    }
    this.lineNo++;
    let e = nl;
    if (hasNewline && e > a && this.buf[e - 1] === 13) e--;
    if (this.levels) {
      this.levels.add(this.buf, a, e, hint);
      this.statuses?.add(this.buf, a, e);
      return true;
    }
    const needle = this.needleOff >= 0 && a + this.needleOff < e ? a + this.needleOff : -1;
    this.needleOff = -1;
    return this.sink.line(this.buf, a, e, this.lineNo, false, hint, this.bytesRead - this.end + a, needle);
  }

  /** Counts the line buf[a, e) by level ({@linkcode ScanOptions.levelCounts}); true. */
  count(buf: Uint8Array, a: number, e: number): boolean {
    this.levels!.add(buf, a, e);
    this.statuses?.add(buf, a, e);
    return true;
  }
}
