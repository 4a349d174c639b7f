/**
 * The text form of search matches with their context lines (issue #12, `log_search` `context`), laid out
 * as `grep -n -C N` lays them out, so a model reads it as it reads grep:
 *
 * ```text
 * ==> app.log <==
 * 11- INFO starting worker
 * 12: ERROR worker died
 * 13- INFO restarting
 * --
 * 40: ERROR worker died
 * ```
 *
 * - a match is `NUMBER: LEVEL text`, a context line `NUMBER- LEVEL text` (grep's `12:` and `11-`); the
 *   rest of the line is {@linkcode renderLine}'s (the level, the text through `printable`, ` …[cut]`);
 *   an unknown number is shown `?` (renderLine's `-` would make a context line start with `--`, which
 *   reads as a group separator);
 * - a group (lines that touch or overlap) is printed once, each line once; `--` alone on a line stands
 *   between two groups of one file;
 * - when matches come from several logs, `==> NAME <==` (as `tail` heads each file) starts each log's
 *   lines, in place of a `--`: a group never spans two files.
 *
 * @module
 */

import type { LogLine } from "../read/log_line.ts";
import type { WithContext } from "../read/context.ts";
import { printable } from "../guard/printable.ts";
import { renderLine } from "./render.ts";

/** One match with its context lines, as a search found it. */
export interface ContextMatch {
  /** The matching line. */
  line: LogLine;
  /** Its lines before and after (`read/context.ts` `ContextCollector`), `adjoins` telling its group. */
  context: WithContext<LogLine>;
  /** The log it was found in, when a call searched several: a heading is shown where it changes. */
  file?: string;
}

/** The group separator line, as grep prints it. */
export const GROUP_SEPARATOR = "--";

/**
 * One line as `NUMBER: LEVEL text` (a match) or `NUMBER- LEVEL text` (a context line); `?` for an unknown
 * number. After the mark, exactly {@linkcode renderLine}'s form of the line (its text shown printable, on
 * one line, with the cut marker).
 *
 * @param l The line.
 * @param match True for a match, false for a context line.
 */
export function renderContextLine(l: LogLine, match: boolean): string {
  // renderLine gives `NUMBER LEVEL text`, with `-` for an unknown number: keep what follows the number.
  const plain = renderLine(l);
  const rest = plain.slice(plain.indexOf(" "));
  return `${l.line_no ?? "?"}${match ? ":" : "-"}${rest}`;
}

/** The heading that starts a log's lines when a call searched several. */
export function renderFileHeading(file: string): string {
  return `==> ${printable(file)} <==`;
}

/**
 * One text line of a search's answer before it is rendered (issue #22: an answer of many lines is
 * rendered line by line as it is written, never held whole): a log line (`match` and `context` as
 * {@linkcode renderContextLine} shows them, `plain` as `render.ts` `renderLine`), a log's heading, or
 * {@linkcode GROUP_SEPARATOR}.
 */
export type AnswerItem =
  | { line: LogLine; mark: "match" | "context" | "plain" }
  | { heading: string }
  | typeof GROUP_SEPARATOR;

/** The text of one {@linkcode AnswerItem}. */
export function renderItem(it: AnswerItem): string {
  if (it === GROUP_SEPARATOR) return it;
  if ("heading" in it) return renderFileHeading(it.heading);
  return it.mark === "plain" ? renderLine(it.line) : renderContextLine(it.line, it.mark === "match");
}

/**
 * The text lines of each match: for match i, the lines that come before it in the whole text (a file
 * heading when its `file` differs from the previous match's, else `--` when it does not join the
 * previous match's group), its `before` lines, the match, its `after` lines. Joined in order they make
 * {@linkcode renderContext}; kept apart, they let a caller cut the text after a whole match.
 *
 * Whether a match joins the previous one's group: its `context.adjoins` when set (the collector saw every
 * line, so it knows even without line numbers); otherwise, when both line numbers are known, whether its
 * first shown line is at most one past the previous match's last; otherwise not. When both numbers are
 * known, a `before` line at or below the previous match's last shown line is not shown again (the
 * collector never gives one; a caller that built contexts itself may).
 *
 * @param matches The matches, in the order they were found (a file's matches together, in line order).
 * @returns One array of text lines per match (never empty: it holds at least the match).
 */
export function renderContextBlocks(matches: readonly ContextMatch[]): string[][] {
  return contextBlockItems(matches).map((b) => b.map(renderItem));
}

/**
 * {@linkcode renderContextBlocks}'s lines not yet rendered: the same blocks, each line an
 * {@linkcode AnswerItem} ({@linkcode renderItem} gives its text).
 *
 * @param matches The matches, in the order they were found (a file's matches together, in line order).
 * @returns One array of items per match (never empty: it holds at least the match).
 */
export function contextBlockItems(matches: readonly ContextMatch[]): AnswerItem[][] {
  const blocks = new ContextBlocks();
  return matches.map((m) => blocks.next(m));
}

/**
 * {@linkcode contextBlockItems} one match at a time, for a caller that does not hold all matches (issue
 * #22): `next` gives each match's block, in the order the matches were found.
 */
export class ContextBlocks {
  #prev: ContextMatch | undefined;
  #lastShown: LogLine | undefined;

  /** Where the blocks stand (the last match given), for {@linkcode ContextBlocks.restore}. */
  save(): { prev: ContextMatch | undefined; lastShown: LogLine | undefined } {
    return { prev: this.#prev, lastShown: this.#lastShown };
  }

  /** Goes back to what {@linkcode ContextBlocks.save} gave: the next block follows that match. */
  restore(s: { prev: ContextMatch | undefined; lastShown: LogLine | undefined }): void {
    this.#prev = s.prev;
    this.#lastShown = s.lastShown;
  }

  /**
   * The block of the match after the last one given (the first: the first match's).
   *
   * @param m The match, its context final (its `after` filled).
   * @returns Its items (at least the match), as {@linkcode contextBlockItems} gives them.
   */
  next(m: ContextMatch): AnswerItem[] {
    const out: AnswerItem[] = [];
    const sameFile = this.#prev !== undefined && this.#prev.file === m.file;
    let before = m.context.before;
    if (!sameFile) {
      if (m.file !== undefined) out.push({ heading: m.file });
    } else {
      const lastNo = this.#lastShown!.line_no;
      if (lastNo !== null) before = before.filter((l) => l.line_no === null || l.line_no > lastNo);
      const first = before[0] ?? m.line;
      const joins = m.context.adjoins ??
        (lastNo !== null && first.line_no !== null && first.line_no <= lastNo + 1);
      if (!joins) out.push(GROUP_SEPARATOR);
    }
    for (const l of before) out.push({ line: l, mark: "context" });
    out.push({ line: m.line, mark: "match" });
    for (const l of m.context.after) out.push({ line: l, mark: "context" });
    this.#prev = m;
    this.#lastShown = m.context.after.at(-1) ?? m.line;
    return out;
  }
}

/**
 * The matches and their context as text lines, grep-like (the layout is in this module's comment).
 *
 * @param matches The matches, in the order they were found.
 * @returns One string per text line (none holds a line break): headings, `--`, lines.
 */
export function renderContext(matches: readonly ContextMatch[]): string[] {
  return renderContextBlocks(matches).flat();
}
