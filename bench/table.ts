/**
 * The benchmark's table: one row per piece of work, with the columns
 * `work | logpeek ms | logpeek GB/s | peer command | peer ms | ratio | target | met?`, where ratio is
 * the peer's time over logpeek's (above 1: logpeek is faster). Rows without a target (a second peer
 * shown for information) leave `target` and `met?` empty.
 *
 * @module
 */

/** One row of the table. */
export interface Row {
  /** What logpeek did (empty on a row that only adds a peer). */
  work: string;
  /** logpeek's median time in ms, or a reason it has none (`too slow (> 60 s)`). */
  ms?: number | string;
  /** logpeek's throughput, already formatted (`1.23 GB/s`, `85 MB/s`), or empty. */
  rate?: string;
  /** The peer command, as a user would type it. */
  peer?: string;
  /** The peer's median time in ms. */
  peerMs?: number;
  /** The target, as text (`≥ 0.8×`, `≥ 100 MB/s`, `≤ 16 MiB`). */
  target?: string;
  /** Whether the target was met; undefined: no target on this row. */
  met?: boolean;
  /** The target's measured value, for the summary (`0.93×`, `412 MB/s`); defaults to the ratio. */
  value?: string;
}

/** Formats a time in ms: one decimal under 100 ms, none above. */
export function fmtMs(ms: number): string {
  return ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}

/** The ratio column of a row: peer ms / logpeek ms, or empty when either is missing. */
export function ratio(r: Row): string {
  return typeof r.ms === "number" && r.peerMs !== undefined ? `${(r.peerMs / r.ms).toFixed(2)}×` : "";
}

/** A cell's text with its pipes escaped (`\\|`), so that a regex such as `(a|b)` stays in its cell. */
export function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}

/** Renders rows as a Markdown table. */
export function renderTable(rows: Row[]): string {
  const lines = [
    "| work | logpeek ms | logpeek GB/s | peer command | peer ms | ratio | target | met? |",
    "|---|---:|---:|---|---:|---:|---|---|",
  ];
  for (const r of rows) {
    const ms = typeof r.ms === "number" ? fmtMs(r.ms) : (r.ms ?? "");
    const met = r.met === undefined ? "" : r.met ? "yes" : "**NO**";
    const cells = [
      r.work,
      ms,
      r.rate ?? "",
      r.peer ? "`" + r.peer + "`" : "",
      r.peerMs === undefined ? "" : fmtMs(r.peerMs),
      ratio(r),
      r.target ?? "",
      met,
    ];
    lines.push(`| ${cells.map(cell).join(" | ")} |`);
  }
  return lines.join("\n");
}

/** One target's outcome, for the summary at the end. */
export interface Verdict {
  /** Which table the row is in. */
  table: string;
  /** The row's work and target. */
  what: string;
  met: boolean;
}

/** The rows with a target, as verdicts. */
export function verdicts(table: string, rows: Row[]): Verdict[] {
  const out: Verdict[] = [];
  let work = "";
  for (const r of rows) {
    if (r.work) work = r.work;
    if (r.met === undefined) continue;
    out.push({ table, what: `${work}: ${r.target} (${r.value ?? (ratio(r) || r.ms)})`, met: r.met });
  }
  return out;
}
