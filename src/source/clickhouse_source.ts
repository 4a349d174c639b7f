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
 *   have cut (`clickhouse_http.ts` `cut`) is not used at all — `break` stops at block boundaries in an
 *   order logpeek cannot know, so its rows are no prefix of the order — and the next page covers the same
 *   rows in half the time span ({@linkcode TableResume}); a whole query doubles the span. A budget is thus
 *   honoured to within a second and one block per server thread (`break` is checked after each block, and
 *   each thread ends the one it reads; a block is at most `BLOCK_ROWS`, 8,192 rows, `clickhouse_http.ts`),
 *   and every page is exact.
 * - **Levels.** A level is chosen on the server by the stored texts that fold to it (`lower(level) IN
 *   (…)`, the words of `read/level.ts` `levelNames`); UNKNOWN is every other text.
 *
 * Permission: `--allow-net=HOST:PORT`.
 *
 * @module
 */

import { ToolError } from "../core/errors.ts";
import { printable } from "../guard/printable.ts";
import { redactLine } from "../guard/redact.ts";
import { levelNames, LEVELS } from "../read/level.ts";
import { AnswerTooLargeError, runQuery } from "./clickhouse_http.ts";
import { sqlIdent, sqlInt, sqlString } from "./clickhouse_sql.ts";
import type { ClickHouseTarget } from "./clickhouse_target.ts";
import { globMatcher, isGlob } from "./glob.ts";
import type {
  ListOptions,
  LogEntry,
  LogList,
  LogSource,
  LogTable,
  TablePage,
  TablePosition,
  TableResume,
  TableRow,
  TableScope,
} from "./log_source.ts";
import { closestNames } from "./matching_logs.ts";

/** The most distinct sources a listing holds; past it the listing says it is not complete. */
export const MAX_SOURCES = 100_000;

/** The most characters of a list of sources in one query (ClickHouse's max_query_size is 256 KiB). */
const MAX_SOURCE_LIST = 200_000;

/** Why a log whose source value holds a secret is not served. */
const SECRET_NAME =
  "the log's name (its source value) holds a secret, masked here; logpeek does not serve it";

/**
 * Why a log whose source value is not valid UTF-8 is not served: a name given to logpeek is Unicode text,
 * so no argument can say those bytes (and a literal of the name as shown, U+FFFD in place of each bad
 * byte, would match other rows or none).
 */
const NOT_UTF8 =
  "the log's name (its source value) is not valid UTF-8 (each bad byte shown here as U+FFFD): " +
  "no name logpeek is given can say it exactly, so logpeek does not serve it";

/** A source value as listed: its text, and whether its bytes are valid UTF-8 (else U+FFFD for bad bytes). */
interface SourceName {
  s: string;
  utf8: boolean;
}

/** The bytes of a hex text (two digits a byte, as ClickHouse's `hex` writes them). */
function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** A source value from its hex: its text exactly (a BOM kept), and whether it is valid UTF-8. */
function sourceName(hex: string): SourceName {
  const bytes = hexBytes(hex);
  try {
    return { s: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), utf8: true };
  } catch {
    return { s: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), utf8: false };
  }
}

/** A log name as a glob that matches only itself (each glob character escaped), to rank names near it. */
function literalGlob(name: string): string {
  return name.replace(/[\\*?[\]{}]/g, "\\$&");
}

/** Whether a source value (or a name asked for) holds what logpeek masks as a secret. */
function holdsSecret(name: string): boolean {
  return redactLine(name).count > 0;
}

/** How long a listing of the sources is reused to resolve names, in ms. */
const SOURCES_TTL_MS = 5000;

/** The time column's kind, learned from the server once. */
interface TimeKind {
  /** Milliseconds per unit of the time key. */
  unitMs: number;
  /** The key of the time column, as an integer expression. */
  key: string;
  /** A value of the time column at a key, as an expression. */
  at: (k: number) => string;
  /**
   * The keys the column can hold (`DateTime`: 0 .. 2^32 − 1 seconds; 18.16's `toDateTime` wraps a number
   * outside them), or null when not bounded here.
   */
  bounds: [number, number] | null;
}

/** About the most bytes of rows one search query asks for (bodies travel as hex: twice their bytes). */
const ANSWER_BYTES = 32 * 1024 * 1024;

/** The most seconds a `DateTime` holds (2106-02-07T06:28:15Z). */
const DATETIME_MAX = 2 ** 32 - 1;

/**
 * The {@linkcode LogSource} over a ClickHouse table: `list` and `open` refuse (the tools ask `table`).
 *
 * @param target The root, from `parseClickHouseRoot` (`clickhouse_target.ts`).
 * @param salt Hashed before each row's values in the tie-breaker (secret to the client: the order of rows
 *   at one time, and a position's hash, then tell nothing about a row's raw text); stable across pages
 *   (derive it from the cursor key).
 * @returns The source.
 */
export function clickHouseSource(target: ClickHouseTarget, salt = ""): LogSource {
  const table = new ClickHouseTable(target, salt);
  const refuse = (): never => {
    throw new ToolError("invalid_argument", `${target.shown} is a table: its tools ask it, not its bytes`);
  };
  return { table, list: refuse, open: refuse };
}

/** A ClickHouse table as a {@linkcode LogTable}. */
class ClickHouseTable implements LogTable {
  readonly shown: string;
  readonly label: string;
  #t: ClickHouseTarget;
  #time: TimeKind | null = null;
  #sources: { at: number; names: SourceName[]; complete: boolean } | null = null;

  #salt: string;

  constructor(target: ClickHouseTarget, salt: string) {
    this.#salt = salt;
    this.#t = target;
    this.shown = target.shown;
    this.label = target.label;
  }

  get #from(): string {
    return `${sqlIdent(this.#t.database)}.${sqlIdent(this.#t.table)}`;
  }
  /** The columns as expressions: a Nullable text column reads as '' where it is null (known once asked). */
  get #c() {
    const c = this.#t.columns;
    const text = (name: string) =>
      this.#nullable.has(name) ? `ifNull(${sqlIdent(name)}, '')` : sqlIdent(name);
    return { time: sqlIdent(c.time), body: text(c.body), level: text(c.level), source: text(c.source) };
  }
  #nullable = new Set<string>();

  /** The time column's kind (`DateTime` or `DateTime64(p)`), asked once. */
  async #timeKind(scope: { deadline: number; maxBytes: number; signal?: AbortSignal }): Promise<TimeKind> {
    if (this.#time) return this.#time;
    const r = await runQuery<{ name: string; type: string }>(
      this.#t,
      `SELECT name, type FROM system.columns WHERE database = ${sqlString(this.#t.database)} AND table = ${
        sqlString(this.#t.table)
      }`,
      { seconds: secondsLeft(scope.deadline), bytes: null },
      scope.signal,
    );
    if (r.rows.length === 0) {
      throw new ToolError(
        "not_found",
        `ClickHouse at ${this.#t.netPermission} has no table ${this.#t.database}.${this.#t.table} (or the user ` +
          `'${this.#t.user}' may not see it): check the root's DATABASE.TABLE`,
      );
    }
    const types = new Map(r.rows.map((x) => [x.name, x.type]));
    const c = this.#t.columns;
    const missing = (["time", "body", "level", "source"] as const).filter((k) => !types.has(c[k]));
    if (missing.length) {
      throw new ToolError(
        "source_error",
        `the table ${this.#t.database}.${this.#t.table} has no column ${
          missing.map((k) => `${c[k]} (${k})`).join(", ")
        }; its columns are ${[...types.keys()].slice(0, 30).join(", ")}: name them with ` +
          "LOGPEEK_CLICKHOUSE_COLUMNS=time=…,body=…,level=…,source=…",
      );
    }
    for (const [name, type] of types) {
      if (/^(LowCardinality\()?Nullable\(/.test(type)) this.#nullable.add(name);
    }
    if (this.#nullable.has(c.time)) {
      throw new ToolError(
        "source_error",
        `the time column ${c.time} of ${this.#t.database}.${this.#t.table} is Nullable: logpeek orders and ` +
          "pages rows by time, so every row needs one; name a column that always has one with " +
          "LOGPEEK_CLICKHOUSE_COLUMNS=time=…",
      );
    }
    const tt = types.get(c.time)!.replace(/^Nullable\((.*)\)$/, "$1").replace(
      /^LowCardinality\((.*)\)$/,
      "$1",
    );
    const time = this.#c.time;
    if (/^DateTime(\(|$)/.test(tt)) {
      this.#time = {
        unitMs: 1000,
        key: `toUInt32(${time})`,
        at: (k) => `toDateTime(${sqlInt(Math.min(DATETIME_MAX, Math.max(0, k)))})`,
        bounds: [0, DATETIME_MAX],
      };
    } else if (/^DateTime64/.test(tt)) {
      // Newer servers (the OTel exporter's DateTime64(9)): keyed by milliseconds. Not tested here (18.16).
      this.#time = {
        unitMs: 1,
        key: `toUnixTimestamp64Milli(${time})`,
        at: (k) => `fromUnixTimestamp64Milli(toInt64(${sqlInt(k)}))`,
        // What DateTime64 holds: 1900-01-01 .. 2299-12-31.
        bounds: [Date.UTC(1900, 0, 1), Date.UTC(2299, 11, 31, 23, 59, 59, 999)],
      };
    } else {
      throw new ToolError(
        "source_error",
        `the time column ${c.time} of ${this.#t.database}.${this.#t.table} is ${tt}, not DateTime or DateTime64: ` +
          "name another with LOGPEEK_CLICKHOUSE_COLUMNS=time=…",
      );
    }
    return this.#time;
  }

  /** The WHERE conditions of a scope (sources, level, window), as SQL. */
  #where(scope: TableScope, tk: TimeKind): string[] {
    const c = this.#c;
    const out: string[] = ["1"]; // never an empty WHERE
    if (scope.sources !== null) {
      const list = scope.sources.map(sqlString).join(", ");
      if (list.length > MAX_SOURCE_LIST) {
        throw new ToolError(
          "invalid_argument",
          `the glob names ${scope.sources.length} logs, too many to list in one query: narrow it, or use a glob ` +
            "that matches every log (then no list is sent)",
        );
      }
      out.push(`${c.source} IN (${list})`);
    }
    if (scope.level !== undefined) {
      const code = LEVELS.indexOf(scope.level as typeof LEVELS[number]);
      if (code < 0) throw new RangeError(`no level ${scope.level}`);
      const names = levelNames();
      if (LEVELS[code] === "UNKNOWN") {
        out.push(`lower(${c.level}) NOT IN (${names.flat().map(sqlString).join(", ")})`);
      } else {
        out.push(
          names[code].length ? `lower(${c.level}) IN (${names[code].map(sqlString).join(", ")})` : "0",
        );
      }
    }
    const w = windowKeys(scope, tk);
    if (w === "empty") out.push("0");
    else {
      if (w.lo !== null) out.push(`${c.time} >= ${tk.at(w.lo)}`);
      if (w.hi !== null) out.push(`${c.time} <= ${tk.at(w.hi)}`);
    }
    return out;
  }

  /**
   * The sources, ordered by their bytes, with row counts and last times (a listing's query). Each value
   * travels as hex, so its bytes are known exactly (18.16 writes a value's bytes into JSON as they are,
   * valid UTF-8 or not).
   */
  async #listSources(
    scope: { deadline: number; maxBytes: number; signal?: AbortSignal },
  ): Promise<{ rows: (SourceName & { n: string; t: string })[]; complete: boolean }> {
    const tk = await this.#timeKind(scope);
    const c = this.#c;
    const r = await runQuery<{ x: string; n: string; t: string }>(
      this.#t,
      `SELECT hex(${c.source}) AS x, count() AS n, max(${tk.key}) AS t FROM ${this.#from} GROUP BY ${c.source} ` +
        `ORDER BY ${c.source} LIMIT ${MAX_SOURCES + 1}`,
      { seconds: secondsLeft(scope.deadline), bytes: byteLimit(scope.maxBytes) },
      scope.signal,
    );
    if (r.cut) {
      throw new ToolError(
        "budget_exceeded",
        `listing the sources of ${this.shown} did not finish within the budget (${
          r.cut === "time_budget" ? "LOGPEEK_SEARCH_MS" : "LOGPEEK_SEARCH_BYTES"
        }; the server read ${r.bytesRead} bytes in ${r.elapsed.toFixed(1)} s): raise it`,
      );
    }
    const complete = r.rows.length <= MAX_SOURCES;
    const rows = r.rows.slice(0, MAX_SOURCES).map((x) => ({ ...sourceName(x.x), n: x.n, t: x.t }));
    this.#sources = { at: performance.now(), names: rows.map((x) => ({ s: x.s, utf8: x.utf8 })), complete };
    return { rows, complete };
  }

  async list(
    opts: ListOptions,
    scope: { deadline: number; maxBytes: number; budgetMs: number },
  ): Promise<LogList> {
    const tk = await this.#timeKind(scope);
    if (scope.maxBytes <= 0 || scope.budgetMs <= 0) {
      throw new ToolError(
        "budget_exceeded",
        `the budget (LOGPEEK_SEARCH_MS, LOGPEEK_SEARCH_BYTES) left nothing for listing the sources of ${this.shown}`,
      );
    }
    // As over files, a listing has a time budget, not a byte budget.
    const { rows, complete } = await this.#listSources({ deadline: scope.deadline, maxBytes: Infinity });
    const match = opts.glob !== undefined ? globMatcher(opts.glob) : () => true;
    const prefix = `${this.label}/`;
    let entries: LogEntry[] = rows.map((x) => {
      const ms = Number(x.t) * tk.unitMs;
      const secret = holdsSecret(x.s);
      const why = secret ? SECRET_NAME : x.utf8 ? null : NOT_UTF8;
      return {
        file: prefix + (secret ? redactLine(x.s).text : x.s),
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
    });
    // Sources whose masked names are equal are one entry (rows summed, the latest time): a listing's
    // cursor holds a name, and their own order would tell how the hidden values compare.
    const byName = new Map<string, LogEntry>();
    for (const e of entries) {
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
    entries = [...byName.values()].filter((e) => match(e.file));
    if ((opts.sort ?? "name") === "modified") {
      entries.sort((a, b) =>
        (b.modified_ms! - a.modified_ms!) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)
      );
    } else entries.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    if (opts.after) {
      const k = opts.after;
      const i = entries.findIndex((e) =>
        (opts.sort ?? "name") === "modified"
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
        : [`${this.label}/…: more than ${MAX_SOURCES} sources; only the first are listed`],
      not_listed: more ? entries.length - files.length : 0,
      next: more && last ? { file: last.file, modified_ms: last.modified_ms } : null,
    };
  }

  async sources(
    file: string,
    scope: { deadline: number; maxBytes: number },
  ): Promise<{ names: string[]; all: boolean }> {
    const prefix = `${this.label}/`;
    // Naming a log is not reading it: these queries have the call's time, not its byte budget.
    const naming = { deadline: scope.deadline, maxBytes: Infinity };
    if (holdsSecret(file)) {
      // The same answer whether such a log exists or not: no oracle for a guessed secret.
      throw new ToolError("invalid_argument", `${SECRET_NAME} (asked: ${printable(redactLine(file).text)})`);
    }
    const glob = isGlob(file);
    const rest = file.startsWith(prefix) ? file.slice(prefix.length) : null;
    if (!glob && rest !== null) {
      // One name: one row of it is enough to know it exists (the engine stops at the first).
      await this.#timeKind(naming); // the columns checked first, for a clear error
      const one = await runQuery<{ x: number }>(
        this.#t,
        `SELECT 1 AS x FROM ${this.#from} WHERE ${this.#c.source} = ${sqlString(rest)} LIMIT 1`,
        { seconds: secondsLeft(scope.deadline), bytes: null },
      );
      if (one.rows.length) return { names: [rest], all: false };
    }
    const fresh = this.#sources && performance.now() - this.#sources.at < SOURCES_TTL_MS;
    const listed = fresh ? this.#sources!.names : (await this.#listSources(naming)).rows;
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
      let match: (name: string) => boolean;
      try {
        match = globMatcher(file);
      } catch (e) {
        if (e instanceof TypeError || e instanceof RangeError) {
          throw new ToolError("invalid_pattern", `the glob '${printable(file)}' is malformed: ${e.message}`);
        }
        throw e;
      }
      const hit = all.filter(match);
      const complete = (this.#sources?.complete ?? false) && names.length === listed.length;
      if (hit.length) {
        return { names: hit.map((n) => n.slice(prefix.length)), all: complete && hit.length === all.length };
      }
    }
    // A name that is no glob is ranked as itself: its `\`, `*`… are no glob syntax (`inj\` ends in one).
    const near = closestNames(glob ? file : literalGlob(file), all, 5);
    throw new ToolError(
      "not_found",
      `no log ${glob ? "matches " : ""}${JSON.stringify(file)} in ${this.shown} (its logs are ` +
        `${prefix}<${this.#t.columns.source}>)` +
        (near.length ? `; the closest: ${near.map(printable).join(", ")}` : "") + "; log_files lists them",
    );
  }

  async tail(
    scope: TableScope,
    n: number,
    bodyBytes: number,
  ): Promise<{ rows: TableRow[]; scanned_bytes: number }> {
    const tk = await this.#timeKind(scope);
    if (scope.maxBytes <= 0 || scope.budgetMs <= 0) {
      throw new ToolError(
        "budget_exceeded",
        `the budget (LOGPEEK_SEARCH_MS, LOGPEEK_SEARCH_BYTES) left nothing for the tail query over ${this.shown}`,
      );
    }
    const where = this.#where(scope, tk).join(" AND ");
    const limits = () => ({ seconds: secondsLeft(scope.deadline), bytes: byteLimit(scope.maxBytes) });
    // First the time key of the n-th row from the end (only the time column is read for it), then the
    // rows from that time on: the engine sorts a few rows, not the whole log.
    const b = await runQuery<{ k: string | null }>(
      this.#t,
      `SELECT min(k) AS k, count() AS c FROM (SELECT ${tk.key} AS k FROM ${this.#from} WHERE ${where} ` +
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
      this.#t,
      `${this.#select(tk, bodyBytes)} WHERE ${where} AND ${this.#c.time} >= ${tk.at(from)} ` +
        `ORDER BY lp_t DESC, lp_h DESC, lp_s DESC, lp_l DESC, ${this.#c.body} DESC LIMIT ${sqlInt(n)}`,
      limits(),
      scope.signal,
    );
    if (q.cut) throw budget(q.cut, b.bytesRead + q.bytesRead);
    return { rows: q.rows.reverse().map((r) => toRow(r, tk)), scanned_bytes: b.bytesRead + q.bytesRead };
  }

  /** The SELECT list and FROM of a row query. */
  #select(tk: TimeKind, bodyBytes: number): string {
    const c = this.#c;
    return `SELECT ${tk.key} AS lp_t, cityHash64(${
      sqlString(this.#salt)
    }, ${c.source}, ${c.level}, ${c.body}) AS lp_h, ` +
      `${c.source} AS lp_s, ${c.level} AS lp_l, hex(substring(${c.body}, 1, ${
        sqlInt(bodyBytes)
      })) AS lp_b, ` +
      `length(${c.body}) AS lp_n FROM ${this.#from}`;
  }

  /** The condition "after the position" (rows at its key are all kept: the caller skips `d` of them). */
  #after(at: TablePosition, tk: TimeKind): string[] {
    if (at.t === null) return [];
    // The column's own bound first: the engine skips the parts and granules before it.
    const from = `${this.#c.time} >= ${tk.at(at.t)}`;
    if (at.h === null) return [from];
    return [from, `(lp_t > ${sqlInt(at.t)} OR (lp_t = ${sqlInt(at.t)} AND lp_h >= ${sqlInt(at.h)}))`];
  }

  /** The end of the scope, as an inclusive time key; null when open. */
  #endKey(scope: TableScope, tk: TimeKind): number | null {
    const w = windowKeys(scope, tk);
    return w === "empty" ? null : w.hi;
  }

  /** The first and last time keys of the scope's rows at or after `from` (for a span), or null when none. */
  /**
   * The first and last time keys and the count of the scope's rows with keys in [from, to] (each bound
   * open when null); null when there are none, or the query did not finish.
   */
  async #range(
    scope: TableScope,
    tk: TimeKind,
    from: number | null,
    to: number | null,
  ): Promise<[number, number, number] | "empty" | null> {
    const where = this.#where(scope, tk);
    if (from !== null) where.push(`${this.#c.time} >= ${tk.at(from)}`);
    if (to !== null) where.push(`${this.#c.time} <= ${tk.at(to)}`);
    const r = await runQuery<{ a: string; b: string; c: string }>(
      this.#t,
      `SELECT min(${tk.key}) AS a, max(${tk.key}) AS b, count() AS c FROM ${this.#from} WHERE ${
        where.join(" AND ")
      }`,
      { seconds: Math.max(1, secondsLeft(scope.deadline)), bytes: null },
      scope.signal,
    );
    if (r.cut || !r.rows.length) return null;
    if (Number(r.rows[0].c) === 0) return "empty";
    return [Number(r.rows[0].a), Number(r.rows[0].b), Number(r.rows[0].c)];
  }

  /**
   * Where the next page resumes after a query from `at` over `span` was cut, having read `rowsRead` rows:
   * the same rows in a span shortened in proportion to what the query read of them (at most half; at
   * least 0: one instant). An open span is first closed at the scope's end or its last row, and an open
   * start moved to the scope's first row.
   */
  async #halve(
    scope: TableScope,
    tk: TimeKind,
    at: TablePosition,
    span: number | null,
    rowsRead: number,
  ): Promise<TableResume & { empty?: boolean }> {
    const start = this.#startKey(scope, tk, at);
    const end = this.#endKey(scope, tk);
    const asked = span !== null && start !== null ? start + span : end;
    const range = await this.#range(scope, tk, start, asked);
    if (range === "empty") {
      // The count (a whole query) says the cut span holds no row of the scope: it is passed, and an open
      // one ends the scope.
      return asked === null ? { at, span: null, last: null, empty: true } : {
        at: { t: asked + 1, h: null, d: 0 },
        span: span === null ? null : Math.max(1, span * 2),
        last: null,
      };
    }
    if (range === null) return { at, span: span === null ? 0 : Math.floor(span / 2), last: null };
    const lo = at.t ?? range[0];
    const hi = Math.min(asked ?? range[1], range[1]);
    // A cut query that read as many rows as the span holds was stopped by what it must read whatever the
    // span (whole granules, other sources' rows in them): a shorter span helps less, so it shrinks eightfold
    // and soon reaches one instant, which says at once when even that cannot be read (a second trial: 16
    // empty pages of halving).
    const ratio = (0.8 * rowsRead) / range[2];
    const share = ratio >= 1 ? 0.125 : Math.min(0.5, Math.max(0, ratio));
    return {
      at: at.t === null ? { t: lo, h: null, d: 0 } : at,
      span: Math.max(0, Math.floor((hi - lo) * share)),
      last: asked === null ? range[1] : null,
    };
  }

  /** The first time key of a position (its own, or the window's start). */
  #startKey(scope: TableScope, tk: TimeKind, at: TablePosition): number | null {
    const w = windowKeys(scope, tk);
    return at.t ?? (w === "empty" ? null : w.lo);
  }

  async search<T>(
    scope: TableScope,
    find: { text: string; regex: boolean; ignoreCase: boolean },
    limit: number,
    bodyBytes: number,
    resume: TableResume | null,
    keep: (row: TableRow) => T | null,
  ): Promise<TablePage<T>> {
    const tk = await this.#timeKind(scope);
    const c = this.#c;
    // A pattern is wrapped in a group: 18.16's required-literal analysis takes `LOGIN` out of `(?i)LOGIN`
    // as case-sensitive and misses rows (a trial); `(?i)(?:LOGIN)` and `(?:(?i)LOGIN)` are read right.
    const test = find.regex
      ? `match(${c.body}, ${sqlString(`${find.ignoreCase ? "(?i)" : ""}(?:${find.text})`)})`
      : find.ignoreCase
      ? `positionCaseInsensitiveUTF8(${c.body}, ${sqlString(find.text)}) > 0`
      : `position(${c.body}, ${sqlString(find.text)}) > 0`;
    let grow = 1;
    let rowBytes: number | null = null; // the mean size of a row in the last answer, hex body included
    return await this.#pages<T>(scope, tk, resume, async (at, hi, page, limits) => {
      // Candidates come in batches; a row the caller drops (its match was in a masked secret) is passed.
      const want = limit - page.items.length;
      // At most ~32 MiB of hex bodies an answer (a row's body is fetched up to `bodyBytes`).
      // A batch grows while the caller drops its candidates (a pattern matching many secrets would
      // otherwise re-read a span for every few dozen rows).
      // It is sized by the rows seen so far (their hex bodies); an answer that then passes the cap is asked
      // again for as many rows as the longest bodies allow.
      const worst = Math.floor(ANSWER_BYTES / (2 * bodyBytes + 128));
      const cap = rowBytes === null ? worst : Math.max(worst, Math.floor(ANSWER_BYTES / rowBytes));
      let batch = Math.min((want * 2 + 16) * grow, 10_000, cap) + 1;
      const where = [...this.#where(scope, tk), ...this.#after(at, tk), test];
      if (hi !== null) where.push(`${c.time} <= ${tk.at(hi)}`);
      // The rows equal to the position's key come first in the order; the `d` of them already passed are
      // skipped on the server (identical rows are interchangeable; others at one key are in content order).
      const skip = at.h === null ? 0 : at.d;
      const ask = (n: number) =>
        runQuery<RowJson>(
          this.#t,
          `${this.#select(tk, bodyBytes)} WHERE ${where.join(" AND ")} ` +
            `ORDER BY lp_t, lp_h, lp_s, lp_l, ${c.body} LIMIT ${sqlInt(skip)}, ${sqlInt(n)}`,
          // The other columns are read for every row, not only where the text matched (the PREWHERE
          // optimization): the bytes read, which an answer reports and a budget counts, must not depend on
          // a match the answer does not show (a pattern's inside a masked secret, a text in a source that is
          // not served or in another source's rows of the same granules: trials measured both).
          { ...limits, settings: { optimize_move_to_prewhere: "0" } },
          scope.signal,
        );
      let q;
      try {
        q = await ask(batch);
      } catch (e) {
        if (!(e instanceof AnswerTooLargeError) || batch <= worst + 1) throw e;
        batch = worst + 1;
        q = await ask(batch);
      }
      if (q.rows.length) {
        rowBytes = 256 +
          q.rows.reduce((n, r) => n + r.lp_b.length + r.lp_s.length + r.lp_l.length, 0) / q.rows.length;
      }
      if (q.cut) return { cut: q.cut, bytes: q.bytesRead, rows: q.rowsRead };
      let pos: TablePosition = { ...at };
      for (const r of q.rows) {
        const t = Number(r.lp_t);
        pos = t === pos.t && r.lp_h === pos.h ? { ...pos, d: pos.d + 1 } : { t, h: r.lp_h, d: 1 };
        const kept = keep(toRow(r, tk));
        if (kept !== null) page.items.push(kept);
        if (page.items.length >= limit) {
          return { at: pos, whole: false, rows: q.rowsRead, bytes: q.bytesRead, full: true };
        }
      }
      const whole = q.rows.length < batch;
      grow = whole ? 1 : Math.min(grow * 4, 1024);
      return { at: pos, whole, rows: q.rowsRead, bytes: q.bytesRead, full: false };
    });
  }

  async levels(scope: TableScope, resume: TableResume | null): Promise<TablePage<[string, string, number]>> {
    const tk = await this.#timeKind(scope);
    return await this.#pages<[string, string, number]>(scope, tk, resume, async (at, hi, page, limits) => {
      const where = this.#where(scope, tk);
      if (at.t !== null) where.push(`${this.#c.time} >= ${tk.at(at.t)}`);
      if (hi !== null) where.push(`${this.#c.time} <= ${tk.at(hi)}`);
      const q = await runQuery<{ lp_s: string; lp_l: string; lp_n: string }>(
        this.#t,
        `SELECT ${this.#c.source} AS lp_s, ${this.#c.level} AS lp_l, count() AS lp_n FROM ${this.#from} ` +
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

  /**
   * Runs queries over spans of the table's order from `resume` until the scope is read, `step` says
   * the page is full, or a budget ends; a cut query ends the page with a resume over half its span.
   */
  async #pages<T>(
    scope: TableScope,
    tk: TimeKind,
    resume: TableResume | null,
    step: (
      at: TablePosition,
      hi: number | null,
      page: TablePage<T>,
      limits: { seconds: number; bytes: number | null },
    ) => Promise<
      | { cut: "time_budget" | "size_budget"; bytes: number; rows: number }
      | { at: TablePosition; whole: boolean; rows: number; bytes: number; full: boolean }
    >,
  ): Promise<TablePage<T>> {
    const page: TablePage<T> = {
      items: [],
      complete: false,
      stop_reason: null,
      next: null,
      progress: true,
      scanned_rows: 0,
      scanned_bytes: 0,
      cut_queries: 0,
    };
    let at: TablePosition = resume?.at ?? { t: null, h: null, d: 0 };
    let span = resume?.span ?? null;
    // The last time key the scope had when a span was first set: a span reaching it is left open, so
    // rows written since are read too, and the page can end.
    const last = resume?.last ?? null;
    const until = this.#endKey(scope, tk);
    const end = until === null ? last : last === null ? until : Math.min(until, last);
    let whole = 0; // queries that ran to their end on this page
    let spent = 0; // bytes the server read for this page, every query counted (the byte budget's measure)
    // Whether the next query goes on inside the span of the last one: its rows and bytes are not reported
    // again (they re-read the span's granules), so what an answer reports does not depend on how many
    // candidates the caller dropped (a pattern's match inside a masked secret must leave no trace).
    let again = false;
    // What the last whole query over a closed span cost. A span doubled after it costs at most twice as
    // much (most of a small span's cost is the granules read whatever its length): a page runs the next
    // query only when what the budget has left pays for that, so it ends before a query the budget would
    // cut (whose work would be lost), and hands the next page the span a whole budget pays for.
    let cost: { bytes: number; ms: number } | null = null;
    let spanHi: number | null = null; // the end of the span being read
    let lastSpan = 0; // the span of the last whole query
    const stop = (why: TablePage<T>["stop_reason"]) => {
      page.stop_reason = why;
      page.next = { at, span, last };
      return page;
    };
    if (scope.maxBytes <= 0 || scope.budgetMs <= 0) {
      // A budget of 0: nothing is read, and a next page would not help.
      page.stop_reason = scope.maxBytes <= 0 ? "size_budget" : "time_budget";
      page.progress = false;
      return page;
    }
    for (;;) {
      if (scope.signal?.aborted) return stop("cancelled");
      const msLeft = scope.deadline - performance.now();
      const bytesLeft = scope.maxBytes - spent;
      // A query gets whole seconds: with less than one left, a page that did something stops here.
      if (whole > 0 && (msLeft < 1000 || bytesLeft <= 0)) {
        return stop(msLeft < 1000 ? "time_budget" : "size_budget");
      }
      if (whole > 0 && span !== null && cost !== null) {
        const k = cost;
        const fits = (times: number, bytes: number, ms: number) =>
          k.bytes * times <= bytes && k.ms * times <= ms * 0.8;
        if (!fits(2, bytesLeft, msLeft)) {
          if (fits(1, bytesLeft, msLeft)) span = lastSpan;
          else {
            const why = k.bytes > bytesLeft ? "size_budget" : "time_budget";
            if (!fits(2, scope.maxBytes, scope.budgetMs)) span = lastSpan;
            return stop(why);
          }
        }
      }
      const start = this.#startKey(scope, tk, at);
      if (start !== null && tk.bounds && start > tk.bounds[1]) {
        page.complete = true; // past the last time the column can hold: no row is left
        return page;
      }
      let hi = span === null || start === null ? null : start + span;
      if (hi !== null && end !== null && hi >= end) hi = null;
      // A query that goes on inside a span keeps the span's end: where spans begin and end must not depend
      // on which candidates the caller dropped.
      if (again) hi = spanHi;
      spanHi = hi;
      const began = performance.now();
      let r: Awaited<ReturnType<typeof step>>;
      try {
        r = await step(at, hi, page, {
          seconds: Math.max(1, Math.floor(msLeft / 1000)),
          bytes: byteLimit(bytesLeft),
        });
      } catch (e) {
        // The client cancelled: the request was aborted; the page ends where it was (its rows are kept).
        if (scope.signal?.aborted) return stop("cancelled");
        throw e;
      }
      // A query that goes on inside a span re-reads it: neither reported nor charged to the byte budget, so
      // neither depends on how many candidates the caller dropped (their time still counts).
      if (!again) {
        spent += r.bytes;
        page.scanned_bytes += r.bytes;
      }
      if ("cut" in r) {
        page.cut_queries++;
        page.stop_reason = r.cut;
        if (whole === 0 && page.items.length === 0 && span === 0) {
          // One instant's rows do not fit in the budget: a smaller span cannot help.
          page.progress = false;
          return page;
        }
        if (whole > 0 && span !== null) {
          // Cut by what this page had left after whole queries, not by a whole budget: the next page tries
          // the same span with its own.
          page.next = { at, span: again ? span : lastSpan, last };
          return page;
        }
        const half = await this.#halve(scope, tk, at, hi === null ? null : hi - (start ?? 0), r.rows);
        if (half.empty) {
          // The rest holds no row of the scope (a count said so): nothing was lost by the cut.
          page.stop_reason = null;
          page.complete = true;
          return page;
        }
        page.next = { at: half.at, span: half.span, last: half.last ?? last };
        return page;
      }
      whole++;
      if (!again) page.scanned_rows += r.rows;
      if (hi !== null && span !== null && !again) {
        cost = { bytes: Math.max(1, r.bytes), ms: Math.max(1, performance.now() - began) };
      }
      if (r.full) {
        at = r.at;
        return stop("limit");
      }
      if (!r.whole) {
        at = r.at; // more candidates in this span
        again = true;
        continue;
      }
      if (hi === null) {
        page.complete = true;
        return page;
      }
      at = { t: hi + 1, h: null, d: 0 };
      again = false;
      if (span !== null) {
        lastSpan = span;
        span = Math.max(1, span * 2);
      }
    }
  }
}

/** A row as the JSON format gives it. */
interface RowJson {
  lp_t: string;
  lp_h: string;
  lp_s: string;
  lp_l: string;
  lp_b: string;
  lp_n: string;
}

function toRow(r: RowJson, tk: TimeKind): TableRow {
  const body = hexBytes(r.lp_b);
  return {
    timeMs: Number(r.lp_t) * tk.unitMs,
    source: r.lp_s,
    rawLevel: r.lp_l,
    body,
    bodyBytes: Number(r.lp_n),
  };
}

/**
 * The window as inclusive time keys (since inclusive, until exclusive: a row at key k, at k·unit ms, is in
 * when since ≤ k·unit < until), each null when open; bounds the column cannot pass are left open (every row
 * is within them), and a window wholly outside them is `"empty"` (no row can be in it).
 */
function windowKeys(scope: TableScope, tk: TimeKind): { lo: number | null; hi: number | null } | "empty" {
  let lo = scope.since === null ? null : Math.ceil(scope.since / tk.unitMs);
  let hi = scope.until === null ? null : Math.ceil(scope.until / tk.unitMs) - 1;
  if (tk.bounds) {
    const [min, max] = tk.bounds;
    if ((lo !== null && lo > max) || (hi !== null && hi < min)) return "empty";
    if (lo !== null && lo <= min) lo = null;
    if (hi !== null && hi >= max) hi = null;
  }
  if (lo !== null && hi !== null && lo > hi) return "empty";
  return { lo, hi };
}

/** A byte budget as a query's limit: null (none) for an infinite one, else at least 1. */
function byteLimit(bytes: number): number | null {
  return Number.isFinite(bytes) ? Math.max(1, Math.ceil(bytes)) : null;
}

/** Whole seconds left until `deadline` (`performance.now()` ms), at least 1. */
function secondsLeft(deadline: number): number {
  return Math.max(1, Math.floor((deadline - performance.now()) / 1000));
}
