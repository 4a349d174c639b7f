/**
 * One `log_patterns` call's mining (issue #13): a {@linkcode TemplateMiner} shared by every log of the
 * call, the numbers of each template's lines in the window ({@linkcode TemplateStats}), and, with a
 * baseline, the numbers of the baseline's lines; saved whole between pages, so a call stopped by its
 * budget goes on with the same miner and its answer covers every page.
 *
 * The window's lines are mined first, so its templates (texts and ids) are those of a call without a
 * baseline — `log_search` by `template_id` finds them. The baseline's lines are then mined by the same
 * miner: a line of the same event joins the window's cluster (counted in its `baseline_count`, though
 * the cluster's text may widen for it: the window's text is kept), and a line of an event the window
 * does not have starts a cluster of its own (`gone`).
 *
 * @module
 */

import {
  type HeaderLayout,
  headerOfHead,
  NOT_TAKEN,
  templateId,
  TemplateMiner,
} from "../../read/template_miner.ts";
import { lineClock, SAMPLE_BYTES } from "../../read/timestamp.ts";
import { logHead } from "../../read/scan_source.ts";
import { CUT_MARK, type MinePage, mineTemplates, type MiningSink } from "../../read/mine_templates.ts";
import type { TimeSpan } from "../../read/time_window.ts";
import { LEVELS } from "../../read/level.ts";
import { TemplateStats } from "./template_stats.ts";
import { type OverLogs, overLogs } from "./many_logs.ts";
import { windowFor } from "../../read/time_span.ts";
import type { Call } from "../backend.ts";
import type { LocalEnv } from "./local_env.ts";
import type { Cursor } from "../../read/cursor.ts";
import type { ReadableLog } from "../../read/readable_log.ts";

/** Decodes a line of ASCII bytes (its text is its bytes). */
const ASCII = new TextDecoder("utf-8", { ignoreBOM: true });

/** One mined line, as `log_search` by template returns it. */
export interface MinedLine {
  /** Its cluster (`TemplateMiner.add`), -1 for none. */
  cluster: number;
  file: string;
  lineNo: number;
  /** An index into `LEVELS`. */
  level: number;
  /** As shown: decoded, cut at `LOGPEEK_MAX_LINE`, secrets masked. */
  text: string;
  cut: boolean;
  /** Invalid UTF-8 bytes replaced by U+FFFD, and secrets masked, in `text`. */
  replaced: number;
  masked: number;
}

/** Told each mined line. */
export type OnMinedLine = (line: MinedLine) => void;

/** Which lines are being mined: the window's, or the baseline's. */
export type Phase = "window" | "baseline";

/** The state of one call's mining, saved between its pages. */
export class MiningRun {
  /** The miner (both phases). */
  miner: TemplateMiner;
  /** The window's lines. */
  readonly window: TemplateStats;
  /** The baseline's lines that match their window template's text (or are of a cluster the window has not). */
  readonly baseline: TemplateStats;
  /**
   * The baseline's lines that joined a window cluster but do not match the window's text of it (another
   * user, another volume): counted apart, under the cluster's widened text, as a template of their own.
   */
  readonly variants: TemplateStats;
  /** Which lines the next page mines. */
  phase: Phase;
  /** Each window cluster's text when the window's lines were all mined (the baseline may widen them). */
  windowTexts: string[] | null;

  /**
   * @param maxTemplates `LOGPEEK_MAX_TEMPLATES`.
   */
  constructor(readonly maxTemplates: number) {
    this.miner = new TemplateMiner({ maxTemplates });
    this.window = new TemplateStats();
    this.baseline = new TemplateStats();
    this.variants = new TemplateStats();
    this.phase = "window";
    this.windowTexts = null;
  }

  /** Ends the window's phase: its templates' texts are kept as they stand. */
  endWindow(): void {
    this.windowTexts = Array.from({ length: this.miner.size }, (_, i) => this.miner.text(i));
    this.phase = "baseline";
  }

  /** A cluster's text as the answer gives it: the window's, for a window cluster. */
  text(i: number): string {
    return this.windowTexts !== null && i < this.windowTexts.length
      ? this.windowTexts[i]
      : this.miner.text(i);
  }

  /** A cluster's id ({@linkcode templateId} of {@linkcode MiningRun.text}). */
  id(i: number): string {
    return this.windowTexts !== null && i < this.windowTexts.length
      ? templateId(this.windowTexts[i])
      : this.miner.id(i);
  }

  /**
   * A sink that gives each line to the miner and counts it on `stats`, as a line of `file`.
   *
   * @param stats The side the lines count on.
   * @param file The log being read.
   * @param onLine Told each line's cluster and what it shows (`log_search` by template returns lines).
   * @param layout The log's header layout (`headerOfHead` of its first bytes), or null.
   */
  sink(
    stats: TemplateStats,
    file: string,
    onLine?: OnMinedLine,
    layout: HeaderLayout | null = null,
  ): MiningSink {
    let saved: string | null = null;
    const counted = (
      c: number,
      text: string,
      lineNo: number,
      level: number,
      time: number,
      cut: boolean,
      replaced: number,
      masked: number,
    ) => {
      const shown = cut ? text.slice(0, -CUT_MARK.length) : text;
      const w = this.windowTexts;
      // A baseline line counts under a window template only when it matches the window's text of it.
      const side =
        stats === this.baseline && w !== null && c >= 0 && c < w.length && !matchesTemplate(text, w[c])
          ? this.variants
          : stats;
      side.add(c, file, lineNo, level, time, shown);
      onLine?.({ cluster: c, file, lineNo, level, text: shown, cut, replaced, masked });
    };
    /** A line taken from its bytes (`MiningSink.lineAsRead`, `lineByShape`), or false. */
    const asRead = (
      buf: Uint8Array,
      s: number,
      e: number,
      lineNo: number,
      level: number,
      time: number,
      byShape: boolean,
    ): boolean => {
      const c = this.miner.addBytes(buf, s, e, lineNo, layout, byShape);
      if (c === NOT_TAKEN) return false;
      // The text only where it is kept or compared: a side's first line of the cluster (its example),
      // a baseline line (against its window template), a line told to onLine.
      if (
        onLine === undefined && stats.clusters[c] !== undefined &&
        (stats !== this.baseline || this.windowTexts === null)
      ) {
        stats.add(c, file, lineNo, level, time, "");
      } else counted(c, ASCII.decode(buf.subarray(s, e)), lineNo, level, time, false, 0, 0);
      return true;
    };
    return {
      line: (text, lineNo, level, time, cut, replaced, masked) => {
        counted(this.miner.add(text, lineNo, layout), text, lineNo, level, time, cut, replaced, masked);
      },
      lineAsRead: (buf, s, e, lineNo, level, time) => asRead(buf, s, e, lineNo, level, time, false),
      lineByShape: (buf, s, e, lineNo, level, time) => asRead(buf, s, e, lineNo, level, time, true),
      checkpoint: () => {
        saved = this.save();
      },
      rollback: () => {
        if (saved === null) return;
        const back = MiningRun.load(saved, this.maxTemplates);
        this.miner = back.miner;
        this.window.copyFrom(back.window);
        this.baseline.copyFrom(back.baseline);
        this.variants.copyFrom(back.variants);
        this.phase = back.phase;
        this.windowTexts = back.windowTexts;
      },
    };
  }

  /** The whole state as JSON text (one line). */
  save(): string {
    return JSON.stringify({
      v: 1,
      miner: this.miner.snapshot(),
      window: this.window.save(),
      baseline: this.baseline.save(),
      variants: this.variants.save(),
      phase: this.phase,
      windowTexts: this.windowTexts,
    });
  }

  /**
   * The state {@linkcode MiningRun.save} wrote.
   *
   * @param json The saved text (from the state directory: checked).
   * @param maxTemplates `LOGPEEK_MAX_TEMPLATES` (a state saved under another cap is refused).
   * @throws {TypeError} when it is not what `save` writes.
   */
  static load(json: string, maxTemplates: number): MiningRun {
    const bad = () => new TypeError("the saved mining state is malformed");
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(json);
    } catch {
      throw bad();
    }
    if (typeof o !== "object" || o === null || o.v !== 1) throw bad();
    if (o.phase !== "window" && o.phase !== "baseline") throw bad();
    const run = new MiningRun(maxTemplates);
    run.miner = TemplateMiner.restore(o.miner, { maxTemplates });
    const size = run.miner.size;
    run.window.copyFrom(TemplateStats.restore(o.window, size));
    run.baseline.copyFrom(TemplateStats.restore(o.baseline, size));
    run.variants.copyFrom(TemplateStats.restore(o.variants, size));
    run.phase = o.phase;
    if (o.windowTexts !== null) {
      if (
        !Array.isArray(o.windowTexts) || o.windowTexts.length > size ||
        !o.windowTexts.every((t) => typeof t === "string")
      ) throw bad();
      run.windowTexts = o.windowTexts as string[];
    } else if (run.phase === "baseline") throw bad();
    return run;
  }
}

/** What one phase reads: the logs (a name or a glob), the window, the level. */
export interface PhaseSpec {
  file: string;
  span?: TimeSpan;
  /** An index into `LEVELS`. */
  level?: number;
  /** The query hash its cursor is bound to. */
  query: string;
  /** The cursor of the page before (this phase's). */
  cursor?: string;
  /** When the call ends (`performance.now()` ms, or on `clock`). */
  deadline: number;
  /** The clock `deadline` is on (default `performance.now`). */
  clock?: () => number;
}

/**
 * Mines one phase's lines over its logs (newest first, as every tool reads a glob), from the cursor's
 * point, until they end or the deadline.
 *
 * @param ctx The tool context.
 * @param run The call's mining.
 * @param stats The side the lines count on.
 * @param spec The logs, window, level, cursor and deadline.
 * @param call Cancellation and progress.
 * @param onLine Told each mined line.
 * @param stop Asked after each line: true ends the read (`limit`).
 * @param opened Told each log as it is opened (a `log_search` by template ties its cursor to them).
 * @returns What `overLogs` did.
 * @throws {ToolError} what opening the logs or reading the cursor throws.
 */
export async function minePhase(
  ctx: LocalEnv,
  run: MiningRun,
  stats: TemplateStats,
  spec: PhaseSpec,
  call?: Call,
  onLine?: OnMinedLine,
  stop?: () => boolean,
  opened?: (log: ReadableLog) => void,
): Promise<OverLogs<MinePage>> {
  const zone = ctx.limits.tz;
  return await overLogs<MinePage>(ctx, {
    tool: "log_patterns",
    file: spec.file,
    query: spec.query,
    cursor: spec.cursor,
    bytes: Infinity,
    deadline: spec.deadline,
    span: spec.span,
  }, (log, resume: Cursor | undefined) => {
    opened?.(log);
    return mineTemplates(
      log,
      run.sink(stats, log.name, onLine, headerOfHead(logHead(log, SAMPLE_BYTES))),
      {
        pieceSize: ctx.limits.pieceSize,
        maxLine: ctx.limits.maxLine,
        redact: ctx.redact,
        deadline: spec.deadline,
        clock: spec.clock,
        resume,
        window: spec.span ? windowFor(spec.span, log, zone, resume) : undefined,
        timeOf: spec.span ? undefined : timeOfLog(log, zone),
        level: spec.level,
        stop,
        signal: call?.signal,
        onProgress: call?.progress,
      },
    );
  });
}

/** A log's header clock (`timestamp.ts`), for each template's first and last time without a window. */
function timeOfLog(log: ReadableLog, zone: string) {
  const clock = lineClock({ zone, modifiedMs: log.modifiedMs ?? null, sample: logHead(log, SAMPLE_BYTES) });
  return (buf: Uint8Array, s: number, e: number) => clock.timeOf(buf, s, e);
}

/**
 * True when `text` matches `template` with each `<*>` standing for any run of characters (possibly
 * none), the other characters exactly: the template's literal parts appear in order, the first at the
 * start and the last at the end (leftmost matching of the parts between is enough: with `*` alone, a
 * pattern matches if and only if the greedy leftmost placement does).
 *
 * @param text The line as mined.
 * @param template A template's text.
 * @returns Whether the line matches.
 * @example
 * ```ts
 * import { matchesTemplate } from "./template_mining.ts";
 * console.assert(matchesTemplate("user bob failed", "user <*> failed"));
 * console.assert(!matchesTemplate("user bob failed", "user alice failed"));
 * ```
 */
export function matchesTemplate(text: string, template: string): boolean {
  const parts = template.split("<*>");
  if (parts.length === 1) return text === template;
  const first = parts[0], last = parts[parts.length - 1];
  if (!text.startsWith(first) || text.length < first.length + last.length) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let k = 1; k < parts.length - 1; k++) {
    const i = text.indexOf(parts[k], at);
    if (i < 0 || i + parts[k].length > end) return false;
    at = i + parts[k].length;
  }
  return text.endsWith(last);
}

/** The level index of a level name, or undefined. */
export function levelIndex(level: string | undefined): number | undefined {
  return level === undefined ? undefined : LEVELS.indexOf(level as (typeof LEVELS)[number]);
}
