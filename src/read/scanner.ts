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
 *   (`simd.ts` `simdScanner`, `needle_finder.ts`): only the lines a sink keeps are ever decoded.
 *
 * A line ends at `\n`; a `\r` just before it is not part of the line; the last line counts without a
 * final `\n` (`../shared/cases/CONVENTIONS.md`).
 *
 * The steps of {@linkcode scan}, each in its file: the scan's state and its small steps (`line_scan.ts`:
 * carry the unfinished line, decide whether to read, read a piece), a line longer than the buffer
 * (`long_line.ts`), the lines of a piece (`hand_lines.ts`), the end (`scan_end.ts`); what a scan is
 * given and gives back is in `scan_options.ts`.
 *
 * @module
 */

import { LineScan } from "./line_scan.ts";
import { handLines } from "./hand_lines.ts";
import { streamLongLine } from "./long_line.ts";
import { finishEnd, scanResult } from "./scan_end.ts";
import type { ByteSource, LineSink, ScanOptions, ScanResult } from "./scan_options.ts";

export type { ByteSource, LineSink, ScanOptions, ScanResult, StopReason } from "./scan_options.ts";
export { nextTurn, YIELD_MS } from "./next_turn.ts";
export { CHECK_UNITS } from "./line_scan.ts";
export { rarePair, SAMPLE_BYTES } from "./needle_finder.ts";

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
  try {
    await scanLines(s, opts);
    await finishEnd(s);
  } finally {
    s.turns.close();
  }
  return scanResult(s);
}

/** The loop of {@linkcode scan}: read a piece, hand its lines on, until the end or a stop. */
async function scanLines(s: LineScan, opts: ScanOptions): Promise<void> {
  while (true) {
    s.carryUnfinishedLine();
    if (!s.mayRead()) break;
    await s.yieldNow();
    const from = await s.readPiece();
    if (from < 0) break;
    const rest = streamLongLine(s, from);
    let ok = rest >= 0 && handLines(s, rest);
    while (!ok) {
      if (s.paused) {
        // Inside a piece, between two lines: the event loop turns, then the clock is read again at once.
        s.paused = false;
        await s.turns.next();
        s.lastYield = performance.now();
        s.untilCheck = 0;
      } else if (s.stop === "limit" && opts.resumeAfterStop && await opts.resumeAfterStop()) {
        // The sink's stop awaited something (a turn, a test in a worker): the event loop turned.
        s.stop = null;
        s.lastYield = performance.now();
      } else break;
      ok = handLines(s, s.ls);
    }
    if (!ok) break;
  }
}
