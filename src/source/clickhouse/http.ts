/**
 * One query to ClickHouse's HTTP interface, with plain `fetch` (issue #14).
 *
 * Why not `npm:@clickhouse/client-web`: it works against 18.16 for plain queries, but its main safety
 * gain, query parameters, needs a newer server, so literals are escaped here either way
 * (`sql.ts`); what logpeek needs from an answer is the `JSON` format's `statistics`
 * (`elapsed`, `rows_read`, `bytes_read`), which tell whether a limit with overflow mode `break` cut the
 * query, and one POST with settings as URL parameters gives that with no dependency in the single-file
 * binary.
 *
 * Every query runs with `readonly=1` (the server refuses any write or setting change other than the
 * limits below), the user and password in an `Authorization: Basic` header (never in the URL, which
 * servers and proxies log), and the call's budgets as the query's limits with overflow mode `break`.
 *
 * Errors become {@linkcode ToolError}s that say what to check; the password never appears in one.
 *
 * Permission: `--allow-net=HOST:PORT` (the root's).
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import { cutText } from "../../core/text_cut.ts";
import { redactLine } from "../../guard/redact.ts";
import type { ClickHouseTarget } from "./target.ts";

/** A query's limits (issue #14: the call's budgets, as ClickHouse's own limits). */
export interface QueryLimits {
  /** `max_execution_time`, in whole seconds (ClickHouse 18.16 takes no fraction), at least 1. */
  seconds: number;
  /**
   * `max_bytes_to_read`, in bytes (uncompressed, as ClickHouse counts what it reads), at least 1; null: no
   * limit (ClickHouse reads 0 as none, so a budget of 0 never reaches a query: the caller stops first). A
   * query may read past it by one block ({@linkcode BLOCK_ROWS} rows at most) per server thread.
   */
  bytes: number | null;
  /** More settings for this query (sent before `readonly=1`). */
  settings?: Record<string, string>;
}

/**
 * The most rows of one block a query with a byte limit reads (`max_block_size`; ClickHouse's default is
 * 65,536, one granule is 8,192).
 *
 * Why: `max_bytes_to_read` with `read_overflow_mode=break` is checked after each block, and each of the
 * query's threads (`max_threads`, by default the server's cores) finishes the block it is reading, so a
 * query reads up to its limit plus one block per thread. Measured on 18.16 with 2 threads (the byte budget
 * test's table, 82 bytes a row, a limit of 4,000,000 bytes): 6,599,837 bytes read with the default blocks
 * (16,384 rows each: `preferred_block_size_bytes` of 1 MB rounded up to granules), 4,606,438 to 5,273,582
 * with 8,192; a limit of 1 byte read 2,627,323 bytes (32,768 rows, two blocks) and 1,321,108 (16,384 rows).
 * A whole scan of 2 M rows took 157–253 ms with 8,192-row blocks, 184–268 ms with the default.
 */
export const BLOCK_ROWS = 8192;

/** What one query returned. */
export interface QueryAnswer<Row> {
  /** The rows (the `JSON` format's `data`: one object a row, UInt64 values as strings). */
  rows: Row[];
  /** Seconds the server spent. */
  elapsed: number;
  /** Rows the server read. */
  rowsRead: number;
  /** Bytes the server read (uncompressed). */
  bytesRead: number;
  /**
   * Why the server may have stopped before reading all it would have: `time_budget` when it ran at least
   * `seconds`, `size_budget` when it read at least `bytes`; null when neither (then the answer is whole:
   * `break` stops only past a limit).
   */
  cut: "time_budget" | "size_budget" | null;
}

/**
 * The most bytes of one answer read (64 MiB): logpeek's queries ask for at most about 32 MiB of rows (bodies
 * travel as hex); another server on the port may send without end.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * An answer longer than {@linkcode MAX_ANSWER_BYTES} (`source_error`): a search that sized its batch by the
 * rows it saw catches it and asks again for fewer rows.
 */
export class AnswerTooLargeError extends ToolError {
  /** @param where The root's `HOST:PORT`. */
  constructor(where: string) {
    super(
      "source_error",
      `the answer of ${where} passed ${MAX_ANSWER_BYTES} bytes and was not read further (logpeek's queries ` +
        "ask for far less: check that the root names ClickHouse's HTTP port)",
    );
    this.name = "AnswerTooLargeError";
  }
}

/**
 * A response body as text, read up to `max` bytes.
 *
 * @throws {RangeError} past `max` bytes (the rest is not read).
 */
async function readCapped(res: Response, max: number): Promise<string> {
  const parts: Uint8Array[] = [];
  let n = 0;
  if (res.body) {
    for await (const chunk of res.body) {
      n += chunk.length;
      // Leaving the loop cancels the stream: the rest is not read.
      if (n > max) throw new RangeError(`more than ${max} bytes`);
      parts.push(chunk);
    }
  }
  const all = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new TextDecoder().decode(all);
}

/** Slack past a query's own time limit before logpeek gives up waiting for its answer, in ms. */
export const ANSWER_SLACK_MS = 5000;

/**
 * Runs `sql` (a SELECT without a FORMAT clause) and returns its rows.
 *
 * @param target The server, table and credentials.
 * @param sql The query; ` FORMAT JSON` is added.
 * @param limits The time and byte limits (overflow mode `break`).
 * @param signal Aborts the request (the client cancelled).
 * @returns The rows, the server's statistics, and whether a limit may have cut it.
 * @throws {ToolError} `source_unreachable` (no answer, refused, timed out), `permission_denied` (Deno's
 *   network permission, or the server refused the user), `not_found` (no such database or table),
 *   `source_error` (another error from the server, such as a missing column, named with what to check);
 *   `cancelled` is not thrown: an aborted request rejects with the signal's reason.
 */
export async function runQuery<Row>(
  target: ClickHouseTarget,
  sql: string,
  limits: QueryLimits,
  signal?: AbortSignal,
): Promise<QueryAnswer<Row>> {
  const seconds = Math.max(1, Math.ceil(limits.seconds));
  const timeout = AbortSignal.timeout(seconds * 1000 + ANSWER_SLACK_MS);
  const res = await post(target, queryUrl(target, limits, seconds), sql, { timeout, seconds }, signal);
  const text = await answerText(target, res, timeout, seconds, signal);
  if (!res.ok) throw serverError(target, res.status, scrub(target, text, 2000));
  let parsed: {
    data?: Row[];
    statistics?: { elapsed?: number; rows_read?: number; bytes_read?: number };
  };
  try {
    parsed = JSON.parse(text);
  } catch {
    // A break in the middle of writing an answer, or a proxy's page: not a ClickHouse JSON answer.
    throw new ToolError(
      "source_error",
      `the server at ${target.netPermission} did not answer in ClickHouse's JSON format (HTTP ${res.status}, ` +
        `${text.length} characters, not shown): check that the root names ClickHouse's HTTP port`,
    );
  }
  const stats = parsed.statistics ?? {};
  const elapsed = Number(stats.elapsed ?? 0);
  const bytesRead = Number(stats.bytes_read ?? 0);
  return {
    rows: parsed.data ?? [],
    elapsed,
    rowsRead: Number(stats.rows_read ?? 0),
    bytesRead,
    cut: elapsed >= seconds
      ? "time_budget"
      : limits.bytes !== null && bytesRead >= limits.bytes
      ? "size_budget"
      : null,
  };
}

/** The URL of a query: the database, the limits (overflow mode `break`), and `readonly=1` last. */
function queryUrl(target: ClickHouseTarget, limits: QueryLimits, seconds: number): string {
  const params = new URLSearchParams({
    database: target.database,
    max_execution_time: String(seconds),
    timeout_overflow_mode: "break",
    ...(limits.bytes !== null
      ? {
        max_bytes_to_read: String(Math.max(1, Math.ceil(limits.bytes))),
        read_overflow_mode: "break",
        max_block_size: String(BLOCK_ROWS),
      }
      : {}),
    output_format_json_quote_64bit_integers: "1",
    ...limits.settings,
    // Last: a server applies the URL's settings in order, and once readonly=1 holds a newer one refuses
    // to change others.
    readonly: "1",
  });
  return `http://${target.host}:${target.port}/?${params}`;
}

/**
 * POSTs the query; a redirect is refused, not followed.
 *
 * @throws {ToolError} `permission_denied` (Deno's network permission), `source_unreachable`, `source_error`
 *   (a redirect); an aborted request rejects with the signal's reason.
 */
async function post(
  target: ClickHouseTarget,
  url: string,
  sql: string,
  { timeout, seconds }: { timeout: AbortSignal; seconds: number },
  signal?: AbortSignal,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      body: `${sql}\nFORMAT JSON`,
      headers: { authorization: basicAuth(target) },
      // A redirect would lead elsewhere than the root names (and Deno's --allow-net would refuse it).
      redirect: "manual",
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (e) {
    if (signal?.aborted) throw signal.reason ?? e;
    if (e instanceof Deno.errors.NotCapable) {
      throw new ToolError(
        "permission_denied",
        `Deno's permissions do not let logpeek reach ${target.netPermission}: start it with ` +
          `--allow-net=${target.netPermission} (deno task start and logpeek config add it)`,
      );
    }
    const why = timeout.aborted
      ? `no answer within ${seconds * 1000 + ANSWER_SLACK_MS} ms`
      : scrub(target, e instanceof Error ? e.message : String(e), 300);
    throw new ToolError(
      "source_unreachable",
      `the ClickHouse server at ${target.netPermission} did not answer (${why}): check that it runs and ` +
        "listens there (HTTP interface, e.g. port 8123), and the root's host and port",
    );
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    throw new ToolError(
      "source_error",
      `${target.netPermission} answered with a redirect (HTTP ${res.status}), which logpeek does not follow: ` +
        "name ClickHouse's own HTTP host and port in the root",
    );
  }
  return res;
}

/**
 * The answer's text, at most {@linkcode MAX_ANSWER_BYTES}.
 *
 * @throws {AnswerTooLargeError} past the cap; {@linkcode ToolError} when it could not be read whole.
 */
async function answerText(
  target: ClickHouseTarget,
  res: Response,
  timeout: AbortSignal,
  seconds: number,
  signal?: AbortSignal,
): Promise<string> {
  try {
    return await readCapped(res, MAX_ANSWER_BYTES);
  } catch (e) {
    if (e instanceof RangeError) throw new AnswerTooLargeError(target.netPermission);
    if (signal?.aborted) throw signal.reason ?? e;
    throw new ToolError(
      timeout.aborted ? "source_unreachable" : "source_error",
      `the answer of ${target.netPermission} could not be read whole (${
        timeout.aborted ? `not within ${seconds * 1000 + ANSWER_SLACK_MS} ms` : scrub(target, String(e), 200)
      })`,
    );
  }
}

/** The `Authorization: Basic` value of the target's user and password (RFC 7617: UTF-8, base64). */
function basicAuth(target: ClickHouseTarget): string {
  return "Basic " +
    btoa(String.fromCharCode(...new TextEncoder().encode(`${target.user}:${target.password}`)));
}

/**
 * A text from the other end (an error, a page that is not ClickHouse's) as it may be quoted: cut to `max`
 * characters, without the password or its Basic form (a proxy or a debug server may echo the request), and
 * with secrets masked as in log lines.
 *
 * @param target The root (its password and Basic value are removed).
 * @param text The text.
 * @param max The most characters kept.
 * @returns The text to quote.
 */
export function scrub(target: ClickHouseTarget, text: string, max: number): string {
  let t = text;
  const forms = [
    target.password,
    basicAuth(target).slice("Basic ".length),
    btoa(String.fromCharCode(...new TextEncoder().encode(target.password))),
    encodeURIComponent(target.password),
    JSON.stringify(target.password).slice(1, -1),
  ];
  for (const x of forms) if (x.length >= 1) t = t.split(x).join("***");
  return cutText(redactLine(t).text, max);
}

/**
 * The error of a refused query, explained (ClickHouse's error codes, `src/Common/ErrorCodes.cpp`).
 *
 * @param target The root (named in the message; never its password).
 * @param status The HTTP status.
 * @param text The server's answer (`Code: N, e.displayText() = DB::Exception: …`).
 * @returns The error to throw.
 */
export function serverError(target: ClickHouseTarget, status: number, text: string): ToolError {
  // Only ClickHouse's own exception text is quoted: another server on the port (a proxy, a debug server)
  // may echo the request, the password in some form included (a trial: its base64 alone, spaced, in
  // capitals), and no scrubbing knows every form.
  const ours = /^Code: \d+, e\.displayText\(\) = DB::Exception: /.test(text) ||
    /^Code: \d+\. DB::Exception: /.test(text);
  if (!ours) {
    return new ToolError(
      status === 401 || status === 403 ? "permission_denied" : "source_error",
      `${target.netPermission} answered HTTP ${status} with a text that is not ClickHouse's (not shown): check ` +
        "that the root names ClickHouse's own HTTP host and port" +
        (status === 401 || status === 403
          ? ", and LOGPEEK_CLICKHOUSE_USER (or the root's user) and LOGPEEK_CLICKHOUSE_PASSWORD"
          : ""),
    );
  }
  const code = Number(/Code: (\d+)/.exec(text)?.[1] ?? NaN);
  const said = cutText(
    text.replace(/^Code: \d+, e\.displayText\(\) = DB::Exception: /, "").replace(/, e\.what\(\) = .*$/s, "")
      .replace(/\s+/g, " ").trim(),
    300,
  );
  const table = `${target.database}.${target.table}`;
  const cols = target.columns;
  if (status === 401 || status === 403 || code === 192 || code === 193 || code === 194 || code === 516) {
    return new ToolError(
      "permission_denied",
      `ClickHouse at ${target.netPermission} refused the user '${target.user}' (${said}): check ` +
        "LOGPEEK_CLICKHOUSE_USER (or the user in the root) and LOGPEEK_CLICKHOUSE_PASSWORD",
    );
  }
  if (code === 60 || code === 81) {
    return new ToolError(
      "not_found",
      `ClickHouse at ${target.netPermission} has no table ${table} (${said}): check the root's DATABASE.TABLE`,
    );
  }
  if (code === 47 || code === 16) {
    return new ToolError(
      "source_error",
      `the table ${table} lacks a column logpeek reads (${said}): it reads ${cols.time} (time), ${cols.body} ` +
        `(body), ${cols.level} (level) and ${cols.source} (source); rename them with ` +
        "LOGPEEK_CLICKHOUSE_COLUMNS=time=…,body=…,level=…,source=…",
    );
  }
  if (code === 43 || code === 53 || code === 386) {
    return new ToolError(
      "source_error",
      `a column of ${table} is not of a type logpeek reads (${said}): time must be DateTime or DateTime64, ` +
        "body, level and source String (or LowCardinality(String)); see LOGPEEK_CLICKHOUSE_COLUMNS",
    );
  }
  if (code === 427) {
    return new ToolError(
      "invalid_pattern",
      `ClickHouse's RE2 refused the regular expression (${said}): RE2's syntax, without named groups of the ` +
        "(?<name>…) form (write (?P<name>…)), backreferences or lookaround",
    );
  }
  if (code === 164) {
    return new ToolError(
      "source_error",
      `ClickHouse refused a query in readonly mode (${said}): the user's profile must allow readonly=1 ` +
        "queries with the settings max_execution_time and max_bytes_to_read (readonly=1 allows them)",
    );
  }
  return new ToolError(
    "source_error",
    `ClickHouse at ${target.netPermission} refused the query (HTTP ${status}${
      Number.isFinite(code) ? `, code ${code}` : ""
    }: ${said})`,
  );
}
