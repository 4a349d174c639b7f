/**
 * `log_files` over local files: the listing of the roots (`list_logs.ts`), and for a glob that matched
 * nothing the closest names (`matching_logs.ts`).
 *
 * @module
 */

import type { ListOptions, LogList } from "../log_types.ts";
import { closestLogNames } from "../matching_logs.ts";
import type { LocalEnv } from "./local_env.ts";

/**
 * One page of the logs under the roots; a first page of a glob that matched nothing (and left nothing
 * unlisted) carries the closest log names ({@linkcode LogList.closest}).
 *
 * @param env The local source.
 * @param q The glob, sort, limit, where to resume, the deadline.
 * @returns The page.
 * @throws {TypeError} for a malformed glob; {@linkcode ToolError} the source's errors.
 * @throws {RangeError} for a limit that is not a whole number from 1, or a glob whose braces expand too far.
 */
export async function localList(env: LocalEnv, q: ListOptions): Promise<LogList> {
  const list = await env.source.list(q);
  const first = q.after === undefined && q.resume === undefined;
  if (q.glob === undefined || !first || list.walk || list.files.length > 0 || list.not_listed > 0) {
    return list;
  }
  return { ...list, closest: await closestLogNames(env.source, q.glob) };
}
