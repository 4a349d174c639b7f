/**
 * The memory bound, measured from outside the server process (issue #2, point 6): each call on a huge
 * input may add at most 16 MiB to the peak resident memory (VmHWM) the same server reached after the
 * same call on a small file.
 *
 * Scenarios: `log_tail` on sparse files of 64 MiB and 1 GiB; `log_search` and `log_levels` on a file
 * whose first line is 64 MiB without a newline; `log_levels` and `log_tail` on a gzip log that expands
 * about 1000:1 (issue #5: the same memory bound for compressed logs).
 *
 * @module
 */

import { gzipSync } from "node:zlib";
import { connect } from "../tests/mcp_client.ts";
import { peakRss } from "./peak_rss.ts";

/** The most a call on a plain log may add to the peak, in bytes (issue #2). */
export const MAX_GROWTH = 16 * 1024 * 1024;
/**
 * The most a call on a gzip log may add: the same as a plain log (issue #11). Decompression inflates
 * synchronously into the scanner's own buffer through one zlib handle (`read/gzip_source.ts`), so it
 * makes no garbage per piece; measured +4.6 MiB for 4.3 GB decompressed (`bench/gzip_memory.ts`).
 */
export const MAX_GROWTH_GZIP = 16 * 1024 * 1024;

/** One measured scenario. */
export interface MemoryRow {
  scenario: string;
  small_peak: number;
  big_peak: number;
  growth: number;
  /** The bound that applies, in bytes. */
  limit: number;
  ok: boolean;
}

/**
 * Builds the inputs in `dir`: `small.log`, sparse `sparse64m.log` and `sparse1g.log` (a hole, then one
 * real last line), and `longline.log` (a first line of 64 MiB without a newline, then two lines).
 */
export function makeMemoryInputs(dir: string): void {
  const enc = new TextEncoder();
  Deno.writeTextFileSync(`${dir}/small.log`, "2024-05-01 10:00:00 INFO small\n".repeat(100));
  for (
    const [name, size] of [["sparse64m.log", 64 * 1024 * 1024], ["sparse1g.log", 1024 * 1024 * 1024]] as const
  ) {
    const f = Deno.openSync(`${dir}/${name}`, { write: true, create: true, truncate: true });
    f.truncateSync(size);
    f.seekSync(size, Deno.SeekMode.Start);
    f.writeSync(enc.encode("\n2024-05-01 10:00:01 ERROR the last line\n"));
    f.close();
  }
  const f = Deno.openSync(`${dir}/longline.log`, { write: true, create: true, truncate: true });
  const piece = new Uint8Array(1024 * 1024).fill(0x61);
  f.writeSync(enc.encode("2024-05-01 10:00:00 ERROR huge="));
  for (let i = 0; i < 64; i++) f.writeSync(piece);
  f.writeSync(enc.encode("\n2024-05-01 10:00:01 INFO after\n"));
  f.close();
  // A gzip log that expands about 1000:1: 64 MiB of one repeated line, a few tens of KiB on disk.
  const plain = new Uint8Array(64 * 1024 * 1024);
  const line = enc.encode("2024-05-01 10:00:00 INFO the same line again and again ......................\n");
  for (let i = 0; i + line.length <= plain.length; i += line.length) plain.set(line, i);
  Deno.writeFileSync(`${dir}/bomb.log.gz`, new Uint8Array(gzipSync(plain, { level: 9 })));
  Deno.writeFileSync(
    `${dir}/small.log.gz`,
    new Uint8Array(gzipSync(enc.encode("2024-05-01 10:00:00 INFO small\n"))),
  );
}

/**
 * Measures every scenario, each in a fresh server.
 *
 * @param dir A folder made by {@linkcode makeMemoryInputs}.
 */
export async function measureMemory(dir: string): Promise<MemoryRow[]> {
  const scenarios: [string, string, Record<string, unknown>, string][] = [
    ["log_tail, sparse 64 MiB", "log_tail", {}, "sparse64m.log"],
    ["log_tail, sparse 1 GiB", "log_tail", {}, "sparse1g.log"],
    ["log_search, 64 MiB first line", "log_search", { text: "after" }, "longline.log"],
    ["log_levels, 64 MiB first line", "log_levels", {}, "longline.log"],
    ["log_levels, gzip expanding 1000:1 to 64 MiB", "log_levels", {}, "bomb.log.gz"],
    ["log_tail, gzip expanding 1000:1 to 64 MiB", "log_tail", {}, "bomb.log.gz"],
  ];
  const rows: MemoryRow[] = [];
  for (const [scenario, tool, args, big] of scenarios) {
    await using s = await connect([dir], { LOGPEEK_SEARCH_BYTES: String(128 * 1024 * 1024) });
    const pid = s.pid!;
    const smallFile = big.endsWith(".gz") ? "small.log.gz" : "small.log";
    for (let i = 0; i < 3; i++) await s.call(tool, { file: smallFile, ...args });
    const small = peakRss(pid)!;
    const r = await s.call(tool, { file: big, ...args });
    if (r.isError) throw new Error(`${tool} on ${big} failed: ${r.content[0].text}`);
    const after = peakRss(pid)!;
    const limit = big.endsWith(".gz") ? MAX_GROWTH_GZIP : MAX_GROWTH;
    rows.push({
      scenario,
      small_peak: small,
      big_peak: after,
      growth: after - small,
      limit,
      ok: after - small <= limit,
    });
  }
  return rows;
}

/** The rows as a Markdown table. */
export function memoryTable(rows: MemoryRow[]): string {
  return [
    "| scenario | peak after small call (MiB) | peak after big call (MiB) | growth (MiB) | bound (MiB) | within |",
    "|---|---:|---:|---:|---:|---|",
    ...rows.map((r) =>
      `| ${r.scenario} | ${mib(r.small_peak)} | ${mib(r.big_peak)} | ${mib(r.growth)} | ${mib(r.limit)} | ` +
      `${r.ok ? "yes" : "NO"} |`
    ),
  ].join("\n");
}

/** Formats bytes as MiB with one decimal. */
export function mib(n: number): string {
  return (n / 1024 / 1024).toFixed(1);
}

if (import.meta.main) {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-mem-" });
  try {
    makeMemoryInputs(dir);
    const rows = await measureMemory(dir);
    console.log(memoryTable(rows));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}
