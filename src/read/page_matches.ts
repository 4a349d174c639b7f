/**
 * The matches of one page of a line-by-line search (`search_page.ts` `searchPage`) and, with context,
 * the lines around each: collected as the scan hands them on, handed over to `take` as they become
 * final, and, when a budget ends the page, the last match held back for the next page with the place its
 * context begins.
 *
 * @module
 */

import { ContextCollector, type WithContext } from "./context.ts";
import { type LogLine, logLineOf, toLogLine } from "./log_line.ts";
import { levelCode } from "./entry_levels.ts";
import type { ResumePoint } from "./readable_log.ts";
import type { SearchOptions, SearchResult } from "./search_options.ts";
import { progressed } from "./page_end.ts";
import { LineRedactor } from "../guard/redact.ts";
import { shownAsRead } from "./shown_as_read.ts";

/**
 * The last match of a page with context: its start (a file offset, bytes) and number, whether it was
 * cut, the last line shown before it, and the replaced bytes and masked secrets counted before it (a
 * match held back for the next page takes its counts with it).
 */
interface Held {
  at: number;
  no: number;
  cut: boolean;
  prevShown: number;
  replaced: number;
  redactions: number;
}

/**
 * The most bytes of matches shown as read held before they are decoded together (a match's text is
 * decoded with the others of its page, or of these many bytes, in one call: issue #26, item 2, where one
 * call a match cost ~1.4 µs).
 */
const HELD_BYTES = 256 * 1024;
/** ASCII is decoded as it is: one character a byte. */
const ascii = new TextDecoder("utf-8", { ignoreBOM: true });

export { shownAsRead } from "./shown_as_read.ts";

/**
 * One page's matches, and with `context` their lines before and after (`context.ts`). Line numbers are
 * shown only when known (`lineKnown`: false after a seek). Memory: the returned lines, and `2N + 2`
 * line starts.
 */
export class PageMatches {
  /** Matching lines, in file order (with `take`, those handed over keep only number, level and cut). */
  readonly matches: LogLine[] = [];
  /** With context: each match's lines before and after, in the order of `matches`. */
  readonly contexts: WithContext<LogLine>[] = [];
  /** Masks secrets in the returned lines, and counts them. */
  readonly redactor: LineRedactor;
  /** The lines around each match; null without `context`. */
  readonly collector: ContextCollector<LogLine> | null;
  /** Bytes of the returned lines that were invalid UTF-8 and replaced. */
  replaced = 0;
  /** The number of the last match. */
  lastReported = 0;
  /** The number of the last line this page showed (a match or a context line). */
  lastShown = 0;
  /** The last match: its start, number, whether cut, and `lastShown` before it. */
  lastMatch: Held | null = null;
  /** Past the limit, reading on for the last match's after-lines: where the next page starts. */
  after: ResumePoint | null = null;
  /**
   * Matches shown as read (`shownAsRead`; without context only) whose text is not decoded yet: their
   * bytes, one after the other, and for each its line and where its bytes end ({@linkcode decodeHeld}).
   */
  #heldBytes: Uint8Array | null = null;
  #heldLen = 0;
  readonly #heldLines: LogLine[] = [];
  readonly #heldEnds: number[] = [];
  /** With `take`: the matches handed over so far (all but the last, whose after-lines may still come). */
  #handed = 0;
  /** Lines of context before and after each match. */
  readonly #n: number;
  /**
   * The starts and numbers of the last 2N + 2 lines read: where the next page's context begins (up to N
   * lines before a match held back with its before-lines, and the lines read after it).
   */
  readonly #ring: number;
  readonly #recent: { at: Float64Array; no: Float64Array; k: number };

  /**
   * @param opts The search's options (`context`, `maxLine`, `limit`, `redact`, `take`).
   * @param lineKnown False after a seek: line numbers are not known (shown as null).
   */
  constructor(readonly opts: SearchOptions, readonly lineKnown: boolean) {
    const n = this.#n = opts.context ?? 0;
    this.redactor = new LineRedactor(opts.redact, false);
    this.collector = n > 0
      ? new ContextCollector<LogLine>(n, opts.maxLine * 4 + 1, (bytes, len, lineNo, cut, code) => {
        const { line, replaced: bad } = toLogLine(
          bytes,
          0,
          len,
          lineNo,
          cut,
          opts.maxLine,
          this.shownAsRead(bytes, 0, len, cut) ? undefined : this.redactor,
          code,
        );
        this.replaced += bad;
        return line;
      })
      : null;
    this.#ring = 2 * n + 2;
    this.#recent = { at: new Float64Array(this.#ring), no: new Float64Array(this.#ring), k: 0 };
  }

  /**
   * True when the line `buf[s, e)` is shown as read, and the redactor need not be asked: whole, ASCII, no
   * longer than LOGPEEK_MAX_LINE, and by its bytes (`mayHoldSecretBytes`) free of secrets, so
   * that the redactor (not contiguous: it keeps no state) would return its text unchanged and count
   * nothing (issue #26, item 2: ~1 µs a match). False with masking off: nothing to skip.
   */
  shownAsRead(buf: Uint8Array, s: number, e: number, cut: boolean): boolean {
    return shownAsRead(this.redactor.enabled, buf, s, e, cut, this.opts.maxLine);
  }

  /** The number shown for line `lineNo`: null when line numbers are not known. */
  shownNo(lineNo: number): number | null {
    return this.lineKnown ? lineNo : null;
  }

  /** With context: notes that line `lineNo` starts at file offset `at` (where a next page's context may begin). */
  see(at: number, lineNo: number): void {
    const recent = this.#recent;
    const slot = recent.k++ % this.#ring;
    recent.at[slot] = at;
    recent.no[slot] = lineNo;
  }

  /**
   * A match: `buf[s, e)`, line `lineNo` at file offset `at`, its level `code`. Not called once `after` is
   * set (the caller stops the page there). `known`: the caller found it shown as read
   * ({@linkcode shownAsRead}, true), not asked again; false: asked here.
   *
   * @returns False when the page stops here (the limit reached and no after-line wanted).
   */
  accept(
    buf: Uint8Array,
    s: number,
    e: number,
    lineNo: number,
    cut: boolean,
    at: number,
    code: number,
    known = false,
  ): boolean {
    const { opts, redactor, collector, matches } = this;
    this.lastReported = lineNo;
    this.lastMatch = {
      at,
      no: lineNo,
      cut,
      prevShown: this.lastShown,
      replaced: this.replaced,
      redactions: redactor.count,
    };
    this.lastShown = lineNo;
    const asRead = known || this.shownAsRead(buf, s, e, cut);
    if (asRead && !collector) matches.push(this.#hold(buf, s, e, this.shownNo(lineNo), code));
    else {
      const no = this.shownNo(lineNo);
      const { line, replaced: bad } = toLogLine(
        buf,
        s,
        e,
        no,
        cut,
        opts.maxLine,
        asRead ? undefined : redactor,
        code,
      );
      matches.push(line);
      this.replaced += bad;
    }
    if (collector) this.contexts.push(collector.match(this.shownNo(lineNo)));
    if (opts.take && collector) this.handOver(matches.length - 1);
    if (matches.length < opts.limit) return true;
    if (collector?.wantsAfter()) {
      this.after = { off: -1, ls: -1, line: lineNo, pending: false, skip: 0 }; // its offset: the next line's
      return true;
    }
    return false;
  }

  /**
   * A match shown as read, its text left to {@linkcode decodeHeld}: its line (text "" until then) as
   * `toLogLine` makes it, its bytes `buf[s, e)` (ASCII, whole, no longer than LOGPEEK_MAX_LINE) copied.
   */
  #hold(buf: Uint8Array, s: number, e: number, no: number | null, code: number): LogLine {
    const n = e - s;
    if (this.#heldLen + n > HELD_BYTES) this.decodeHeld();
    const need = this.#heldLen + n;
    const old = this.#heldBytes;
    if (!old || old.length < need) {
      const grown = new Uint8Array(Math.max(need, Math.min(HELD_BYTES, (old?.length ?? 8192) * 2)));
      if (old) grown.set(old.subarray(0, this.#heldLen));
      this.#heldBytes = grown;
    }
    this.#heldBytes!.set(buf.subarray(s, e), this.#heldLen);
    this.#heldLen += n;
    const line = logLineOf(no, levelCode(code), "", false, code);
    this.#heldLines.push(line);
    this.#heldEnds.push(this.#heldLen);
    return line;
  }

  /**
   * Gives each match held by {@linkcode accept} its text: their bytes decoded in one call, cut at each
   * one's end (ASCII: a character a byte). Called before the page's matches are read (`search_page.ts`
   * `pageEnd`), and when the held bytes would pass {@linkcode HELD_BYTES}.
   */
  decodeHeld(): void {
    const lines = this.#heldLines, ends = this.#heldEnds;
    if (lines.length === 0) return;
    const text = ascii.decode(this.#heldBytes!.subarray(0, this.#heldLen));
    let from = 0;
    for (let i = 0; i < lines.length; i++) {
      lines[i].text = text.slice(from, ends[i]);
      from = ends[i];
    }
    lines.length = ends.length = 0;
    this.#heldLen = 0;
  }

  /** A line that is no match, of level `code`: context for the matches around it (with a collector only). */
  other(buf: Uint8Array, s: number, e: number, lineNo: number, cut: boolean, code: number): boolean {
    const collector = this.collector!;
    if (collector.wantsAfter()) this.lastShown = lineNo; // an after-line of the last match
    collector.other(buf, s, e, this.shownNo(lineNo), cut, code);
    return true;
  }

  /** With `take`: hands the matches before `upto` over, keeping only their number, level and cut flag. */
  handOver(upto: number): void {
    const { matches, contexts } = this;
    for (; this.#handed < upto; this.#handed++) {
      const h = this.#handed;
      const m = matches[h];
      this.opts.take!(m, contexts[h]);
      matches[h] = { line_no: m.line_no, level: m.level, text: "", cut: m.cut };
      contexts[h] = { before: [], after: [], adjoins: contexts[h].adjoins };
    }
  }

  /**
   * With context, once the page's `result` is known (`afterRead`: it ended past the limit, after-lines
   * read): a budget that stopped the page before the last match's after-lines were read holds that match
   * back for the next page (which shows it with all its context); the next page's context then begins at
   * the lines read and not shown before its start. `origin` is where the cursor pointed.
   */
  settle(result: SearchResult, origin: ResumePoint, afterRead: boolean): void {
    const { collector } = this;
    const held = this.lastMatch;
    if (!collector || afterRead || !result.next) return;
    if (collector.wantsAfter() && held && !held.cut && held.at > origin.ls) {
      this.matches.pop();
      this.contexts.pop();
      this.lastShown = held.prevShown;
      result.replaced_bytes = held.replaced;
      result.redactions = held.redactions;
      result.next = { off: held.at, ls: held.at, line: held.no - 1, pending: false, skip: 0 };
      result.scanned_lines = held.no - 1;
    }
    // Progress is measured from where the cursor pointed, not from the context read again before it.
    if (progressed(origin, result.next) === null) {
      result.next = null;
      result.stuck = result.stop_reason === "time_budget" || result.stop_reason === "size_budget";
    } else result.next = { ...result.next, ...this.#contextStart(result.next) };
  }

  /**
   * Where the next page's context lines begin: the last N lines before `next.ls` read on this page and
   * not shown by it (a line shown as a match or context is not shown again).
   */
  #contextStart(next: ResumePoint): { cs: number; cl: number } {
    const recent = this.#recent, ring = this.#ring;
    let cs = next.ls;
    let cl = next.line;
    for (let j = 1; j <= Math.min(recent.k, ring); j++) {
      const slot = (recent.k - j) % ring;
      const at = recent.at[slot], no = recent.no[slot];
      if (at >= next.ls) continue;
      if (no <= this.lastShown || next.line - (no - 1) > this.#n) break;
      cs = at;
      cl = no - 1;
    }
    return { cs, cl };
  }
}
