/**
 * `log_search` by `template_id` (issue #13): the lines a `log_patterns` call with the same `file`,
 * `since`, `until` and `level` counted under that template — exactly those, as many as its `count`.
 *
 * A template's lines are known only once every line is mined (a cluster's text, and so its id, may widen
 * until the last line), and the miner is online (a line's cluster depends only on the lines before it).
 * So a call mines the lines twice: the first pass finds which clusters end with that id (and how many lines
 * they hold); the second, a replay of the same lines, returns those clusters' lines from the cursor's
 * place on, and stops at the limit. Both passes share `LOGPEEK_PATTERNS_MS`; memory is the miner's and the
 * returned lines'.
 *
 * @module
 */

import { seal, unseal } from "../../core/seal.ts";
import { ToolError } from "../../core/errors.ts";
import { printable } from "../../guard/printable.ts";
import { LEVELS } from "../../read/level.ts";
import type { LogLine } from "../../read/log_line.ts";
import { type Cursor, fnv1a, queryHash } from "../../read/cursor.ts";
import { levelIndex, type MinedLine, minePhase, MiningRun, type PhaseSpec } from "./template_mining.ts";
import type { TimeSpan } from "../../read/time_window.ts";
import { resolveSpan } from "../../read/time_span.ts";
import type { Call } from "../backend.ts";
import type { LocalEnv } from "./local_env.ts";

/** What `log_search` by template needs of its arguments. */
export interface TemplateSearchArgs {
  file: string;
  template_id: string;
  level?: string;
  since?: string;
  until?: string;
  limit: number;
  cursor?: string;
}

/** A found line, with its log over a glob. */
export type TemplateMatch = LogLine & { file?: string };

/** What {@linkcode searchByTemplate} found. */
export interface TemplateSearchResult {
  /** The lines, from the cursor's place, at most `limit`. */
  matches: TemplateMatch[];
  /** The template's text and its lines in all (what `log_patterns` counts). */
  template: { template_id: string; template: string; count: number };
  /** Lines before these (returned by earlier pages). */
  skipped: number;
  /** Lines mined by the first pass (the window's, of the level). */
  mined: number;
  /** True when this page returned the template's last line. */
  complete: boolean;
  stop_reason: "limit" | "time_budget" | "cancelled" | "file_changed" | null;
  next_cursor: string | null;
  replaced_bytes: number;
  redactions: number;
  scanned_bytes: number;
  /** Why the answer is not whole besides a stop (unreadable logs, …), for the text. */
  notes: string[];
  /** A call over a glob. */
  glob: boolean;
}

/** The cursor's payload: the query, the lines already returned, the template's count when they were. */
interface Payload {
  k: "log_search_template";
  q: string;
  skip: number;
  count: number;
  /**
   * FNV-1a of the logs read (name, device, inode, first line), and their sizes summed: a rotated,
   * replaced or rewritten log is another.
   */
  g: string;
  sz: number;
  /** The window's instants as the first page resolved them (null: open or none). */
  t0: number | null;
  t1: number | null;
}

/** Where a page by template goes on: the lines returned before it, and what the first page saw. */
interface Resume {
  /** The template's lines returned by earlier pages. */
  skip: number;
  /** The template's count when the first page was given (null: this is the first). */
  expected: number | null;
  /** The window's instants as the first page resolved them. */
  kept: { t0: number | null; t1: number | null } | undefined;
  /** The logs the first page read (`Payload.g`, `Payload.sz`). */
  logsThen: { g: string; sz: number } | null;
}

/** What the first pass found: the clusters ending with the id, their lines, the logs read. */
interface FirstPass {
  /** The miner's cluster indices whose template has the id. */
  targets: Set<number>;
  /** Their lines in all. */
  count: number;
  /** The template's text. */
  text: string;
  /** Lines mined. */
  mined: number;
  /** The logs read (their identities' FNV-1a) and their sizes summed. */
  g: string;
  sz: number;
  scanned: number;
  notes: string[];
  glob: boolean;
}

/**
 * Finds the lines of a template.
 *
 * Steps: read the cursor, mine every line once to find the template's clusters (`firstPass`), check the
 * logs did not change since the first page, then mine again and collect the lines from the cursor's place
 * on (`secondPass`), and page (`pageOf`).
 *
 * @param ctx The local source, limits, masking, the cursor key.
 * @param args `file`, `template_id`, `level`, `since`, `until`, `limit`, `cursor`.
 * @param call Cancellation and progress.
 * @returns The lines and where the next page goes on.
 * @throws {ToolError} `not_found` when no template of these lines has the id; `invalid_cursor`;
 *   `file_changed` when the template's lines changed since the first page; `invalid_time`,
 *   `no_timestamps`; what opening the logs throws.
 */
export async function searchByTemplate(
  ctx: LocalEnv,
  args: TemplateSearchArgs,
  call?: Call,
): Promise<TemplateSearchResult> {
  const deadline = performance.now() + ctx.limits.patternsMs;
  const q = queryHash({
    t: args.template_id,
    file: args.file,
    level: args.level,
    since: args.since,
    until: args.until,
  });
  const resume = readResume(args.cursor, q, ctx.cursorKey);
  // The window is resolved once, by the first page: both passes and every page read the same lines
  // ("-15m" does not move between them).
  const span = resolveSpan(args, ctx.limits.tz, resume.kept as Cursor | undefined);
  const spec = { file: args.file, span, level: levelIndex(args.level), query: q, deadline };
  const first = await firstPass(ctx, args.template_id, spec, call);
  if ("stopped" in first) return { ...first.stopped, skipped: resume.skip };
  checkUnchanged(args, resume, first, span !== undefined);
  const second = await secondPass(ctx, spec, first, resume.skip, args.limit, call);
  return pageOf(ctx, args, q, span, resume.skip, first, second);
}

/**
 * Reads a cursor by template.
 *
 * @throws {ToolError} `invalid_cursor` for one this server did not make, or of another query.
 */
function readResume(cursor: string | undefined, q: string, key: Uint8Array): Resume {
  if (cursor === undefined) return { skip: 0, expected: null, kept: undefined, logsThen: null };
  const p = unseal(cursor, key) as Payload | null;
  if (
    !p || p.k !== "log_search_template" || !Number.isSafeInteger(p.skip) || p.skip < 0 ||
    !Number.isSafeInteger(p.count) || p.count < 0 || typeof p.g !== "string" ||
    !Number.isSafeInteger(p.sz) || ![p.t0, p.t1].every((t) => t === null || Number.isSafeInteger(t))
  ) {
    throw new ToolError(
      "invalid_cursor",
      "the cursor is not one this server made; start again without cursor",
    );
  }
  if (p.q !== q) {
    throw new ToolError(
      "invalid_cursor",
      "the cursor belongs to another query: use the same template_id, file, level and window",
    );
  }
  return { skip: p.skip, expected: p.count, kept: { t0: p.t0, t1: p.t1 }, logsThen: { g: p.g, sz: p.sz } };
}

/**
 * Pass 1: mines every line of the window and finds which clusters end with the id; or, when the budget or
 * the client stopped it, the answer that says so (`skipped` left for the caller).
 */
async function firstPass(
  ctx: LocalEnv,
  templateId: string,
  spec: PhaseSpec,
  call?: Call,
): Promise<FirstPass | { stopped: Omit<TemplateSearchResult, "skipped"> }> {
  const first = new MiningRun(ctx.limits.maxTemplates);
  const ids: string[] = [];
  let sz = 0;
  const p1 = await minePhase(ctx, first, first.window, spec, call, undefined, undefined, (log) => {
    const id = log.identity();
    // Its first line (up to 256 bytes) too: a log truncated and written again, or another file copied
    // onto it, keeps its inode (a trial); an appended log keeps its first line.
    const head = log.readRange(0, 256);
    const lf = head.indexOf(10);
    ids.push(`${log.name}\0${id.dev}:${id.ino}:${fnv1a(lf < 0 ? head : head.subarray(0, lf))}`);
    sz += id.size;
  });
  const notes: string[] = [];
  if (p1.notReadCount > 0) notes.push(`${p1.notReadCount} matching log(s) could not be read`);
  const stop1 = p1.runs.at(-1)?.page.stop_reason ?? null;
  const scanned = p1.runs.reduce((n, r) => n + r.page.scanned_bytes, 0);
  const mined = first.window.lines;
  if (stop1 === "time_budget" || stop1 === "cancelled" || p1.next_cursor !== null || !p1.progress) {
    return {
      stopped: {
        matches: [],
        template: { template_id: templateId, template: "", count: 0 },
        mined,
        complete: false,
        stop_reason: stop1 === "cancelled" ? "cancelled" : "time_budget",
        next_cursor: null,
        replaced_bytes: 0,
        redactions: 0,
        scanned_bytes: scanned,
        notes: [
          `the lines before the template's could not all be mined within LOGPEEK_PATTERNS_MS (${ctx.limits.patternsMs} ms; ` +
          `${mined} mined), and a template's lines are known only once all are: narrow the ` +
          "window (since/until) or the glob, or raise LOGPEEK_PATTERNS_MS",
        ],
        glob: p1.glob,
      },
    };
  }
  const targets = new Set<number>();
  let count = 0;
  let text = "";
  for (let i = 0; i < first.miner.size; i++) {
    if (first.id(i) === templateId) {
      targets.add(i);
      count += first.window.clusters[i]?.count ?? 0;
      text = first.text(i);
    }
  }
  const g = fnv1a(new TextEncoder().encode(ids.join("\n")));
  return { targets, count, text, mined, g, sz, scanned, notes, glob: p1.glob };
}

/**
 * Refuses a page whose logs or template changed since the first page, and an id no template has.
 *
 * @throws {ToolError} `file_changed`; `not_found`.
 */
function checkUnchanged(args: TemplateSearchArgs, resume: Resume, first: FirstPass, windowed: boolean): void {
  const then = resume.logsThen;
  if (then !== null && (then.g !== first.g || first.sz < then.sz)) {
    throw new ToolError(
      "file_changed",
      "the logs changed since the first page (rotated, replaced or truncated): the lines after the cursor " +
        "would be another file's; start again without cursor",
    );
  }
  if (first.targets.size === 0) {
    throw new ToolError(
      "not_found",
      `no template of ${printable(args.file)}${args.level ? ` (${args.level} lines)` : ""}${
        windowed ? " in that window" : ""
      } has the id ${printable(args.template_id)} (${first.mined} lines mined): take template_id ` +
        "from a log_patterns answer with the same file, since, until and level",
    );
  }
  if (resume.expected !== null && resume.expected !== first.count) {
    throw new ToolError(
      "file_changed",
      `the template's lines changed since the first page (${resume.expected} then, ${first.count} now): the logs were ` +
        "written or rotated; start again without cursor",
    );
  }
}

/** What the second pass collected. */
interface SecondPass {
  matches: TemplateMatch[];
  replaced: number;
  masked: number;
  scanned: number;
  stop: string | null;
}

/** Pass 2: the same lines again; the template's lines from `skip` on, up to the limit. */
async function secondPass(
  ctx: LocalEnv,
  spec: PhaseSpec,
  first: FirstPass,
  skip: number,
  limit: number,
  call?: Call,
): Promise<SecondPass> {
  const second = new MiningRun(ctx.limits.maxTemplates);
  const matches: TemplateMatch[] = [];
  let seen = 0;
  let replaced = 0, masked = 0;
  const onLine = (l: MinedLine) => {
    if (!first.targets.has(l.cluster)) return;
    if (seen++ < skip) return;
    matches.push({
      line_no: l.lineNo,
      level: LEVELS[l.level],
      text: l.text,
      cut: l.cut,
      ...(first.glob ? { file: l.file } : {}),
    });
    replaced += l.replaced;
    masked += l.masked;
  };
  const p2 = await minePhase(ctx, second, second.window, spec, call, onLine, () => matches.length >= limit);
  // Line numbers after a time seek are not the log's: shown as null.
  const unnumbered = new Set(p2.runs.filter((r) => r.page.time && !r.page.time.lineKnown).map((r) => r.file));
  for (const m of matches) if (unnumbered.has(m.file ?? p2.runs[0]?.file)) m.line_no = null;
  return {
    matches,
    replaced,
    masked,
    scanned: p2.runs.reduce((n, r) => n + r.page.scanned_bytes, 0),
    stop: p2.runs.at(-1)?.page.stop_reason ?? null,
  };
}

/** The page: the lines, whether the template's last line is among them, and the cursor for the rest. */
function pageOf(
  ctx: LocalEnv,
  args: TemplateSearchArgs,
  q: string,
  span: TimeSpan | undefined,
  skip: number,
  first: FirstPass,
  second: SecondPass,
): TemplateSearchResult {
  const matches = second.matches;
  const count = first.count;
  const done = skip + matches.length;
  const base = {
    template: { template_id: args.template_id, template: first.text, count },
    skipped: skip,
    mined: first.mined,
    replaced_bytes: second.replaced,
    redactions: second.masked,
    scanned_bytes: first.scanned + second.scanned,
    notes: first.notes,
    glob: first.glob,
  };
  if (done >= count) {
    return { ...base, matches, complete: first.notes.length === 0, stop_reason: null, next_cursor: null };
  }
  // Not all returned: the limit, or the budget or a cancel in the second pass.
  const reason = second.stop === "cancelled"
    ? "cancelled"
    : matches.length >= args.limit
    ? "limit"
    : "time_budget";
  const next = reason === "cancelled" || done === skip && reason === "time_budget" ? null : seal(
    {
      k: "log_search_template",
      q,
      skip: done,
      count,
      g: first.g,
      sz: first.sz,
      t0: span && Number.isFinite(span.since) ? span.since : null,
      t1: span && Number.isFinite(span.until) ? span.until : null,
    } satisfies Payload,
    ctx.cursorKey,
  );
  return { ...base, matches, complete: false, stop_reason: reason, next_cursor: next };
}
