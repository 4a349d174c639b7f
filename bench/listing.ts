/**
 * The listing at scale (issue #22, item 7): `log_files` over 50,000 files in 250 folders, paged 1000 at a
 * time by name and newest first, through a real MCP client, beside `find -printf '%T@ %P'` (the peer a
 * user would run: it reads every entry's status too). The pages joined must be `find`'s list sorted the
 * same way, else the row is a MISMATCH. Target: ≤ 300 ms a page.
 *
 * @module
 */

import { join } from "node:path";
import { connect } from "../tests/mcp_client.ts";
import { median, runCommand } from "./measure.ts";
import type { Row } from "./table.ts";

/** Folders × files of the tree. */
export const LIST_FOLDERS = 250;
export const LIST_FILES = 200;
/** The target: the most milliseconds one 1000-entry page may take. */
export const PAGE_MS = 300;

/** The tree (made once under `dir`, kept between runs): seeded whole-second modified times. */
export function listingTree(dir: string): string {
  const root = join(dir, "listing-50k");
  const done = join(dir, "listing-50k.done");
  try {
    Deno.statSync(done);
    return root;
  } catch {
    // not made yet
  }
  try {
    Deno.removeSync(root, { recursive: true }); // a tree left half made
  } catch {
    // none
  }
  return makeTree(root, done);
}

/** Makes the tree at `root`, then the mark `done` that says it is whole. */
function makeTree(root: string, done: string): string {
  Deno.mkdirSync(root, { recursive: true });
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let d = 0; d < LIST_FOLDERS; d++) {
    const sub = `${root}/d${String(d).padStart(3, "0")}`;
    Deno.mkdirSync(sub);
    for (let f = 0; f < LIST_FILES; f++) {
      const p = `${sub}/f${String(f).padStart(4, "0")}.log`;
      Deno.writeTextFileSync(p, "2024-05-01 00:00:00 INFO x\n");
      const t = 1_700_000_000 + Math.floor(rand() * 1_000_000);
      Deno.utimeSync(p, t, t);
    }
  }
  Deno.writeTextFileSync(done, "");
  return root;
}

/** Every page of one listing: each page's time in ms, and the names in order. */
async function pages(root: string, sort: "name" | "modified"): Promise<{ ms: number[]; names: string[] }> {
  await using s = await connect([root], { LOGPEEK_INLINE_CHARS: "10000000" }, [], { lines: true });
  const ms: number[] = [];
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const t = performance.now();
    const r = await s.call("log_files", { sort, ...(cursor ? { cursor } : {}) });
    ms.push(performance.now() - t);
    if (r.isError) throw new Error(r.content[0].text);
    names.push(...r.structuredContent.files.map((f: { file: string }) => f.file));
    cursor = r.structuredContent.next_cursor ?? undefined;
  } while (cursor);
  return { ms, names };
}

/** `find`'s list of the tree, by name (segment by segment) and newest first, and its time in ms. */
async function findList(root: string): Promise<{ byName: string[]; byTime: string[]; ms: number }> {
  const run = await runCommand("find", [root, "-type", "f", "-printf", "%T@ %P\\n"]);
  const rows = run.out.trim().split("\n").map((l) => {
    const sp = l.indexOf(" ");
    return { file: l.slice(sp + 1), ms: Math.round(Number(l.slice(0, sp)) * 1000) };
  });
  const seg = (a: string, b: string) => {
    const x = a.split("/");
    const y = b.split("/");
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return x.length - y.length;
  };
  const byName = rows.map((r) => r.file).sort(seg);
  const byTime = [...rows].sort((a, b) => b.ms - a.ms || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((r) => r.file);
  return { byName, byTime, ms: run.ms };
}

/**
 * Runs the listing rows.
 *
 * @param dir Where the tree is kept.
 * @param runs How many times each listing is paged through (the median page of all).
 * @returns The table's rows and any mismatch with `find`.
 */
export async function listingBench(
  dir: string,
  runs: number,
): Promise<{ rows: Row[]; mismatches: string[] }> {
  const root = listingTree(dir);
  const rows: Row[] = [];
  const mismatches: string[] = [];
  const peer = await findList(root);
  const peerMs = median([peer.ms, (await findList(root)).ms, (await findList(root)).ms]);
  for (const sort of ["name", "modified"] as const) {
    const all: number[] = [];
    for (let i = 0; i < Math.min(runs, 3); i++) {
      const r = await pages(root, sort);
      all.push(...r.ms);
      const want = sort === "name" ? peer.byName : peer.byTime;
      if (r.names.length !== want.length || r.names.some((n, j) => n !== want[j])) {
        mismatches.push(`log_files sort ${sort}: the pages joined are not find's list`);
      }
    }
    const page = median(all);
    rows.push({
      work: `log_files sort ${sort}, ${
        LIST_FOLDERS * LIST_FILES
      } files, a 1000-entry page (median of ${all.length})`,
      ms: page,
      peer: "find DIR -type f -printf '%T@ %P\\n' (the whole tree once)",
      peerMs,
      target: `≤ ${PAGE_MS} ms a page`,
      met: page <= PAGE_MS,
      value: `${page.toFixed(0)} ms`,
    });
  }
  return { rows, mismatches };
}
