/**
 * What a line scan (`scanner.ts` `scan`) is given and gives back: its source of bytes, the
 * sink that receives its lines, its options, and its result.
 *
 * @module
 */

import type { LevelTally } from "./level.ts";
import type { ScanTurns } from "./next_turn.ts";

/** Where the scanner's bytes come from: a file positioned at the scan's start, or a test double. */
export interface ByteSource {
  /** Reads at most `into.length` bytes into `into`; returns how many, or null at the end. */
  readSync(into: Uint8Array): number | null;
  /** True when no byte is left after those read: a budget spent exactly at the end is no stop. */
  atEnd(): boolean;
  /** When present, used instead of `readSync` (a decompressing source). */
  read?(into: Uint8Array): Promise<number | null>;
}

/** Receives lines. */
export interface LineSink {
  /**
   * One line: `buf[start, end)` is the line without its end of line, or only its first bytes when
   * `cut` (a line longer than the buffer). The bytes are valid only during the call.
   *
   * @param lineNo 1-based number of the line, counted from where the scan started.
   * @param cut True when only the line's first bytes are passed.
   * @param hint The offset from `start` of the line's first ASCII letter or ESC within its first 32
   *   bytes, 255 when none, -1 when not known (`levelOf` uses it).
   * @param at The line's first byte, counted from the scan's start (negative for a resumed line).
   * @param needle With a needle ({@linkcode ScanOptions.needle}): the offset in `buf` of its first
   *   occurrence in the line, when the scanner found its bytes there; -1 (or absent) else.
   * @returns false to stop the scan (reported as `stop: "limit"`).
   */
  line(
    buf: Uint8Array,
    start: number,
    end: number,
    lineNo: number,
    cut: boolean,
    hint: number,
    at: number,
    needle?: number,
  ): boolean;
}

/**
 * Why a scan stopped before the end of its source. `file_changed` is set by the tools, not the scanner:
 * the log shrank (was truncated) while it was being read.
 */
export type StopReason =
  | "limit"
  | "time_budget"
  | "size_budget"
  | "file_changed"
  | "cancelled"
  | "corrupt_gzip";

/** Options of `scanner.ts` `scan`. */
export interface ScanOptions {
  /** Bytes per read and buffer size; default 65536 (the seed's CHUNK). */
  pieceSize?: number;
  /** Most bytes to read; default unlimited. */
  maxBytes?: number;
  /**
   * `performance.now()` value (ms) after which no further read starts and no further line is handed on
   * (the clock is read between lines, every `line_scan.ts` `CHECK_UNITS` of work); default none.
   */
  deadline?: number;
  /** True when having read `maxBytes` means the end (a tail window that ends at the size it saw). */
  maxBytesIsEnd?: boolean;
  /** False when the scan starts inside a line: that fragment is skipped, not counted or passed on. */
  firstLineWhole?: boolean;
  /** How many of a long line's first bytes are kept for its sink call; default 4096. */
  headBytes?: number;
  /** When set, only lines holding these bytes reach the sink. Must not contain `\n`. */
  needle?: Uint8Array;
  /**
   * Match the needle's ASCII letters in either case (`byte | 0x20`). A line that holds K (U+212A) or ſ
   * (U+017F) where the needle has `k` or `s` (`fold.ts` `foldPartners`) but not the needle's bytes
   * themselves is a candidate that `verify` decides on.
   */
  ignoreCase?: boolean;
  /**
   * Decides on a candidate line (see `ignoreCase`): `buf[start, end)` is the line, or its first bytes
   * when it was longer than `headBytes` or a budget stopped inside it. Without it, candidates are not
   * matches (ASCII letters folded only).
   */
  verify?: (buf: Uint8Array, start: number, end: number) => boolean;
  /**
   * The event loop turns (`next_turn.ts` `ScanTurns`) at most every `yieldMs` (default `YIELD_MS`),
   * between reads and inside a piece (between two lines handed on), so other calls and a cancel get in.
   */
  yieldMs?: number;
  /**
   * The turns the scan takes (default its own): a sink that lets the event loop turn by itself
   * (`resumeAfterStop`) passes the ones it takes, so that one timer is armed for both (two `ScanTurns`
   * fire each other's timers, and each then waits ~2 ms for a fresh one: issue #26 item 4).
   */
  turns?: ScanTurns;
  /** Lines before the scan's start (a resumed scan): the first line is numbered `lineBase + 1`. */
  lineBase?: number;
  /**
   * A scan resumed inside a line: the source starts `resume.lineLen` bytes into line `lineBase + 1`.
   * `head` is that line's first bytes (up to `headBytes`), `carry` the last `needle.length - 1` bytes
   * before the source's start (so a match across the resumption is found), `pending` whether the line
   * already holds the needle.
   */
  resume?: { head: Uint8Array; lineLen: number; carry: Uint8Array; pending: boolean };
  /**
   * Checked before every read and between lines as the deadline is: when it returns true the scan stops
   * (`stop: "cancelled"`).
   */
  cancelled?: () => boolean;
  /** Called before reads, at most every `progressMs` (default 250 ms), with the bytes read so far. */
  onProgress?: (bytesRead: number, lines: number) => void;
  /** The least time between two `onProgress` calls, in ms. */
  progressMs?: number;
  /**
   * Count lines by level instead of handing them on: each line goes to `levelCounts.add` (`level.ts`
   * `LevelTally`: entries and continuation lines by level), and the sink is never called. The line is the
   * one the sink would have had (its first `headBytes` bytes when longer than the buffer). Without a
   * needle only. Why: a sink call per line costs as much as finding the lines (issue #11).
   */
  levelCounts?: LevelTally;
  /**
   * When set (and no needle), only the lines it picks reach the sink: a pattern's byte DFA
   * (`byte_dfa.ts` `ByteDfa`), run over the buffer across many lines in one loop. It may pick a line
   * that does not match (the sink decides), never pass over one that does. Lines longer than the buffer
   * are all handed on.
   */
  prefilter?: LinePrefilter;
  /**
   * With `levelCounts`: each line is also counted by the level its HTTP status gives (`http_status.ts`
   * `StatusTally`), in the same loop, the sink never called.
   */
  statusCounts?: StatusCounter;
  /**
   * Called when the sink has stopped the scan (returned false). When it resolves true, the scan goes on
   * with the next line as if the sink had returned true: a sink that must await something between two
   * lines (a test in a worker, a turn of the event loop so that a cancel can arrive) stops, and this
   * awaits it, with the buffer and every count kept. When it resolves false the scan stops (`limit`).
   */
  resumeAfterStop?: () => Promise<boolean>;
}

/**
 * Picks the lines that may match (`ScanOptions.prefilter`; `byte_dfa.ts` `ByteDfa`): scans bytes over
 * lines that cannot, keeping where it stands inside an unfinished line between two calls.
 */
export interface LinePrefilter {
  /** The next {@linkcode LinePrefilter.scan} starts a line. */
  restart(): void;
  /**
   * Scans `buf[pos, end)` of the line that starts at `ls` (going on from where the last call stood when
   * `pos > ls`), over the lines that cannot match.
   *
   * @returns The line feed that ends the first line that may match (its start in `lineStart`, the lines
   *   passed over before it in `lines`), or -1 at `end` (`lineStart`: the unfinished line's start).
   */
  scan(buf: Uint8Array, ls: number, pos: number, end: number): number;
  /** Set by `scan`: the start of the line it stopped in or at. */
  readonly lineStart: number;
  /** Set by `scan`: the lines it passed over. */
  readonly lines: number;
}

/** What a scan did. */
export interface ScanResult {
  /** Lines read to their end (the last, unterminated line included when the source ended). */
  lines: number;
  /**
   * Bytes read from the source, up to the line a stop inside a piece came before (a deadline or a cancel
   * between two lines): the bytes after it were not looked at, and the next page reads them again.
   */
  bytesRead: number;
  /** Why it stopped early; null when it reached the end of the source. */
  stop: StopReason | null;
  /** True when a fragment at the start was skipped (`firstLineWhole: false` and the source was not empty). */
  droppedPartial: boolean;
  /**
   * Bytes from the scan's start to the start of the first line not read to its end (negative when that
   * line began before the scan; all of `bytesRead` when the scan reached the end).
   */
  resumeAt: number;
  /** True when the line not read to its end holds the needle. */
  pending: boolean;
}

/**
 * What counts lines by their HTTP status beside their level in the scanner's counting loop
 * ({@linkcode ScanOptions.statusCounts}): `http_status.ts` `StatusTally` (a type here, so that the
 * scanner's modules do not import the status reader, which opens logs through `scan_source.ts`).
 */
export interface StatusCounter {
  /** Counts the line buf[s, e) alone (the scanner's single-line paths). */
  add(buf: Uint8Array, s: number, e: number): void;
  /** The lines of buf[.., limit) are about to be handed to {@linkcode StatusCounter.next}, in order. */
  begin(limit: number): void;
  /** Counts the next line buf[s, e) of those announced by {@linkcode StatusCounter.begin}. */
  next(buf: Uint8Array, s: number, e: number): void;
}
