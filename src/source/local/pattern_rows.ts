/**
 * The templates of a `log_patterns` answer over local files, from a call's mining (`template_mining.ts`
 * `MiningRun`): one row per template text, with its window and baseline lines; and, when both sides were
 * read in full, each row's change against the baseline, from the rates of each side (issue #13, #22, #24).
 *
 * @module
 */

import { formatInstant } from "../../read/instant.ts";
import { LEVELS } from "../../read/level.ts";
import { templateId } from "../../read/template_miner.ts";
import type { TimeSpan } from "../../read/time_window.ts";
import { cutText } from "../../core/text_cut.ts";
import type { Cover, PatternTemplate } from "../patterns_query.ts";
import type { CallState, SavedSpan } from "./pattern_state.ts";
import type { MiningRun } from "./template_mining.ts";
import { changeOf, type ClusterStats, type TemplateStats } from "./template_stats.ts";

/**
 * One template of the answer, and for sorting its first line's place among the window's lines (an earlier
 * first comes first among equals).
 */
export type Row = PatternTemplate & { order: number };

/** Levels with lines, by name. */
function levelsOf(counts: number[]): Record<string, number> {
  const out: Record<string, number> = {};
  counts.forEach((n, i) => {
    if (n > 0) out[LEVELS[i]] = n;
  });
  return out;
}

/** What {@linkcode rowsOf} shows: the zone and line length of the limits, and whether over a glob. */
export interface RowsShown {
  /** LOGPEEK_TZ. */
  zone: string;
  /** LOGPEEK_MAX_LINE (characters): an example is cut there. */
  maxLine: number;
  /** A call over a glob: each row names the logs of its first and last lines. */
  glob: boolean;
}

/**
 * The rows, one per template text: each cluster's window lines and its baseline lines (when `counted`).
 *
 * @param run The call's mining.
 * @param state The call's state (the logs whose line numbers are not known).
 * @param shown The zone, the line length, and whether over a glob.
 * @param counted True when a page read some of the baseline (each row then has `baseline_count`).
 */
export function rowsOf(run: MiningRun, state: CallState, shown: RowsShown, counted: boolean): Row[] {
  const { glob } = shown;
  const at = (t: number) => (t === t ? formatInstant(t, shown.zone) : null);
  const lineNo = (file: string, n: number) => (state.unnumbered.includes(file) ? null : n);
  const byText = new Map<string, Row & { win?: ClusterStats; last: number }>();
  const size = run.miner.size;
  for (const { text, w, b, i } of entriesOf(run)) {
    const row = byText.get(text);
    if (row === undefined) {
      const s = (w ?? b)!;
      byText.set(text, {
        template_id: templateId(text),
        template: text,
        count: w?.count ?? 0,
        levels: w ? levelsOf(w.levels) : {},
        first_line_no: w ? lineNo(w.firstFile, w.firstLine) : null,
        last_line_no: w ? lineNo(w.lastFile, w.lastLine) : null,
        first_file: glob && w ? w.firstFile : undefined,
        last_file: glob && w ? w.lastFile : undefined,
        first_time: w ? at(w.firstTime) : null,
        last_time: w ? at(w.lastTime) : null,
        example: cutText(s.example, shown.maxLine),
        baseline_count: counted ? (b?.count ?? 0) : undefined,
        last: w ? w.lastSeq : 0,
        order: w ? w.firstSeq : Number.MAX_SAFE_INTEGER - size + i,
        win: w,
      });
      continue;
    }
    // Two clusters whose texts are equal are one template.
    row.count += w?.count ?? 0;
    if (counted) row.baseline_count = (row.baseline_count ?? 0) + (b?.count ?? 0);
    if (!w) continue;
    for (const [k, v] of Object.entries(levelsOf(w.levels))) row.levels[k] = (row.levels[k] ?? 0) + v;
    // The earliest first line and the latest last line of the two, in the order read.
    if (!row.win || w.firstSeq < row.win.firstSeq) {
      Object.assign(row, {
        first_line_no: lineNo(w.firstFile, w.firstLine),
        first_file: glob ? w.firstFile : undefined,
        first_time: at(w.firstTime),
        example: cutText(w.example, shown.maxLine),
        order: w.firstSeq,
      });
    }
    if (!row.win || w.lastSeq > row.last) {
      row.last_line_no = lineNo(w.lastFile, w.lastLine);
      row.last_file = glob ? w.lastFile : undefined;
      row.last_time = at(w.lastTime);
      row.last = w.lastSeq;
    }
    if (!row.win || w.firstSeq < row.win.firstSeq) row.win = w;
  }
  return [...byText.values()].map(({ win: _w, last: _l, ...r }) => r);
}

/**
 * Each cluster's window template (its window lines, and the baseline lines that match it), and the
 * baseline lines of it that do not match the window's text, under its widened text (a `gone` row).
 */
function entriesOf(run: MiningRun): { text: string; w?: ClusterStats; b?: ClusterStats; i: number }[] {
  const entries: { text: string; w?: ClusterStats; b?: ClusterStats; i: number }[] = [];
  for (let i = 0; i < run.miner.size; i++) {
    const w = run.window.clusters[i];
    const b = run.baseline.clusters[i];
    const v = run.variants.clusters[i];
    if (w || b) entries.push({ text: run.text(i), w, b, i });
    if (v) entries.push({ text: run.miner.text(i), b: v, i });
  }
  return entries;
}

/** Each side's length (hours, null: not known) and how the rates compare. */
export interface Rates {
  windowHours: number | null;
  baseHours: number | null;
  basis: "per_hour" | "share_of_lines";
  /** How each side's length was measured. */
  window: Cover;
  baseline: Cover;
}

/**
 * Gives each row its change and rate ratio, and sorts them most changed first (only when both sides were
 * read in full: the caller asks then).
 *
 * @param rows The rows ({@linkcode rowsOf}, counted).
 * @param run The call's mining.
 * @param state The call's state (the times each side's logs cover).
 * @param spans The window and the baseline's window, if any.
 * @returns Each side's length, and the basis of the rates.
 */
export function compareRows(
  rows: Row[],
  run: MiningRun,
  state: CallState,
  spans: { window?: TimeSpan; baseline?: TimeSpan },
): Rates {
  // The times covered: the logs' (with a window), else the side's lines' (NaN: none).
  const known = (xs: number[], pick: (...v: number[]) => number) => {
    const ok = xs.filter((x) => x === x);
    return ok.length ? pick(...ok) : NaN;
  };
  const cover = (c: SavedSpan, s: TemplateStats, v?: TemplateStats) =>
    c !== null ? [c[0] ?? NaN, c[1] ?? NaN] : [
      known([s.earliest, v?.earliest ?? NaN], Math.min),
      known([s.latest, v?.latest ?? NaN], Math.max),
    ];
  const [we, wl] = cover(state.covered.window, run.window);
  const [be, bl] = cover(state.covered.baseline, run.baseline, run.variants);
  const now = Date.now();
  const w = coverOf(spans.window, we, wl, now), b = coverOf(spans.baseline, be, bl, now);
  const windowHours = w.hours, baseHours = b.hours;
  const basis = windowHours !== null && baseHours !== null ? "per_hour" : "share_of_lines";
  const scale = basis === "per_hour"
    ? windowHours! / baseHours!
    : Math.max(1, run.window.lines) / Math.max(1, run.baseline.lines + run.variants.lines);
  for (const r of rows) {
    const c = changeOf(r.count, r.baseline_count ?? 0, scale);
    r.change = c.change;
    r.rate_ratio = c.ratio === null ? null : Math.round(c.ratio * 1000) / 1000;
  }
  // New first, then gone, then by how much the rate changed.
  const weight = (r: Row) =>
    r.change === "new" ? 2e9 : r.change === "gone" ? 1e9 : Math.abs(Math.log2(r.rate_ratio ?? 1));
  rows.sort((x, y) =>
    weight(y) - weight(x) ||
    Math.max(y.count, y.baseline_count ?? 0) - Math.max(x.count, x.baseline_count ?? 0) ||
    x.order - y.order
  );
  return { windowHours, baseHours, basis, window: w, baseline: b };
}

/**
 * A side's length in hours: from its window's `since`, or from the first timestamp its logs hold when that
 * is later (a log that began inside the window), to its `until` capped at now (no `until`: now, as a side
 * with one runs to it — a quiet log's last line is not its end; issue #24: a window cut at its last line
 * against a baseline's full hour read a ratio of 1.29 as ×1.563); without a window, its first to its last
 * timestamp. Null when that is under a second or not known (no timestamp): rates are then shares of each
 * side's lines.
 *
 * @param span The side's window, if any.
 * @param earliest The first timestamp the side's logs hold, epoch ms (NaN: none).
 * @param latest The last one.
 * @param now Now, epoch ms.
 * @returns Hours, or null.
 */
export function hours(
  span: TimeSpan | undefined,
  earliest: number,
  latest: number,
  now = Date.now(),
): number | null {
  return coverOf(span, earliest, latest, now).hours;
}

/**
 * A side's {@linkcode Cover}: its length as {@linkcode hours} measures it, and where it begins and ends.
 *
 * @param span The side's window, if any.
 * @param earliest The first timestamp the side's logs hold, epoch ms (NaN: none).
 * @param latest The last one.
 * @param now Now, epoch ms.
 */
export function coverOf(span: TimeSpan | undefined, earliest: number, latest: number, now: number): Cover {
  const since = span?.since ?? -Infinity;
  // No timestamp (NaN): the length is not known.
  const from = Math.max(since, earliest);
  const fromIs = earliest > since ? "first_line" : "since";
  const end = span ? span.until : latest;
  const to = Math.min(end, now);
  const toIs = end > now ? "now" : span ? "until" : "last_line";
  // All of it within a second (or no timestamp): not known.
  return { hours: to - from >= 1000 ? (to - from) / 3_600_000 : null, from, fromIs, to, toIs };
}
