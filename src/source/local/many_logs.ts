/**
 * One call over one log or over many (issue #12): `file` may be a glob, matched against the names
 * `log_files` gives; the logs are read newest first (modified time), under one budget, and `next_cursor`
 * goes on across logs exactly where the call stopped.
 *
 * A cursor over many logs names the log it stopped in (its name's hash), a hash of the set of matching
 * names, and which of them are done (a bit each, in name order): the next page lists the logs again and
 * goes on with those not done, newest first, so a log whose modified time changed meanwhile (it is still
 * written) is neither lost nor read twice. When the set of matching names changed (a rotation), the
 * cursor is refused as `file_changed`: the call starts again.
 *
 * @module
 */

import {
  checkCursorLog,
  type Cursor,
  cursorNames,
  fnv1a,
  makeCursor,
  readCursor,
} from "../../read/cursor.ts";
import type { ReadableLog, ResumePoint } from "../../read/readable_log.ts";
import type { PageEnd } from "../../read/count_levels.ts";
import { ToolError } from "../../core/errors.ts";
import { printable } from "../../guard/printable.ts";
import { isGlob } from "../glob.ts";
import { matchingLogList } from "../matching_logs.ts";
import type { TimeSpan } from "../../read/time_window.ts";
import type { LocalEnv } from "./local_env.ts";

/** The most logs one call over a glob reads. */
export const MAX_LOGS = 1000;

/** What one log's page must say for the call to go on (a `SearchResult` or a `LevelsResult` has it). */
export type LogPage = PageEnd;

/** One log read by the call, with its page. */
export interface LogRun<P extends LogPage> {
  /** The log's name. */
  file: string;
  page: P;
}

/** What {@linkcode overLogs} did. */
export interface OverLogs<P extends LogPage> {
  /** The logs read, in the order read. */
  runs: LogRun<P>[];
  /** True when `file` was a glob. */
  glob: boolean;
  /** Every matching log read to its end, everything returned. */
  complete: boolean;
  /** Where the next page goes on, or null. */
  next_cursor: string | null;
  /** False when the page read nothing within its budget (then no cursor is given). */
  progress: boolean;
  /** Logs matching the glob not read at all by this page (a later page reads them). */
  pending: string[];
  /**
   * Entries the glob matches that no page reads, each `name: why` (a format the tools refuse, no
   * permission, a link out, a folder that could not be read; the first 20): the answer is not complete.
   */
  notRead: string[];
  /** How many such entries, all of them. */
  notReadCount: number;
}

/** A call over logs: the tool, the `file` argument, the query hash, the cursor given, and the budgets. */
export interface ManyCall {
  tool: Cursor["k"];
  file: string;
  query: string;
  cursor?: string;
  /** The byte budget of the whole call. */
  bytes: number;
  /** When the whole call must end (`performance.now()` ms). */
  deadline: number;
  /** The window's instants as resolved by the first page (kept in the cursor). */
  span?: TimeSpan;
}

/**
 * How one log is read: from its start, or from the cursor's point, until the shared deadline. `globFile`:
 * in a call over a glob (`OverLogs.glob`), the name its run is given (`LogRun.file`); null for one log.
 */
export type ReadOne<P extends LogPage> = (
  log: ReadableLog,
  resume: Cursor | undefined,
  bytesLeft: number,
  globFile: string | null,
) => Promise<P>;

/** The bits of a done set, base64url (a bit per name in sorted order). */
function packDone(done: boolean[]): string {
  const bytes = new Uint8Array(Math.ceil(done.length / 8));
  done.forEach((d, i) => {
    if (d) bytes[i >> 3] |= 1 << (i & 7);
  });
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "") || "A";
}

function unpackDone(text: string, n: number): boolean[] {
  const bin = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Array.from({ length: n }, (_, i) => ((bin.charCodeAt(i >> 3) || 0) >> (i & 7) & 1) === 1);
}

/**
 * Reads one log, or every log a glob matches, newest first, until the page's budget (`bytes`, and the
 * deadline `one` keeps) or the caller's limit stops it.
 *
 * @param ctx The tool context (the source, the cursor key).
 * @param call The tool, the `file` argument, the query hash, the cursor given, and the byte budget.
 * @param one Reads one log (its page).
 * @returns The pages, and where the next call goes on.
 * @throws {ToolError} what opening the one log throws; `not_found` for a glob that matches nothing
 *   (naming the closest logs); `invalid_cursor`; `file_changed` when the logs a glob matches changed.
 */
export async function overLogs<P extends LogPage>(
  ctx: LocalEnv,
  call: ManyCall,
  one: ReadOne<P>,
): Promise<OverLogs<P>> {
  const cursor = call.cursor !== undefined
    ? readCursor(call.cursor, { k: call.tool, q: call.query }, ctx.cursorKey)
    : undefined;
  // A name log_files lists is that log, even when it holds a glob's characters (`we[ir]d{a,b}.log`).
  const named = isGlob(call.file) ? await openNamed(ctx, call.file) : null;
  if (!isGlob(call.file) || named) return await overOne(ctx, call, one, cursor, named);
  return await overGlob(ctx, call, one, cursor, await planGlob(ctx, call, cursor));
}

/** One log (`named`: already open, a name with a glob's characters), read from the cursor's point. */
async function overOne<P extends LogPage>(
  ctx: LocalEnv,
  call: ManyCall,
  one: ReadOne<P>,
  cursor: Cursor | undefined,
  named: ReadableLog | null,
): Promise<OverLogs<P>> {
  using log = named ?? await ctx.source.open(call.file);
  if (cursor) {
    if (cursor.g !== "") {
      throw new ToolError("invalid_cursor", "the cursor belongs to a call over many logs (a glob)");
    }
    checkCursorLog(cursor, log, log.name);
  }
  const page = await one(log, cursor, call.bytes, null);
  const next = page.next && !page.stuck ? cursorFor(ctx, call, log, page, "", "") : null;
  return {
    runs: [{ file: log.name, page }],
    glob: false,
    complete: page.complete,
    next_cursor: next,
    progress: !page.stuck,
    pending: [],
    notRead: [],
    notReadCount: 0,
  };
}

/** What a call over a glob reads, planned from the listing and the cursor. */
interface GlobPlan {
  /** The logs still to read, newest first (the one the cursor stopped in first). */
  order: { file: string }[];
  /** The matching names' hash (`Cursor.g`). */
  g: string;
  /** Which matching names are done, in name order. */
  done: boolean[];
  /** Each matching name's index in name order. */
  index: Map<string, number>;
  /** The matching entries no page reads. */
  skipped: { notRead: string[]; notReadCount: number };
}

/**
 * The logs a glob matches, and which of them a cursor left to read, in the order to read them.
 *
 * @throws {ToolError} `not_found` for a glob that matches nothing; `invalid_cursor`, `file_changed`.
 */
async function planGlob(ctx: LocalEnv, call: ManyCall, cursor: Cursor | undefined): Promise<GlobPlan> {
  const listing = await matchingLogList(ctx.source, call.file, MAX_LOGS, ctx.limits.searchMs);
  const entries = listing.files;
  const names = entries.map((e) => e.file).sort();
  const g = fnv1a(new TextEncoder().encode(names.join("\n")));
  let done = names.map(() => false);
  if (cursor) {
    if (cursor.g !== g) {
      throw new ToolError(
        cursor.g === "" ? "invalid_cursor" : "file_changed",
        cursor.g === ""
          ? "the cursor belongs to a call over one log, not a glob"
          : `the logs matching ${printable(call.file)} changed since the last page (rotated?): start again ` +
            "without cursor",
      );
    }
    done = unpackDone(cursor.dn, names.length);
  }
  const index = new Map(names.map((n, i) => [n, i]));
  const order = entries.filter((e) => !done[index.get(e.file)!]);
  // The log the cursor stopped in goes first (it was the newest not done when the last page read it).
  const current = cursor ? order.findIndex((e) => cursorNames(cursor, e.file)) : -1;
  if (cursor && current < 0) {
    throw new ToolError("invalid_cursor", "the cursor names no log that is still to be read; start again");
  }
  if (current > 0) order.unshift(...order.splice(current, 1));
  return {
    order,
    g,
    done,
    index,
    skipped: { notRead: listing.unreadable, notReadCount: listing.not_listed },
  };
}

/** Reads the planned logs in order, until one stops at a budget or the call's budget is spent between two. */
async function overGlob<P extends LogPage>(
  ctx: LocalEnv,
  call: ManyCall,
  one: ReadOne<P>,
  cursor: Cursor | undefined,
  plan: GlobPlan,
): Promise<OverLogs<P>> {
  const { order, done, index, skipped } = plan;
  const runs: LogRun<P>[] = [];
  let bytesLeft = call.bytes;
  for (let k = 0; k < order.length; k++) {
    const name = order[k].file;
    using log = await ctx.source.open(name);
    const resume = k === 0 && cursor ? cursor : undefined;
    if (resume) checkCursorLog(resume, log, name);
    const page = await one(log, resume, bytesLeft, name);
    runs.push({ file: name, page });
    bytesLeft -= page.scanned_bytes;
    const stop = page.stop_reason;
    if (stop === "limit" || stop === "time_budget" || stop === "size_budget" || stop === "cancelled") {
      return stoppedIn(ctx, call, plan, runs, log, k, resume !== undefined);
    }
    // Read to its end (or to damage it cannot get past): done.
    done[index.get(name)!] = true;
    if (k + 1 < order.length && (bytesLeft <= 0 || performance.now() >= call.deadline)) {
      return await stoppedBetween(ctx, call, plan, runs, k);
    }
  }
  return {
    runs,
    glob: true,
    complete: runs.every((r) => r.page.complete) && skipped.notReadCount === 0,
    next_cursor: null,
    progress: true,
    pending: [],
    ...skipped,
  };
}

/**
 * A call over a glob that stopped inside its `k`-th log (a budget, the limit, a cancel): the cursor goes
 * on in it. A log this call only began (it read nothing of it before the budget ran out) after others it
 * read whole is dropped from the runs: the cursor points at its start, and the page did progress.
 */
function stoppedIn<P extends LogPage>(
  ctx: LocalEnv,
  call: ManyCall,
  plan: GlobPlan,
  runs: LogRun<P>[],
  log: ReadableLog,
  k: number,
  resumed: boolean,
): OverLogs<P> {
  const page = runs[runs.length - 1].page;
  const stop = page.stop_reason;
  const dn = packDone(plan.done);
  const fresh = page.stuck && k > 0 && !resumed && stop !== "cancelled";
  const next = fresh
    ? startCursor(ctx, call, log, plan.g, dn)
    : stop !== "cancelled" && page.next && !page.stuck
    ? cursorFor(ctx, call, log, page, plan.g, dn)
    : null;
  if (fresh) runs.pop(); // nothing of it was read
  return {
    runs,
    glob: true,
    complete: false,
    next_cursor: next,
    progress: fresh || !page.stuck,
    pending: fresh ? rest(plan.order, k - 1) : rest(plan.order, k),
    ...plan.skipped,
  };
}

/** A call over a glob whose budget was spent after its `k`-th log: the cursor points at the next one's start. */
async function stoppedBetween<P extends LogPage>(
  ctx: LocalEnv,
  call: ManyCall,
  plan: GlobPlan,
  runs: LogRun<P>[],
  k: number,
): Promise<OverLogs<P>> {
  using nextLog = await ctx.source.open(plan.order[k + 1].file);
  return {
    runs,
    glob: true,
    complete: false,
    next_cursor: startCursor(ctx, call, nextLog, plan.g, packDone(plan.done)),
    progress: true,
    pending: rest(plan.order, k),
    ...plan.skipped,
  };
}

/** The cursor to the start of `log` (after its byte order mark), in a call over a glob. */
function startCursor(ctx: LocalEnv, call: ManyCall, log: ReadableLog, g: string, dn: string): string {
  const start: ResumePoint = { off: log.bomLength, ls: log.bomLength, line: 0, pending: false, skip: 0 };
  return makeCursor(log, {
    k: call.tool,
    f: log.name,
    q: call.query,
    ...start,
    ...instants(call.span),
    g,
    dn,
  }, ctx.cursorKey);
}

/** A window's instants as a cursor keeps them (null: open). */
function instants(span?: TimeSpan): { t0: number | null; t1: number | null } {
  const finite = (x: number) => (Number.isFinite(x) ? Math.round(x) : null);
  return { t0: span ? finite(span.since) : null, t1: span ? finite(span.until) : null };
}

/**
 * The log named exactly `name` (a name with glob characters), or null when there is none (then `name` is
 * taken as a glob). A log of that name that cannot be read is that log's error.
 */
async function openNamed(ctx: LocalEnv, name: string): Promise<ReadableLog | null> {
  try {
    return await ctx.source.open(name);
  } catch (e) {
    if (
      e instanceof ToolError &&
      (e.kind === "not_found" || e.kind === "invalid_path" || e.kind === "outside_roots")
    ) {
      return null;
    }
    throw e;
  }
}

/** The names of the logs after the `k`-th. */
function rest(order: { file: string }[], k: number): string[] {
  return order.slice(k + 1).map((e) => e.file);
}

/** The cursor for the page after `page`, which stopped in `log`. */
function cursorFor(
  ctx: LocalEnv,
  call: ManyCall,
  log: ReadableLog,
  page: LogPage,
  g: string,
  dn: string,
): string {
  const t = page.time;
  const finite = (x: number) => (Number.isFinite(x) ? Math.round(x) : null);
  return makeCursor(log, {
    k: call.tool,
    f: log.name,
    q: call.query,
    ...page.next!,
    ...instants(call.span),
    lt: t ? finite(t.carry.last) : null,
    mx: t ? finite(t.carry.max) : null,
    nk: t ? t.lineKnown : true,
    ob: t?.brokenAfterSeek ?? false,
    g,
    dn,
  }, ctx.cursorKey);
}
