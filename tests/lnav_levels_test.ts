/**
 * logpeek's level of every line against lnav's (issue #23 item 2), on lnav's own test logs in
 * `../shared/corpus/lnav/logs/`, read by Debian's `lnav` (0.11.1) headless as that folder's README says.
 *
 * lnav is a peer, not the truth. Only the lines of formats whose level lnav reads from a level written
 * in the line are compared ({@linkcode WRITTEN}); in the others lnav's level is its own (an HTTP status,
 * a syscall's errno, a keyword of a syslog message, or its `info` default: {@linkcode DERIVED}), so
 * there a line is judged only where logpeek reads a level. Every line where the two differ must be
 * covered by a verdict of {@linkcode VERDICTS}, written after reading the line, and every verdict must
 * still be needed.
 *
 * The tests print SKIP and are ignored where `../shared` or `lnav` is absent.
 *
 * @module
 */
import { haveLnav, type LnavRow, lnavRows as peerRows } from "./lnav_peer.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { connect } from "./mcp_client.ts";
import { sharedDir } from "./shared_dir.ts";
import { CONTINUED, LEVELS, LevelTally } from "../src/read/level.ts";
import { detectFormat, tallyFor } from "../src/read/log_format.ts";
import { SAMPLE_BYTES } from "../src/read/timestamp.ts";

const shared = sharedDir("the lnav level comparison");
const logs = shared ? join(shared, "corpus", "lnav", "logs") : "";

const lnav = shared !== null && haveLnav("the lnav level comparison");

/**
 * lnav 0.11.1's formats whose level comes from a level written in the line (its `level-field` names a
 * level column; `generic_log`, built in, reads the level word after the time; `logfmt_log` its `level=`).
 */
const WRITTEN = new Set([
  "generic_log",
  "glog_log",
  "journald_json_log",
  "logfmt_log",
  "openam_log",
  "vdsm_log",
  "vmw_log",
  "java_log",
  "openstack_log",
]);

/** lnav 0.11.1's formats whose level lnav works out itself, and from what (their format definitions). */
const DERIVED: Record<string, string> = {
  access_log: "the HTTP status (sc_status: 4xx/5xx error)",
  uwsgi_log: "the HTTP status",
  w3c_log: "the HTTP status",
  strace_log: "the syscall's errno",
  syslog_log: "keywords of the message body (`failed`, `error`), else info",
  block_log: "its default, info",
  bro_conn_log: "its default, info",
  procstate_log: "its default, info",
  tcf_log: "its default, info",
};

/** A judged difference: the file, its lines `from`…`to` (1-based), lnav's level, logpeek's, and why. */
type Verdict = [file: string, from: number, to: number, lnav: string, logpeek: string, why: string];

const VERDICTS: Verdict[] = [
  ...([[1, 1], [3, 4]] as const).map(([a, b]): Verdict => [
    "logfile_mysql_error.0",
    a,
    b,
    "UNKNOWN",
    "INFO",
    "logpeek right: read as mysql_error (read/log_format.ts), whose `[Note]` (and `[System]`) label is an " +
    "informational message (MySQL 8.0 error-log-format); lnav's generic_log reads no level there",
  ]),
  ...([["logfile_postgres.1", 2, 40], ["logfile_postgres.1", 43, 43], ["logfile_postgres.2", 2, 4], [
    "logfile_postgres.2",
    6,
    8,
  ]] as const).map(([f, a, b]): Verdict => [
    f,
    a,
    b,
    "UNKNOWN",
    "ERROR",
    "logpeek right: read as postgresql (read/log_format.ts): a STATEMENT:/DETAIL:/CONTEXT: line, and the " +
    "tab-indented lines of its statement, belong to the ERROR entry before them (PostgreSQL's " +
    "runtime-config-logging: they report that error's statement and detail); lnav's generic_log has no level",
  ]),
  [
    "logfile_laravel.0",
    1,
    1416,
    "UNKNOWN",
    "ERROR",
    "logpeek right: every entry writes Monolog's `local.ERROR:` (channel.LEVEL), which lnav's generic_log " +
    "does not read; the stack traces, `[stacktrace]`, `#N` frames and closing `\"}` lines are those entries'",
  ],
  [
    "logfile_openam.0",
    1,
    1,
    "INFO",
    "UNKNOWN",
    "logpeek misses: INFO stands in a tab-separated column after quoted fields (OpenAM's audit log); the " +
    "general rules stop at quoted text (an access log's request), so it needs the file's format",
  ],
  [
    "logfile_openam.0",
    2,
    2,
    "TRACE",
    "UNKNOWN",
    "logpeek misses FINE in the same column (lnav folds FINE to trace; java.util.logging's FINE is DEBUG)",
  ],
  [
    "logfile_ts_value.0",
    2,
    2,
    "INFO",
    "WARN",
    "logpeek right: the line writes WARN after its time; lnav read it as syslog_log, which has no level field",
  ],
];

/** lnav's level names as logpeek names levels. */
function fold(level: string): string {
  if (/^debug[2-5]?$/.test(level)) return "DEBUG";
  const names: Record<string, string> = {
    trace: "TRACE",
    info: "INFO",
    notice: "NOTICE",
    warning: "WARN",
    error: "ERROR",
    critical: "FATAL",
    fatal: "FATAL",
    unknown: "UNKNOWN",
  };
  if (!(level in names)) throw new Error(`an lnav level this test does not know: ${level}`);
  return names[level];
}

type Row = LnavRow;

/** lnav's rows (one per log message) for `file`, as its README runs it; [] when lnav reads no format. */
function lnavRows(file: string): Row[] {
  const home = Deno.makeTempDirSync({ prefix: "logpeek-lnav-home-" });
  try {
    return peerRows(file, home);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
}

/** Each line of `bytes` (split at `\n`, a `\r` before it dropped) as [start, end) offsets. */
function lineSpans(bytes: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let s = 0;
  while (s < bytes.length) {
    let nl = bytes.indexOf(10, s);
    if (nl < 0) nl = bytes.length;
    out.push([s, nl > s && bytes[nl - 1] === 13 ? nl - 1 : nl]);
    s = nl + 1;
  }
  return out;
}

/** The head a log's format is detected from (`read/scan_source.ts` `logHead`: after a BOM, whole lines). */
function headOf(bytes: Uint8Array): Uint8Array {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const head = bytes.subarray(bom, bom + SAMPLE_BYTES);
  if (head.length < SAMPLE_BYTES) return head;
  const nl = head.lastIndexOf(10);
  return nl < 0 ? head : head.subarray(0, nl + 1);
}

/**
 * logpeek's level of each line of `bytes`, read in order as `log_levels` reads them: by the log's format
 * (`read/log_format.ts`, detected from its head) or, with `general`, by the general rules alone.
 */
function logpeekLevels(bytes: Uint8Array, general = false): string[] {
  const tally = general ? new LevelTally() : tallyFor(detectFormat(headOf(bytes)));
  return lineSpans(bytes).map(([a, b]) => LEVELS[tally.add(bytes, a, b) % CONTINUED]);
}

/** For each of lnav's rows, the 0-based file lines it covers (JSON logs: placed by their raw text). */
function placeRows(rows: Row[], bytes: Uint8Array): [Row, number[]][] {
  const dec = new TextDecoder();
  const spans = lineSpans(bytes);
  let next = 0;
  return rows.map((r) => {
    if (!r.log_format.includes("json")) {
      const n = r.log_raw_text.split("\n").length;
      return [r, Array.from({ length: n }, (_, k) => r.log_line + k)];
    }
    while (next < spans.length && dec.decode(bytes.subarray(...spans[next])) !== r.log_raw_text) next++;
    assert.ok(
      next < spans.length,
      `a JSON row of lnav's not found in the file: ${r.log_raw_text.slice(0, 80)}`,
    );
    return [r, [next++]];
  });
}

Deno.test({
  name: "lnav's logs: logpeek's level of every line agrees with lnav's where lnav reads a written level, " +
    "and every difference is judged",
  ignore: !lnav,
  fn() {
    const used = new Map<Verdict, number>();
    let compared = 0, agreed = 0, right = 0, missed = 0, derivedJudged = 0;
    const unjudged: string[] = [];
    const files = [...Deno.readDirSync(logs)].filter((e) => e.isFile).map((e) => e.name).sort();
    assert.ok(files.length >= 70, `${files.length} lnav logs`);
    for (const file of files) {
      const bytes = Deno.readFileSync(join(logs, file));
      const mine = logpeekLevels(bytes);
      for (const [row, lines] of placeRows(lnavRows(join(logs, file)), bytes)) {
        const theirs = fold(row.log_level);
        const written = WRITTEN.has(row.log_format);
        if (!written && !(row.log_format in DERIVED)) {
          throw new Error(`${file}: lnav format ${row.log_format} is neither in WRITTEN nor in DERIVED`);
        }
        for (const i of lines) {
          const got = mine[i];
          assert.ok(got !== undefined, `${file}:${i + 1}: lnav has a line the file has not`);
          if (written) compared++;
          if (got === theirs) {
            if (written) agreed++;
            continue;
          }
          if (!written && got === "UNKNOWN") continue; // lnav's own level: DERIVED says from what
          const v = VERDICTS.find(([f, a, b, l, p]) =>
            f === file && a <= i + 1 && i + 1 <= b && l === theirs && p === got
          );
          if (!v) unjudged.push(`${file}:${i + 1} lnav ${theirs} (${row.log_format}) logpeek ${got}`);
          else used.set(v, (used.get(v) ?? 0) + 1);
          if (!written) derivedJudged++;
          else if (v?.[5].startsWith("logpeek right")) right++;
          else if (v) missed++;
        }
      }
    }
    assert.deepEqual(unjudged.slice(0, 60), [], `${unjudged.length} differences without a verdict`);
    for (const v of VERDICTS) {
      assert.equal(used.get(v), v[2] - v[1] + 1, `verdict still needed on every line: ${v}`);
    }
    console.error(
      `lnav's written levels, ${compared} lines: ${agreed} agree (${
        (100 * agreed / compared).toFixed(1)
      }%), ` +
        `${right} differ where logpeek is right, ${missed} where logpeek misses the level; ` +
        `${derivedJudged} line(s) of formats where lnav derives the level differ, judged`,
    );
    assert.equal(agreed + right + missed, compared);
  },
});

Deno.test({
  name: "lnav's logs: log_levels' counts are the level of each line read in order, for every log",
  ignore: shared === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using s = await connect([logs]);
    for (
      const e of [...Deno.readDirSync(logs)].filter((e) => e.isFile).sort((a, b) => a.name < b.name ? -1 : 1)
    ) {
      const bytes = Deno.readFileSync(join(logs, e.name));
      const want: Record<string, number> = Object.fromEntries(LEVELS.map((l) => [l, 0]));
      for (const l of logpeekLevels(bytes)) want[l]++;
      const r = await s.call("log_levels", { file: e.name });
      if (r.isError) continue; // a file logpeek refuses (binary, …): not a level question
      const got = r.structuredContent;
      assert.deepEqual(got.counts, want, e.name);
      assert.equal(got.total_lines, lineSpans(bytes).length, `${e.name}: total_lines`);
    }
  },
});

Deno.test({
  name: "log_levels on lnav's Laravel log counts its error entries as ERROR (grep's count), none TRACE",
  ignore: shared === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // The Laravel log: the lnav log that holds Monolog's `local.ERROR` (grep -l), and its counts by grep.
    const grep = (...args: string[]) =>
      new TextDecoder().decode(new Deno.Command("grep", { args, stdout: "piped" }).outputSync().stdout)
        .trim();
    const found = grep("-l", "local.ERROR", "-r", logs).split("\n").filter(Boolean);
    assert.equal(found.length, 1, `the Laravel log: ${found}`);
    const file = found[0].slice(logs.length + 1);
    const errors = Number(grep("-c", "local\\.ERROR:", found[0]));
    const entries = Number(
      grep("-cE", "^\\[[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}\\] [a-z]+\\.[A-Z]+:", found[0]),
    );
    const lines = Number(grep("-c", "", found[0]));
    assert.ok(errors > 50 && entries === errors, `${errors} error entries of ${entries}`);
    await using s = await connect([logs]);
    const r = (await s.call("log_levels", { file })).structuredContent;
    assert.equal(r.entries.ERROR, errors);
    assert.equal(r.counts.TRACE, 0);
    assert.deepEqual(
      [r.counts.ERROR, r.total_lines, r.continuation_lines, r.complete],
      [lines, lines, lines - entries, true],
      "every line belongs to an error entry",
    );
    // The same through a time window that holds the whole log (the count with a window reads each line's time).
    const w =
      (await s.call("log_levels", { file, since: "2023-05-15T00:00:00Z", until: "2023-05-16T00:00:00Z" }))
        .structuredContent;
    assert.deepEqual([w.entries.ERROR, w.counts.ERROR, w.counts.TRACE], [errors, lines, 0]);
  },
});
