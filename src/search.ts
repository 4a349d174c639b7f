/**
 * Searching a log for a literal text, within budgets, with honest line numbers and an honest end.
 *
 * From the seed (`../shared/seeds/000_…`, "Бюджет и неполный ответ"): the search stops at `limit`
 * matches, at the time budget or at the byte budget, and says which; a budget that runs out exactly at
 * the end of the file is not a stop; a fully read file with no match is a complete, empty answer.
 *
 * @module
 */

import { type Level, levelOf, LEVELS } from "./level.ts";
import { type LogLine, toLogLine } from "./log_line.ts";
import type { OpenLog, ResumePoint } from "./log_file.ts";
import { sourceFor } from "./scan_source.ts";
import { plural } from "./tools/render.ts";
import { scan, type ScanOptions, type StopReason } from "./scanner.ts";
import { LineRedactor, redactLine } from "./redact.ts";
import { checkPattern, RegexPool } from "./regex_worker.ts";

/** Options of {@linkcode searchLog}. */
export interface SearchOptions {
  /** The literal text (UTF-8 bytes are matched). */
  text: string;
  /** Keep only matching lines of this level. */
  level?: Level;
  /** The most matches. */
  limit: number;
  /** Time budget in ms. */
  searchMs: number;
  /** Byte budget. */
  searchBytes: number;
  /** The most characters of one returned line. */
  maxLine: number;
  /** Bytes per read. */
  pieceSize: number;
  /** Mask secrets in the returned text (false for `--no-redact`). */
  redact: boolean;
  /** Where a resumed search goes on (from a cursor). */
  resume?: ResumePoint;
  /** Match letters in either case: ASCII on the raw bytes, other scripts on the decoded line. */
  ignoreCase?: boolean;
  /** `text` is a JavaScript regular expression, tested on each line's decoded (and redacted) start. */
  regex?: boolean;
  /** Where regex workers come from (kept warm); a new one is started when absent. */
  regexPool?: RegexPool;
  /** Aborted when the client cancels. */
  signal?: AbortSignal;
  /** Receives the file offset reached, the file's size and a short message, at most every 250 ms. */
  onProgress?: (offset: number, total: number, message: string) => void;
}

/** What {@linkcode searchLog} found: the `log_search` result without its `file`. */
export interface SearchResult {
  /** Matching lines, in file order. */
  matches: LogLine[];
  /** Lines read to their end. */
  scanned_lines: number;
  /** True when the whole file was read and every match returned. */
  complete: boolean;
  /** Why not complete; null when complete. */
  stop_reason: StopReason | null;
  /** Bytes of the returned lines that were invalid UTF-8 and replaced. */
  replaced_bytes: number;
  /** Secrets masked in the returned lines. */
  redactions: number;
  /** Where the next page goes on; null when complete (or stopped for another reason). */
  next: ResumePoint | null;
}

/**
 * Searches an open log.
 *
 * Memory: one piece plus the returned lines.
 *
 * @param log The open log.
 * @param opts The text, filters, limit and budgets.
 * @returns The matches and how far the search got.
 * @throws {TypeError} when the text holds a line feed.
 */
export async function searchLog(log: OpenLog, opts: SearchOptions): Promise<SearchResult> {
  // deno-lint-ignore no-control-regex
  if (opts.regex || (opts.ignoreCase && /[^\x00-\x7f]/.test(opts.text))) return await searchByLine(log, opts);
  const started = performance.now();
  const want = opts.level === undefined ? -1 : LEVELS.indexOf(opts.level);
  const matches: LogLine[] = [];
  let replaced = 0;
  let lastReported = 0;
  const redactor = new LineRedactor(opts.redact, false);
  const needle = new TextEncoder().encode(opts.text);
  const headBytes = opts.maxLine * 4 + 1;
  const from = opts.resume ?? { off: log.bomLength, ls: log.bomLength, line: 0, pending: false, skip: 0 };
  const { src, resume, damage } = await sourceFor(log, from, headBytes, needle.length - 1);
  const r = await scan(src, {
    line(buf, s, e, lineNo, cut) {
      if (lineNo === from.skip) return true; // returned (cut) by the page before
      if (want >= 0 && levelOf(buf, s, e) !== want) return true;
      const { line, replaced: bad } = toLogLine(buf, s, e, lineNo, cut, opts.maxLine, redactor);
      matches.push(line);
      lastReported = lineNo;
      replaced += bad;
      return matches.length < opts.limit;
    },
  }, {
    pieceSize: opts.pieceSize,
    needle,
    ignoreCase: opts.ignoreCase,
    maxBytes: opts.searchBytes,
    deadline: started + opts.searchMs,
    headBytes,
    lineBase: from.line,
    resume,
    ...steering(opts, log, from, () => matches.length),
  });
  const stop = r.stop ?? damage();
  let next: ResumePoint | null = null;
  if (stop === "limit") {
    const at = from.off + r.resumeAt;
    next = { off: at, ls: at, line: r.lines, pending: false, skip: 0 };
  } else if (stop === "time_budget" || stop === "size_budget") {
    const unfinished = r.lines + 1;
    const skip = r.pending && lastReported === unfinished
      ? unfinished
      : from.skip === unfinished
      ? unfinished
      : 0;
    next = {
      off: from.off + r.bytesRead,
      ls: from.off + r.resumeAt,
      line: r.lines,
      pending: r.pending,
      skip,
    };
  }
  return {
    matches,
    scanned_lines: r.lines,
    complete: stop === null,
    stop_reason: stop,
    replaced_bytes: replaced,
    redactions: redactor.count,
    next,
  };
}

interface Candidate {
  lineNo: number;
  at: number;
  line: LogLine;
  replaced: number;
  /** The text the pattern is tested on: the decoded line, secrets masked. */
  test: string;
}

/**
 * The search for a regular expression, or for text with non-ASCII letters in either case: every line
 * is decoded (its first `LOGPEEK_MAX_LINE` characters) and tested; a regular expression is tested in
 * a worker that is terminated when the time budget ends ({@linkcode RegexTester}).
 */
async function searchByLine(log: OpenLog, opts: SearchOptions): Promise<SearchResult> {
  const started = performance.now();
  const deadline = started + opts.searchMs;
  const want = opts.level === undefined ? -1 : LEVELS.indexOf(opts.level);
  const flags = opts.ignoreCase ? "i" : "";
  if (opts.regex) checkPattern(opts.text, flags);
  using tester = opts.regex ? (opts.regexPool ?? new RegexPool()).take(opts.text, flags) : null;
  const folded = opts.text.toLowerCase();
  const matches: LogLine[] = [];
  const redactor = new LineRedactor(opts.redact, false);
  const headBytes = opts.maxLine * 4 + 1;
  const from = opts.resume ?? { off: log.bomLength, ls: log.bomLength, line: 0, pending: false, skip: 0 };
  let replaced = 0;
  let batch: Candidate[] = [];
  let timedOut: Candidate | null = null;
  let limitAt: Candidate | null = null;

  const flush = async (): Promise<StopReason | null> => {
    if (batch.length === 0) return null;
    const texts = batch.map((c) => c.test);
    const hits = tester
      ? await tester.test(texts, deadline - performance.now())
      : texts.flatMap((t, i) => (t.toLowerCase().includes(folded) ? [i] : []));
    if (hits === null) {
      timedOut = batch[0];
      batch = [];
      return "time_budget";
    }
    for (const i of hits) {
      const c = batch[i];
      c.line.text = redactor.line(c.line.text, c.line.cut);
      matches.push(c.line);
      replaced += c.replaced;
      if (matches.length >= opts.limit) {
        limitAt = c;
        batch = [];
        return "limit";
      }
    }
    batch = [];
    return null;
  };

  const { src, resume, damage } = await sourceFor(log, from, headBytes, 0);
  const r = await scan(src, {
    line(buf, s, e, lineNo, cut, hint, at) {
      if (lineNo === from.skip) return true;
      if (want >= 0 && levelOf(buf, s, e, hint) !== want) return true;
      const { line, replaced: bad } = toLogLine(buf, s, e, lineNo, cut, opts.maxLine);
      batch.push({
        lineNo,
        at,
        line,
        replaced: bad,
        test: opts.redact ? redactLine(line.text).text : line.text,
      });
      return true;
    },
  }, {
    pieceSize: opts.pieceSize,
    maxBytes: opts.searchBytes,
    deadline,
    headBytes,
    lineBase: from.line,
    resume,
    between: flush,
    ...steering(opts, log, from, () => matches.length),
  });
  let stop: StopReason | null = r.stop;
  if (stop !== "limit" && stop !== "cancelled" && !(stop === "time_budget" && timedOut)) {
    stop = (await flush()) ?? stop;
  }
  stop ??= damage();
  let lines = r.lines;
  let next: ResumePoint | null = null;
  const t = timedOut as Candidate | null;
  const l = limitAt as Candidate | null;
  if (t) {
    lines = t.lineNo - 1;
    next = { off: from.off + t.at, ls: from.off + t.at, line: lines, pending: false, skip: 0 };
  } else if (l) {
    lines = l.lineNo;
    next = { off: from.off + l.at, ls: from.off + l.at, line: l.lineNo - 1, pending: false, skip: l.lineNo };
  } else if (stop === "time_budget" || stop === "size_budget") {
    const unfinished = r.lines + 1;
    next = {
      off: from.off + r.bytesRead,
      ls: from.off + r.resumeAt,
      line: r.lines,
      pending: false,
      skip: from.skip === unfinished ? unfinished : 0,
    };
  }
  return {
    matches,
    scanned_lines: lines,
    complete: stop === null,
    stop_reason: stop,
    replaced_bytes: replaced,
    redactions: redactor.count,
    next,
  };
}

/** The scan options that let a client steer a search: its cancellation, and progress reports. */
function steering(
  opts: SearchOptions,
  log: OpenLog,
  from: ResumePoint,
  matched: () => number,
): Pick<ScanOptions, "cancelled" | "onProgress"> {
  return {
    cancelled: opts.signal ? () => opts.signal!.aborted : undefined,
    onProgress: opts.onProgress
      ? (bytes, lines) =>
        opts.onProgress!(from.off + bytes, log.size, `${plural(lines, "line")} read, ${matched()} matched`)
      : undefined,
  };
}
