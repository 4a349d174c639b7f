/**
 * Reading one log's lines for template mining (issue #13, `log_patterns`): every line (in a time window,
 * of a level, when asked) is decoded as `log_search` shows it — invalid UTF-8 as U+FFFD, cut at
 * `LOGPEEK_MAX_LINE` characters, secrets masked — and handed, with its number, level and time, to a
 * {@linkcode MiningSink}, which gives it to a `TemplateMiner` (`template_miner.ts`).
 *
 * A template is made of the lines as shown, so a secret never enters one, and a line longer than
 * `LOGPEEK_MAX_LINE` characters is mined as its shown start followed by `<*>` (it still matches its
 * template, its rest standing for the `<*>`).
 *
 * Memory: one piece of the log, and what the miner holds (bounded by its cap).
 *
 * @module
 */

import { decodeLine } from "./decode.ts";
import { HEADER_BYTES, STRUCTURED_BYTES } from "./level.ts";
import { formatOf } from "./log_format.ts";
import { type EntryLevels, entryLevels, levelCode } from "./entry_levels.ts";
import type { ReadableLog, ResumePoint } from "./readable_log.ts";
import { sourceFor } from "./scan_source.ts";
import type { PageEnd } from "./count_levels.ts";
import { progressed } from "./search.ts";
import { scan } from "./scanner.ts";
import { LineTimes, type TimeOf, type TimeReport, windowedRead, type WindowOptions } from "./time_window.ts";
import { LineRedactor } from "../guard/redact.ts";

/** What the caller keeps of each mined line (the tool's per-template counts). */
export interface MiningSink {
  /**
   * One line to mine.
   *
   * @param text The line as shown (decoded, cut, secrets masked), a cut line followed by {@linkcode CUT_MARK}.
   * @param lineNo Its number from the log's start (from the seek's point after a time seek).
   * @param level Its level, an index into `LEVELS` (`level.ts`).
   * @param time Its time (epoch ms: its own, or the last timestamped line's before it), NaN when none.
   * @param cut True when the line was cut (`text` ends with {@linkcode CUT_MARK}, which it did not hold).
   * @param replaced Invalid UTF-8 bytes of the shown part replaced by U+FFFD.
   * @param masked Secrets masked in it.
   */
  line(
    text: string,
    lineNo: number,
    level: number,
    time: number,
    cut: boolean,
    replaced: number,
    masked: number,
  ): void;
  /**
   * Called before a first page entered by a time seek: {@linkcode MiningSink.rollback} may follow, when
   * the page found the log out of order and the page is read again from the log's start.
   */
  checkpoint(): void;
  /** Undoes every line given since the last {@linkcode MiningSink.checkpoint}. */
  rollback(): void;
}

/** Options of {@linkcode mineTemplates}. */
export interface MineOptions {
  /** Bytes per read. */
  pieceSize: number;
  /** `LOGPEEK_MAX_LINE`: the most characters (Unicode code points) of a line mined. */
  maxLine: number;
  /** Mask secrets before mining (false for `--no-redact`). */
  redact: boolean;
  /** When the page must end (`performance.now()` ms). */
  deadline: number;
  /** Where a resumed page goes on (from a cursor). */
  resume?: ResumePoint;
  /** A time window: only lines whose time is in it are mined. */
  window?: WindowOptions;
  /** Reads a line's header time, for each template's first and last time (without a window). */
  timeOf?: TimeOf;
  /** Only lines of this level (an index into `LEVELS`) are mined. */
  level?: number;
  /**
   * The clock mining compares with `deadline` every 256 lines (default `performance.now`; a test's clock
   * makes the stop inside a piece happen where it wants).
   */
  clock?: () => number;
  /** Asked after each line mined: true stops the read there (`stop_reason` `limit`). */
  stop?: () => boolean;
  /** Aborted when the client cancels. */
  signal?: AbortSignal;
  /** Receives the file offset reached, the file's size and a short message, at most every 250 ms. */
  onProgress?: (offset: number, total: number, message: string) => void;
}

/** One page of mining: how it ended (as a `log_levels` page), and what it mined. */
export interface MinePage extends PageEnd {
  /** Lines mined by this page (in the window and of the level, when asked). */
  total_lines: number;
  /** The number of the last line read, from the log's start (or from the seek's point). */
  last_line: number;
  /** The format the log was read as (`log_format.ts`, detected from its first lines), or null: the general rules. */
  log_format: string | null;
}

/** The mark a line cut at `LOGPEEK_MAX_LINE` is mined with after its shown start. */
export const CUT_MARK = "<*>";

/**
 * Mines the lines of an open log, from its start or a cursor's point, until its end, the deadline, a
 * cancel, or a change of the log.
 *
 * @param log The open log.
 * @param sink Mines each line.
 * @param opts Budget, window, level.
 * @returns The page.
 */
export async function mineTemplates(
  log: ReadableLog,
  sink: MiningSink,
  opts: MineOptions,
): Promise<MinePage> {
  const format = formatOf(log);
  const { disorder: _, ...page } = await windowedRead(
    log,
    opts.window,
    opts.resume,
    (from, known, order, probes) =>
      minePage(log, sink, opts, entryLevels(log, format), from, known, order, probes),
  );
  return { ...page, log_format: format?.name ?? null };
}

/**
 * How many lines are mined between two looks at the clock (and at a cancel): a line among thousands of
 * templates can take 20 ms to mine (a trial: 256 lines between looks held other calls for 5 s), and a look
 * costs tens of ns, under 1% of a line's mining.
 */
export const CHECK_LINES = 2;
/** The longest the event loop waits while lines are mined (a cancel, another call), in ms. */
const YIELD_MS = 20;

/** Where a page stopped inside a piece: the first line not mined (its times not read either). */
interface Cut {
  /** The line's first byte, from the scan's start. */
  at: number;
  /** Lines before it, from the log's start. */
  line: number;
}

/** One page of {@linkcode mineTemplates} from `from` (see `search.ts` `searchPage` for the window's rules). */
async function minePage(
  log: ReadableLog,
  sink: MiningSink,
  opts: MineOptions,
  entries: EntryLevels,
  from: ResumePoint,
  lineKnown: boolean,
  order: TimeReport["order"] | null,
  probes: number,
): Promise<Omit<MinePage, "log_format"> & { disorder: boolean }> {
  const headBytes = Math.max(STRUCTURED_BYTES, HEADER_BYTES, opts.maxLine * 4 + 1);
  const { src, resume, damage, reached } = await sourceFor(log, from, headBytes, 0);
  const win = opts.window;
  const open = { since: -Infinity, until: Infinity };
  const timeOf = win?.timeOf ?? opts.timeOf;
  const times = timeOf
    ? new LineTimes(timeOf, win?.span ?? open, opts.resume ? win?.carry : undefined)
    : null;
  const seeked = order === "seek" && !opts.resume;
  if (seeked) sink.checkpoint();
  let broke = false;
  let brokeLate = opts.resume !== undefined && win?.brokenAfterSeek === true;
  const redactor = new LineRedactor(opts.redact, false);
  const want = opts.level ?? -1;
  const take = opts.maxLine * 4 + 1;
  /** Over the budget, or cancelled: mining stops at the next line (a piece can take seconds to mine). */
  const now = opts.clock ?? (() => performance.now());
  const over = () => now() >= opts.deadline || opts.signal?.aborted === true;
  let mined = 0;
  let cut: Cut | null = null;
  let limited = false;
  let pause = false;
  let lastYield = performance.now();
  const r = await scan(src, {
    line: (buf, s, e, lineNo, isCut, hint, at) => {
      if (mined > 0 && at >= 0 && mined % CHECK_LINES === 0) {
        if (over()) {
          cut = { at, line: lineNo - 1 };
          return false;
        }
        if (performance.now() - lastYield >= YIELD_MS) pause = true;
      }
      // Each line's level is its entry's (a stack frame's, its error's), as log_levels counts it: every
      // line is handed on in order, so no line is read back but a page's first (`entry_levels.ts`).
      let code = entries.levelAt(buf, s, e, hint, from.off + at, isCut);
      let t = NaN;
      if (times) {
        t = times.see(buf, s, e);
        if (win) {
          if (times.disorder && order !== "out_of_order") {
            if (seeked) {
              broke = true;
              return false;
            }
            if (order === "seek") brokeLate = true;
            order = "out_of_order";
          }
          if (!times.inside(t)) return !pause;
        }
      }
      code = entries.ahead(code); // a stamped line with no level: the next line may give it one
      const level = levelCode(code);
      if (want >= 0 && level !== want) return !pause;
      const end = Math.min(e, s + take);
      const d = decodeLine(buf.subarray(s, end), opts.maxLine, isCut || end < e);
      const before = redactor.count;
      const shown = redactor.line(d.text, d.cut);
      sink.line(
        d.cut ? shown + CUT_MARK : shown,
        lineNo,
        level,
        t,
        d.cut,
        d.replaced,
        redactor.count - before,
      );
      mined++;
      if (opts.stop?.()) {
        limited = true;
        return false;
      }
      return !pause;
    },
  }, {
    pieceSize: opts.pieceSize,
    deadline: opts.deadline,
    headBytes,
    lineBase: from.line,
    resume,
    // The event loop turns every YIELD_MS, so a cancel and other calls get in.
    resumeAfterStop: async () => {
      if (cut || broke || limited) return false;
      pause = false;
      await new Promise((ok) => setTimeout(ok, 0));
      lastYield = performance.now();
      return true;
    },
    cancelled: opts.signal ? () => opts.signal!.aborted : undefined,
    onProgress: opts.onProgress
      ? (bytes, lines) => opts.onProgress!(reached(bytes), log.size, `${lines} lines read, ${mined} mined`)
      : undefined,
  });
  if (broke) sink.rollback();
  const end = cut as Cut | null;
  const dmg = damage();
  const stop = broke
    ? dmg
    : end
    ? (opts.signal?.aborted ? "cancelled" : "time_budget")
    : limited
    ? "limit"
    : (r.stop ?? dmg);
  const next: ResumePoint | null = stop !== "time_budget"
    ? null
    : end
    ? { off: from.off + end.at, ls: from.off + end.at, line: end.line, pending: false, skip: 0 }
    : { off: from.off + r.bytesRead, ls: from.off + r.resumeAt, line: r.lines, pending: false, skip: 0 };
  const report = win && times ? times.report(order!, probes, lineKnown, brokeLate) : undefined;
  return {
    stuck: next !== null && progressed(from, next) === null,
    total_lines: mined,
    last_line: end ? end.line : r.lines,
    complete: stop === null,
    stop_reason: stop,
    next,
    scanned_bytes: r.bytesRead,
    time: report,
    disorder: broke,
  };
}
