/**
 * `.gz` logs (issue #11): a server's peak resident memory during one `log_search` over a gzip log of
 * 4 GiB decompressed, measured from outside the process, and its throughput against
 * `zcat FILE | rg -c -F NEEDLE` on the same file, interleaved in the same run.
 *
 * ```sh
 * deno run -A bench/gzip_memory.ts [--runs 3] [--repo DIR]... [--src /tmp/lvl/mix.log] [--dir /tmp/gz]
 * ```
 *
 * - Inputs (made once, kept in `--dir`): `big.log`, 1 GiB of real lines (copies of `--src`, shuffled
 *   Loghub lines, with one needle line before each copy), `big.log.gz` (`gzip -1`), and `big4.log.gz`,
 *   that `.gz` four times (four members, 4 GiB decompressed).
 * - Each run, in turn: the peer (`zcat big4.log.gz | rg -c -F NEEDLE`, its count checked), then, for
 *   this repository and each `--repo DIR` (another checkout, the code before a change say), a fresh
 *   server started as users do (`tests/mcp_client.ts` `connect` of that checkout: `deno run` with the
 *   serve flags, `--max-semi-space-size=4` included), one warm-up `log_search` on a small `.gz`, one
 *   second of rest, then its idle resident memory (VmRSS) and peak (VmHWM); then one `log_search` over
 *   all of `big4.log.gz` (budgets raised: LOGPEEK_SEARCH_MS, LOGPEEK_SEARCH_BYTES = 16 GiB), its
 *   match count checked against rg's, timed at the client, VmRSS sampled every 20 ms meanwhile.
 * - Printed: one line per measurement, then medians per code: growth of the peak over the idle
 *   server's peak (VmHWM after − VmHWM before) and over its idle resident memory (VmHWM after − idle
 *   VmRSS), seconds, GB/s of decompressed bytes, and the ratio to the peer's throughput. The budget
 *   of issue #11: growth ≤ 16 MiB, ratio ≥ 0.8.
 *
 * Permissions: read and write (`--dir`, the state directories), run (deno, sh, zcat, rg, gzip, cat),
 * env. Linux only (`/proc/<pid>/status`).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { peakRss, residentRss } from "./peak_rss.ts";

const NEEDLE = "NEEDLE-zq4711";
const GiB = 1024 ** 3;

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "3" },
    repo: { type: "string", multiple: true, default: [] },
    src: { type: "string", default: "/tmp/lvl/mix.log" },
    dir: { type: "string", default: "/tmp/gz" },
  },
});
const dir = values.dir!;
const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const repos = [here, ...values.repo!.map((r) => r.replace(/\/$/, ""))];

/** Makes the inputs in `dir` unless they are there; returns the needle lines' count. */
function makeInputs(): void {
  Deno.mkdirSync(dir, { recursive: true });
  const exists = (p: string) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  };
  if (!exists(`${dir}/big.log`)) {
    const src = Deno.readFileSync(values.src!);
    const out = Deno.openSync(`${dir}/big.log`, { write: true, create: true, truncate: true });
    const enc = new TextEncoder();
    let n = 0;
    for (let i = 0; n < GiB; i++) {
      const line = enc.encode(`2026-11-30 12:00:00 WARN gz ${NEEDLE} inserted line ${i}\n`);
      out.writeSync(line);
      n += line.length;
      let piece = src.subarray(0, Math.min(src.length, GiB - n));
      if (piece.length < src.length) piece = piece.subarray(0, piece.lastIndexOf(10) + 1);
      for (let at = 0; at < piece.length;) at += out.writeSync(piece.subarray(at));
      n += piece.length;
      if (piece.length < src.length) break;
    }
    out.close();
  }
  if (!exists(`${dir}/big.log.gz`)) sh(`gzip -1 -c '${dir}/big.log' > '${dir}/big.log.gz'`);
  if (!exists(`${dir}/big4.log.gz`)) {
    sh(
      `cat '${dir}/big.log.gz' '${dir}/big.log.gz' '${dir}/big.log.gz' '${dir}/big.log.gz' > '${dir}/big4.log.gz'`,
    );
  }
  if (!exists(`${dir}/small.log.gz`)) {
    sh(`head -c 1000000 '${dir}/big.log' | gzip -1 > '${dir}/small.log.gz'`);
  }
}

function sh(cmd: string): string {
  const r = new Deno.Command("sh", { args: ["-c", cmd], stdout: "piped", stderr: "inherit" }).outputSync();
  if (!r.success) throw new Error(`${cmd} failed`);
  return new TextDecoder().decode(r.stdout);
}

/** The peer: seconds for `zcat | rg -c -F`, and its count. */
function peer(): { s: number; count: number } {
  const t = performance.now();
  const out = sh(`zcat '${dir}/big4.log.gz' | rg -c -F '${NEEDLE}'`);
  return { s: (performance.now() - t) / 1000, count: Number(out.trim()) };
}

interface Row {
  repo: string;
  idleRss: number;
  idlePeak: number;
  peak: number;
  maxSampled: number;
  s: number;
  matches: number;
}

/** One fresh server of checkout `repo`, one log_search over big4.log.gz. */
async function server(repo: string): Promise<Row> {
  const { connect } = await import(`${repo}/tests/mcp_client.ts`);
  await using s = await connect([dir], {
    LOGPEEK_SEARCH_MS: String(1e9),
    LOGPEEK_SEARCH_BYTES: String(16 * GiB),
  });
  const pid: number = s.pid;
  const call = (file: string) =>
    s.client.callTool({ name: "log_search", arguments: { file, text: NEEDLE, limit: 1000 } }, undefined, {
      timeout: 3_600_000,
    });
  await call("small.log.gz");
  await new Promise((r) => setTimeout(r, 1000));
  const idleRss = residentRss(pid)!;
  const idlePeak = peakRss(pid)!;
  let maxSampled = 0;
  const timer = setInterval(() => (maxSampled = Math.max(maxSampled, residentRss(pid) ?? 0)), 20);
  const t = performance.now();
  // deno-lint-ignore no-explicit-any
  const r: any = await call("big4.log.gz");
  const sec = (performance.now() - t) / 1000;
  clearInterval(timer);
  if (r.isError || !r.structuredContent.complete) {
    throw new Error(`${repo}: not a complete search: ${r.content[0].text.slice(0, 300)}`);
  }
  return {
    repo,
    idleRss,
    idlePeak,
    peak: peakRss(pid)!,
    maxSampled,
    s: sec,
    matches: r.structuredContent.matches.length,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const mib = (b: number) => (b / 2 ** 20).toFixed(1);

if (import.meta.main) {
  makeInputs();
  const bytes = Number(sh(`zcat '${dir}/big.log.gz' | wc -c`).trim()) * 4;
  const peers: number[] = [];
  const rows: Row[] = [];
  for (let run = 1; run <= Number(values.runs); run++) {
    const p = peer();
    peers.push(p.s);
    console.log(`run ${run} peer zcat|rg -c -F: ${p.s.toFixed(2)} s, count ${p.count}`);
    for (const repo of repos) {
      const r = await server(repo);
      if (r.matches !== p.count) throw new Error(`${repo}: ${r.matches} matches, rg counted ${p.count}`);
      rows.push(r);
      console.log(
        `run ${run} ${repo}: ${r.s.toFixed(2)} s, idle RSS ${mib(r.idleRss)} MiB, idle peak ${
          mib(r.idlePeak)
        } ` +
          `MiB, peak ${mib(r.peak)} MiB (sampled max ${mib(r.maxSampled)}), growth ${
            mib(r.peak - r.idlePeak)
          } ` +
          `MiB over the idle peak, ${mib(r.peak - r.idleRss)} MiB over idle RSS`,
      );
    }
  }
  const peerS = median(peers);
  console.log(`\n${(bytes / 1e9).toFixed(2)} GB decompressed; medians of ${values.runs} runs`);
  console.log(`peer zcat | rg -c -F: ${peerS.toFixed(2)} s, ${(bytes / peerS / 1e9).toFixed(3)} GB/s`);
  for (const repo of repos) {
    const mine = rows.filter((r) => r.repo === repo);
    const s = median(mine.map((r) => r.s));
    console.log(
      `${repo}: ${s.toFixed(2)} s, ${(bytes / s / 1e9).toFixed(3)} GB/s, ${
        (peerS / s).toFixed(2)
      }× the peer; ` +
        `peak growth ${mib(median(mine.map((r) => r.peak - r.idlePeak)))} MiB over the idle peak, ` +
        `${mib(median(mine.map((r) => r.peak - r.idleRss)))} MiB over idle RSS`,
    );
  }
}
