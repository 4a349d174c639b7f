/**
 * The level-speed table of issue #23 (item 6): `log_levels` through the MCP client (a separate server
 * process) on a log of shuffled real lines of both corpora (Loghub's seven systems and lnav's test logs,
 * `bench/corpora_log.ts`) and on one of Loghub's lines alone, without a window and with one
 * (`since`/`until`, so every line's time is read too), beside `rg -c -w -e INFO -e WARN -e ERROR` on the
 * same file in the same run, interleaved, files in the page cache; medians of the runs.
 *
 * Each answer is checked before its time counts: without a window `total_lines` = `wc -l` and
 * `complete: true`; with one `complete: true` and `total_lines` at most `wc -l`. A difference is a MISMATCH.
 * The target, ≥ 1 GB/s, is on the two-corpus rows; the Loghub rows are shown beside them (information).
 *
 * @module
 */

import { join } from "node:path";
import { connect, type Session } from "../tests/mcp_client.ts";
import { type Corpora, makeCorporaLog } from "./corpora_log.ts";
import { type CommandRun, median, rate, runCommand, runShell, shellQuote } from "./measure.ts";
import type { Row } from "./table.ts";

/** The window of the time rows: it holds the Hadoop and Zookeeper lines (2015) of either log. */
export const WINDOW = { since: "2015-01-01T00:00:00Z", until: "2016-01-01T00:00:00Z" } as const;

/** The peer: what a user would run to count lines with a level word. */
export const PEER = ["-c", "-w", "-e", "INFO", "-e", "WARN", "-e", "ERROR"] as const;

/** How the table is made. */
export interface LevelsSpeedOptions {
  /** Where the generated logs are kept between runs. */
  dir: string;
  /** The shared folder (`../shared`). */
  shared: string;
  /** Each log's size in bytes. */
  bytes: number;
  /** The most ms one call may take (the server's `LOGPEEK_LEVELS_MS`). */
  capMs: number;
  /** Runs a row (median taken). */
  runs: number;
}

/** What the table found. */
export interface LevelsSpeedResult {
  rows: Row[];
  mismatches: string[];
  notes: string[];
}

// deno-lint-ignore no-explicit-any
type Structured = any;

/** One `log_levels` call: ms and the structured answer. */
async function levels(s: Session, args: Record<string, unknown>, capMs: number) {
  const t = performance.now();
  const r = await s.client.callTool({ name: "log_levels", arguments: args }, undefined, {
    timeout: capMs + 60_000,
  });
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`log_levels failed: ${(r.content as { text: string }[])[0]?.text}`);
  return { ms, sc: r.structuredContent as Structured };
}

/** A windowed answer's time fields, for the notes. */
function timeNote(sc: Structured): string {
  return `first_time ${sc.first_time}, last_time ${sc.last_time}, untimed_lines ${sc.untimed_lines}, ` +
    `time_order ${sc.time_order}`;
}

/**
 * Makes both logs (once), then times each row.
 *
 * @throws {Error} when a call fails or a corpus folder is missing.
 */
export async function levelsSpeedBench(o: LevelsSpeedOptions): Promise<LevelsSpeedResult> {
  const rows: Row[] = [];
  const mismatches: string[] = [];
  const notes: string[] = [];
  const env = { LOGPEEK_LEVELS_MS: String(o.capMs), LOGPEEK_INLINE_CHARS: "100000000" };
  await using s = await connect([o.dir], env, [], { lines: true });
  for (const which of ["both", "loghub"] as Corpora[]) {
    const name = `corpora-${which}-${o.bytes}.log`;
    console.error(`making ${name} (shuffled ${which} lines) in ${o.dir} (once; kept)…`);
    const log = makeCorporaLog(o.shared, which, join(o.dir, name), o.bytes);
    await runShell(`cat ${shellQuote(log.path)} > /dev/null`);
    const wc = Number((await runCommand("wc", ["-l", log.path])).out.trim().split(/\s+/)[0]);
    const label = which === "both" ? "both corpora" : "Loghub only";
    for (const windowed of [false, true]) {
      const args = { file: name, ...(windowed ? WINDOW : {}) };
      const lp: number[] = [];
      const peer: CommandRun[] = [];
      let first: Structured;
      for (let i = 0; i < o.runs; i++) {
        const r = await levels(s, args, o.capMs);
        first ??= r.sc;
        lp.push(r.ms);
        peer.push(await runCommand("rg", [...PEER, log.path]));
      }
      const work = `log_levels, ${label}${windowed ? `, since ${WINDOW.since} until ${WINDOW.until}` : ""}`;
      const bad = (d: string) => {
        const line = `MISMATCH in ${work}: ${d}`;
        console.log(line);
        mismatches.push(line);
      };
      if (!first.complete) bad(`complete is false (${first.stop_reason})`);
      if (!windowed && first.total_lines !== wc) bad(`total_lines ${first.total_lines}, wc -l ${wc}`);
      if (windowed && !(first.total_lines <= wc && first.total_lines > 0)) {
        bad(`total_lines ${first.total_lines} (wc -l ${wc})`);
      }
      const ms = median(lp);
      const gbps = log.size / 1e9 / (ms / 1000);
      const target = which === "both";
      rows.push({
        work: `${work} (${wc} lines)`,
        ms,
        rate: rate(log.size, ms),
        peer: `rg ${PEER.join(" ")}${target ? "" : " (information)"}`,
        peerMs: median(peer.map((r) => r.ms)),
        ...(target ? { target: "≥ 1 GB/s", met: gbps >= 1, value: `${gbps.toFixed(2)} GB/s` } : {}),
      });
      notes.push(
        `${work}: ${o.runs} runs (${lp.map((x) => x.toFixed(0)).join(", ")} ms); counts ${
          JSON.stringify(first.counts)
        }${windowed ? `; ${timeNote(first)}` : ""}; rg: ${peer[0].out.trim()} lines.`,
      );
    }
    notes.push(
      `${name}: ${log.size} bytes, ${log.lines} lines drawn from ${log.pool.lines} lines of ${log.pool.files} files.`,
    );
  }
  return { rows, mismatches, notes };
}
