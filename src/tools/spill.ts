/**
 * Keeping one large answer from flooding the model's context (issue #3; the seed
 * `../shared/seeds/004_…`): when a result's text would exceed `LOGPEEK_INLINE_CHARS`, the whole of it
 * is saved as an artifact, and the answer carries the first items that fit (a tail: the last ones, its
 * newest lines), a summary of everything
 * (counts by level, the first and the last item), and exactly how to read the rest with
 * `read_artifact`.
 *
 * @module
 */

import { z } from "zod";
import { type Level, LEVELS } from "../read/level.ts";
import type { ToolContext } from "./deps.ts";
import { cutText } from "../core/text_cut.ts";
import type { ArtifactRef } from "../state/artifacts.ts";

/** The zod schema of the `artifact` field of a spilled result. */
export const artifactSchema = z.object({
  artifact_id: z.string(),
  total_lines: z.number().int().describe("items in the artifact: all of the result's items"),
  next_offset: z.number().int().describe(
    "the offset to pass to read_artifact for the items not shown (0 for log_tail, which shows the newest: the older ones start there)",
  ),
}).optional().describe(
  "present when the result was too long to show whole: read the rest with read_artifact",
);

/** The zod schema of the `spill_summary` field. */
export const spillSummarySchema = z.object({
  levels: z.record(z.string(), z.number().int()).describe(
    "lines per level over all of them: of log_tail, its lines; of log_search, its matches (context lines not counted)",
  ),
  first: z.string(),
  last: z.string(),
}).optional().describe("present when the result was spilled: a summary of all its items");

/** What {@linkcode spill} decided. */
export interface Spilled {
  /** How many items are shown inline (and kept in structuredContent). */
  shown: number;
  /**
   * The index of the first item shown: 0, or with `newest` the first of the last `shown` items (the
   * shown items are `items.slice(from, from + shown)`, in their order).
   */
  from: number;
  /** The text for the model. */
  text: string;
  /** The `artifact` field, when spilled and saved. */
  artifact?: { artifact_id: string; total_lines: number; next_offset: number };
  /** The `spill_summary` field, when not all items are shown. */
  summary?: { levels: Record<string, number>; first: string; last: string };
}

/** The most UTF-16 code units of `spill_summary.first` and `.last` (before the `…` that marks a cut). */
export const SUMMARY_ITEM_CHARS = 300;

/**
 * An item cut for the summary to at most `max` UTF-16 code units on a character boundary
 * ({@linkcode cutText}), with `…` when cut.
 */
function cutItem(s: string, max: number): string {
  const t = cutText(s, max);
  return t.length < s.length ? t + "…" : t;
}

/**
 * Items made one at a time, when asked for (issue #22): a long answer's lines rendered only while they are
 * counted, written or shown, so that the call never holds all of its text at once.
 */
export interface ItemList {
  /** How many items. */
  readonly length: number;
  /** Item `i` (0 ≤ i < length), rendered anew each time: one line, no line feed inside. */
  item(i: number): string;
  /**
   * Set when the items were saved already, as they were made (`answer_stream.ts`): `chars`, their
   * length in the text (each item's length plus one); the artifact, or why there is none. `item` is then
   * asked only for the first items (those that fit in `LOGPEEK_INLINE_CHARS`) and the last.
   */
  saved?: { chars: number; artifact: ArtifactRef | null; failure: string | null };
}

/**
 * Renders `header` and `items`, spilling to an artifact when the text would exceed the inline limit.
 *
 * Memory: with an {@linkcode ItemList}, the items shown inline plus one batch of the artifact
 * (`ArtifactStore.write`); no text of all items is built (issue #22). Each item is made at most three
 * times: counted, written, shown.
 *
 * @param deps Limits, the artifact store, stderr.
 * @param tool The tool's name (recorded with the artifact).
 * @param header The result's first line(s): what it is and whether it is complete.
 * @param items One rendered line per item: an array, or an {@linkcode ItemList} that renders them.
 * @param levels The level of each item, when items are log lines.
 * @param newest Show the last items that fit (a tail: what happened last), not the first; the artifact
 *   still holds all of them in order, and `next_offset` is 0, where the older ones not shown begin.
 * @returns How many items to show and from where, the text, and the artifact.
 */
export function spill(
  deps: ToolContext,
  tool: string,
  header: string,
  items: readonly string[] | ItemList,
  levels?: Level[],
  newest = false,
): Spilled {
  const n = items.length;
  const at = Array.isArray(items)
    ? (i: number) => items[i] as string
    : (i: number) => (items as ItemList).item(i);
  // The length of the whole text ([header, ...items].join("\n")), counted up to the inline limit first.
  const saved = Array.isArray(items) ? undefined : (items as ItemList).saved;
  let whole = header.length + (saved?.chars ?? 0);
  let counted = saved ? n : 0;
  // The items counted while the text fits are kept (no more than LOGPEEK_INLINE_CHARS of them): when all
  // fit, the text is made of them, each item rendered once (issue #26, item 2: twice before).
  const parts = [header];
  while (counted < n && whole <= deps.limits.inlineChars) {
    const s = at(counted++);
    whole += 1 + s.length;
    if (whole <= deps.limits.inlineChars) parts.push(s);
  }
  if (whole <= deps.limits.inlineChars) {
    for (let i = parts.length - 1; i < n; i++) parts.push(at(i));
    return { shown: n, from: 0, text: parts.join("\n") };
  }
  parts.length = 0;
  /** Every item in order, counting into `whole` those not counted yet. */
  const all = function* (): Generator<string> {
    for (let i = 0; i < n; i++) {
      const s = at(i);
      if (i === counted) {
        whole += 1 + s.length;
        counted++;
      }
      yield s;
    }
  };

  const { counts, levelText } = levelSummary(levels, n);
  // A small LOGPEEK_INLINE_CHARS leaves less room for the two summary items.
  const itemChars = Math.max(
    40,
    Math.min(SUMMARY_ITEM_CHARS, Math.floor((deps.limits.inlineChars - 400) / 2)),
  );
  const summary = {
    levels: counts,
    first: cutItem(at(0), itemChars),
    last: cutItem(at(n - 1), itemChars),
  };
  const { artifact, failure } = saveItems(deps, tool, saved, all);
  while (counted < n) whole += 1 + at(counted++).length;
  const intro = `Too long to show whole (${whole} characters): ${levelText}.\n` +
    `First: ${summary.first}\nLast: ${summary.last}`;
  const footerFor = (k: number) => spillFooter(k, n, newest, deps.limits.inlineChars, artifact, failure);
  const fixed = header.length + intro.length + Math.max(footerFor(n).length, footerFor(1).length) + 8;
  let room = deps.limits.inlineChars - fixed;
  let k = 0;
  // Items are taken from the start, or with `newest` from the end backwards.
  const shown: string[] = [];
  for (; k < n; k++) {
    const s = at(newest ? n - 1 - k : k);
    if (s.length + 1 > room) break;
    room -= s.length + 1;
    shown.push(s);
  }
  if (newest) shown.reverse();
  const from = newest ? n - k : 0;
  if (artifact) artifact.next_offset = newest ? 0 : k;
  const text = [header, intro, "", ...shown, "", footerFor(k)].join("\n");
  return { shown: k, from, text, artifact, summary };
}

/**
 * The level counts of a spilled answer's items and their sentence. With context, the items are more
 * than the matches whose levels are counted: say both (issue #24: "levels of all 120: ERROR 20" counted
 * context lines among 20 matches).
 */
function levelSummary(levels: Level[] | undefined, n: number) {
  const counts: Record<string, number> = {};
  if (levels) {
    for (const l of LEVELS) counts[l] = 0;
    for (const l of levels) counts[l]++;
  }
  const levelText = levels
    ? (levels.length === n
      ? `levels of all ${n}: `
      : `levels of the ${levels.length} matches (the ${n} items also hold ${
        n - levels.length
      } context lines, separators and headings): `) +
      LEVELS.filter((l) => counts[l]).map((l) => `${l} ${counts[l]}`).join(", ")
    : `${n} items`;
  return { counts, levelText };
}

/**
 * The artifact that holds every item (written now from `all`, unless the items were saved as they were
 * made), or why there is none (no state directory; a write that failed, said on stderr too).
 */
function saveItems(
  deps: ToolContext,
  tool: string,
  saved: ItemList["saved"],
  all: () => Generator<string>,
): { artifact: Spilled["artifact"]; failure: string | null } {
  if (saved) {
    return {
      artifact: saved.artifact ? { ...saved.artifact, next_offset: 0 } : undefined,
      failure: saved.failure,
    };
  }
  if (!deps.artifacts) return { artifact: undefined, failure: deps.artifactsOff };
  try {
    return { artifact: { ...deps.artifacts.write(tool, all()), next_offset: 0 }, failure: deps.artifactsOff };
  } catch (e) {
    const failure = `the artifact could not be written: ${e instanceof Error ? e.message : e}`;
    deps.stderr(`logpeek: ${failure}`);
    return { artifact: undefined, failure };
  }
}

/** The last line of a spilled answer: which of the `n` items are shown (`k`), and how to read the rest. */
function spillFooter(
  k: number,
  n: number,
  newest: boolean,
  inlineChars: number,
  artifact: Spilled["artifact"],
  failure: string | null,
): string {
  const shownText = k === 0
    ? `none of the ${n} items fits within LOGPEEK_INLINE_CHARS (${inlineChars})`
    : newest
    ? `items ${n - k + 1}..${n} of ${n} (the newest)`
    : `items 1..${k} of ${n}`;
  if (!artifact) {
    return `NOT all shown: ${shownText}; the ${newest && k > 0 ? "older ones" : "rest"} could not be saved ` +
      `(${failure}). Narrow the request (a level, a rarer text, fewer lines) to see them.`;
  }
  return newest && k > 0
    ? `Shown: ${shownText}. All ${n} are saved: read the ${n - k} older one(s) with ` +
      `read_artifact(artifact_id="${artifact.artifact_id}", offset=0, limit=${Math.min(200, n - k)}).`
    : `Shown: ${shownText}. All ${n} are saved: read ${k === 0 ? "them" : "the rest"} with ` +
      `read_artifact(artifact_id="${artifact.artifact_id}", offset=${k}, limit=200).`;
}
