/**
 * The end of a log: the last lines within a window of at most `tailBytes` bytes from its end.
 *
 * From the seed (`../shared/seeds/000_…`, "Хвост файла и номера строк"): nothing before the window is
 * read except the one byte just before it, which says whether the window's first line is whole (a line
 * that starts right after a newline is kept; a fragment is dropped and reported). Line numbers are
 * known only when the window covers the whole file.
 *
 * @module
 */

import { type Level, LEVELS, UNKNOWN } from "./level.ts";
import { formatOf } from "./log_format.ts";
import { entryLevels } from "./entry_levels.ts";
import { type Kept, TailRing } from "./tail_ring.ts";
import { type LogLine, toLogLine } from "./log_line.ts";
import type { LogBytes, ReadableLog } from "./readable_log.ts";
import { gzipSource } from "./gzip_source.ts";
import { type ByteSource, scan, type StopReason } from "./scanner.ts";
import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import { LineRedactor } from "../guard/redact.ts";
import { LineTimes, TIME_SLACK_MS } from "./time_window.ts";
import { seekTimeYielding } from "./time_seek.ts";
import type { TimeReport, WindowOptions } from "./time_window.ts";

/** Options of {@linkcode tailLog}. */
export interface TailOptions {
  /** How many lines at most. */
  lines: number;
  /** Keep only lines of this level. */
  level?: Level;
  /** The window: the most bytes read from the end. */
  tailBytes: number;
  /** The most characters of one returned line. */
  maxLine: number;
  /** Bytes per read. */
  pieceSize: number;
  /** Mask secrets in the returned text (false for `--no-redact`). */
  redact: boolean;
  /** The time budget (ms) for decompressing a whole gzip log (`LOGPEEK_LEVELS_MS`). */
  gzipMs: number;
  /** Aborted when the client cancels (decompressing a whole `.gz` can take a while). */
  signal?: AbortSignal;
  /**
   * A time window (issue #12): the last lines whose time is in it. With `until`, a plain log's tail window
   * ends where `until` is passed (found by a binary search over timestamps), not at the file's end.
   */
  window?: WindowOptions;
}

/** What {@linkcode tailLog} found: the `log_tail` result without its `file`. */
export interface TailResult {
  /** The last lines, oldest first. */
  lines: LogLine[];
  /** True when the window covered the whole file (then every line has its `line_no`). */
  whole_file: boolean;
  /** True when the window began inside a line and that fragment was dropped. */
  dropped_partial: boolean;
  /** Bytes of the returned lines that were invalid UTF-8 and replaced. */
  replaced_bytes: number;
  /** Secrets masked in the returned lines. */
  redactions: number;
  /** Bytes read (a seek's probes included). */
  scanned_bytes: number;
  /** Lines read in the tail window (whatever their level or time). */
  read_lines: number;
  /**
   * Lines of the tail window whose level could not be told because no line within `entry_levels.ts`
   * `LOOKBACK_BYTES` before them tells their entry (continuation lines, or lines with neither a level nor
   * a time): level UNKNOWN, and kept by no level filter but UNKNOWN. Absent when none.
   */
  unresolved_levels?: number;
  /** With a window: how the log's times were read. */
  time?: TimeReport;
  /**
   * With a window: lines at the tail window's start whose time is not known (no timestamp of their own,
   * and the timestamped line before them lies before the window): not returned.
   */
  unplaced_lines?: number;
  /** The format the log was read as (`log_format.ts`, detected from its first lines), or null: the general rules. */
  log_format: string | null;
}

/**
 * Reads the last lines of an open log.
 *
 * Memory: one piece, plus at most `lines` copies of a line's first `4 × maxLine + 1` bytes.
 *
 * @param log The open log.
 * @param opts How many lines, which level, the window.
 * @returns The lines and what the window covered.
 * @throws Read errors of the handle.
 * @throws {ToolError} `file_changed` when the log changed while it was read, `corrupt_gzip` for a damaged
 *   gzip log, `budget_exceeded` when a gzip log could not be decompressed within `gzipMs`.
 */
export async function tailLog(log: ReadableLog, opts: TailOptions): Promise<TailResult> {
  const win = opts.window;
  const { start, end, floor, order, probes, probeBytes } = await tailSpan(log, opts);
  // A gzip log has no end to seek to: all of it is decompressed, keeping only the last lines, so its
  // line numbers are known (issue #5).
  const whole = log.gzip || start === log.bomLength;
  const times = win ? new LineTimes(win.timeOf, win.span) : null;
  /** Lines before the first timestamped line of the tail window, when it did not start at a known time. */
  let unplaced = 0;
  const placed = start === log.bomLength || start === floor;
  const firstLineWhole = whole || log.byteAt(start - 1) === 10;
  const keepBytes = opts.maxLine * 4 + 1;
  const want = opts.level === undefined ? -1 : LEVELS.indexOf(opts.level);
  const kept = new TailRing(opts.lines, keepBytes, want);
  const held = kept.held;
  const format = formatOf(log);
  const gz = log.gzip ? gzipSource(log) : null;
  const src = gz ?? log.bytes(start, end);
  // The inflater's native state is freed as soon as the scan ends (`check()` and `corrupt` still answer).
  // Each line's level is its entry's (a stack frame's, its error's): read on from line to line, and back
  // from the window's first line to its entry (`entry_levels.ts`). A stamped line with no level may get
  // its level from the line after it, so it is held until that line is read.
  const entries = entryLevels(log, format);
  const r = await scan(src, {
    line(buf, s, e, lineNo, cut, hint, at) {
      const code = entries.levelAt(buf, s, e, hint, start + at, cut);
      if (entries.retro >= 0 && held.len >= 0) held.code = entries.retro;
      kept.release();
      if (times) {
        const t = times.see(buf, s, e);
        if (t !== t && !placed) unplaced++;
        if (!times.inside(t)) return true;
      }
      if (code !== UNKNOWN || !entries.bare) kept.keep(buf, s, e, lineNo, cut, code);
      else kept.hold(buf, s, e, lineNo, cut, code);
      return true;
    },
  }, {
    pieceSize: opts.pieceSize,
    maxBytes: gz ? Infinity : end - start,
    maxBytesIsEnd: !gz,
    firstLineWhole,
    headBytes: keepBytes,
    deadline: gz ? performance.now() + opts.gzipMs : Infinity,
    cancelled: opts.signal ? () => opts.signal!.aborted : undefined,
  }).finally(() => gz?.close());
  kept.release();
  checkRead(log, gz, src, r.lines, r.stop, opts.gzipMs);
  const redactor = new LineRedactor(opts.redact, want < 0);
  const { lines, replaced } = rendered(kept.ordered(), whole, opts.maxLine, redactor);
  return {
    lines,
    whole_file: whole,
    dropped_partial: r.droppedPartial,
    replaced_bytes: replaced,
    redactions: redactor.count,
    scanned_bytes: r.bytesRead + probeBytes + entries.bytesRead,
    read_lines: r.lines,
    time: times?.report(times.disorder ? "out_of_order" : order, probes, whole),
    unplaced_lines: times ? unplaced : undefined,
    log_format: format?.name ?? null,
    unresolved_levels: entries.unresolved || undefined,
  };
}

/**
 * Where a tail reads (the plan of {@linkcode tailLog}): the bytes `[start, end)` of the log (0 and its
 * size for a gzip log, which is decompressed whole), the window's floor (`since`'s seek, or the BOM's
 * end), how the log's times stood (`seek` when a seek placed the window) and what the seeks cost.
 */
interface TailSpan {
  start: number;
  end: number;
  floor: number;
  order: TimeReport["order"];
  probes: number;
  probeBytes: number;
}

/**
 * The bytes a tail reads: with a time window on a plain log, its end (`until`) and its start (`since`)
 * found by binary searches (bounded reads) on a log in time order; then at most `tailBytes` before the
 * end, from the file's start when it can (a seek's start is later only to bound the read): its lines are
 * then numbered, and the time test drops those before `since`.
 *
 * @throws Read errors of the handle.
 */
async function tailSpan(log: ReadableLog, opts: TailOptions): Promise<TailSpan> {
  const size = log.size;
  const win = opts.window;
  let end = size;
  let probes = 0;
  let probeBytes = 0;
  let order: TimeReport["order"] = "in_order";
  let floor = log.bomLength;
  if (win && !log.gzip) {
    if (win.span.until !== Infinity) {
      const e = await seekTimeYielding(log, win.timeOf, win.span.until + TIME_SLACK_MS, {
        slackMs: TIME_SLACK_MS,
      });
      probes += e.probes;
      probeBytes += e.bytesRead;
      if (e.ordered) end = e.end;
      else order = "out_of_order";
    }
    if (win.span.since !== -Infinity && order !== "out_of_order") {
      const b = await seekTimeYielding(log, win.timeOf, win.span.since - TIME_SLACK_MS, {
        slackMs: TIME_SLACK_MS,
      });
      probes += b.probes;
      probeBytes += b.bytesRead;
      if (b.ordered) floor = b.off;
      else order = "out_of_order";
    }
    if (win.noSeekAfterProbes?.()) order = "out_of_order"; // zone-less times around a DST fall-back
    if (order === "out_of_order") {
      // Read as a plain tail, every line's time tested.
      end = size;
      floor = log.bomLength;
    } else if (probes > 0) order = "seek";
  }
  const start = log.gzip
    ? 0
    : end - log.bomLength <= opts.tailBytes
    ? log.bomLength
    : Math.max(floor, end - opts.tailBytes);
  return { start, end, floor, order, probes, probeBytes };
}

/**
 * Throws when what a tail read cannot be answered: the log changed while it was read, a gzip log is
 * damaged, or it could not be decompressed to its end within `gzipMs`.
 *
 * @param lines Lines read (for the message on a damaged gzip log).
 * @param stop Why the scan stopped (null: at the end).
 * @throws {ToolError} `file_changed`, `corrupt_gzip` or `budget_exceeded`.
 */
function checkRead(
  log: ReadableLog,
  gz: ReturnType<typeof gzipSource> | null,
  src: ByteSource,
  lines: number,
  stop: StopReason | null,
  gzipMs: number,
): void {
  const changed = gz ? gz.check() : (src as LogBytes).check();
  if (changed) {
    throw new ToolError(
      "file_changed",
      `${printable(log.name)} changed while it was being read: it ${changed}; what was read may mix old ` +
        "and new content: call again",
    );
  }
  if (gz?.corrupt) {
    throw new ToolError(
      "corrupt_gzip",
      `${printable(log.name)} is damaged or cut short after ${lines} lines (${gz.corrupt}); its last lines ` +
        "cannot be read: log_search and log_levels report what comes before the damage",
    );
  }
  if (gz && stop === "time_budget") {
    throw new ToolError(
      "budget_exceeded",
      `${printable(log.name)} could not be decompressed to its end within LOGPEEK_LEVELS_MS ` +
        `(${gzipMs} ms): raise it, or search it with log_search`,
    );
  }
}

/**
 * The kept lines as `log_tail` returns them (decoded, cut at `maxLine` characters, secrets masked by
 * `redactor`), numbered when the tail covered the whole file, and the invalid UTF-8 bytes replaced.
 */
function rendered(
  kept: Kept[],
  whole: boolean,
  maxLine: number,
  redactor: LineRedactor,
): { lines: LogLine[]; replaced: number } {
  let replaced = 0;
  const lines = kept.map((k) => {
    const { line, replaced: bad } = toLogLine(
      k.bytes,
      0,
      k.len,
      whole ? k.lineNo : null,
      k.cut,
      maxLine,
      redactor,
      k.code,
    );
    replaced += bad;
    return line;
  });
  return { lines, replaced };
}
