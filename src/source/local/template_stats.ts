/**
 * What `log_patterns` keeps of each template's lines (issue #13): counts by level, first and last line
 * (with its log, over a glob), first and last time, one example; and the change against a baseline.
 *
 * Kept by cluster index (`TemplateMiner.add`'s), in arrays that grow with the miner (at most
 * `LOGPEEK_MAX_TEMPLATES` entries), and saved with the miner in a resumed call's state.
 *
 * @module
 */

import { LEVELS } from "../../read/level.ts";

/** One cluster's numbers. */
export interface ClusterStats {
  count: number;
  /** Lines per level, indexed as `LEVELS`. */
  levels: number[];
  firstLine: number;
  lastLine: number;
  /** The places of the first and last lines among the side's lines (1-based, in the order read). */
  firstSeq: number;
  lastSeq: number;
  /** The logs of the first and last lines (a call over a glob). */
  firstFile: string;
  lastFile: string;
  /** Epoch ms; NaN (saved as null) when no line of it had a time. */
  firstTime: number;
  lastTime: number;
  /** The first line as shown (secrets masked, cut at `LOGPEEK_MAX_LINE`). */
  example: string;
}

/** The per-cluster numbers of one side (the window asked for, or the baseline). */
export class TemplateStats {
  /** By cluster index. */
  readonly clusters: ClusterStats[] = [];
  /** Lines mined on this side. */
  lines = 0;
  /** Earliest and latest time of a mined line (epoch ms; NaN: none). */
  earliest = NaN;
  latest = NaN;

  /**
   * Counts one mined line.
   *
   * @param cluster Its cluster, or -1 (the miner's other lines: counted in {@linkcode TemplateStats.lines} only).
   * @param file Its log.
   * @param lineNo Its line number.
   * @param level Its level index.
   * @param time Its time, epoch ms, NaN when none.
   * @param text The line as shown.
   */
  add(cluster: number, file: string, lineNo: number, level: number, time: number, text: string): void {
    this.lines++;
    if (time === time) {
      if (!(time >= this.earliest)) this.earliest = time;
      if (!(time <= this.latest)) this.latest = time;
    }
    if (cluster < 0) return;
    let c = this.clusters[cluster];
    if (c === undefined) {
      c = this.clusters[cluster] = {
        count: 0,
        levels: LEVELS.map(() => 0),
        firstLine: lineNo,
        lastLine: lineNo,
        firstSeq: this.lines,
        lastSeq: this.lines,
        firstFile: file,
        lastFile: file,
        firstTime: time,
        lastTime: time,
        example: text,
      };
    }
    c.count++;
    c.levels[level]++;
    c.lastLine = lineNo;
    c.lastSeq = this.lines;
    c.lastFile = file;
    if (time === time) {
      if (c.firstTime !== c.firstTime) c.firstTime = time;
      c.lastTime = time;
    }
  }

  /** Makes this side's numbers those of `o` (a rollback). */
  copyFrom(o: TemplateStats): void {
    this.lines = o.lines;
    this.earliest = o.earliest;
    this.latest = o.latest;
    this.clusters.length = 0;
    o.clusters.forEach((c, i) => this.clusters[i] = c);
  }

  /** A JSON-safe copy (NaN as null), for a resumed call's state. */
  save(): unknown {
    const n = (x: number) => (x === x ? x : null);
    return {
      lines: this.lines,
      earliest: n(this.earliest),
      latest: n(this.latest),
      clusters: this.clusters.map((c) => c && { ...c, firstTime: n(c.firstTime), lastTime: n(c.lastTime) }),
    };
  }

  /**
   * The stats {@linkcode TemplateStats.save} gave.
   *
   * @param v The saved value (from disk: checked).
   * @param size The clusters the saved miner has: no entry may be beyond it.
   * @throws {TypeError} when `v` is not what `save` writes.
   */
  static restore(v: unknown, size: number): TemplateStats {
    const bad = () => new TypeError("saved template counts are malformed");
    const num = (x: unknown) => (x === null ? NaN : typeof x === "number" ? x : NaN);
    const count = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
    if (typeof v !== "object" || v === null) throw bad();
    const o = v as Record<string, unknown>;
    if (!count(o.lines) || !Array.isArray(o.clusters) || o.clusters.length > size) throw bad();
    const s = new TemplateStats();
    s.lines = o.lines as number;
    s.earliest = num(o.earliest);
    s.latest = num(o.latest);
    o.clusters.forEach((c: unknown, i: number) => {
      if (c === null || c === undefined) return;
      const x = c as Record<string, unknown>;
      if (
        !count(x.count) || !Array.isArray(x.levels) || x.levels.length !== LEVELS.length ||
        !x.levels.every(count) || !count(x.firstLine) || !count(x.lastLine) || !count(x.firstSeq) ||
        !count(x.lastSeq) ||
        typeof x.firstFile !== "string" || typeof x.lastFile !== "string" || typeof x.example !== "string"
      ) throw bad();
      s.clusters[i] = {
        count: x.count as number,
        levels: x.levels as number[],
        firstLine: x.firstLine as number,
        lastLine: x.lastLine as number,
        firstSeq: x.firstSeq as number,
        lastSeq: x.lastSeq as number,
        firstFile: x.firstFile,
        lastFile: x.lastFile,
        firstTime: num(x.firstTime),
        lastTime: num(x.lastTime),
        example: x.example,
      };
    });
    return s;
  }
}

/** How a template's rate changed against the baseline (issue #13). */
export type Change = "new" | "gone" | "up" | "down" | "same";

/**
 * The change of a template between a window and its baseline, from their rates (lines per hour, or
 * shares of their sides' lines when a side's length is not known): `new` when the baseline has none,
 * `gone` when the window has none, `up` when the rate is at least twice the baseline's, `down` when at
 * most half, else `same` (the thresholds issue #13 sets).
 *
 * @param count Lines in the window.
 * @param base Lines in the baseline.
 * @param scale The window's length over the baseline's (hours / hours, or lines / lines): the ratio of
 *   rates is `(count / base) / scale`.
 * @returns The change, and the ratio of rates (null for `new` and `gone`).
 */
export function changeOf(
  count: number,
  base: number,
  scale: number,
): { change: Change; ratio: number | null } {
  if (base === 0) return { change: count === 0 ? "same" : "new", ratio: null };
  if (count === 0) return { change: "gone", ratio: null };
  const ratio = count / base / scale;
  return { change: ratio >= 2 ? "up" : ratio <= 0.5 ? "down" : "same", ratio };
}
