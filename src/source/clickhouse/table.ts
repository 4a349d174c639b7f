/**
 * The ClickHouse log source (issue #14): a table of log rows (time, body, level, source), each distinct
 * source one log named `<table>/<source>`. The server filters, sorts and counts; logpeek keeps the answer
 * honest:
 *
 * - **Order.** Rows are read in one total order: the time key, then `cityHash64(salt, source, level, body)`,
 *   then source, level and body. Rows equal in all of them are the same text, so a position is the last
 *   key passed and how many rows with exactly that key were passed ({@linkcode TablePosition}); a resumed
 *   page loses and repeats no row, equal timestamps included.
 * - **Budgets.** Each query gets the call's remaining time (`max_execution_time`, whole seconds: 18.16
 *   takes no fraction) and bytes (`max_bytes_to_read`), overflow mode `break`. A query that a limit may
 *   have cut (`http.ts` `cut`) is not used at all — `break` stops at block boundaries in an
 *   order logpeek cannot know, so its rows are no prefix of the order — and the next page covers the same
 *   rows in half the time span ({@linkcode TableResume}); a whole query doubles the span. A budget is thus
 *   honoured to within a second and one block per server thread (`break` is checked after each block, and
 *   each thread ends the one it reads; a block is at most `BLOCK_ROWS`, 8,192 rows, `http.ts`),
 *   and every page is exact.
 * - **Levels.** A level is chosen on the server by the stored texts that fold to it (`lower(level) IN
 *   (…)`, the words of `read/level.ts` `levelNames`); UNKNOWN is every other text.
 *
 * Permission: `--allow-net=HOST:PORT`.
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import type { ListOptions, LogList } from "../log_types.ts";
import type { LogTable, TablePage, TablePosition, TableResume, TableRow, TableScope } from "./table_types.ts";
import { byteLimit, learnTable, type QueryScope, secondsLeft, type TableDb } from "./columns.ts";
import { AnswerTooLargeError, runQuery } from "./http.ts";
import { listTableLogs, type SourcesSeen, type TableNames, tableSources } from "./listing.ts";
import { tablePages } from "./pager.ts";
import { afterPosition, type RowJson, scopeWhere, selectRows, toRow } from "./rows.ts";
import { sqlInt, sqlString } from "./sql.ts";
import type { ClickHouseTarget } from "./target.ts";

export { MAX_SOURCES } from "./listing.ts";

/** About the most bytes of rows one search query asks for (bodies travel as hex: twice their bytes). */
const ANSWER_BYTES = 32 * 1024 * 1024;

/**
 * The {@linkcode LogTable} over a ClickHouse table: the ClickHouse backend (`backend.ts`) asks it.
 *
 * @param target The root, from `parseClickHouseRoot` (`target.ts`).
 * @param salt Hashed before each row's values in the tie-breaker (secret to the client: the order of rows
 *   at one time, and a position's hash, then tell nothing about a row's raw text); stable across pages
 *   (derive it from the cursor key).
 * @returns The table (it answers the backend's queries with SQL).
 */
export function clickHouseTable(target: ClickHouseTarget, salt = ""): LogTable {
  return new ClickHouseTable(target, salt);
}

/** The budget error of a call that left nothing for a query. */
function nothingLeft(what: string, shown: string): ToolError {
  return new ToolError(
    "budget_exceeded",
    `the budget (LOGPEEK_SEARCH_MS, LOGPEEK_SEARCH_BYTES) left nothing for ${what} ${shown}`,
  );
}

/** A ClickHouse table as a {@linkcode LogTable}. */
class ClickHouseTable implements LogTable {
  readonly shown: string;
  readonly label: string;
  #t: ClickHouseTarget;
  #salt: string;
  /** The table's columns and time kind, learned once. */
  #db: TableDb | null = null;
  #seen: SourcesSeen | null = null;

  constructor(target: ClickHouseTarget, salt: string) {
    this.#salt = salt;
    this.#t = target;
    this.shown = target.shown;
    this.label = target.label;
  }

  /** The table's columns and time kind (asked once). */
  async #learn(scope: QueryScope): Promise<TableDb> {
    return this.#db ??= await learnTable(this.#t, scope, this.#salt);
  }

  /** The listing's view of this table. */
  #names(db: TableDb): TableNames {
    // deno-lint-ignore no-this-alias
    const self = this;
    return {
      db,
      shown: this.shown,
      label: this.label,
      get seen() {
        return self.#seen;
      },
      keep: (s) => (this.#seen = s),
    };
  }

  async list(
    opts: ListOptions,
    scope: { deadline: number; maxBytes: number; budgetMs: number },
  ): Promise<LogList> {
    const db = await this.#learn(scope);
    if (scope.maxBytes <= 0 || scope.budgetMs <= 0) throw nothingLeft("listing the sources of", this.shown);
    return await listTableLogs(this.#names(db), opts, scope.deadline);
  }

  async sources(
    file: string,
    scope: { deadline: number; maxBytes: number },
  ): Promise<{ names: string[]; all: boolean }> {
    // The columns checked first, for a clear error; naming a log is not reading it (no byte budget).
    const db = await this.#learn({ deadline: scope.deadline, maxBytes: Infinity });
    return await tableSources(this.#names(db), file, scope.deadline);
  }

  async tail(
    scope: TableScope,
    n: number,
    bodyBytes: number,
  ): Promise<{ rows: TableRow[]; scanned_bytes: number }> {
    const db = await this.#learn(scope);
    if (scope.maxBytes <= 0 || scope.budgetMs <= 0) throw nothingLeft("the tail query over", this.shown);
    const where = scopeWhere(db, scope).join(" AND ");
    const limits = () => ({ seconds: secondsLeft(scope.deadline), bytes: byteLimit(scope.maxBytes) });
    // First the time key of the n-th row from the end (only the time column is read for it), then the
    // rows from that time on: the engine sorts a few rows, not the whole log.
    const b = await runQuery<{ k: string | null }>(
      db.t,
      `SELECT min(k) AS k, count() AS c FROM (SELECT ${db.tk.key} AS k FROM ${db.from} WHERE ${where} ` +
        `ORDER BY k DESC LIMIT ${sqlInt(n)})`,
      limits(),
      scope.signal,
    );
    const budget = (cut: string, read: number) =>
      new ToolError(
        "budget_exceeded",
        `the tail query over ${this.shown} did not finish within its ${
          cut === "time_budget" ? "time (LOGPEEK_SEARCH_MS)" : "byte (LOGPEEK_SEARCH_BYTES)"
        } budget (the server read ${read} bytes): give since to narrow it, or raise the budget`,
      );
    if (b.cut) throw budget(b.cut, b.bytesRead);
    const count = Number((b.rows[0] as unknown as { c: string } | undefined)?.c ?? 0);
    if (count === 0) return { rows: [], scanned_bytes: b.bytesRead };
    const from = Number(b.rows[0].k);
    const q = await runQuery<RowJson>(
      db.t,
      `${selectRows(db, bodyBytes)} WHERE ${where} AND ${db.c.time} >= ${db.tk.at(from)} ` +
        `ORDER BY lp_t DESC, lp_h DESC, lp_s DESC, lp_l DESC, ${db.c.body} DESC LIMIT ${sqlInt(n)}`,
      limits(),
      scope.signal,
    );
    if (q.cut) throw budget(q.cut, b.bytesRead + q.bytesRead);
    return { rows: q.rows.reverse().map((r) => toRow(db, r)), scanned_bytes: b.bytesRead + q.bytesRead };
  }

  async search<T>(
    scope: TableScope,
    find: { text: string; regex: boolean; ignoreCase: boolean },
    limit: number,
    bodyBytes: number,
    resume: TableResume | null,
    keep: (row: TableRow) => T | null,
  ): Promise<TablePage<T>> {
    const db = await this.#learn(scope);
    const c = db.c;
    // A pattern is wrapped in a group: 18.16's required-literal analysis takes `LOGIN` out of `(?i)LOGIN`
    // as case-sensitive and misses rows (a trial); `(?i)(?:LOGIN)` and `(?:(?i)LOGIN)` are read right.
    const test = find.regex
      ? `match(${c.body}, ${sqlString(`${find.ignoreCase ? "(?i)" : ""}(?:${find.text})`)})`
      : find.ignoreCase
      ? `positionCaseInsensitiveUTF8(${c.body}, ${sqlString(find.text)}) > 0`
      : `position(${c.body}, ${sqlString(find.text)}) > 0`;
    const batches = new Batches(bodyBytes);
    return await tablePages<T>(db, scope, resume, async (at, hi, page, limits) => {
      const where = [...scopeWhere(db, scope), ...afterPosition(db, at), test];
      if (hi !== null) where.push(`${c.time} <= ${db.tk.at(hi)}`);
      // The rows equal to the position's key come first in the order; the `d` of them already passed are
      // skipped on the server (identical rows are interchangeable; others at one key are in content order).
      const skip = at.h === null ? 0 : at.d;
      const ask = (n: number) =>
        runQuery<RowJson>(
          db.t,
          `${selectRows(db, bodyBytes)} WHERE ${where.join(" AND ")} ` +
            `ORDER BY lp_t, lp_h, lp_s, lp_l, ${c.body} LIMIT ${sqlInt(skip)}, ${sqlInt(n)}`,
          // The other columns are read for every row, not only where the text matched (the PREWHERE
          // optimization): the bytes read, which an answer reports and a budget counts, must not depend on
          // a match the answer does not show (a pattern's inside a masked secret, a text in a source that is
          // not served or in another source's rows of the same granules: trials measured both).
          { ...limits, settings: { optimize_move_to_prewhere: "0" } },
          scope.signal,
        );
      const { q, batch } = await batches.ask(limit - page.items.length, ask);
      if (q.cut) return { cut: q.cut, bytes: q.bytesRead, rows: q.rowsRead };
      let pos: TablePosition = { ...at };
      for (const r of q.rows) {
        const t = Number(r.lp_t);
        pos = t === pos.t && r.lp_h === pos.h ? { ...pos, d: pos.d + 1 } : { t, h: r.lp_h, d: 1 };
        const kept = keep(toRow(db, r));
        if (kept !== null) page.items.push(kept);
        if (page.items.length >= limit) {
          return { at: pos, whole: false, rows: q.rowsRead, bytes: q.bytesRead, full: true };
        }
      }
      const whole = q.rows.length < batch;
      batches.grow(whole);
      return { at: pos, whole, rows: q.rowsRead, bytes: q.bytesRead, full: false };
    });
  }

  async levels(scope: TableScope, resume: TableResume | null): Promise<TablePage<[string, string, number]>> {
    const db = await this.#learn(scope);
    return await tablePages<[string, string, number]>(db, scope, resume, async (at, hi, page, limits) => {
      const where = scopeWhere(db, scope);
      if (at.t !== null) where.push(`${db.c.time} >= ${db.tk.at(at.t)}`);
      if (hi !== null) where.push(`${db.c.time} <= ${db.tk.at(hi)}`);
      const q = await runQuery<{ lp_s: string; lp_l: string; lp_n: string }>(
        db.t,
        `SELECT ${db.c.source} AS lp_s, ${db.c.level} AS lp_l, count() AS lp_n FROM ${db.from} ` +
          `WHERE ${where.join(" AND ")} GROUP BY lp_s, lp_l`,
        limits,
        scope.signal,
      );
      if (q.cut) return { cut: q.cut, bytes: q.bytesRead, rows: q.rowsRead };
      for (const r of q.rows) page.items.push([r.lp_s, r.lp_l, Number(r.lp_n)]);
      return {
        at: { t: hi === null ? null : hi + 1, h: null, d: 0 },
        whole: true,
        rows: q.rowsRead,
        bytes: q.bytesRead,
        full: false,
      };
    });
  }
}

/**
 * How many candidate rows a search asks for at once. Candidates come in batches; a row the caller drops
 * (its match was in a masked secret) is passed. A batch grows while the caller drops its candidates (a
 * pattern matching many secrets would otherwise re-read a span for every few dozen rows). At most ~32 MiB
 * of hex bodies an answer (a row's body is fetched up to `bodyBytes`), sized by the rows seen so far;
 * an answer that then passes the cap is asked again for as many rows as the longest bodies allow.
 */
class Batches {
  #grow = 1;
  /** The mean size of a row in the last answer, hex body included; null before one. */
  #rowBytes: number | null = null;
  #worst: number;

  constructor(bodyBytes: number) {
    this.#worst = Math.floor(ANSWER_BYTES / (2 * bodyBytes + 128));
  }

  /** Asks for the next batch of candidates, `want` more being wanted; returns the answer and its size. */
  async ask<Q extends { rows: RowJson[] }>(
    want: number,
    run: (n: number) => Promise<Q>,
  ): Promise<{ q: Q; batch: number }> {
    const worst = this.#worst;
    const cap = this.#rowBytes === null ? worst : Math.max(worst, Math.floor(ANSWER_BYTES / this.#rowBytes));
    let batch = Math.min((want * 2 + 16) * this.#grow, 10_000, cap) + 1;
    let q: Q;
    try {
      q = await run(batch);
    } catch (e) {
      if (!(e instanceof AnswerTooLargeError) || batch <= worst + 1) throw e;
      batch = worst + 1;
      q = await run(batch);
    }
    if (q.rows.length) {
      this.#rowBytes = 256 +
        q.rows.reduce((n, r) => n + r.lp_b.length + r.lp_s.length + r.lp_l.length, 0) / q.rows.length;
    }
    return { q, batch };
  }

  /** After a batch: one that was whole resets the growth; one that was full grows the next fourfold. */
  grow(whole: boolean): void {
    this.#grow = whole ? 1 : Math.min(this.#grow * 4, 1024);
  }
}
