/**
 * Counting every line of a log by level, in one pass, within a time budget.
 *
 * @module
 */

import { HEADER_BYTES, LEVELS, STRUCTURED_BYTES } from "./level.ts";
import type { ReadableLog, ResumePoint } from "./readable_log.ts";
import { sourceFor } from "./scan_source.ts";
import { progressed } from "./search.ts";
import { scan, type StopReason } from "./scanner.ts";

/** Options of {@linkcode countLevels}. */
export interface LevelsOptions {
  /** Time budget in ms. */
  levelsMs: number;
  /** Bytes per read. */
  pieceSize: number;
  /** Where a resumed count goes on (from a cursor). */
  resume?: ResumePoint;
  /** Aborted when the client cancels. */
  signal?: AbortSignal;
  /** Receives the file offset reached, the file's size and a short message, at most every 250 ms. */
  onProgress?: (offset: number, total: number, message: string) => void;
}

/** What {@linkcode countLevels} found: the `log_levels` result without its `file`. */
export interface LevelsResult {
  /** Lines per level; every level is present, 0 included. */
  counts: Record<(typeof LEVELS)[number], number>;
  /** Lines counted in this page (the sum of `counts`). */
  total_lines: number;
  /** The number of the last line counted, from the file's start (pages continue from it). */
  last_line: number;
  /** True when the whole file was read. */
  complete: boolean;
  /** Why not complete; null when complete. */
  stop_reason: StopReason | null;
  /** Where the next page goes on; null when complete (or stopped for another reason). */
  next: ResumePoint | null;
  /** True when the page could not get anywhere within its budget (so no cursor is given). */
  stuck: boolean;
}

/**
 * Counts the lines of an open log by level.
 *
 * Memory: one piece, whatever the size of the file or of one line.
 *
 * @param log The open log.
 * @param opts The budget.
 * @returns The counts so far, and whether they cover the whole file.
 */
export async function countLevels(log: ReadableLog, opts: LevelsOptions): Promise<LevelsResult> {
  const counts = new Float64Array(LEVELS.length);
  const headBytes = Math.max(STRUCTURED_BYTES, HEADER_BYTES);
  const from = opts.resume ?? { off: log.bomLength, ls: log.bomLength, line: 0, pending: false, skip: 0 };
  const { src, resume, damage, reached } = await sourceFor(log, from, headBytes, 0);
  // The scanner counts each line's level itself (no sink call per line): the sink is never called.
  const r = await scan(src, { line: () => true }, {
    levelCounts: counts,
    pieceSize: opts.pieceSize,
    deadline: performance.now() + opts.levelsMs,
    headBytes,
    lineBase: from.line,
    resume,
    cancelled: opts.signal ? () => opts.signal!.aborted : undefined,
    onProgress: opts.onProgress
      ? (bytes, lines) => opts.onProgress!(reached(bytes), log.size, `${lines} lines counted`)
      : undefined,
  });
  const out = Object.fromEntries(LEVELS.map((l, i) => [l, counts[i]])) as LevelsResult["counts"];
  const stop = r.stop ?? damage();
  const next: ResumePoint | null = stop === "time_budget"
    ? { off: from.off + r.bytesRead, ls: from.off + r.resumeAt, line: r.lines, pending: false, skip: 0 }
    : null;
  return {
    counts: out,
    stuck: next !== null && progressed(from, next) === null,
    total_lines: r.lines - from.line,
    last_line: r.lines,
    complete: stop === null,
    stop_reason: stop,
    next,
  };
}
