/**
 * Seek by time (issue #12, "Seek, don't scan"): on a time-ordered plain log, find where a time window
 * starts (and ends) by a binary search over lines read at probe offsets, instead of scanning from the
 * first byte.
 *
 * ## Lines and their times
 *
 * A line starts at the log's first byte after its BOM (`log.bomLength`) or right after a `\n`; it ends
 * before its `\n` (a `\r` just before the `\n` is not part of it); the last line may lack a `\n`. A line
 * is *timed* when the caller's {@linkcode TimeOf} finds a header timestamp in it (a finite number of
 * epoch ms), else *untimed*. An untimed line (a stack-trace line) belongs to the last timed line before
 * it and has its time; untimed lines before the first timed line have no time.
 *
 * ## The rule of order, and why a seek is exact
 *
 * A log is **ordered within slack W** (ms) when every line's time is ≥ (the greatest time of any
 * earlier line) − W. Write t(X) for a line's time and M(X) for the greatest time of the lines before X.
 *
 * 1. If a timed line Z has t(Z) < S − W, no line before Z has a time ≥ S. Proof: if a line Y before Z
 *    had t(Y) ≥ S, then M(Z) ≥ t(Y) ≥ S, and the order gives t(Z) ≥ M(Z) − W ≥ S − W: a contradiction.
 *    An untimed line before Z has the time of a timed line before Z, so the same holds for it.
 * 2. If a timed line Z has t(Z) ≥ U + W, no line after Z has a time < U. Proof: for a line X after Z,
 *    M(X) ≥ t(Z) ≥ U + W, and the order gives t(X) ≥ M(X) − W ≥ U. An untimed line after Z has the
 *    time of Z or of a timed line after Z, so the same holds for it.
 *
 * So for the window [S, U): {@linkcode seekTime} with `targetMs` = S − W returns `off`, a timed line
 * with t < S − W (or the log's start); by (1) scanning from `off` and keeping the lines with time ≥ S
 * misses none. With `targetMs` = U + W its `end` is a timed line with t ≥ U + W (or the log's end); by
 * (2) no line from `end` on has a time < U, so the scan may stop there. Neither needs the probes to
 * land anywhere in particular: `off` and `end` are only ever lines whose times were read and compared
 * with the target, so they are right whatever the binary search did, *provided the log is ordered
 * within W*. Where the log is ordered, the search also makes them tight (see `seekTime`).
 *
 * ## What checks the order
 *
 * Order cannot be proven without reading every line. What can be seen is checked: every timed line the
 * seek read (the probes' lines and the lines of the last window), taken in file order, must have
 * t ≥ (the greatest earlier time seen) − W; a pair that breaks this proves the log is not ordered
 * within W (the later line is below the running maximum by more than W), and the result says
 * `ordered: false` with `off` at the log's start and `end` at its size, so that a full scan is what it
 * describes. The caller keeps checking while it reads (any line with t < its running maximum − W also
 * proves disorder, and it falls back to a full scan); a disorder entirely before `off`, between two
 * probes, stays unseen, and the answer is exact only for a log ordered within W.
 *
 * ## W for real logs
 *
 * Measured on the Loghub samples (`../shared/corpus/loghub/*_structured.csv`, max over lines of the
 * running maximum − t): HDFS, Hadoop, Spark, OpenSSH 0 ms; Apache 2,000 ms (line 205, two writers);
 * Linux 5,000 ms (line 1983, `sysctl` at boot); Zookeeper 2,310,214,617 ms (26.7 days: the sample is
 * three runs concatenated, ordered within no useful W, so it must fall back to a full scan).
 *
 * @module
 */

import type { ReadableLog } from "./readable_log.ts";
import { nextTurn, YIELD_MS } from "./scanner.ts";

/**
 * The time of one line: epoch ms of the timestamp in its header, or NaN when it has none.
 *
 * @param buf Bytes holding the line.
 * @param start Index of the line's first byte in `buf`.
 * @param end Index just past the line's last byte (its `\r\n` or `\n` excluded), or past the first
 *   `windowBytes` bytes of a line longer than that: the timestamp must be judged from the header.
 */
export type TimeOf = (buf: Uint8Array, start: number, end: number) => number;

/** What {@linkcode seekTime} found. All offsets are byte offsets in the log. */
export interface SeekResult {
  /**
   * Start of a line: the last timed line found with t < target (or the log's first byte,
   * `log.bomLength`, when none is earlier, and when `ordered` is false); scanning from here and keeping
   * lines with t >= target misses none (for a log ordered within the slack: see the module doc).
   */
  off: number;
  /**
   * Time (epoch ms) of the timed line at `off` (NaN when off is the start and that line is untimed, or
   * when `ordered` is false).
   */
  time: number;
  /**
   * Start of the first timed line found with t >= target, at or after `off` (at it only when `off` is
   * the log's first line and that line is timed with t >= target); or `log.size` when none was found
   * (or when `ordered` is false). With target = until + W, no line from here on has a time
   * < until (module doc, rule 2).
   */
  end: number;
  /**
   * False when the times read (at the probes and in the last window) break the order within `slackMs`
   * (then the caller scans from the start). True means only that no break was seen.
   */
  ordered: boolean;
  /** Probes made: binary-search steps, plus the last walk from the final lower bound. */
  probes: number;
  /** Bytes read by the probes (for `scanned_bytes`), re-reads of a line's head included. */
  bytesRead: number;
}

/** Options of {@linkcode seekTime}. */
export interface SeekOptions {
  /** W, in ms: the slack of the order the log is held to (≥ 0). */
  slackMs: number;
  /** Bytes of one probe read (the memory bound), at least 64; default 64 KiB. */
  windowBytes?: number;
  /**
   * The most bytes one probe reads looking for a timed line (through long lines and untimed runs)
   * before it gives up on the range ahead (≥ `windowBytes`); default 1 MiB.
   */
  maxProbeBytes?: number;
}

/** The default probe window: 64 KiB. */
export const SEEK_WINDOW_BYTES = 64 * 1024;
/** The default most bytes read by one probe: 1 MiB. */
export const SEEK_PROBE_BYTES = 1024 * 1024;
/** The smallest probe window allowed, in bytes (a timestamp header must fit in it). */
export const SEEK_MIN_WINDOW = 64;

/** One line seen by a walk: its start and its time (NaN when untimed). */
interface Seen {
  start: number;
  time: number;
}

/** Counters shared by the walks of one seek. */
interface Stats {
  bytesRead: number;
}

/**
 * Walks the lines of `log` from `from`, one window of `window` bytes in memory at a time, giving each
 * line's start and time. `atStart` says `from` is a line start; otherwise the walk starts at the first
 * line start after `from` (so pass `mid - 1` to start at the first line starting at or after `mid`).
 * A line is given to `timeOf` cut at `window` bytes from its start (re-read from its start when a window
 * ends inside it). Stops before a line starting at or after `stop`, at the log's end, or once `cap`
 * bytes were read.
 */
function* walk(
  log: ReadableLog,
  timeOf: TimeOf,
  from: number,
  atStart: boolean,
  stop: number,
  window: number,
  cap: number,
  stats: Stats,
): Generator<Seen> {
  const limit = Math.min(stop, log.size);
  let read = 0;
  let base = from;
  let buf: Uint8Array;
  // Past `limit` no line can start before `stop`, so reading on (through a long line) is useless.
  const load = (at: number): boolean => {
    if (read >= cap || at >= limit) return false;
    base = at;
    buf = log.readRange(at, Math.min(window, log.size - at));
    read += buf.length;
    stats.bytesRead += buf.length;
    return buf.length > 0;
  };
  if (!load(from)) return;
  let i = 0;
  if (!atStart) {
    // Skip to the first line start: after the first `\n`.
    for (;;) {
      const nl = buf!.indexOf(10);
      if (nl >= 0) {
        i = nl + 1;
        break;
      }
      if (!load(base + buf!.length)) return;
    }
  }
  for (;;) {
    if (i >= buf!.length) {
      if (!load(base + i)) return;
      i = 0;
    }
    const s = base + i;
    if (s >= limit) return;
    const nl = buf!.indexOf(10, i);
    if (nl < 0 && i > 0 && base + buf!.length < log.size) {
      // The window ends inside this line: read it again from its start.
      if (!load(s)) return;
      i = 0;
      continue;
    }
    let end = nl < 0 ? buf!.length : nl;
    if (nl >= 0 && end > i && buf![end - 1] === 13) end--;
    const t = timeOf(buf!, i, end);
    yield { start: s, time: Number.isFinite(t) ? t : NaN };
    if (nl >= 0) {
      i = nl + 1;
      continue;
    }
    // A line longer than the window (or the last line): skip to its `\n`.
    for (;;) {
      if (!load(base + buf!.length)) return;
      const n2 = buf!.indexOf(10);
      if (n2 >= 0) {
        i = n2 + 1;
        break;
      }
    }
  }
}

/**
 * Binary search over probe offsets of a plain (not gzip) log for the line boundary before `targetMs`.
 *
 * The search keeps `lo`, a line start whose line is timed with t < target (at first the log's start),
 * and `hi`, an offset such that the first timed line starting at or after it has t ≥ target (at first
 * the log's size). A probe at `mid` (halfway) walks from the first line starting at or after `mid` to
 * the first timed line before `hi`; if its t < target it becomes `lo`, else (or when there is none)
 * `hi` becomes `mid`. Once `hi − lo` ≤ one window, a last walk from `lo` reads the lines starting
 * before `hi` up to the first timed one with t ≥ target (that line is `end`; if there is none, `end` is
 * the line the probe at `hi` found, since the lines between were untimed), and `off` is the last timed
 * line before it with t < target. A probe reads no further than it must to find a line starting before
 * `hi`. For a log whose times never decrease this gives the tightest answer (`off` the last timed
 * line with t < target before the first with t ≥ target, `end` that one), in about log2(size / window)
 * + 1 probes of one window each, unless a probe gives up (below); whatever the log, `off` and `end`
 * are lines whose times were read (module doc).
 *
 * Memory: one probe window (`windowBytes`). A probe that lands inside a line skips to the next line
 * start; untimed lines are read through to the next timed one, window after window; a line longer than
 * the window is judged by its first `windowBytes` bytes (its header) and then skipped to its `\n`,
 * window after window. A probe reads at most `maxProbeBytes` and then counts as finding no timed line
 * ahead (the search goes on in the lower half: still right, less tight). So at most about
 * (log2(size / windowBytes) + 2) × `maxProbeBytes` bytes are read.
 *
 * @param log An open plain log (`readRange` for the probes; `size`, `bomLength`).
 * @param timeOf The time of a line (`TimeOf`).
 * @param targetMs The target (epoch ms): since − W for a window's start, until + W for its end.
 * @param opts The slack W and the window.
 * @returns Where to scan from and to, whether the times seen were ordered, and what it cost.
 * @throws {TypeError} when the log is gzip-compressed (its offsets cannot be probed).
 * @throws {RangeError} when `targetMs` is NaN, `slackMs` is negative or not finite, `windowBytes` is
 *   below {@linkcode SEEK_MIN_WINDOW}, or `maxProbeBytes` is below `windowBytes`.
 * Read errors of the log propagate.
 */
export function seekTime(
  log: ReadableLog,
  timeOf: TimeOf,
  targetMs: number,
  opts: SeekOptions,
): SeekResult {
  const steps = seekSteps(log, timeOf, targetMs, opts);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * {@linkcode seekTime}, letting the event loop turn between probes every `YIELD_MS` (a probe reads at
 * most `maxProbeBytes`: ~3 ms a MiB of lines; a seek over 100 MB of untimed lines held the thread
 * 37 ms in all; issue #22). What the tools call.
 *
 * @throws {TypeError} and {RangeError} as {@linkcode seekTime} (the promise rejects).
 */
export async function seekTimeYielding(
  log: ReadableLog,
  timeOf: TimeOf,
  targetMs: number,
  opts: SeekOptions,
): Promise<SeekResult> {
  const steps = seekSteps(log, timeOf, targetMs, opts);
  let last = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - last >= YIELD_MS) {
      await nextTurn();
      last = performance.now();
    }
  }
}

/** {@linkcode seekTime}'s search, a step (one probe) at a time: it yields after each probe. */
function* seekSteps(
  log: ReadableLog,
  timeOf: TimeOf,
  targetMs: number,
  opts: SeekOptions,
): Generator<void, SeekResult> {
  if (log.gzip) throw new TypeError("a gzip log cannot be seeked: its offsets are decompressed ones");
  const window = opts.windowBytes ?? SEEK_WINDOW_BYTES;
  const cap = opts.maxProbeBytes ?? SEEK_PROBE_BYTES;
  const slack = opts.slackMs;
  if (Number.isNaN(targetMs)) throw new RangeError("targetMs is NaN");
  if (!(slack >= 0) || !Number.isFinite(slack)) {
    throw new RangeError(`slackMs ${slack} is not a finite ms ≥ 0`);
  }
  if (!(window >= SEEK_MIN_WINDOW)) throw new RangeError(`windowBytes ${window} is below ${SEEK_MIN_WINDOW}`);
  if (!(cap >= window)) throw new RangeError(`maxProbeBytes ${cap} is below windowBytes ${window}`);
  const first = log.bomLength;
  const stats: Stats = { bytesRead: 0 };
  const seen: Seen[] = [];
  let probes = 0;
  if (log.size <= first) {
    return { off: first, time: NaN, end: log.size, ordered: true, probes, bytesRead: 0 };
  }
  let lo = first;
  let loTime = NaN;
  let hi = log.size;
  let end = log.size;
  while (hi - lo > window) {
    const mid = lo + Math.floor((hi - lo) / 2);
    probes++;
    let found: Seen | null = null;
    for (const l of walk(log, timeOf, mid - 1, false, hi, window, cap, stats)) {
      if (!Number.isNaN(l.time)) {
        found = l;
        break;
      }
    }
    if (found) seen.push(found);
    yield;
    if (found && found.time < targetMs) {
      lo = found.start;
      loTime = found.time;
    } else {
      if (found && found.start < end) end = found.start;
      hi = mid;
    }
  }
  // The last walk: the lines starting in [lo, hi), up to the first timed one with t ≥ target. The lines
  // starting in [hi, end) are untimed: the probe that set hi walked them (unless it gave up), so the
  // walk need not read on through them (a long line there is not read twice).
  probes++;
  let off = lo;
  let offTime = loTime;
  for (const l of walk(log, timeOf, lo, true, hi, window, cap, stats)) {
    if (l.start === lo) offTime = l.time;
    if (Number.isNaN(l.time)) continue;
    seen.push(l);
    if (l.time >= targetMs) {
      if (l.start < end) end = l.start;
      break;
    }
    off = l.start;
    offTime = l.time;
  }
  if (!inOrder(seen, slack)) {
    return { off: first, time: NaN, end: log.size, ordered: false, probes, bytesRead: stats.bytesRead };
  }
  return { off, time: offTime, end, ordered: true, probes, bytesRead: stats.bytesRead };
}

/**
 * The start of the first timed line found with t ≥ `targetMs`, or `log.size`: {@linkcode seekTime}'s
 * `end`. With `targetMs` = until + W, no line from there on has a time < until (for a log ordered within
 * W). Check the result's `ordered` through `seekTime` when it matters; this one returns `log.size` when
 * the times seen were not ordered.
 *
 * @throws {TypeError} and {RangeError} as {@linkcode seekTime}.
 */
export function seekEnd(log: ReadableLog, timeOf: TimeOf, targetMs: number, opts: SeekOptions): number {
  return seekTime(log, timeOf, targetMs, opts).end;
}

/**
 * True when the timed lines seen, in file order, each have t ≥ (the greatest earlier time) − slack.
 * A line seen twice (a probe and the last walk) counts once.
 */
function inOrder(seen: Seen[], slack: number): boolean {
  seen.sort((a, b) => a.start - b.start);
  let max = -Infinity;
  for (const l of seen) {
    if (l.time < max - slack) return false;
    if (l.time > max) max = l.time;
  }
  return true;
}
