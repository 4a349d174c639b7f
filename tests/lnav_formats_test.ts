/**
 * The format logpeek detects for each of lnav's test logs (`read/log_format.ts`, from the log's head, as
 * `log_files` and every reading answer name it in `log_format`) against the format Debian's lnav (0.11.1)
 * reads it as (issue #23 item 2), where the two have equivalent names ({@linkcode EQUIVALENT}). lnav is a
 * peer, not the truth: every difference is judged in {@linkcode VERDICTS}, after reading the log, and every
 * verdict must still be needed.
 *
 * The test prints SKIP and is ignored where `../shared` or `lnav` is absent.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { haveLnav, lnavRows } from "./lnav_peer.ts";
import { sharedDir } from "./shared_dir.ts";
import { detectFormat, LOG_FORMATS } from "../src/read/log_format.ts";
import { SAMPLE_BYTES } from "../src/read/timestamp.ts";

const shared = sharedDir("the lnav format comparison");
const logs = shared ? join(shared, "corpus", "lnav", "logs") : "";

const lnav = shared !== null && haveLnav("the lnav format comparison");

/**
 * lnav's format names and logpeek's formats that read the same logs (`null`: logpeek's general rules,
 * the counterpart of lnav's catch-all `generic_log`, a time and a level word).
 */
const EQUIVALENT: Record<string, (string | null)[]> = {
  access_log: ["nginx_access", "apache_access", "apache_vhost_combined"],
  syslog_log: ["syslog_rfc3164", "rsyslog_file", "syslog_rfc5424", "haproxy"],
  glog_log: ["klog"],
  journald_json_log: ["journald_json"],
  w3c_log: ["iis_w3c"],
  logfmt_log: ["logrus_text", "go_slog_text"],
  generic_log: [null],
};

/** A judged difference: the file, lnav's format, logpeek's, and why. */
type Verdict = [file: string, lnav: string, logpeek: string | null, why: string];

const SPECIFIC = "logpeek more specific: lnav 0.11.1 has no format of its own for ";
const VERDICTS: Verdict[] = [
  [
    "logfile_laravel.0",
    "generic_log",
    "laravel",
    SPECIFIC + "Laravel's Monolog lines (`[time] local.ERROR:`)",
  ],
  ["logfile_mysql_error.0", "generic_log", "mysql_error", SPECIFIC + "MySQL 8's error log (`[Note] [MY-…]`)"],
  ["logfile_postgres.1", "generic_log", "postgresql", SPECIFIC + "PostgreSQL's `%m [%p] ` prefix"],
  ["logfile_postgres.2", "generic_log", "postgresql", SPECIFIC + "PostgreSQL's `%m [%p] ` prefix"],
  [
    "logfile_filter.1",
    "syslog_log",
    null,
    "logpeek's rule: 1 of the 5 lines is syslog, the others are `hello`/`bye`: no clear majority, so general " +
    "rules; lnav takes the one line it recognises",
  ],
  [
    "logfile_ts_value.0",
    "syslog_log",
    null,
    "logpeek right: `2024-01-01T15:00:00Z INFO …` lines have no host or program tag; lnav's syslog_log is a " +
    "wrong guess (the level comparison judges the same file's WARN line)",
  ],
  ...["logfile_w3c.0", "logfile_w3c.1", "logfile_w3c.3", "logfile_w3c.4"].map((f): Verdict => [
    f,
    "w3c_log",
    null,
    "logpeek's table holds IIS's default field set only (iis_w3c); this W3C log names other fields (HTTP.sys, " +
    "Advanced Logging, custom #Fields:), so general rules read it (its #Fields: columns are the time layer's)",
  ]),
];

/** lnav's format for a log: the one most of its rows are read as, or "" when it reads none. */
function lnavFormat(path: string): string {
  const home = Deno.makeTempDirSync({ prefix: "logpeek-lnav-home-" });
  try {
    const by = new Map<string, number>();
    for (const r of lnavRows(path, home)) by.set(r.log_format, (by.get(r.log_format) ?? 0) + 1);
    return [...by].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
}

/** The head logpeek detects a log's format from (`read/scan_source.ts` `logHead`). */
function headOf(bytes: Uint8Array): Uint8Array {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const head = bytes.subarray(bom, bom + SAMPLE_BYTES);
  if (head.length < SAMPLE_BYTES) return head;
  const nl = head.lastIndexOf(10);
  return nl < 0 ? head : head.subarray(0, nl + 1);
}

Deno.test({
  name:
    "lnav's logs: logpeek detects the format lnav reads, where both name one, and every difference is judged",
  ignore: !lnav,
  fn() {
    const known = new Set(LOG_FORMATS.map((f) => f.name));
    for (const names of Object.values(EQUIVALENT)) {
      for (const n of names) assert.ok(n === null || known.has(n), `${n} is in the table`);
    }
    const mapped = new Set(Object.values(EQUIVALENT).flat());
    const used = new Set<Verdict>();
    const unjudged: string[] = [];
    let compared = 0, agreed = 0;
    const lnavOnly: string[] = [], logpeekOnly: string[] = [];
    const files = [...Deno.readDirSync(logs)].filter((e) => e.isFile).map((e) => e.name).sort();
    assert.ok(files.length >= 70, `${files.length} lnav logs`);
    for (const file of files) {
      const theirs = lnavFormat(join(logs, file));
      const mine = detectFormat(headOf(Deno.readFileSync(join(logs, file))))?.name ?? null;
      if (!(theirs in EQUIVALENT) && !(mine !== null && mapped.has(mine))) {
        if (theirs !== "") lnavOnly.push(`${file} ${theirs}`);
        if (mine !== null) logpeekOnly.push(`${file} ${mine}`);
        continue;
      }
      compared++;
      if (EQUIVALENT[theirs]?.includes(mine)) {
        agreed++;
        continue;
      }
      const v = VERDICTS.find(([f, l, p]) => f === file && l === theirs && p === mine);
      if (v) used.add(v);
      else unjudged.push(`${file}: lnav ${theirs || "(none)"}, logpeek ${mine}`);
    }
    assert.deepEqual(unjudged, [], `${unjudged.length} differences without a verdict`);
    assert.deepEqual(VERDICTS.filter((v) => !used.has(v)), [], "every verdict still needed");
    console.error(
      `lnav's logs, formats: ${compared} comparable, ${agreed} agree, ${used.size} differ (judged); ` +
        `lnav only (no equivalent in the table): ${lnavOnly.join(", ")}; ` +
        `logpeek only (lnav 0.11.1 reads no such format): ${logpeekOnly.join(", ")}`,
    );
    assert.ok(agreed >= 25, `${agreed} agree`);
  },
});
