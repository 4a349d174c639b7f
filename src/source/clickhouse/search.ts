/**
 * `log_search` over a table (issue #14): a text or an RE2 pattern matched on the server against the rows'
 * bodies (`position`, `positionCaseInsensitiveUTF8`, RE2's `match`), in time order (equal times in the
 * table's stable order), one source or every source a glob names, a page at a time under the search
 * budgets (ClickHouse's own limits, `pager.ts`).
 *
 * As over files, a literal text is matched on the raw body (a guessed secret finds its row, shown masked)
 * and a pattern on the text as shown: the server's raw match is tested again on the body's first 64 KiB,
 * decoded, secrets masked. `context` and `template_id` are not answered over a table (`backend.ts`
 * `lacks`).
 *
 * Steps: plan (the query's hash, the cursor, the scope), scan (one page of the table's search, each row
 * kept as a line), collect (the page as a {@linkcode SearchAnswer}, with the table's words).
 *
 * @module
 */

import { printable } from "../../guard/printable.ts";
import { LineRedactor, redactLine } from "../../guard/redact.ts";
import { queryHash } from "../../read/cursor.ts";
import { decodeLine } from "../../read/decode.ts";
import { compilePattern } from "../../read/pattern.ts";
import type { RE2JS } from "re2js";
import type { Call } from "../backend.ts";
import type { TablePage, TableScope } from "./table_types.ts";
import type { SearchAnswer, SearchMatch, SearchQuery } from "../search_query.ts";
import { bodyBytes, NO_LINE_NUMBERS, PATTERN_BYTES, scopeOf } from "./call_scope.ts";
import type { ClickHouseEnv } from "./clickhouse_env.ts";
import { rowLine } from "./row_line.ts";
import { readTableCursor, sealTableCursor, type TableCursor } from "./table_cursor.ts";
import { tableStop } from "./stop_words.ts";

/** A text search's matcher (a table answers no other). */
export interface TableMatcher {
  text: string;
  regex: boolean;
  ignore_case: boolean;
}

/** What a page says when the rows of one instant do not fit in its budget. */
const STUCK =
  "The rows of one instant did not fit in the budget, so no cursor is given: raise LOGPEEK_SEARCH_MS " +
  "or LOGPEEK_SEARCH_BYTES, or narrow the level or window.";

/** What the rows of a page came to, besides the matches. */
interface Kept {
  replaced: number;
  redactions: number;
  /** Rows whose body was longer than the 64 KiB a pattern is tested on. */
  partial: number;
}

/** What a search over a table resolved before its page: the hash, the pattern, the cursor, the scope. */
interface TablePlan {
  /** The query's hash, which its cursors carry. */
  hash: string;
  /** The compiled pattern (`regex`), tested again on each row the server matched; null for a text. */
  pattern: RE2JS | null;
  /** The cursor given, read. */
  cursor: TableCursor | undefined;
  /** The sources, level, window and budgets of the page. */
  scope: TableScope;
  /** The window's time fields (`{ window }`), empty without one. */
  window: Record<string, unknown>;
  /** The answer names each match's log. */
  glob: boolean;
}

/**
 * One page of the rows whose body holds the text (matches the pattern), of one source or of a glob's.
 *
 * @param env The table, limits, masking, the cursor key.
 * @param q The query (its matcher a text; `context` 0).
 * @param m The text, whether it is a pattern, whether case is ignored.
 * @param call The client's cancellation.
 * @returns The page: the rows as lines (`TIME LEVEL BODY`, `line_no` null), in time order.
 * @throws {ToolError} `invalid_pattern` (a pattern, or a malformed glob); `invalid_cursor`; `invalid_time`;
 *   the table's errors (`not_found` naming the closest names, `source_error`, …).
 */
export async function tableSearch(
  env: ClickHouseEnv,
  q: SearchQuery,
  m: TableMatcher,
  call?: Call,
): Promise<SearchAnswer> {
  const plan = await planSearch(env, q, m, call);
  const kept: Kept = { replaced: 0, redactions: 0, partial: 0 };
  const page = await scanPage(env, q, m, plan, kept);
  return collect(env, q, plan, page, kept);
}

/**
 * Plans a search over a table: its hash, the pattern, the cursor, the scope (the sources `file` names).
 *
 * @throws {ToolError} `invalid_pattern`, `invalid_cursor`, `invalid_time`, the table's errors.
 */
async function planSearch(
  env: ClickHouseEnv,
  q: SearchQuery,
  m: TableMatcher,
  call?: Call,
): Promise<TablePlan> {
  const { table } = env;
  const pattern = m.regex ? compilePattern(m.text, m.ignore_case) : null;
  const hash = queryHash({
    table: table.shown,
    file: q.file,
    text: m.text,
    level: q.level,
    ignore_case: m.ignore_case,
    regex: m.regex,
    since: q.window.since,
    until: q.window.until,
  });
  const cursor = q.cursor === undefined
    ? undefined
    : readTableCursor(q.cursor, "log_search", hash, env.cursorKey);
  const { scope, window, glob } = await scopeOf(
    env,
    table,
    { file: q.file, level: q.level, ...q.window },
    { ms: env.limits.searchMs, bytes: env.limits.searchBytes },
    cursor,
    call,
  );
  return { hash, pattern, cursor, scope, window, glob };
}

/** Runs the table's search for one page, each row that matches kept as a line (counted in `kept`). */
async function scanPage(
  env: ClickHouseEnv,
  q: SearchQuery,
  m: TableMatcher,
  { pattern, scope, glob, cursor }: TablePlan,
  kept: Kept,
): Promise<TablePage<SearchMatch>> {
  const { table } = env;
  const redactor = new LineRedactor(env.redact, false);
  const page = await table.search(
    scope,
    { text: m.text, regex: m.regex, ignoreCase: m.ignore_case },
    q.limit,
    pattern ? PATTERN_BYTES : bodyBytes(env.limits.maxLine),
    cursor?.r ?? null,
    (row) => {
      if (pattern) {
        // As over files, a pattern is tested on the body's first 64 KiB, decoded, secrets masked: the server
        // matched the raw body (a match in a secret, or past 64 KiB, included), so it is tested again here,
        // and a row that fails is passed without a trace (no count, no masking counted): an answer must
        // not depend on a secret.
        const d = decodeLine(row.body, PATTERN_BYTES, row.bodyBytes > row.body.length);
        if (!pattern.test(env.redact ? redactLine(d.text).text : d.text)) return null;
        if (row.bodyBytes > row.body.length) kept.partial++;
      }
      const l = rowLine(row, env, redactor);
      kept.replaced += l.replaced;
      return { ...l.line, ...(glob ? { file: `${table.label}/${row.source}` } : {}) };
    },
  );
  kept.redactions = redactor.count;
  return page;
}

/** The page as a {@linkcode SearchAnswer}, with the table's words for what it read. */
function collect(
  env: ClickHouseEnv,
  q: SearchQuery,
  plan: TablePlan,
  page: TablePage<SearchMatch>,
  kept: Kept,
): SearchAnswer {
  const { scope } = plan;
  const next_cursor = page.next
    ? sealTableCursor(
      { k: "log_search", q: plan.hash, r: page.next, t0: scope.since, t1: scope.until },
      env.cursorKey,
    )
    : null;
  // A row tested only in part (a pattern's first 64 KiB) may hold a match not looked for: not complete.
  const complete = page.complete && !(plan.pattern && kept.partial);
  return {
    file: q.file,
    matches: page.items,
    glob: plan.glob,
    scanned_lines: page.scanned_rows,
    complete,
    stop_reason: page.complete ? null : page.stop_reason,
    replaced_bytes: kept.replaced,
    redactions: kept.redactions,
    next_cursor,
    progress: page.progress,
    scanned_bytes: page.scanned_bytes,
    not_read_count: 0,
    ...(plan.pattern ? { partially_tested: kept.partial } : {}),
    time: plan.window,
    seek_broken: false,
    seek_skipped: false,
    unit: "row",
    scope: ` in the bodies of ${printable(env.table.shown)}; ${
      tableStop({ ...page, complete }, { time: "LOGPEEK_SEARCH_MS", bytes: "LOGPEEK_SEARCH_BYTES" })
    }; ${NO_LINE_NUMBERS}`,
    ...(page.progress ? {} : { stuck: STUCK }),
    notes: [],
  };
}
