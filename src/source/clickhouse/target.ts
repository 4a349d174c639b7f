/**
 * A ClickHouse root (issue #14): `clickhouse://[USER@]HOST:PORT/DATABASE.TABLE`, the table's column
 * names, and the credentials, read once at start.
 *
 * - The URL names ClickHouse's HTTP interface (port 8123 by default on a server; the port must be given,
 *   since it is what `--allow-net=HOST:PORT` grants). A password in the URL is refused: a command line is
 *   visible to every user of the host (`ps`) and lands in client configs; it comes only from
 *   `LOGPEEK_CLICKHOUSE_PASSWORD`.
 * - The user: the URL's, else `LOGPEEK_CLICKHOUSE_USER`, else `default` (ClickHouse's own default user).
 * - The columns default to the OpenTelemetry Collector exporter's `otel_logs` names (`Timestamp`, `Body`,
 *   `SeverityText`, `ServiceName`); `LOGPEEK_CLICKHOUSE_COLUMNS=time=ts,body=msg,level=lvl,source=host`
 *   renames any of them.
 *
 * Names (database, table, columns) must be plain identifiers (`[A-Za-z_][A-Za-z0-9_]*`): they are put into
 * queries quoted with backquotes, and a plain identifier needs no escaping at all.
 *
 * @module
 */

/** The prefix of a ClickHouse root. */
export const CLICKHOUSE_SCHEME = "clickhouse://";

/** The columns logpeek reads, by role. */
export interface TableColumns {
  /** The row's time (`DateTime`, or `DateTime64` on newer servers). */
  time: string;
  /** The message (`String`). */
  body: string;
  /** The raw level text (`String`, or `LowCardinality(String)`), folded as logpeek folds level words. */
  level: string;
  /** What makes a row's log: a service or host name; each distinct value is one log. */
  source: string;
}

/** The OpenTelemetry Collector ClickHouse exporter's column names. */
export const OTEL_COLUMNS: Readonly<TableColumns> = {
  time: "Timestamp",
  body: "Body",
  level: "SeverityText",
  source: "ServiceName",
};

/** Where the table is and how to reach it. */
export interface ClickHouseTarget {
  /** The host as given (a name, an IPv4 address, or an IPv6 address in brackets). */
  host: string;
  /** The HTTP port. */
  port: number;
  /** The database. */
  database: string;
  /** The table. */
  table: string;
  /** The user. */
  user: string;
  /** The password (from `LOGPEEK_CLICKHOUSE_PASSWORD`; "" when unset). Never shown. */
  password: string;
  /** The columns. */
  columns: TableColumns;
  /** The root's label: the prefix of its logs' names (the table's name). */
  label: string;
  /** `HOST:PORT`, as `--allow-net` takes it. */
  netPermission: string;
  /** The root as shown (user, host, port, database, table; never a password). */
  shown: string;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/**
 * Whether a ROOT argument is a ClickHouse root.
 *
 * @param arg A ROOT as given on the command line.
 * @returns True when it starts with `clickhouse://` (any case).
 */
export function isClickHouseRoot(arg: string): boolean {
  return arg.slice(0, CLICKHOUSE_SCHEME.length).toLowerCase() === CLICKHOUSE_SCHEME;
}

/**
 * Reads a ClickHouse root.
 *
 * @param arg The root, `clickhouse://[USER@]HOST:PORT/DATABASE.TABLE`.
 * @param env Looks a variable up (`LOGPEEK_CLICKHOUSE_USER`, `LOGPEEK_CLICKHOUSE_PASSWORD`,
 *   `LOGPEEK_CLICKHOUSE_COLUMNS`); undefined when unset.
 * @returns The target.
 * @throws {RangeError} naming what is wrong: not of the form, a password in the URL (its text is not
 *   repeated), no port, a database, table or column name that is not a plain identifier, an unknown role
 *   in `LOGPEEK_CLICKHOUSE_COLUMNS`.
 * @example
 * ```ts
 * import { parseClickHouseRoot } from "./target.ts";
 * const t = parseClickHouseRoot("clickhouse://127.0.0.1:8123/otel.otel_logs", () => undefined);
 * console.assert(t.netPermission === "127.0.0.1:8123" && t.columns.body === "Body" && t.user === "default");
 * ```
 */
export function parseClickHouseRoot(
  arg: string,
  env: (name: string) => string | undefined,
): ClickHouseTarget {
  const form = "clickhouse://[USER@]HOST:PORT/DATABASE.TABLE";
  const rest = arg.slice(CLICKHOUSE_SCHEME.length);
  const at = rest.lastIndexOf("@", rest.indexOf("/") < 0 ? rest.length : rest.indexOf("/"));
  const userInfo = at >= 0 ? rest.slice(0, at) : null;
  if (userInfo !== null && userInfo.includes(":")) {
    throw new RangeError(
      "a ClickHouse root must not hold a password (a command line is visible to every user of the host " +
        "and is saved in client configs): remove it from the URL and set LOGPEEK_CLICKHOUSE_PASSWORD",
    );
  }
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})\/([^/.]+)\.([^/.]+)\/?$/.exec(
    at >= 0 ? rest.slice(at + 1) : rest,
  );
  if (!m) {
    throw new RangeError(
      `a ClickHouse root is ${form}, nothing more (the HTTP port, e.g. 8123, is needed: it is what --allow-net ` +
        "grants; no query string: a password comes only from LOGPEEK_CLICKHOUSE_PASSWORD); the root given is " +
        "not of that form (not repeated here, in case it holds a secret)",
    );
  }
  const [, host, portText, database, table] = m;
  // A host Deno's --allow-net would name otherwise than fetch reaches it (127.1, 0x7f000001, 010.0.0.1 are
  // 127.0.0.1 or 8.0.0.1 to the resolver): refused, so the permission granted is the one used.
  const octets = host.split(".");
  if (
    /^0x[0-9a-f]+$/i.test(host) || /^[0-9]+$/.test(host) ||
    (/^[0-9.]+$/.test(host) &&
      (octets.length !== 4 || octets.some((o) => !/^(0|[1-9][0-9]{0,2})$/.test(o) || +o > 255)))
  ) {
    throw new RangeError(
      `the host ${host} of a ClickHouse root is not a plain IPv4 address (four decimal numbers 0..255), an ` +
        "IPv6 address in brackets, or a name: write it in full, e.g. 127.0.0.1",
    );
  }
  const port = Number(portText);
  if (port < 1 || port > 65535) throw new RangeError(`the port of ${form} must be 1..65535, got ${portText}`);
  for (const [what, name] of [["database", database], ["table", table]]) {
    if (!IDENT.test(name)) {
      throw new RangeError(
        `the ${what} name '${name}' is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*), which logpeek needs to ` +
          "name it safely in a query",
      );
    }
  }
  const user = userInfo !== null && userInfo !== ""
    ? decodeURIComponent(userInfo)
    : (env("LOGPEEK_CLICKHOUSE_USER") || "default");
  if ([...user].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) {
    throw new RangeError("the ClickHouse user name holds a control character");
  }
  const columns = readColumns(env("LOGPEEK_CLICKHOUSE_COLUMNS"));
  return {
    host,
    port,
    database,
    table,
    user,
    password: env("LOGPEEK_CLICKHOUSE_PASSWORD") ?? "",
    columns,
    label: table,
    netPermission: `${host}:${port}`,
    shown: `${CLICKHOUSE_SCHEME}${userInfo ? `${userInfo}@` : ""}${host}:${port}/${database}.${table}`,
  };
}

/**
 * Reads `LOGPEEK_CLICKHOUSE_COLUMNS`: `role=name` pairs separated by commas, roles `time`, `body`, `level`,
 * `source`; roles not named keep {@linkcode OTEL_COLUMNS}' names.
 *
 * @param text The variable's value, or undefined.
 * @returns The columns.
 * @throws {RangeError} for a malformed pair, an unknown or repeated role, a name that is not a plain
 *   identifier.
 */
export function readColumns(text: string | undefined): TableColumns {
  const columns: TableColumns = { ...OTEL_COLUMNS };
  if (text === undefined || text.trim() === "") return columns;
  const seen = new Set<string>();
  for (const pair of text.split(",")) {
    const m = /^\s*([a-z]+)\s*=\s*(\S+)\s*$/.exec(pair);
    if (!m || !(m[1] in columns)) {
      throw new RangeError(
        `LOGPEEK_CLICKHOUSE_COLUMNS is role=column pairs (roles time, body, level, source), e.g. ` +
          `time=ts,body=msg,level=lvl,source=host; got '${pair.trim()}'`,
      );
    }
    if (seen.has(m[1])) throw new RangeError(`LOGPEEK_CLICKHOUSE_COLUMNS names the role ${m[1]} twice`);
    seen.add(m[1]);
    if (!IDENT.test(m[2])) {
      throw new RangeError(
        `LOGPEEK_CLICKHOUSE_COLUMNS: the column '${m[2]}' is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*)`,
      );
    }
    columns[m[1] as keyof TableColumns] = m[2];
  }
  return columns;
}
