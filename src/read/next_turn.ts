/**
 * When a scan lets the event loop turn: {@linkcode YIELD_MS} and {@linkcode nextTurn}, shared by the
 * scanner and by the reads that loop beside it (a gzip source, a time seek, a search's pattern tests).
 *
 * @module
 */

import { setImmediate } from "node:timers";

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
 * The turns of one scan (issue #26): each waits for a timer armed at the turn before, and then for an
 * immediate. The timer is due by then (a scan turns at most every {@linkcode YIELD_MS}), so the wait is
 * only the turn: ~0.1–0.7 ms against ~2.1–3 ms for a fresh {@linkcode nextTurn} (a fifth of a literal
 * search's time at 10 ms between turns). Waiting for a due timer makes Deno poll its I/O driver (the pipes,
 * sockets and a worker's messages, as {@linkcode nextTurn}); the immediate, which runs after the poll
 * phase, lets what that poll found run before the scan goes on (measured with a worker's messages and a
 * child's pipe arriving every 37 ms while the loop worked 10 ms between turns: the median wait for a message
 * was the same, 2–10 ms, as with {@linkcode nextTurn}). The first turn is a {@linkcode nextTurn}.
 * Call {@linkcode ScanTurns.close} when the scan ends: it clears the armed timer.
 */
export class ScanTurns {
  #armed: Promise<void> | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #fired = false;

  /** Resolves once the event loop has turned (its I/O polled and handled); arms the next turn's timer. */
  async next(): Promise<void> {
    // A timer that already fired (the scan awaited something else meanwhile) polls nothing now: a fresh one.
    const armed = this.#armed !== null && !this.#fired ? this.#armed : nextTurn();
    this.#armed = null;
    await armed;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.arm();
  }

  /**
   * Arms the next turn's timer now, unless one is armed: a caller that is about to work (a page's scan
   * starting) calls it so that its first turn too waits for a due timer, not a fresh one (~2 ms a page).
   */
  arm(): void {
    if (this.#armed !== null) return;
    this.#fired = false;
    this.#armed = new Promise((
      resolve,
    ) => (this.#timer = setTimeout(() => (this.#fired = true, resolve()), 0)));
  }

  /** Clears the armed timer (the scan is over). */
  close(): void {
    clearTimeout(this.#timer);
    this.#armed = null;
  }
}
