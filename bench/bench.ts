/**
 * `deno task bench`: logpeek's speed through a real MCP client beside the commands a user would run
 * instead, on the same files, in the same run; then the memory bound. `bench/README.md` says how to
 * read the output.
 *
 * 1. Real log lines (issue #11, `bench/real_log.ts`): a seeded log of shuffled Loghub lines
 *    (`../shared/corpus/loghub`; the table is skipped, with a notice, when that folder is absent) with ten
 *    rare lines, and a multi-member gzip of it; searches, `log_levels` and a `.gz` search against
 *    ripgrep, `wc -l` and `zcat | rg`; then rows 1–6 again, in the same run, on a log of both corpora's
 *    lines (Loghub and lnav, 16 systems; `bench/corpora_log.ts` `makeCorporaRareLog`) with the same rare
 *    lines (issue #26; skipped, with a notice, when `../shared/corpus/lnav/logs` is absent).
 * 1b. Levels on two corpora (issue #23, item 6, `bench/levels_speed.ts`): `log_levels` on 1 GiB of
 *    shuffled lines of Loghub and lnav's test logs, and of Loghub alone, with and without `since`/`until`,
 *    beside `rg -c -w` of level words (skipped, with a notice, when `../shared` is absent).
 * 2. Time windows (issue #12, `bench/time_window.ts`): on a time-ordered log of Loghub lines behind ISO
 *    8601 headers (`bench/time_log.ts`; skipped, with a notice, when `../shared` is absent), a window over
 *    its last 1% (`since`) with `log_search` and `log_levels`, entered by a seek: bytes read and ms beside
 *    a full filtered scan (`LC_ALL=C awk`, and the in-process one of `bench/time_seek.ts`).
 * 3. The synthetic log (issue #2, `bench/gen_log.ts`): one line shape; `log_search` vs `grep -c -F`,
 *    `log_levels`, `log_tail` vs `tail`; then a paged search with the default budgets (issue #5).
 * 4. Memory (`bench/memory.ts`): peak RSS growth of the server on huge inputs; then (`bench/call_peaks.ts`,
 *    issue #22) each call kind with the largest arguments its schema takes, in both modes, peak over idle.
 * 5. Templates (issue #13, `bench/patterns.ts`): `log_patterns` over the real-lines log of part 1 (lines/s,
 *    templates, the server's peak RSS growth), the same with `--no-redact`, and `log_search` by the most
 *    frequent template's id, beside `rg -c ''` and `wc -l` (skipped, with a notice, when `../shared` is
 *    absent).
 * 5b. Distinct lines (issue #22, `bench/patterns_distinct.ts`): `log_patterns` on 1 M all-different
 *    lines with the default budget, pages followed and summed (≤ 30 s), and the server's peak RSS growth.
 * 6. ClickHouse (issue #14, `bench/clickhouse.ts`): a table of 10M generated rows in the test server
 *    (`tests/clickhouse_server.ts`, `tests/clickhouse_seed.ts`) beside the same rows exported to one local
 *    file per service: `log_tail`, a rare `log_search`, `log_levels`, and searches stopped by each budget and
 *    paged to the end, on both (skipped, with a notice, when clickhouse-server is not installed).
 *
 * Environment: `LOGPEEK_BENCH_DIR` (where the generated files are kept between runs; default
 * `$TMPDIR/logpeek-bench`), `LOGPEEK_BENCH_BYTES` (the logs' size; default 1 GiB: use ~150 MB while
 * developing), `LOGPEEK_BENCH_PARTS` (which of `real,corpora,time,synthetic,memory,patterns,distinct,ga,listing,startup,clickhouse`
 * to run; default
 * all), `LOGPEEK_BENCH_CH_ROWS` (rows of the ClickHouse table; default 10,000,000),
 * `LOGPEEK_BENCH_ROW_S` (the most seconds one row's logpeek call may take before the row
 * says "too slow"; default 60), `LOGPEEK_BENCH_RUNS` (runs a row, median taken; default 5).
 *
 * Exit code: 1 when an answer differed from its peer's (MISMATCH), else 0, whether targets were met or
 * not (the summary says which).
 *
 * @module
 */

import { join } from "node:path";
import { connect } from "../tests/mcp_client.ts";
import { sharedDir } from "../tests/shared_dir.ts";
import { generateLog, NEEDLE } from "./gen_log.ts";
import { makeMemoryInputs, measureMemory, memoryTable } from "./memory.ts";
import { makePeakInputs, measurePeaks, PEAK_BOUND, peakCases, peaksTable } from "./call_peaks.ts";
import { PAGED_NEEDLE, pagedSearch } from "./pages.ts";
import { BENCH_ROWS, clickhouseBench, reportClickHouse } from "./clickhouse.ts";
import { median, rate, runCommand, runShell, shellQuote } from "./measure.ts";
import { MAX_GROWTH, MIN_LINES_PER_S, PATTERNS_MS, patternsBench, TEMPLATE_LIMIT } from "./patterns.ts";
import { DISTINCT_LINES, distinctBench, MAX_DISTINCT_MS } from "./patterns_distinct.ts";
import { GA_LOO_MEAN, GA_LOO_MIN, gaBench } from "./grouping_accuracy.ts";
import { realLogBench } from "./real_log.ts";
import { LIST_FILES, LIST_FOLDERS, listingBench, PAGE_MS } from "./listing.ts";
import { STARTUP_MS, startupBench } from "./startup.ts";
import { timeWindowBench } from "./time_window.ts";
import { levelsSpeedBench } from "./levels_speed.ts";
import { renderTable, type Row, type Verdict, verdicts } from "./table.ts";

const GIB = 1024 * 1024 * 1024;

/** True when `path` is a folder. */
function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** A whole number from the environment, or `fallback`; exits on a value that is not one. */
function envNumber(name: string, fallback: number): number {
  const raw = Deno.env.get(name);
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) {
    console.error(`${name} must be a whole number ≥ 1, got '${raw}'`);
    Deno.exit(2);
  }
  return n;
}

const started = performance.now();
const dir = Deno.env.get("LOGPEEK_BENCH_DIR") ?? join(Deno.env.get("TMPDIR") ?? "/tmp", "logpeek-bench");
Deno.mkdirSync(dir, { recursive: true });
const bytes = envNumber("LOGPEEK_BENCH_BYTES", GIB);
const capMs = envNumber("LOGPEEK_BENCH_ROW_S", 60) * 1000;
const RUNS = envNumber("LOGPEEK_BENCH_RUNS", 5);
const parts = new Set(
  (Deno.env.get("LOGPEEK_BENCH_PARTS") ||
    "real,corpora,time,synthetic,memory,patterns,distinct,ga,listing,startup,clickhouse")
    .split(
      ",",
    ),
);
const all: Verdict[] = [];
const mismatches: string[] = [];

// 1. Real log lines.
const shared = parts.has("real") ? sharedDir("the real-log table (issue #11)") : null;
if (!parts.has("real")) {
  console.log("\n(the real-log table is not in LOGPEEK_BENCH_PARTS)");
} else if (shared === null) {
  console.log("\nSKIPPED: the real-log table (issue #11): ../shared (the Loghub corpus) is absent.");
} else {
  const loghub = join(shared, "corpus", "loghub");
  // The 16-system table needs lnav's logs as well (issue #26); without them it is skipped, said below.
  const both = isFolder(join(shared, "corpus", "lnav", "logs")) ? shared : undefined;
  const r = await realLogBench({ dir, loghub, bytes, capMs, runs: RUNS, shared: both });
  console.log(
    `\n## Real log lines (issue #11): ${r.log.path}\n\n${r.log.size} bytes, ${r.log.lines} lines (shuffled ` +
      `Loghub lines, seeded, and 10 rare lines at lines ${r.log.rare.join(", ")}); .gz: ${r.gz.path}, ` +
      `${r.gz.size} bytes on disk, ${r.gz.expanded} decompressed. Median of up to ${RUNS} runs, interleaved ` +
      `with the peers, files in the page cache; a row's logpeek call is given up after ${capMs / 1000} s. ` +
      `ratio = peer ms / logpeek ms. The client is the MCP SDK's, over a line-splitting stdio transport ` +
      `(tests/line_transport.ts: the SDK's own re-reads its whole buffer per chunk, ~3 s of client CPU ` +
      `for row 4's answers).\n`,
  );
  console.log(renderTable(r.rows));
  console.log("");
  for (const n of r.notes) console.log(`- ${n}`);
  all.push(...verdicts("real", r.rows));
  if (r.corpora) {
    const c = r.corpora.log;
    console.log(
      `\n## Real log lines, 16 systems (issue #26): ${c.path}\n\n${c.size} bytes, ${c.lines} lines (shuffled ` +
        `lines of both corpora, Loghub and lnav, seeded, and the same 10 rare lines at lines ` +
        `${c.rare.join(", ")}). Same run, same server, same rules as the table above (rows 1–6).\n`,
    );
    console.log(renderTable(r.corpora.rows));
    console.log("");
    for (const n of r.corpora.notes) console.log(`- ${n}`);
    all.push(...verdicts("real, 16 systems", r.corpora.rows));
  }
  if (!both) {
    console.log("\nSKIP the 16-system real-log table (issue #26): ../shared/corpus/lnav/logs is absent.");
  }
  mismatches.push(...r.mismatches);
}

// 1b. Levels on two corpora (issue #23, item 6).
const corporaShared = parts.has("corpora") ? sharedDir("the two-corpus levels table (issue #23)") : null;
if (!parts.has("corpora")) {
  console.log("\n(the two-corpus levels table is not in LOGPEEK_BENCH_PARTS)");
} else if (corporaShared === null) {
  console.log(
    "\nSKIP the two-corpus levels table (issue #23): ../shared (the Loghub and lnav corpora) is absent.",
  );
} else {
  const r = await levelsSpeedBench({ dir, shared: corporaShared, bytes, capMs, runs: RUNS });
  console.log(
    `\n## Levels on two corpora (issue #23, item 6)\n\nShuffled real lines (seeded) of both corpora ` +
      `(Loghub's seven systems and lnav's test logs), and of Loghub alone; log_levels through the MCP SDK's ` +
      `client over the line-splitting stdio transport, beside the peer on the same file, interleaved, median of ` +
      `${RUNS} runs, files in the page cache.\n`,
  );
  console.log(renderTable(r.rows));
  console.log("");
  for (const n of r.notes) console.log(`- ${n}`);
  all.push(...verdicts("corpora", r.rows));
  mismatches.push(...r.mismatches);
}

// 2. Time windows (issue #12).
const timeShared = parts.has("time") ? sharedDir("the time-window table (issue #12)") : null;
if (!parts.has("time")) {
  console.log("\n(the time-window table is not in LOGPEEK_BENCH_PARTS)");
} else if (timeShared === null) {
  console.log("\nSKIPPED: the time-window table (issue #12): ../shared (the Loghub corpus) is absent.");
} else {
  const loghub = join(timeShared, "corpus", "loghub");
  const r = await timeWindowBench({ dir, loghub, bytes, capMs, runs: RUNS });
  console.log(
    `\n## Time windows (issue #12): ${r.log.path}\n\n${r.log.size} bytes, ${r.log.lines} lines (Loghub lines ` +
      `behind ISO 8601 headers in time order, seeded; ${r.log.untimed} untimed stack-trace lines). The window ` +
      `is its last 1%: since ${r.since} (the builder's record: ${r.log.windowLines} lines from byte ` +
      `${r.log.sinceOff}). Median of up to ${RUNS} runs, interleaved, file in the page cache; logpeek through ` +
      `the MCP SDK's client over the line-splitting stdio transport. logpeek GB/s is left empty: a seek does ` +
      `not read the file. The peers read every byte and test each line's time; ratio = peer ms / logpeek ms.\n`,
  );
  console.log(renderTable(r.rows));
  console.log("");
  for (const n of r.notes) console.log(`- ${n}`);
  all.push(...verdicts("time", r.rows));
  mismatches.push(...r.mismatches);
}

// 3. The synthetic log (issue #2).
if (parts.has("synthetic")) {
  const synthName = bytes === GIB ? "bench.log" : `bench-${bytes}.log`;
  console.error(`generating the synthetic log ${synthName} in ${dir} (once; kept for later runs)…`);
  const big = generateLog(join(dir, synthName), bytes);
  const small = generateLog(join(dir, "small.log"), 1024 * 1024, 7);
  const file = join(dir, synthName);
  await runShell(`cat ${shellQuote(file)} > /dev/null`);

  {
    await using s = await connect([dir], {
      LOGPEEK_SEARCH_MS: "600000",
      LOGPEEK_SEARCH_BYTES: String(4 * GIB),
      LOGPEEK_LEVELS_MS: "600000",
    });
    // deno-lint-ignore no-explicit-any
    const call = async (tool: string, args: Record<string, unknown>): Promise<{ ms: number; sc: any }> => {
      const t = performance.now();
      const r = await s.client.callTool({ name: tool, arguments: args }, undefined, { timeout: 660_000 });
      const ms = performance.now() - t;
      if (r.isError) throw new Error(`${tool} failed: ${(r.content as { text: string }[])[0]?.text}`);
      return { ms, sc: r.structuredContent };
    };
    /** Interleaved runs of a call and peer commands; medians. */
    const timed = async (
      n: number,
      tool: string,
      args: Record<string, unknown>,
      peers: [string, string[]][],
    ) => {
      const lp: number[] = [];
      const pm: number[][] = peers.map(() => []);
      const outs: string[] = [];
      // deno-lint-ignore no-explicit-any
      let sc: any;
      for (let i = 0; i < n; i++) {
        const r = await call(tool, args);
        lp.push(r.ms);
        sc = r.sc;
        for (let p = 0; p < peers.length; p++) {
          const c = await runCommand(peers[p][0], peers[p][1]);
          pm[p].push(c.ms);
          outs[p] = c.out.trim();
        }
      }
      return { ms: median(lp), sc, peers: pm.map(median), outs };
    };
    const search = await timed(RUNS, "log_search", { file: synthName, text: NEEDLE }, [
      ["grep", ["-c", "-F", NEEDLE, file]],
      ["grep", ["-n", "-F", NEEDLE, file]],
      ["rg", ["-n", "-F", NEEDLE, file]],
    ]);
    const levels = await timed(3, "log_levels", { file: synthName }, [
      ["grep", ["-c", "-F", NEEDLE, file]],
      ["wc", ["-l", file]],
    ]);
    const tailBig = await timed(21, "log_tail", { file: synthName }, []);
    const tailSmall = await timed(21, "log_tail", { file: "small.log" }, [["tail", ["-n", "20", file]]]);

    // The answers must be right before the times mean anything.
    const synthMismatch = (what: string) => {
      const line = `MISMATCH in the synthetic table: ${what}`;
      console.log(line);
      mismatches.push(line);
    };
    const grepLine = Number(search.outs[1].split(":")[0]);
    if (search.sc.matches.length !== Number(search.outs[0]) || search.sc.matches[0]?.line_no !== grepLine) {
      synthMismatch(`log_search ${JSON.stringify(search.sc.matches)} vs grep -n -F ${search.outs[1]}`);
    }
    if (!search.sc.complete || search.sc.scanned_lines !== big.lines) {
      synthMismatch(`log_search did not scan it all (${search.sc.scanned_lines} of ${big.lines} lines)`);
    }
    const wcLines = Number(levels.outs[1].split(" ")[0]);
    if (!levels.sc.complete || levels.sc.total_lines !== wcLines) {
      synthMismatch(`log_levels counted ${levels.sc.total_lines} lines, wc -l ${wcLines}`);
    }

    const tailRatio = tailBig.ms / tailSmall.ms;
    const rows: Row[] = [
      {
        work: "log_search (needle near the end)",
        ms: search.ms,
        rate: rate(big.size, search.ms),
        peer: "grep -c -F",
        peerMs: search.peers[0],
        target: "≥ 0.8×",
        met: search.peers[0] / search.ms >= 0.8,
      },
      { work: "", ms: search.ms, peer: "grep -n -F (information)", peerMs: search.peers[1] },
      { work: "", ms: search.ms, peer: "rg -n -F (information)", peerMs: search.peers[2] },
      {
        work: "log_levels (every line)",
        ms: levels.ms,
        rate: rate(big.size, levels.ms),
        peer: "grep -c -F",
        peerMs: levels.peers[0],
        target: "≥ 0.4×",
        met: levels.peers[0] / levels.ms >= 0.4,
      },
      { work: "", ms: levels.ms, peer: "wc -l (information)", peerMs: levels.peers[1] },
      {
        work: `log_tail, 20 lines, ${(big.size / 1024 / 1024).toFixed(0)} MiB`,
        ms: tailBig.ms,
        peer: "tail -n 20",
        peerMs: tailSmall.peers[0],
        target: "< 20 ms",
        met: tailBig.ms < 20,
        value: `${tailBig.ms.toFixed(1)} ms`,
      },
      {
        work: `log_tail, 20 lines, 1 MiB (${small.lines} lines)`,
        ms: tailSmall.ms,
        target: "big within 2× of 1 MiB",
        met: tailRatio <= 2 && tailRatio >= 0.5,
        value: `${tailRatio.toFixed(2)}×`,
      },
    ];
    console.log(
      `\n## Synthetic log (issue #2): ${file}\n\n${big.size} bytes, ${big.lines} lines of one shape; median of ` +
        `${RUNS} runs (log_levels: 3, log_tail: 21), interleaved with the peers, file in the page cache.\n`,
    );
    console.log(renderTable(rows));
    all.push(...verdicts("synthetic", rows));
  }

  const paged = await pagedSearch(dir, synthName);
  const pagedGrep = Number((await runCommand("grep", ["-c", "-F", PAGED_NEEDLE, file])).out.trim());
  const pagedOk = paged.matches === pagedGrep && paged.ordered;
  if (!pagedOk) {
    const line = `MISMATCH in the paged search: ${paged.matches} matches (in order: ${paged.ordered}), ` +
      `grep -c -F ${pagedGrep}`;
    console.log(line);
    mismatches.push(line);
  }
  console.log(
    `\nPaged search (issue #5): ${
      JSON.stringify(PAGED_NEEDLE)
    } over the synthetic log with the default budgets ` +
      `(2 s, 5 MiB a page): ${paged.pages} pages resumed with next_cursor, ${paged.matches} matches in order ` +
      `${paged.ordered ? "(yes)" : "(NO)"}, grep -c -F says ${pagedGrep}: ${
        paged.matches === pagedGrep ? "equal" : "NOT equal"
      }; ${paged.seconds.toFixed(1)} s in all.`,
  );
}

// 4. Memory.
if (parts.has("memory")) {
  const memDir = Deno.makeTempDirSync({ prefix: "logpeek-mem-" });
  try {
    makeMemoryInputs(memDir);
    console.log("\n## Memory: peak RSS (VmHWM) of the server process, read from /proc by this benchmark.\n");
    const mem = await measureMemory(memDir);
    console.log(memoryTable(mem));
    for (const m of mem) all.push({ table: "memory", what: `${m.scenario} within its bound`, met: m.ok });
    // Issue #22, item 6: each call kind with its largest arguments, in both modes.
    const peaksDir = Deno.makeTempDirSync({ prefix: "logpeek-peaks-" });
    try {
      makePeakInputs(peaksDir);
      console.log(
        `\n## Memory per call kind (issue #22): peak RSS (VmHWM) over idle RSS, each call in a fresh server, ` +
          `bound ${PEAK_BOUND / 1024 / 1024} MiB.\n`,
      );
      const peaks = await measurePeaks(peaksDir, peakCases());
      console.log(peaksTable(peaks));
      for (const p of peaks) {
        all.push({
          table: "memory",
          what: `${p.kind} (${p.mode}) ≤ 64 MiB over idle`,
          met: p.peak - p.idle <= PEAK_BOUND,
        });
      }
    } finally {
      Deno.removeSync(peaksDir, { recursive: true });
    }
  } finally {
    Deno.removeSync(memDir, { recursive: true });
  }
}

// 5. Templates (issue #13).
const patternsShared = parts.has("patterns") ? sharedDir("the template table (issue #13)") : null;
if (!parts.has("patterns")) {
  console.log("\n(the template table is not in LOGPEEK_BENCH_PARTS)");
} else if (patternsShared === null) {
  console.log("\nSKIPPED: the template table (issue #13): ../shared (the Loghub corpus) is absent.");
} else {
  const loghub = join(patternsShared, "corpus", "loghub");
  const r = await patternsBench({ dir, loghub, bytes, runs: RUNS });
  console.log(
    `\n## Templates (issue #13): ${r.log.path}\n\n${r.log.size} bytes, ${r.log.lines} lines (the real-lines ` +
      `log of part 1: shuffled Loghub lines, seeded). logpeek through the MCP SDK's client over the ` +
      `line-splitting stdio transport, LOGPEEK_PATTERNS_MS=${PATTERNS_MS}, LOGPEEK_INLINE_CHARS default. ` +
      `Median of up to ${RUNS} runs, interleaved with the peers, file in the page cache; fewer when a call ` +
      `takes over 5 s (3) or 20 s (1): the notes say how many. No tool does the same work: \`rg -c ''\` and ` +
      `\`wc -l\` (information) are a floor, reading the file and counting its lines. Targets: ≥ ` +
      `${MIN_LINES_PER_S.toLocaleString("en")} lines/s, peak RSS growth ≤ ${MAX_GROWTH / 1024 / 1024} MiB; ` +
      `row 3 (log_search by template_id, limit ${TEMPLATE_LIMIT}) must count what row 1 counted.\n`,
  );
  console.log(renderTable(r.rows));
  console.log("");
  for (const n of r.notes) console.log(`- ${n}`);
  all.push(...verdicts("patterns", r.rows));
  mismatches.push(...r.mismatches);
}

// 5b. Distinct lines (issue #22).
if (!parts.has("distinct")) {
  console.log("\n(the distinct-lines table is not in LOGPEEK_BENCH_PARTS)");
} else {
  const r = await distinctBench({ dir, runs: RUNS });
  console.log(
    `\n## Distinct lines (issue #22): log_patterns on ${DISTINCT_LINES.toLocaleString("en")} all-different ` +
      `lines\n\nlogpeek through the MCP SDK's client over the line-splitting stdio transport, the server's ` +
      `default budgets (a page stops at LOGPEEK_PATTERNS_MS, 30 s; the pages are followed and timed together). ` +
      `Median of up to ${RUNS} runs (1 when a call takes over 20 s). Targets: ≤ ${
        MAX_DISTINCT_MS / 1000
      } s, ` +
      `peak RSS growth ≤ ${MAX_GROWTH / 1024 / 1024} MiB.\n`,
  );
  console.log(renderTable(r.rows));
  console.log("");
  for (const n of r.notes) console.log(`- ${n}`);
  all.push(...verdicts("distinct", r.rows));
  mismatches.push(...r.mismatches);
}

// 5c. Grouping accuracy (issue #23).
const gaShared = parts.has("ga") ? sharedDir("the grouping-accuracy table (issue #23)") : null;
if (!parts.has("ga")) {
  console.log("\n(the grouping-accuracy table is not in LOGPEEK_BENCH_PARTS)");
} else if (gaShared === null) {
  console.log("\nSKIPPED: the grouping-accuracy table (issue #23): ../shared (the Loghub corpus) is absent.");
} else {
  const r = await gaBench(join(gaShared, "corpus", "loghub"));
  console.log(
    "\n## Grouping accuracy (issue #23): log_patterns on the seven Loghub samples\n\n" +
      "GA as in Loghub/Drain: a line is right when its template's lines are its true event's lines. Through " +
      "the MCP SDK's client (log_patterns, then log_search by each template_id), beside the miner in process " +
      "(the same grouping, or a MISMATCH); then leave-one-out over the miner's parameters. Targets: " +
      `leave-one-out mean ≥ ${GA_LOO_MEAN}, no log below ${GA_LOO_MIN}.\n`,
  );
  console.log(r.text);
  const held = r.folds.map((f) => f.heldOut);
  const looMean = held.reduce((a, b) => a + b, 0) / held.length;
  all.push(
    {
      table: "ga",
      what: `leave-one-out mean GA ${looMean.toFixed(3)} ≥ ${GA_LOO_MEAN}`,
      met: looMean >= GA_LOO_MEAN,
    },
    {
      table: "ga",
      what: `leave-one-out least GA ${Math.min(...held).toFixed(3)} ≥ ${GA_LOO_MIN}`,
      met: Math.min(...held) >= GA_LOO_MIN,
    },
  );
  mismatches.push(...r.mismatches);
}

// 6. The listing at scale (issue #22).
if (!parts.has("listing")) {
  console.log("\n(the listing table is not in LOGPEEK_BENCH_PARTS)");
} else {
  const r = await listingBench(dir, RUNS);
  console.log(
    `\n## Listing at scale (issue #22): log_files over ${LIST_FOLDERS} folders × ${LIST_FILES} files\n\n` +
      "Through the MCP SDK's client over the line-splitting stdio transport, default budgets, every page " +
      "of each order; the pages joined must be find's list sorted the same way. Newest first, every page " +
      `walks the whole tree. Target: ≤ ${PAGE_MS} ms a page.\n`,
  );
  console.log(renderTable(r.rows));
  all.push(...verdicts("listing", r.rows));
  mismatches.push(...r.mismatches);
}

// 7. Start-up (issue #24).
if (!parts.has("startup")) {
  console.log("\n(the start-up table is not in LOGPEEK_BENCH_PARTS)");
} else {
  const rows = await startupBench(RUNS);
  console.log(
    "\n## Start-up (issue #24): from spawning the server to its answer to initialize\n\n" +
      `Each way started once to warm Deno's cache, then ${RUNS} times; the median. Target: ≤ ${STARTUP_MS} ms ` +
      "for the entry `logpeek config` prints.\n",
  );
  console.log(renderTable(rows));
  all.push(...verdicts("startup", rows));
}

// 8. ClickHouse (issue #14).
if (!parts.has("clickhouse")) {
  console.log("\n(the ClickHouse table is not in LOGPEEK_BENCH_PARTS)");
} else {
  const r = await clickhouseBench({ runs: RUNS, rows: envNumber("LOGPEEK_BENCH_CH_ROWS", BENCH_ROWS) });
  if (r === null) {
    console.log("\nSKIPPED: the ClickHouse table (issue #14): clickhouse-server is not installed.");
  } else {
    console.log(reportClickHouse(r, RUNS));
    mismatches.push(...r.mismatches);
  }
}

const met = all.filter((v) => v.met);
const notMet = all.filter((v) => !v.met);
console.log(`\n## Summary: ${met.length} of ${all.length} targets met\n`);
for (const v of notMet) console.log(`- NOT met (${v.table}): ${v.what}`);
for (const v of met) console.log(`- met (${v.table}): ${v.what}`);
if (mismatches.length) {
  console.log(`\n${mismatches.length} MISMATCH(ES): the times above do not count:`);
  for (const m of mismatches) console.log(`- ${m}`);
}
console.log(`\nWall time of the whole benchmark: ${((performance.now() - started) / 1000).toFixed(0)} s.`);
if (mismatches.length) Deno.exit(1);
