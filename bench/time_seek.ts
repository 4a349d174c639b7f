/**
 * The seek figure of issue #12 ("Seek, don't scan"): on the 1 GiB time-ordered log of
 * `time_log.ts`, the lines of its last-1% window (time ≥ `since`) found two ways, each timed as the
 * median of several runs:
 *
 * - **seek**: `seekTime` with target `since − W`, then a forward scan from its `off` to the end that
 *   keeps the lines whose time is ≥ `since` (an untimed line has the time of the timed line before it);
 * - **full scan**: the same forward scan from the first byte.
 *
 * Both scans read 1 MiB pieces through the log's `bytes` (the read path of the tools), split lines at
 * `\n`, and read each line's time with the stand-in {@linkcode isoTimeOf}. The table gives bytes read
 * (the seek's probes included), their share of the file, and ms; it checks that both ways keep the
 * same lines (count and a sum of their offsets) and that the count is the builder's own
 * (`windowLines`). The tool-level row is added to `bench/bench.ts` by the integration.
 *
 * Usage: `deno run --allow-read --allow-write bench/time_seek.ts [--mib 1024] [--runs 5] [--full-runs 5]
 * [--slack-ms 5000]`; the log is kept in `$LOGPEEK_BENCH_DIR` (default `/tmp/logpeek-bench`) as
 * `time.log`.
 *
 * @module
 */

import { join } from "node:path";
import { parseArgs } from "node:util";
import { isoTimeOf, makeTimeLog } from "./time_log.ts";
import { median } from "./measure.ts";
import { openRoots } from "../src/source/local/roots.ts";
import { openLogSync } from "../src/source/local/log_file.ts";
import type { ReadableLog } from "../src/read/readable_log.ts";
import { seekTime } from "../src/read/time_seek.ts";
import { sharedDir } from "../tests/shared_dir.ts";

/** What a filtered scan kept. */
export interface Kept {
  /** Lines kept. */
  lines: number;
  /** The sum of their start offsets (a check that both ways keep the same lines). */
  offSum: number;
  /** Bytes read. */
  bytes: number;
  /** Whether a timed line was below the running maximum by more than the slack (not ordered). */
  disorder: boolean;
}

/**
 * Scans `log` from `from` (a line start) to its end in 1 MiB pieces and keeps the lines whose time is
 * ≥ `since` (an untimed line has the time of the timed line before it; untimed lines at `from`, before
 * any timed one, have none). Notes a timed line below the running maximum by more than `slack`.
 * `bench/time_window.ts` uses it as the in-process full filtered scan beside the tools.
 *
 * @param log The log, opened.
 * @param from Where to start: a line start (`log.bomLength` for the whole file).
 * @param since The window's start, epoch ms (inclusive).
 * @param slack How far (ms) a timed line may fall below the running maximum before it counts as disorder.
 * @returns The lines kept, the sum of their offsets, the bytes read, and whether a disorder was seen.
 * @throws {RangeError} on a line longer than 1 MiB.
 */
export function filteredScan(log: ReadableLog, from: number, since: number, slack: number): Kept {
  const src = log.bytes(from);
  const buf = new Uint8Array(1 << 20);
  let used = 0;
  let base = from; // the offset of buf[0]
  let t = NaN;
  let max = -Infinity;
  const kept: Kept = { lines: 0, offSum: 0, bytes: 0, disorder: false };
  const line = (s: number, e: number) => {
    let end = e;
    if (end > s && buf[end - 1] === 13) end--;
    const own = isoTimeOf(buf, s, end);
    if (own === own) { // not NaN
      if (own < max - slack) kept.disorder = true;
      if (own > max) max = own;
      t = own;
    }
    if (t >= since) {
      kept.lines++;
      kept.offSum += base + s;
    }
  };
  for (;;) {
    const n = src.readSync(buf.subarray(used));
    if (n === null || n === 0) break;
    kept.bytes += n;
    used += n;
    const view = buf.subarray(0, used);
    let s = 0;
    for (let nl = view.indexOf(10); nl >= 0; nl = view.indexOf(10, s)) {
      line(s, nl);
      s = nl + 1;
    }
    if (s === 0 && used === buf.length) throw new RangeError("a line longer than 1 MiB");
    buf.copyWithin(0, s, used);
    used -= s;
    base += s;
  }
  if (used > 0) line(0, used);
  return kept;
}

if (import.meta.main) {
  const { values: o } = parseArgs({
    args: Deno.args,
    options: {
      mib: { type: "string", default: "1024" },
      runs: { type: "string", default: "5" },
      "full-runs": { type: "string", default: "5" },
      "slack-ms": { type: "string", default: "5000" },
    },
  });
  const shared = sharedDir("the seek bench");
  if (!shared) Deno.exit(0);
  const dir = Deno.env.get("LOGPEEK_BENCH_DIR") ?? "/tmp/logpeek-bench";
  Deno.mkdirSync(dir, { recursive: true });
  const made = makeTimeLog(join(shared, "corpus", "loghub"), join(dir, "time.log"), Number(o.mib) * 2 ** 20);
  const slackMs = Number(o["slack-ms"]);
  const since = made.sinceMs;
  using log = openLogSync(openRoots([dir], "/"), "time.log");
  const rows: string[][] = [];
  const check = (what: string, k: Kept) => {
    if (k.lines !== made.windowLines || k.disorder) {
      throw new Error(`${what}: ${k.lines} lines kept, the builder says ${made.windowLines}`);
    }
  };

  const seekMs: number[] = [];
  const seekOnlyMs: number[] = [];
  let seekRead = 0;
  let probes = 0;
  let seekKept: Kept | null = null;
  for (let r = 0; r < Number(o.runs); r++) {
    const t0 = performance.now();
    const s = seekTime(log, isoTimeOf, since - slackMs, { slackMs });
    const t1 = performance.now();
    if (!s.ordered) throw new Error("the bench log is ordered, yet the seek says not");
    const k = filteredScan(log, s.off, since, slackMs);
    seekMs.push(performance.now() - t0);
    seekOnlyMs.push(t1 - t0);
    check("seek", k);
    seekKept = k;
    seekRead = s.bytesRead + k.bytes;
    probes = s.probes;
    if (r === 0) {
      console.error(`seek: off ${s.off} (${(s.off / made.size * 100).toFixed(3)}%), ${s.probes} probes`);
    }
  }
  const fullMs: number[] = [];
  let fullKept: Kept | null = null;
  for (let r = 0; r < Number(o["full-runs"]); r++) {
    const t0 = performance.now();
    const k = filteredScan(log, log.bomLength, since, slackMs);
    fullMs.push(performance.now() - t0);
    check("full scan", k);
    fullKept = k;
  }
  if (seekKept!.offSum !== fullKept!.offSum) throw new Error("the seek and the full scan kept other lines");

  const pct = (b: number) => `${(b / made.size * 100).toFixed(2)}%`;
  const mb = (b: number) => `${(b / 2 ** 20).toFixed(2)} MiB`;
  rows.push(
    [
      "seekTime alone",
      `${probes} probes`,
      mb(seekRead - seekKept!.bytes),
      pct(seekRead - seekKept!.bytes),
      median(seekOnlyMs).toFixed(2),
    ],
    [
      "seek + scan of the window",
      `${seekKept!.lines} lines`,
      mb(seekRead),
      pct(seekRead),
      median(seekMs).toFixed(1),
    ],
    [
      "full filtered scan",
      `${fullKept!.lines} lines`,
      mb(fullKept!.bytes),
      pct(fullKept!.bytes),
      median(fullMs).toFixed(0),
    ],
  );
  console.log(
    `Last-1% window of ${made.path} (${mb(made.size)}, ${made.lines} lines, ${made.untimed} untimed): ` +
      `time ≥ ${new Date(since).toISOString()}, W = ${slackMs} ms; median of ${o.runs} (seek) and ` +
      `${o["full-runs"]} (full) runs; the builder counts ${made.windowLines} lines in the window.\n`,
  );
  console.log("| work | result | bytes read | of the file | ms |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
}
