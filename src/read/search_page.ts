/**
 * One page of a line-by-line search (`search.ts` `searchByLine`: a regular expression, a text in either
 * case with letters outside ASCII, or any search with a window or context), by its steps: plan where the
 * page starts and what each line is tested with ({@linkcode pageStart}, {@linkcode lineMatcher}), scan
 * with a sink that tests each line ({@linkcode LineTest}), collect the matches and their context
 * (`page_matches.ts`), and end the page: what it found and where the next one starts
 * ({@linkcode pageEnd}).
 *
 * @module
 */

import { LEVELS } from "./level.ts";
import { type EntryLevels, entryLevels, levelCode } from "./entry_levels.ts";
import type { ReadableLog, ResumePoint } from "./readable_log.ts";
import { sourceFor } from "./scan_source.ts";
import { type LineSink, scan, type ScanResult, type StopReason, YIELD_MS } from "./scanner.ts";
import { ScanTurns } from "./next_turn.ts";
import { RE2JS } from "re2js";
import { compilePattern, maskProof, maskSafe, type RequiredLiteral, requiredLiteral } from "./pattern.ts";
import { isHeavy, PatternOffload, type PatternTester } from "./pattern_offload.ts";
import { decodeLine } from "./decode.ts";
import { foldMatcher, matchSpan } from "./fold.ts";
import { LineTimes, type TimeReport } from "./time_window.ts";
import { LineLiteral } from "./line_literal.ts";
import { patternSubject } from "./pattern_subject.ts";
import { PageMatches } from "./page_matches.ts";
import { type ByteDfa, lineDfa, MAY_MATCH, NO_MATCH, SURE_MATCH } from "./byte_dfa.ts";
import { MASK_CHARS } from "./mask_proof_program.ts";
import { shownAsRead } from "./shown_as_read.ts";
import { programMaskProof } from "./mask_proof_program.ts";
import { pageResult, progressed } from "./page_end.ts";
import { type SearchOptions, type SearchResult, steering, TESTED_BYTES } from "./search_options.ts";

/**
 * Pattern work (program size × bytes tested) between two reads of the clock in a regex search: a few
 * ms at worst (a trial's 4 KiB lines cost 28 ms each at ~0.5 M; a line over 1 M goes to the worker,
 * `isHeavy`). A cheap pattern on short lines reads the clock every hundred lines or so.
 */
const CHECK_COST = 250_000;

/**
 * One page of `search.ts` `searchByLine`, from `first`: the scan, each line tested, the window and the
 * context applied.
 *
 * @param log The open log.
 * @param opts The search's options.
 * @param first Where the page starts.
 * @param deadline When the page must end (`performance.now()` ms).
 * @param lineKnown False after a seek: line numbers are not known (null).
 * @param order How the window's order stands so far (null: no window).
 * @param probes The seek's probes, reported.
 * @returns The page's result, and `disorder`: the order broke after a seek (the caller reads again from
 *   the log's start).
 * @throws {ToolError} `invalid_pattern` for a `regex` that RE2 cannot run (`pattern.ts` `compilePattern`).
 */
export async function searchPage(
  log: ReadableLog,
  opts: SearchOptions,
  first: ResumePoint,
  deadline: number,
  lineKnown: boolean,
  order: TimeReport["order"] | null,
  probes: number,
): Promise<SearchResult & { disorder: boolean }> {
  const origin = first;
  const start = pageStart(opts, first);
  first = start.first;
  const win = opts.window;
  const times = win ? new LineTimes(win.timeOf, win.span, opts.resume ? win.carry : undefined) : null;
  const matcher = lineMatcher(opts, (opts.context ?? 0) > 0 || win !== undefined);
  using own = opts.patterns || !matcher.re ? null : new PatternOffload();
  const tester: PatternTester | null = opts.patterns ?? own;
  if (matcher.re) tester!.warm();
  const m = new PageMatches(opts, lineKnown);
  const entries = entryLevels(log, opts.format ?? null);
  const test = new LineTest(
    opts,
    first,
    start.contextUntil,
    deadline,
    matcher,
    tester,
    m,
    entries,
    times,
    order,
  );
  const headBytes = Math.max(opts.maxLine * 4 + 1, TESTED_BYTES);
  const literal = matcher.literal;
  const carry = literal ? matchSpan(literal.bytes, literal.ignoreCase) - 1 : 0;
  const src = await sourceFor(log, first, headBytes, carry);
  test.turns.arm(); // the scan starts: its first turn waits for a due timer (the scanner closes it)
  const r = await scan(src.src, test, {
    pieceSize: opts.pieceSize,
    needle: literal?.bytes,
    ignoreCase: literal?.ignoreCase,
    prefilter: matcher.pick ? matcher.dfa! : undefined,
    // A line with K or ſ where the literal has k or s: the pattern decides.
    verify: literal?.ignoreCase ? () => true : undefined,
    maxBytes: opts.searchBytes + start.reread,
    deadline,
    headBytes,
    lineBase: first.line,
    resume: src.resume,
    ...steering(opts, log, (b) => src.reached(b), () => m.matches.length),
    resumeAfterStop: () => test.resumeAfterStop(),
    // One armed timer for the sink's pauses and the scanner's (two `ScanTurns` fire each other's timers,
    // and each then waits ~2 ms for a fresh one: ~0.5 s a GiB in issue #26 item 2's paged regex search).
    turns: test.turns,
  });
  const { result, afterRead } = pageEnd(r, src.damage(), test, first, opts);
  m.settle(result, origin, afterRead);
  const report = times?.report(test.order!, probes, lineKnown, test.brokeLate);
  if (opts.take && m.collector) m.handOver(m.matches.length);
  return {
    ...result,
    partially_tested: test.partial,
    unresolved_levels: entries.unresolved || undefined,
    contexts: m.collector ? m.contexts : undefined,
    time: report,
    disorder: test.brokeOrder,
  };
}

/**
 * Where a page starts reading. A page after one a budget stopped, with context: the lines before its
 * start that the page before did not show are read again, for context only (a match right after the cut
 * keeps its before-lines): the read starts at the cursor's `cs`, lines before `contextUntil` (a file
 * offset; -1: none) are context only, and `reread` bytes (those and the part of a cut line the page
 * before had read) are not budgeted.
 */
function pageStart(
  opts: SearchOptions,
  first: ResumePoint,
): { first: ResumePoint; contextUntil: number; reread: number } {
  if ((opts.context ?? 0) > 0 && first === opts.resume && first.cs !== undefined && first.cs < first.ls) {
    return {
      first: { off: first.cs, ls: first.cs, line: first.cl ?? 0, pending: false, skip: first.skip },
      contextUntil: first.ls,
      reread: first.off - first.cs,
    };
  }
  return { first, contextUntil: -1, reread: 0 };
}

/**
 * What each line of a line-by-line search is tested with: a pattern (`re`, its program `size`, whether a
 * line that does not match as read is done: `proof`, RE2 `flags`), or a text in either case compared by
 * simple case folding (`folded`), or a literal's bytes (`plain`); and the literal every match of a
 * pattern holds, for the scanner to find its candidate lines by (`literal`; only when not every line is
 * handed on).
 */
interface LineMatcher {
  re: RE2JS | null;
  folded: RegExp | null;
  plain: LineLiteral | null;
  literal: RequiredLiteral | null;
  size: number;
  proof: boolean;
  flags: number;
  /**
   * The pattern's byte DFA (`byte_dfa.ts`), when a line that it passes over is surely no match (masking
   * off, or `proof`); null else, or when its program is not supported. `pick`: the scanner hands on only
   * the lines it picks (no literal, and not every line is handed on); else it is checked before re2js.
   */
  dfa: ByteDfa | null;
  pick: boolean;
  /**
   * The byte DFA when masking is on and the pattern is not `proof` (its verdict holds only for a line
   * tested as read: one `patternSubject` gives back as its bytes, holding no secret); else null.
   */
  rawDfa: ByteDfa | null;
  /**
   * With `rawDfa`, when a literal finds the candidates: the DFA of what a line must hold as read to match
   * as shown (`byte_dfa.ts` `lineDfa` relaxed): a whole line it passes over is no match, with no look at
   * its secrets (issue #26, item 2: `blk_-?[0-9]+ .*(terminating|deleting)`'s candidates without either
   * word); null else.
   */
  maskDfa: ByteDfa | null;
  /**
   * Every match starts with the scanner's needle (`RequiredLiteral.prefix`, case not ignored; with masking
   * on, a needle with no character a mask holds): the DFAs may start at its first occurrence in a line
   * (the scanner's).
   */
  fromNeedle: boolean;
  /** The DFAs' `maxTested`: a line longer than this is picked whole, never started at its needle. */
  maxTested: number;
}

/**
 * Lines a page's {@linkcode LineMatcher.maskDfa} picks before its worth is judged: when it has passed
 * over fewer than one line for every {@linkcode MASK_DFA_WORTH} it picked, the page stops asking it (a
 * pattern whose every atom a mask may stand for, `.+`, relaxes to what every line holds).
 */
const MASK_DFA_TRIAL = 1024;
const MASK_DFA_WORTH = 8;

/**
 * The shortest required literal the scanner looks for when the pattern also has a byte DFA: a shorter
 * one (`-`, `=`, ` a`) is in most lines of a log, so each would go to the sink; the DFA (~300 MB/s in
 * one loop, `bench/dfa_micro.ts`) picks the lines instead. A longer one is found at GB/s by SIMD.
 */
const STRONG_LITERAL = 3;

/**
 * The {@linkcode LineMatcher} of a search.
 *
 * @param every True when every line goes to the sink (a window, context).
 * @throws {ToolError} `invalid_pattern` for a `regex` that RE2 cannot run.
 */
function lineMatcher(opts: SearchOptions, every: boolean): LineMatcher {
  const re = opts.regex ? compilePattern(opts.text, opts.ignoreCase ?? false) : null;
  // Without a pattern: a text in either case is compared by simple case folding, decoded; else its bytes.
  const folded = !re && opts.ignoreCase ? foldMatcher(opts.text) : null;
  const literal = re && !every
    ? maskSafe(requiredLiteral(opts.text, opts.ignoreCase ?? false), opts.redact)
    : null;
  // A line that does not match as read cannot match as shown: its bytes are tested first.
  const proof = re !== null && opts.redact && (maskProof(opts.text) || programMaskProof(re));
  // With masking, a line over LOGPEEK_MAX_LINE bytes may be shown cut (`$` matches at the cut) and
  // masked: neither the mask proof nor the DFA holds for it, so the DFA picks it and re2js decides.
  const maxTested = opts.redact ? Math.min(TESTED_BYTES, opts.maxLine) : TESTED_BYTES;
  const anyDfa = re ? lineDfa(re, maxTested) : null;
  const dfa = !opts.redact || proof ? anyDfa : null;
  // The DFA picks the lines unless a literal of STRONG_LITERAL bytes finds fewer candidates faster.
  const pick = dfa !== null && !every && (!literal || literal.bytes.length < STRONG_LITERAL);
  return {
    re,
    folded,
    plain: re || folded ? null : new LineLiteral(new TextEncoder().encode(opts.text)),
    literal: pick ? null : literal,
    size: re ? re.programSize() : 0,
    proof,
    flags: opts.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0,
    dfa,
    pick,
    rawDfa: dfa ? null : anyDfa,
    maskDfa: !dfa && anyDfa && !pick && literal && re ? lineDfa(re, maxTested, true) : null,
    // (Not with case ignored: a match may start at a K or ſ before the needle's first ASCII occurrence.)
    fromNeedle: !pick && literal !== null && literal.prefix && !literal.ignoreCase &&
      (!opts.redact || !holdsMaskByte(literal.bytes)),
    maxTested,
  };
}

/** Whether `bytes` may hold a character a mask is made of (`mask_proof_program.ts` `MASK_CHARS`): any byte ≥ 0x80 may. */
function holdsMaskByte(bytes: Uint8Array): boolean {
  return bytes.some((b) => b >= 0x80 || MASK_CHARS.includes(b));
}

/** The turns of a page's scan (`next_turn.ts` `ScanTurns`), and when the last one ended (`performance.now()` ms). */
class PageTurns extends ScanTurns {
  last = performance.now();

  override async next(): Promise<void> {
    await super.next();
    this.last = performance.now();
  }
}

/** A line found heavy by the sink, to be tested in the worker: a copy of its bytes `[0, e)`. */
interface Heavy {
  bytes: Uint8Array;
  lineNo: number;
  at: number;
  e: number;
  cut: boolean;
  code: number;
}

/**
 * The sink of a page of a line-by-line search: each line's level read (as its entry's), its time tested
 * against the window, then the line tested ({@linkcode LineTest.test}) and collected as a match or as
 * context (`page_matches.ts`). A line that may be slow to test is copied and tested in the worker between
 * two lines ({@linkcode LineTest.resumeAfterStop}); the clock is read every {@linkcode CHECK_COST} of
 * pattern work.
 */
class LineTest implements LineSink {
  /** The level code of the line the sink has (`EntryLevels.levelAt`), and whether it is final. */
  code = 0;
  final = false;
  /** Lines longer than the part tested (`TESTED_BYTES`), or cut. */
  partial = 0;
  /** The order broke after a seek: the caller reads again from the start. */
  brokeOrder = false;
  /** The order broke on a later page of a seek: the seek may have skipped lines. */
  brokeLate: boolean;
  /** A first page entered by a seek reads again from the start when the order breaks. */
  readonly seeked: boolean;
  /** The level kept (`LEVELS` index), -1 for every level. */
  readonly want: number;
  /** The line found heavy by the sink, to be tested in the worker (its bytes are copied). */
  heavy: Heavy | null = null;
  heavyBuf: Uint8Array | null = null;
  /** Why the sink stopped the scan, when it did for something it must await. */
  pause: "yield" | "time" | null = null;
  /** The page's turns of the event loop, taken by the sink's pauses and the scanner's (which closes them). */
  readonly turns = new PageTurns();
  /** Pattern cost (program size × bytes) tested since the clock was last read. */
  spent = 0;
  sliceStart = performance.now();
  /** The line (its offset in the scan, number) the last pause or heavy line came after. */
  lastAt = 0;
  lastNo = 0;
  /** The matcher's `maskDfa` while it is worth asking; the lines it picked and passed over. */
  maskDfa: ByteDfa | null;
  maskPicked = 0;
  maskPassed = 0;
  /** Set when a heavy line could not be tested: the page ends before it. */
  untested: { stop: StopReason; lineNo: number; at: number } | null = null;

  /**
   * @param first Where the page's read starts (offsets of the scan are from `first.off`).
   * @param contextUntil Lines starting before this file offset are read for context only (-1: none).
   * @param deadline When the page must end (`performance.now()` ms).
   * @param order How the window's order stands (null: no window); updated as lines are read.
   */
  constructor(
    readonly opts: SearchOptions,
    readonly first: ResumePoint,
    readonly contextUntil: number,
    readonly deadline: number,
    readonly matcher: LineMatcher,
    readonly tester: PatternTester | null,
    readonly m: PageMatches,
    readonly entries: EntryLevels,
    readonly times: LineTimes | null,
    public order: TimeReport["order"] | null,
  ) {
    this.seeked = order === "seek" && !opts.resume;
    this.want = opts.level === undefined ? -1 : LEVELS.indexOf(opts.level);
    this.brokeLate = opts.resume !== undefined && opts.window?.brokenAfterSeek === true;
    this.maskDfa = matcher.maskDfa;
  }

  /** The line's level, read ahead when the line after it may give it one. */
  finalCode(): number {
    if (!this.final) this.code = this.entries.ahead(this.code);
    this.final = true;
    return this.code;
  }

  /**
   * A match, unless the page is past its limit (`after`): then it starts the next page. `asRead`: known
   * to be shown as read (`shownAsRead`), not asked again.
   */
  accept(
    buf: Uint8Array,
    s: number,
    e: number,
    lineNo: number,
    cut: boolean,
    at: number,
    asRead = false,
  ): boolean {
    if (this.m.after) return false; // a match among the after-lines: the next page starts with it
    return this.m.accept(buf, s, e, lineNo, cut, this.first.off + at, this.finalCode(), asRead);
  }

  /** A line that is no match: context for the matches around it. */
  other(buf: Uint8Array, s: number, e: number, lineNo: number, cut: boolean): boolean {
    if (!this.m.collector) return true;
    return this.m.other(buf, s, e, lineNo, cut, this.finalCode());
  }

  /** {@linkcode LineSink.line}: the line's level, context, window and level filter, then its test. */
  line(
    buf: Uint8Array,
    s: number,
    e: number,
    lineNo: number,
    cut: boolean,
    hint: number,
    at: number,
    needle = -1,
  ): boolean {
    const { m, times, first } = this;
    const after = m.after;
    if (after) {
      // Past the limit, reading the last match's after-lines: the next page starts at the first line
      // not shown (a match, or the line after them), so it neither repeats nor loses one.
      after.off = after.ls = first.off + at;
      after.line = lineNo - 1;
      if (!m.collector!.wantsAfter()) return false;
    }
    // Every line handed here, in order, so that a continuation line's entry is known without reading back.
    this.code = this.entries.levelAt(buf, s, e, hint, first.off + at, cut);
    this.final = false;
    if (m.collector) {
      m.see(first.off + at, lineNo);
      // Read again for context only (the page before read, tested and counted it).
      if (first.off + at < this.contextUntil) return this.other(buf, s, e, lineNo, cut);
    }
    let t = NaN;
    if (times) {
      t = times.see(buf, s, e);
      if (times.disorder && this.order !== "out_of_order") {
        if (this.seeked) {
          this.brokeOrder = true;
          return false;
        }
        if (this.order === "seek") this.brokeLate = true;
        this.order = "out_of_order";
      }
    }
    if (lineNo === first.skip) return this.other(buf, s, e, lineNo, cut); // returned (cut) by the page before
    if (times && !times.inside(t)) return this.other(buf, s, e, lineNo, cut);
    const want = this.want;
    if (want >= 0 && levelCode(this.finalCode()) !== want) return this.other(buf, s, e, lineNo, cut);
    return this.test(buf, s, e, lineNo, cut, at, needle);
  }

  /** The line `buf[s, e)` tested: by the literal, the folded text, or the pattern (here or in the worker). */
  test(
    buf: Uint8Array,
    s: number,
    e: number,
    lineNo: number,
    cut: boolean,
    at: number,
    needle = -1,
  ): boolean {
    const { plain, re, folded, size, proof } = this.matcher;
    if (plain) {
      // A literal on every line (a window, or context): its bytes, in the line as far as it is here.
      if (cut) this.partial++;
      return plain.holds(buf, s, e)
        ? this.accept(buf, s, e, lineNo, cut, at)
        : this.other(buf, s, e, lineNo, cut);
    }
    // A line cut by the budget before 64 KiB of it were read is not a pattern's to decide (`$` or
    // `\b` would match at the cut): it is not reported, and the next page, which re-reads its start,
    // tests it whole. (A line cut anywhere else has at least its first 64 KiB here.)
    if (re && cut && e - s < TESTED_BYTES) return this.other(buf, s, e, lineNo, cut);
    const end = Math.min(e, s + TESTED_BYTES);
    if (cut || e - s > TESTED_BYTES) this.partial++;
    if (folded) {
      if (!folded.test(decodeLine(buf.subarray(s, end), Infinity, end < e || cut).text)) {
        return this.other(buf, s, e, lineNo, cut);
      }
      return this.accept(buf, s, e, lineNo, cut, at);
    }
    // The byte DFA passes over a line that cannot match (as read, so as shown: `LineMatcher.dfa`).
    const dfa = this.matcher.dfa;
    // A pattern whose every match starts with the needle: its DFAs start at the needle's first bytes.
    const from = needle > s && this.matcher.fromNeedle && end === e && !cut && e - s <= this.matcher.maxTested
      ? needle
      : s;
    if (dfa && !this.matcher.pick && !dfa.mayMatch(buf, from, end)) return this.other(buf, s, e, lineNo, cut);
    if (this.maskDfa && end === e && !cut && this.maskPasses(buf, from, e)) {
      return this.other(buf, s, e, lineNo, cut);
    }
    if (isHeavy(size, end - s)) return this.holdHeavy(buf, s, e, lineNo, cut, at);
    const raw = buf.subarray(s, end);
    let hit: boolean;
    let asRead = false;
    // Not as read, so not as shown (`maskProof`), for a line shown whole (no more bytes than LOGPEEK_MAX_LINE).
    if (proof && end - s <= this.opts.maxLine && !re!.test(raw)) hit = false;
    else {
      const { redact, maxLine } = this.opts;
      // Shown as read (whole, ASCII, no secret): its bytes are what the pattern is tested on.
      asRead = shownAsRead(redact, buf, s, end, end < e || cut, maxLine);
      const tested = asRead ? raw : patternSubject(raw, end < e || cut, redact, maxLine);
      // Tested as read (no secret in it): the byte DFA passes over it when it cannot match, and decides
      // a line shown as read (ASCII: `ByteDfa.verdict`) that it finds a match in.
      const rawDfa = this.matcher.rawDfa;
      const verdict = tested === raw && rawDfa ? rawDfa.verdict(buf, from, end) : MAY_MATCH;
      if (verdict === NO_MATCH) hit = false;
      else if (verdict === SURE_MATCH && asRead) hit = true;
      else hit = typeof tested === "string" ? re!.test(tested) : re!.test(tested);
    }
    const go = hit ? this.accept(buf, s, e, lineNo, cut, at, asRead) : this.other(buf, s, e, lineNo, cut);
    // The budget and a cancel inside a piece (its lines may cost tens of ms each): the clock is read
    // every CHECK_COST of pattern work; the scan stops after this line, or lets the event loop turn.
    if (go && (this.spent += size * (end - s)) >= CHECK_COST) {
      this.spent = 0;
      const now = performance.now();
      // (Since the last turn, the scanner's or the sink's: a pause just after the scanner's waits for the
      // timer it armed, ~1 ms.)
      if (now >= this.deadline || now - Math.max(this.sliceStart, this.turns.last) >= YIELD_MS) {
        this.pause = now >= this.deadline ? "time" : "yield";
        this.lastAt = at;
        this.lastNo = lineNo;
        return false;
      }
    }
    return go;
  }

  /**
   * Holds a line that may be slow to test, for the worker: the scan stops here, and `resumeAfterStop`
   * tests it and goes on. An after-line past the limit too: a match there starts the next page, any other
   * line is shown as context (ending the page before it left the last match without it, and no page
   * showed it). False (the scan stops).
   */
  holdHeavy(buf: Uint8Array, s: number, e: number, lineNo: number, cut: boolean, at: number): false {
    if (!this.heavyBuf || this.heavyBuf.length < e - s) {
      this.heavyBuf = new Uint8Array(Math.max(e - s, 4096));
    }
    this.heavyBuf.set(buf.subarray(s, e));
    this.heavy = { bytes: this.heavyBuf, lineNo, at, e: e - s, cut, code: this.finalCode() };
    return false;
  }

  /**
   * With masking on, whether the whole line `buf[s, e)` lacks what the pattern needs even where masks
   * may stand (`maskDfa`): then it is no match. Stops asking when the DFA is not worth it.
   */
  maskPasses(buf: Uint8Array, s: number, e: number): boolean {
    if (!this.maskDfa!.mayMatch(buf, s, e)) {
      this.maskPassed++;
      return true;
    }
    if (++this.maskPicked >= MASK_DFA_TRIAL && this.maskPassed * MASK_DFA_WORTH < this.maskPicked) {
      this.maskDfa = null;
    }
    return false;
  }

  /**
   * The scan's `resumeAfterStop`: after a pause, the event loop turns and the scan goes on (unless
   * cancelled or out of time); after a heavy line, it is tested in the worker and the scan goes on.
   *
   * @returns True when the scan goes on with the next line.
   */
  async resumeAfterStop(): Promise<boolean> {
    if (this.pause === "time") return false;
    if (this.pause === "yield") {
      await this.turns.next();
      this.sliceStart = performance.now();
      if (this.opts.signal?.aborted || this.sliceStart >= this.deadline) {
        this.pause = "time"; // stop after this line: cancelled, or the budget spent
        return false;
      }
      this.pause = null;
      return true;
    }
    const h = this.heavy;
    if (!h) return false; // the limit, the window's end, the order broken
    this.heavy = null;
    this.code = h.code;
    this.final = true;
    const { opts, deadline } = this;
    const end = Math.min(h.e, TESTED_BYTES);
    const shown = patternSubject(h.bytes.subarray(0, end), end < h.e || h.cut, opts.redact, opts.maxLine);
    const tested = typeof shown === "string" ? new TextEncoder().encode(shown) : shown;
    const flags = this.matcher.flags;
    let outcome = await this.tester!.test(
      opts.text,
      flags,
      tested,
      deadline - performance.now(),
      opts.signal,
    );
    // No worker (its module is not readable): tested here, where it cannot be stopped.
    if (outcome === "unavailable") outcome = this.matcher.re!.test(tested) ? "match" : "no_match";
    if (outcome === "time_budget" || outcome === "cancelled") {
      this.untested = { stop: outcome, lineNo: h.lineNo, at: h.at };
      if (h.cut || h.e > TESTED_BYTES) this.partial--;
      return false;
    }
    this.sliceStart = performance.now();
    return outcome === "match"
      ? this.accept(h.bytes, 0, h.e, h.lineNo, h.cut, h.at)
      : this.other(h.bytes, 0, h.e, h.lineNo, h.cut);
  }
}

/**
 * How a page of a line-by-line search ended, from what its scan and its sink did: the order broken after
 * a seek, past the limit with the last match's after-lines read, stopped inside a piece (a heavy line not
 * tested, a budget or a cancel between two lines: {@linkcode stoppedInPiece}), or as the scan stopped.
 *
 * @param damage Why the source ended early (a changed file, a damaged gzip), or null.
 * @returns The result before `PageMatches.settle`, and `afterRead`: the page ended past the limit with
 *   the after-lines read (no match is then held back).
 */
function pageEnd(
  r: ScanResult,
  damage: StopReason | null,
  test: LineTest,
  first: ResumePoint,
  opts: SearchOptions,
): { result: SearchResult; afterRead: boolean } {
  const m = test.m;
  m.decodeHeld(); // the matches' texts, before the result holds them
  const common = {
    matches: m.matches,
    replaced_bytes: m.replaced,
    redactions: m.redactor.count,
    scanned_bytes: r.bytesRead + test.entries.bytesRead,
  };
  // Past the limit, reading after-lines: the page ends where its sink stopped it, or at the log's end. A
  // budget that stops it there instead (the scanner's, the sink's clock, a line the pattern worker could
  // not test in time) ends it as any budget does (the next page goes on after the last line read, its
  // context from the lines not shown, the last match held back for it).
  const budgeted = r.stop === "time_budget" || r.stop === "size_budget" || test.pause === "time" ||
    test.untested !== null;
  const afterPoint = budgeted ? null : m.after;
  const afterRead = afterPoint !== null;
  if (test.brokeOrder) {
    // The order broke after a seek: the caller reads again from the start.
    const result = { ...common, scanned_lines: r.lines, complete: damage === null, stop_reason: damage };
    return { result: { ...result, next: null, stuck: false }, afterRead };
  }
  if (afterPoint) {
    // Past the limit, the after-lines of the last match read: the next page starts at the first line not
    // shown; none when the log ended among them (no match followed: nothing is left).
    const ended = r.stop === null;
    const stop = ended ? damage : r.stop;
    const next: ResumePoint | null = !ended && afterPoint.off >= 0
      ? { off: afterPoint.off, ls: afterPoint.off, line: afterPoint.line, pending: false, skip: 0 }
      : null;
    const result = { ...common, scanned_lines: afterPoint.line, complete: stop === null, stop_reason: stop };
    return { result: { ...result, next, stuck: false }, afterRead };
  }
  if (test.untested || test.pause) {
    return { result: stoppedInPiece(r, damage, test, first, opts, common), afterRead };
  }
  const result = {
    ...pageResult(first, r, damage, m.lastReported, m.matches, m.replaced, m.redactor.count),
    scanned_bytes: common.scanned_bytes,
  };
  return { result, afterRead };
}

/**
 * A page stopped before a heavy line (not tested: the next page starts at it), or after a line when the
 * budget ran out or the client cancelled within a piece (the next page starts after it; none after the
 * last line, without a line feed).
 *
 * @param common The result's matches and counts.
 */
function stoppedInPiece(
  r: ScanResult,
  damage: StopReason | null,
  test: LineTest,
  first: ResumePoint,
  opts: SearchOptions,
  common: Pick<SearchResult, "matches" | "replaced_bytes" | "redactions" | "scanned_bytes">,
): SearchResult {
  const stopped = test.untested;
  const stop: StopReason = stopped ? stopped.stop : opts.signal?.aborted ? "cancelled" : "time_budget";
  const lineStart = first.off + (stopped ? stopped.at : test.lastAt);
  const after = first.off + r.resumeAt;
  let next: ResumePoint | null;
  if (stopped) next = { off: lineStart, ls: lineStart, line: stopped.lineNo - 1, pending: false, skip: 0 };
  else if (after > lineStart) next = { off: after, ls: after, line: r.lines, pending: false, skip: 0 };
  else next = null; // the last line, without a line feed: nothing after it
  if (!stopped && next === null) {
    const result = { ...common, scanned_lines: test.lastNo, complete: damage === null, stop_reason: damage };
    return { ...result, next: null, stuck: false };
  }
  const n = stop === "cancelled" ? null : progressed(first, next);
  return {
    ...common,
    scanned_lines: next!.line,
    complete: false,
    stop_reason: stop,
    next: n,
    stuck: stop === "time_budget" && n === null,
  };
}
