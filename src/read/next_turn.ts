/**
 * When a scan lets the event loop turn: {@linkcode YIELD_MS} and {@linkcode nextTurn}, shared by the
 * scanner and by the reads that loop beside it (a gzip source, a time seek, a search's pattern tests).
 *
 * @module
 */

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
