/**
 * Memory per call kind, in both modes (issue #22, item 6): for each kind of call, the peak resident memory
 * (VmHWM of the server process, read from `/proc/<pid>/status` by this harness) over the server's idle
 * resident memory (VmRSS), when the call is made with the largest arguments the input schemas accept on
 * the inputs that cost each call the most: a gzip bomb (a small `.gz` that inflates to GiBs), a log with
 * a 60 MiB line, lines of 100 KiB, lines of 1,000+ characters outside Latin-1 (two bytes each in a V8
 * string), many distinct lines, 1,500 files with long names, and string arguments of megabytes (`file`
 * has no length limit in the schema; the frame cap of 8 MiB bounds it).
 *
 * Each case gets a fresh server, started as users start it (`tests/mcp_client.ts` `connect`: `deno run`
 * with `serverFlags`, the V8 flags included), in-process (read access narrowed to the roots) or in worker
 * mode (read access to everything, the tools in the narrowed worker; the worker is a thread of the same
 * process, so VmHWM covers it). The case's own call is made on small inputs first (its code compiled, its
 * artifact or template made), then after a rest the idle VmRSS is read, the peak is reset
 * (`/proc/<pid>/clear_refs`), the call is made, and VmHWM read.
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-run --allow-env bench/call_peaks.ts [case-substring…]
 * ```
 *
 * Environment: `LOGPEEK_PEAKS_MODES` (`in-process,worker` by default), `LOGPEEK_PEAKS_BOMB_GIB` (the bomb's
 * inflated size in GiB, default 2), `LOGPEEK_PATTERNS_MS` and `LOGPEEK_LEVELS_MS` (passed to the servers;
 * the defaults hold otherwise).
 *
 * @module
 */

import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { connect } from "../tests/mcp_client.ts";
import { peakRss, resetPeak, residentRss } from "./peak_rss.ts";

/** The bound each call kind is held to: the most its call may add to the idle resident memory. */
export const PEAK_BOUND = 64 * 1024 * 1024;

/** A structured tool answer. */
// deno-lint-ignore no-explicit-any
type Structured = any;

/** One call kind, its largest call and the small one made first. */
export interface PeakCase {
  /** What the row says. */
  kind: string;
  tool: string;
  /** The measured call's arguments; a function gets the small call's answer (an artifact id, a template). */
  args: Record<string, unknown> | ((warm: Structured) => Record<string, unknown>);
  /** The small call made first (twice), with the same tool. */
  warm: Record<string, unknown>;
  /** An isError answer is what the call should get (a name no log has). */
  error?: boolean;
}

/** One measured case. */
export interface PeakRow {
  kind: string;
  mode: "in-process" | "worker";
  /** VmRSS before the call, in bytes. */
  idle: number;
  /** VmHWM after it, in bytes. */
  peak: number;
  /** Wall time of the call, in ms. */
  ms: number;
  /** What the answer said, in a few words (complete or why not, matches). */
  answer: string;
}

/** The needle of the wide log: 100 characters, the most `text` takes. */
export const NEEDLE = ("needle-" + "vortex-kestrel-".repeat(7)).slice(0, 100);
/** A pattern of 100 characters that matches the needle lines of the wide log. */
export const PATTERN = NEEDLE.slice(0, 78) + "[a-z-]{0,40} [0-9]+ \\S";
/** How many lines apart the wide log's needle lines are: 21, so context 10 shows 20 other lines each. */
const WIDE_EVERY = 21;

/**
 * Builds the inputs in `dir`.
 *
 * - `small.log`, `small.log.gz`: a few lines (warm-up).
 * - `wide.log`: 5,000 × 21 lines of 1,100 CJK characters (3 bytes each in UTF-8), a timestamp each, the
 *   {@linkcode NEEDLE} in every 21st (≈ 360 MB).
 * - `longline.log`: a line of 60 MiB, then two lines.
 * - `longlines.log`: 600 lines of 100 KiB, each with the needle near its end.
 * - `distinct.log`: 30,000 lines of 100 random words (about 1,000 characters), all distinct.
 * - `bomb.log.gz`: one gzip member of 64 MiB of lines (200 shapes) repeated to `bombGiB` GiB;
 *   `bomb1.log.gz`: the same of one line without a line feed (a line of GiBs).
 * - `many/`: 1,500 files with names of 200 characters.
 *
 * @param dir An empty folder.
 * @param bombGiB The bombs' inflated size in GiB.
 */
export function makePeakInputs(dir: string, bombGiB = 2): void {
  const enc = new TextEncoder();
  const w = (name: string, text: string) => Deno.writeTextFileSync(join(dir, name), text);
  w("small.log", `2024-05-01T10:00:00.000Z INFO ${NEEDLE} 1 small line\n`.repeat(50));
  Deno.writeFileSync(join(dir, "small.log.gz"), gzipSync(enc.encode("2024-05-01 10:00:00 INFO small\n")));
  writeWide(join(dir, "wide.log"));
  writeLongLine(join(dir, "longline.log"));
  const rnd = prng(7);
  const word = () =>
    Array.from({ length: 3 + (rnd() % 8) }, () => String.fromCharCode(97 + rnd() % 26)).join("");
  writeLines(join(dir, "longlines.log"), 600, (i) => {
    const filler = "x".repeat(100 * 1024 - 200);
    return `2024-05-01T10:00:${String(i % 60).padStart(2, "0")}.000Z WARN ${filler} ${NEEDLE} ${i} a b`;
  });
  writeLines(join(dir, "distinct.log"), 30_000, (i) => {
    const words = Array.from({ length: 100 }, word).join(" ");
    return `2024-05-01T10:${String(Math.floor(i / 600) % 60).padStart(2, "0")}:00.000Z INFO ${words}`;
  });
  const shapes = Array.from(
    { length: 200 },
    (_, k) =>
      `2024-05-01 10:00:00 ${k % 3 ? "INFO" : "ERROR"} worker ${k} ${word()} ${word()} id=${k * 7919}`,
  );
  const lines = enc.encode(shapes.join("\n") + "\n");
  writeBomb(join(dir, "bomb.log.gz"), bombGiB, (buf) => {
    for (let i = 0; i < buf.length; i += lines.length) buf.set(lines.subarray(0, buf.length - i), i);
  });
  writeBomb(join(dir, "bomb1.log.gz"), bombGiB, (buf) => buf.fill(0x61));
  Deno.mkdirSync(join(dir, "many"));
  for (let i = 0; i < 1500; i++) {
    const name = `${String(i).padStart(4, "0")}-${"n".repeat(190)}.log`;
    Deno.writeTextFileSync(join(dir, "many", name), `2024-05-01 10:00:00 INFO ${i}\n`);
    const t = new Date(Date.UTC(2024, 0, 1) + ((i * 7919) % 1500) * 60_000);
    Deno.utimeSync(join(dir, "many", name), t, t);
  }
}

/**
 * Writes `wide.log` (see {@linkcode makePeakInputs}) in 4 MiB writes: `matches` × 21 lines of 1,100 CJK
 * characters, the {@linkcode NEEDLE} in every 21st, 10 lines from either end of its group.
 *
 * @param path Where.
 * @param matches How many needle lines (5,000: the most `limit` takes).
 */
export function writeWide(path: string, matches = 5000): void {
  const cjk = "日本語のログ行".repeat(160).slice(0, 1100);
  writeLines(path, matches * WIDE_EVERY, (i) => {
    const t = new Date(Date.UTC(2024, 4, 1) + i * 10).toISOString();
    return i % WIDE_EVERY === WIDE_EVERY - 1 - 10
      ? `${t} ERROR ${NEEDLE} ${i} ${cjk}`
      : `${t} INFO ${i} ${cjk}`;
  });
}

/** Writes `longline.log`: a line of 60 MiB, then two short lines. */
function writeLongLine(path: string): void {
  const f = Deno.openSync(path, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  f.writeSync(enc.encode(`2024-05-01T10:00:00.000Z ERROR ${NEEDLE} huge=`));
  const piece = new Uint8Array(1024 * 1024).fill(0x62);
  for (let i = 0; i < 60; i++) f.writeSync(piece);
  f.writeSync(
    enc.encode(`\n2024-05-01T10:00:01.000Z INFO ${NEEDLE} 2 after\n2024-05-01T10:00:02.000Z INFO end\n`),
  );
  f.close();
}

/** Writes `n` lines made by `line` to `path`, in writes of about 4 MiB. */
function writeLines(path: string, n: number, line: (i: number) => string): void {
  const f = Deno.openSync(path, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  let batch: string[] = [];
  let size = 0;
  for (let i = 0; i < n; i++) {
    const l = line(i);
    batch.push(l);
    size += l.length;
    if (size > 4e6 || i === n - 1) {
      const bytes = enc.encode(batch.join("\n") + "\n");
      for (let o = 0; o < bytes.length;) o += f.writeSync(bytes.subarray(o));
      batch = [];
      size = 0;
    }
  }
  f.close();
}

/** Writes a gzip of `gib` GiB inflated: one member of 64 MiB (filled by `fill`), repeated. */
function writeBomb(path: string, gib: number, fill: (buf: Uint8Array) => void): void {
  const buf = new Uint8Array(64 * 1024 * 1024);
  fill(buf);
  const member = new Uint8Array(gzipSync(buf, { level: 9 }));
  const f = Deno.openSync(path, { write: true, create: true, truncate: true });
  for (let i = 0; i < gib * 16; i++) f.writeSync(member);
  f.close();
}

/** A small seeded PRNG (xorshift32), non-negative integers. */
function prng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

/** The largest string argument a frame holds, about: 7 MiB of ASCII (the frame cap is 8 MiB). */
export const HUGE = "a".repeat(7 * 1024 * 1024);
/** The same in characters outside Latin-1 (two bytes each in V8, three in the frame): 2.3 M characters. */
const HUGE_WIDE = "日".repeat(Math.floor(7 * 1024 * 1024 / 3));

/** The cases: every call kind with its largest arguments. */
export function peakCases(): PeakCase[] {
  const since = "2024-05-01T00:00:00Z";
  const until = "2024-05-02T00:00:00Z";
  const lit = { file: "wide.log", text: NEEDLE, limit: 5000 };
  const warmLit = { file: "small.log", text: NEEDLE, limit: 5 };
  return [
    {
      kind: "log_files, 1,500 files, sort modified, limit 1000",
      tool: "log_files",
      warm: { glob: "small*" },
      args: { glob: "many/*", sort: "modified", limit: 1000 },
    },
    {
      kind: "log_files, a glob of 4,096 characters",
      tool: "log_files",
      warm: { glob: "small*" },
      args: { glob: "many/" + "*".repeat(2045) + "n".repeat(2046), limit: 1000 },
    },
    {
      kind: "log_tail, lines 200, 1,100-char lines",
      tool: "log_tail",
      warm: { file: "small.log" },
      args: { file: "wide.log", lines: 200 },
    },
    {
      kind: "log_tail, gzip bomb",
      tool: "log_tail",
      warm: { file: "small.log.gz" },
      args: { file: "bomb.log.gz", lines: 200 },
    },
    {
      kind: "log_tail, a file name of 7 MiB",
      tool: "log_tail",
      warm: { file: "nosuch.log" },
      args: { file: HUGE, lines: 200 },
      error: true,
    },
    {
      kind: "log_tail, a file name of 2.3 M CJK characters",
      tool: "log_tail",
      warm: { file: "nosuch.log" },
      args: { file: HUGE_WIDE, lines: 200 },
      error: true,
    },
    {
      kind: "log_search, a glob of 7 MiB",
      tool: "log_search",
      warm: { ...warmLit, file: "small*" },
      args: { ...lit, file: "*" + HUGE },
      error: true,
    },
    {
      kind: "log_patterns, a baseline glob of 7 MiB",
      tool: "log_patterns",
      warm: { file: "small.log", baseline_file: "small*" },
      args: { file: "small.log", baseline_file: "*" + HUGE, limit: 1000 },
      error: true,
    },
    { kind: "log_search literal, limit 5000", tool: "log_search", warm: warmLit, args: lit },
    {
      kind: "log_search regex (100 chars), limit 5000",
      tool: "log_search",
      warm: { ...warmLit, text: PATTERN, regex: true },
      args: { ...lit, text: PATTERN, regex: true },
    },
    {
      kind: "log_search regex, 100 KiB lines",
      tool: "log_search",
      warm: { ...warmLit, text: PATTERN, regex: true },
      args: { ...lit, file: "longlines.log", text: PATTERN, regex: true },
    },
    {
      kind: "log_search ignore_case, 60 MiB line",
      tool: "log_search",
      warm: { ...warmLit, ignore_case: true },
      args: { ...lit, file: "longline.log", ignore_case: true },
    },
    {
      kind: "log_search context 10, limit 5000",
      tool: "log_search",
      warm: { ...warmLit, context: 10 },
      args: { ...lit, context: 10 },
    },
    {
      kind: "log_search window + context 10, limit 5000",
      tool: "log_search",
      warm: { ...warmLit, context: 10, since, until },
      args: { ...lit, context: 10, since, until },
    },
    {
      kind: "log_search regex, gzip bomb of one line",
      tool: "log_search",
      warm: { file: "small.log.gz", text: "x+y", regex: true },
      args: { file: "bomb1.log.gz", text: "a{1000}b", regex: true, limit: 5000 },
    },
    {
      kind: "log_levels, gzip bomb",
      tool: "log_levels",
      warm: { file: "small.log.gz" },
      args: { file: "bomb.log.gz" },
    },
    {
      kind: "log_levels, 60 MiB line",
      tool: "log_levels",
      warm: { file: "small.log" },
      args: { file: "longline.log" },
    },
    {
      kind: "log_patterns, 30,000 distinct lines, limit 1000",
      tool: "log_patterns",
      warm: { file: "small.log" },
      args: { file: "distinct.log", limit: 1000 },
    },
    {
      kind: "log_patterns, baseline the same",
      tool: "log_patterns",
      warm: { file: "small.log", baseline_file: "small.log" },
      args: { file: "distinct.log", baseline_file: "distinct.log", limit: 1000 },
    },
    {
      kind: "log_patterns, 1,100-char CJK lines",
      tool: "log_patterns",
      warm: { file: "small.log" },
      args: { file: "wide.log", limit: 1000 },
    },
    {
      kind: "log_patterns, gzip bomb",
      tool: "log_patterns",
      warm: { file: "small.log.gz" },
      args: { file: "bomb.log.gz", limit: 1000 },
    },
    {
      kind: "log_patterns, gzip bomb of one line",
      tool: "log_patterns",
      warm: { file: "small.log.gz" },
      args: { file: "bomb1.log.gz", limit: 1000 },
    },
    {
      kind: "log_patterns, baseline_file of 7 MiB",
      tool: "log_patterns",
      warm: { file: "small.log", baseline_file: "nosuch.log" },
      args: { file: "small.log", baseline_file: HUGE, limit: 1000 },
      error: true,
    },
    {
      kind: "read_artifact, limit 200",
      tool: "log_search",
      warm: { file: "wide.log", text: NEEDLE, limit: 300 },
      args: (w) => ({ artifact_id: w.artifact.artifact_id, offset: 0, limit: 200 }),
    },
    {
      kind: "log_search template_id, limit 5000",
      tool: "log_patterns",
      warm: { file: "wide.log", limit: 1 },
      args: (w) => ({ file: "wide.log", template_id: w.templates[0].template_id, limit: 5000 }),
    },
  ];
}

/** The tool a case's measured call goes to (`read_artifact` and template cases warm up with another). */
function measuredTool(c: PeakCase, args: Record<string, unknown>): string {
  if ("artifact_id" in args) return "read_artifact";
  if ("template_id" in args) return "log_search";
  return c.tool;
}

/**
 * Measures one case in a fresh server.
 *
 * @param dir A folder made by {@linkcode makePeakInputs}.
 * @param c The case.
 * @param mode In-process, or worker mode (`broadRead`).
 * @param env More environment for the server.
 */
export async function measurePeak(
  dir: string,
  c: PeakCase,
  mode: PeakRow["mode"],
  env: Record<string, string> = {},
): Promise<PeakRow> {
  await using s = await connect([dir], env, [], { broadRead: mode === "worker", lines: true });
  const pid = s.pid!;
  let warm: Structured = null;
  for (let i = 0; i < 2; i++) warm = (await s.call(c.tool, c.warm)).structuredContent;
  const args = typeof c.args === "function" ? c.args(warm) : c.args;
  const tool = measuredTool(c, args);
  if (tool !== c.tool) await s.call(tool, typeof c.args === "function" ? c.args(warm) : args);
  await new Promise((r) => setTimeout(r, 300));
  const idle = residentRss(pid)!;
  if (!resetPeak(pid)) throw new Error("cannot reset the peak (/proc/<pid>/clear_refs)");
  const t0 = performance.now();
  const r = await s.call(tool, args);
  const ms = performance.now() - t0;
  const peak = peakRss(pid)!;
  if (Boolean(r.isError) !== Boolean(c.error)) {
    throw new Error(
      `${c.kind} (${mode}): isError ${r.isError}: ${r.content[0]?.text.slice(0, 300)}\n${s.stderr()}`,
    );
  }
  return {
    kind: c.kind,
    mode,
    idle,
    peak,
    ms,
    answer: summary(r.structuredContent, r.content[0]?.text ?? ""),
  };
}

/** A few words on an answer. */
function summary(sc: Structured, text: string): string {
  if (!sc) return text.slice(0, 120).replace(/\n/g, " ");
  const parts: string[] = [];
  if ("complete" in sc) {
    parts.push(sc.complete ? "complete" : `not complete${sc.stop_reason ? ` (${sc.stop_reason})` : ""}`);
  }
  if (Array.isArray(sc.matches)) parts.push(`${sc.matches.length} matches shown`);
  if (Array.isArray(sc.templates)) parts.push(`${sc.templates.length} templates`);
  if (Array.isArray(sc.files)) parts.push(`${sc.files.length} files`);
  if (Array.isArray(sc.lines)) parts.push(`${sc.lines.length} lines`);
  if (sc.artifact) parts.push("spilled");
  return parts.join(", ");
}

const mib = (n: number) => (n / 1024 / 1024).toFixed(1);

/** The rows as a Markdown table: call kind × mode → peak over idle. */
export function peaksTable(rows: PeakRow[], bound = PEAK_BOUND): string {
  const kinds = [...new Set(rows.map((r) => r.kind))];
  const cell = (k: string, m: PeakRow["mode"]) => {
    const r = rows.find((x) => x.kind === k && x.mode === m);
    return r
      ? `${mib(r.peak - r.idle)}${r.peak - r.idle > bound ? " **over**" : ""} (${(r.ms / 1000).toFixed(1)} s)`
      : "";
  };
  return [
    `| call kind | in-process: peak over idle, MiB (time) | worker mode | answer |`,
    "|---|---:|---:|---|",
    ...kinds.map((k) =>
      `| ${k} | ${cell(k, "in-process")} | ${cell(k, "worker")} | ${rows.find((x) => x.kind === k)!.answer} |`
    ),
  ].join("\n");
}

/** Runs `cases` in both modes (or those of `LOGPEEK_PEAKS_MODES`), printing each row as it is measured. */
export async function measurePeaks(dir: string, cases: PeakCase[]): Promise<PeakRow[]> {
  const modes = (Deno.env.get("LOGPEEK_PEAKS_MODES") || "in-process,worker").split(",") as PeakRow["mode"][];
  const env: Record<string, string> = {};
  for (const k of ["LOGPEEK_PATTERNS_MS", "LOGPEEK_LEVELS_MS", "LOGPEEK_SEARCH_MS"]) {
    const v = Deno.env.get(k);
    if (v) env[k] = v;
  }
  const rows: PeakRow[] = [];
  for (const c of cases) {
    for (const mode of modes) {
      const r = await measurePeak(dir, c, mode, env);
      console.error(
        `${c.kind} | ${mode}: idle ${mib(r.idle)} MiB, peak ${mib(r.peak)} MiB, over idle ${
          mib(r.peak - r.idle)
        } MiB, ` +
          `${r.ms.toFixed(0)} ms; ${r.answer}`,
      );
      rows.push(r);
    }
  }
  return rows;
}

if (import.meta.main) {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-peaks-" });
  try {
    makePeakInputs(dir, Number(Deno.env.get("LOGPEEK_PEAKS_BOMB_GIB") || 2));
    const cases = peakCases().filter((c) =>
      Deno.args.length === 0 || Deno.args.some((a) => c.kind.includes(a))
    );
    console.log(peaksTable(await measurePeaks(dir, cases)));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}
