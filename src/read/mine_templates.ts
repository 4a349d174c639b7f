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
import { HEADER_BYTES, levelOf, STRUCTURED_BYTES } from "./level.ts";
import type { ReadableLog, ResumePoint } from "./readable_log.ts";
import { sourceFor } from "./scan_source.ts";
import { progressed } from "./search.ts";
import { scan, type StopReason } from "./scanner.ts";
import {
  LineTimes,
  type TimeCarry,
  type TimeOf,
  type TimeReport,
  windowedRead,
  type WindowOptions,
} from "./time_window.ts";
import { LineRedactor } from "../guard/redact.ts";
import type { LineBatch, LineShower, ShownLines } from "./line_shower.ts";

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
   * Shows the lines a batch at a time (decoded, cut, masked), maybe in another thread, while the batch
   * before is mined (`line_shower.ts`). Without it each line is shown and mined at once, in this thread.
   * Either way the sink gets the same lines in the same order.
   */
  shower?: LineShower;
  /** Lines a batch holds (default 4096); tests make it small so that batches turn often. */
  batchLines?: number;
  /** Asked after each line mined: true stops the read there (`stop_reason` `limit`). */
  stop?: () => boolean;
  /** Aborted when the client cancels. */
  signal?: AbortSignal;
  /** Receives the file offset reached, the file's size and a short message, at most every 250 ms. */
  onProgress?: (offset: number, total: number, message: string) => void;
}

/** One page of mining: what `log_levels`' pages say, for `many_logs.ts`. */
export interface MinePage {
  /** Lines mined by this page (in the window and of the level, when asked). */
  total_lines: number;
  /** The number of the last line read, from the log's start (or from the seek's point). */
  last_line: number;
  /** True when the whole log was read. */
  complete: boolean;
  /** Why not complete; null when complete. */
  stop_reason: StopReason | null;
  /** Where the next page goes on; null when complete (or stopped for another reason). */
  next: ResumePoint | null;
  /** True when the page could not get anywhere within its budget (so no cursor is given). */
  stuck: boolean;
  /** Bytes read by this page (a seek's probes included). */
  scanned_bytes: number;
  /** With a window: how the log's times were read. */
  time?: TimeReport;
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
  const { disorder: _, ...page } = await windowedRead(
    log,
    opts.window,
    opts.resume,
    (from, known, order, probes) => minePage(log, sink, opts, from, known, order, probes),
  );
  return page;
}

/** How many lines are mined between two looks at the clock (and at a cancel). */
const CHECK_LINES = 256;
/** The longest the event loop waits while lines are mined (a cancel, another call), in ms. */
const YIELD_MS = 20;

/** Where a page stopped inside a piece: the first line not mined, and the times before it. */
interface Cut {
  /** The line's first byte, from the scan's start. */
  at: number;
  /** Lines before it, from the log's start. */
  line: number;
  /** The time carry before it (the scan may have seen later lines' times). */
  carry?: TimeCarry;
}

/** One page of {@linkcode mineTemplates} from `from` (see `search.ts` `searchPage` for the window's rules). */
async function minePage(
  log: ReadableLog,
  sink: MiningSink,
  opts: MineOptions,
  from: ResumePoint,
  lineKnown: boolean,
  order: TimeReport["order"] | null,
  probes: number,
): Promise<MinePage & { disorder: boolean }> {
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
  const over = () => performance.now() >= opts.deadline || opts.signal?.aborted === true;
  const batches = opts.shower ? new Batches(opts.shower, opts, sink, over) : null;
  let mined = 0;
  let cut: Cut | null = null;
  let limited = false;
  let pause = false;
  let lastYield = performance.now();
  const r = await scan(src, {
    line: (buf, s, e, lineNo, isCut, hint, at) => {
      if (!batches && mined > 0 && at >= 0 && mined % CHECK_LINES === 0) {
        if (over()) {
          cut = { at, line: lineNo - 1 };
          return false;
        }
        if (performance.now() - lastYield >= YIELD_MS) pause = true;
      }
      const carry = times ? { last: times.last, max: times.max } : undefined;
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
      const level = levelOf(buf, s, e, hint);
      if (want >= 0 && level !== want) return !pause;
      const end = Math.min(e, s + take);
      if (batches) return batches.add(buf, s, end, isCut || end < e, lineNo, level, t, at, carry);
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
    // Batches turn (one is shown while the one before is mined); else the event loop turns every
    // YIELD_MS, so a cancel and other calls get in.
    resumeAfterStop: batches ? () => batches.turn(broke) : async () => {
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
  // The lines read and not yet mined are mined (all of them, unless the budget runs out meanwhile).
  if (batches && !broke) await batches.finish();
  if (broke) sink.rollback();
  const end = batches ? batches.cut : cut as Cut | null;
  const dmg = damage();
  const stop = broke
    ? dmg
    : end
    ? (opts.signal?.aborted ? "cancelled" : "time_budget")
    : batches?.limited || limited
    ? "limit"
    : (r.stop ?? dmg);
  const next: ResumePoint | null = stop !== "time_budget"
    ? null
    : end
    ? { off: from.off + end.at, ls: from.off + end.at, line: end.line, pending: false, skip: 0 }
    : { off: from.off + r.bytesRead, ls: from.off + r.resumeAt, line: r.lines, pending: false, skip: 0 };
  const report = win && times ? times.report(order!, probes, lineKnown, brokeLate) : undefined;
  if (report && end?.carry) report.carry = end.carry;
  return {
    stuck: next !== null && progressed(from, next) === null,
    total_lines: batches ? batches.mined : mined,
    last_line: end ? end.line : r.lines,
    complete: stop === null,
    stop_reason: stop,
    next,
    scanned_bytes: r.bytesRead,
    time: report,
    disorder: broke,
  };
}

/** Lines a batch holds before it is shown (and the scan turns to mine the batch before). */
const BATCH_LINES = 4096;

/** A batch being filled: its lines' bytes, and what the sink needs of each besides its text. */
interface Filling {
  bytes: Uint8Array;
  used: number;
  ends: number[];
  partial: number[];
  lineNo: number[];
  level: number[];
  time: number[];
  /** Each line's first byte from the scan's start, and the time carry before it (a cut's resume point). */
  at: number[];
  last: number[];
  max: number[];
}

/**
 * The pipeline of a page with a {@linkcode LineShower}: lines are copied into a batch; a full batch is
 * sent to be shown, and while it is, the batch before it (shown already) is mined. Mining stops at a
 * line when the budget runs out or the call is cancelled ({@linkcode Batches.cut}), or when `stop` says.
 */
class Batches {
  #filling: Filling = Batches.#empty(65536);
  #shown: { shown: ShownLines; meta: Filling } | null = null;
  /** Lines mined. */
  mined = 0;
  /** Where mining stopped inside the lines read (budget or cancel), or null. */
  cut: Cut | null = null;
  /** `stop` said to stop. */
  limited = false;

  constructor(
    readonly shower: LineShower,
    readonly opts: MineOptions,
    readonly sink: MiningSink,
    readonly over: () => boolean,
  ) {}

  static #empty(size: number): Filling {
    return {
      bytes: new Uint8Array(size),
      used: 0,
      ends: [],
      partial: [],
      lineNo: [],
      level: [],
      time: [],
      at: [],
      last: [],
      max: [],
    };
  }

  /** Copies one line's bytes; false when the batch is full (the scan then calls {@linkcode Batches.turn}). */
  add(
    buf: Uint8Array,
    s: number,
    e: number,
    partial: boolean,
    lineNo: number,
    level: number,
    time: number,
    at: number,
    carry: { last: number; max: number } | undefined,
  ): boolean {
    const f = this.#filling;
    const n = e - s;
    if (f.used + n > f.bytes.length) {
      const bigger = new Uint8Array(Math.max(f.bytes.length * 2, f.used + n));
      bigger.set(f.bytes.subarray(0, f.used));
      f.bytes = bigger;
    }
    f.bytes.set(buf.subarray(s, e), f.used);
    f.used += n;
    f.ends.push(f.used);
    f.partial.push(partial ? 1 : 0);
    f.lineNo.push(lineNo);
    f.level.push(level);
    f.time.push(time);
    f.at.push(at);
    f.last.push(carry?.last ?? NaN);
    f.max.push(carry?.max ?? -Infinity);
    return f.ends.length < (this.opts.batchLines ?? BATCH_LINES);
  }

  /** True when mining has stopped (a cut, or `stop`). */
  get done(): boolean {
    return this.cut !== null || this.limited;
  }

  /** Sends the batch to be shown, mines the one before meanwhile, and waits: true to go on scanning. */
  async turn(broke: boolean): Promise<boolean> {
    if (broke || this.done) return false;
    const meta = this.#filling;
    this.#filling = Batches.#empty(meta.bytes.length);
    const pending = this.shower.show(this.#batch(meta));
    if (this.#shown) this.#mine(this.#shown.shown, this.#shown.meta);
    this.#shown = { shown: await pending, meta };
    return !this.done;
  }

  /** Mines every line not mined yet (unless the budget runs out meanwhile). */
  async finish(): Promise<void> {
    const meta = this.#filling;
    const pending = meta.ends.length && !this.done ? this.shower.show(this.#batch(meta)) : null;
    if (this.#shown) this.#mine(this.#shown.shown, this.#shown.meta);
    this.#shown = null;
    if (pending) this.#mine(await pending, meta);
  }

  #batch(f: Filling): LineBatch {
    return {
      bytes: f.bytes.subarray(0, f.used),
      ends: Uint32Array.from(f.ends),
      partial: Uint8Array.from(f.partial),
      maxLine: this.opts.maxLine,
      redact: this.opts.redact,
    };
  }

  #mine(s: ShownLines, f: Filling): void {
    for (let i = 0; i < s.texts.length && !this.done; i++) {
      // The clock, every CHECK_LINES lines, once a line was mined (a page always gets somewhere).
      if (this.mined > 0 && this.mined % CHECK_LINES === 0 && f.at[i] >= 0 && this.over()) {
        this.cut = { at: f.at[i], line: f.lineNo[i] - 1, carry: { last: f.last[i], max: f.max[i] } };
        return;
      }
      const cut = s.cut[i] === 1;
      this.sink.line(
        cut ? s.texts[i] + CUT_MARK : s.texts[i],
        f.lineNo[i],
        f.level[i],
        f.time[i],
        cut,
        s.replaced[i],
        s.masked[i],
      );
      this.mined++;
      if (this.opts.stop?.()) this.limited = true;
    }
  }
}
