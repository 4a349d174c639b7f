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
import { scan, type ScanResult, type StopReason } from "./scanner.ts";
import { LineTimes, type TimeOf, type TimeReport, windowedRead, type WindowOptions } from "./time_window.ts";
import { LineRedactor, mayBeKeyBodyBytes } from "../guard/redact.ts";
import { shownAsRead } from "./shown_as_read.ts";
import { ScanTurns } from "./next_turn.ts";

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
   * One line to mine that is shown as read (whole, ASCII, free of secrets with masking on: its text is
   * its bytes, not cut, nothing replaced or masked), given as its bytes; optional. True when the sink took it without its
   * text (a line whose shape the miner has seen, `TemplateMiner.addBytes`: issue #26 item 4, a decode
   * cost ~0.6 µs a line); false when it took nothing: the line is then decoded and given to
   * {@linkcode MiningSink.line}.
   *
   * @param buf Bytes holding the line, every one of `buf[s, e)` under 0x80.
   * @param s Offset of its first byte.
   * @param e Offset past its last byte (its line break left out).
   * @param lineNo As for {@linkcode MiningSink.line}.
   * @param level As for {@linkcode MiningSink.line}.
   * @param time As for {@linkcode MiningSink.line}.
   */
  lineAsRead?(buf: Uint8Array, s: number, e: number, lineNo: number, level: number, time: number): boolean;
  /**
   * {@linkcode MiningSink.lineAsRead} of a line, masking on, that is whole, within `maxLine` bytes and not
   * shaped as a key body line (`guard/redact.ts` `mayBeKeyBodyBytes`) but not yet asked
   * `mayHoldSecretBytes`: the sink takes it only when what it already knows of the line's shape shows it
   * shown as read (`TemplateMiner.addBytes` with `byShape`: a line that differs only in its digits from one
   * clear of secrets in any digits, `clearInAnyDigits`), so the gate's walk over its bytes is left out
   * (issue #26 item 4: ~0.4 µs a line). False when it took nothing: the line then goes on as without it.
   * Optional; a sink without it is never given a line unchecked.
   */
  lineByShape?(buf: Uint8Array, s: number, e: number, lineNo: number, level: number, time: number): boolean;
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
/**
 * How many lines taken from their bytes (`MiningSink.lineAsRead`: a shape the miner knows, at most
 * `SHAPE_LINE` bytes, ~1–2 µs) or passed over (outside the window, of another level) count as one line
 * of {@linkcode CHECK_LINES}: at most 2 × 16 of them between two looks at the clock (issue #26 item 4: a
 * look every 2 lines was 2% of a line's cost).
 */
export const CHEAP_LINES = 16;
/** The work between two looks at the clock: {@linkcode CHECK_LINES} lines mined, in cheap lines. */
const LOOK_UNITS = CHECK_LINES * CHEAP_LINES;
/**
 * The longest the event loop waits while lines are mined (a cancel, another call), in ms; a turn costs
 * ~0.1–0.8 ms (`next_turn.ts` `ScanTurns`).
 */
const YIELD_MS = 20;

/** Decodes a line of ASCII bytes (its text is its bytes). */
const ASCII = new TextDecoder("utf-8", { ignoreBOM: true });

/** Whether the bytes `b[s, e)` are all ASCII (under 0x80). */
function isAscii(b: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (b[i] > 0x7f) return false;
  return true;
}

/** Where a page stopped inside a piece: the first line not mined (its times not read either). */
interface Cut {
  /** The line's first byte, from the scan's start. */
  at: number;
  /** Lines before it, from the log's start. */
  line: number;
}

/** A time window's span when there is none: every time is inside. */
const OPEN = { since: -Infinity, until: Infinity };

/**
 * One page of {@linkcode mineTemplates} from `from` (see `search.ts` `searchPage` for the window's rules):
 * the page's plan (its source, its line times, a checkpoint before a seek's first page), the scan with
 * {@linkcode PageMining} mining each line, and the page made of where it stopped ({@linkcode pageEnd}).
 */
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
  const timeOf = win?.timeOf ?? opts.timeOf;
  const times = timeOf
    ? new LineTimes(timeOf, win?.span ?? OPEN, opts.resume ? win?.carry : undefined)
    : null;
  const seeked = order === "seek" && !opts.resume;
  if (seeked) sink.checkpoint();
  const m = new PageMining(sink, opts, entries, from.off, times, order, seeked);
  let r: ScanResult;
  try {
    r = await scan(src, m, {
      pieceSize: opts.pieceSize,
      deadline: opts.deadline,
      headBytes,
      lineBase: from.line,
      resume,
      // The event loop turns every YIELD_MS, so a cancel and other calls get in: the page's own turns,
      // which the scanner takes too (one armed timer for both), at the same period (the page's pauses,
      // looked for every CHECK_LINES lines, come first; the scanner's between pieces and past lines not
      // mined, outside the window or of another level).
      resumeAfterStop: () => m.resume(),
      turns: m.turns,
      yieldMs: YIELD_MS,
      cancelled: opts.signal ? () => opts.signal!.aborted : undefined,
      onProgress: opts.onProgress
        ? (bytes, lines) =>
          opts.onProgress!(reached(bytes), log.size, `${lines} lines read, ${m.mined} mined`)
        : undefined,
    });
  } finally {
    m.turns.close();
  }
  if (m.broke) sink.rollback();
  const report = win && times ? times.report(m.order!, probes, lineKnown, m.brokeLate) : undefined;
  return pageEnd(m, r, damage(), from, opts.signal?.aborted === true, report);
}

/**
 * One page's mining, line by line (the scanner's `LineSink`): each line's level (its entry's) and time,
 * the window and the level asked for, then the line as shown handed to the {@linkcode MiningSink}; and
 * where and why the page stops (the budget or a cancel, looked at every {@linkcode CHECK_LINES} lines mined
 * as text, or their work in cheaper lines, {@linkcode LOOK_UNITS}; a
 * seek's page that found the log out of order; the sink's limit), letting the event loop turn every
 * {@linkcode YIELD_MS} ms.
 */
class PageMining {
  /** Lines mined so far. */
  mined = 0;
  /** Where the page stopped inside a piece (over the budget, or cancelled), or null. */
  cut: Cut | null = null;
  /** The sink's `stop` said enough (`stop_reason` `limit`). */
  limited = false;
  /** A seek's first page found the log out of order: its lines are rolled back, the page read again. */
  broke = false;
  /** A page after a seek found the log out of order (the time report says so). */
  brokeLate: boolean;
  /** The window's order as read so far (`out_of_order` once a line's time went back). */
  order: TimeReport["order"] | null;
  /** The scan stops at the next line to let the event loop turn ({@linkcode YIELD_MS}). */
  #pause = false;
  /**
   * The work left before the next look at the clock: {@linkcode LOOK_UNITS} after a look, less
   * {@linkcode CHEAP_LINES} for a line mined as text, 1 for a line taken from its bytes or passed over.
   */
  #untilLook = LOOK_UNITS;
  /** The page's turns of the event loop (closed when its scan ends). */
  readonly turns = new ScanTurns();
  #lastYield = performance.now();
  readonly #sink: MiningSink;
  readonly #opts: MineOptions;
  readonly #entries: EntryLevels;
  /** The file offset the page's scan starts at (bytes). */
  readonly #off: number;
  readonly #times: LineTimes | null;
  readonly #seeked: boolean;
  readonly #redactor: LineRedactor;
  /** The level asked for (an index into `LEVELS`), -1 for any. */
  readonly #want: number;
  /** The most bytes of a line decoded: `maxLine` characters of 4 bytes, and one to tell a cut. */
  readonly #take: number;
  /** The clock the deadline is compared with (`opts.clock`), or null for `performance.now`. */
  readonly #clock: (() => number) | null;

  constructor(
    sink: MiningSink,
    opts: MineOptions,
    entries: EntryLevels,
    off: number,
    times: LineTimes | null,
    order: TimeReport["order"] | null,
    seeked: boolean,
  ) {
    this.#sink = sink;
    this.#opts = opts;
    this.#entries = entries;
    this.#off = off;
    this.#times = times;
    this.order = order;
    this.#seeked = seeked;
    this.brokeLate = opts.resume !== undefined && opts.window?.brokenAfterSeek === true;
    this.#redactor = new LineRedactor(opts.redact, false);
    this.#want = opts.level ?? -1;
    this.#take = opts.maxLine * 4 + 1;
    this.#clock = opts.clock ?? null;
  }

  /** Over the budget, or cancelled: mining stops at the next line (a piece can take seconds to mine). */
  #over(now: number): boolean {
    return (this.#clock === null ? now : this.#clock()) >= this.#opts.deadline ||
      this.#opts.signal?.aborted === true;
  }

  /** One line of the scan (`scanner.ts` `LineSink.line`); false stops the scan (or pauses it). */
  line(
    buf: Uint8Array,
    s: number,
    e: number,
    lineNo: number,
    isCut: boolean,
    hint: number,
    at: number,
  ): boolean {
    if (this.#untilLook <= 0 && at >= 0) {
      // One look at the clock for both the deadline and the event loop's turn (a look is ~100 ns).
      this.#untilLook = LOOK_UNITS;
      const now = performance.now();
      if (this.#over(now)) {
        this.cut = { at, line: lineNo - 1 };
        return false;
      }
      if (now - this.#lastYield >= YIELD_MS) this.#pause = true;
    }
    this.#untilLook--; // a cheap line's work; a line mined as text takes more (#mine)
    // Each line's level is its entry's (a stack frame's, its error's), as log_levels counts it: every
    // line is handed on in order, so no line is read back but a page's first (`entry_levels.ts`).
    const entries = this.#entries;
    let code = entries.levelAt(buf, s, e, hint, this.#off + at, isCut);
    let t = NaN;
    const times = this.#times;
    if (times) {
      t = times.see(buf, s, e);
      if (this.#opts.window) {
        if (times.disorder && this.order !== "out_of_order") {
          if (this.#seeked) {
            this.broke = true;
            return false;
          }
          if (this.order === "seek") this.brokeLate = true;
          this.order = "out_of_order";
        }
        if (!times.inside(t)) return !this.#pause;
      }
    }
    code = entries.ahead(code); // a stamped line with no level: the next line may give it one
    const level = levelCode(code);
    if (this.#want >= 0 && level !== this.#want) return !this.#pause;
    this.#mine(buf, s, e, lineNo, isCut, level, t);
    if (this.#opts.stop?.()) {
      this.limited = true;
      return false;
    }
    return !this.#pause;
  }

  /**
   * True when the line `buf[s, e)` is shown as read: whole, no longer than `maxLine` bytes, ASCII (so its
   * text is its bytes) and, with masking on, by its bytes free of secrets (`mayHoldSecretBytes`), so that
   * the redactor (not contiguous) would return it unchanged and count nothing (issue #26 item 4: the
   * redactor cost ~1.5 µs a line, the byte check ~0.5 µs).
   */
  #asRead(buf: Uint8Array, s: number, e: number, isCut: boolean): boolean {
    const { redact, maxLine } = this.#opts;
    if (redact) return shownAsRead(true, buf, s, e, isCut, maxLine);
    return !isCut && e - s <= maxLine && isAscii(buf, s, e);
  }

  /** Hands one line on as shown: decoded, cut at `maxLine` characters, secrets masked. */
  #mine(
    buf: Uint8Array,
    s: number,
    e: number,
    lineNo: number,
    isCut: boolean,
    level: number,
    t: number,
  ): void {
    const { redact, maxLine } = this.#opts;
    if (
      redact && !isCut && e - s <= maxLine && this.#sink.lineByShape !== undefined &&
      !mayBeKeyBodyBytes(buf, s, e) && this.#sink.lineByShape(buf, s, e, lineNo, level, t)
    ) {
      this.mined++;
      return;
    }
    if (this.#asRead(buf, s, e, isCut)) {
      if (this.#sink.lineAsRead?.(buf, s, e, lineNo, level, t) !== true) {
        this.#untilLook -= CHEAP_LINES - 1;
        this.#sink.line(ASCII.decode(buf.subarray(s, e)), lineNo, level, t, false, 0, 0);
      }
      this.mined++;
      return;
    }
    this.#untilLook -= CHEAP_LINES - 1;
    const end = Math.min(e, s + this.#take);
    const d = decodeLine(buf.subarray(s, end), this.#opts.maxLine, isCut || end < e);
    const redactor = this.#redactor;
    const before = redactor.count;
    const shown = redactor.line(d.text, d.cut);
    // Masked nothing, whole, valid and ASCII (as many code units as bytes): shown as read after all.
    if (
      redactor.count === before && !d.cut && d.replaced === 0 && shown === d.text && shown.length === e - s &&
      this.#sink.lineAsRead?.(buf, s, e, lineNo, level, t) === true
    ) {
      this.mined++;
      return;
    }
    this.#sink.line(
      d.cut ? shown + CUT_MARK : shown,
      lineNo,
      level,
      t,
      d.cut,
      d.replaced,
      redactor.count - before,
    );
    this.mined++;
  }

  /** After a pause (the scanner's `resumeAfterStop`): lets the event loop turn; false when the page is over. */
  async resume(): Promise<boolean> {
    if (this.cut || this.broke || this.limited) return false;
    this.#pause = false;
    await this.turns.next();
    this.#lastYield = performance.now();
    return true;
  }
}

/**
 * The page made of where the mining stopped: why (a seek's page read again, the budget or a cancel, the
 * sink's limit, the scan's own stop, the log's damage), and, after a stop for the budget, where the next
 * page goes on (the first line not mined, or where the scan stopped).
 */
function pageEnd(
  m: PageMining,
  r: ScanResult,
  dmg: StopReason | null,
  from: ResumePoint,
  aborted: boolean,
  report: MinePage["time"],
): Omit<MinePage, "log_format"> & { disorder: boolean } {
  const end = m.cut;
  const stop = m.broke
    ? dmg
    : end
    ? (aborted ? "cancelled" : "time_budget")
    : m.limited
    ? "limit"
    : (r.stop ?? dmg);
  const next: ResumePoint | null = stop !== "time_budget"
    ? null
    : end
    ? { off: from.off + end.at, ls: from.off + end.at, line: end.line, pending: false, skip: 0 }
    : { off: from.off + r.bytesRead, ls: from.off + r.resumeAt, line: r.lines, pending: false, skip: 0 };
  return {
    stuck: next !== null && progressed(from, next) === null,
    total_lines: m.mined,
    last_line: end ? end.line : r.lines,
    complete: stop === null,
    stop_reason: stop,
    next,
    scanned_bytes: r.bytesRead,
    time: report,
    disorder: m.broke,
  };
}
