/**
 * What every call over a table shares (issue #14): how much of a row's body is fetched, the scope of a
 * call (the logs `file` names, level, window, budgets), and what every answer says about line numbers.
 *
 * @module
 */

import { formatInstant } from "../../read/instant.ts";
import type { Level } from "../../read/level.ts";
import { resolveSpan } from "../../read/time_span.ts";
import type { BackendEnv, Call } from "../backend.ts";
import type { LogTable, TableScope } from "./table_types.ts";

/** The most bytes of a row's body fetched: enough for `LOGPEEK_MAX_LINE` characters and one more byte. */
export function bodyBytes(maxLine: number): number {
  return Math.min(maxLine * 4 + 1, PATTERN_BYTES);
}

/**
 * The most bytes of a body a pattern is tested on, and the most of it fetched (64 KiB, as a pattern is
 * tested on a file's line): a larger `LOGPEEK_MAX_LINE` shows no more of a row than this.
 */
export const PATTERN_BYTES = 65536;

/** What every table answer says about line numbers. */
export const NO_LINE_NUMBERS = "a table has no line numbers (-)";

/** The scope of a call over a table: the logs `file` names, level, window, budgets. */
export async function scopeOf(
  env: BackendEnv,
  table: LogTable,
  args: { file: string; level?: Level; since?: string; until?: string },
  budget: { ms: number; bytes: number },
  t: { t0?: number | null; t1?: number | null } | undefined,
  call?: Call,
): Promise<{ scope: TableScope; window: Record<string, unknown>; glob: boolean; names: string[] }> {
  const deadline = performance.now() + budget.ms;
  const span = resolveSpan(args, env.limits.tz, t && { t0: t.t0 ?? null, t1: t.t1 ?? null });
  const named = await table.sources(args.file, { deadline, maxBytes: budget.bytes });
  const zone = env.limits.tz;
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
