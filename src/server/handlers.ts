/**
 * The tools by name, and an in-process dispatcher over them. The tool worker uses it to run calls
 * inside its narrowed permissions; without the worker (`--unstable-worker-options` missing), the
 * server uses it directly and says so on stderr.
 *
 * @module
 */

import { createHmac } from "node:crypto";
import { dirname } from "node:path";
import { guarded, type ToolResult } from "../tools/outcome.ts";
import { cursorKey } from "../state/state_dir.ts";
import { localSource } from "../source/local/local_source.ts";
import { ClickHouseBackend, clickHouseTable } from "../source/clickhouse/mod.ts";
import { LocalBackend } from "../source/local/backend.ts";
import type { ClickHouseTarget } from "../source/clickhouse/target.ts";
import { MAX_NAME, type Root } from "../source/local/roots.ts";
import type { CallContext, Dispatch, ToolContext } from "../tools/deps.ts";
import type { PatternTester } from "../read/pattern_offload.ts";
import { logFiles } from "../tools/log_files.ts";
import { logLevels } from "../tools/log_levels.ts";
import { logPatterns } from "../tools/log_patterns.ts";
import { logSearch } from "../tools/log_search.ts";
import { logTail } from "../tools/log_tail.ts";
import { readArtifact } from "../tools/read_artifact.ts";

// deno-lint-ignore no-explicit-any
type Handler = (ctx: ToolContext, args: any, call?: CallContext) => Promise<ToolResult>;

/** Every tool logpeek serves, by name. */
export const HANDLERS: Readonly<Record<string, Handler>> = {
  log_files: logFiles,
  log_tail: logTail,
  log_search: logSearch,
  log_levels: logLevels,
  log_patterns: logPatterns,
  read_artifact: readArtifact,
};

/**
 * Why a call's `file` or `baseline_file` is refused before any work, or null: longer than
 * {@linkcode MAX_NAME} (4,096) characters, which no name of a log is (`source/local/roots.ts` `resolveLog`
 * refuses it too, with the same words) and no glob need be (`log_files` takes a glob of as many,
 * `MAX_GLOB`). Issue #22, item 6: a 7 MiB `baseline_file` was hashed and tested for glob characters
 * several times before it was refused (71 MiB over idle in worker mode), and a 7 MiB glob held the server
 * past the client's 60 s timeout.
 *
 * @param args The call's arguments (validated by the tool's schema).
 * @returns `invalid_path: …` as the tool's own refusal says it, or null.
 */
export function longName(args: Record<string, unknown>): string | null {
  for (const key of ["file", "baseline_file"]) {
    const v = args[key];
    if (typeof v === "string" && v.length > MAX_NAME) {
      return `invalid_path: the ${
        key === "file" ? "file" : "baseline_file"
      } name is ${v.length} characters long ` +
        `(a name or a glob takes at most ${MAX_NAME})`;
    }
  }
  return null;
}

/**
 * A dispatcher that runs tools in this thread, each call guarded (expected failures become `isError`
 * results; unexpected ones a generic error with an id, the stack on stderr).
 *
 * The cursor key, when not given, is read (or made) once here, where the tools run — in the tool
 * worker too, which may read and write the state directory — from the state directory the artifact
 * store lives in (`<state>/artifacts`), or made for this process when there is none.
 *
 * @param given Where and how the tools run: the roots (served as a local log source) or a ClickHouse
 *   root (issue #14), limits, artifacts.
 */
export function localDispatch(
  given: Omit<ToolContext, "cursorKey" | "backend"> & {
    roots: Root[];
    clickhouse?: ClickHouseTarget;
    cursorKey?: Uint8Array;
    patterns?: PatternTester;
    clock?: () => number;
  },
): Dispatch {
  const { roots, clickhouse, ...rest } = given;
  const key = given.cursorKey ??
    cursorKey(given.artifacts ? dirname(given.artifacts.dir) : null, given.stderr).key;
  // A cursor is signed for the roots (or the table) it was made over: one made by a server of other
  // roots that shares the state folder is not this one's (invalid_cursor, not a "rotated" file).
  const scope = clickhouse ? `table ${clickhouse.shown}` : `roots ${roots.map((r) => r.path).join("\0")}`;
  const env = { ...rest, cursorKey: createHmac("sha256", key).update(`logpeek cursors: ${scope}`).digest() };
  // A table's tie-breaker is salted with a value derived from the cursor key: stable across pages and
  // restarts (as cursors are), unknown to the client.
  const backend = clickhouse
    ? new ClickHouseBackend(
      clickHouseTable(
        clickhouse,
        createHmac("sha256", key).update("logpeek table order").digest("hex").slice(0, 32),
      ),
      env,
    )
    : new LocalBackend(localSource(roots), env, roots.map((r) => r.path).join(", "));
  const ctx: ToolContext = {
    limits: env.limits,
    stderr: env.stderr,
    artifacts: env.artifacts,
    artifactsOff: env.artifactsOff,
    redact: env.redact,
    cursorKey: env.cursorKey,
    backend,
  };
  return (tool, args, call) => {
    const long = clickhouse ? null : longName(args);
    if (long) return Promise.resolve({ content: [{ type: "text", text: long }], isError: true });
    const handler = HANDLERS[tool];
    const h = handler &&
      guarded(tool, ctx.stderr, async (a: Record<string, unknown>) => {
        try {
          return await handler(ctx, a, call);
        } catch (e) {
          throw await ctx.backend.explain(e, [a.file, a.baseline_file] as (string | undefined)[]);
        }
      });
    if (!h) {
      return Promise.resolve({
        content: [{ type: "text", text: `invalid_call: no tool ${tool}` }],
        isError: true,
      });
    }
    return h(args);
  };
}
