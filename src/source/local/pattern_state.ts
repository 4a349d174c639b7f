/**
 * What a `log_patterns` call over local files keeps between its pages besides the mining (`template_mining.ts`
 * `MiningRun`): the windows as its first page resolved them, the times the logs read cover, why it cannot be
 * complete (its notes), and how much of each side was read. Saved as the first line of the state the tool
 * keeps (`PatternsAnswer.resume`), the mining on the second; checked when read back.
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import type { MinePage } from "../../read/mine_templates.ts";
import { requireTimestamps, seekBroken, timelessLogs } from "../../read/time_span.ts";
import type { TimeSpan } from "../../read/time_window.ts";
import type { PatternsNote, PatternsSide, SideRead } from "../patterns_query.ts";
import type { OverLogs } from "./many_logs.ts";
import { MiningRun } from "./template_mining.ts";

/** A window's instants as the state keeps them (epoch ms; ±∞ as null). */
export type SavedSpan = [number | null, number | null] | null;

/** A window as the state keeps it. */
export const saveSpan = (s: TimeSpan | undefined): SavedSpan =>
  s ? [Number.isFinite(s.since) ? s.since : null, Number.isFinite(s.until) ? s.until : null] : null;

/** A window the state kept. */
export const loadSpan = (s: SavedSpan): TimeSpan | undefined =>
  s ? { since: s[0] ?? -Infinity, until: s[1] ?? Infinity } : undefined;

/** What the pages so far did to one side (see {@linkcode CallState.sides}). */
export interface SideMarks {
  begun: boolean;
  flawed: boolean;
}

/** What a resumed call keeps besides the mining: the windows as the first page resolved them, and more. */
export interface CallState {
  /** The hash of the query (but its resume): a cursor goes on only with the same one. */
  q: string;
  spans: { window: SavedSpan; baseline: SavedSpan };
  /**
   * The times the logs read cover, per side (epoch ms; null: none yet): a window's rate is over the part
   * of it the logs cover (a log that began inside the baseline window does not dilute its rate).
   */
  covered: { window: SavedSpan; baseline: SavedSpan };
  /** The first damage a page met (`file_changed`, `corrupt_gzip`), or null. */
  damage: "file_changed" | "corrupt_gzip" | null;
  /** The cursor of the phase this state goes on with ("" for a phase not begun). */
  cursor: string;
  /** Why the answer cannot be complete, found on earlier pages. */
  notes: PatternsNote[];
  /** Logs whose line numbers are not known (entered by a time seek). */
  unnumbered: string[];
  /**
   * Per side: whether a page read any of it (`begun`), and whether a note (a damaged log, a log not read,
   * lines without times) keeps it from being read in full whatever later pages read (`flawed`). A template's
   * change is given only when both sides were read in full (issue #22).
   */
  sides: Record<PatternsSide, SideMarks>;
}

/**
 * A new call's state.
 *
 * @param q The query's hash.
 * @param span The window, as resolved now.
 * @param baseSpan The baseline's window, as resolved now.
 */
export function newState(q: string, span: TimeSpan | undefined, baseSpan: TimeSpan | undefined): CallState {
  return {
    q,
    covered: { window: null, baseline: null },
    damage: null,
    spans: { window: saveSpan(span), baseline: saveSpan(baseSpan) },
    cursor: "",
    notes: [],
    unnumbered: [],
    sides: { window: { begun: false, flawed: false }, baseline: { begun: false, flawed: false } },
  };
}

/** The state to keep: the call's state on the first line, `MiningRun.save`'s JSON as it is on the second. */
export function keptState(state: CallState, cursor: string, run: MiningRun): string[] {
  // Kept as a string inside the state's JSON, the mining was escaped again: a third copy of several MB.
  return [JSON.stringify({ ...state, cursor }), run.save()];
}

/**
 * The mining and call state a stopped call kept ({@linkcode keptState}'s lines, joined by line feeds).
 *
 * @param text The kept text.
 * @param cursor The cursor it was kept with: it must be the state's.
 * @param maxTemplates `LOGPEEK_MAX_TEMPLATES` (a mining under another cap is refused).
 * @param stderr Where the reason of a refusal is written.
 * @throws {ToolError} `invalid_cursor` when the text is not what was kept with that cursor.
 */
export function resumedState(
  text: string,
  cursor: string,
  maxTemplates: number,
  stderr: (line: string) => void,
): { run: MiningRun; state: CallState } {
  try {
    const cut = text.indexOf("\n");
    if (cut < 0) throw new TypeError("the saved state holds no mining");
    const st = JSON.parse(text.slice(0, cut)) as CallState;
    const run = MiningRun.load(text.slice(cut + 1), maxTemplates);
    if (
      typeof st !== "object" || st === null || typeof st.cursor !== "string" || st.cursor !== cursor ||
      !Array.isArray(st.notes) || !st.notes.every(isNote) || !Array.isArray(st.unnumbered) ||
      typeof st.q !== "string" || typeof st.covered !== "object" ||
      st.covered === null || !marks(st.sides?.window) || !marks(st.sides?.baseline)
    ) throw new TypeError("state");
    return { run, state: st };
  } catch (e) {
    stderr(`logpeek: log_patterns: a saved state was refused: ${e instanceof Error ? e.message : e}`);
    throw new ToolError(
      "invalid_cursor",
      "the cursor does not match its saved state (it was altered, or belongs to another call); start again " +
        "without cursor",
    );
  }
}

/** True when `m` is a saved {@linkcode SideMarks}. */
function marks(m: unknown): boolean {
  const o = m as SideMarks | null | undefined;
  return typeof o === "object" && o !== null && typeof o.begun === "boolean" && typeof o.flawed === "boolean";
}

/** True when `n` is a saved {@linkcode PatternsNote}. */
function isNote(n: unknown): boolean {
  const o = n as Record<string, unknown> | null;
  if (typeof o !== "object" || o === null || (o.side !== "window" && o.side !== "baseline")) return false;
  const strings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === "string");
  switch (o.kind) {
    case "no_timestamps":
      return strings(o.files);
    case "seek_broken":
      return true;
    case "not_read":
      return strings(o.entries) && Number.isSafeInteger(o.count);
    case "damaged":
      return typeof o.file === "string" &&
        (o.stop_reason === "file_changed" || o.stop_reason === "corrupt_gzip") &&
        Number.isSafeInteger(o.lines);
    default:
      return false;
  }
}

/** A side's {@linkcode SideRead}: `ended` when its phase read to its end on some page. */
export function sideRead(m: SideMarks, ended: boolean): SideRead {
  return ended && !m.flawed ? "whole" : m.begun ? "partly_read" : "not_read";
}

/**
 * Records on the state what a phase's page read: the times its logs cover, its unnumbered logs, and why it
 * cannot give a complete answer; marks the side begun (the page read something) and flawed (a note was
 * recorded for it).
 *
 * @param state The call's state.
 * @param page The phase's page.
 * @param span The phase's window.
 * @param resumedPage True when the page went on from a cursor.
 * @param what The phase's `file` (for the error).
 * @param side The phase.
 * @throws {ToolError} `no_timestamps` when one log with a window was read from its start with no timestamp.
 */
export function recordPage(
  state: CallState,
  page: OverLogs<MinePage>,
  span: TimeSpan | undefined,
  resumedPage: boolean,
  what: string,
  side: PatternsSide,
): void {
  const runs = page.runs;
  const notesBefore = state.notes.length;
  if (page.progress && runs.length > 0) state.sides[side].begun = true;
  recordCover(state, page, side);
  if (!resumedPage) {
    const read = runs.reduce((n, r) => n + (r.page.time ? r.page.last_line : r.page.total_lines), 0);
    requireTimestamps(span, runs.map((r) => r.page.time), read, what);
  }
  const untimed = timelessLogs(
    span,
    page.glob,
    runs.map((x) => ({ file: x.file, time: x.page.time, lines: x.page.time ? x.page.last_line : 0 })),
    resumedPage,
  );
  if (untimed.length) state.notes.push({ side, kind: "no_timestamps", files: untimed });
  if (seekBroken(runs.map((x) => x.page.time))) state.notes.push({ side, kind: "seek_broken" });
  if (page.notReadCount > 0) {
    state.notes.push({ side, kind: "not_read", entries: page.notRead, count: page.notReadCount });
  }
  for (const r of runs) {
    if (r.page.time && !r.page.time.lineKnown && !state.unnumbered.includes(r.file)) {
      state.unnumbered.push(r.file);
    }
  }
  for (const r of runs) {
    const s = r.page.stop_reason;
    if (s === "file_changed" || s === "corrupt_gzip") {
      state.damage ??= s;
      state.notes.push({ side, kind: "damaged", file: r.file, stop_reason: s, lines: r.page.last_line });
    }
  }
  if (state.notes.length > notesBefore) state.sides[side].flawed = true;
}

/** Widens the span of times a side's logs cover by those a page read (every line read, in the window or not). */
function recordCover(state: CallState, page: OverLogs<MinePage>, side: PatternsSide): void {
  for (const r of page.runs) {
    const t = r.page.time;
    if (!t || !(t.earliest === t.earliest)) continue;
    const c = state.covered[side];
    state.covered[side] = [
      c?.[0] == null ? t.earliest : Math.min(c[0], t.earliest),
      c?.[1] == null ? t.latest : Math.max(c[1], t.latest),
    ];
  }
}
