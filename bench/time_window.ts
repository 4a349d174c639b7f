/**
 * The time-window part of the benchmark (issue #12, "Seek, don't scan"): on the time-ordered log of
 * `bench/time_log.ts` (Loghub lines behind ISO 8601 headers, untimed stack-trace runs), a window covering
 * its last 1% (`since` = the builder's recorded instant) asked of logpeek through the real MCP client,
 * beside a full filtered scan that reads every byte.
 *
 * Rows, each the median of the runs, interleaved (every run: logpeek's search, its `log_levels`, then
 * each full scan):
 *
 * 1. `log_search` with `since`, `regex: true`, `text: "."` (every line of the log holds a character), paged
 *    with `next_cursor` at the largest `limit` the input schema allows; its time is the sum of the pages,
 *    its `scanned_bytes` their sum. The match count must equal the builder's (`windowLines`), the first
 *    page's `time_order` must be `seek`, the last page `complete`, and its `last_time` the builder's last
 *    time; else a MISMATCH.
 * 2. `log_levels` with the same `since`: `total_lines` against the builder's count, `time_order` `seek`.
 * 3. The full filtered scans beside them: `LC_ALL=C awk` with {@linkcode AWK_WINDOW} (a line with the ISO
 *    header sets the time, a line without one keeps the previous line's, a line whose time is ≥ since is
 *    counted), and, for information, `bench/time_seek.ts`'s in-process {@linkcode filteredScan} from the
 *    first byte and from `seekTime`'s offset. Every count must be the builder's.
 *
 * Targets: each tool's `scanned_bytes` ≤ 2% of the file, and each tool's count equal to the full filtered
 * scan's (awk's).
 *
 * @module
 */

import { join } from "node:path";
import { connect, type Session } from "../tests/mcp_client.ts";
import { openRoots } from "../src/source/local/roots.ts";
import { openLogSync } from "../src/source/local/log_file.ts";
import { seekTime } from "../src/read/time_seek.ts";
import { TIME_SLACK_MS } from "../src/read/time_window.ts";
import { median, runCommand, runShell, shellQuote } from "./measure.ts";
import type { Row } from "./table.ts";
import { isoTimeOf, makeTimeLog, type TimeLog } from "./time_log.ts";
import { filteredScan, type Kept } from "./time_seek.ts";

/** The most of the file a last-1% window may read (issue #12's target): 2%. */
export const MAX_SHARE = 0.02;

/** The ISO 8601 UTC header of the bench log's timed lines, as a POSIX ERE (no intervals: mawk has none). */
const ISO_HEADER = "^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]" +
  "\\.[0-9][0-9][0-9]Z";

/**
 * The peer's awk program (run with `LC_ALL=C awk -v since=<ISO instant>`): a line that starts with the
 * ISO header takes its first 24 bytes as its time, a line without one keeps the time of the timed line
 * before it (none before the first: the empty string, below every instant), and a line whose time is
 * ≥ since is counted. ISO UTC text of one width sorts as time does, so the comparison is a string one.
 */
export const AWK_WINDOW = `/${ISO_HEADER}/ { t = substr($0, 1, 24) } t >= since { n++ } END { print n + 0 }`;

/** How the part runs. */
export interface TimeWindowOptions {
  /** Where the generated files are kept between runs. */
  dir: string;
  /** The `corpus/loghub` folder of the shared material. */
  loghub: string;
  /** The log's size in bytes (1 GiB: `time.log`; another: `time-<bytes>.log`). */
  bytes: number;
  /** The most time one call (or a search's pages together) may take, in ms: the server's budgets. */
  capMs: number;
  /** How many times each row is timed (3 when one run takes over 10 s, 1 over 20 s). */
  runs: number;
}

/** What the part found. */
export interface TimeWindowResult {
  log: TimeLog;
  /** The window's start, as the ISO instant passed as `since`. */
  since: string;
  rows: Row[];
  /** One line per answer that differed from the builder's record or the full scan's. */
  mismatches: string[];
  /** Notes printed under the table. */
  notes: string[];
}

/** A structured tool answer, as the tools' output schemas describe it. */
// deno-lint-ignore no-explicit-any
type Structured = any;

/** One windowed call (a search's pages together). */
interface WindowCall {
  ms: number;
  /** Matches (search) or `total_lines` (levels), summed over the pages. */
  count: number;
  /** `scanned_bytes`, summed over the pages. */
  scanned: number;
  pages: number;
  /** Each page's `time_order`. */
  orders: string[];
  /** Each page's `scanned_bytes`. */
  pageBytes: number[];
  /** The first and the last page's answers. */
  first: Structured;
  last: Structured;
}

/**
 * Calls a tool with a client-side timeout past the server's budget, and returns its structured answer.
 *
 * @throws {Error} when the tool answers with an error.
 */
async function callTool(s: Session, tool: string, args: Record<string, unknown>, timeoutMs: number) {
  const r = await s.client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs });
  if (r.isError) throw new Error(`${tool} failed: ${(r.content as { text: string }[])[0]?.text}`);
  return r.structuredContent as Structured;
}

/**
 * Runs a windowed tool to the end: pages with `next_cursor` until there is none (at most 1,000 pages),
 * summing the count and `scanned_bytes`, and timing the pages together.
 */
async function windowCall(
  s: Session,
  tool: "log_search" | "log_levels",
  args: Record<string, unknown>,
  capMs: number,
): Promise<WindowCall> {
  const t = performance.now();
  let cursor: string | undefined;
  const out: WindowCall = {
    ms: 0,
    count: 0,
    scanned: 0,
    pages: 0,
    orders: [],
    pageBytes: [],
    first: null,
    last: null,
  };
  do {
    const sc = await callTool(s, tool, { ...args, ...(cursor ? { cursor } : {}) }, capMs + 60_000);
    out.first ??= sc;
    out.last = sc;
    out.pages++;
    out.count += tool === "log_search" ? sc.matches.length : sc.total_lines;
    out.scanned += sc.scanned_bytes;
    out.orders.push(sc.time_order);
    out.pageBytes.push(sc.scanned_bytes);
    cursor = sc.next_cursor ?? undefined;
    if (cursor && out.pages >= 1000) throw new Error(`${tool}: still a next_cursor after 1000 pages`);
  } while (cursor);
  out.ms = performance.now() - t;
  return out;
}

/** Bytes as a share of `size`, in percent with two decimals. */
function share(bytes: number, size: number): string {
  return `${(bytes / size * 100).toFixed(2)}%`;
}

/** Bytes as MB (10⁶) with two decimals. */
function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(2)} MB`;
}

/**
 * Makes the time log (once), then measures the rows.
 *
 * @param o Where, how big, the cap and the runs.
 * @returns The rows, the mismatches, and notes.
 */
export async function timeWindowBench(o: TimeWindowOptions): Promise<TimeWindowResult> {
  const name = o.bytes === 1024 ** 3 ? "time.log" : `time-${o.bytes}.log`;
  console.error(`making ${name} (${o.bytes} bytes of timed Loghub lines) in ${o.dir} (once; kept)…`);
  const log = makeTimeLog(o.loghub, join(o.dir, name), o.bytes);
  await runShell(`cat ${shellQuote(log.path)} > /dev/null`);
  const since = new Date(log.sinceMs).toISOString();
  const want = log.windowLines;

  const mismatches: string[] = [];
  const mismatch = (what: string, detail: string) => {
    const line = `MISMATCH in the time-window table, ${what}: ${detail}`;
    console.log(line);
    mismatches.push(line);
  };

  await using s = await connect(
    [o.dir],
    {
      LOGPEEK_SEARCH_MS: String(o.capMs),
      LOGPEEK_LEVELS_MS: String(o.capMs),
      LOGPEEK_SEARCH_BYTES: String(16 * 1024 ** 3),
      LOGPEEK_INLINE_CHARS: "100000000",
      LOGPEEK_TZ: "UTC",
    },
    [],
    { lines: true },
  );
  const tools = await s.client.listTools();
  const schema = tools.tools.find((t: { name: string }) => t.name === "log_search")
    ?.inputSchema as Structured;
  const limit: number = schema?.properties?.limit?.maximum ?? 5000;
  const searchArgs = { file: name, text: ".", regex: true, since, limit };
  const levelsArgs = { file: name, since };

  using opened = openLogSync(openRoots([o.dir], "/"), name);
  const awkArgs = ["LC_ALL=C", "awk", "-v", `since=${since}`, AWK_WINDOW, log.path];

  const searches: WindowCall[] = [];
  const levels: WindowCall[] = [];
  const awkMs: number[] = [];
  const awkCounts: number[] = [];
  const fullMs: number[] = [];
  const fulls: Kept[] = [];
  const seekMs: number[] = [];
  const seeks: { kept: Kept; probes: number; probeBytes: number }[] = [];
  let runs = o.runs;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    console.error(`time windows: run ${i + 1} of ${runs}…`);
    try {
      searches.push(await windowCall(s, "log_search", searchArgs, o.capMs));
    } catch (e) {
      mismatch("row 1 (log_search)", e instanceof Error ? e.message : String(e));
    }
    try {
      levels.push(await windowCall(s, "log_levels", levelsArgs, o.capMs));
    } catch (e) {
      mismatch("row 2 (log_levels)", e instanceof Error ? e.message : String(e));
    }
    const awk = await runCommand("env", awkArgs);
    awkMs.push(awk.ms);
    awkCounts.push(awk.code === 0 ? Number(awk.out.trim()) : NaN);
    let t = performance.now();
    fulls.push(filteredScan(opened, opened.bomLength, log.sinceMs, TIME_SLACK_MS));
    fullMs.push(performance.now() - t);
    t = performance.now();
    const sk = seekTime(opened, isoTimeOf, log.sinceMs - TIME_SLACK_MS, { slackMs: TIME_SLACK_MS });
    const kept = filteredScan(opened, sk.off, log.sinceMs, TIME_SLACK_MS);
    seekMs.push(performance.now() - t);
    seeks.push({ kept, probes: sk.probes, probeBytes: sk.bytesRead });
    if (i === 0) {
      const runMs = performance.now() - t0;
      if (runMs > 20_000) runs = 1;
      else if (runMs > 10_000) runs = Math.min(runs, 3);
    }
  }

  // The answers must be right before the times count: every run against the builder's record.
  for (const [r, a] of searches.entries()) {
    const at = `row 1 (log_search), run ${r + 1}`;
    if (a.count !== want) {
      mismatch(at, `${a.count} matches over ${a.pages} page(s), the builder counts ${want}`);
    }
    if (a.orders[0] !== "seek") mismatch(at, `time_order ${a.orders[0]} on the first page, not seek`);
    if (!a.last.complete) mismatch(at, `complete is false (${a.last.stop_reason})`);
    if (Date.parse(a.last.last_time) !== log.lastMs) {
      mismatch(
        at,
        `last_time ${a.last.last_time}, the builder's last time ${new Date(log.lastMs).toISOString()}`,
      );
    }
  }
  for (const [r, a] of levels.entries()) {
    const at = `row 2 (log_levels), run ${r + 1}`;
    if (a.count !== want) mismatch(at, `total_lines ${a.count}, the builder counts ${want}`);
    if (a.orders[0] !== "seek") mismatch(at, `time_order ${a.orders[0]} on the first page, not seek`);
    if (!a.last.complete) mismatch(at, `complete is false (${a.last.stop_reason})`);
  }
  for (const [r, n] of awkCounts.entries()) {
    if (n !== want) {
      mismatch(`the awk full filtered scan, run ${r + 1}`, `${n} lines, the builder counts ${want}`);
    }
  }
  for (const [r, k] of fulls.entries()) {
    if (k.lines !== want || k.disorder || k.bytes !== log.size) {
      mismatch(
        `the in-process full filtered scan, run ${r + 1}`,
        `${k.lines} lines (disorder: ${k.disorder}) in ${k.bytes} bytes; the builder: ${want} in ${log.size}`,
      );
    }
  }
  for (const [r, k] of seeks.entries()) {
    if (k.kept.lines !== want || k.kept.offSum !== fulls[r].offSum) {
      mismatch(
        `the in-process seek, run ${r + 1}`,
        `${k.kept.lines} lines (the full scan's: ${fulls[r].lines})`,
      );
    }
  }

  const awkCount = awkCounts[0];
  const peer = "LC_ALL=C awk -v since=… AWK_WINDOW (full filtered scan)";
  const rows: Row[] = [];
  const toolRows = (work: string, calls: WindowCall[], what: string) => {
    if (calls.length === 0) {
      rows.push({
        work: `${work}: failed`,
        ms: "error",
        target: `scanned_bytes ≤ 2% of the file`,
        met: false,
      });
      return;
    }
    const a = calls[0];
    const scanned = Math.max(...calls.map((c) => c.scanned));
    rows.push({
      work: `${work} (${a.count} ${what}; time_order ${a.orders[0]}; scanned_bytes ${scanned} = ` +
        `${share(scanned, log.size)} of the file)`,
      ms: median(calls.map((c) => c.ms)),
      peer,
      peerMs: median(awkMs),
      target: "scanned_bytes ≤ 2% of the file",
      met: scanned <= MAX_SHARE * log.size,
      value: `${share(scanned, log.size)}, ${mb(scanned)}`,
    });
    return a;
  };
  const search = toolRows(`1. log_search since ${since}, regex \`.\`, ${limit} a page`, searches, "matches");
  rows.push(
    {
      work: "",
      ms: median(searches.map((c) => c.ms)),
      peer: "in-process full filtered scan, bench/time_seek.ts (information)",
      peerMs: median(fullMs),
    },
    {
      work: "",
      ms: median(searches.map((c) => c.ms)),
      peer: "in-process seekTime + window scan, bench/time_seek.ts (information)",
      peerMs: median(seekMs),
    },
  );
  if (search) {
    rows.push({
      work: "",
      target: `matches = the full filtered scan's (awk ${awkCount}; builder ${want})`,
      met: searches.every((c) => c.count === awkCount) && awkCount === want,
      value: `${search.count} vs ${awkCount}`,
    });
  }
  const lv = toolRows(`2. log_levels since ${since}`, levels, "lines");
  if (lv) {
    rows.push({
      work: "",
      target: `total_lines = the full filtered scan's (awk ${awkCount}; builder ${want})`,
      met: levels.every((c) => c.count === awkCount) && awkCount === want,
      value: `${lv.count} vs ${awkCount}`,
    });
  }

  const seek = seeks[0];
  const window = search ? Math.round((log.size - log.sinceOff) / search.pages) : 0;
  const notes = [
    `Runs: ${awkMs.length}, interleaved (log_search, log_levels, awk, in-process full scan, in-process seek).`,
    search
      ? `1. log_search: ${search.pages} page(s) of at most ${limit} matches; time_order per page ` +
        `${
          search.orders.join(",")
        }; first_time ${search.first.first_time}, last_time ${search.last.last_time}, ` +
        `untimed_lines ${searches[0].last.untimed_lines} (last page); scanned_bytes per page ` +
        `${search.pageBytes.join(", ")} (the first holds the seek's probes), while the window itself is ` +
        `${log.size - log.sinceOff} bytes (${window} a page on average): a page reads past the cursor it ` +
        `stops at, and the next page reads from that cursor again; the whole answer per run ${
          searches.map((c) => c.scanned).join(", ")
        }.`
      : "1. log_search failed.",
    lv
      ? `2. log_levels: ${lv.pages} page(s); time_order ${
        lv.orders.join(",")
      }; first_time ${lv.first.first_time}, ` +
        `last_time ${lv.last.last_time}, untimed_lines ${lv.first.untimed_lines}; counts ` +
        `${JSON.stringify(lv.first.counts)}.`
      : "2. log_levels failed.",
    `The full filtered scans read all ${log.size} bytes (100%): awk counts ${awkCount} lines; the in-process ` +
    `scan keeps ${fulls[0].lines} (${
      fulls[0].bytes
    } bytes read). The in-process seek: ${seek.probes} probes ` +
    `(${seek.probeBytes} bytes), then ${seek.kept.bytes} bytes of window scan = ` +
    `${share(seek.probeBytes + seek.kept.bytes, log.size)} of the file, ${seek.kept.lines} lines.`,
    `AWK_WINDOW = \`${AWK_WINDOW}\` (awk is ${await awkName()}).`,
  ];
  return { log, since, rows, mismatches, notes };
}

/** Which awk `awk` is (mawk or GNU awk), from its version text. */
async function awkName(): Promise<string> {
  for (const flag of ["-W version", "--version"]) {
    const r = await runShell(`awk ${flag} 2>&1 < /dev/null | head -1`);
    const first = r.out.trim();
    if (/mawk|GNU Awk/i.test(first)) return first;
  }
  return "unknown";
}
