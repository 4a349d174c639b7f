/**
 * `logpeek trace-report`: per tool, from the call trace — calls, failures, spills, avg_ms, p95_ms,
 * max_ms — as an aligned table or JSON (issue #3; the seed `../shared/seeds/004_…`, trace_report.py).
 *
 * The trace is read line by line through the scanner, so memory stays bounded whatever its size; p95
 * comes from a histogram with buckets 1% wide (nearest rank, reported as the bucket's upper edge,
 * never above the true maximum). At most {@linkcode MAX_TOOLS} tools get a row of their own (issue #8:
 * tool names come from clients).
 *
 * Permission: read access to the state directory.
 *
 * @module
 */

import { join } from "node:path";
import { scan } from "../read/scanner.ts";
import { shownArg } from "./shown_arg.ts";

/** One tool's row. */
export interface ToolStats {
  tool: string;
  calls: number;
  failures: number;
  spills: number;
  avg_ms: number;
  p95_ms: number;
  max_ms: number;
}

/** The report. */
export interface TraceReport {
  tools: ToolStats[];
  /** Trace lines read. */
  lines: number;
  /** Lines that were not trace records (damaged, or cut by a crash mid-write). */
  unreadable: number;
  /** The files read, oldest first. */
  files: string[];
}

/**
 * Most distinct tool names given a row of their own: the rest are counted together under
 * {@linkcode OTHER_TOOLS}, so a trace of a million made-up tool names is read in bounded memory.
 */
export const MAX_TOOLS = 100;
/** The row that counts the calls of tools beyond the first {@linkcode MAX_TOOLS}. */
export const OTHER_TOOLS = "(other tools)";

const GROWTH = Math.log(1.01);
const bucketOf = (ms: number) => Math.floor(Math.log1p(Math.max(0, ms)) / GROWTH);
const upperEdge = (b: number) => Math.expm1((b + 1) * GROWTH);

interface Acc {
  calls: number;
  failures: number;
  spills: number;
  sum: number;
  max: number;
  hist: Map<number, number>;
}

/**
 * Reads the trace files of a state directory (`calls.jsonl.1`, then `calls.jsonl`).
 *
 * @param stateDir The state directory.
 * @returns Per-tool statistics sorted by tool name; no rows when the state directory has no trace yet.
 * @throws {Error} when the state directory does not exist or is not a folder (issue #10, item 10: a
 *   mistyped `--state-dir` is not an empty report); Deno's errors other than a missing trace file.
 */
export async function traceReport(stateDir: string): Promise<TraceReport> {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(stateDir);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    throw new Error(
      `the state directory ${stateDir} does not exist: no server has used it yet (the default one is made ` +
        "when a server first starts; a named one must have a parent folder), or --state-dir names another",
    );
  }
  if (!info.isDirectory) throw new Error(`the state directory ${stateDir} is not a folder`);
  const acc = new Map<string, Acc>();
  const files: string[] = [];
  const counts = { lines: 0, unreadable: 0 };
  for (const name of ["calls.jsonl.1", "calls.jsonl"]) {
    const path = join(stateDir, "traces", name);
    if (await readTrace(path, acc, counts)) files.push(path);
  }
  const tools = [...acc.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([tool, a]) =>
    toolRow(tool, a)
  );
  return { tools, lines: counts.lines, unreadable: counts.unreadable, files };
}

/**
 * Adds one trace file's records to `acc` (and its lines to `counts`); a line that is not a record
 * (not JSON, too long, no `tool` and `ms`) is counted as unreadable.
 *
 * @returns False when the file does not exist.
 * @throws Deno's errors other than NotFound.
 */
async function readTrace(
  path: string,
  acc: Map<string, Acc>,
  counts: { lines: number; unreadable: number },
): Promise<boolean> {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
  const dec = new TextDecoder();
  try {
    await scan({ readSync: (b) => file.readSync(b), atEnd: () => true }, {
      line(buf, s, e, _no, cut) {
        counts.lines++;
        let r;
        try {
          if (cut) throw new Error("too long");
          r = JSON.parse(dec.decode(buf.subarray(s, e)));
        } catch {
          counts.unreadable++;
          return true;
        }
        if (typeof r?.tool !== "string" || typeof r?.ms !== "number") {
          counts.unreadable++;
          return true;
        }
        const tool = acc.has(r.tool) || acc.size < MAX_TOOLS ? r.tool : OTHER_TOOLS;
        let a = acc.get(tool);
        if (!a) acc.set(tool, a = { calls: 0, failures: 0, spills: 0, sum: 0, max: 0, hist: new Map() });
        a.calls++;
        if (r.ok === false) a.failures++;
        if (r.spilled === true) a.spills++;
        a.sum += r.ms;
        a.max = Math.max(a.max, r.ms);
        const b = bucketOf(r.ms);
        a.hist.set(b, (a.hist.get(b) ?? 0) + 1);
        return true;
      },
    }, { headBytes: 65536 });
  } finally {
    file.close();
  }
  return true;
}

/** One tool's row: calls, failures, spills, mean, p95 (from the histogram's buckets) and max, in ms. */
function toolRow(tool: string, a: Acc) {
  const rank = Math.ceil(0.95 * a.calls);
  let seen = 0;
  let p95 = a.max;
  for (const b of [...a.hist.keys()].sort((x, y) => x - y)) {
    seen += a.hist.get(b)!;
    if (seen >= rank) {
      p95 = Math.min(upperEdge(b), a.max);
      break;
    }
  }
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    tool,
    calls: a.calls,
    failures: a.failures,
    spills: a.spills,
    avg_ms: round(a.sum / a.calls),
    p95_ms: round(p95),
    max_ms: round(a.max),
  };
}

/**
 * Renders the report as an aligned text table. A tool name is shown with control characters escaped
 * (`\u000a`), so no name can forge a row, and cut to 80 UTF-16 code units on a character boundary
 * (`shown_arg.ts`).
 */
export function renderReport(r: TraceReport): string {
  const head = ["tool", "calls", "failures", "spills", "avg_ms", "p95_ms", "max_ms"];
  const rows = r.tools.map((t) => [
    shownArg(t.tool, 80),
    String(t.calls),
    String(t.failures),
    String(t.spills),
    t.avg_ms.toFixed(2),
    t.p95_ms.toFixed(2),
    t.max_ms.toFixed(2),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const fmt = (row: string[]) =>
    row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd();
  const lines = [fmt(head), ...rows.map(fmt)];
  if (r.unreadable) lines.push(`(${r.unreadable} of ${r.lines} trace lines were unreadable and left out)`);
  return lines.join("\n") + "\n";
}
