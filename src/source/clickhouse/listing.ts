/**
 * The logs of a ClickHouse table: its distinct source values (each one log, `<label>/<source>`), listed
 * with their row counts and last times, and the sources a name or a glob given to a tool names. A source
 * whose value holds a secret, or is not valid UTF-8, is not served (`names.ts`).
 *
 * Permission: `--allow-net=HOST:PORT`.
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import { printable } from "../../guard/printable.ts";
import { redactLine } from "../../guard/redact.ts";
import { globMatcher, isGlob } from "../glob.ts";
import type { ListOptions, LogEntry, LogList } from "../log_types.ts";
import { closestNames } from "../matching_logs.ts";
import { byteLimit, type QueryScope, secondsLeft, type TableDb } from "./columns.ts";
import { runQuery } from "./http.ts";
import { holdsSecret, literalGlob, NOT_UTF8, SECRET_NAME, type SourceName, sourceName } from "./names.ts";
import { sqlString } from "./sql.ts";

/** The most distinct sources a listing holds; past it the listing says it is not complete. */
export const MAX_SOURCES = 100_000;

/** How long a listing of the sources is reused to resolve names, in ms. */
const SOURCES_TTL_MS = 5000;

/** The sources last listed (to resolve names without listing again within {@linkcode SOURCES_TTL_MS}). */
export interface SourcesSeen {
  /** When (`performance.now()` ms). */
  at: number;
  names: SourceName[];
  /** Whether every source was listed (at most {@linkcode MAX_SOURCES}). */
  complete: boolean;
}

/** A listed source: its name, rows and last time key (as text). */
type SourceRow = SourceName & { n: string; t: string };

/**
 * The sources, ordered by their bytes, with row counts and last times (a listing's query). Each value
 * travels as hex, so its bytes are known exactly (18.16 writes a value's bytes into JSON as they are,
 * valid UTF-8 or not).
 *
 * @param db The table.
 * @param shown The root as shown in messages.
 * @param scope The call's deadline, bytes and cancel.
 * @param seen Set to what was listed.
 * @returns The rows and whether every source is among them.
 * @throws {ToolError} `budget_exceeded` when the query did not finish within the budget.
 */
async function listSources(
  db: TableDb,
  shown: string,
  scope: QueryScope,
  seen: (s: SourcesSeen) => void,
): Promise<{ rows: SourceRow[]; complete: boolean }> {
  const c = db.c;
  const r = await runQuery<{ x: string; n: string; t: string }>(
    db.t,
    `SELECT hex(${c.source}) AS x, count() AS n, max(${db.tk.key}) AS t FROM ${db.from} GROUP BY ${c.source} ` +
      `ORDER BY ${c.source} LIMIT ${MAX_SOURCES + 1}`,
    { seconds: secondsLeft(scope.deadline), bytes: byteLimit(scope.maxBytes) },
    scope.signal,
  );
  if (r.cut) {
    throw new ToolError(
      "budget_exceeded",
      `listing the sources of ${shown} did not finish within the budget (${
        r.cut === "time_budget" ? "LOGPEEK_SEARCH_MS" : "LOGPEEK_SEARCH_BYTES"
      }; the server read ${r.bytesRead} bytes in ${r.elapsed.toFixed(1)} s): raise it`,
    );
  }
  const complete = r.rows.length <= MAX_SOURCES;
  const rows = r.rows.slice(0, MAX_SOURCES).map((x) => ({ ...sourceName(x.x), n: x.n, t: x.t }));
  seen({ at: performance.now(), names: rows.map((x) => ({ s: x.s, utf8: x.utf8 })), complete });
  return { rows, complete };
}

/** A table's listing: where it is, what it is called, and the sources it last listed. */
export interface TableNames {
  db: TableDb;
  /** The root as shown in messages. */
  shown: string;
  /** The prefix of its logs' names (`<label>/`). */
  label: string;
  /** The last listing of the sources, or null. */
  seen: SourcesSeen | null;
  /** Keeps a listing. */
  keep(s: SourcesSeen): void;
}

/**
 * Lists the table's logs as `log_files` does over files: by name or newest first, a glob, a page after a
 * key. As over files, a listing has a time budget, not a byte budget.
 *
 * @param tn The table.
 * @param opts What to list.
 * @param deadline The call's deadline (`performance.now()` ms).
 * @returns The listing; `complete` false past {@linkcode MAX_SOURCES} sources or past the page.
 * @throws {ToolError} as {@linkcode listSources}.
 */
export async function listTableLogs(tn: TableNames, opts: ListOptions, deadline: number): Promise<LogList> {
  const { rows, complete } = await listSources(tn.db, tn.shown, { deadline, maxBytes: Infinity }, tn.keep);
  const match = opts.glob !== undefined ? globMatcher(opts.glob) : () => true;
  const byName = (a: LogEntry, b: LogEntry) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  const newest = (opts.sort ?? "name") === "modified";
  let entries = entriesOf(tn, rows).filter((e) => match(e.file));
  entries.sort(newest ? (a, b) => (b.modified_ms! - a.modified_ms!) || byName(a, b) : byName);
  if (opts.after) {
    const k = opts.after;
    const i = entries.findIndex((e) =>
      newest
        ? (e.modified_ms! < (k.modified_ms ?? Infinity) ||
          (e.modified_ms === k.modified_ms && e.file > k.file))
        : e.file > k.file
    );
    entries = i < 0 ? [] : entries.slice(i);
  }
  const more = entries.length > opts.limit;
  const files = entries.slice(0, opts.limit);
  const last = files.at(-1);
  return {
    files,
    complete: complete && !more,
    unreadable: complete
      ? []
      : [`${tn.label}/…: more than ${MAX_SOURCES} sources; only the first are listed`],
    not_listed: more ? entries.length - files.length : 0,
    next: more && last ? { file: last.file, modified_ms: last.modified_ms } : null,
  };
}

/**
 * The listed sources as entries. Sources whose masked names are equal are one entry (rows summed, the
 * latest time): a listing's cursor holds a name, and their own order would tell how the hidden values
 * compare.
 */
function entriesOf(tn: TableNames, rows: SourceRow[]): LogEntry[] {
  const byName = new Map<string, LogEntry>();
  for (const x of rows) {
    const ms = Number(x.t) * tn.db.tk.unitMs;
    const secret = holdsSecret(x.s);
    const why = secret ? SECRET_NAME : x.utf8 ? null : NOT_UTF8;
    const e: LogEntry = {
      file: `${tn.label}/${secret ? redactLine(x.s).text : x.s}`,
      size_bytes: null,
      rows: Number(x.n),
      modified: new Date(ms).toISOString(),
      modified_ms: ms,
      format: "clickhouse",
      unsupported: null,
      compression: null,
      readable: why === null,
      reason: why === null ? null : `invalid_argument: ${why}`,
    };
    const seen = byName.get(e.file);
    if (!seen) byName.set(e.file, e);
    else {
      seen.rows = (seen.rows ?? 0) + (e.rows ?? 0);
      if (e.modified_ms! > seen.modified_ms!) {
        seen.modified_ms = e.modified_ms;
        seen.modified = e.modified;
      }
    }
  }
  return [...byName.values()];
}

/**
 * The sources a tool's `file` names: one log's name (one row of it is enough to know it exists), or a
 * glob over the listed names. Naming a log is not reading it: these queries have the call's time, not
 * its byte budget.
 *
 * @param tn The table.
 * @param file The name or glob given.
 * @param deadline The call's deadline (`performance.now()` ms).
 * @returns The source values, and whether they are every source served (a glob over all: no list sent).
 * @throws {ToolError} `invalid_argument` for a name that holds a secret or names a source not in UTF-8,
 *   `invalid_pattern` for a malformed glob, `not_found` (with the closest names) when nothing matches.
 */
export async function tableSources(
  tn: TableNames,
  file: string,
  deadline: number,
): Promise<{ names: string[]; all: boolean }> {
  if (holdsSecret(file)) {
    // The same answer whether such a log exists or not: no oracle for a guessed secret.
    throw new ToolError("invalid_argument", `${SECRET_NAME} (asked: ${printable(redactLine(file).text)})`);
  }
  const prefix = `${tn.label}/`;
  const glob = isGlob(file);
  const rest = file.startsWith(prefix) ? file.slice(prefix.length) : null;
  if (!glob && rest !== null) {
    const one = await runQuery<{ x: number }>(
      tn.db.t,
      `SELECT 1 AS x FROM ${tn.db.from} WHERE ${tn.db.c.source} = ${sqlString(rest)} LIMIT 1`,
      { seconds: secondsLeft(deadline), bytes: null },
    );
    if (one.rows.length) return { names: [rest], all: false };
  }
  const fresh = tn.seen && performance.now() - tn.seen.at < SOURCES_TTL_MS;
  const listed = fresh
    ? tn.seen!.names
    : (await listSources(tn.db, tn.shown, { deadline, maxBytes: Infinity }, tn.keep)).rows;
  // A source whose value holds a secret, or is not UTF-8, is not served (its name would show the secret;
  // no name can say its bytes): never matched, never suggested, and a glob over it is not "every source".
  const names = listed.filter((x) => x.utf8 && !holdsSecret(x.s)).map((x) => x.s);
  if (rest !== null && listed.some((x) => !x.utf8 && x.s === rest)) {
    throw new ToolError("invalid_argument", `${NOT_UTF8} (asked: ${printable(file)})`);
  }
  // As over files, a name that is a log's is that log, even when it holds a glob's characters (`a*b`).
  if (glob && rest !== null && names.includes(rest)) return { names: [rest], all: false };
  const all = names.map((s) => prefix + s);
  if (glob) {
    const hit = all.filter(globOf(file));
    const complete = (tn.seen?.complete ?? false) && names.length === listed.length;
    if (hit.length) {
      return { names: hit.map((n) => n.slice(prefix.length)), all: complete && hit.length === all.length };
    }
  }
  // A name that is no glob is ranked as itself: its `\`, `*`… are no glob syntax (`inj\` ends in one).
  const near = closestNames(glob ? file : literalGlob(file), all, 5);
  throw new ToolError(
    "not_found",
    `no log ${glob ? "matches " : ""}${JSON.stringify(file)} in ${tn.shown} (its logs are ` +
      `${prefix}<${tn.db.t.columns.source}>)` +
      (near.length ? `; the closest: ${near.map(printable).join(", ")}` : "") + "; log_files lists them",
  );
}

/** A glob's matcher; a malformed glob is `invalid_pattern`. */
function globOf(file: string): (name: string) => boolean {
  try {
    return globMatcher(file);
  } catch (e) {
    if (e instanceof TypeError || e instanceof RangeError) {
      throw new ToolError("invalid_pattern", `the glob '${printable(file)}' is malformed: ${e.message}`);
    }
    throw e;
  }
}
