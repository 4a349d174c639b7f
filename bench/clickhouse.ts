/**
 * The ClickHouse part of the benchmark (issue #14): the same work on a ClickHouse table and on local files
 * holding the same rows, through the real MCP client, in the same run.
 *
 * The test server (`tests/clickhouse_server.ts`: Debian's `clickhouse-server`, started in a temporary
 * folder) gets table `logpeek_test.big`: {@linkcode BENCH_ROWS} generated rows, four services
 * (`tests/clickhouse_seed.ts` `seedBig`; its counts come from the formula, not from the server). The table is
 * exported as one `<service>.log` per service into a temporary folder (`exportTable`: Timestamp order, ties
 * broken by a hash of the row, each line `<ISO time> <level or -> <body>`). Then logpeek is started on each:
 * on the root `clickhouse://127.0.0.1:PORT/logpeek_test.big` (names `big/<service>`, glob `big/*`; env
 * `LOGPEEK_CLICKHOUSE_USER=default`) and on the folder (names `<service>.log`, glob `*.log`).
 *
 * Rows, each on both sides:
 *
 * 1. `log_tail {file: <one service>, lines: 20}`: median of `runs`.
 * 2. `log_search {file: <glob>, text: "checksum mismatch", limit: 100}`: a full search for a rare text;
 *    the matches must be the formula's count and the answer complete, else a MISMATCH.
 * 3. `log_levels {file: <one service>}`: `total_lines` must be the service's rows, else a MISMATCH.
 * 4. `log_search {file: <glob>, text: <never there>, limit: 100}` with the unlimited budgets: a whole scan.
 * 5. The same with `LOGPEEK_SEARCH_MS=1000`, `LOGPEEK_SEARCH_BYTES=50000000`, and `LOGPEEK_SEARCH_MS=100`
 *    (at 10M rows 1 s stops neither side: a whole scan takes ~0.2-0.4 s): the first page's
 *    `complete` and `stop_reason`, and the pages needed to finish (following `next_cursor`); their matches
 *    added up must equal row 4's single call (0), else a MISMATCH; and the same paging for the rare text,
 *    whose pages' matches must add up to row 2's.
 *
 * The table's columns: `work | table | file | note` (ms, and what the answers said). Each measurement
 * stands alone: one that fails shows ERROR in its cell and its exact message under the table.
 *
 * Run alone: `deno run -A bench/clickhouse.ts` (env `LOGPEEK_BENCH_CH_ROWS` for fewer rows while
 * developing, `LOGPEEK_BENCH_RUNS`).
 *
 * @module
 */

import { join } from "node:path";
import { connect, MAIN, type Session } from "../tests/mcp_client.ts";
import { type ClickHouse, startClickHouse } from "../tests/clickhouse_server.ts";
import {
  BIG_SERVICES,
  type BigTruth,
  DATABASE,
  exportTable,
  NEEDLE,
  seedBig,
} from "../tests/clickhouse_seed.ts";
import { netOfRoots, serverFlags } from "../src/cli/flags.ts";
import { median } from "./measure.ts";
import { cell, fmtMs } from "./table.ts";

/** Rows of `big` by default (the issue's ≥ 10M). */
export const BENCH_ROWS = 10_000_000;

/** A text no row holds. */
export const NEVER = "zz-never-logged-7f3a";

/** The budgets of the stopped searches: the issue's two, and a time budget small enough to stop a scan. */
export const SEARCH_MS = 1000;
export const SEARCH_BYTES = 50_000_000;
export const SEARCH_MS_SMALL = 100;

/**
 * A pattern that finds exactly the needle's rows (`seg_N ` is in them only) and costs RE2 most on every
 * other row (a case-insensitive alternation of Unicode classes before a wildcard run: ClickHouse takes no
 * required literal out of it): ~2 s whole over 10M rows here (`tests/clickhouse_big_test.ts` measures it),
 * so a 1 s time budget cuts it.
 */
export const HEAVY_REGEX = String.raw`(?i)(\pL|\pN).{20}\pN{3}zq|seg_[0-9]+ `;

/** Each budgeted server: its key and env. */
const BUDGETS: readonly [string, Record<string, string>][] = [
  ["ms", { LOGPEEK_SEARCH_MS: String(SEARCH_MS) }],
  ["bytes", { LOGPEEK_SEARCH_BYTES: String(SEARCH_BYTES) }],
  ["ms-small", { LOGPEEK_SEARCH_MS: String(SEARCH_MS_SMALL) }],
];

/** The service of the tail and levels rows. */
const SERVICE = BIG_SERVICES[0];

/** The budgets of an "unlimited" server: far past any call here. */
const UNLIMITED = {
  LOGPEEK_SEARCH_MS: "600000",
  LOGPEEK_SEARCH_BYTES: String(64 * 1024 * 1024 * 1024),
  LOGPEEK_LEVELS_MS: "600000",
};

/** The client's timeout of one call: past the server's budget. */
const CALL_TIMEOUT = 660_000;

/** The most pages a budgeted search may take before the bench gives up on it. */
const MAX_PAGES = 5000;

/**
 * The most pages of the heavy regex: re2js runs it at tens of thousands of lines a second, so the file side
 * would take many minutes to finish 10M lines; it is stopped here and its rate given.
 */
const REGEX_PAGES = 40;

/** One row of the table. */
export interface ClickHouseRow {
  work: string;
  table: string;
  file: string;
  note: string;
}

/** How the part runs. */
export interface ClickHouseOptions {
  /** Runs of the tail row (median). */
  runs: number;
  /** Rows of `big` (default {@linkcode BENCH_ROWS}). */
  rows?: number;
}

/** What the part found; null when clickhouse-server is not installed (a SKIP line was printed). */
export interface ClickHouseResult {
  rows: ClickHouseRow[];
  notes: string[];
  mismatches: string[];
  /** ms to seed `big`, to export it, and the exported files' bytes. */
  seedMs: number;
  exportMs: number;
  exportBytes: number;
  truth: BigTruth;
  url: string;
}

/** A structured tool answer. */
// deno-lint-ignore no-explicit-any
type Structured = any;

/** One side: how to start logpeek and what its names are. */
interface Side {
  label: string;
  root: string;
  env: Record<string, string>;
  /** The name of {@linkcode SERVICE}'s log. */
  one: string;
  /** A glob over every service. */
  glob: string;
}

/** One measurement on one side: its cell text, and a note. */
interface Cell {
  text: string;
  note: string;
}

/**
 * Calls a tool and returns its time and structured answer.
 *
 * @throws {Error} with the tool's text when it answers with an error.
 */
async function call(
  s: Session,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ ms: number; sc: Structured }> {
  const t = performance.now();
  const r = await s.client.callTool({ name: tool, arguments: args }, undefined, { timeout: CALL_TIMEOUT });
  const ms = performance.now() - t;
  if (r.isError) {
    throw new Error(`${tool} ${JSON.stringify(args)} failed: ${(r.content as { text: string }[])[0]?.text}`);
  }
  return { ms, sc: r.structuredContent };
}

/**
 * What logpeek prints when it is started on `root` and exits: its stderr (for a side whose `connect`
 * failed, so the report has the exact output).
 */
async function startupOutput(root: string, env: Record<string, string>): Promise<string> {
  const stateDir = Deno.makeTempDirSync({ prefix: "logpeek-ch-state-" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...serverFlags([], stateDir, undefined, netOfRoots([root]).net),
        MAIN,
        "--state-dir",
        stateDir,
        root,
      ],
      env: { NO_COLOR: "1", ...env },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        // gone
      }
    }, 20_000);
    await child.stdin.close();
    const out = await child.output();
    clearTimeout(timer);
    return `exit ${out.code}: ${new TextDecoder().decode(out.stderr).trim()}`;
  } finally {
    Deno.removeSync(stateDir, { recursive: true });
  }
}

/** Starts logpeek on a side with extra env; on failure, throws with what the server printed. */
async function open(side: Side, env: Record<string, string>): Promise<Session> {
  const all = { ...side.env, ...env };
  try {
    return await connect([side.root], all, [], { lines: true });
  } catch (e) {
    throw new Error(
      `logpeek did not start on ${side.root}: ${(e as Error).message}\n` +
        `started alone, it printed: ${await startupOutput(side.root, all)}`,
    );
  }
}

/** A paged search: the first page's state, the pages to finish, the matches in all, the ms in all. */
async function paged(s: Session, file: string, text: string, regex = false, maxPages = MAX_PAGES) {
  let cursor: string | undefined;
  let pages = 0, matches = 0, ms = 0, lines = 0;
  let first: Structured = null;
  let stuck = false;
  do {
    const r = await call(s, "log_search", { file, text, regex, limit: 100, ...(cursor ? { cursor } : {}) });
    first ??= r.sc;
    pages++;
    ms += r.ms;
    matches += r.sc.matches.length;
    lines += r.sc.scanned_lines ?? 0;
    cursor = r.sc.next_cursor ?? undefined;
    if (!r.sc.complete && !cursor) stuck = true;
  } while (cursor && pages < maxPages);
  return { first, pages, matches, ms, lines, unfinished: cursor !== undefined || stuck };
}

/**
 * Runs every measurement on one side. A failure (the side does not start, a tool errs) ends the side: its
 * remaining cells say ERROR and the message goes to `errors`.
 */
async function measureSide(
  side: Side,
  truth: BigTruth,
  runs: number,
  mismatch: (what: string) => void,
  errors: string[],
): Promise<Map<string, Cell>> {
  const cells = new Map<string, Cell>();
  const put = (key: string, text: string, note = "") => cells.set(key, { text, note });
  /** Runs one measurement; a failure puts ERROR in its cell and the message in `errors`. */
  const attempt = async (key: string, what: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (e) {
      errors.push(`${side.label}, ${what}: ${(e as Error).message}`);
      put(key, "ERROR");
    }
  };
  /** A session with `env`, or null (every key in `keys` then says ERROR, the message once). */
  const session = async (env: Record<string, string>, keys: string[]): Promise<Session | null> => {
    try {
      return await open(side, env);
    } catch (e) {
      errors.push(`${side.label}: ${(e as Error).message}`);
      for (const k of keys) put(k, "ERROR");
      return null;
    }
  };
  let unlimitedNever = 0;
  {
    await using s = await session(UNLIMITED, ["tail", "rare", "levels", "never"]);
    if (s !== null) {
      await attempt("tail", `log_tail ${side.one}`, async () => {
        const tails: number[] = [];
        let tail: Structured = null;
        for (let i = 0; i < runs; i++) {
          const r = await call(s, "log_tail", { file: side.one, lines: 20 });
          tails.push(r.ms);
          tail = r.sc;
        }
        const lines = tail.lines as { text: string }[];
        if (lines.length !== 20) {
          mismatch(`${side.label}: log_tail ${side.one} gave ${lines.length} lines, not 20`);
        }
        put("tail", fmtMs(median(tails)), `last: ${JSON.stringify(lines.at(-1)?.text ?? null)}`);
      });
      await attempt("rare", `log_search '${NEEDLE}'`, async () => {
        const rare = await call(s, "log_search", { file: side.glob, text: NEEDLE, limit: 100 });
        const n = rare.sc.matches.length;
        if (n !== truth.needleRows || !rare.sc.complete) {
          mismatch(
            `${side.label}: log_search ${side.glob} '${NEEDLE}': ${n} matches, complete ${rare.sc.complete} ` +
              `(the formula: ${truth.needleRows}, complete)`,
          );
        }
        put("rare", fmtMs(rare.ms), `${n} matches, complete ${rare.sc.complete}`);
      });
      await attempt("levels", `log_levels ${side.one}`, async () => {
        const lv = await call(s, "log_levels", { file: side.one });
        if (lv.sc.total_lines !== truth.perService[SERVICE] || !lv.sc.complete) {
          mismatch(
            `${side.label}: log_levels ${side.one}: ${lv.sc.total_lines} lines, complete ${lv.sc.complete} ` +
              `(rows: ${truth.perService[SERVICE]})`,
          );
        }
        const counts = Object.entries(lv.sc.counts as Record<string, number>).filter(([, c]) => c > 0)
          .map(([k, c]) => `${k} ${c}`).join(", ");
        put("levels", fmtMs(lv.ms), `${lv.sc.total_lines} lines, complete ${lv.sc.complete}: ${counts}`);
      });
      await attempt("never", `log_search '${NEVER}'`, async () => {
        const never = await call(s, "log_search", { file: side.glob, text: NEVER, limit: 100 });
        unlimitedNever = never.sc.matches.length;
        put(
          "never",
          fmtMs(never.ms),
          `${unlimitedNever} matches, complete ${never.sc.complete}, ${never.sc.scanned_lines} lines`,
        );
      });
    }
  }
  // Each budget: both texts paged to the end.
  for (const [key, env] of BUDGETS) {
    const keys = [`${key}-never`, `${key}-rare`, ...(key === "ms" ? [`${key}-regex`] : [])];
    await using s = await session({ ...UNLIMITED, ...env }, keys);
    if (s === null) continue;
    const texts = [
      ["never", NEVER, unlimitedNever, false],
      ["rare", NEEDLE, truth.needleRows, false],
      ...(key === "ms" ? [["regex", HEAVY_REGEX, truth.needleRows, true] as const] : []),
    ] as const;
    for (const [what, text, want, regex] of texts) {
      await attempt(`${key}-${what}`, `paged log_search '${text}' with ${JSON.stringify(env)}`, async () => {
        const p = await paged(s, side.glob, text, regex, regex ? REGEX_PAGES : MAX_PAGES);
        if (regex && p.unfinished && !p.first?.complete) {
          put(
            `${key}-${what}`,
            `not finished in ${p.pages} pages (${fmtMs(p.ms)})`,
            `${p.lines} lines in ${p.pages} pages (${Math.round(p.lines / (p.ms / 1000))} lines/s), ` +
              `${p.matches} matches so far; page 1: complete ${p.first?.complete}, stop_reason ${p.first?.stop_reason}`,
          );
          return;
        }
        if (p.matches !== want || p.unfinished) {
          mismatch(
            `${side.label}: paged log_search ${side.glob} '${text}' (${key} budget): ${p.matches} matches in ` +
              `${p.pages} pages${p.unfinished ? ", unfinished" : ""}; one unlimited call: ${want}`,
          );
        }
        put(
          `${key}-${what}`,
          `${fmtMs(p.ms)} (${p.pages} pages)`,
          `page 1: complete ${p.first.complete}, stop_reason ${p.first.stop_reason}, ` +
            `${p.first.scanned_lines} lines; ${p.matches} matches in all (unlimited: ${want})`,
        );
      });
    }
  }
  return cells;
}

/**
 * Runs the part: seeds, exports, measures both sides.
 *
 * @returns The table and its notes, or null when clickhouse-server is not installed.
 */
export async function clickhouseBench(opts: ClickHouseOptions): Promise<ClickHouseResult | null> {
  const rows = opts.rows ?? BENCH_ROWS;
  const ch: ClickHouse | null = await startClickHouse("the ClickHouse table (issue #14)");
  if (ch === null) return null;
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-bench-ch-" });
  try {
    let t = performance.now();
    const truth = await seedBig(ch, rows);
    const seedMs = performance.now() - t;
    t = performance.now();
    await exportTable(ch, "big", dir);
    const exportMs = performance.now() - t;
    let exportBytes = 0;
    for (const e of Deno.readDirSync(dir)) exportBytes += Deno.statSync(join(dir, e.name)).size;
    // Into the page cache, as the other parts do.
    for (const e of Deno.readDirSync(dir)) {
      await new Deno.Command("cat", { args: [join(dir, e.name)], stdout: "null" }).output();
    }

    const mismatches: string[] = [];
    const errors: string[] = [];
    const mismatch = (what: string) => mismatches.push(`MISMATCH in the ClickHouse table: ${what}`);
    const host = new URL(ch.url).host;
    const table: Side = {
      label: "table",
      root: `clickhouse://${host}/${DATABASE}.big`,
      env: { LOGPEEK_CLICKHOUSE_USER: "default" },
      one: `big/${SERVICE}`,
      glob: "big/*",
    };
    const file: Side = { label: "file", root: dir, env: {}, one: `${SERVICE}.log`, glob: "*.log" };
    const f = await measureSide(file, truth, opts.runs, mismatch, errors);
    const c = await measureSide(table, truth, opts.runs, mismatch, errors);

    const row = (key: string, work: string): ClickHouseRow => {
      const a = c.get(key)!, b = f.get(key)!;
      const note = a.note === b.note ? a.note : [a.note && `table: ${a.note}`, b.note && `file: ${b.note}`]
        .filter(Boolean).join("; ");
      return { work, table: a.text, file: b.text, note };
    };
    const result: ClickHouseRow[] = [
      row("tail", `log_tail, 20 lines, ${SERVICE} (median of ${opts.runs})`),
      row("rare", `log_search '${NEEDLE}' over all services, limit 100`),
      row("levels", `log_levels, ${SERVICE}`),
      row("never", `log_search for a text never there, all services (unlimited)`),
      row("ms-never", `… with LOGPEEK_SEARCH_MS=${SEARCH_MS}, paged to the end`),
      row("ms-rare", `'${NEEDLE}' with LOGPEEK_SEARCH_MS=${SEARCH_MS}, paged`),
      row("ms-regex", `regex '${HEAVY_REGEX}' with LOGPEEK_SEARCH_MS=${SEARCH_MS}, paged`),
      row("bytes-never", `… never there, LOGPEEK_SEARCH_BYTES=${SEARCH_BYTES}, paged to the end`),
      row("bytes-rare", `'${NEEDLE}' with LOGPEEK_SEARCH_BYTES=${SEARCH_BYTES}, paged`),
      row("ms-small-never", `… never there, LOGPEEK_SEARCH_MS=${SEARCH_MS_SMALL}, paged to the end`),
      row("ms-small-rare", `'${NEEDLE}' with LOGPEEK_SEARCH_MS=${SEARCH_MS_SMALL}, paged`),
    ];
    const notes = errors.map((e) => `ERROR ${e}`);
    return { rows: result, notes, mismatches, seedMs, exportMs, exportBytes, truth, url: ch.url };
  } finally {
    await ch.stop();
    Deno.removeSync(dir, { recursive: true });
  }
}

/** The table as Markdown. */
export function renderClickHouseTable(rows: ClickHouseRow[]): string {
  const lines = ["| work | table | file | note |", "|---|---:|---:|---|"];
  for (const r of rows) lines.push(`| ${[r.work, r.table, r.file, r.note].map(cell).join(" | ")} |`);
  return lines.join("\n");
}

/** The heading, the table and its notes, as the bench prints them. */
export function reportClickHouse(r: ClickHouseResult, runs: number): string {
  return [
    `\n## ClickHouse (issue #14): logpeek_test.big beside the same rows in local files\n`,
    `${r.truth.rows} rows (${BIG_SERVICES.map((s) => `${s} ${r.truth.perService[s]}`).join(", ")}), seeded ` +
    `server-side in ${(r.seedMs / 1000).toFixed(1)} s (clickhouse-server at ${r.url}); exported to one ` +
    `<service>.log each (${(r.exportBytes / 1e6).toFixed(0)} MB, ${(r.exportMs / 1000).toFixed(1)} s), in ` +
    `the page cache. ms as the client sees the call (median of ${runs} for the tail; a paged search: its ` +
    `pages' sum). '${NEEDLE}' is in ${r.truth.needleRows} rows by the formula. Names: big/<service>, glob ` +
    `big/* on the table; <service>.log, *.log on the files.\n`,
    renderClickHouseTable(r.rows),
    "",
    ...r.notes.map((n) => `- ${n}`),
    ...r.mismatches.map((m) => `- ${m}`),
  ].join("\n");
}

if (import.meta.main) {
  const env = (name: string, fallback: number) => Number(Deno.env.get(name) || fallback);
  const runs = env("LOGPEEK_BENCH_RUNS", 5);
  const r = await clickhouseBench({ runs, rows: env("LOGPEEK_BENCH_CH_ROWS", BENCH_ROWS) });
  if (r === null) Deno.exit(0);
  console.log(reportClickHouse(r, runs));
  if (r.mismatches.length) Deno.exit(1);
}
