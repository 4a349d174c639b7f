/**
 * The distinct-lines part of the benchmark (issue #22 item 7): `log_patterns` on a log of 1 M lines that
 * are all different and share no template, through the real MCP client, with the server's default
 * budget (`LOGPEEK_PATTERNS_MS` 30 s: a call that does not finish in it pages, and its pages are followed
 * with `next_cursor` and timed together), and the server's peak RSS growth during the call.
 *
 * The log (`distinct-<lines>.log` in `LOGPEEK_BENCH_DIR`, made once, a marker file beside it): each line
 * 6–8 words of 3–9 random lowercase letters (seeded; no digit, so nothing is masked; ~49 bytes a line).
 * Such lines do not join: each starts a template until `LOGPEEK_MAX_TEMPLATES` (5000), the rest are
 * counted in `other_lines`; before issue #22 each of them was compared with the thousands of templates
 * of its tree leaf (1 M lines took 154 s over several pages).
 *
 * Rows:
 *
 * 4. `log_patterns {file}` on the log, pages followed: the summed ms, lines/s, pages; target ≤
 *    {@linkcode MAX_DISTINCT_MS} ms. Checked (MISMATCH otherwise): the last page `complete`, `total_lines`
 *    = `wc -l` (the peer, information), every listed template's count 1 (the lines are all different:
 *    `sort -u | wc -l` = `wc -l` when the log is made), `other_lines` = `total_lines` −
 *    `distinct_templates`.
 *    4b. The server's peak RSS growth during that call (VmHWM after the last page over VmRSS before the
 *    first, the peak reset just before, as `bench/patterns.ts` row 1b), the most of the runs; target ≤
 *    {@linkcode MAX_GROWTH} (the templates' bound).
 *
 * @module
 */

import { join } from "node:path";
import { connect, type Session } from "../tests/mcp_client.ts";
import { rng } from "./loghub_log.ts";
import { median, rate, runCommand, runShell, shellQuote } from "./measure.ts";
import { peakRss, resetPeak, residentRss } from "./peak_rss.ts";
import { MAX_GROWTH } from "./patterns.ts";
import type { Row } from "./table.ts";

/** The lines of the log (the issue's 1 M). */
export const DISTINCT_LINES = 1_000_000;

/** The issue's target: the whole call (its pages summed) within 30 s. */
export const MAX_DISTINCT_MS = 30_000;

/** Lines of the warm-up log (the log's first lines), mined three times before the timed calls. */
const WARMUP_LINES = 20_000;

/** What the part found. */
export interface DistinctResult {
  rows: Row[];
  mismatches: string[];
  notes: string[];
}

/**
 * Writes `lines` all-different lines to `path` (see the module's doc), unless a file of that size with
 * the same marker is there; checks with `sort -u | wc -l` that they are all different.
 *
 * @returns The file's size in bytes.
 * @throws {Error} when the lines are not all different (a generator fault).
 */
export async function makeDistinctLog(path: string, lines: number, seed = 22): Promise<number> {
  const marker = `${path}.seed-${seed}-${lines}`;
  try {
    const size = Number(Deno.readTextFileSync(marker));
    if (Deno.statSync(path).size === size) return size;
  } catch {
    // not made yet
  }
  const r = rng(seed);
  const enc = new TextEncoder();
  using f = Deno.openSync(path, { write: true, create: true, truncate: true });
  let size = 0, chunk = "";
  for (let i = 0; i < lines; i++) {
    const words = 6 + Math.floor(r() * 3);
    for (let w = 0; w < words; w++) {
      if (w > 0) chunk += " ";
      for (let k = 3 + Math.floor(r() * 7); k > 0; k--) {
        chunk += String.fromCharCode(97 + Math.floor(r() * 26));
      }
    }
    chunk += "\n";
    if (chunk.length >= 1 << 20 || i === lines - 1) {
      const b = enc.encode(chunk);
      f.writeSync(b);
      size += b.length;
      chunk = "";
    }
  }
  const q = shellQuote;
  const uniq = Number((await runShell(`LC_ALL=C sort -u ${q(path)} | wc -l`)).out.trim());
  if (uniq !== lines) throw new Error(`${path}: ${uniq} different lines of ${lines}`);
  Deno.writeTextFileSync(marker, String(size));
  return size;
}

// deno-lint-ignore no-explicit-any
type Structured = any;

/** One call with its pages followed: the summed time, the pages, the last answer, the memory. */
interface Paged {
  ms: number;
  pages: number;
  last: Structured;
  idle: number;
  peak: number;
}

/** `log_patterns {file}`, then each `next_cursor`, timed from the first request to the last answer. */
async function pagedPatterns(s: Session, file: string): Promise<Paged> {
  await new Promise((r) => setTimeout(r, 200));
  const idle = residentRss(s.pid!) ?? NaN;
  resetPeak(s.pid!);
  let cursor: string | undefined, pages = 0, last: Structured;
  const t = performance.now();
  do {
    const r = await s.client.callTool(
      { name: "log_patterns", arguments: cursor ? { file, cursor } : { file } },
      undefined,
      { timeout: 600_000 },
    );
    if (r.isError) throw new Error(`log_patterns failed: ${(r.content as { text: string }[])[0]?.text}`);
    last = r.structuredContent;
    pages++;
    cursor = last.next_cursor ?? undefined;
  } while (cursor !== undefined && pages < 100);
  const ms = performance.now() - t;
  return { ms, pages, last, idle, peak: peakRss(s.pid!) ?? NaN };
}

/** Bytes as MiB with one decimal. */
const mib = (n: number) => (n / 1024 / 1024).toFixed(1);

/**
 * Makes the log (once) and measures rows 4 and 4b.
 *
 * @param o Where the log is kept, and the runs (at most; 1 when a call takes over 20 s).
 */
export async function distinctBench(o: { dir: string; runs: number }): Promise<DistinctResult> {
  const name = `distinct-${DISTINCT_LINES}.log`;
  const path = join(o.dir, name);
  console.error(`making ${name} (${DISTINCT_LINES} all-different lines) in ${o.dir} (once; kept)…`);
  const size = await makeDistinctLog(path, DISTINCT_LINES);
  const warm = `distinct-warmup-${WARMUP_LINES}.log`;
  await runShell(`head -n ${WARMUP_LINES} ${shellQuote(path)} > ${shellQuote(join(o.dir, warm))}`);
  await runShell(`cat ${shellQuote(path)} > /dev/null`);
  const mismatches: string[] = [], notes: string[] = [];
  const mismatch = (what: string) => {
    const line = `MISMATCH in the distinct-lines table: ${what}`;
    console.log(line);
    mismatches.push(line);
  };
  await using s = await connect([o.dir], {}, [], { lines: true });
  for (let i = 0; i < 3; i++) await s.client.callTool({ name: "log_patterns", arguments: { file: warm } });
  const runs: Paged[] = [], wcMs: number[] = [];
  let wcLines = NaN;
  for (let i = 0; i < ((runs[0]?.ms ?? 0) > 20_000 ? 1 : o.runs); i++) {
    console.error(`distinct: log_patterns on ${name}, run ${i + 1}…`);
    runs.push(await pagedPatterns(s, name));
    const wc = await runCommand("wc", ["-l", path]);
    wcMs.push(wc.ms);
    wcLines = Number(wc.out.trim().split(/\s+/)[0]);
  }
  for (const [i, r] of runs.entries()) {
    const a = r.last, at = `run ${i + 1}`;
    if (!a.complete) mismatch(`${at}: the last page is not complete (${a.stop_reason}, ${r.pages} pages)`);
    if (a.total_lines !== wcLines) mismatch(`${at}: total_lines ${a.total_lines}, wc -l ${wcLines}`);
    if (a.templates.some((t: Structured) => t.count !== 1)) {
      mismatch(`${at}: a template of these lines counts > 1`);
    }
    if (a.other_lines !== a.total_lines - a.distinct_templates) {
      mismatch(
        `${at}: other_lines ${a.other_lines}, total_lines ${a.total_lines} − ${a.distinct_templates} templates`,
      );
    }
  }
  const ms = median(runs.map((r) => r.ms)), a = runs[0].last;
  const lps = a.total_lines / (ms / 1000);
  const growth = Math.max(...runs.map((r) => r.peak - r.idle));
  const rows: Row[] = [
    {
      work:
        `4. \`log_patterns {file}\` on ${DISTINCT_LINES.toLocaleString("en")} all-different lines, pages ` +
        `followed (${runs[0].pages} page(s)): ${Math.round(lps).toLocaleString("en")} lines/s; ` +
        `${a.distinct_templates} templates, other_lines ${a.other_lines}`,
      ms,
      rate: rate(size, ms),
      peer: "wc -l (information)",
      peerMs: median(wcMs),
      target: `≤ ${MAX_DISTINCT_MS / 1000} s`,
      met: ms <= MAX_DISTINCT_MS && mismatches.length === 0,
      value: `${(ms / 1000).toFixed(1)} s`,
    },
    {
      work: `4b. peak RSS growth of the server during row 4's call: ${mib(growth)} MiB`,
      target: `≤ ${mib(MAX_GROWTH)} MiB`,
      met: growth <= MAX_GROWTH,
      value: `${mib(growth)} MiB`,
    },
  ];
  notes.push(
    `4: ${runs.length} run(s) (${
      runs.map((r) => `${(r.ms / 1000).toFixed(1)} s, ${r.pages} page(s)`).join("; ")
    }); ` +
      `${size} bytes; the server's default LOGPEEK_PATTERNS_MS (30 s a page).`,
    `4b: VmRSS before → VmHWM after: ${runs.map((r) => `${mib(r.idle)} → ${mib(r.peak)} MiB`).join("; ")}.`,
  );
  return { rows, mismatches, notes };
}
