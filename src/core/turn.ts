/**
 * Letting the event loop turn in the middle of long synchronous work (issue #22: no call holds the
 * others), so that other calls' messages are read and their work runs, timers fire and a cancel
 * arrives.
 *
 * @module
 */

import { setImmediate } from "node:timers";

/**
 * Resolves once the event loop has turned: pending I/O (stdin frames, a worker's messages) and due timers
 * run first. Costs microseconds (a `setTimeout(0)` waits a millisecond or more, a fifth of the work when
 * yielding every 5 ms); a resolved promise alone would not let I/O in.
 *
 * @returns A promise that resolves on the next turn (after the poll phase: `setImmediate`).
 * @example
 * ```ts
 * import { turn } from "./turn.ts";
 * let last = performance.now();
 * for (let i = 0; i < 1e6; i++) {
 *   if (performance.now() - last > 5) {
 *     await turn();
 *     last = performance.now();
 *   }
 * }
 * ```
 */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * How often {@linkcode Turns} waits for a timer instead of an immediate, in milliseconds: in a worker, a
 * message from the host waited up to 159 ms behind turns that were all `setImmediate`, and 34 ms when one
 * in 20 ms was a `setTimeout(0)` (which costs 1–2.5 ms here; all of them cost a third of the work).
 */
export const TIMER_EVERY_MS = 20;

/**
 * The turns of one long piece of work: {@linkcode turn} (microseconds) most of the time, and a
 * `setTimeout(0)` at least every {@linkcode TIMER_EVERY_MS}, which lets a worker's messages in (a call or
 * a cancel sent to the tool worker).
 *
 * @example
 * ```ts
 * import { Turns } from "./turn.ts";
 * const turns = new Turns();
 * let last = performance.now();
 * for (let i = 0; i < 1e6; i++) {
 *   if (performance.now() - last > 5) {
 *     await turns.next();
 *     last = performance.now();
 *   }
 * }
 * ```
 */
export class Turns {
  #lastTimer = performance.now();

  /** Resolves once the event loop has turned (a timer's turn when one is due). */
  next(): Promise<void> {
    const now = performance.now();
    if (now - this.#lastTimer < TIMER_EVERY_MS) return turn();
    this.#lastTimer = now;
    return new Promise((resolve) => setTimeout(resolve, 0));
  }
}
