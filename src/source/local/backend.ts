/**
 * The local backend (issue #25): log files under the roots given on the command line, confined and opened
 * race-free (`local_source.ts`), read by the scanner (`read/`).
 *
 * Permission: `--allow-read` of the roots (and the state directory).
 *
 * @module
 */

import type { BackendEnv, Call, Capability, LogBackend } from "../backend.ts";
import type { LevelsAnswer, LevelsQuery } from "../levels_query.ts";
import type { ListOptions, LogList, LogSource } from "../log_types.ts";
import type { PatternsAnswer, PatternsQuery } from "../patterns_query.ts";
import type { SearchAnswer, SearchQuery } from "../search_query.ts";
import type { TailAnswer, TailQuery } from "../tail_query.ts";
import type { LocalEnv } from "./local_env.ts";
import { localPatterns } from "./patterns.ts";
import { localTail } from "./tail.ts";
import { withClosestNames } from "./closest_names.ts";
import { localLevels } from "./levels.ts";
import { localList } from "./log_list.ts";
import { localSearch } from "./search.ts";

/** Log files under the roots, as a {@linkcode LogBackend}: it answers every query. */
export class LocalBackend implements LogBackend {
  readonly kind = "files";
  readonly shown: string;
  readonly #env: LocalEnv;

  /**
   * @param source The roots' logs (`local_source.ts` `localSource`).
   * @param env Limits, masking, the cursor key.
   * @param shown The roots as shown.
   */
  constructor(source: LogSource, env: BackendEnv, shown: string) {
    this.#env = { ...env, source };
    this.shown = shown;
  }

  /** {@inheritDoc LogBackend.lacks} */
  lacks(_what: Capability): string | null {
    return null;
  }

  /** {@inheritDoc LogBackend.list} */
  list(q: ListOptions, _call?: Call): Promise<LogList> {
    return localList(this.#env, q);
  }

  /** {@inheritDoc LogBackend.tail} */
  tail(q: TailQuery, call?: Call): Promise<TailAnswer> {
    return localTail(this.#env, q, call);
  }

  /** {@inheritDoc LogBackend.search} */
  search(q: SearchQuery, call?: Call): Promise<SearchAnswer> {
    return localSearch(this.#env, q, call);
  }

  /** {@inheritDoc LogBackend.levels} */
  levels(q: LevelsQuery, call?: Call): Promise<LevelsAnswer> {
    return localLevels(this.#env, q, call);
  }

  /** {@inheritDoc LogBackend.patterns} */
  patterns(q: PatternsQuery, call?: Call): Promise<PatternsAnswer> {
    return localPatterns(this.#env, q, call);
  }

  /** {@inheritDoc LogBackend.explain} */
  explain(e: unknown, names: readonly (string | undefined)[]): Promise<unknown> {
    return withClosestNames(this.#env.source, names, e);
  }
}
