/**
 * The line scanner: reads a log forward through one fixed buffer, finds its lines (and, when searching,
 * the lines that hold a needle) on raw bytes, and hands them to a sink, within budgets of bytes and time.
 *
 * The shape follows ripgrep's searcher and the seed (`../shared/seeds/000_…`, "Предел — на чтении"):
 * - one buffer of `pieceSize` bytes; each read asks for at most what the buffer and the byte budget have
 *   room for, so memory never grows with the file or with one line;
 * - the unfinished line at the end of a piece is moved to the buffer's front before the next read, so a
 *   line shorter than a piece is always whole in the buffer and a match that straddles two reads is
 *   whole too;
 * - a line longer than the buffer is streamed: its first `headBytes` are kept in a second small buffer
 *   (for its level and its returned text, marked cut when the line is longer than that), and only
 *   `needle.length - 1` bytes are carried between reads, so a match anywhere in it is found;
 * - line feeds are counted and listed with SIMD, and needle candidates are found with SIMD by two of
 *   the needle's rarest bytes (rarest in the file's first piece), then compared
 *   ({@linkcode simdScanner}): only the lines a sink keeps are ever decoded.
 *
 * A line ends at `\n`; a `\r` just before it is not part of the line; the last line counts without a
 * final `\n` (`../shared/cases/CONVENTIONS.md`).
 *
 * @module
 */

import { POSITIONS, simdScanner } from "./simd.ts";
import type { LevelTally } from "./level.ts";
import { foldPartners, KELVIN_BYTES, LONG_S_BYTES, matchSpan } from "./fold.ts";

/**
 * The most time a scan works before it lets the event loop turn, in ms (issue #22: a call that held
 * the thread for a whole 1 MiB piece, seconds at worst, held every other call with it). A turn costs
 * ~2.1 ms of waiting when nothing else is due ({@linkcode nextTurn}); measured on a 100 MB log, alone:
 * a context search 246 → 288 ms, `log_levels` 85 → 92 ms (at 5 ms: 382 and 111; at 20 ms: 269 and 84).
 */
export const YIELD_MS = 10;

/**
 * Lets the event loop turn: timers, I/O and messages that are due run (another call's frame, its
 * answer, a cancel), then the caller goes on. A timer, not `setImmediate`: the loop must wait for the
 * timer for Deno to poll pipes and sockets; with `setImmediate` it polled them about every 60 turns
 * (measured: a pipe's round trip took 279 ms, against 0.1 ms with the timer).
 *
 * @returns A promise resolved on a later turn.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * How much sink work (units: one line, plus one per KiB of it) is handed on between two looks at the
 * clock and at a cancel inside a piece: 64 short lines or 64 KiB, a fraction of a ms (a look costs
 * ~160 ns).
 */
export const CHECK_UNITS = 64;

/** Where the scanner's bytes come from: a file positioned at the scan's start, or a test double. */
export interface ByteSource {
  /** Reads at most `into.length` bytes into `into`; returns how many, or null at the end. */
  readSync(into: Uint8Array): number | null;
  /** True when no byte is left after those read: a budget spent exactly at the end is no stop. */
  atEnd(): boolean;
  /** When present, used instead of `readSync` (a decompressing source). */
  read?(into: Uint8Array): Promise<number | null>;
}

/** Receives lines. */
export interface LineSink {
  /**
   * One line: `buf[start, end)` is the line without its end of line, or only its first bytes when
   * `cut` (a line longer than the buffer). The bytes are valid only during the call.
   *
   * @param lineNo 1-based number of the line, counted from where the scan started.
   * @param cut True when only the line's first bytes are passed.
   * @param hint The offset from `start` of the line's first ASCII letter or ESC within its first 32
   *   bytes, 255 when none, -1 when not known (`levelOf` uses it).
   * @param at The line's first byte, counted from the scan's start (negative for a resumed line).
   * @returns false to stop the scan (reported as `stop: "limit"`).
   */
  line(
    buf: Uint8Array,
    start: number,
    end: number,
    lineNo: number,
    cut: boolean,
    hint: number,
    at: number,
  ): boolean;
}

/**
 * Why a scan stopped before the end of its source. `file_changed` is set by the tools, not the scanner:
 * the log shrank (was truncated) while it was being read.
 */
export type StopReason =
  | "limit"
  | "time_budget"
  | "size_budget"
  | "file_changed"
  | "cancelled"
  | "corrupt_gzip";

/** Options of {@linkcode scan}. */
export interface ScanOptions {
  /** Bytes per read and buffer size; default 65536 (the seed's CHUNK). */
  pieceSize?: number;
  /** Most bytes to read; default unlimited. */
  maxBytes?: number;
  /**
   * `performance.now()` value (ms) after which no further read starts and no further line is handed on
   * (the clock is read between lines, every {@linkcode CHECK_UNITS} of work); default none.
   */
  deadline?: number;
  /** True when having read `maxBytes` means the end (a tail window that ends at the size it saw). */
  maxBytesIsEnd?: boolean;
  /** False when the scan starts inside a line: that fragment is skipped, not counted or passed on. */
  firstLineWhole?: boolean;
  /** How many of a long line's first bytes are kept for its sink call; default 4096. */
  headBytes?: number;
  /** When set, only lines holding these bytes reach the sink. Must not contain `\n`. */
  needle?: Uint8Array;
  /**
   * Match the needle's ASCII letters in either case (`byte | 0x20`). A line that holds K (U+212A) or ſ
   * (U+017F) where the needle has `k` or `s` ({@linkcode foldPartners}) but not the needle's bytes
   * themselves is a candidate that `verify` decides on.
   */
  ignoreCase?: boolean;
  /**
   * Decides on a candidate line (see `ignoreCase`): `buf[start, end)` is the line, or its first bytes
   * when it was longer than `headBytes` or a budget stopped inside it. Without it, candidates are not
   * matches (ASCII letters folded only).
   */
  verify?: (buf: Uint8Array, start: number, end: number) => boolean;
  /**
   * The event loop turns ({@linkcode nextTurn}) at most every `yieldMs` (default {@linkcode YIELD_MS}),
   * between reads and inside a piece (between two lines handed on), so other calls and a cancel get in.
   */
  yieldMs?: number;
  /** Lines before the scan's start (a resumed scan): the first line is numbered `lineBase + 1`. */
  lineBase?: number;
  /**
   * A scan resumed inside a line: the source starts `resume.lineLen` bytes into line `lineBase + 1`.
   * `head` is that line's first bytes (up to `headBytes`), `carry` the last `needle.length - 1` bytes
   * before the source's start (so a match across the resumption is found), `pending` whether the line
   * already holds the needle.
   */
  resume?: { head: Uint8Array; lineLen: number; carry: Uint8Array; pending: boolean };
  /**
   * Checked before every read and between lines as the deadline is: when it returns true the scan stops
   * (`stop: "cancelled"`).
   */
  cancelled?: () => boolean;
  /** Called before reads, at most every `progressMs` (default 250 ms), with the bytes read so far. */
  onProgress?: (bytesRead: number, lines: number) => void;
  /** The least time between two `onProgress` calls, in ms. */
  progressMs?: number;
  /**
   * Count lines by level instead of handing them on: each line goes to `levelCounts.add` (`level.ts`
   * `LevelTally`: entries and continuation lines by level), and the sink is never called. The line is the
   * one the sink would have had (its first `headBytes` bytes when longer than the buffer). Without a
   * needle only. Why: a sink call per line costs as much as finding the lines (issue #11).
   */
  levelCounts?: LevelTally;
  /**
   * Called when the sink has stopped the scan (returned false). When it resolves true, the scan goes on
   * with the next line as if the sink had returned true: a sink that must await something between two
   * lines (a test in a worker, a turn of the event loop so that a cancel can arrive) stops, and this
   * awaits it, with the buffer and every count kept. When it resolves false the scan stops (`limit`).
   */
  resumeAfterStop?: () => Promise<boolean>;
}

/** What a scan did. */
export interface ScanResult {
  /** Lines read to their end (the last, unterminated line included when the source ended). */
  lines: number;
  /**
   * Bytes read from the source, up to the line a stop inside a piece came before (a deadline or a cancel
   * between two lines): the bytes after it were not looked at, and the next page reads them again.
   */
  bytesRead: number;
  /** Why it stopped early; null when it reached the end of the source. */
  stop: StopReason | null;
  /** True when a fragment at the start was skipped (`firstLineWhole: false` and the source was not empty). */
  droppedPartial: boolean;
  /**
   * Bytes from the scan's start to the start of the first line not read to its end (negative when that
   * line began before the scan; all of `bytesRead` when the scan reached the end).
   */
  resumeAt: number;
  /** True when the line not read to its end holds the needle. */
  pending: boolean;
}

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
  let best: [number, number] = [firsts[0], firsts[1]];
  let fewest = Infinity;
  for (let x = 0; x < firsts.length; x++) {
    for (let y = x + 1; y < firsts.length; y++) {
      const o1 = firsts[x], o2 = firsts[y];
      const b1 = needle[o1], b2 = needle[o2], m1 = m[o1], m2 = m[o2];
      const lo = Math.min(o1, o2), hi = Math.max(o1, o2);
      let n = 0;
      for (let s = -lo; s + hi < sample.length; s++) {
        if ((sample[s + o1] | m1) === b1 && (sample[s + o2] | m2) === b2) n++;
      }
      if (n < fewest) [fewest, best] = [n, [o1, o2]];
    }
  }
  return best;
}

/**
 * Scans `src` from its current position to its end, or until a budget or the sink stops it.
 *
 * @param src The bytes, positioned where the scan starts.
 * @param sink Receives every line, or only the lines that hold `opts.needle`.
 * @param opts Budgets, buffer size and start conditions.
 * @returns Lines read, bytes read, and why it stopped (null: the end was reached).
 * @throws {TypeError} when the needle is empty or contains a line feed.
 * @throws Whatever `src.readSync` throws (a read error is never turned into a short answer).
 * @example
 * ```ts
 * import { scan } from "./scanner.ts";
 * const bytes = new TextEncoder().encode("a\nERROR b\r\nc");
 * let pos = 0;
 * const src = {
 *   readSync(into: Uint8Array) {
 *     const n = Math.min(into.length, bytes.length - pos);
 *     into.set(bytes.subarray(pos, pos + n));
 *     pos += n;
 *     return n || null;
 *   },
 *   atEnd: () => pos >= bytes.length,
 * };
 * const seen: number[] = [];
 * const r = await scan(src, { line: (_b, _s, _e, no) => (seen.push(no), true) }, { pieceSize: 4 });
 * console.assert(r.lines === 3 && seen.join() === "1,2,3" && r.stop === null);
 * ```
 */
export async function scan(src: ByteSource, sink: LineSink, opts: ScanOptions = {}): Promise<ScanResult> {
  const s = new LineScan(src, sink, opts);
  while (true) {
    s.carryUnfinishedLine();
    if (!s.mayRead()) break;
    await s.yieldNow();
    const from = await s.readPiece();
    if (from < 0) break;
    const rest = s.streamLongLine(from);
    let ok = rest >= 0 && s.handLines(rest);
    while (!ok) {
      if (s.paused) {
        // Inside a piece, between two lines: the event loop turns, then the clock is read again at once.
        s.paused = false;
        await nextTurn();
        s.lastYield = performance.now();
        s.untilCheck = 0;
      } else if (s.stop === "limit" && opts.resumeAfterStop && await opts.resumeAfterStop()) {
        // The sink's stop awaited something (a turn, a test in a worker): the event loop turned.
        s.stop = null;
        s.lastYield = performance.now();
      } else break;
      ok = s.handLines(s.ls);
    }
    if (!ok) break;
  }
  await s.finishEnd();
  return s.result();
}

/**
 * One scan's state and its steps (see {@linkcode scan}): carry the unfinished line to the buffer's
 * front, decide whether to read, read a piece, stream a line longer than the buffer, find the line ends
 * and hand lines (or, searching, the lines that hold the needle) to the sink, and finish at the end.
 */
class LineScan {
  readonly pieceSize: number;
  readonly maxBytes: number;
  readonly deadline: number;
  readonly headBytes: number;
  readonly yieldMs: number;
  readonly progressMs: number;
  /** The needle (ASCII letters lower-cased with `ignoreCase`), or undefined for every line. */
  readonly needle: Uint8Array | undefined;
  /** Per needle byte, 0x20 where case is ignored. */
  readonly mask: Uint8Array;
  readonly nlen: number;
  /** The most bytes a match takes: `nlen`, more when K or ſ may stand for `k` or `s` (`matchSpan`). */
  readonly span: number;
  /** Look for K (U+212A) and for ſ (U+017F) as well as for the needle. */
  readonly kelvin: boolean;
  readonly longS: boolean;
  readonly bufSize: number;
  readonly simd: ReturnType<typeof simdScanner>;
  readonly buf: Uint8Array;
  /** A long line's first bytes. */
  readonly head: Uint8Array;
  /** Lines counted by level here instead of by the sink ({@linkcode ScanOptions.levelCounts}). */
  readonly levels: LevelTally | undefined;
  // The needle's rare pair (offsets, bytes, case masks), chosen after the first read.
  o1 = 0;
  o2 = 0;
  b1 = 0;
  b2 = 0;
  m1 = 0;
  m2 = 0;
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

  constructor(readonly src: ByteSource, readonly sink: LineSink, readonly opts: ScanOptions) {
    this.pieceSize = opts.pieceSize ?? 65536;
    this.maxBytes = opts.maxBytes ?? Infinity;
    this.deadline = opts.deadline ?? Infinity;
    this.headBytes = opts.headBytes ?? 4096;
    this.yieldMs = opts.yieldMs ?? YIELD_MS;
    this.progressMs = opts.progressMs ?? 250;
    const ignoreCase = opts.ignoreCase ?? false;
    // With ignoreCase, ASCII letters of the needle are lower-cased and compared as (byte | 0x20).
    this.needle = opts.needle && ignoreCase
      ? opts.needle.map((b) => (isAsciiLetter(b) ? b | 0x20 : b))
      : opts.needle;
    this.mask = this.needle
      ? this.needle.map((b) => (ignoreCase && isAsciiLetter(b) ? 0x20 : 0))
      : new Uint8Array();
    if (this.needle && (this.needle.length === 0 || this.needle.includes(10))) {
      throw new TypeError("the needle must be 1 or more bytes without a line feed");
    }
    this.nlen = this.needle ? this.needle.length : 0;
    this.levels = opts.levelCounts;
    if (this.levels && this.needle) throw new TypeError("levelCounts is for a scan without a needle");
    const partners = this.needle && ignoreCase && opts.verify
      ? foldPartners(this.needle)
      : { kelvin: false, longS: false };
    this.kelvin = partners.kelvin;
    this.longS = partners.longS;
    this.span = this.needle ? matchSpan(this.needle, this.kelvin || this.longS) : 0;
    // Room for one piece after the `span - 1` bytes a long line carries, so every read has room.
    this.bufSize = this.pieceSize + Math.max(0, this.span - 1);
    this.simd = simdScanner(this.bufSize);
    this.buf = this.simd.buf;
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
      await nextTurn();
      this.lastYield = performance.now();
    }
  }

  /**
   * A look at the clock (and at a cancel) inside a piece, before the line at `at` is handed on: true
   * when the scan must stop there. Past the deadline or cancelled, it stops as though the piece had
   * ended at `at` (`bytesRead` taken back to it, so the next page starts at that line); when a turn of
   * the event loop is due, `paused` is set and {@linkcode scan} goes on from `at` after it.
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
    const needle = this.needle;
    if (needle && this.bytesRead === 0) {
      [this.o1, this.o2] = rarePair(needle, buf.subarray(this.end, this.end + n), this.mask);
      this.b1 = needle[this.o1];
      this.b2 = needle[this.o2];
      this.m1 = this.mask[this.o1];
      this.m2 = this.mask[this.o2];
    }
    this.bytesRead += n;
    const from = this.end;
    this.end += n;
    return from;
  }

  /**
   * Step 4: a line longer than the buffer takes the new bytes from `from` up to its end: its first
   * bytes go to `head`, the needle is looked for in it, and it is handed on when its end is in view.
   * Returns where the bytes after it begin (`from` when no long line is being read), or -1 when the sink
   * stopped the scan.
   */
  streamLongLine(from: number): number {
    if (!this.long) return from;
    const needle = this.needle;
    const nl = this.find(10, from, this.end);
    const lineEnd = nl < 0 ? this.end : nl;
    if (needle && !(this.pending && this.sure)) {
      if (this.findNeedle(0, lineEnd) >= 0) {
        this.pending = true;
        this.sure = true;
      } else if (!this.pending && this.findPartner(0, lineEnd) >= 0) {
        this.pending = true;
        this.sure = false;
      }
    }
    const more = Math.min(this.headBytes - this.headLen, lineEnd - from);
    if (more > 0) {
      this.head.set(this.buf.subarray(from, from + more), this.headLen);
      this.headLen += more;
    }
    this.longLen += lineEnd - from;
    if (nl < 0) {
      this.ls = 0;
      return this.end; // the long line goes on past this piece
    }
    this.long = false;
    const go = this.finishLong(true);
    this.pending = false;
    this.sure = true;
    this.ls = nl + 1;
    if (go) return nl + 1;
    this.stop = "limit";
    return -1;
  }

  /**
   * Step 5: finds the line ends in the new bytes (from `from`) and hands the finished lines to the sink,
   * or, searching, only those that hold the needle. Returns false when the sink stopped the scan.
   */
  handLines(from: number): boolean {
    if (this.long) return true; // the long line goes on past this piece
    if (this.needle) return this.handMatchingLines(from);
    if (!this.levels) return this.handEveryLine();
    if (this.dropping) { // the fragment at the start: skipped once its end is in view
      const nl = this.find(10, this.ls, this.end);
      if (nl < 0) return true;
      this.finish(this.ls, nl, true);
      this.ls = nl + 1;
    }
    return this.countEveryLine(this.levels);
  }

  /**
   * Every line counted by level (see {@linkcode ScanOptions.levelCounts}): the hot loop of `log_levels`,
   * with `LevelTally.add` called here rather than through a sink.
   */
  countEveryLine(tally: LevelTally): boolean {
    const { simd, end, buf } = this;
    const positions = simd.positions;
    let ls = this.ls;
    while (ls < end) {
      const count = simd.lines(ls, end);
      for (let k = 0; k < count; k++) {
        const entry = positions[k];
        const nl = entry & 0xffffff;
        tally.add(buf, ls, nl > ls && buf[nl - 1] === 13 ? nl - 1 : nl, entry >>> 24);
        ls = nl + 1;
      }
      this.lineNo += count;
      if (count < POSITIONS) break;
      if (ls < end && this.interrupted(ls)) return false; // a look at the clock every batch
    }
    this.ls = ls;
    return true;
  }

  /** Every line: SIMD lists the line feeds, a batch at a time (the hot loop: `finish` inlined). */
  handEveryLine(): boolean {
    const { simd, end, buf, sink } = this;
    const positions = simd.positions;
    const base = this.bytesRead - end; // bytes before buf[0]
    while (this.ls < end) {
      const count = simd.lines(this.ls, end);
      for (let k = 0; k < count; k++) {
        const entry = positions[k];
        const nl = entry & 0xffffff;
        const a = this.ls;
        let go = true;
        if (this.dropping) go = this.finish(a, nl, true);
        else if ((this.untilCheck -= 1 + ((nl - a) >> 10)) < 0 && this.interrupted(a)) return false;
        else {go = sink.line(
            buf,
            a,
            nl > a && buf[nl - 1] === 13 ? nl - 1 : nl,
            ++this.lineNo,
            false,
            entry >>> 24,
            base + a,
          );}
        this.ls = nl + 1;
        if (!go) {
          this.stop = "limit";
          return false;
        }
      }
      if (count < POSITIONS) break;
    }
    return true;
  }

  /** Searching: counts lines in bulk, looks only at lines that hold the needle. */
  handMatchingLines(from: number): boolean {
    const { buf, simd, end, span } = this;
    let pos = this.ls;
    let searchFrom = Math.max(this.ls, from - (span - 1));
    // The next K or ſ, when the needle has k or s and case is ignored (rare: looked for once a piece).
    let partner = this.findPartner(searchFrom, end);
    while (true) {
      if (this.pending) {
        const nl = this.find(10, Math.max(pos, from), end);
        if (nl < 0) break;
        if ((this.untilCheck -= 1 + ((nl - pos) >> 10)) < 0 && !this.dropping && this.interrupted(pos)) {
          return false;
        }
        this.pending = false;
        let go = true;
        if (this.sure) go = this.finish(pos, nl, true);
        else if (this.verify(pos, nl)) {
          this.sure = true;
          go = this.finish(pos, nl, true);
        } else this.lineNo++; // a K or ſ, but no match
        pos = searchFrom = nl + 1;
        if (!go) {
          this.ls = pos;
          this.stop = "limit";
          return false;
        }
        continue;
      }
      let m = this.findNeedle(searchFrom, end);
      this.sure = true;
      if (partner >= 0 && partner < searchFrom) partner = this.findPartner(searchFrom, end);
      // A K or ſ before the needle's next bytes makes its line a candidate, unless those bytes are on the
      // same line (no line feed between): then the line surely matches.
      if (partner >= 0 && (m < 0 || (partner < m && this.find(10, partner, m) >= 0))) {
        m = partner;
        this.sure = false;
      }
      if (m < 0) {
        const last = buf.lastIndexOf(10, end - 1);
        if (last >= pos) {
          this.lineNo += simd.count(pos, last + 1);
          pos = last + 1;
        }
        break;
      }
      const prevNl = m > pos ? buf.lastIndexOf(10, m - 1) : -1;
      const lineStart = prevNl >= pos ? prevNl + 1 : pos;
      if (lineStart > pos) this.lineNo += simd.count(pos, lineStart);
      pos = lineStart;
      this.pending = true;
    }
    this.ls = pos;
    return true;
  }

  /** First `b` in buf[from, to), or -1. */
  find(b: number, from: number, to: number): number {
    const i = this.buf.indexOf(b, from);
    return i >= 0 && i < to ? i : -1;
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

  /**
   * A candidate line without the needle's own bytes (see {@linkcode ScanOptions.verify}): buf[a, nl)
   * less a final CR.
   */
  verify(a: number, nl: number): boolean {
    const e = nl > a && this.buf[nl - 1] === 13 ? nl - 1 : nl;
    return this.opts.verify!(this.buf, a, e);
  }

  /** First occurrence of the needle that starts in buf[from, to - nlen], or -1. */
  findNeedle(from: number, to: number): number {
    const { buf, simd, nlen, mask } = this;
    const needle = this.needle!;
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
      return true;
    }
    return this.sink.line(this.buf, a, e, this.lineNo, false, hint, this.bytesRead - this.end + a);
  }

  /** The long line is finished: handed on from `head`, cut when it was longer than `head`. */
  finishLong(hasNewline: boolean): boolean {
    if (this.dropping) {
      this.dropping = false;
      this.droppedPartial = true;
      return true;
    }
    this.lineNo++;
    if (this.needle && !this.pending) return true;
    const { head, longLen, headBytes } = this;
    if (longLen <= headBytes) { // the whole line fit in `head` after all
      const e = hasNewline && longLen > 0 && head[longLen - 1] === 13 ? longLen - 1 : longLen;
      if (this.needle && !this.sure && !this.opts.verify!(head, 0, e)) return true;
      if (this.levels) return this.count(head, 0, e);
      return this.sink.line(head, 0, e, this.lineNo, false, -1, this.longStart);
    }
    if (this.levels) return this.count(head, 0, this.headLen);
    // A candidate is decided on the line's first `headBytes` only (documented as a limit).
    if (this.needle && !this.sure && !this.opts.verify!(head, 0, this.headLen)) return true;
    return this.sink.line(head, 0, this.headLen, this.lineNo, true, -1, this.longStart);
  }

  /** Counts the line buf[a, e) by level ({@linkcode ScanOptions.levelCounts}); true. */
  count(buf: Uint8Array, a: number, e: number): boolean {
    this.levels!.add(buf, a, e);
    return true;
  }

  /** Step 6: the end of the source, or a stop: the last line, and what the scan did. */
  /** True once `finishEnd` handed on the unterminated last line. */
  endHanded = false;

  /**
   * The end of the source: an unterminated last line still counts, and is handed on. When the sink
   * stops there, `resumeAfterStop` is awaited as between two lines (a line to test in a worker).
   */
  async finishEnd(): Promise<void> {
    if (this.stop !== null) return;
    const { buf, ls, end } = this;
    let go = true;
    if (this.long) {
      this.endHanded = true;
      go = this.finishLong(false);
    } else if (end > ls) {
      this.endHanded = true;
      if (this.needle && !this.pending) this.lineNo++;
      else if (this.needle && !this.sure && !this.opts.verify!(buf, ls, end)) this.lineNo++;
      else go = this.finish(ls, end, false);
    }
    if (!go && !(this.opts.resumeAfterStop && await this.opts.resumeAfterStop())) this.stop = "limit";
  }

  result(): ScanResult {
    const { buf, head, ls, end, bytesRead } = this;
    const budget = this.stop === "time_budget" || this.stop === "size_budget";
    if (budget && this.pending && !this.sure) {
      // A candidate cut by the budget: decided on what was read; a match that straddles into the
      // unread part is found by the next page (it carries the `span - 1` bytes before its start).
      const ok = this.long ? this.opts.verify!(head, 0, this.headLen) : this.opts.verify!(buf, ls, end);
      if (ok) this.sure = true;
      else this.pending = false;
    }
    if (budget && this.pending) {
      // A budget ran out inside a line that holds the needle: the match is real, so it is passed on,
      // cut (its end was not read), though the line is not counted as read to its end.
      if (this.long) this.sink.line(head, 0, this.headLen, this.lineNo + 1, true, -1, this.longStart);
      else this.sink.line(buf, ls, end, this.lineNo + 1, true, -1, bytesRead - end + ls);
    }
    const stop = this.stop;
    // An unterminated last line handed on at the end (`finishEnd`) was read: a stop there ("limit")
    // resumes after it, not at its start (a trial's pages repeated it forever).
    const resumeAt = stop === null || this.endHanded
      ? bytesRead
      : this.long
      ? this.longStart
      : bytesRead - (end - ls);
    return {
      lines: this.lineNo,
      bytesRead,
      stop,
      droppedPartial: this.droppedPartial,
      resumeAt,
      pending: this.pending,
    };
  }
}
