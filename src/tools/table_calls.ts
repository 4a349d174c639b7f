/**
 * `log_files`, `log_tail`, `log_search` and `log_levels` over a log table (a ClickHouse root, issue #14):
 * the same arguments and answer shapes as over files, asked of the source's {@linkcode LogTable}.
 *
 * What differs, and each answer says so: a table has no line numbers (`line_no` is null); each row is
 * shown as one line `TIME LEVEL BODY` (the time in RFC 3339 in `LOGPEEK_TZ`, the level as stored, `-` when
 * empty); `text`/`regex` are matched against the body only, on the server (`position`,
 * `positionCaseInsensitiveUTF8`, RE2's `match`); `scanned_lines` counts the rows the server read; a
 * budget is ClickHouse's own limit, honoured to within a second and a block (see `source/clickhouse/pager.ts`).
 * Secrets are masked as in files, and as over files a literal text is matched on the raw body (a guessed
 * secret finds its row, shown masked) and a pattern on the text as shown (the server's raw match is tested
 * again on the masked body). `context`, `template_id` and `log_patterns` are not
 * answered over a table (`invalid_argument`).
 *
 * @module
 */

import { ToolError } from "../core/errors.ts";
import { createHmac } from "node:crypto";
import { seal, unseal } from "../core/seal.ts";
import { LineRedactor } from "../guard/redact.ts";
import { printable } from "../guard/printable.ts";
import { queryHash } from "../read/cursor.ts";
import { decodeLine } from "../read/decode.ts";
import { formatInstant } from "../read/instant.ts";
import { type Level, levelOfName, LEVELS } from "../read/level.ts";
import type { LogLine } from "../read/log_line.ts";
import type {
  ListOptions,
  LogEntry,
  LogList,
  LogTable,
  TablePage,
  TableResume,
  TableRow,
  TableScope,
} from "../source/log_source.ts";
import type { CallContext, ToolContext } from "./deps.ts";
import { okResult, type ToolResult } from "./outcome.ts";
import { plural, renderLine } from "./render.ts";
import { spill } from "./spill.ts";
import { resolveSpan } from "./time_args.ts";

/** The most bytes of a row's body fetched: enough for `LOGPEEK_MAX_LINE` characters and one more byte. */
function bodyBytes(maxLine: number): number {
  return Math.min(maxLine * 4 + 1, PATTERN_BYTES);
}

/**
 * The most bytes of a body a pattern is tested on, and the most of it fetched (64 KiB, as a pattern is
 * tested on a file's line): a larger `LOGPEEK_MAX_LINE` shows no more of a row than this.
 */
const PATTERN_BYTES = 65536;

/** A header with the window named, when there is one. */
function withWindow(header: string, fields: Record<string, unknown>): string {
  const w = fields.window as { since: string | null; until: string | null; zone: string } | undefined;
  if (!w) return header;
  return `${header} Window ${w.since ?? "-∞"} .. ${w.until ?? "+∞"} (since inclusive, until exclusive; ` +
    `zone-less times read in ${w.zone}), on the table's time column.`;
}

/** What every table answer says about line numbers. */
const NO_LINE_NUMBERS = "a table has no line numbers (-)";

/**
 * `log_files`' listing over a table: each distinct source a log, `<table>/<source>`, with its row count
 * (`rows`; `size_bytes` null) and its last row's time as `modified`; under the search time budget.
 *
 * @throws {ToolError} the source's errors; TypeError or RangeError for a malformed glob (as `list`).
 */
export function tableListing(ctx: ToolContext, table: LogTable, opts: ListOptions): Promise<LogList> {
  return table.list(opts, {
    deadline: performance.now() + ctx.limits.searchMs,
    maxBytes: ctx.limits.searchBytes,
    budgetMs: ctx.limits.searchMs,
  });
}

/** The first line of `log_files`' text over a table: what a log is there, and whether the list is whole. */
export function tableFilesHeader(
  table: LogTable,
  list: LogList,
  call: { glob?: string; sort: string },
): string {
  return `${list.files.length} log(s) in ${printable(table.shown)} (each a value of its source column, ` +
    `named ${printable(table.label)}/<source>; rows counted, modified = the last row's time)` +
    (call.glob !== undefined ? ` matching the glob '${printable(call.glob)}'` : "") +
    (call.sort === "modified" ? ", newest first" : "") +
    (list.complete ? "; the list is complete." : `; the list is NOT complete: ${list.not_listed} more` +
      (list.next ? "; pass next_cursor as cursor (same glob and sort) for the next page." : ".") +
      (list.unreadable.length ? ` ${list.unreadable.join("; ")}` : ""));
}

/** One listed log of a table as a line of text. */
export function renderTableEntry(f: LogEntry): string {
  return `${printable(f.file)}\t${f.rows} rows\t${f.modified ?? "?"}` +
    (f.readable ? "" : `\tNOT READ: ${printable(f.reason ?? "?")}`);
}

/** A row as a returned line (`TIME LEVEL BODY`, cut, secrets masked), and the bytes it replaced. */
function rowLine(
  row: TableRow,
  ctx: ToolContext,
  redactor: LineRedactor,
): { line: LogLine; replaced: number } {
  const d = decodeLine(row.body, ctx.limits.maxLine, row.bodyBytes > row.body.length);
  const head = `${formatInstant(row.timeMs, ctx.limits.tz)} ${row.rawLevel === "" ? "-" : row.rawLevel} `;
  return {
    line: {
      line_no: null,
      level: LEVELS[levelOfName(row.rawLevel)],
      text: redactor.line(head + d.text, d.cut),
      cut: d.cut,
    },
    replaced: d.replaced,
  };
}

/** The scope of a call over a table: the logs `file` names, level, window, budgets. */
async function scopeOf(
  ctx: ToolContext,
  table: LogTable,
  args: { file: string; level?: Level; since?: string; until?: string },
  budget: { ms: number; bytes: number },
  t: { t0?: number | null; t1?: number | null } | undefined,
  call?: CallContext,
): Promise<{ scope: TableScope; window: Record<string, unknown>; glob: boolean; names: string[] }> {
  const deadline = performance.now() + budget.ms;
  const span = resolveSpan(args, ctx.limits.tz, t && { t0: t.t0 ?? null, t1: t.t1 ?? null });
  const named = await table.sources(args.file, { deadline, maxBytes: budget.bytes });
  const zone = ctx.limits.tz;
  return {
    // A glob (or a name that is not one log's): the answer names each match's log.
    glob: named.names.length !== 1 || args.file !== `${table.label}/${named.names[0]}`,
    names: named.names,
    scope: {
      sources: named.all ? null : named.names,
      level: args.level,
      since: span && Number.isFinite(span.since) ? span.since : null,
      until: span && Number.isFinite(span.until) ? span.until : null,
      deadline,
      maxBytes: budget.bytes,
      budgetMs: budget.ms,
      signal: call?.signal,
    },
    window: span
      ? {
        window: {
          since: Number.isFinite(span.since) ? formatInstant(span.since, zone) : null,
          until: Number.isFinite(span.until) ? formatInstant(span.until, zone) : null,
          zone,
        },
      }
      : {},
  };
}

/** A sealed cursor over a table (`core/seal.ts`): the tool, the call's hash, the resume point, the window. */
interface TableCursor {
  k: string;
  q: string;
  r: TableResume;
  t0: number | null;
  t1: number | null;
}

/**
 * A position's tie-breaker hidden in a cursor (the payload is sealed, not encrypted): XOR with 64 bits of
 * HMAC-SHA-256(key, nonce), a new nonce per cursor. Applied twice, it gives the hash back.
 */
function hideHash(h: string, key: Uint8Array, nonce: string): string {
  const mask = createHmac("sha256", key).update(`logpeek table position:${nonce}`).digest().readBigUInt64BE(
    0,
  );
  return (BigInt(h) ^ mask).toString();
}

/** Seals a table cursor, its position's hash hidden. */
function sealTableCursor(c: TableCursor, key: Uint8Array): string {
  const n = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
  const h = c.r.at.h;
  return seal({ ...c, n, r: { ...c.r, at: { ...c.r.at, h: h === null ? null : hideHash(h, key, n) } } }, key);
}

function readTableCursor(text: string, tool: string, q: string, key: Uint8Array): TableCursor {
  const v = unseal(text, key) as Partial<TableCursor> | null;
  if (!v || typeof v !== "object" || typeof v.k !== "string") {
    throw new ToolError("invalid_cursor", "the cursor was not made by this server (or was changed)");
  }
  if (v.k !== tool) throw new ToolError("invalid_cursor", `the cursor belongs to ${v.k}, not ${tool}`);
  const r = v.r;
  const ok = v.q === q && r && typeof r === "object" && r.at && typeof r.at === "object" &&
    (r.at.t === null || Number.isSafeInteger(r.at.t)) &&
    (r.at.h === null || (typeof r.at.h === "string" && /^[0-9]{1,20}$/.test(r.at.h))) &&
    Number.isSafeInteger(r.at.d) && r.at.d >= 0 &&
    (r.last === undefined || r.last === null || Number.isSafeInteger(r.last)) &&
    (r.span === null || (Number.isSafeInteger(r.span) && r.span >= 0));
  if (!ok) {
    throw new ToolError(
      "invalid_cursor",
      v.q !== q
        ? "the cursor belongs to another call (other arguments): call with the arguments that gave it, or start again without cursor"
        : "the cursor was not made by this server (or was changed)",
    );
  }
  const n = (v as { n?: unknown }).n;
  if (typeof n !== "string" || !/^[0-9a-f]{16}$/.test(n)) {
    throw new ToolError("invalid_cursor", "the cursor was not made by this server (or was changed)");
  }
  const c = v as TableCursor;
  const h = c.r.at.h;
  return { ...c, r: { ...c.r, at: { ...c.r.at, h: h === null ? null : hideHash(h, key, n) } } };
}

/** Says why a page over a table is not complete. */
function tableStop(page: TablePage<unknown>, budgets: { time: string; bytes?: string }): string {
  const rows = `${
    plural(page.scanned_rows, "row")
  } of whole queries and ${page.scanned_bytes} bytes read by the server`;
  switch (page.stop_reason) {
    case null:
      return page.complete ? `complete: every row in scope was read (${rows})` : `NOT complete (${rows})`;
    case "limit":
      return `NOT complete (stop_reason: limit): stopped at the match limit (${rows}); more matches may follow`;
    case "cancelled":
      return `NOT complete (stop_reason: cancelled): the client cancelled the call (${rows})`;
    default: {
      const time = page.stop_reason === "time_budget";
      const name = time ? budgets.time : budgets.bytes;
      return `NOT complete (stop_reason: ${page.stop_reason}): ${
        page.cut_queries
          ? `a query was cut by ClickHouse at the ${time ? "time" : "byte"} budget (${name}, given to it as ${
            time ? "max_execution_time, in whole seconds" : "max_bytes_to_read"
          }, honoured to within ${time ? "a second and " : ""}a block); its rows were not used, and the ` +
            "cursor reads them in a shorter time span"
          : `the ${time ? "time" : "byte"} budget (${name}) would not pay for the next query`
      } (${rows}); absence of a row in what was not read proves nothing`;
    }
  }
}

/**
 * `log_tail` over a table: the last `lines` rows of a source (of a level, in a window), oldest first.
 *
 * @throws {ToolError} `budget_exceeded` when the query did not finish within the search budgets, the
 *   source's errors.
 */
export async function tableTail(
  ctx: ToolContext,
  table: LogTable,
  args: { file: string; lines: number; level?: Level; since?: string; until?: string },
  call?: CallContext,
): Promise<ToolResult> {
  const { scope, window, glob } = await scopeOf(
    ctx,
    table,
    args,
    { ms: ctx.limits.searchMs, bytes: ctx.limits.searchBytes },
    undefined,
    call,
  );
  if (glob) {
    throw new ToolError("invalid_argument", "log_tail takes one log, not a glob: log_files lists them");
  }
  const got = await table.tail(scope, args.lines, bodyBytes(ctx.limits.maxLine));
  const redactor = new LineRedactor(ctx.redact, true);
  let replaced = 0;
  const lines = got.rows.map((row) => {
    const l = rowLine(row, ctx, redactor);
    replaced += l.replaced;
    return l.line;
  });
  const header = withWindow(
    `${printable(args.file)}: last ${lines.length} row(s)${args.level ? ` of level ${args.level}` : ""} of ` +
      `${printable(table.shown)}, by time (equal times in a stable order); ${NO_LINE_NUMBERS}` +
      (replaced ? `; ${replaced} invalid UTF-8 byte(s) replaced by U+FFFD` : "") +
      (redactor.count ? `; ${redactor.count} secret(s) masked as ***` : "") + ".",
    window,
  );
  const out = spill(ctx, "log_tail", header, lines.map(renderLine), lines.map((l) => l.level), true);
  return okResult({
    file: args.file,
    lines: lines.slice(out.from, out.from + out.shown),
    whole_file: false,
    dropped_partial: false,
    replaced_bytes: replaced,
    redactions: redactor.count,
    scanned_bytes: got.scanned_bytes,
    ...window,
    artifact: out.artifact,
    spill_summary: out.summary,
  }, out.text);
}

/**
 * `log_levels` over a table: one `GROUP BY` of the stored level texts (per source, over a glob), folded
 * as logpeek folds level words.
 *
 * @throws {ToolError} `invalid_cursor`, the source's errors.
 */
export async function tableLevels(
  ctx: ToolContext,
  table: LogTable,
  args: { file: string; cursor?: string; since?: string; until?: string },
  call?: CallContext,
): Promise<ToolResult> {
  const q = queryHash({ table: table.shown, file: args.file, since: args.since, until: args.until });
  const c = args.cursor === undefined
    ? undefined
    : readTableCursor(args.cursor, "log_levels", q, ctx.cursorKey);
  const { scope, window, glob } = await scopeOf(
    ctx,
    table,
    args,
    { ms: ctx.limits.levelsMs, bytes: Infinity },
    c,
    call,
  );
  const page = await table.levels(scope, c?.r ?? null);
  const zero = () => Object.fromEntries(LEVELS.map((l) => [l, 0])) as Record<Level, number>;
  const counts = zero();
  const perLog = new Map<string, Record<Level, number>>();
  for (const [source, raw, n] of page.items) {
    const level = LEVELS[levelOfName(raw)];
    counts[level] += n;
    const name = `${table.label}/${source}`;
    if (!perLog.has(name)) perLog.set(name, zero());
    perLog.get(name)![level] += n;
  }
  const total = LEVELS.reduce((n, l) => n + counts[l], 0);
  const logs = glob
    ? [...perLog.keys()].sort().map((file) => ({
      file,
      complete: page.complete,
      stop_reason: page.complete
        ? null
        : page.stop_reason === "cancelled"
        ? "cancelled" as const
        : "time_budget" as const,
      scanned_lines: LEVELS.reduce((n, l) => n + perLog.get(file)![l], 0),
      counts: perLog.get(file)!,
    }))
    : undefined;
  const next_cursor = page.next
    ? sealTableCursor({ k: "log_levels", q, r: page.next, t0: scope.since, t1: scope.until }, ctx.cursorKey)
    : null;
  const nonzero = LEVELS.filter((l) => counts[l] > 0).map((l) => `${l} ${counts[l]}`);
  const text = withWindow(
    `${printable(args.file)}: ${plural(total, "row")}: ${
      nonzero.join(", ") || "none"
    } (level texts as stored, ` +
      `folded: warning→WARN, err→ERROR…; any other text UNKNOWN); ${
        tableStop(page, { time: "LOGPEEK_LEVELS_MS" })
      }; ${NO_LINE_NUMBERS}.`,
    window,
  ) +
    (logs
      ? "\nlogs: " +
        logs.map((l) =>
          `${printable(l.file)}: ${
            LEVELS.filter((v) => l.counts[v] > 0).map((v) => `${v} ${l.counts[v]}`).join(", ")
          }`
        ).join("; ")
      : "") +
    (next_cursor
      ? `\nTo count the rest, call log_levels again with the same arguments and cursor="${next_cursor}"; add the pages' counts up.`
      : "") +
    (!page.progress
      ? "\nThe rows of one instant did not fit in LOGPEEK_LEVELS_MS, so no cursor is given: raise it."
      : "");
  return okResult({
    file: args.file,
    counts,
    entries: counts, // a row is an entry: no continuation lines
    continuation_lines: 0,
    unscaled_levels: 0, // a stored level text is folded as a name (levelOfName), never as a number
    total_lines: total,
    last_line: null,
    next_cursor,
    progress: page.progress,
    scanned_bytes: page.scanned_bytes,
    logs,
    ...window,
    complete: page.complete,
    stop_reason: page.complete ? null : page.stop_reason === "cancelled" ? "cancelled" : "time_budget",
  }, text);
}
