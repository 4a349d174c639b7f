/**
 * `log_levels` over a table (issue #14): one `GROUP BY` of the stored level texts (per source, over a
 * glob), folded as logpeek folds level words (`read/level.ts` `levelOfName`), under `LOGPEEK_LEVELS_MS`;
 * a cursor goes on in the table's order.
 *
 * @module
 */

import { queryHash } from "../../read/cursor.ts";
import { levelOfName, LEVELS } from "../../read/level.ts";
import type { Call } from "../backend.ts";
import type { LevelCounts, LevelsAnswer, LevelsLog, LevelsQuery } from "../levels_query.ts";
import { NO_LINE_NUMBERS, scopeOf } from "./call_scope.ts";
import type { ClickHouseEnv } from "./clickhouse_env.ts";
import { tableStop } from "./stop_words.ts";
import { readTableCursor, sealTableCursor } from "./table_cursor.ts";

/** How the levels of a table are told, as every answer says it. */
const STORED_LEVELS = "level texts as stored, folded: warning→WARN, err→ERROR…; any other text UNKNOWN";

/** Every level at 0. */
const zero = (): LevelCounts => Object.fromEntries(LEVELS.map((l) => [l, 0])) as LevelCounts;

/**
 * Counts the rows of one source, or of every source a glob matches, by their stored level text.
 *
 * @param env The table, limits, the cursor key.
 * @param q The log (`TABLE/SOURCE`) or glob, the cursor, the window.
 * @param call The client's cancellation.
 * @returns The counts, each log's own over a glob (by name), and where the next page goes on.
 * @throws {ToolError} `invalid_cursor` for a cursor of another call or tool; `invalid_time`; the table's
 *   errors (`not_found` naming the closest names, …).
 */
export async function tableLevels(env: ClickHouseEnv, q: LevelsQuery, call?: Call): Promise<LevelsAnswer> {
  const { table } = env;
  const hash = queryHash({ table: table.shown, file: q.file, since: q.window.since, until: q.window.until });
  const c = q.cursor === undefined ? undefined : readTableCursor(q.cursor, "log_levels", hash, env.cursorKey);
  const { scope, window, glob } = await scopeOf(
    env,
    table,
    { file: q.file, ...q.window },
    { ms: env.limits.levelsMs, bytes: Infinity },
    c,
    call,
  );
  const page = await table.levels(scope, c?.r ?? null);
  const { counts, perLog } = foldLevels(page.items, table.label);
  const stop = page.complete
    ? null
    : page.stop_reason === "cancelled"
    ? "cancelled" as const
    : "time_budget" as const;
  return {
    file: q.file,
    counts,
    entries: counts, // a row is an entry: no continuation lines
    continuation_lines: 0,
    unscaled_levels: 0, // a stored level text is folded as a name (levelOfName), never as a number
    total_lines: LEVELS.reduce((n, l) => n + counts[l], 0),
    last_line: null,
    complete: page.complete,
    stop_reason: stop,
    next_cursor: page.next
      ? sealTableCursor(
        { k: "log_levels", q: hash, r: page.next, t0: scope.since, t1: scope.until },
        env.cursorKey,
      )
      : null,
    progress: page.progress,
    scanned_bytes: page.scanned_bytes,
    ...(glob ? { logs: logsOf(perLog, page.complete, stop) } : {}),
    logs_order: "by name",
    not_read_count: 0,
    untimed_logs: [],
    seek_broken: false,
    time: window,
    unit: "row",
    scope: `${STORED_LEVELS}; ${NO_LINE_NUMBERS}`,
    stop_words: tableStop(page, { time: "LOGPEEK_LEVELS_MS" }),
  };
}

/**
 * The stored level texts' counts folded to levels: over the whole call, and per log (`TABLE/SOURCE`).
 *
 * @param items The page's `[source, level text, rows]`.
 * @param label The table's label, the first segment of its logs' names.
 */
function foldLevels(
  items: [string, string, number][],
  label: string,
): { counts: LevelCounts; perLog: Map<string, LevelCounts> } {
  const counts = zero();
  const perLog = new Map<string, LevelCounts>();
  for (const [source, raw, n] of items) {
    const level = LEVELS[levelOfName(raw)];
    counts[level] += n;
    const name = `${label}/${source}`;
    if (!perLog.has(name)) perLog.set(name, zero());
    perLog.get(name)![level] += n;
  }
  return { counts, perLog };
}

/** Each log of a call over a glob, by name: every one as complete as the page (one query counts them all). */
function logsOf(
  perLog: Map<string, LevelCounts>,
  complete: boolean,
  stop: LevelsLog["stop_reason"],
): LevelsLog[] {
  return [...perLog.keys()].sort().map((file) => ({
    file,
    complete,
    stop_reason: stop,
    scanned_lines: LEVELS.reduce((n, l) => n + perLog.get(file)![l], 0),
    counts: perLog.get(file)!,
  }));
}
