/**
 * The template part of the benchmark (issue #13, `log_patterns`): on the real-lines log of the `real`
 * part (`bench/real_log.ts`: shuffled Loghub lines made by `bench/loghub_log.ts`, the same file, cached
 * in `LOGPEEK_BENCH_DIR`), logpeek's template mining through the real MCP client, beside the commands that
 * read the same file (there is no tool that does the same work, so they are a floor: reading and counting
 * the lines).
 *
 * Rows:
 *
 * 1. `log_patterns {file}`: ms, lines/s (`total_lines` over the call's seconds), distinct templates,
 *    `other_lines`, `complete`. Target ≥ {@linkcode MIN_LINES_PER_S} lines/s. Beside it, for
 *    information, `rg -c ''` and `wc -l`, interleaved with it; `total_lines` must equal `wc -l` (plus 1
 *    when the file's last line has no line feed: logpeek counts it, `wc -l` does not), else a MISMATCH.
 *    1b. The server's peak RSS growth during that call (VmHWM after it over VmRSS before it, the peak
 *    reset just before, as `bench/real_log.ts` row 7b does), the most of its runs. Target ≤
 *    {@linkcode MAX_GROWTH} bytes.
 * 2. The same call on a server started with `--no-redact` (secrets not masked), for information.
 * 3. `log_search {file, template_id, limit: 20}` for the most frequent template of row 1's answer: ms
 *    (a whole mining pass, to learn which clusters end with that id, then a replay of the lines from the
 *    start that stops at the 20th match: for a frequent template, a few hundred lines), matches returned; its `template.count` must equal the template's `count` in
 *    row 1's answer, its `template_id` the one asked, and its first match's line number the template's
 *    `first_line_no`, else a MISMATCH.
 *
 * Each server gets {@linkcode PATTERNS_MS} as `LOGPEEK_PATTERNS_MS` (a mining call of 1 GiB takes
 * minutes), and the default `LOGPEEK_INLINE_CHARS` (an answer with more templates than its `limit` keeps
 * the rest in an artifact). Before the timed calls, each server mines a small warm-up log (the big log's
 * first {@linkcode WARMUP_LINES} lines) three times, so its code is compiled and its idle memory settled.
 * A call's runs: `runs`, then 3 when the first took over 5 s, 1 over 20 s (at 1 GiB: 1).
 *
 * @module
 */

import { join } from "node:path";
import { connect, type Session } from "../tests/mcp_client.ts";
import { type LoghubLog, makeLoghubLog } from "./loghub_log.ts";
import { median, rate, runCommand, runShell, shellQuote } from "./measure.ts";
import { peakRss, resetPeak, residentRss } from "./peak_rss.ts";
import { realLogName } from "./real_log.ts";
import type { Row } from "./table.ts";

/** The issue's speed target through the client: lines mined a second. */
export const MIN_LINES_PER_S = 500_000;

/** The issue's memory target: the most the server's peak RSS may grow during the call (64 MiB). */
export const MAX_GROWTH = 64 * 1024 * 1024;

/** `LOGPEEK_PATTERNS_MS` for the servers: enough for one call over 1 GiB at a few tens of k lines/s. */
export const PATTERNS_MS = 600_000;

/** Lines of the warm-up log (the big log's first lines). */
export const WARMUP_LINES = 20_000;

/** The `limit` of row 3's `log_search` by template. */
export const TEMPLATE_LIMIT = 20;

/** How the part runs. */
export interface PatternsOptions {
  /** Where the generated files are kept between runs. */
  dir: string;
  /** The `corpus/loghub` folder of the shared material. */
  loghub: string;
  /** The log's size in bytes (as the `real` part: `loghub.log` at 1 GiB, else `loghub-<bytes>.log`). */
  bytes: number;
  /** How many times each call is timed at most (fewer when one is slow: 3 above 5 s, 1 above 20 s). */
  runs: number;
}

/** What the part found. */
export interface PatternsResult {
  log: LoghubLog;
  rows: Row[];
  /** One line per answer that differed from its check. */
  mismatches: string[];
  /** Notes printed under the table. */
  notes: string[];
}

/** A structured tool answer, as the tools' output schemas describe it. */
// deno-lint-ignore no-explicit-any
type Structured = any;

/** One timed call: its time, its answer, and the server's memory around it. */
interface Timed {
  ms: number;
  sc: Structured;
  /** VmRSS before the call, VmHWM after it (bytes), and whether the peak was reset before it. */
  idle: number;
  peak: number;
  reset: boolean;
}

/**
 * Calls a tool with a client-side timeout past the server's budget, and returns its structured answer.
 *
 * @throws {Error} when the tool answers with an error.
 */
async function callTool(s: Session, tool: string, args: Record<string, unknown>): Promise<Structured> {
  const r = await s.client.callTool({ name: tool, arguments: args }, undefined, {
    timeout: PATTERNS_MS + 60_000,
  });
  if (r.isError) throw new Error(`${tool} failed: ${(r.content as { text: string }[])[0]?.text}`);
  return r.structuredContent as Structured;
}

/** A call timed, with the server's resident memory read before it and its peak (reset first) after. */
async function timedCall(s: Session, tool: string, args: Record<string, unknown>): Promise<Timed> {
  const pid = s.pid!;
  await new Promise((r) => setTimeout(r, 200));
  const idle = residentRss(pid) ?? NaN;
  const reset = resetPeak(pid);
  const t = performance.now();
  const sc = await callTool(s, tool, args);
  const ms = performance.now() - t;
  const peak = peakRss(pid) ?? NaN;
  return { ms, sc, idle, peak, reset };
}

/** Bytes as MiB with one decimal. */
function mib(n: number): string {
  return (n / 1024 / 1024).toFixed(1);
}

/** A whole number with thousands separators. */
function num(n: number): string {
  return Math.round(n).toLocaleString("en");
}

/**
 * Makes the log (once, with the `real` part's builder) and the warm-up log, then measures the rows.
 *
 * @param o Where, how big, and the runs.
 * @returns The rows, the mismatches, and notes.
 */
export async function patternsBench(o: PatternsOptions): Promise<PatternsResult> {
  const name = realLogName(o.bytes);
  console.error(`making ${name} (${o.bytes} bytes of shuffled Loghub lines) in ${o.dir} (once; kept)…`);
  const log = makeLoghubLog(o.loghub, join(o.dir, name), o.bytes);
  const file = log.path;
  const warmName = `patterns-warmup-${WARMUP_LINES}.log`;
  const q = shellQuote;
  await runShell(`head -n ${WARMUP_LINES} ${q(file)} > ${q(join(o.dir, warmName))}`);
  await runShell(`cat ${q(file)} > /dev/null`);

  const loadBefore = (await runCommand("cat", ["/proc/loadavg"])).out.trim();
  const rows: Row[] = [];
  const mismatches: string[] = [];
  const notes: string[] = [];
  const mismatch = (what: string, detail: string) => {
    const line = `MISMATCH in the template table, ${what}: ${detail}`;
    console.log(line);
    mismatches.push(line);
  };

  // What total_lines must be: wc -l, plus a last line without a line feed.
  const lastByte = new Uint8Array(1);
  {
    using f = Deno.openSync(file);
    if (log.size > 0) {
      f.seekSync(log.size - 1, Deno.SeekMode.Start);
      f.readSync(lastByte);
    }
  }
  const unterminated = log.size > 0 && lastByte[0] !== 0x0a ? 1 : 0;

  const env = { LOGPEEK_PATTERNS_MS: String(PATTERNS_MS) };
  const warm = async (s: Session) => {
    for (let i = 0; i < 3; i++) await callTool(s, "log_patterns", { file: warmName });
  };

  // Rows 1 and 2: each server in turn, its runs interleaved with the peers.
  const peers: [string, string[]][] = [["rg", ["-c", ""]], ["wc", ["-l"]]];
  const peerMs: number[][] = peers.map(() => []);
  const peerOut: string[] = [];
  const mined: { label: string; runs: Timed[]; errors: string[] }[] = [];
  let runs = o.runs;
  let top: { id: string; count: number; first: number; template: string } | null = null;
  let search: { ms: number; sc: Structured } | null = null;
  let searchError = "";
  for (const redact of [true, false]) {
    const label = redact ? "log_patterns" : "log_patterns, server started with --no-redact";
    await using s = await connect([o.dir], env, [], { lines: true, args: redact ? [] : ["--no-redact"] });
    await warm(s);
    const got: Timed[] = [];
    const errors: string[] = [];
    for (let i = 0; i < runs; i++) {
      console.error(`patterns: ${label}, run ${i + 1} of ${runs}…`);
      try {
        got.push(await timedCall(s, "log_patterns", { file: name }));
      } catch (e) {
        errors.push(e instanceof Error ? e.message : String(e));
      }
      for (let p = 0; p < peers.length; p++) {
        const c = await runCommand(peers[p][0], [...peers[p][1], file]);
        peerMs[p].push(c.ms);
        peerOut[p] = c.out.trim();
      }
      if (redact && i === 0) {
        const ms = got[0]?.ms ?? Infinity;
        if (ms > 20_000) runs = 1;
        else if (ms > 5_000) runs = Math.min(runs, 3);
      }
    }
    mined.push({ label, runs: got, errors });
    // Row 3 on the redacting server: the most frequent template's lines.
    if (redact && got.length > 0) {
      const ts: Structured[] = got[0].sc.templates;
      const best = ts.reduce((a, b) => (b.count > a.count ? b : a), ts[0]);
      if (best !== undefined) {
        top = { id: best.template_id, count: best.count, first: best.first_line_no, template: best.template };
        console.error(`patterns: log_search by template_id ${top.id} (${top.count} lines)…`);
        try {
          const t = performance.now();
          const sc = await callTool(s, "log_search", {
            file: name,
            template_id: top.id,
            limit: TEMPLATE_LIMIT,
          });
          search = { ms: performance.now() - t, sc };
        } catch (e) {
          searchError = e instanceof Error ? e.message : String(e);
        }
      }
    }
  }

  const rgCount = Number(peerOut[0]);
  const wcCount = Number(peerOut[1]?.split(/\s+/)[0]);
  const want = wcCount + unterminated;
  if (rgCount !== want) mismatch("rg -c ''", `${rgCount} lines, wc -l ${wcCount} (+${unterminated})`);
  if (want !== log.lines) mismatch("wc -l", `${wcCount} lines, the builder wrote ${log.lines}`);

  const rg = median(peerMs[0]);
  const wc = median(peerMs[1]);
  for (const [k, m] of mined.entries()) {
    const work = `${k + 1}. ${m.label.replace("log_patterns", "`log_patterns {file}`")}`;
    for (const e of m.errors) mismatch(work, e);
    for (const [r, t] of m.runs.entries()) {
      const at = `${work}, run ${r + 1}`;
      if (t.sc.total_lines !== want) {
        mismatch(at, `total_lines ${t.sc.total_lines}, wc -l ${wcCount}${unterminated ? " + 1" : ""}`);
      }
      if (!t.sc.complete) mismatch(at, `complete is false (${t.sc.stop_reason})`);
    }
    if (m.runs.length === 0) {
      rows.push({
        work: `${work}: failed`,
        ms: "error",
        ...(k === 0 ? { target: `≥ ${num(MIN_LINES_PER_S)} lines/s`, met: false } : {}),
      });
      continue;
    }
    const a = m.runs[0].sc;
    const ms = median(m.runs.map((t) => t.ms));
    const slow = a.stop_reason === "time_budget" ? `too slow (> ${PATTERNS_MS / 1000} s)` : undefined;
    const lps = a.total_lines / (ms / 1000);
    rows.push({
      work:
        `${work}: ${num(a.total_lines)} lines at ${num(lps)} lines/s; ${a.distinct_templates} templates, ` +
        `other_lines ${a.other_lines}, complete ${a.complete}`,
      ms: slow ?? ms,
      rate: slow ? "" : rate(log.size, ms),
      peer: "rg -c '' (information)",
      peerMs: rg,
      ...(k === 0
        ? {
          target: `≥ ${num(MIN_LINES_PER_S)} lines/s`,
          met: !slow && lps >= MIN_LINES_PER_S,
          value: `${num(lps)} lines/s`,
        }
        : {}),
    });
    rows.push({ work: "", ms: slow ?? ms, peer: "wc -l (information)", peerMs: wc });
    if (k === 0) {
      rows.push({
        work: "",
        target: `total_lines = wc -l${unterminated ? " + 1 (no final LF)" : ""}`,
        met: m.runs.every((t) => t.sc.total_lines === want),
        value: `${a.total_lines} vs ${want}`,
      });
      const growth = Math.max(...m.runs.map((t) => t.peak - t.idle));
      rows.push({
        work: `1b. peak RSS growth of the server during row 1's call: ${mib(growth)} MiB`,
        target: `≤ ${mib(MAX_GROWTH)} MiB`,
        met: growth <= MAX_GROWTH,
        value: `${mib(growth)} MiB`,
      });
      notes.push(
        `1b: per run, VmRSS before the call (idle, after warm-up) → VmHWM after it (${
          m.runs.every((t) => t.reset) ? "reset by clear_refs 5 before each call" : "NOT reset before a call"
        }): ${m.runs.map((t) => `${mib(t.idle)} → ${mib(t.peak)} MiB`).join("; ")}.`,
      );
    }
    notes.push(
      `${work}: ${m.runs.length} run(s) (${m.runs.map((t) => (t.ms / 1000).toFixed(1)).join(", ")} s)` +
        (m.runs.length < o.runs ? `, fewer than LOGPEEK_BENCH_RUNS=${o.runs}: one call took over 5 s` : "") +
        `; scanned_bytes ${a.scanned_bytes}; ${a.templates.length} templates listed` +
        (a.artifact ? `, all ${a.distinct_templates} in artifact ${a.artifact.artifact_id}` : "") + ".",
    );
  }

  const work3 = `3. \`log_search {file, template_id, limit: ${TEMPLATE_LIMIT}}\`, the most frequent template`;
  if (top === null) {
    rows.push({
      work: `${work3}: not run (row 1 failed)`,
      ms: "error",
      target: "count = row 1's",
      met: false,
    });
  } else if (search === null) {
    mismatch(work3, searchError);
    rows.push({ work: `${work3}: failed`, ms: "error", target: "count = row 1's", met: false });
  } else {
    const sc = search.sc;
    const got = sc.template?.count;
    if (got !== top.count) mismatch(work3, `template.count ${got}, log_patterns' count ${top.count}`);
    if (sc.template?.template_id !== top.id) {
      mismatch(work3, `template.template_id ${sc.template?.template_id}, asked ${top.id}`);
    }
    const wantMatches = Math.min(TEMPLATE_LIMIT, top.count);
    if (sc.matches.length !== wantMatches) {
      mismatch(work3, `${sc.matches.length} matches, expected ${wantMatches}`);
    }
    if (sc.matches[0]?.line_no !== top.first) {
      mismatch(
        work3,
        `first match at line ${sc.matches[0]?.line_no}, the template's first_line_no ${top.first}`,
      );
    }
    rows.push({
      work: `${work3} (${top.id}, count ${num(top.count)}): ${sc.matches.length} matches; a whole mining ` +
        `pass, then a replay up to the ${TEMPLATE_LIMIT}th match`,
      ms: search.ms,
      rate: rate(log.size, search.ms),
      target: "template.count = row 1's count",
      met: got === top.count,
      value: `${got} vs ${top.count}`,
    });
    notes.push(
      `3: template ${
        JSON.stringify(top.template)
      }; one call, timed once (its first pass mines the whole file, ` +
        `its second replays the lines only up to the ${TEMPLATE_LIMIT}th match, line ${
          sc.matches.at(-1)?.line_no
        }); complete ${sc.complete}, stop_reason ${sc.stop_reason}, next_cursor ${
          sc.next_cursor ? "given" : "none"
        }.`,
    );
  }
  const load = (await runCommand("cat", ["/proc/loadavg"])).out.trim();
  notes.push(
    `Load average before the calls, then at the end (/proc/loadavg; the machine has ${navigator.hardwareConcurrency} ` +
      `CPUs): ${loadBefore}, then ${load}. The times above are wall times on a machine that may be shared.`,
  );
  notes.push(
    `Peers (information, interleaved with rows 1–2, ${peerMs[0].length} runs each): rg -c '' counts ` +
      `${rgCount} lines, wc -l ${wcCount}; the log ${
        unterminated ? "does not end" : "ends"
      } with a line feed.`,
  );
  return { log, rows, mismatches, notes };
}
