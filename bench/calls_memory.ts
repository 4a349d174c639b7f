/**
 * Resident memory against call volume (issue #10, item 16: 98 → 258 MB after 12,000 calls, not a leak:
 * V8 collected late). The server is started as users start it (`deno run` with the narrow flags of
 * `serverFlags`, or with read access to everything, when the tools run in the narrowed worker), a mix of
 * calls is driven through the MCP SDK's client, and the server's `VmRSS` is read from outside
 * (`/proc/<pid>/status`) after the first 100 calls and after the last.
 *
 * The mix, in a cycle of ten: `log_tail` (50 and 200 lines), `log_search` (literal, `ignore_case`,
 * `regex`, a literal that stops at the byte budget and then its cursor page), `log_levels`, `log_files`,
 * a search whose answer spills to an artifact and a `read_artifact` page of it. The logs are built from
 * the Loghub lines in `../shared/corpus/loghub` (about 24, 12 and 6 MB).
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-run --allow-env bench/calls_memory.ts [calls] [variant…]
 * ```
 *
 * Variants: `default` (the flags `serverFlags` gives), `none` (no V8 flags), or a V8 flag list such as
 * `--max-old-space-size=96,--max-semi-space-size=2`; each is run in-process and in worker mode.
 *
 * @module
 */

import { join, resolve } from "node:path";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/client/stdio.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { serverFlags } from "../src/cli/flags.ts";
import { MAIN } from "../tests/mcp_client.ts";
import { residentRss } from "./peak_rss.ts";

/** The Loghub logs the bench logs are made of. */
const SOURCES = ["Hadoop", "Spark", "Zookeeper", "HDFS", "OpenSSH", "Linux", "Apache"];

/**
 * Builds `big.log` (about 24 MB), `mid.log` (12 MB) and `small.log` (6 MB) in `dir` from the Loghub
 * lines in `loghub` (each log repeats the lines of all sources, interleaved, until it has its size).
 *
 * @param loghub The `corpus/loghub` folder of the shared material.
 * @param dir Where to write (a temporary folder).
 * @param scale Multiplies the sizes (a test uses smaller logs, with a smaller byte budget).
 */
export function makeCallLogs(loghub: string, dir: string, scale = 1): void {
  const lines: string[] = [];
  const per = SOURCES.map((s) =>
    Deno.readTextFileSync(join(loghub, `${s}_2k.log`)).split("\n").filter(Boolean)
  );
  for (let i = 0; i < 2000; i++) for (const p of per) if (p[i]) lines.push(p[i]);
  const block = new TextEncoder().encode(lines.join("\n") + "\n");
  for (const [name, mb] of [["big.log", 24], ["mid.log", 12], ["small.log", 6]] as const) {
    const f = Deno.openSync(join(dir, name), { write: true, create: true, truncate: true });
    const size = Math.round(mb * 1e6 * scale);
    for (let n = 0; n < size;) {
      // Whole lines only: the last piece ends at a line feed.
      const piece = n + block.length <= size ? block : block.subarray(0, block.lastIndexOf(10, size - n) + 1);
      if (piece.length === 0) break;
      f.writeSync(piece);
      n += piece.length;
    }
    f.close();
  }
}

/** One run's figures. */
export interface CallsMemoryRow {
  /** The V8 flags given (none: ""). */
  v8: string;
  /** `in-process` (read access narrowed to the roots) or `worker` (the tools in the narrowed worker). */
  mode: "in-process" | "worker";
  /** VmRSS after the first 100 calls, in bytes. */
  rss100: number;
  /** VmRSS after all calls, in bytes. */
  rssEnd: number;
  /** The highest VmRSS sampled (every 1,000 calls). */
  rssMax: number;
  /** VmRSS every 1,000 calls, in bytes. */
  samples: number[];
  /** How many calls were made. */
  calls: number;
  /** Wall time of all calls, in ms. */
  ms: number;
  /** Calls answered with isError (none are expected). */
  errors: number;
}

/**
 * Starts a server on `logs` with `v8` (a comma-separated V8 flag list, or "" for none; undefined: the
 * flags `serverFlags` gives) and drives `calls` calls; returns its memory figures.
 *
 * @param logs A folder made by {@linkcode makeCallLogs}.
 * @param calls How many calls (at least 100).
 * @param mode In-process or worker mode.
 * @param v8 The `--v8-flags` value to use instead of `serverFlags`'s, "" for none.
 * @param env More environment for the server (`LOGPEEK_SEARCH_BYTES` with small logs, so that a search
 *   still stops at the byte budget with a cursor).
 * @param lanes How many calls are in flight at once (each lane runs the mix in order; 1 by default, as
 *   an agent calls; a test uses more to make 20,000 calls in less time).
 */
export async function measureCalls(
  logs: string,
  calls: number,
  mode: CallsMemoryRow["mode"],
  v8?: string,
  env: Record<string, string> = {},
  lanes = 1,
): Promise<CallsMemoryRow> {
  const root = resolve(logs);
  const state = Deno.makeTempDirSync({ prefix: "logpeek-callsmem-state-" });
  let flags = serverFlags([root], state);
  if (v8 !== undefined) {
    flags = flags.filter((f) => !f.startsWith("--v8-flags="));
    if (v8) flags.push(`--v8-flags=${v8}`);
  }
  if (mode === "worker") {
    flags = [
      ...flags.map((f) => (f.startsWith("--allow-read=") ? "--allow-read" : f)),
      "--unstable-worker-options",
    ];
  }
  const used = flags.find((f) => f.startsWith("--v8-flags="))?.slice("--v8-flags=".length) ?? "";
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...flags, MAIN, "--state-dir", state, root],
    env: { ...getDefaultEnvironment(), NO_COLOR: "1", ...denoDirEnv(), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
  const client = new Client({ name: "logpeek-bench", version: "0" });
  await client.connect(transport);
  const pid = transport.pid!;
  // deno-lint-ignore no-explicit-any
  const call = async (name: string, args: Record<string, unknown>): Promise<any> => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) errors++;
    return r;
  };
  let errors = 0;
  let rss100 = 0;
  const samples: number[] = [];
  let started = 0;
  let done = 0;
  /** One client's sequence of calls; `lanes` of them run at once. */
  const lane = async () => {
    let artifact: string | null = null;
    let cursor: string | null = null;
    for (let i = 0; started < calls; i++) {
      started++;
      switch (i % 10) {
        case 0:
          await call("log_tail", { file: "big.log", lines: 50 });
          break;
        case 1:
          await call("log_search", { file: "mid.log", text: "EXCEPTION", ignore_case: true });
          break;
        case 2:
          await call("log_search", {
            file: "small.log",
            text: "blk_-?[0-9]+ (terminating|size)",
            regex: true,
          });
          break;
        case 3:
          await call("log_levels", { file: "small.log" });
          break;
        case 4:
          await call("log_files", {});
          break;
        case 5: {
          const r = await call("log_search", { file: "mid.log", text: "INFO", limit: 200 });
          artifact = r.structuredContent?.artifact?.artifact_id ?? null;
          break;
        }
        case 6:
          if (artifact) await call("read_artifact", { artifact_id: artifact, offset: 20, limit: 100 });
          else errors++;
          break;
        case 7: {
          // Not in the file: stops at the byte budget with a cursor.
          const r = await call("log_search", { file: "big.log", text: "no such text anywhere" });
          cursor = r.structuredContent?.next_cursor ?? null;
          break;
        }
        case 8:
          if (cursor) await call("log_search", { file: "big.log", text: "no such text anywhere", cursor });
          else errors++;
          break;
        case 9:
          await call("log_tail", { file: "mid.log", lines: 200 });
          break;
      }
      if (++done === 100) rss100 = residentRss(pid) ?? 0;
      if (done % 1000 === 0) samples.push(residentRss(pid) ?? 0);
    }
  };
  const t0 = performance.now();
  try {
    await Promise.all(Array.from({ length: lanes }, lane));
    const ms = performance.now() - t0;
    const rssEnd = residentRss(pid) ?? 0;
    const rssMax = Math.max(rss100, rssEnd, ...samples);
    return { v8: used, mode, rss100, rssEnd, rssMax, samples, calls, ms, errors };
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : e}\nserver stderr:\n${stderr.slice(-2000)}`);
  } finally {
    await client.close();
    Deno.removeSync(state, { recursive: true });
  }
}

function denoDirEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ["DENO_DIR", "XDG_CACHE_HOME"]) {
    const v = Deno.env.get(k);
    if (v) out[k] = v;
  }
  return out;
}

const mib = (n: number) => (n / 1024 / 1024).toFixed(1);

/** The rows as a Markdown table. */
export function callsTable(rows: CallsMemoryRow[]): string {
  return [
    "| V8 flags | mode | RSS@100 (MiB) | RSS@end (MiB) | growth (MiB) | max sampled (MiB) | calls | time (s) | errors |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map((r) =>
      `| ${r.v8 || "(none)"} | ${r.mode} | ${mib(r.rss100)} | ${mib(r.rssEnd)} | ${
        mib(r.rssEnd - r.rss100)
      } | ` +
      `${mib(r.rssMax)} | ${r.calls} | ${(r.ms / 1000).toFixed(1)} | ${r.errors} |`
    ),
  ].join("\n");
}

if (import.meta.main) {
  const calls = Number(Deno.args[0] ?? 20000);
  const variants = Deno.args.length > 1 ? Deno.args.slice(1) : ["none", "default"];
  const loghub = join(resolve(new URL("../..", import.meta.url).pathname), "shared", "corpus", "loghub");
  const logs = Deno.makeTempDirSync({ prefix: "logpeek-callsmem-" });
  try {
    makeCallLogs(
      Deno.env.get("LOGPEEK_SHARED") ? join(Deno.env.get("LOGPEEK_SHARED")!, "corpus", "loghub") : loghub,
      logs,
    );
    const rows: CallsMemoryRow[] = [];
    for (const v of variants) {
      for (const mode of ["in-process", "worker"] as const) {
        const row = await measureCalls(
          logs,
          calls,
          mode,
          v === "default" ? undefined : v === "none" ? "" : v,
        );
        console.error(callsTable([row]).split("\n")[2]);
        console.error(`  RSS every 1,000 calls (MiB): ${row.samples.map(mib).join(" ")}`);
        rows.push(row);
      }
    }
    console.log(callsTable(rows));
  } finally {
    Deno.removeSync(logs, { recursive: true });
  }
}
