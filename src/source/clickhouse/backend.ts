/**
 * The ClickHouse backend (issue #14, #25): a table of log rows, each distinct source one log, every query
 * pushed down as SQL (`table.ts`, `pager.ts`).
 *
 * Permission: `--allow-net=HOST:PORT`.
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import { type BackendEnv, type Call, type Capability, type LogBackend, refuseLacking } from "../backend.ts";
import type { LevelsAnswer, LevelsQuery } from "../levels_query.ts";
import type { ListOptions, LogList } from "../log_types.ts";
import type { LogTable } from "./table_types.ts";
import type { PatternsAnswer, PatternsQuery } from "../patterns_query.ts";
import type { SearchAnswer, SearchQuery } from "../search_query.ts";
import type { TailAnswer, TailQuery } from "../tail_query.ts";
import type { ClickHouseEnv } from "./clickhouse_env.ts";
import { tableTail } from "./tail.ts";
import { tableLevels } from "./levels.ts";
import { tableList } from "./log_list.ts";
import { type TableMatcher, tableSearch } from "./search.ts";

/** What a table does not answer, and what to do instead. */
function lacking(what: Capability, shown: string): string {
  switch (what) {
    case "context":
      return "context lines are not given over a table (rows have no neighbours by line): search again with " +
        "since and until around a match's time";
    case "template_id":
      return "template_id (from log_patterns) is not answered over a table";
    case "patterns":
      return `log_patterns reads files; ${shown} is a table, which it does not mine (yet): use ` +
        "log_levels and log_search there";
  }
}

/** A ClickHouse table as a {@linkcode LogBackend}. */
export class ClickHouseBackend implements LogBackend {
  readonly kind = "clickhouse";
  readonly shown: string;
  readonly #env: ClickHouseEnv;

  /**
   * @param table The table (`table.ts` `clickHouseTable`).
   * @param env Limits, masking, the cursor key.
   */
  constructor(table: LogTable, env: BackendEnv) {
    this.#env = { ...env, table };
    this.shown = table.shown;
  }

  /** {@inheritDoc LogBackend.lacks} */
  lacks(what: Capability): string | null {
    return lacking(what, this.shown);
  }

  /** {@inheritDoc LogBackend.list} */
  list(q: ListOptions, _call?: Call): Promise<LogList> {
    return tableList(this.#env, q);
  }

  /** {@inheritDoc LogBackend.tail} */
  tail(q: TailQuery, call?: Call): Promise<TailAnswer> {
    return tableTail(this.#env, q, call);
  }

  /** {@inheritDoc LogBackend.search} */
  async search(q: SearchQuery, call?: Call): Promise<SearchAnswer> {
    const m = q.match;
    if (m.kind === "template") refuseLacking(this, "template_id");
    if (q.context > 0) refuseLacking(this, "context");
    // A template was refused above: the matcher is a text.
    return await tableSearch(this.#env, q, m as TableMatcher, call);
  }

  /** {@inheritDoc LogBackend.levels} */
  levels(q: LevelsQuery, call?: Call): Promise<LevelsAnswer> {
    return tableLevels(this.#env, q, call);
  }

  /** {@inheritDoc LogBackend.patterns} */
  patterns(_q: PatternsQuery, _call?: Call): Promise<PatternsAnswer> {
    return Promise.reject(new ToolError("invalid_argument", lacking("patterns", this.shown)));
  }

  /** {@inheritDoc LogBackend.explain}: a table's `not_found` names its closest sources already (`names.ts`). */
  explain(e: unknown, _names: readonly (string | undefined)[]): Promise<unknown> {
    return Promise.resolve(e);
  }
}
