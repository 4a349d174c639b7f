/**
 * The closest names of a log that was not found (issue #24), for the local backend's
 * `LogBackend.explain` (`../backend.ts`).
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import { printable } from "../../guard/printable.ts";
import { isGlob } from "../glob.ts";
import { closestLogNames } from "../matching_logs.ts";
import type { LogSource } from "../log_types.ts";

/**
 * A `not_found` for a log named outright (`file`, `baseline_file`), with the closest log names added
 * (issue #24: `log_tail file=app.lgo` named none, where a glob that matches nothing does); any other
 * error as it was. The names come from the listing (`source/matching_logs.ts` `closestLogNames`, at most
 * 2 s of it), and each is named only if it opens now as a log (`LogSource.open`, confined as reading is).
 *
 * @param source The local log source.
 * @param names The names the call gave outright (`file`, `baseline_file`), in that order.
 * @param e What the tool threw.
 * @returns The error to throw.
 */
export async function withClosestNames(
  source: LogSource,
  names: readonly (string | undefined)[],
  e: unknown,
): Promise<unknown> {
  if (!(e instanceof ToolError) || e.kind !== "not_found") return e;
  for (const name of names) {
    if (
      typeof name !== "string" || isGlob(name) || !e.message.startsWith(`log ${printable(name)} not found`)
    ) {
      continue;
    }
    let near: string[] = [];
    try {
      near = (await closestLogNames(source, name)).filter((n) => n !== name);
    } catch {
      // a name the glob rules cannot take: no names to add
    }
    // Each name only if it opens as a log now, confined as reading is: a listing walked while a folder
    // was swapped (by logpeek's own user: a known limit of listing) must not name what lies outside.
    const opens: string[] = [];
    for (const n of near) {
      try {
        (await source.open(n)).close();
        opens.push(n);
      } catch {
        // gone, refused or outside: not named
      }
    }
    near = opens;
    if (near.length === 0) return e;
    return new ToolError(
      "not_found",
      `${e.message}; the closest log names: ${near.map(printable).join(", ")}`,
    );
  }
  return e;
}
