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
