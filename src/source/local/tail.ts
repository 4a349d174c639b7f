/**
 * `log_tail` over local files: the last lines of one log, read from its last `LOGPEEK_TAIL_BYTES`
 * (`read/tail.ts`; a gzip log is inflated whole), in a time window when one is given.
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import type { Level } from "../../read/level.ts";
import type { ReadableLog } from "../../read/readable_log.ts";
import { tailLog, type TailResult } from "../../read/tail.ts";
import { requireTimestamps, resolveSpan, timeFields, windowFor } from "../../read/time_span.ts";
import type { Call } from "../backend.ts";
import { isGlob } from "../glob.ts";
import type { TailAnswer, TailQuery } from "../tail_query.ts";
import type { LocalEnv } from "./local_env.ts";

/**
 * The last lines of one log under the roots.
 *
 * @param env The local source, limits, masking.
 * @param q The log, how many lines, the level, the window.
 * @param call The client's cancellation.
 * @returns The tail, oldest first; line numbers only when the read covered the whole log.
 * @throws {ToolError} what opening the log throws (`not_found`, `permission_denied`, …); `invalid_time`,
 *   `no_timestamps` for a window.
 */
export async function localTail(env: LocalEnv, q: TailQuery, call?: Call): Promise<TailAnswer> {
  using log = await openOne(env, q.file);
  const zone = env.limits.tz;
  const span = resolveSpan(q.window, zone, undefined);
  const r = await tailLog(log, {
    ...env.limits,
    lines: q.lines,
    level: q.level,
    redact: env.redact,
    gzipMs: env.limits.levelsMs,
    signal: call?.signal,
    window: span ? windowFor(span, log, zone, undefined) : undefined,
  });
  requireTimestamps(span, [r.time], r.read_lines, log.name);
  return {
    file: log.name,
    lines: r.lines,
    whole_file: r.whole_file,
    dropped_partial: r.dropped_partial,
    replaced_bytes: r.replaced_bytes,
    redactions: r.redactions,
    scanned_bytes: r.scanned_bytes,
    ...(r.unplaced_lines !== undefined ? { unplaced_lines: r.unplaced_lines } : {}),
    log_format: r.log_format,
    ...(r.unresolved_levels !== undefined ? { unresolved_levels: r.unresolved_levels } : {}),
    time: timeFields(span, zone, [r.time]),
    unit: "line",
    scope: tailScope(r, env.limits.tailBytes, q.level, q.lines),
  };
}

/**
 * Opens the one log a tail reads: a glob is refused, as over a table, unless a log has that very name
 * (`log_files` may list a name that holds a glob's characters).
 *
 * @throws {ToolError} `invalid_argument` for a glob that names no log; what opening the log throws.
 */
async function openOne(env: LocalEnv, file: string): Promise<ReadableLog> {
  try {
    return await env.source.open(file);
  } catch (e) {
    if (e instanceof ToolError && e.kind === "not_found" && isGlob(file)) {
      throw new ToolError("invalid_argument", "log_tail takes one log, not a glob: log_files lists them");
    }
    throw e;
  }
}

/**
 * What a tail of a file read and did not, for the header: whether line numbers are exact, the fragment
 * dropped at the window's start, and that lines of a level may exist before the window.
 *
 * @param r The tail read.
 * @param tailBytes The window's size in bytes (LOGPEEK_TAIL_BYTES).
 * @param level The level asked for, if any.
 * @param asked How many lines were asked for; fewer from a window that began inside a line means a line
 *   longer than the window stands before them, and the words say how to read past it.
 */
export function tailScope(r: TailResult, tailBytes: number, level: Level | undefined, asked: number): string {
  const scope = r.whole_file
    ? "the window covered the whole file, so line numbers are exact"
    : `read only the last ${tailBytes} bytes, so line numbers are unknown (-)` +
      (r.dropped_partial ? "; the window began inside a line and that fragment was dropped" : "") +
      (r.dropped_partial && !level && r.lines.length < asked
        ? ` (fewer lines than the ${asked} asked: a line longer than the window stands before them; ` +
          'log_search with text="^", regex=true and until= the first line\'s time reads the lines before it)'
        : "");
  const more = level && !r.whole_file
    ? `; lines of level ${level} may also exist before the window: log_search with level=${level} reads from the start`
    : "";
  return scope + more;
}
