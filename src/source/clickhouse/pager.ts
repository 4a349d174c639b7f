/**
 * Pages of a ClickHouse log (`table.ts`, **Budgets**): queries over spans of the time key from a resume
 * until the scope is read, a step says the page is full, or a budget ends. A span doubles after each whole
 * query; a cut query ends the page with a resume over a shorter span (`spans.ts`), so every page is
 * exact and a budget is honoured to within a second and a block.
 *
 * @module
 */

import type { TablePage, TablePosition, TableResume, TableScope } from "./table_types.ts";
import { byteLimit, type TableDb } from "./columns.ts";
import { endKey, startKey } from "./rows.ts";
import { shorterSpan } from "./spans.ts";

/** What one query of a page did: a budget cut it, or it ran to its end (`whole`: the span is read). */
export type StepResult =
  | { cut: "time_budget" | "size_budget"; bytes: number; rows: number }
  | { at: TablePosition; whole: boolean; rows: number; bytes: number; full: boolean };

/**
 * One query of a page: from `at` to the inclusive time key `hi` (null: open), adding what it keeps to
 * `page.items`, within `limits` (whole seconds; bytes or null).
 */
export type PageStep<T> = (
  at: TablePosition,
  hi: number | null,
  page: TablePage<T>,
  limits: { seconds: number; bytes: number | null },
) => Promise<StepResult>;

/**
 * Runs `step` over spans of the table's order from `resume` until the scope is read, the page is full,
 * or a budget ends.
 *
 * @param db The table.
 * @param scope The call's scope and budgets.
 * @param resume Where a previous page stopped, or null for the start.
 * @param step One query.
 * @returns The page: its items, `complete`, `stop_reason`, `next`, what the server read.
 */
export async function tablePages<T>(
  db: TableDb,
  scope: TableScope,
  resume: TableResume | null,
  step: PageStep<T>,
): Promise<TablePage<T>> {
  return await new SpanPager(db, scope, resume, step).run();
}

/** The state of one page's queries ({@linkcode tablePages}). */
class SpanPager<T> {
  readonly page: TablePage<T> = {
    items: [],
    complete: false,
    stop_reason: null,
    next: null,
    progress: true,
    scanned_rows: 0,
    scanned_bytes: 0,
    cut_queries: 0,
  };
  #at: TablePosition;
  #span: number | null;
  /**
   * The last time key the scope had when a span was first set: a span reaching it is left open, so
   * rows written since are read too, and the page can end.
   */
  #last: number | null;
  #end: number | null;
  /** Queries that ran to their end on this page. */
  #whole = 0;
  /** Bytes the server read for this page, every query counted (the byte budget's measure). */
  #spent = 0;
  /**
   * Whether the next query goes on inside the span of the last one: its rows and bytes are not reported
   * again (they re-read the span's granules), so what an answer reports does not depend on how many
   * candidates the caller dropped (a pattern's match inside a masked secret must leave no trace).
   */
  #again = false;
  /**
   * What the last whole query over a closed span cost. A span doubled after it costs at most twice as
   * much (most of a small span's cost is the granules read whatever its length): a page runs the next
   * query only when what the budget has left pays for that, so it ends before a query the budget would
   * cut (whose work would be lost), and hands the next page the span a whole budget pays for.
   */
  #cost: { bytes: number; ms: number } | null = null;
  /** The end of the span being read. */
  #spanHi: number | null = null;
  /** The span of the last whole query. */
  #lastSpan = 0;

  constructor(
    readonly db: TableDb,
    readonly scope: TableScope,
    resume: TableResume | null,
    readonly step: PageStep<T>,
  ) {
    this.#at = resume?.at ?? { t: null, h: null, d: 0 };
    this.#span = resume?.span ?? null;
    this.#last = resume?.last ?? null;
    const until = endKey(db, scope);
    this.#end = until === null ? this.#last : this.#last === null ? until : Math.min(until, this.#last);
  }

  #stop(why: TablePage<T>["stop_reason"]): TablePage<T> {
    this.page.stop_reason = why;
    this.page.next = { at: this.#at, span: this.#span, last: this.#last };
    return this.page;
  }

  async run(): Promise<TablePage<T>> {
    const { scope, page } = this;
    if (scope.maxBytes <= 0 || scope.budgetMs <= 0) {
      // A budget of 0: nothing is read, and a next page would not help.
      page.stop_reason = scope.maxBytes <= 0 ? "size_budget" : "time_budget";
      page.progress = false;
      return page;
    }
    for (;;) {
      if (scope.signal?.aborted) return this.#stop("cancelled");
      const msLeft = scope.deadline - performance.now();
      const bytesLeft = scope.maxBytes - this.#spent;
      const held = this.#budgetStop(msLeft, bytesLeft);
      if (held) return held;
      const start = startKey(this.db, scope, this.#at);
      const bounds = this.db.tk.bounds;
      if (start !== null && bounds && start > bounds[1]) {
        page.complete = true; // past the last time the column can hold: no row is left
        return page;
      }
      let hi = this.#span === null || start === null ? null : start + this.#span;
      if (hi !== null && this.#end !== null && hi >= this.#end) hi = null;
      // A query that goes on inside a span keeps the span's end: where spans begin and end must not depend
      // on which candidates the caller dropped.
      if (this.#again) hi = this.#spanHi;
      this.#spanHi = hi;
      const began = performance.now();
      let r: StepResult;
      try {
        r = await this.step(this.#at, hi, page, {
          seconds: Math.max(1, Math.floor(msLeft / 1000)),
          bytes: byteLimit(bytesLeft),
        });
      } catch (e) {
        // The client cancelled: the request was aborted; the page ends where it was (its rows are kept).
        if (scope.signal?.aborted) return this.#stop("cancelled");
        throw e;
      }
      // A query that goes on inside a span re-reads it: neither reported nor charged to the byte budget, so
      // neither depends on how many candidates the caller dropped (their time still counts).
      if (!this.#again) {
        this.#spent += r.bytes;
        page.scanned_bytes += r.bytes;
      }
      if ("cut" in r) return await this.#onCut(r, hi, start);
      const done = this.#onWhole(r, hi, began);
      if (done) return done;
    }
  }

  /** The page, stopped, when what the budget has left cannot pay for the next query; else null. */
  #budgetStop(msLeft: number, bytesLeft: number): TablePage<T> | null {
    // A query gets whole seconds: with less than one left, a page that did something stops here.
    if (this.#whole > 0 && (msLeft < 1000 || bytesLeft <= 0)) {
      return this.#stop(msLeft < 1000 ? "time_budget" : "size_budget");
    }
    if (this.#whole > 0 && this.#span !== null && this.#cost !== null) {
      const k = this.#cost;
      const fits = (times: number, bytes: number, ms: number) =>
        k.bytes * times <= bytes && k.ms * times <= ms * 0.8;
      if (!fits(2, bytesLeft, msLeft)) {
        if (fits(1, bytesLeft, msLeft)) this.#span = this.#lastSpan;
        else {
          const why = k.bytes > bytesLeft ? "size_budget" : "time_budget";
          if (!fits(2, this.scope.maxBytes, this.scope.budgetMs)) this.#span = this.#lastSpan;
          return this.#stop(why);
        }
      }
    }
    return null;
  }

  /** A query a budget cut: the page ends, with where the next one goes on. */
  async #onCut(
    r: Extract<StepResult, { cut: string }>,
    hi: number | null,
    start: number | null,
  ): Promise<TablePage<T>> {
    const page = this.page;
    page.cut_queries++;
    page.stop_reason = r.cut;
    if (this.#whole === 0 && page.items.length === 0 && this.#span === 0) {
      // One instant's rows do not fit in the budget: a smaller span cannot help.
      page.progress = false;
      return page;
    }
    if (this.#whole > 0 && this.#span !== null) {
      // Cut by what this page had left after whole queries, not by a whole budget: the next page tries
      // the same span with its own.
      page.next = { at: this.#at, span: this.#again ? this.#span : this.#lastSpan, last: this.#last };
      return page;
    }
    const half = await shorterSpan(
      this.db,
      this.scope,
      this.#at,
      hi === null ? null : hi - (start ?? 0),
      r.rows,
    );
    if (half.empty) {
      // The rest holds no row of the scope (a count said so): nothing was lost by the cut.
      page.stop_reason = null;
      page.complete = true;
      return page;
    }
    page.next = { at: half.at, span: half.span, last: half.last ?? this.#last };
    return page;
  }

  /** A query that ran to its end: the page ends (full, or the scope read), or null to go on. */
  #onWhole(
    r: Extract<StepResult, { whole: boolean }>,
    hi: number | null,
    began: number,
  ): TablePage<T> | null {
    this.#whole++;
    if (!this.#again) this.page.scanned_rows += r.rows;
    if (hi !== null && this.#span !== null && !this.#again) {
      this.#cost = { bytes: Math.max(1, r.bytes), ms: Math.max(1, performance.now() - began) };
    }
    if (r.full) {
      this.#at = r.at;
      return this.#stop("limit");
    }
    if (!r.whole) {
      this.#at = r.at; // more candidates in this span
      this.#again = true;
      return null;
    }
    if (hi === null) {
      this.page.complete = true;
      return this.page;
    }
    this.#at = { t: hi + 1, h: null, d: 0 };
    this.#again = false;
    if (this.#span !== null) {
      this.#lastSpan = this.#span;
      this.#span = Math.max(1, this.#span * 2);
    }
    return null;
  }
}
