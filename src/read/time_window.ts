/**
 * Time windows over log lines (issue #12): `since` (inclusive) and `until` (exclusive), each line's time,
 * and the order the lines' times keep.
 *
 * A line's time is the timestamp in its header (`timestamp.ts`); a line without one (a stack-trace line)
 * has the time of the last timestamped line before it, and a line before any timestamped line has none
 * and is in no window. A log is **ordered within slack W** ({@linkcode TIME_SLACK_MS}) when every line's
 * time is at least the greatest time of any earlier line minus W. Under that rule a scan may start at a
 * timed line earlier than `since − W` (`time_seek.ts` proves it). A scan never stops early at `until`:
 * it reads on to the log's end, so a clock that steps back later (a DST fall-back read in a zone, a
 * restarted host) is seen (a trial found a 30-minute step back, after `until`, that an early stop had
 * hidden). A line read with t < (greatest time so far) − W breaks the rule: a first page that was started
 * by a seek then starts again from the log's start; a later page says its answer is not complete.
 *
 * @module
 */

import type { ReadableLog, ResumePoint } from "./readable_log.ts";
import { seekTimeYielding } from "./time_seek.ts";

/** The time of a line's header, epoch ms, or NaN when it has none (`LineClock.timeOf`). */
export type TimeOf = (buf: Uint8Array, start: number, end: number) => number;

/**
 * The slack W of the order rule, in ms: how far a line's time may fall behind the greatest earlier one
 * and the log still count as ordered (writers on several threads stamp lines a little out of order).
 */
export const TIME_SLACK_MS = 5000;

/** A window: epoch ms, `since` inclusive, `until` exclusive; −∞ and +∞ for an open side. */
export interface TimeSpan {
  since: number;
  until: number;
}

/** What a scan carries from one page to the next (in the cursor): the last time, the greatest time. */
export interface TimeCarry {
  /** The time of the last timestamped line read (NaN: none yet). */
  last: number;
  /** The greatest time read so far (−∞: none yet). */
  max: number;
}

/**
 * The times of one scan's lines, in file order: each line's time, whether it is in the window, whether the
 * scan may stop, and the span and order seen.
 */
export class LineTimes {
  /** Earliest and latest timestamps read (NaN: none). */
  earliest = NaN;
  latest = NaN;
  /** Lines read that had no timestamp of their own. */
  untimed = 0;
  /** A line fell behind the greatest earlier time by more than the slack. */
  disorder = false;
  /** The time of the last timestamped line (untimed lines take it). */
  last: number;
  /** The greatest time read. */
  max: number;

  /**
   * @param timeOf The header parser.
   * @param span The window.
   * @param carry The state a resumed page starts from.
   * @param slackMs The slack W.
   */
  constructor(
    readonly timeOf: TimeOf,
    readonly span: TimeSpan,
    carry?: TimeCarry,
    readonly slackMs: number = TIME_SLACK_MS,
  ) {
    this.last = carry?.last ?? NaN;
    this.max = carry?.max ?? -Infinity;
  }

  /**
   * The time of the line `buf[start, end)` (its own, or the last timestamped line's), noting span, order
   * and untimed lines. Call once per line, in file order.
   */
  see(buf: Uint8Array, start: number, end: number): number {
    const t = this.timeOf(buf, start, end);
    if (t !== t) { // NaN: no timestamp of its own
      this.untimed++;
      return this.last;
    }
    if (t < this.max - this.slackMs) this.disorder = true;
    if (t > this.max) this.max = t;
    if (!(t >= this.earliest)) this.earliest = t;
    if (!(t <= this.latest)) this.latest = t;
    this.last = t;
    return t;
  }

  /** True when time `t` (from {@linkcode see}) is in the window (NaN never is). */
  inside(t: number): boolean {
    return t >= this.span.since && t < this.span.until;
  }

  /** What the next page starts from. */
  carry(): TimeCarry {
    return { last: this.last, max: this.max };
  }

  /**
   * The page's report: what this scan saw, with how the log was entered.
   *
   * @param order `seek`, `in_order` or `out_of_order` (as the page ended).
   * @param probes The seek's probes.
   * @param lineKnown Whether line numbers are known.
   * @param brokenAfterSeek Whether a later page found the order broken after a seek.
   */
  report(
    order: TimeReport["order"],
    probes: number,
    lineKnown: boolean,
    brokenAfterSeek = false,
  ): TimeReport {
    return {
      earliest: this.earliest,
      latest: this.latest,
      untimed: this.untimed,
      carry: this.carry(),
      order,
      probes,
      lineKnown,
      brokenAfterSeek,
    };
  }
}

/** True when `span` bounds nothing (no `since`, no `until`). */
export function openSpan(span: TimeSpan | undefined): boolean {
  return !span || (span.since === -Infinity && span.until === Infinity);
}

/** A read's time window (`log_search`, `log_levels`, `log_tail`), and what a resumed page carries. */
export interface WindowOptions {
  /** The window, epoch ms. */
  span: TimeSpan;
  /** Reads a line's header time. */
  timeOf: TimeOf;
  /** From a cursor: the last and greatest times of the pages before. */
  carry?: TimeCarry;
  /** From a cursor: false when the first page started after a seek (line numbers unknown). */
  lineKnown?: boolean;
  /** From a cursor: the order broke on a page after a seek (`TimeReport.brokenAfterSeek`). */
  brokenAfterSeek?: boolean;
  /**
   * Asked after the seek's probes: true when their times say not to seek after all (zone-less times read
   * in a zone with DST, whose fall-back repeats an hour): the log is then read from its start.
   */
  noSeekAfterProbes?: () => boolean;
  /** No seek (a gzip log cannot; a test compares with the full scan). */
  noSeek?: boolean;
}

/** How a windowed search went about the log's order (`time_window.ts`). */
export interface TimeReport {
  /** Earliest and latest timestamps read (epoch ms; NaN: none). */
  earliest: number;
  latest: number;
  /** Lines read without a timestamp of their own. */
  untimed: number;
  /** What the next page carries. */
  carry: TimeCarry;
  /**
   * `seek`: entered by a binary search (`probes` probes), the log in order within the slack as far as read;
   * `in_order`: read from the start (or the cursor) to the end, no break of the order seen;
   * `out_of_order`: times out of order (at the probes or while reading): every line read and tested.
   */
  order: "seek" | "in_order" | "out_of_order";
  /** Probes of the seek (0: none). */
  probes: number;
  /** Line numbers are known (read from the log's start). */
  lineKnown: boolean;
  /**
   * A page after the first found the order broken where the first page had entered the log by a seek:
   * lines before the seek's point (never read) may be in the window. The answer is then not complete.
   */
  brokenAfterSeek?: boolean;
}

/**
 * A plain log of at most this many bytes (8 MiB, eight pieces: tens of ms to read) is read whole for a
 * window: no seek, so its line numbers stay known.
 */
export const SMALL_LOG_BYTES = 8 * 1024 * 1024;

/** How a windowed read enters a log ({@linkcode planWindow}). */
export interface WindowPlan {
  /** Where to start: a seek's point (line numbers then unknown), or null (the start, or the cursor). */
  from: ResumePoint | null;
  /** `seek`, `in_order` (from the start) or `out_of_order` (the probes saw the order broken: no seek). */
  order: TimeReport["order"];
  /** The probes made, and the bytes they read. */
  probes: number;
  bytesRead: number;
}

/**
 * How a windowed read enters a plain log: with `since` on a first page, a binary search over timestamps
 * (`time_seek.ts`) for a timed line before `since − W`. A later page goes on from its cursor as its first
 * page entered the log. A gzip log (no offsets to probe), a log of at most {@linkcode SMALL_LOG_BYTES},
 * `noSeek`, or no `since`: read from the start, no probes.
 *
 * @param log The open log.
 * @param win The window.
 * @param resumed True for a page after the first (from a cursor).
 * @returns Where to start and what the order is.
 */
export async function planWindow(
  log: ReadableLog,
  win: WindowOptions,
  resumed: boolean,
): Promise<WindowPlan> {
  const none = { from: null, order: "in_order" as const, probes: 0, bytesRead: 0 };
  // A later page goes on as its first page entered the log (the cursor says whether by a seek).
  if (resumed) {
    return {
      ...none,
      order: win.brokenAfterSeek ? "out_of_order" : win.lineKnown === false ? "seek" : "in_order",
    };
  }
  const since = win.span.since;
  if (log.gzip || win.noSeek || since === -Infinity) return none;
  // A small log is read whole: its line numbers stay known.
  if (log.size - log.bomLength <= SMALL_LOG_BYTES) return none;
  const s = await seekTimeYielding(log, win.timeOf, since - TIME_SLACK_MS, { slackMs: TIME_SLACK_MS });
  const base = { probes: s.probes, bytesRead: s.bytesRead };
  if (!s.ordered) return { ...base, from: null, order: "out_of_order" };
  if (win.noSeekAfterProbes?.()) return { ...base, from: null, order: "in_order" };
  if (s.off > log.bomLength) {
    return { ...base, from: { off: s.off, ls: s.off, line: 0, pending: false, skip: 0 }, order: "seek" };
  }
  return { ...base, from: null, order: "in_order" };
}

/** One page of a windowed read, from `from` (see {@linkcode windowedRead}). */
export type ReadPage<P> = (
  from: ResumePoint,
  lineKnown: boolean,
  order: TimeReport["order"] | null,
  probes: number,
) => Promise<P & { scanned_bytes: number; disorder?: boolean }>;

/**
 * A read of one log page with or without a window (`search.ts`, `count_levels.ts`): without one, from the
 * cursor or the start; with one, entered as {@linkcode planWindow} says, the probes' bytes counted, and a
 * first page entered by a seek whose page found the order broken read again from the start.
 *
 * @param log The open log.
 * @param win The window, if any.
 * @param resume The cursor's point, if any.
 * @param page Reads one page.
 * @returns The page.
 */
export async function windowedRead<P>(
  log: ReadableLog,
  win: WindowOptions | undefined,
  resume: ResumePoint | undefined,
  page: ReadPage<P>,
): Promise<P & { scanned_bytes: number; disorder?: boolean }> {
  const start: ResumePoint = { off: log.bomLength, ls: log.bomLength, line: 0, pending: false, skip: 0 };
  if (!win) return await page(resume ?? start, true, null, 0);
  const plan = await planWindow(log, win, resume !== undefined);
  const known = resume ? (win.lineKnown ?? true) : plan.from === null;
  const first = await page(plan.from ?? resume ?? start, known, plan.order, plan.probes);
  first.scanned_bytes += plan.bytesRead;
  if (!first.disorder) return first;
  // Out of order after the seek: lines before it may be in the window after all. Read from the start.
  const again = await page(start, true, "out_of_order", plan.probes);
  again.scanned_bytes += first.scanned_bytes;
  return again;
}
