/**
 * Counting every line of a log by level, in one pass, within a time budget.
 *
 * @module
 */

import { HEADER_BYTES, levelOf, LEVELS, STRUCTURED_BYTES } from "./level.ts";
import { fileSource, type OpenLog } from "./log_file.ts";
import { scan, type StopReason } from "./scanner.ts";

/** Options of {@linkcode countLevels}. */
export interface LevelsOptions {
  /** Time budget in ms. */
  levelsMs: number;
  /** Bytes per read. */
  pieceSize: number;
}

/** What {@linkcode countLevels} found: the `log_levels` result without its `file`. */
export interface LevelsResult {
  /** Lines per level; every level is present, 0 included. */
  counts: Record<(typeof LEVELS)[number], number>;
  /** Lines counted (the sum of `counts`). */
  total_lines: number;
  /** True when the whole file was read. */
  complete: boolean;
  /** Why not complete; null when complete. */
  stop_reason: StopReason | null;
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
export async function countLevels(log: OpenLog, opts: LevelsOptions): Promise<LevelsResult> {
  const counts = new Float64Array(LEVELS.length);
  const src = fileSource(log, log.bomLength);
  const r = await scan(src, {
    line(buf, s, e, _no, _cut, hint) {
      counts[levelOf(buf, s, e, hint)]++;
      return true;
    },
  }, {
    pieceSize: opts.pieceSize,
    deadline: performance.now() + opts.levelsMs,
    headBytes: Math.max(STRUCTURED_BYTES, HEADER_BYTES),
  });
  const out = Object.fromEntries(LEVELS.map((l, i) => [l, counts[i]])) as LevelsResult["counts"];
  const stop = r.stop ?? (src.truncated ? "file_changed" : null);
  return { counts: out, total_lines: r.lines, complete: stop === null, stop_reason: stop };
}
