/**
 * The default log formats of widely deployed programs (issue #23 item 2), each written from its
 * program's own documentation (the `url` of each entry), and the per-file detection of one of them from
 * a sample of the file's first lines, as lnav does. A file that matches none is read by the general rules
 * of `level.ts` (its format is `null`, "general rules").
 *
 * Detection ({@linkcode detectFormat}) runs once per file, on the same head `timestamp.ts` `learnLayout`
 * learns from (`SAMPLE_BYTES`, its first {@linkcode SAMPLE_LINES} lines that are not continuation lines). Where a format writes its level in
 * a way the general rules misread (Redis's `*`/`#` symbols, .NET's `info:`/`fail:`, PostgreSQL's `LOG:`
 * and its `DETAIL:`/`STATEMENT:` lines, MongoDB's `"s":"W"`, …: the entries with `own: true`, each shown
 * needed by `log_format_test.ts`), {@linkcode tallyFor} gives a `LevelTally` that reads the format's own
 * levels; every other file keeps the general rules' tally, and their hot path is untouched.
 *
 * @module
 */

import { CONTINUED, levelOf, LEVELS, LevelTally, lineLevel, UNKNOWN } from "./level.ts";
import type { ReadableLog } from "./readable_log.ts";
import { logHead } from "./scan_source.ts";
import { SAMPLE_BYTES } from "./timestamp.ts";

/** A level name of logpeek's ({@linkcode LEVELS}). */
type LevelName = (typeof LEVELS)[number];

/** The kinds of program the table covers. */
export type FormatKind =
  | "web server"
  | "database"
  | "cache or broker"
  | "proxy or load balancer"
  | "syslog"
  | "container or Kubernetes"
  | "language runtime";

/** One program's default log format. */
export interface LogFormat {
  /** Its name (snake_case, lnav-like: `nginx_error`, `redis`), as answers give it in `log_format`. */
  readonly name: string;
  /** The program (and version) that writes it by default. */
  readonly program: string;
  /** What kind of program. */
  readonly kind: FormatKind;
  /** The documentation (or the program's source, where that is its documentation) it is written from. */
  readonly url: string;
  /**
   * Recognises an entry's first line, tested on the line's text (its first {@linkcode TEXT_CHARS}
   * bytes, decoded as UTF-8). A group named `lvl` holds the level as written, looked up in `levels`.
   */
  readonly line: RegExp;
  /** How the format writes its levels (the text in `lvl`) and what each is in logpeek's {@linkcode LEVELS}. */
  readonly levels: Readonly<Record<string, LevelName>>;
  /**
   * Lines of the format that continue an entry beyond the general rule 0 (an indented line, a stack
   * frame), tested on the text; also not counted against the format when it is detected.
   */
  readonly continues?: RegExp;
  /** The timestamp layout, as the documentation gives it (or "none"). */
  readonly time: string;
  /** What its continuation lines look like. */
  readonly continuation: string;
  /**
   * True when a file of this format has its levels read by {@linkcode formatLevel} instead of the general
   * rules: only where the general rules misread a level the format writes (`log_format_test.ts` checks
   * each `own` is needed and each other entry's levels are read right by the general rules).
   */
  readonly own?: boolean;
  /**
   * Where the level of the rest of the line is the level of a message the format wraps (Docker's
   * json-file `log` string, the CRI `stdout F …` prefix): the offset of that message in `text`, or -1.
   */
  readonly inner?: (text: string) => number;
}

/** How many characters of a line the table's patterns are tested on. */
export const TEXT_CHARS = 512;
/** How many of the sample's lines (not continuation lines) detection looks at: a clear majority shows within them, and it keeps a listing of 1,000 logs cheap. */
export const SAMPLE_LINES = 64;

const SYSLOG_LEVELS = {
  emerg: "FATAL",
  alert: "FATAL",
  crit: "FATAL",
  error: "ERROR",
  warn: "WARN",
} as const;
const LOG4J = {
  TRACE: "TRACE",
  DEBUG: "DEBUG",
  INFO: "INFO",
  WARN: "WARN",
  ERROR: "ERROR",
  FATAL: "FATAL",
} as const;
const PY = { DEBUG: "DEBUG", INFO: "INFO", WARNING: "WARN", ERROR: "ERROR", CRITICAL: "FATAL" } as const;
const ZAP = {
  debug: "DEBUG",
  info: "INFO",
  warn: "WARN",
  error: "ERROR",
  dpanic: "FATAL",
  panic: "FATAL",
  fatal: "FATAL",
} as const;
const MONOLOG = {
  DEBUG: "DEBUG",
  INFO: "INFO",
  NOTICE: "NOTICE",
  WARNING: "WARN",
  ERROR: "ERROR",
  CRITICAL: "FATAL",
  ALERT: "FATAL",
  EMERGENCY: "FATAL",
} as const;
const PINO = {
  "10": "TRACE",
  "20": "DEBUG",
  "30": "INFO",
  "40": "WARN",
  "50": "ERROR",
  "60": "FATAL",
} as const;
const NONE = {} as const;
/** An RFC 3164 header: `Mmm dd hh:mm:ss host ` (the day space-padded). */
const BSD = String.raw`[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \S+ `;

/** The table: a more specific format before a more general one that also matches its lines (a tie goes to the first). */
export const LOG_FORMATS: readonly LogFormat[] = [
  // --- web servers
  {
    name: "nginx_access",
    program: "nginx (access_log, the predefined `combined` format; also Apache httpd's `combined` nickname)",
    kind: "web server",
    url: "https://nginx.org/en/docs/http/ngx_http_log_module.html#log_format",
    line:
      /^\S+ \S+ \S+ \[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "[^"]*" \d{3} (\d+|-) "[^"]*" "[^"]*"/,
    levels: NONE,
    time: "$time_local: [dd/Mon/yyyy:hh:mm:ss ±hhmm]",
    continuation: "none (one request a line)",
  },
  {
    name: "apache_access",
    program: "Apache httpd (CustomLog with the default `common` format, Common Log Format)",
    kind: "web server",
    url: "https://httpd.apache.org/docs/2.4/logs.html#accesslog",
    line: /^\S+ \S+ \S+ \[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "[^"]*" \d{3} (\d+|-)$/,
    levels: NONE,
    time: "%t: [dd/Mon/yyyy:hh:mm:ss ±hhmm]",
    continuation: "none",
  },
  {
    name: "apache_vhost_combined",
    program:
      "Apache httpd on Debian/Ubuntu (other_vhosts_access.log, the `vhost_combined` format of apache2.conf)",
    kind: "web server",
    url: "https://httpd.apache.org/docs/2.4/mod/mod_log_config.html#formats",
    line:
      /^[^\s:]+:\d+ \S+ \S+ \S+ \[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "[^"]*" \d{3} (\d+|-) "[^"]*" "[^"]*"/,
    levels: NONE,
    time: "%t: [dd/Mon/yyyy:hh:mm:ss ±hhmm]",
    continuation: "none",
  },
  {
    name: "nginx_error",
    program: "nginx (error_log)",
    kind: "web server",
    url: "https://nginx.org/en/docs/ngx_core_module.html#error_log",
    line:
      /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} \[(?<lvl>debug|info|notice|warn|error|crit|alert|emerg)\] \d+#\d+: /,
    levels: { debug: "DEBUG", info: "INFO", notice: "NOTICE", ...SYSLOG_LEVELS },
    time: "yyyy/mm/dd hh:mm:ss (local time)",
    continuation: "none",
  },
  {
    name: "apache_error",
    program: "Apache httpd 2.4 (ErrorLog, the default ErrorLogFormat)",
    kind: "web server",
    url: "https://httpd.apache.org/docs/2.4/mod/core.html#errorlogformat",
    line:
      /^\[[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2}(\.\d+)? \d{4}\] \[(\w+:)?(?<lvl>emerg|alert|crit|error|warn|notice|info|debug|trace[1-8])\] \[pid \d+/,
    levels: {
      debug: "DEBUG",
      info: "INFO",
      notice: "NOTICE",
      ...SYSLOG_LEVELS,
      ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`trace${n}`, "TRACE"])),
    },
    time: "[Www Mmm dd hh:mm:ss.uuuuuu yyyy] (%{u}t)",
    continuation: "none",
    own: true,
  },
  {
    name: "caddy",
    program: "Caddy 2 (zap JSON, the default encoder for a file)",
    kind: "web server",
    url: "https://caddyserver.com/docs/logging",
    line: /^\{"level":"(?<lvl>debug|info|warn|error|panic|fatal)","ts":\d+\.\d+,"logger":"/,
    levels: ZAP,
    time: '"ts": epoch seconds with a fraction',
    continuation: "none (one JSON object a line)",
  },
  {
    name: "iis_w3c",
    program: "Microsoft IIS (W3C Extended Log File Format, the default)",
    kind: "web server",
    url: "https://learn.microsoft.com/en-us/windows/win32/http/w3c-logging",
    // The default fields end sc-status sc-substatus sc-win32-status time-taken (IIS 8.5+ may add sc-bytes, cs-bytes).
    line: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} (\S+ ){4,}\d{3} \d+ \d+( \d+){1,3}$/,
    levels: NONE,
    continues: /^#(Software|Version|Date|Fields|Remark):/,
    time: "date and time columns (yyyy-mm-dd hh:mm:ss, UTC), named by #Fields:",
    continuation: "#Software/#Version/#Date/#Fields directives (not entries)",
  },
  // --- databases
  {
    name: "postgresql",
    program: "PostgreSQL 10+ (stderr, the default log_line_prefix '%m [%p] ')",
    kind: "database",
    url: "https://www.postgresql.org/docs/current/runtime-config-logging.html",
    line:
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} [A-Z]{2,5} \[\d+\] (?<lvl>DEBUG[1-5]|INFO|NOTICE|WARNING|ERROR|LOG|FATAL|PANIC): {2}/,
    levels: {
      DEBUG1: "DEBUG",
      DEBUG2: "DEBUG",
      DEBUG3: "DEBUG",
      DEBUG4: "DEBUG",
      DEBUG5: "DEBUG",
      INFO: "INFO",
      NOTICE: "NOTICE",
      WARNING: "WARN",
      ERROR: "ERROR",
      LOG: "INFO",
      FATAL: "FATAL",
      PANIC: "FATAL",
    },
    continues:
      /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} [A-Z]{2,5} \[\d+\] (DETAIL|HINT|QUERY|CONTEXT|LOCATION|STATEMENT): {2}|\t)/,
    time: "%m: yyyy-mm-dd hh:mm:ss.mmm ZONE (the zone's abbreviation)",
    continuation:
      "DETAIL:/HINT:/QUERY:/CONTEXT:/LOCATION:/STATEMENT: lines after the entry; tab-indented lines of a statement",
    own: true,
  },
  {
    name: "mysql_error",
    program: "MySQL 8.0 (error log, the traditional log_sink_internal format)",
    kind: "database",
    url: "https://dev.mysql.com/doc/refman/8.0/en/error-log-format.html",
    line:
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}(Z|[+-]\d{2}:\d{2}) \d+ \[(?<lvl>System|Error|Warning|Note)\] \[MY-\d+\] /,
    levels: { System: "INFO", Error: "ERROR", Warning: "WARN", Note: "INFO" },
    time: "yyyy-mm-ddThh:mm:ss.uuuuuuZ (log_timestamps=UTC)",
    continuation: "none",
    own: true,
  },
  {
    name: "mariadb_error",
    program: "MariaDB 10.x (error log)",
    kind: "database",
    url: "https://mariadb.com/kb/en/error-log/",
    line: /^\d{4}-\d{2}-\d{2} {1,2}\d{1,2}:\d{2}:\d{2} \d+ \[(?<lvl>Note|Warning|ERROR)\] /,
    levels: { Note: "INFO", Warning: "WARN", ERROR: "ERROR" },
    time: "yyyy-mm-dd hh:mm:ss (local time)",
    continuation: "none",
    own: true,
  },
  {
    name: "mongodb",
    program: "MongoDB 4.4+ (structured JSON log)",
    kind: "database",
    url: "https://www.mongodb.com/docs/manual/reference/log-messages/",
    line: /^\{"t":\{"\$date":"[^"]+"\},"s":"(?<lvl>F|E|W|I|D[1-5]?) *"/,
    levels: {
      F: "FATAL",
      E: "ERROR",
      W: "WARN",
      I: "INFO",
      D: "DEBUG",
      D1: "DEBUG",
      D2: "DEBUG",
      D3: "DEBUG",
      D4: "DEBUG",
      D5: "DEBUG",
    },
    time: '"t":{"$date": ISO 8601 with ms and offset}',
    continuation: "none (one JSON object a line)",
    own: true,
  },
  {
    name: "redis",
    program: "Redis 3+ (serverLog: pid:role date symbol message)",
    kind: "database",
    url: "https://github.com/redis/redis/blob/unstable/src/server.c (serverLogRaw; redis.conf `loglevel`)",
    line: /^\d+:[XCSM] \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2}\.\d{3} (?<lvl>[.\-*#]) /,
    // verbose (`-`) is between debug and notice in redis.conf's `loglevel`: DEBUG, not below it.
    levels: { ".": "DEBUG", "-": "DEBUG", "*": "NOTICE", "#": "WARN" },
    time: "dd Mon yyyy hh:mm:ss.mmm (local time)",
    continuation: "none (the ASCII-art banner lines at start are continuation-like, no header)",
    own: true,
  },
  {
    name: "elasticsearch",
    program: "Elasticsearch 7/8 (plaintext log4j2 pattern of log4j2.properties)",
    kind: "database",
    url: "https://www.elastic.co/guide/en/elasticsearch/reference/current/logging.html",
    line:
      /^\[\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2},\d{3}\]\[(?<lvl>TRACE|DEBUG|INFO|WARN|ERROR|FATAL) ?\]\[[^\]]+\] /,
    levels: LOG4J,
    time: "[yyyy-mm-ddThh:mm:ss,mmm] (%d{ISO8601})",
    continuation: "Java stack traces (tab + at …, Caused by:)",
  },
  {
    name: "cassandra",
    program: "Apache Cassandra (logback.xml: %-5level [%thread] %date{ISO8601} %F:%L - %msg)",
    kind: "database",
    url: "https://cassandra.apache.org/doc/latest/cassandra/troubleshooting/reading_logs.html",
    line:
      /^(?<lvl>TRACE|DEBUG|INFO|WARN|ERROR) +\[[^\]]+\] \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3} \S+:\d+ - /,
    levels: LOG4J,
    time: "yyyy-mm-dd hh:mm:ss,mmm after the level and thread",
    continuation: "Java stack traces",
  },
  {
    name: "sqlserver_errorlog",
    program: "Microsoft SQL Server (ERRORLOG)",
    kind: "database",
    url: "https://learn.microsoft.com/en-us/sql/tools/configuration-manager/viewing-the-sql-server-error-log",
    line: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{2} (Server|Logon|Backup|spid\d+s?) +\S/,
    levels: NONE,
    time: "yyyy-mm-dd hh:mm:ss.cc (local time)",
    continuation: "none; an error is a line `Error: N, Severity: S, State: T.` then its message line",
  },
  // --- caches and brokers
  {
    name: "memcached",
    program: "memcached -vv (stderr)",
    kind: "cache or broker",
    url: "https://github.com/memcached/memcached/wiki/ConfiguringServer",
    line: /^([<>]\d+ \S|\d+: \S|<\d+ new (auto-negotiating )?client connection)/,
    levels: NONE,
    time: "none",
    continuation: "none",
  },
  {
    name: "rabbitmq",
    program: "RabbitMQ 3.9+ (file log)",
    kind: "cache or broker",
    url: "https://www.rabbitmq.com/docs/logging",
    line:
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2} \[(?<lvl>debug|info|notice|warning|error|critical|alert|emergency)\] <\d+\.\d+\.\d+> /,
    levels: {
      debug: "DEBUG",
      info: "INFO",
      notice: "NOTICE",
      warning: "WARN",
      error: "ERROR",
      critical: "FATAL",
      alert: "FATAL",
      emergency: "FATAL",
    },
    time: "yyyy-mm-dd hh:mm:ss.uuuuuu±hh:mm",
    continuation: "indented lines of a multi-line message",
  },
  {
    name: "kafka",
    program: "Apache Kafka (config/log4j.properties: [%d] %p %m (%c)%n)",
    kind: "cache or broker",
    url: "https://github.com/apache/kafka/blob/3.7/config/log4j.properties",
    line:
      /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3}\] (?<lvl>TRACE|DEBUG|INFO|WARN|ERROR|FATAL) .*\([\w.$]+\)$/,
    levels: LOG4J,
    time: "[yyyy-mm-dd hh:mm:ss,mmm]",
    continuation: "Java stack traces",
  },
  {
    name: "zookeeper",
    program: "Apache ZooKeeper 3.5+ (%d{ISO8601} [myid:%X{myid}] - %-5p [%t:%C{1}@%L] - %m%n)",
    kind: "cache or broker",
    url: "https://zookeeper.apache.org/doc/current/zookeeperAdmin.html#sc_logging",
    line:
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3} \[myid:\d*\] - (?<lvl>TRACE|DEBUG|INFO|WARN|ERROR|FATAL) +\[/,
    levels: LOG4J,
    time: "yyyy-mm-dd hh:mm:ss,mmm",
    continuation: "Java stack traces",
  },
  {
    name: "nats",
    program: "NATS server (its logger, -l file)",
    kind: "cache or broker",
    url: "https://docs.nats.io/running-a-nats-service/configuration/logging",
    line: /^\[\d+\] \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}\.\d{6} \[(?<lvl>TRC|DBG|INF|WRN|ERR|FTL)\] /,
    levels: { TRC: "TRACE", DBG: "DEBUG", INF: "INFO", WRN: "WARN", ERR: "ERROR", FTL: "FATAL" },
    time: "yyyy/mm/dd hh:mm:ss.uuuuuu after [pid]",
    continuation: "none",
  },
  {
    name: "activemq",
    program: "Apache ActiveMQ Classic (conf/log4j2.properties: %d | %-5p | %m | %c | %t%n)",
    kind: "cache or broker",
    url: "https://activemq.apache.org/components/classic/documentation/how-do-i-change-the-logging",
    line: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3} \| (?<lvl>TRACE|DEBUG|INFO|WARN|ERROR|FATAL) +\| /,
    levels: LOG4J,
    time: "yyyy-mm-dd hh:mm:ss,mmm",
    continuation: "Java stack traces",
  },
  // --- proxies and load balancers
  {
    name: "haproxy",
    program: "HAProxy (option httplog, through syslog)",
    kind: "proxy or load balancer",
    url: "https://docs.haproxy.org/2.8/configuration.html#8.2.3",
    // Any line syslog carries from the program `haproxy`: its requests (`client:port [accept_date] …`)
    // and its own messages (`Server app/app2 is DOWN, …`, `Proxy www started.`), which every real
    // HAProxy log mixes (a trial: one DOWN line among three requests named the log syslog_rfc3164). A
    // syslog line matches both this and syslog_rfc3164; the table's earlier, narrower entry wins a tie.
    line: new RegExp(String.raw`^${BSD}haproxy\[\d+\]: `),
    levels: NONE,
    time: "syslog's Mmm dd hh:mm:ss, then accept_date [dd/Mon/yyyy:hh:mm:ss.mmm]",
    continuation: "none",
  },
  {
    name: "envoy_access",
    program: "Envoy (access log, the default format string)",
    kind: "proxy or load balancer",
    url:
      "https://www.envoyproxy.io/docs/envoy/latest/configuration/observability/access_log/usage#default-format-string",
    line:
      /^\[\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\] "[^"]*" \d{3} \S+ \d+ \d+ \d+ \S+ "[^"]*" "[^"]*" "[^"]*" "[^"]*" "[^"]*"$/,
    levels: NONE,
    time: "[%START_TIME%]: [yyyy-mm-ddThh:mm:ss.mmmZ]",
    continuation: "none",
  },
  {
    name: "envoy",
    program: "Envoy (application log, the default --log-format)",
    kind: "proxy or load balancer",
    url: "https://www.envoyproxy.io/docs/envoy/latest/operations/cli#cmdoption-log-format",
    line:
      /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}\]\[\d+\]\[(?<lvl>trace|debug|info|warning|error|critical)\]\[[\w.]+\] /,
    levels: {
      trace: "TRACE",
      debug: "DEBUG",
      info: "INFO",
      warning: "WARN",
      error: "ERROR",
      critical: "FATAL",
    },
    time: "[yyyy-mm-dd hh:mm:ss.mmm]",
    continuation: "none",
  },
  {
    name: "traefik",
    program: "Traefik v3 (zerolog console, the default log format)",
    kind: "proxy or load balancer",
    url: "https://doc.traefik.io/traefik/observability/logs/",
    line: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2}) (?<lvl>TRC|DBG|INF|WRN|ERR|FTL|PNC) /,
    levels: {
      TRC: "TRACE",
      DBG: "DEBUG",
      INF: "INFO",
      WRN: "WARN",
      ERR: "ERROR",
      FTL: "FATAL",
      PNC: "FATAL",
    },
    time: "RFC 3339 (zerolog's TimeFieldFormat)",
    continuation: "none",
    own: true,
  },
  {
    name: "squid_access",
    program: "Squid (access.log, the native `squid` logformat)",
    kind: "proxy or load balancer",
    url: "https://wiki.squid-cache.org/Features/LogFormat",
    line: /^\d{9,10}\.\d{3} +\d+ \S+ [A-Z_]+\/\d{3} \d+ \S+ \S+ \S+ [A-Z_]+\/\S+ \S+$/,
    levels: NONE,
    time: "epoch seconds with ms",
    continuation: "none",
  },
  {
    name: "squid_cache",
    program: "Squid (cache.log)",
    kind: "proxy or load balancer",
    url: "https://wiki.squid-cache.org/SquidFaq/SquidLogs#cachelog",
    line: /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(\.\d{3})?( kid\d+)?\| ((?<lvl>ERROR|WARNING|FATAL):)?/,
    levels: { ERROR: "ERROR", WARNING: "WARN", FATAL: "FATAL" },
    time: "yyyy/mm/dd hh:mm:ss (local time)",
    continuation: "indented lines (`    current master transaction: …`)",
  },
  // --- syslog writers
  {
    name: "syslog_rfc5424",
    program: "RFC 5424 syslog (rsyslog RSYSLOG_SyslogProtocol23Format, syslog-ng, journald forwarders)",
    kind: "syslog",
    url: "https://www.rfc-editor.org/rfc/rfc5424",
    line: /^<(?<lvl>\d{1,3})>1 (\S+) \S+ \S+ \S+ \S+ /,
    levels: Object.fromEntries(
      Array.from(
        { length: 192 },
        (
          _,
          p,
        ) => [
          String(p),
          (["FATAL", "FATAL", "FATAL", "ERROR", "WARN", "NOTICE", "INFO", "DEBUG"] as const)[p % 8],
        ],
      ),
    ),
    time: "RFC 3339 with fraction and offset, or - (NILVALUE)",
    continuation: "none",
  },
  {
    name: "rsyslog_file",
    program: "rsyslog (RSYSLOG_FileFormat, the default file template of Debian 12 and later)",
    kind: "syslog",
    url: "https://www.rsyslog.com/doc/configuration/templates.html",
    line: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2} \S+ [^\s:[]+(\[\d+\])?: /,
    levels: NONE,
    time: "RFC 3339 with µs and offset",
    continuation: "none",
  },
  {
    name: "syslog_rfc3164",
    program:
      "BSD syslog file lines (RFC 3164 header; rsyslog RSYSLOG_TraditionalFileFormat): sshd, sudo, cron, …",
    kind: "syslog",
    url: "https://www.rfc-editor.org/rfc/rfc3164",
    line: new RegExp(String.raw`^(<\d{1,3}>)?${BSD}[^\s:[]+(\[\d+\])?: `),
    levels: NONE,
    time: "Mmm dd hh:mm:ss (no year, local time)",
    continuation: "none (`message repeated N times` is an entry)",
  },
  {
    name: "journald_json",
    program: "systemd-journald (journalctl -o json)",
    kind: "syslog",
    url: "https://www.freedesktop.org/software/systemd/man/latest/systemd.journal-fields.html",
    line: /^\{ ?"__CURSOR" ?: ?"/,
    levels: NONE,
    time: '"__REALTIME_TIMESTAMP": µs since the epoch, a string',
    continuation: "none (one JSON object a line)",
  },
  // --- container runtimes and Kubernetes
  {
    name: "docker_json",
    program: "Docker json-file logging driver",
    kind: "container or Kubernetes",
    url: "https://docs.docker.com/engine/logging/drivers/json-file/",
    line: /^\{"log":"(?:[^"\\]|\\.)*","stream":"(stdout|stderr)","time":"\d{4}-\d{2}-\d{2}T[^"]+"\}$/,
    levels: NONE,
    continues: /^\{"log":"(\\t|\\u0009| |at \S|Caused by: )/,
    time: '"time": RFC 3339 with ns',
    continuation: 'none (a container\'s own continuation lines are each a record whose "log" is that line)',
    own: true,
    inner: (text) => text.startsWith('{"log":"') ? 8 : -1,
  },
  {
    name: "cri",
    program: "containerd / CRI-O (Kubernetes CRI container log, /var/log/pods)",
    kind: "container or Kubernetes",
    url: "https://github.com/kubernetes/design-proposals-archive/blob/main/node/kubelet-cri-logging.md",
    line: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}) (stdout|stderr) [FP] /,
    levels: NONE,
    time: "RFC 3339 with ns",
    continuation: "a P (partial) tag: the line goes on in the next record",
    own: true,
    inner: (text) => {
      const m = /^\S+ (stdout|stderr) [FP] /.exec(text);
      return m ? m[0].length : -1;
    },
  },
  {
    name: "klog",
    program: "Kubernetes components (klog) and glog",
    kind: "container or Kubernetes",
    url:
      "https://github.com/kubernetes/klog/blob/main/klog.go (header: Lmmdd hh:mm:ss.uuuuuu threadid file:line])",
    line: /^(?<lvl>[IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ [^ :]+:\d+\] /,
    levels: { I: "INFO", W: "WARN", E: "ERROR", F: "FATAL" },
    time: "mmdd hh:mm:ss.uuuuuu (no year)",
    continuation: "goroutine dumps after F",
  },
  {
    name: "etcd",
    program: "etcd 3.5+ (zap JSON, the default --log-format)",
    kind: "container or Kubernetes",
    url: "https://etcd.io/docs/v3.5/op-guide/configuration/",
    line:
      /^\{"level":"(?<lvl>debug|info|warn|error|dpanic|panic|fatal)","ts":"\d{4}-\d{2}-\d{2}T[^"]+","caller":"/,
    levels: ZAP,
    time: '"ts": RFC 3339 with µs',
    continuation: "none",
  },
  {
    name: "logrus_text",
    program: "Go logrus TextFormatter to a file (dockerd, containerd, Traefik v2)",
    kind: "container or Kubernetes",
    url: "https://github.com/sirupsen/logrus#formatters",
    line: /^time="[^"]+" level=(?<lvl>trace|debug|info|warning|error|fatal|panic) msg=/,
    levels: {
      trace: "TRACE",
      debug: "DEBUG",
      info: "INFO",
      warning: "WARN",
      error: "ERROR",
      fatal: "FATAL",
      panic: "FATAL",
    },
    time: 'time="RFC 3339"',
    continuation: "none",
  },
  // --- language runtimes' default loggers
  {
    name: "python_logging",
    program: "Python logging (logging.BASIC_FORMAT, the default of basicConfig and of the last resort)",
    kind: "language runtime",
    url: "https://docs.python.org/3/library/logging.html#logging.basicConfig",
    line: /^(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL):[^\s:]*:/,
    levels: PY,
    time: "none",
    continuation: "Traceback (most recent call last): and its indented frames",
  },
  {
    name: "python_asctime",
    program:
      "Python logging (basicConfig's format of the Logging HOWTO: %(asctime)s - %(name)s - %(levelname)s - %(message)s)",
    kind: "language runtime",
    url: "https://docs.python.org/3/howto/logging.html#configuring-logging",
    line: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3} - \S+ - (?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL) - /,
    levels: PY,
    time: "yyyy-mm-dd hh:mm:ss,mmm (%(asctime)s)",
    continuation: "tracebacks",
  },
  {
    name: "java_util_logging",
    program: "Java java.util.logging SimpleFormatter (its default two-line format)",
    kind: "language runtime",
    url:
      "https://docs.oracle.com/en/java/javase/21/docs/api/java.logging/java/util/logging/SimpleFormatter.html",
    line: /^[A-Z][a-z]{2} \d{2}, \d{4} \d{1,2}:\d{2}:\d{2} [AP]M \S+( \S+)?$/,
    levels: {
      SEVERE: "ERROR",
      WARNING: "WARN",
      INFO: "INFO",
      CONFIG: "DEBUG",
      FINE: "DEBUG",
      FINER: "TRACE",
      FINEST: "TRACE",
    },
    continues: /^(SEVERE|WARNING|INFO|CONFIG|FINE|FINER|FINEST): /,
    time: "Mmm dd, yyyy h:mm:ss AM (the header line)",
    continuation: "the second line `LEVEL: message` (the entry's level), then a stack trace",
  },
  {
    name: "spring_boot",
    program: "Spring Boot 3 (its default console/file pattern)",
    kind: "language runtime",
    url: "https://docs.spring.io/spring-boot/reference/features/logging.html#features.logging.log-format",
    line:
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2}) +(?<lvl>TRACE|DEBUG|INFO|WARN|ERROR|FATAL) \d+ --- \[/,
    levels: LOG4J,
    time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
    continuation: "Java stack traces",
  },
  {
    name: "log4j2_default",
    program: "Apache Log4j 2 (DefaultConfiguration: %d{HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n)",
    kind: "language runtime",
    url: "https://logging.apache.org/log4j/2.x/manual/configuration.html#automatic-configuration",
    line: /^\d{2}:\d{2}:\d{2}\.\d{3} \[[^\]]*\] (?<lvl>TRACE|DEBUG|INFO|WARN|ERROR|FATAL) +\S+ - /,
    levels: LOG4J,
    time: "HH:mm:ss.SSS: a time of day only (untimed: no date)",
    continuation: "Java stack traces",
  },
  {
    name: "logback_default",
    program:
      "logback 1.3+ (BasicConfigurator: %d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} -%kvp- %msg%n)",
    kind: "language runtime",
    url: "https://logback.qos.ch/manual/configuration.html#automaticConf",
    line: /^\d{2}:\d{2}:\d{2}\.\d{3} \[[^\]]*\] (?<lvl>TRACE|DEBUG|INFO|WARN|ERROR) +\S+ -.*?- /,
    levels: LOG4J,
    time: "HH:mm:ss.SSS: a time of day only (untimed)",
    continuation: "Java stack traces",
  },
  {
    name: "go_slog_default",
    program: "Go log/slog's default logger (through package log: date time LEVEL msg k=v)",
    kind: "language runtime",
    url: "https://pkg.go.dev/log/slog#hdr-Levels",
    line: /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(\.\d+)? (?<lvl>DEBUG|INFO|WARN|ERROR)([+-]\d+)? /,
    levels: { DEBUG: "DEBUG", INFO: "INFO", WARN: "WARN", ERROR: "ERROR" },
    time: "yyyy/mm/dd hh:mm:ss (log.LstdFlags, local time)",
    continuation: "none",
  },
  {
    name: "go_log",
    program: "Go package log (log.LstdFlags)",
    kind: "language runtime",
    url: "https://pkg.go.dev/log#pkg-constants",
    line: /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(\.\d+)? /,
    levels: NONE,
    time: "yyyy/mm/dd hh:mm:ss (local time)",
    continuation: "a panic's goroutine dump",
  },
  {
    name: "go_slog_text",
    program: "Go log/slog TextHandler",
    kind: "language runtime",
    url: "https://pkg.go.dev/log/slog#TextHandler",
    line: /^time=\S+ level=(?<lvl>DEBUG|INFO|WARN|ERROR)([+-]\d+)? msg=/,
    // slog writes a level between two named ones as the name below it and an offset: DEBUG-4, INFO+2.
    levels: { DEBUG: "DEBUG", INFO: "INFO", WARN: "WARN", ERROR: "ERROR" },
    time: "time=RFC 3339 with ms",
    continuation: "none",
    own: true,
  },
  {
    name: "go_slog_json",
    program: "Go log/slog JSONHandler",
    kind: "language runtime",
    url: "https://pkg.go.dev/log/slog#JSONHandler",
    line: /^\{"time":"[^"]+","level":"(?<lvl>DEBUG|INFO|WARN|ERROR)([+-]\d+)?","msg":/,
    levels: { DEBUG: "DEBUG", INFO: "INFO", WARN: "WARN", ERROR: "ERROR" },
    time: '"time": RFC 3339 with ns',
    continuation: "none",
    own: true,
  },
  {
    name: "pino",
    program: "Node.js pino (its default JSON)",
    kind: "language runtime",
    url: "https://getpino.io/#/docs/api?id=logger",
    line: /^\{"level":(?<lvl>10|20|30|40|50|60),"time":\d{13},("pid":\d+,"hostname":|"msg":)/,
    levels: PINO,
    time: '"time": epoch ms',
    continuation: "none",
  },
  {
    name: "bunyan",
    program: "Node.js bunyan (its core fields)",
    kind: "language runtime",
    url: "https://github.com/trentm/node-bunyan#core-fields",
    line: /^\{"name":"[^"]*","hostname":"[^"]*","pid":\d+,.*"level":(?<lvl>10|20|30|40|50|60),/,
    levels: PINO,
    time: '"time": ISO 8601 with ms, Z',
    continuation: "none",
  },
  {
    name: "winston",
    program: "Node.js winston 3 (format.json(), npm levels)",
    kind: "language runtime",
    url: "https://github.com/winstonjs/winston#logging-levels",
    line: /^\{"level":"(?<lvl>error|warn|info|http|verbose|debug|silly)","message":/,
    levels: {
      error: "ERROR",
      warn: "WARN",
      info: "INFO",
      http: "DEBUG",
      verbose: "DEBUG",
      debug: "DEBUG",
      silly: "TRACE",
    },
    time: 'none by default ("timestamp" with format.timestamp())',
    continuation: "none",
    own: true,
  },
  {
    name: "ruby_logger",
    program: "Ruby Logger::Formatter (also Rails' production logger)",
    kind: "language runtime",
    url: "https://docs.ruby-lang.org/en/master/Logger.html#class-Logger-label-Log+Format",
    line:
      /^(?<lvl>[DIWEFA]), \[\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6} #\d+\] +(DEBUG|INFO|WARN|ERROR|FATAL|ANY) -- /,
    levels: { D: "DEBUG", I: "INFO", W: "WARN", E: "ERROR", F: "FATAL", A: "UNKNOWN" },
    time: "[yyyy-mm-ddThh:mm:ss.uuuuuu #pid] (local time, no offset)",
    continuation: "the message's own lines (a backtrace) unprefixed",
  },
  {
    name: "laravel",
    program: "Laravel (Monolog LineFormatter, date Y-m-d H:i:s, channel = the environment)",
    kind: "language runtime",
    url: "https://laravel.com/docs/11.x/logging",
    line:
      /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\] \w+\.(?<lvl>DEBUG|INFO|NOTICE|WARNING|ERROR|CRITICAL|ALERT|EMERGENCY): /,
    levels: MONOLOG,
    continues: /^(\[stacktrace\]|#\d+ |"\}|\[previous exception\])/,
    time: "[yyyy-mm-dd hh:mm:ss] (local time)",
    continuation: "[stacktrace], #N frames, the closing \"} of the exception's context",
  },
  {
    name: "monolog",
    program:
      "PHP Monolog 2/3 (LineFormatter: [%datetime%] %channel%.%level_name%: %message% %context% %extra%)",
    kind: "language runtime",
    url: "https://github.com/Seldaek/monolog/blob/main/doc/01-usage.md",
    line:
      /^\[\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2}\] [\w.-]+\.(?<lvl>DEBUG|INFO|NOTICE|WARNING|ERROR|CRITICAL|ALERT|EMERGENCY): /,
    levels: MONOLOG,
    time: "[yyyy-mm-ddThh:mm:ss.uuuuuu±hh:mm]",
    continuation: "none unless multi-line messages are allowed",
  },
  {
    name: "php_error",
    program: "PHP's error_log file",
    kind: "language runtime",
    url: "https://www.php.net/manual/en/errorfunc.configuration.php#ini.error-log",
    line:
      /^\[\d{2}-[A-Z][a-z]{2}-\d{4} \d{2}:\d{2}:\d{2}( [\w/+-]+)?\] (PHP (?<lvl>Fatal error|Parse error|Warning|Notice|Deprecated|Strict Standards|Catchable fatal error):)?/,
    levels: {
      "Fatal error": "FATAL",
      "Parse error": "FATAL",
      "Catchable fatal error": "ERROR",
      Warning: "WARN",
      Notice: "NOTICE",
      Deprecated: "INFO",
      "Strict Standards": "INFO",
    },
    continues: /^\[[^\]]+\] PHP (Stack trace:| +\d+\. )/,
    time: "[dd-Mon-yyyy hh:mm:ss ZONE] (date.timezone's name)",
    continuation: "PHP Stack trace: and `PHP   N. frame` lines",
    own: true,
  },
  {
    name: "dotnet_console",
    program: ".NET Microsoft.Extensions.Logging console (the simple formatter, the default)",
    kind: "language runtime",
    url: "https://learn.microsoft.com/en-us/dotnet/core/extensions/console-log-formatters",
    line: /^(?<lvl>trce|dbug|info|warn|fail|crit): \S+\[\d+\]$/,
    levels: { trce: "TRACE", dbug: "DEBUG", info: "INFO", warn: "WARN", fail: "ERROR", crit: "FATAL" },
    continues: /^ {6}/,
    time: "none by default (TimestampFormat unset)",
    continuation: "the message on the next line, indented six spaces",
    own: true,
  },
  {
    name: "rust_env_logger",
    program: "Rust env_logger (its default format)",
    kind: "language runtime",
    url: "https://docs.rs/env_logger/latest/env_logger/#using-env_logger",
    line: /^\[\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z (?<lvl>ERROR|WARN|INFO|DEBUG|TRACE) *[\w:]*\] /,
    levels: { ERROR: "ERROR", WARN: "WARN", INFO: "INFO", DEBUG: "DEBUG", TRACE: "TRACE" },
    time: "[RFC 3339 UTC, seconds (0.10) or finer]",
    continuation: "none",
  },
  {
    name: "erlang_logger",
    program: "Erlang/OTP 21+ logger (logger_formatter's default template)",
    kind: "language runtime",
    url: "https://www.erlang.org/doc/apps/kernel/logger_formatter.html",
    line:
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2} (?<lvl>emergency|alert|critical|error|warning|notice|info|debug): /,
    levels: {
      emergency: "FATAL",
      alert: "FATAL",
      critical: "FATAL",
      error: "ERROR",
      warning: "WARN",
      notice: "NOTICE",
      info: "INFO",
      debug: "DEBUG",
    },
    time: "RFC 3339 with µs and offset",
    continuation: "indented lines of a report",
  },
  {
    name: "elixir_logger",
    program: 'Elixir Logger (the default console format "$time $metadata[$level] $message")',
    kind: "language runtime",
    url: "https://hexdocs.pm/logger/Logger.html#module-formatting",
    line:
      /^\d{2}:\d{2}:\d{2}\.\d{3} (\S+=\S+ )*\[(?<lvl>emergency|alert|critical|error|warning|warn|notice|info|debug)\] /,
    levels: {
      emergency: "FATAL",
      alert: "FATAL",
      critical: "FATAL",
      error: "ERROR",
      warning: "WARN",
      warn: "WARN",
      notice: "NOTICE",
      info: "INFO",
      debug: "DEBUG",
    },
    time: "hh:mm:ss.mmm: a time of day only (untimed)",
    continuation: "indented lines",
  },
];

/** The format named `name` in {@linkcode LOG_FORMATS}, or undefined. */
export function formatByName(name: string): LogFormat | undefined {
  return LOG_FORMATS.find((f) => f.name === name);
}

const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The text the table's patterns are tested on: the first {@linkcode TEXT_CHARS} bytes of buf[start, end),
 * decoded as UTF-8 (invalid bytes as U+FFFD; measured 130–190 ns a line, against ~300 for `fromCharCode`
 * and ~1,700 for a Latin-1 `TextDecoder`). The patterns' tokens are ASCII, so an offset into the text's
 * ASCII prefix (`inner`) is the same offset into the line's bytes.
 */
function textOf(buf: Uint8Array, start: number, end: number): string {
  return UTF8.decode(buf.subarray(start, Math.min(end, start + TEXT_CHARS)));
}

/**
 * The format of a log, from a sample of its first lines: the format whose `line` pattern matches the most
 * of the sample's entry lines, when it matches a clear majority of them, else null (the general rules).
 *
 * The rule: `sample` (at most `SAMPLE_BYTES`, the head `timestamp.ts` `learnLayout` reads) is read up to
 * its {@linkcode SAMPLE_LINES}th non-empty line that the general rules do not call a continuation
 * (`level.ts` rule 0: an indented line, a stack frame, `Caused by:`; those are not counted); nor is, for
 * one format, a line of its own `continues` pattern (PostgreSQL's `DETAIL:`, W3C's `#Fields:`). ANSI
 * colour codes are skipped. A format wins when its entry lines are
 * more than half of the lines left for it and at least {@linkcode MIN_MATCH} of them (or every line of a
 * shorter sample); the most entry lines wins, a tie the format first in the table (the more specific).
 *
 * @param sample The log's first bytes (a whole number of lines; a BOM already skipped).
 * @returns The format, or null.
 */
export function detectFormat(sample: Uint8Array): LogFormat | null {
  const hits = new Array<number>(LOG_FORMATS.length).fill(0);
  const own = new Array<number>(LOG_FORMATS.length).fill(0);
  let lines = 0, s = 0;
  while (s < sample.length && lines < SAMPLE_LINES) {
    let e = sample.indexOf(10, s);
    if (e < 0) e = sample.length;
    const b = e > s && sample[e - 1] === 13 ? e - 1 : e;
    const a = s;
    s = e + 1;
    if (b === a) continue;
    if (lineLevel(sample, a, b) === CONTINUED) continue;
    // ANSI colour codes (a log written for a terminal) are not part of the format.
    let text = textOf(sample, a, b);
    if (text.includes("\x1b")) text = text.replace(ANSI, "");
    lines++;
    LOG_FORMATS.forEach((f, i) => {
      if (f.line.test(text)) hits[i]++;
      else if (f.continues?.test(text)) own[i]++;
    });
  }
  let best = -1;
  hits.forEach((n, i) => {
    const left = lines - own[i];
    if (n * 2 > left && n >= Math.min(MIN_MATCH, left) && (best < 0 || n > hits[best])) best = i;
  });
  return best < 0 ? null : LOG_FORMATS[best];
}

/** An ANSI escape sequence (SGR colours and the like), skipped by detection. */
// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** How many sample lines at least a format must match to be detected (fewer only when the sample is shorter). */
export const MIN_MATCH = 3;

/**
 * The level code of one line of a log of format `f`, read the format's way: the level its `lvl` group
 * names; `CONTINUED` for a line of its `continues` pattern; for a format that wraps a message (`inner`),
 * the general rules' level of that message; otherwise (a line the format does not match) the general
 * rules' (`level.ts` `lineLevel`).
 *
 * @param f The format.
 * @param buf Bytes holding the line; `start`, `end`, `hint` as `level.ts` `lineLevel`'s.
 * @returns A code of `lineLevel`'s kinds: a level code, `CONTINUED` or `UNSCALED`.
 */
export function formatLevel(f: LogFormat, buf: Uint8Array, start: number, end: number, hint = -1): number {
  const text = textOf(buf, start, end);
  if (f.continues?.test(text)) return CONTINUED;
  if (f.inner) {
    const at = f.line.test(text) ? f.inner(text) : -1;
    if (at >= 0) {
      const code = lineLevel(buf, start + at, end);
      return code === CONTINUED ? CONTINUED : code;
    }
    return lineLevel(buf, start, end, hint);
  }
  const m = f.line.exec(text);
  if (m === null) return lineLevel(buf, start, end, hint);
  const written = m.groups?.lvl;
  if (written === undefined) return lineLevel(buf, start, end, hint);
  const name = f.levels[written];
  return name === undefined ? UNKNOWN : LEVELS.indexOf(name);
}

/**
 * A `LevelTally` whose lines are read the way of format `f` ({@linkcode formatLevel}), and counted in order
 * by `LevelTally`'s rules (a continuation line under its entry's level).
 */
class FormatTally extends LevelTally {
  readonly #format: LogFormat;

  /** A tally for a log of format `f`. */
  constructor(f: LogFormat) {
    super();
    this.#format = f;
  }

  /** `LevelTally.add`, the line's code read by {@linkcode formatLevel}. */
  override add(buf: Uint8Array, start: number, end: number, hint = -1, counted = true): number {
    return this.other(formatLevel(this.#format, buf, start, end, hint), buf, start, end, counted);
  }
}

/**
 * The tally a log's lines are counted with: the general rules' `LevelTally` unless the log's format reads
 * its own levels (`own`), then one that reads them the format's way.
 *
 * @param f The log's format ({@linkcode detectFormat}), or null.
 * @returns A fresh tally.
 */
export function tallyFor(f: LogFormat | null): LevelTally {
  return f?.own ? new FormatTally(f) : new LevelTally();
}

/**
 * The level of one line alone (no entry before it: a continuation is UNKNOWN), for a log of format `f`
 * (null: the general rules, `level.ts` `levelOf`).
 */
export function formatLevelOf(
  f: LogFormat | null,
  buf: Uint8Array,
  start: number,
  end: number,
  hint = -1,
): number {
  const code = f?.own ? formatLevel(f, buf, start, end, hint) : lineLevel(buf, start, end, hint);
  return code >= CONTINUED ? UNKNOWN : code;
}

/**
 * The format of an open log ({@linkcode detectFormat} on its first `SAMPLE_BYTES`, decompressed for a gzip
 * log), or null for the general rules. Reads those bytes once; a few ms of patterns on them.
 */
export function formatOf(log: ReadableLog): LogFormat | null {
  return detectFormat(logHead(log, SAMPLE_BYTES));
}

/** A reader of one line's level alone: `(buf, start, end, hint?) => level code` (`level.ts` `levelOf`'s shape). */
export type LevelReader = (buf: Uint8Array, start: number, end: number, hint?: number) => number;

/**
 * How the lines of a log of format `f` get their level one by one (`log_tail`, `log_search`): `level.ts`
 * `levelOf` itself unless the format reads its own levels, then {@linkcode formatLevelOf} for `f`.
 */
export function levelReader(f: LogFormat | null): LevelReader {
  return f?.own ? (buf, start, end, hint = -1) => formatLevelOf(f, buf, start, end, hint) : levelOf;
}
