/**
 * Issue #23 item 3: logpeek's line times against lnav's (Debian's lnav 0.11.1, a peer, not the truth) on
 * each of lnav's own test logs (`../shared/corpus/lnav/logs`). Per line: whether each read a time of the
 * line's own, and which, to the second, in UTC. Each difference is judged here by reading the line
 * (`VERDICTS`); an unjudged difference, or a verdict on lines that no longer differ, fails the test.
 * Ignored, with SKIP printed, where lnav or ../shared is absent.
 *
 * @module
 */

import { haveLnav, lnavRows } from "./lnav_peer.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { sharedDir } from "./shared_dir.ts";
import { openRoots } from "../src/source/local/roots.ts";
import { openLogSync } from "../src/source/local/log_file.ts";
import { lineClock, SAMPLE_BYTES } from "../src/read/timestamp.ts";
import { logHead } from "../src/read/scan_source.ts";

const shared = sharedDir("the lnav comparison of line times (issue #23)");
const lnav = haveLnav("tests/lnav_times_test.ts");

/** The modification time given to each copy: year-less lines are dated from it by both readers. */
const MTIME = new Date(Date.UTC(2024, 5, 15, 12));

/**
 * lnav's time of each file line (seconds since the epoch, UTC), placed by each row's first raw line (lnav
 * orders its rows by time, and counts a JSON log's display lines): the first line of that text not
 * placed yet.
 */
function lnavTimes(lines: string[], rows: { log_actual_time: string; log_raw_text: string }[]): number[] {
  const t = lines.map(() => NaN), free = new Map<string, number[]>();
  lines.forEach((l, i) => {
    const k = l.replace(/\r$/, "");
    free.set(k, [...(free.get(k) ?? []), i]);
  });
  for (const r of rows) {
    const at = free.get(r.log_raw_text.split("\n")[0].replace(/\r$/, ""))?.shift();
    if (at === undefined || !r.log_actual_time) continue;
    t[at] = Math.floor(Date.parse(r.log_actual_time.replace(" ", "T") + "Z") / 1000);
  }
  return t;
}

/** One judged difference: the lines it is about (by their text), who read a time there, and why. */
interface Verdict {
  match: RegExp;
  /** `lnav`: only lnav gave the line a time; `logpeek`: only logpeek; `both`: both, other seconds. */
  who: "lnav" | "logpeek" | "both";
  why: string;
  /** What must hold of logpeek's and lnav's seconds (NaN: none) on each such line for the verdict. */
  check: (ours: number, theirs: number, line: string) => boolean;
}

const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");

/**
 * Whether the time `t` (epoch seconds) is written in `line` (ANSI codes dropped), in UTC, as ISO 8601
 * (`-` or `/` between the date's fields, two- or four-digit year), `dd Mon yyyy HH:MM:SS`, `Mon dd
 * HH:MM:SS` (the year aside), or its epoch seconds' digits: found by formatting `t`, not by parsing.
 */
function written(line: string, t: number): boolean {
  const text = line.replace(new RegExp("\u001b\\[[0-9;]*[A-Za-z]", "g"), "");
  const d = new Date(t * 1000), iso = d.toISOString();
  const [date, time] = [iso.slice(0, 10), iso.slice(11, 19)];
  const mon = MONTHS[d.getUTCMonth()], day = d.getUTCDate();
  const forms = [
    `${date}T${time}`,
    `${date} ${time}`,
    `${date.slice(2).replaceAll("-", "/")} ${time}`,
    `${String(day).padStart(2, "0")} ${mon} ${d.getUTCFullYear()} ${time}`,
    `${mon} ${String(day).padStart(2, " ")} ${time}`,
    String(t),
  ];
  return forms.some((f) => text.includes(f));
}

/** The UTC offset written after a time (` +0330`, `+03:00`), in seconds. */
function writtenOffset(line: string): number {
  const m = /\d\d:\d\d(?:\.\d+)? ?([+-])(\d\d):?(\d\d)\b/.exec(line);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : NaN;
}

/** Same month, day and time, another year: how lnav and logpeek differ on year-less syslog lines. */
const otherYear = (a: number, b: number) =>
  new Date(a * 1000).toISOString().slice(4) === new Date(b * 1000).toISOString().slice(4);

const SYSLOG = new RegExp("^(\u001b\\[[0-9;]*m)*[A-Z][a-z]{2} [ \\d]\\d ");
const YEAR: Verdict = {
  match: SYSLOG,
  who: "both",
  why: "a year-less syslog line: lnav dates it after the file's modified time (2024-06-15) or counts years " +
    "back from 1970 at a roll-over; a line is not written after its file last changed, so logpeek takes " +
    "the latest year at or before it (month, day and time agree)",
  check: (a, b) => otherYear(a, b),
};
const OFFSET: Verdict = {
  match: /\d\d:\d\d(\.\d+)? ?[+-]\d\d:?\d\d/,
  who: "both",
  why: "the line writes a UTC offset; lnav 0.11.1 drops it and keeps the wall-clock time, logpeek applies it",
  check: (a, b, line) => b - a === writtenOffset(line),
};
const NO_FORMAT: Verdict = {
  match: /./,
  who: "logpeek",
  why: "lnav 0.11.1 has no format for this file (the formats came later, or live in lnav's test " +
    "configuration) and dates none of its lines; the time logpeek reads is the one the line writes",
  check: (a, _b, line) => written(line, a),
};
const BORROWED: Verdict = {
  match: /^(hello|bye|Header\d: \w+)$/,
  who: "lnav",
  why: "no time is written on the line; lnav gives it a neighbouring message's time",
  check: (a) => Number.isNaN(a),
};

const VERDICTS: Record<string, Verdict[]> = {
  "logfile_ansi.1": [YEAR],
  "logfile_bad_syslog.0": [YEAR, {
    ...NO_FORMAT,
    match: /^Nov {2}3 09:23:38 veridian lookup/,
    why: "the syslog time is written; lnav's syslog format wants a `program:` after the host, so it " +
      "makes the line part of the message before",
  }],
  "logfile_dst.0": [YEAR],
  "logfile_filter.0": [YEAR],
  "logfile_filter.1": [BORROWED],
  "logfile_rollover.2": [YEAR],
  "logfile_syslog.0": [YEAR],
  "logfile_syslog.3": [YEAR],
  "logfile_syslog_with_header.0": [YEAR, BORROWED],
  "logfile_syslog_with_mixed_times.0": [YEAR],
  "logfile_regexp_access_log.0": [OFFSET],
  "logfile_shop_access_log.0": [OFFSET],
  "logfile_with_zones.0": [OFFSET],
  "logfile_w3c.1": [{
    match: /^64\.103\.37\.2 /,
    who: "both",
    why: "the log's `#GMT-Offset: -0800` directive says its date and time columns are local time 8 hours " +
      "behind UTC (Oracle Web Cache); lnav 0.11.1 drops it, logpeek applies it",
    check: (a, b) => a - b === 8 * 3600,
  }],
  "logfile_strace_log.0": [{
    match: /^\d\d:\d\d:\d\d\.\d+ /,
    who: "lnav",
    why: "a time of day only (strace -tt): lnav guesses the date from the file's modified time; logpeek " +
      "leaves the line untimed and counts it (`timeOfDayLines`), as the no_timestamps answer says",
    check: (a) => Number.isNaN(a),
  }],
  "logfile_tcf.0": [{
    match: /^TCF \d\d:\d\d\.\d+:/,
    who: "lnav",
    why: "minutes and seconds only (`TCF 29:47.191`): lnav guesses the hour and the date from the file's " +
      "modified time; logpeek leaves the line untimed",
    check: (a) => Number.isNaN(a),
  }],
};
for (
  const name of [
    "bunyan.0",
    "caddy_log.0",
    "cloudflare.1",
    "cloudflare.json",
    "docker_compose.0",
    "docker_compose_with_ts.0",
    "epoch.0",
    "grafana.0",
    "invalid_json.json",
    "invalid_json2.json",
    "json.json",
    "json3.json",
    "json_invalid.json",
    "jsonid.json",
    "mongodb.0",
    "muxed_syslog.0",
    "mysql_slow.0",
    "nested_json.json",
    "otel_collector.jsonl",
    "pino.0",
    "spark.0",
    "strace_log.1",
  ]
) VERDICTS[`logfile_${name}`] = [NO_FORMAT];

Deno.test({
  name: "lnav and logpeek read the same line times on lnav's test logs, every difference judged",
  ignore: shared === null || !lnav,
  fn() {
    const dir = join(shared!, "corpus", "lnav", "logs");
    const tmp = Deno.makeTempDirSync({ prefix: "lnav-times-" });
    const home = Deno.makeTempDirSync({ prefix: "lnav-home-" });
    const unjudged: string[] = [], stale: string[] = [];
    let noTimestamps = 0;
    try {
      for (const name of [...Deno.readDirSync(dir)].map((e) => e.name).sort()) {
        const path = join(tmp, name);
        Deno.copyFileSync(join(dir, name), path);
        Deno.utimeSync(path, MTIME, MTIME);
        const bytes = Deno.readFileSync(path);
        const text = new TextDecoder().decode(bytes);
        const lines = text.split("\n");
        if (lines.at(-1) === "") lines.pop();
        const theirs = lnavTimes(lines, lnavRows(path, home));
        using log = openLogSync(openRoots([tmp], "/"), name);
        const clock = lineClock({
          zone: "UTC",
          modifiedMs: log.modifiedMs ?? null,
          sample: logHead(log, SAMPLE_BYTES),
        });
        const ours: number[] = [];
        let s = 0;
        for (let i = 0; i < lines.length; i++) {
          let e = bytes.indexOf(10, s);
          if (e < 0) e = bytes.length;
          const t = clock.timeOf(bytes, s, e > s && bytes[e - 1] === 13 ? e - 1 : e);
          ours.push(Math.floor(t / 1000));
          s = e + 1;
        }
        if (ours.every(Number.isNaN) && theirs.some((t) => !Number.isNaN(t))) noTimestamps++;
        const verdicts = VERDICTS[name] ?? [], used = new Set<Verdict>();
        for (let i = 0; i < lines.length; i++) {
          const a = ours[i], b = theirs[i];
          const who = Number.isNaN(a) && Number.isNaN(b)
            ? null
            : Number.isNaN(a)
            ? "lnav"
            : Number.isNaN(b)
            ? "logpeek"
            : a === b
            ? null
            : "both";
          if (who === null) continue;
          const v = verdicts.find((v) => v.who === who && v.match.test(lines[i]));
          if (v && v.check(a, b, lines[i])) {
            used.add(v);
            continue;
          }
          const show = (t: number) => Number.isNaN(t) ? "none" : new Date(t * 1000).toISOString();
          unjudged.push(
            `${name}:${i + 1} ${who}: logpeek ${show(a)} lnav ${show(b)} | ${
              JSON.stringify(lines[i].slice(0, 100))
            }`,
          );
        }
        for (const v of verdicts) {
          if (!used.has(v)) stale.push(`${name}: ${v.who} ${v.match} (no such difference)`);
        }
      }
    } finally {
      Deno.removeSync(tmp, { recursive: true });
      Deno.removeSync(home, { recursive: true });
    }
    console.log(`lnav logs that lnav dates and logpeek reads no time in: ${noTimestamps}`);
    assert.deepEqual(unjudged, [], `differences not judged:\n${unjudged.join("\n")}`);
    assert.deepEqual(stale, [], `verdicts on lines that no longer differ:\n${stale.join("\n")}`);
  },
});
