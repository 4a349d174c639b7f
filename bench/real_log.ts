/**
 * The benchmark on real log lines (issue #11): logpeek through a real MCP client beside the command a
 * user would run instead (ripgrep, mostly), on the same file, in the same run, interleaved, file in the
 * page cache.
 *
 * The log is made by `bench/loghub_log.ts` (shuffled Loghub lines and ten rare lines); a second log, of
 * both corpora's lines (Loghub and lnav: 16 systems' line shapes) with the same ten rare lines inserted
 * the same way, by `bench/corpora_log.ts` `makeCorporaRareLog` (issue #26), and rows 1–6 run on it too,
 * in the same run, by the same server, each beside its peer; its gzip by
 * `gzip -1 -c`, and a multi-member gzip of that copied {@linkcode GZ_COPIES} times (`cat x.gz x.gz …` is
 * a valid gzip of the log repeated). Every row checks logpeek's answer against the peer's before its
 * time counts: the same line numbers and count (`rg -n`), `complete: true`, and for `log_levels`
 * `total_lines` = `wc -l`. A difference is a MISMATCH: printed, and the benchmark exits non-zero.
 *
 * The server runs as users run it, with its budgets raised so one call scans the whole file:
 * `LOGPEEK_SEARCH_MS` and `LOGPEEK_LEVELS_MS` are the row cap (a call still running then stops itself
 * and the row says "too slow"), `LOGPEEK_SEARCH_BYTES` 16 GiB, `LOGPEEK_INLINE_CHARS` high enough that
 * no answer spills to an artifact, and `limit` is the largest the tool's input schema allows (read
 * from `tools/list`). A search with more matches than that is paged with `next_cursor`, and its time is
 * the sum of the pages.
 *
 * @module
 */

import { join } from "node:path";
import { connect, type Session } from "../tests/mcp_client.ts";
import { type LoghubLog, makeLoghubLog, RARE_TEXT } from "./loghub_log.ts";
import { makeCorporaRareLog } from "./corpora_log.ts";
import {
  type CommandRun,
  firstDifference,
  lineNumbers,
  median,
  rate,
  runCommand,
  runShell,
  shellQuote,
} from "./measure.ts";
import { peakRss, resetPeak, residentRss } from "./peak_rss.ts";
import type { Row } from "./table.ts";

/** How many copies of the gzip member the `.gz` row concatenates (4 × 1 GiB = 4 GiB decompressed). */
export const GZ_COPIES = 4;

/** The most a `.gz` search may add to the server's resident memory over its idle level (issue #11). */
export const GZ_MAX_GROWTH = 16 * 1024 * 1024;

/** The rows' searches: what is searched, and with which options. */
export const QUERIES = {
  literal: RARE_TEXT,
  ignoreCase: "VORTEX-kestrel-17",
  requiredLiteral: "zq-[0-9]+ timed",
  manyMatches: "blk_-?[0-9]+ .*(terminating|deleting)",
  noLiteral: "[0-9]{3}-[a-z]{4}",
} as const;

/** How the benchmark runs. */
export interface RealLogOptions {
  /** Where the generated files are kept between runs. */
  dir: string;
  /** The `corpus/loghub` folder of the shared material. */
  loghub: string;
  /** The log's size in bytes. */
  bytes: number;
  /** The most time one row's logpeek call (or pages) may take, in ms; then the row is "too slow". */
  capMs: number;
  /** How many times each row is timed (fewer when one call is slow: 3 above 5 s, 1 above 20 s). */
  runs: number;
  /**
   * The shared folder (`../shared`): when given, rows 1–6 run again on a log of both corpora's lines
   * with the same rare lines (`corpora_log.ts` `makeCorporaRareLog`, 16 systems).
   */
  shared?: string;
}

/** What the benchmark found. */
export interface RealLogResult {
  log: LoghubLog;
  /** The multi-member gzip: its path, size on disk, and how many bytes it expands to. */
  gz: { path: string; size: number; expanded: number };
  rows: Row[];
  /** One line per answer that differed from its peer's. */
  mismatches: string[];
  /** Notes printed under the table (runs per row, pages, memory details). */
  notes: string[];
  /** Rows 1–6 on the 16-system log, with their notes; null when `shared` was not given. */
  corpora: { log: LoghubLog; rows: Row[]; notes: string[] } | null;
}

/** A structured tool answer, as the tools' output schemas describe it. */
// deno-lint-ignore no-explicit-any
type Structured = any;

/** One logpeek measurement: its time, or why there is none, and what it answered. */
interface LogpeekRun {
  ms: number;
  /** Set when the call (or its pages) did not finish within the cap. */
  slow?: string;
  /** The matched line numbers (searches), in order. */
  lines: number[];
  /** The last page's structured answer. */
  sc: Structured;
  pages: number;
}

/**
 * Calls a tool with a client-side timeout of `timeoutMs` (the SDK's default, 60 s, is shorter than a
 * slow row), and returns its structured answer.
 *
 * @throws {Error} when the tool answers with an error.
 */
async function callTool(s: Session, tool: string, args: Record<string, unknown>, timeoutMs: number) {
  const r = await s.client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs });
  if (r.isError) {
    throw new Error(`${tool} failed: ${(r.content as { text: string }[])[0]?.text}`);
  }
  return r.structuredContent as Structured;
}

/**
 * Runs `log_search` to the end: pages with `next_cursor` until there is none, collecting the matched
 * line numbers; gives up (`slow`) when a page stops at its time budget or the pages' sum passes `capMs`.
 */
async function searchAll(
  s: Session,
  args: Record<string, unknown>,
  limit: number,
  capMs: number,
): Promise<LogpeekRun> {
  const lines: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let sc: Structured;
  const t = performance.now();
  do {
    sc = await callTool(s, "log_search", { ...args, limit, ...(cursor ? { cursor } : {}) }, capMs + 60_000);
    pages++;
    for (const m of sc.matches) lines.push(m.line_no);
    const ms = performance.now() - t;
    if (sc.stop_reason === "time_budget" || (sc.next_cursor && ms > capMs)) {
      return { ms, slow: `too slow (> ${capMs / 1000} s)`, lines, sc, pages };
    }
    cursor = sc.next_cursor ?? undefined;
  } while (cursor);
  return { ms: performance.now() - t, lines, sc, pages };
}

/** Runs `log_levels` once; `slow` when it stopped at its time budget. */
async function levels(s: Session, file: string, capMs: number): Promise<LogpeekRun> {
  const t = performance.now();
  const sc = await callTool(s, "log_levels", { file }, capMs + 60_000);
  const ms = performance.now() - t;
  const slow = sc.stop_reason === "time_budget" ? `too slow (> ${capMs / 1000} s)` : undefined;
  return { ms, slow, lines: [], sc, pages: 1 };
}

/** A row's measurements: logpeek's runs and each peer's runs, interleaved. */
interface Measured {
  first: LogpeekRun;
  lpMs: number[];
  peers: CommandRun[][];
}

/**
 * Times one row: each run calls logpeek, then each peer in turn. After the first run, the count of
 * runs drops to 3 when logpeek took over 5 s, and to 1 over 20 s or when it was too slow.
 */
async function measure(
  runs: number,
  logpeek: () => Promise<LogpeekRun>,
  peers: (() => Promise<CommandRun>)[],
): Promise<Measured> {
  const lpMs: number[] = [];
  const peerRuns: CommandRun[][] = peers.map(() => []);
  let first: LogpeekRun | undefined;
  for (let i = 0; i < runs; i++) {
    const r = await logpeek().catch((e): LogpeekRun => ({
      ms: NaN,
      slow: `error: ${e instanceof Error ? e.message : e}`,
      lines: [],
      sc: {},
      pages: 0,
    }));
    first ??= r;
    if (!r.slow) lpMs.push(r.ms);
    for (let p = 0; p < peers.length; p++) peerRuns[p].push(await peers[p]());
    if (i === 0) {
      if (r.slow || r.ms > 20_000) runs = 1;
      else if (r.ms > 5_000) runs = Math.min(runs, 3);
    }
  }
  return { first: first!, lpMs, peers: peerRuns };
}

/** Makes (once) the gzip of `log` and the multi-member gzip of {@linkcode GZ_COPIES} copies of it. */
async function makeGzip(log: LoghubLog): Promise<{ path: string; size: number; expanded: number }> {
  const one = `${log.path}.gz`;
  const many = `${log.path.replace(/\.log$/, "")}-x${GZ_COPIES}.log.gz`;
  const marker = `${many}.of`;
  const want = `${log.size} ${log.lines}`;
  try {
    if (Deno.readTextFileSync(marker) === want) {
      return { path: many, size: Deno.statSync(many).size, expanded: GZ_COPIES * log.size };
    }
  } catch {
    // not made yet
  }
  console.error(`compressing the log (gzip -1, once; kept for later runs)…`);
  const q = shellQuote;
  for (
    const line of [
      `gzip -1 -c ${q(log.path)} > ${q(one + ".tmp")} && mv ${q(one + ".tmp")} ${q(one)}`,
      `cat ${Array(GZ_COPIES).fill(q(one)).join(" ")} > ${q(many + ".tmp")} && mv ${q(many + ".tmp")} ${
        q(many)
      }`,
    ]
  ) {
    const r = await runShell(line);
    if (r.code !== 0) throw new Error(`failed: ${line}`);
  }
  Deno.removeSync(one);
  Deno.writeTextFileSync(marker, want);
  return { path: many, size: Deno.statSync(many).size, expanded: GZ_COPIES * log.size };
}

/**
 * The real-lines log's file name in the bench folder for a size: `loghub.log` at 1 GiB, else
 * `loghub-<bytes>.log` (the `patterns` part, `bench/patterns.ts`, mines the same file).
 *
 * @param bytes `LOGPEEK_BENCH_BYTES`.
 */
export function realLogName(bytes: number): string {
  return bytes === 1024 ** 3 ? "loghub.log" : `loghub-${bytes}.log`;
}

/** The name of the real-line table's second log (16 systems' lines, `corpora_log.ts` `makeCorporaRareLog`). */
export function corporaRareName(bytes: number): string {
  return `corpora-rare-${bytes}.log`;
}

/** What the rows of one log share: the session, the options, the largest `limit`, where findings go. */
interface Table {
  s: Session;
  o: RealLogOptions;
  limit: number;
  rows: Row[];
  notes: string[];
  mismatch: (what: string, detail: string) => void;
}

const mid = (runs: CommandRun[]) => median(runs.map((r) => r.ms));
const slowOr = (m: Measured) => m.first.slow ?? median(m.lpMs);
const ratioMet = (m: Measured, peer: CommandRun[], min: number) =>
  !m.first.slow && mid(peer) / median(m.lpMs) >= min;

/** A call that failed is a wrong answer too. */
function failed(t: Table, work: string, m: Measured): void {
  if (m.first.slow?.startsWith("error")) t.mismatch(work, m.first.slow);
}

/** A finished search found exactly the peer's line numbers, and says it is complete. */
function sameLines(t: Table, work: string, m: Measured, want: number[]): void {
  if (m.first.slow) return;
  const d = firstDifference(m.first.lines, want);
  if (d) t.mismatch(work, d);
  if (!m.first.sc.complete) t.mismatch(work, `complete is false (${m.first.sc.stop_reason})`);
}

/** The note under the table for a search row: runs, pages, matches. */
function note(t: Table, work: string, m: Measured): void {
  t.notes.push(
    `${work}: ${m.first.slow ? "gave up" : `${m.lpMs.length} run(s)`}` +
      (m.first.pages > 1 ? `, ${m.first.pages} pages of at most ${t.limit} matches` : "") +
      `; ${m.first.lines.length} match(es).`,
  );
}

/**
 * Row 4b (information, issue #26): row 4's search over a log of only its matching lines (`rg`'s output,
 * made beside the log once), so that the time is what the answers cost (each match's work, the
 * protocol, the client) with next to nothing to scan; beside `rg -n` over the whole log, as in row 4.
 * Every line is a match: the line numbers must be 1 to `wc -l`.
 */
async function answersRow(t: Table, log: LoghubLog, tag: string): Promise<void> {
  console.error(`${tag}row 4b: row 4's matches alone…`);
  const q = shellQuote, only = `${log.path}.row4-matches`;
  try {
    Deno.statSync(only);
  } catch {
    await runShell(
      `rg ${q(QUERIES.manyMatches)} ${q(log.path)} > ${q(only)}.part && mv ${q(only)}.part ${q(only)}`,
    );
  }
  const work = "4b. the same search over a log of only its matching lines (information)";
  const m = await measure(
    t.o.runs,
    () =>
      searchAll(
        t.s,
        { file: only.slice(t.o.dir.length + 1), text: QUERIES.manyMatches, regex: true },
        t.limit,
        t.o.capMs,
      ),
    [() => runCommand("rg", ["-n", QUERIES.manyMatches, log.path]), () => runCommand("wc", ["-l", only])],
  );
  failed(t, work, m);
  const n = Number(m.peers[1][0].out.trim().split(/\s+/)[0]);
  sameLines(t, work, m, Array.from({ length: n }, (_, i) => i + 1));
  const ms = slowOr(m);
  t.rows.push({
    work: `${work} (${n} lines)`,
    ms,
    rate: "",
    peer: `rg -n '${QUERIES.manyMatches}' over the whole log, as row 4`,
    peerMs: mid(m.peers[0]),
  });
  note(t, work, m);
}

/** A search row checked against `rg` (line numbers and count), complete: true; `min` null: MB/s. */
async function searchRow(
  t: Table,
  log: LoghubLog,
  work: string,
  args: Record<string, unknown>,
  rgArgs: string[],
  min: number | null,
  info: [string, string[]][] = [],
): Promise<void> {
  const file = log.path, name = file.slice(t.o.dir.length + 1);
  const peer = `rg ${rgArgs.map((a) => (a.startsWith("-") ? a : shellQuote(a))).join(" ")}`;
  const m = await measure(
    t.o.runs,
    () => searchAll(t.s, { file: name, ...args }, t.limit, t.o.capMs),
    [
      () => runCommand("rg", [...rgArgs, file]),
      ...info.map(([cmd, a]) => () => runCommand(cmd, [...a, file])),
    ],
  );
  failed(t, work, m);
  const want = lineNumbers(m.peers[0][0].out);
  if (want.length === 0) t.mismatch(work, `${peer} found nothing: the log is not the expected one`);
  sameLines(t, work, m, want);
  const ms = slowOr(m);
  const value = typeof ms === "number" ? ms : undefined;
  const row = {
    work: `${work} (${want.length} matches)`,
    ms,
    rate: value === undefined ? "" : rate(log.size, value),
  };
  if (min === null) {
    const mbps = value === undefined ? 0 : log.size / 1e6 / (value / 1000);
    const v = value === undefined ? String(ms) : `${mbps.toFixed(0)} MB/s`;
    t.rows.push({
      ...row,
      peer: `${peer} (information)`,
      peerMs: mid(m.peers[0]),
      target: "≥ 100 MB/s",
      met: mbps >= 100,
      value: v,
    });
  } else {
    t.rows.push({
      ...row,
      peer,
      peerMs: mid(m.peers[0]),
      target: `≥ ${min}×`,
      met: ratioMet(m, m.peers[0], min),
    });
  }
  info.forEach(([cmd, a], i) =>
    t.rows.push({
      work: "",
      ms: value,
      peer: `${cmd} ${a.map((x) => (x.startsWith("-") ? x : shellQuote(x))).join(" ")} (information)`,
      peerMs: mid(m.peers[i + 1]),
    })
  );
  note(t, work, m);
}

/** Rows 1–5: the searches on `log`, each beside its peer. */
async function searchRows(t: Table, log: LoghubLog, tag: string): Promise<void> {
  console.error(`${tag}row 1: literal search…`);
  await searchRow(
    t,
    log,
    "1. log_search literal, rare needle",
    { text: QUERIES.literal },
    [
      "-n",
      "-F",
      QUERIES.literal,
    ],
    0.9,
    [["grep", ["-n", "-F", QUERIES.literal]], ["rg", ["--no-mmap", "-n", "-F", QUERIES.literal]]],
  );
  console.error(`${tag}row 2: ignore_case…`);
  await searchRow(
    t,
    log,
    "2. log_search literal, ignore_case",
    { text: QUERIES.ignoreCase, ignore_case: true },
    ["-n", "-i", "-F", QUERIES.ignoreCase],
    0.8,
    [["rg", ["--no-mmap", "-n", "-i", "-F", QUERIES.ignoreCase]]],
  );
  console.error(`${tag}row 3: regex with a required literal…`);
  await searchRow(
    t,
    log,
    `3. log_search regex \`${QUERIES.requiredLiteral}\``,
    {
      text: QUERIES.requiredLiteral,
      regex: true,
    },
    ["-n", QUERIES.requiredLiteral],
    0.5,
    [["rg", ["--no-mmap", "-n", QUERIES.requiredLiteral]]],
  );
  console.error(`${tag}row 4: regex with many matches (paged)…`);
  await searchRow(
    t,
    log,
    `4. log_search regex \`${QUERIES.manyMatches}\`, paged`,
    {
      text: QUERIES.manyMatches,
      regex: true,
    },
    ["-n", QUERIES.manyMatches],
    0.5,
    [["rg", ["--no-mmap", "-n", QUERIES.manyMatches]]],
  );
  await answersRow(t, log, tag);
  console.error(`${tag}row 5: regex with no literal…`);
  await searchRow(
    t,
    log,
    `5. log_search regex \`${QUERIES.noLiteral}\` (no literal)`,
    {
      text: QUERIES.noLiteral,
      regex: true,
    },
    ["-n", QUERIES.noLiteral],
    0.5, // issue #26: every regex row ≥ 0.5× `rg -n` (before it: ≥ 100 MB/s, the peer for information)
  );
}

/** Row 6: `log_levels` on `log`, its total checked against `wc -l`, beside `rg -c -w`. */
async function levelsRow(t: Table, log: LoghubLog, tag: string): Promise<void> {
  console.error(`${tag}row 6: log_levels…`);
  const file = log.path, name = file.slice(t.o.dir.length + 1);
  const work = "6. log_levels, every line";
  const m = await measure(t.o.runs, () => levels(t.s, name, t.o.capMs), [
    () => runCommand("rg", ["-c", "-w", "-e", "INFO", "-e", "WARN", "-e", "ERROR", file]),
    () => runCommand("wc", ["-l", file]),
  ]);
  failed(t, work, m);
  const wc = Number(m.peers[1][0].out.trim().split(/\s+/)[0]);
  if (!m.first.slow) {
    if (m.first.sc.total_lines !== wc) t.mismatch(work, `total_lines ${m.first.sc.total_lines}, wc -l ${wc}`);
    if (!m.first.sc.complete) t.mismatch(work, `complete is false (${m.first.sc.stop_reason})`);
  }
  const ms = slowOr(m);
  const value = typeof ms === "number" ? ms : undefined;
  const gbps = value === undefined ? 0 : log.size / 1e9 / (value / 1000);
  const r = value === undefined ? "" : rate(log.size, value);
  t.rows.push({
    work: `${work} (${wc} lines)`,
    ms,
    rate: r,
    peer: "rg -c -w -e INFO -e WARN -e ERROR",
    peerMs: mid(m.peers[0]),
    target: "≥ 1.0×",
    met: ratioMet(m, m.peers[0], 1.0),
  });
  const v = value === undefined ? String(ms) : `${gbps.toFixed(2)} GB/s`;
  t.rows.push({ work: "", ms, rate: r, target: "≥ 1 GB/s", met: gbps >= 1, value: v });
  t.rows.push({ work: "", ms: value, peer: "wc -l (information)", peerMs: mid(m.peers[1]) });
  t.notes.push(
    `${work}: ${m.first.slow ? "gave up" : `${m.lpMs.length} run(s)`}; counts ${
      JSON.stringify(m.first.sc.counts)
    }; rg -c -w -e INFO -e WARN -e ERROR: ${m.peers[0][0].out.trim()} lines.`,
  );
}

/** Row 7: the literal search on the multi-member `.gz`, beside `zcat | rg -c -F`, and its memory. */
async function gzipRows(t: Table, gz: RealLogResult["gz"], env: Record<string, string>): Promise<void> {
  console.error("row 7: .gz…");
  const gzName = gz.path.slice(t.o.dir.length + 1);
  const work = `7. log_search literal on .gz (${GZ_COPIES} gzip members, ${
    (gz.expanded / 1024 ** 3).toFixed(2)
  } GiB decompressed)`;
  const q = shellQuote;
  const m = await measure(
    t.o.runs,
    () => searchAll(t.s, { file: gzName, text: QUERIES.literal }, t.limit, t.o.capMs),
    [() => runShell(`zcat ${q(gz.path)} | rg -c -F ${q(QUERIES.literal)}`)],
  );
  failed(t, work, m);
  const count = Number(m.peers[0][0].out.trim());
  const want = lineNumbers((await runShell(`zcat ${q(gz.path)} | rg -n -F ${q(QUERIES.literal)}`)).out);
  if (want.length !== count || count === 0) {
    t.mismatch(work, `zcat | rg: -c says ${count}, -n ${want.length}`);
  }
  sameLines(t, work, m, want);
  const ms = slowOr(m);
  const value = typeof ms === "number" ? ms : undefined;
  t.rows.push({
    work: `${work} (${count} matches)`,
    ms,
    rate: value === undefined ? "" : rate(gz.expanded, value),
    peer: `zcat FILE | rg -c -F ${QUERIES.literal}`,
    peerMs: mid(m.peers[0]),
    target: "≥ 0.8×",
    met: ratioMet(m, m.peers[0], 0.8),
  });
  note(t, "7. .gz", m);
  const mem = await gzipGrowth(t.o.dir, gzName, env, t.o.capMs);
  const grown = `${(mem.growth / 1024 / 1024).toFixed(1)} MiB`;
  t.rows.push({
    work: `7b. the same .gz search: peak RSS growth over idle (${grown})`,
    target: "≤ 16 MiB",
    met: mem.growth <= GZ_MAX_GROWTH,
    value: grown,
  });
  t.notes.push(
    `7b: a fresh server; after 3 warm-up searches on a small .gz, VmRSS ${mib(mem.idle)} MiB (idle); ` +
      `VmHWM ${mem.reset ? "reset (clear_refs 5), then" : "NOT reset (clear_refs failed): it was"} ` +
      `${mib(mem.peak)} MiB after the search (${mem.ms.toFixed(0)} ms, ${mem.matches} matches).`,
  );
}

/**
 * Makes the inputs (once), then measures every row: rows 1–7 on the Loghub log, and, with
 * `o.shared`, rows 1–6 again on the 16-system log (`corporaRareName`), in the same run, by the same
 * server.
 *
 * @param o Where, how big, the cap and the runs.
 * @returns The rows of each log, the mismatches, and notes.
 */
export async function realLogBench(o: RealLogOptions): Promise<RealLogResult> {
  const name = realLogName(o.bytes);
  console.error(`making ${name} (${o.bytes} bytes of shuffled Loghub lines) in ${o.dir} (once; kept)…`);
  const log = makeLoghubLog(o.loghub, join(o.dir, name), o.bytes);
  const gz = await makeGzip(log);
  let corpora: LoghubLog | null = null;
  if (o.shared !== undefined) {
    const second = corporaRareName(o.bytes);
    console.error(`making ${second} (both corpora's lines and the rare lines) in ${o.dir} (once; kept)…`);
    corpora = makeCorporaRareLog(o.shared, join(o.dir, second), o.bytes);
  }
  for (const f of [log.path, gz.path, ...(corpora ? [corpora.path] : [])]) {
    await runShell(`cat ${shellQuote(f)} > /dev/null`);
  }
  const env = {
    LOGPEEK_SEARCH_MS: String(o.capMs),
    LOGPEEK_LEVELS_MS: String(o.capMs),
    LOGPEEK_SEARCH_BYTES: String(16 * 1024 ** 3),
    LOGPEEK_INLINE_CHARS: "100000000",
  };
  await using s = await connect([o.dir], env, [], { lines: true });
  const tools = await s.client.listTools();
  const schema = tools.tools.find((t: { name: string }) => t.name === "log_search")
    ?.inputSchema as Structured;
  const limit: number = schema?.properties?.limit?.maximum ?? 5000;
  const mismatches: string[] = [];
  const table = (tag: string): Table => ({
    s,
    o,
    limit,
    rows: [],
    notes: [],
    mismatch: (what, detail) => {
      const line = `MISMATCH in ${tag}${what}: ${detail}`;
      console.log(line);
      mismatches.push(line);
    },
  });
  const first = table("");
  await searchRows(first, log, "");
  await levelsRow(first, log, "");
  await gzipRows(first, gz, env);
  let second: RealLogResult["corpora"] = null;
  if (corpora) {
    const t = table("16 systems: ");
    await searchRows(t, corpora, "16 systems: ");
    await levelsRow(t, corpora, "16 systems: ");
    second = { log: corpora, rows: t.rows, notes: t.notes };
  }
  return { log, gz, rows: first.rows, mismatches, notes: first.notes, corpora: second };
}

/** Bytes as MiB with one decimal. */
function mib(n: number): string {
  return (n / 1024 / 1024).toFixed(1);
}

/**
 * The peak resident memory a `.gz` search adds over the server's idle level, read from outside
 * (`/proc/<pid>/status`): a fresh server, three warm-up searches on a small `.gz`, VmRSS read (idle),
 * VmHWM reset, the search, VmHWM read.
 */
async function gzipGrowth(dir: string, gzName: string, env: Record<string, string>, capMs: number) {
  const small = join(dir, "small-warmup.log.gz");
  await runShell(
    `printf '2024-05-01 10:00:00 INFO warm-up line %s\\n' $(seq 1 2000) | gzip -1 > ${shellQuote(small)}`,
  );
  await using s = await connect([dir], env, [], { lines: true });
  const pid = s.pid!;
  for (let i = 0; i < 3; i++) {
    await callTool(s, "log_search", { file: "small-warmup.log.gz", text: RARE_TEXT, limit: 5000 }, 60_000);
  }
  await new Promise((r) => setTimeout(r, 200));
  const idle = residentRss(pid)!;
  const reset = resetPeak(pid);
  const t = performance.now();
  const r = await searchAll(s, { file: gzName, text: RARE_TEXT }, 5000, capMs);
  const ms = performance.now() - t;
  const peak = peakRss(pid)!;
  return { idle, peak, growth: peak - idle, reset, ms, matches: r.lines.length };
}
