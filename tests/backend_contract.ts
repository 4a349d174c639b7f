/**
 * One contract, run against every backend (issue #25 item 3), in the style of thanos-io/objstore's
 * `AcceptanceTest(t, bucket)`: {@linkcode contractEntries} makes one set of log entries, each backend
 * loads exactly those (a files root: one text line each; ClickHouse: one row each), and
 * {@linkcode contractCases} holds the cases, each checked against the entries made here (never against
 * logpeek's own answers). Where backends legitimately differ, a {@linkcode Backend} says how (its line
 * numbers, how an entry is shown, its tie order, its capabilities), so no case branches on a backend's name.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type CallResult, connect, type Session } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";
import type { ClickHouse } from "./clickhouse_server.ts";

/** One log entry as the contract loads it: one line of a file, one row of a table. */
export interface Entry {
  /** Its time, Unix seconds (whole: a table's `DateTime` holds seconds). */
  time: number;
  /** Its level word, as written (and stored as `SeverityText`); `""` for none. A key of {@linkcode FOLD}. */
  level: string;
  /** What follows the level. */
  body: string;
  /** Its log: `gen/<source>` on every backend. */
  source: string;
  /** Its position in its log as written, from 1 (its line number in a file). */
  line: number;
}

/**
 * The level each level word of the entries is counted as, written out here (not logpeek's table): the
 * words as programs write them, in other cases and spellings, a word that is no level, and none.
 */
export const FOLD: Readonly<Record<string, string>> = {
  INFO: "INFO",
  Information: "INFO",
  DEBUG: "DEBUG",
  debug: "DEBUG",
  trace: "TRACE",
  notice: "NOTICE",
  WARN: "WARN",
  warning: "WARN",
  ERROR: "ERROR",
  err: "ERROR",
  FATAL: "FATAL",
  Critical: "FATAL",
  panic: "FATAL",
  weird: "UNKNOWN",
  "": "UNKNOWN",
};

/** The logs, each `gen/<source>`. */
export const SOURCES = ["api", "db", "worker"] as const;

/**
 * The length of the long body (of each log's entry 301, `payload dump …`), in characters: past the
 * 1000 characters of a returned line (`LOGPEEK_MAX_LINE`'s default).
 */
export const LONG_BODY = 1500;

/** The most characters of a returned line, `LOGPEEK_MAX_LINE`'s default (`core/config.ts`). */
export const MAX_LINE = 1000;

/** The first entry's time, 2026-11-01T00:00:00Z, in Unix seconds. */
export const BASE = Date.UTC(2026, 10, 1) / 1000;

/** The secret every `login ok` entry holds, and how every backend must show it. */
export const SECRET = /password=\S+/;
/** The mask of {@linkcode SECRET} (`guard/redact.ts`'s `***`, written out here). */
export const MASKED = "password=***";

/**
 * The contract's entries, in time order within each source (as a file is written): `perSource` entries
 * of each source, seven sharing each second, levels drawn by a seeded generator; every 37th a
 * `checksum mismatch`, every 50th a `login ok … password=…`, the 301st of each a body of
 * {@linkcode LONG_BODY} characters, the 401st one with letters beyond ASCII; and at the end of `api`, ten identical
 * entries (a retried write) and three more at the same second, so the last second holds thirteen.
 *
 * @param perSource Entries per source before the twins (the cases assume the default).
 */
export function contractEntries(perSource = 700): Entry[] {
  const levels = [...Object.keys(FOLD), "INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
  let seed = 25;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const out: Entry[] = [];
  for (const source of SOURCES) {
    for (let i = 0; i < perSource; i++) {
      let body = `request ${i} path=/v1/items/${i % 97} took ${Math.floor(rnd() * 900)}ms`;
      if (i % 37 === 5) body = `checksum mismatch on block ${i} of ${source}`;
      if (i % 50 === 3) body = `login ok user=u${i} password=hunter2x${i % 10}`;
      if (i === 400) body = `Café au lait CAFÉ, ÄRGER in ${source}`;
      if (i === 300) body = `payload dump ${"0123456789".repeat(LONG_BODY / 10)}`;
      const level = levels[Math.floor(rnd() * levels.length)];
      out.push({ time: BASE + Math.floor(i / 7), level, body, source, line: i + 1 });
    }
  }
  const last = BASE + Math.floor((perSource - 1) / 7) + 1;
  for (let k = 0; k < 13; k++) {
    const twin = k < 10
      ? { level: "INFO", body: "twin event id=7" }
      : { level: "WARN", body: `twin event id=8${k - 10}` };
    out.push({ time: last, ...twin, source: "api", line: perSource + k + 1 });
  }
  return out;
}

/**
 * What a backend is, and where it legitimately differs from another: the cases read these fields, never
 * the backend's name.
 */
export interface Backend {
  /** Its name, for the steps' names. */
  name: string;
  /**
   * Starts logpeek on this backend's loaded root.
   *
   * @param env Extra environment (budgets: `LOGPEEK_SEARCH_BYTES`, …).
   */
  connect(env?: Record<string, string>): Promise<Session>;
  /** Whether a line has a number (`line_no`): a file's lines do, a table's rows do not (`null`). */
  lineNumbers: boolean;
  /**
   * How an entry is shown (secrets not yet masked): a file's line as written; a row `TIME LEVEL BODY`
   * (RFC 3339, `-` for no level).
   */
  render(e: Entry): string;
  /**
   * What `log_files` gives as a log's size, `[size_bytes, rows]`: a file's bytes (rows not given, null);
   * a table's rows (bytes null).
   */
  listedSize(log: Entry[]): [number | null, number | null];
  /** What `text` (or a pattern) is matched on: a file's whole line; a row's body only. */
  searched(e: Entry): string;
  /**
   * Whether entries of one time come in the order they were written (a file), or only in one stable order
   * (a table: by a salted hash of the row, secret to the client).
   */
  tiesAsWritten: boolean;
  /**
   * The `stop_reason` of an answer whose budget is 0: `bytes` a search under `LOGPEEK_SEARCH_BYTES=0`,
   * `ms` one under `LOGPEEK_SEARCH_MS=0` (and a level count under `LOGPEEK_LEVELS_MS=0`).
   */
  zeroBudgetStop: { bytes: string; ms: string };
  /**
   * A byte budget (`LOGPEEK_SEARCH_BYTES`) that cuts a search of `gen/db` into several pages, each of which
   * makes progress (a cursor), so that paging on finishes it.
   */
  pagingBytes: number;
  /** Whether `log_search` gives `context` lines. */
  context: boolean;
  /** Whether `log_patterns` mines templates. */
  patterns: boolean;
  /**
   * The cases this backend fails by a known defect, each with its reason (the bug, named): they are
   * ignored on this backend, the reason printed as a SKIP line. Never a difference the contract allows.
   */
  knownBugs: Partial<Record<CaseId, string>>;
}

/** `2026-11-01 00:00:00`: how a file line gives its time (a table shows RFC 3339 instead). */
function fileTime(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 19).replace("T", " ");
}

/** `2026-11-01T00:00:00Z`: how a row's time is shown over a table in UTC (`LOGPEEK_TZ` unset). */
function rowTime(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 19) + "Z";
}

/**
 * The files backend: each source's entries as lines `YYYY-MM-DD HH:MM:SS LEVEL BODY` of `<root>/gen/<source>`.
 *
 * @param entries From {@linkcode contractEntries}.
 * @returns The backend, its root a new temporary folder.
 */
export function filesBackend(entries: Entry[]): Backend {
  const root = tempDir("logpeek-contract-");
  Deno.mkdirSync(join(root, "gen"));
  const render = (e: Entry) => `${fileTime(e.time)} ${e.level}${e.level === "" ? "" : " "}${e.body}`;
  for (const source of SOURCES) {
    const lines = entries.filter((e) => e.source === source).map((e) => render(e) + "\n");
    Deno.writeTextFileSync(join(root, "gen", source), lines.join(""));
  }
  return {
    name: "files",
    connect: (env = {}) => connect([root], { LOGPEEK_INLINE_CHARS: "100000000", ...env }),
    lineNumbers: true,
    render,
    searched: render,
    listedSize: (
      log,
    ) => [log.reduce((n, e) => n + new TextEncoder().encode(render(e) + "\n").length, 0), null],
    tiesAsWritten: true,
    zeroBudgetStop: { bytes: "size_budget", ms: "time_budget" },
    pagingBytes: 4000,
    context: true,
    patterns: true,
    knownBugs: {},
  };
}

/**
 * The rows of one granule of the contract's table (the default is 8192: all its rows would be one granule,
 * so that no query of a shorter time span would read less, and no byte budget could page a search).
 */
const GRANULE_ROWS = 64;

/**
 * The ClickHouse backend: the entries as rows of table `t.gen` (`Timestamp DateTime, Body String,
 * SeverityText String, ServiceName String`, the OpenTelemetry exporter's names, {@linkcode GRANULE_ROWS} rows
 * a granule), loaded as `JSONEachRow`.
 *
 * @param ch A running server with no database `t` yet.
 * @param entries From {@linkcode contractEntries}.
 * @throws {Error} when the server refuses a statement.
 */
export async function clickHouseBackend(ch: ClickHouse, entries: Entry[]): Promise<Backend> {
  const ok = async (sql: string) => {
    const r = await ch.query(sql);
    if (r.status !== 200) throw new Error(`${sql.slice(0, 80)}: ${r.status} ${r.body}`);
  };
  await ok("CREATE DATABASE t");
  await ok(
    "CREATE TABLE t.gen (Timestamp DateTime, Body String, SeverityText String, ServiceName String) " +
      `ENGINE = MergeTree ORDER BY (ServiceName, Timestamp) SETTINGS index_granularity = ${GRANULE_ROWS}`,
  );
  await ok(
    "INSERT INTO t.gen FORMAT JSONEachRow\n" +
      entries.map((e) =>
        JSON.stringify({
          Timestamp: fileTime(e.time),
          Body: e.body,
          SeverityText: e.level,
          ServiceName: e.source,
        })
      ).join("\n"),
  );
  const root = `clickhouse://127.0.0.1:${new URL(ch.url).port}/t.gen`;
  return {
    name: "clickhouse",
    connect: (env = {}) => connect([root], { LOGPEEK_INLINE_CHARS: "100000000", ...env }),
    lineNumbers: false,
    render: (e) => `${rowTime(e.time)} ${e.level === "" ? "-" : e.level} ${e.body}`,
    searched: (e) => e.body,
    listedSize: (log) => [null, log.length],
    tiesAsWritten: false,
    zeroBudgetStop: { bytes: "size_budget", ms: "time_budget" },
    // A query reads whole granules (64 rows, ~7 KB of db's columns) and one block per thread past its
    // limit; a search of all of db reads ~55 KB: 30000 bytes cuts it, and a span of a few granules fits.
    pagingBytes: 30000,
    context: false,
    patterns: false,
    knownBugs: {},
  };
}

/** An answer's text, all its parts. */
export function text(r: CallResult): string {
  return r.content.map((c) => c.text).join("\n");
}

// ---------------------------------------------------------------------------------------------------
// the cases

/** The cases' ids (what {@linkcode Backend.knownBugs} names). */
export type CaseId =
  | "list"
  | "tail_order"
  | "level_counts"
  | "search_complete"
  | "searched_text"
  | "filters"
  | "cursor_pages"
  | "budgets"
  | "budget_pages"
  | "budget_whole"
  | "secrets"
  | "errors"
  | "capabilities"
  | "tail_glob"
  | "line_cut";

/** One case of the contract: what it checks, over one session of a backend. */
export interface ContractCase {
  id: CaseId;
  name: string;
  /**
   * Checks the contract over `s`.
   *
   * @throws {AssertionError} where the backend breaks it.
   */
  run(s: Session): Promise<void>;
}

/** A returned line's fields every backend gives (`cut` aside), and the log it is in over a glob. */
interface Shown {
  line_no: number | null;
  level: string;
  text: string;
  file?: string;
}

/** How `b` must show entry `e`: its rendering with the secret masked, its number if it has numbers. */
function shownAs(b: Backend, e: Entry, glob = false): Shown {
  return {
    line_no: b.lineNumbers ? e.line : null,
    level: FOLD[e.level],
    text: b.render(e).replace(SECRET, MASKED),
    ...(glob ? { file: `gen/${e.source}` } : {}),
  };
}

/** A returned line's {@linkcode Shown} fields, in a fixed key order (for deepEqual). */
function pick(l: Shown): Shown {
  return {
    line_no: l.line_no,
    level: l.level,
    text: l.text,
    ...(l.file !== undefined ? { file: l.file } : {}),
  };
}

/** Lines as sorted JSON texts: a multiset, for answers whose order across logs a backend chooses. */
function bag(lines: Shown[]): string[] {
  return lines.map((l) => JSON.stringify(pick(l))).sort();
}

/** The entries a `file` argument (`gen/<source>` or the glob `gen/*`) names. */
function inLog(entries: Entry[], file: string): Entry[] {
  return file === "gen/*" ? entries : entries.filter((e) => `gen/${e.source}` === file);
}

/** Asserts an answer is no error, showing its text when it is. */
function ok(r: CallResult): void {
  assert.ok(!r.isError, text(r));
}

/** Every page of a paged `log_search`, following next_cursor (at most `maxPages`). */
async function pages(s: Session, args: Record<string, unknown>, maxPages = 200): Promise<CallResult[]> {
  const out: CallResult[] = [];
  let cursor: string | undefined;
  do {
    const r = await s.call("log_search", cursor ? { ...args, cursor } : args);
    ok(r);
    out.push(r);
    cursor = r.structuredContent.next_cursor ?? undefined;
    assert.ok(out.length <= maxPages, `no end after ${maxPages} pages: ${JSON.stringify(args)}`);
  } while (cursor);
  return out;
}

/**
 * The contract's cases for `b`, loaded with `entries` ({@linkcode contractEntries}); every number a case
 * asserts is computed from `entries`.
 */
export function contractCases(b: Backend, entries: Entry[]): ContractCase[] {
  return [
    listCase(b, entries),
    tailCase(b, entries),
    levelsCase(entries),
    searchCase(b, entries),
    searchedCase(b, entries),
    filtersCase(b, entries),
    cursorCase(b, entries),
    budgetsCase(b, entries),
    budgetPagesCase(b, entries),
    budgetWholeCase(b, entries),
    secretsCase(b, entries),
    errorsCase(),
    capabilitiesCase(b, entries),
    tailGlobCase(),
    lineCutCase(b, entries),
  ];
}

/**
 * Runs every case of {@linkcode contractCases} as a step of `t`, over one session of `b`; a case in
 * `b.knownBugs` is an ignored step, its reason printed as a SKIP line on stderr.
 */
export async function runContract(t: Deno.TestContext, b: Backend, entries: Entry[]): Promise<void> {
  await using s = await b.connect();
  for (const c of contractCases(b, entries)) {
    const bug = b.knownBugs[c.id];
    if (bug !== undefined) console.error(`SKIP the contract case "${c.name}" over ${b.name}: ${bug}`);
    await t.step({ name: `${b.name}: ${c.name}`, ignore: bug !== undefined, fn: () => c.run(s) });
  }
}

function listCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "list",
    name: "log_files lists each log once, by name, with its size, complete",
    async run(s) {
      const r = await s.call("log_files", {});
      ok(r);
      const names = [...new Set(entries.map((e) => `gen/${e.source}`))].sort();
      const files = r.structuredContent.files;
      assert.deepEqual(files.map((f: { file: string }) => f.file), names);
      assert.deepEqual(
        files.map((
          f: { file: string; size_bytes: number | null; rows?: number },
        ) => [f.size_bytes, f.rows ?? null]),
        names.map((n) => b.listedSize(inLog(entries, n))),
      );
      assert.equal(r.structuredContent.complete, true);
    },
  };
}

function tailCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "tail_order",
    name: "log_tail: the last N entries, oldest first; equal times in a stable order",
    async run(s) {
      // api ends with 13 entries of one second (10 identical): 5 and 17 cut a second, 13 and 20 do not.
      for (
        const [source, n] of [["api", 5], ["api", 13], ["api", 17], ["api", 20], ["db", 9], [
          "worker",
          1,
        ]] as const
      ) {
        const mine = entries.filter((e) => e.source === source);
        const want = mine.slice(-n);
        const args = { file: `gen/${source}`, lines: n };
        const r = await s.call("log_tail", args);
        ok(r);
        const got: Shown[] = r.structuredContent.lines.map(pick);
        const again = await s.call("log_tail", args);
        assert.deepEqual(again.structuredContent.lines.map(pick), got, "a second call: the same order");
        assertTail(b, got, mine, want, JSON.stringify(args));
      }
    },
  };
}

/**
 * Asserts `got` is the tail `want` (the last entries of `mine` in scope, oldest first): exactly, where
 * ties come as written; else each time as `want`'s, each second but the first whole, the first second's
 * entries some of `mine`'s at that time (which of them a stable order chooses).
 */
function assertTail(b: Backend, got: Shown[], mine: Entry[], want: Entry[], what: string): void {
  if (b.tiesAsWritten) {
    assert.deepEqual(got, want.map((e) => shownAs(b, e)), what);
    return;
  }
  const timeOf = timesOf(b, mine);
  assert.deepEqual(got.map((l) => timeOf.get(l.text)), want.map((e) => e.time), what);
  for (const time of new Set(want.map((e) => e.time))) {
    const at = bag(got.filter((l) => timeOf.get(l.text) === time));
    const first = time === want[0].time;
    const all = bag((first ? mine : want).filter((e) => e.time === time).map((e) => shownAs(b, e)));
    if (!first) assert.deepEqual(at, all, `${what} at ${time}`);
    else assert.ok(subBag(at, all), `${what}: ${at} not among ${all}`);
  }
}

/** Whether the sorted multiset `part` is within the sorted multiset `all`. */
function subBag(part: string[], all: string[]): boolean {
  let j = 0;
  for (const x of part) {
    while (j < all.length && all[j] < x) j++;
    if (all[j] !== x) return false;
    j++;
  }
  return true;
}

/** Entries per level, only the levels that occur. */
function levelCounts(entries: Entry[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of entries) out[FOLD[e.level]] = (out[FOLD[e.level]] ?? 0) + 1;
  return out;
}

/** An answer's `counts` without its zeros. */
function nonzero(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== 0).sort());
}

/** `YYYY-MM-DDTHH:MM:SSZ` of Unix seconds. */
function iso(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 19) + "Z";
}

function levelsCase(entries: Entry[]): ContractCase {
  return {
    id: "level_counts",
    name: "log_levels: exact counts per level, of a log, over a glob (per log) and in a window",
    async run(s) {
      for (const file of ["gen/db", "gen/*"]) {
        const mine = inLog(entries, file);
        const r = await s.call("log_levels", { file });
        ok(r);
        const sc = r.structuredContent;
        assert.deepEqual(nonzero(sc.counts), nonzero(levelCounts(mine)), file);
        assert.equal(sc.total_lines, mine.length, file);
        assert.equal(sc.complete, true, file);
        assert.equal(sc.stop_reason, null, file);
        if (file !== "gen/*") continue;
        const perLog = Object.fromEntries(
          sc.logs.map((l: { file: string; counts: Record<string, number> }) => [l.file, nonzero(l.counts)]),
        );
        const want = Object.fromEntries(
          SOURCES.map((x) => [`gen/${x}`, nonzero(levelCounts(inLog(entries, `gen/${x}`)))]),
        );
        assert.deepEqual(perLog, want);
      }
      // since inclusive, until exclusive.
      const since = BASE + 30, until = BASE + 60;
      const r = await s.call("log_levels", { file: "gen/api", since: iso(since), until: iso(until) });
      ok(r);
      const mine = inLog(entries, "gen/api").filter((e) => e.time >= since && e.time < until);
      assert.deepEqual(nonzero(r.structuredContent.counts), nonzero(levelCounts(mine)));
      assert.equal(r.structuredContent.total_lines, mine.length);
    },
  };
}

function searchCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "search_complete",
    name: "log_search: a text over a log and over a glob, every match once, complete",
    async run(s) {
      for (const [file, find] of [["gen/*", "checksum mismatch"], ["gen/worker", "took 12"]]) {
        const want = inLog(entries, file).filter((e) => b.searched(e).includes(find));
        assert.ok(want.length > 5, `${find}: ${want.length}`);
        const r = await s.call("log_search", { file, text: find, limit: 1000 });
        ok(r);
        const sc = r.structuredContent;
        assert.deepEqual(bag(sc.matches), bag(want.map((e) => shownAs(b, e, file === "gen/*"))), find);
        assert.equal(sc.complete, true);
        assert.equal(sc.stop_reason, null);
        assert.equal(sc.next_cursor, null);
      }
    },
  };
}

/** The time of each shown text of `entries` (a shown text holds its time, so it is one entry's or its twins'). */
function timesOf(b: Backend, entries: Entry[]): Map<string, number> {
  return new Map(entries.map((e) => [shownAs(b, e).text, e.time]));
}

function cursorCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "cursor_pages",
    name: "log_search pages: a small limit paged to the end is the whole answer, nothing lost or repeated",
    async run(s) {
      const timeOf = timesOf(b, entries);
      for (
        const [args, limits, match] of [
          [
            { file: "gen/api", text: "twin event" },
            [1, 4],
            (e: Entry) => b.searched(e).includes("twin event"),
          ],
          [
            { file: "gen/*", text: "checksum mismatch" },
            [7],
            (e: Entry) => b.searched(e).includes("checksum mismatch"),
          ],
          [{ file: "gen/*", text: "login ok" }, [5], (e: Entry) => b.searched(e).includes("login ok")],
          [
            { file: "gen/db", text: "took [0-9]+0ms", regex: true },
            [9],
            (e: Entry) => /took [0-9]+0ms/.test(b.searched(e)),
          ],
        ] as const
      ) {
        const glob = args.file === "gen/*";
        const want = inLog(entries, args.file).filter(match).map((e) => shownAs(b, e, glob));
        for (const limit of limits) {
          const what = `${JSON.stringify(args)} limit ${limit}`;
          const all = await pages(s, { ...args, limit });
          const got: Shown[] = all.flatMap((p) => p.structuredContent.matches);
          assert.ok(all.length >= Math.ceil(want.length / limit), `${what}: ${all.length} pages`);
          assert.deepEqual(bag(got), bag(want), what);
          for (const p of all.slice(0, -1)) {
            assert.equal(p.structuredContent.complete, false, what);
            assert.equal(p.structuredContent.stop_reason, "limit", what);
          }
          assert.equal(all.at(-1)!.structuredContent.complete, true, what);
          // Within each log, in order: by time, and by line number where lines have numbers.
          for (const file of new Set(got.map((m) => m.file ?? args.file))) {
            const own = got.filter((m) => (m.file ?? args.file) === file);
            const times = own.map((m) => timeOf.get(m.text)!);
            assert.ok(
              times.every((t, i) => i === 0 || t >= times[i - 1]),
              `${what}: ${file} out of time order`,
            );
            if (b.lineNumbers) {
              assert.ok(own.every((m, i) => i === 0 || m.line_no! > own[i - 1].line_no!), `${what}: ${file}`);
            }
          }
        }
      }
    },
  };
}

function budgetsCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "budgets",
    name: "a budget of 0 stops the answer with complete: false, its stop_reason, no cursor, no false match",
    async run() {
      const want = bag(
        entries.filter((e) => b.searched(e).includes("request 1")).map((e) => shownAs(b, e, true)),
      );
      for (
        const [env, stop] of [
          [{ LOGPEEK_SEARCH_BYTES: "0" }, b.zeroBudgetStop.bytes],
          [{ LOGPEEK_SEARCH_MS: "0" }, b.zeroBudgetStop.ms],
        ] as const
      ) {
        await using z = await b.connect(env);
        const r = await z.call("log_search", { file: "gen/*", text: "request 1" });
        ok(r);
        const sc = r.structuredContent;
        assert.equal(sc.complete, false, JSON.stringify(env));
        assert.equal(sc.stop_reason, stop, JSON.stringify(env));
        assert.equal(sc.next_cursor, null, JSON.stringify(env));
        assert.equal(sc.progress, false, JSON.stringify(env));
        assert.ok(subBag(bag(sc.matches), want), JSON.stringify(env));
        assert.match(text(r), /NOT complete/);
      }
      await using z = await b.connect({ LOGPEEK_LEVELS_MS: "0" });
      const r = await z.call("log_levels", { file: "gen/db" });
      ok(r);
      const sc = r.structuredContent;
      assert.equal(sc.complete, false);
      assert.equal(sc.stop_reason, b.zeroBudgetStop.ms);
      const truth = levelCounts(inLog(entries, "gen/db"));
      for (const [level, n] of Object.entries(sc.counts)) {
        assert.ok(n as number <= (truth[level] ?? 0), level);
      }
      assert.ok(sc.total_lines <= inLog(entries, "gen/db").length);
    },
  };
}

/** `log_search` of `took 1` in `gen/db` under `b.pagingBytes`, every page; and the matches it must give. */
async function budgetedSearch(b: Backend, entries: Entry[]): Promise<{ all: CallResult[]; want: Shown[] }> {
  await using z = await b.connect({ LOGPEEK_SEARCH_BYTES: String(b.pagingBytes) });
  const want = inLog(entries, "gen/db").filter((e) => b.searched(e).includes("took 1")).map((e) =>
    shownAs(b, e)
  );
  const all = await pages(z, { file: "gen/db", text: "took 1", limit: 1000 });
  assert.ok(all.length > 2, `${all.length} pages`);
  assert.equal(all[0].structuredContent.complete, false);
  assert.equal(all[0].structuredContent.stop_reason, "size_budget");
  assert.equal(all.at(-1)!.structuredContent.complete, true, text(all.at(-1)!));
  return { all, want };
}

function budgetPagesCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "budget_pages",
    name: "a byte budget cuts a search into pages (size_budget); paged to the end, each match found once",
    async run() {
      const { all, want } = await budgetedSearch(b, entries);
      const got: Shown[] = all.flatMap((p) => p.structuredContent.matches.map(pick));
      assert.equal(got.length, want.length);
      // One to one, a match's text whole or a beginning of it (the case below asks for it whole); the
      // longest first, so that a short beginning takes what the others leave.
      const left = [...want];
      for (const m of [...got].sort((x, y) => y.text.length - x.text.length)) {
        const i = left.findIndex((w) =>
          w.line_no === m.line_no && w.level === m.level && w.text.startsWith(m.text)
        );
        assert.ok(i >= 0, `${JSON.stringify(m)}: no such line, or found twice`);
        left.splice(i, 1);
      }
    },
  };
}

function budgetWholeCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "budget_whole",
    name: "and each match of a budgeted page is its whole line, as without a budget",
    async run() {
      const { all, want } = await budgetedSearch(b, entries);
      const got = all.flatMap((p) => p.structuredContent.matches);
      assert.deepEqual(bag(got), bag(want));
      assert.ok(got.every((m: { cut: boolean }) => m.cut === false));
    },
  };
}

function secretsCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "secrets",
    name: "a password in an entry is shown masked in log_tail and log_search",
    async run(s) {
      // db's last 49 entries are its last seven seconds, whole (seven a second): no tie is cut.
      const tail = await s.call("log_tail", { file: "gen/db", lines: 49 });
      ok(tail);
      const last = inLog(entries, "gen/db").slice(-49);
      assert.deepEqual(bag(tail.structuredContent.lines), bag(last.map((e) => shownAs(b, e))));
      const secrets = last.filter((e) => SECRET.test(e.body)).length;
      assert.ok(secrets > 0);
      assert.equal(tail.structuredContent.redactions, secrets);
      assert.doesNotMatch(text(tail), /hunter2x/);
      assert.equal(text(tail).split(MASKED).length - 1, secrets);
      for (
        const [args, match] of [
          [{ text: "login ok" }, (e: Entry) => b.searched(e).includes("login ok")],
          // A literal text is matched on the entry as written (a guessed secret finds it), shown masked.
          [{ text: "hunter2x3" }, (e: Entry) => b.searched(e).includes("hunter2x3")],
          // A pattern is matched on the text as shown: the secret is not there.
          [{ text: "hunter2x3", regex: true }, () => false],
        ] as const
      ) {
        const r = await s.call("log_search", { file: "gen/*", limit: 1000, ...args });
        ok(r);
        const want = entries.filter(match).map((e) => shownAs(b, e, true));
        assert.deepEqual(bag(r.structuredContent.matches), bag(want), JSON.stringify(args));
        assert.equal(r.structuredContent.complete, true);
        // (The header repeats the text asked for: only the lines are checked.)
        assert.doesNotMatch(JSON.stringify(r.structuredContent.matches), /hunter2x/);
      }
    },
  };
}

function errorsCase(): ContractCase {
  return {
    id: "errors",
    name:
      "errors are explained: a missing log (the closest names), a glob of nothing, a bad pattern, a wrong cursor",
    async run(s) {
      const calls: [string, Record<string, unknown>, RegExp][] = [
        ["log_tail", { file: "gen/apj" }, /^not_found: .*closest.*gen\/api/],
        ["log_search", { file: "gen/apj", text: "x" }, /^not_found: .*closest.*gen\/api/],
        ["log_levels", { file: "gen/apj" }, /^not_found: .*closest.*gen\/api/],
        ["log_search", { file: "nope/*", text: "x" }, /^not_found: .*nope\/\*.*closest.*gen\//],
        ["log_levels", { file: "nope/*" }, /^not_found: .*nope\/\*.*closest.*gen\//],
        ["log_search", { file: "gen/api", text: "(", regex: true }, /^invalid_pattern/],
      ];
      for (const [tool, args, re] of calls) {
        const r = await s.call(tool, args);
        const what = `${tool} ${JSON.stringify(args)}`;
        assert.equal(r.isError, true, `${what}: ${text(r)}`);
        assert.match(text(r), re, what);
        assert.doesNotMatch(text(r), /internal_error/, what);
      }
      // A cursor resumes only the call that gave it.
      const first = await s.call("log_search", { file: "gen/*", text: "request", limit: 2 });
      ok(first);
      const cursor = first.structuredContent.next_cursor;
      assert.ok(cursor);
      for (
        const [tool, args] of [["log_search", { file: "gen/*", text: "requesT", limit: 2 }], ["log_levels", {
          file: "gen/*",
        }]] as const
      ) {
        const r = await s.call(tool, { ...args, cursor });
        assert.equal(r.isError, true, `${tool}: ${text(r)}`);
        assert.match(text(r), /^invalid_cursor/, tool);
      }
      const forged = await s.call("log_search", {
        file: "gen/*",
        text: "request",
        limit: 2,
        cursor: cursor.slice(0, -2) + "xx",
      });
      assert.match(text(forged), /^invalid_cursor/);
    },
  };
}

function capabilitiesCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "capabilities",
    name: "context lines and log_patterns: given where the backend has them, else an explained error",
    async run(s) {
      const api = inLog(entries, "gen/api");
      const hit = api.find((e) => e.body.startsWith("checksum mismatch"))!;
      const r = await s.call("log_search", {
        file: "gen/api",
        text: "checksum mismatch",
        context: 1,
        limit: 1,
      });
      if (b.context) {
        ok(r);
        const m = r.structuredContent.matches[0];
        assert.deepEqual(pick(m), shownAs(b, hit));
        assert.deepEqual(m.before.map(pick), [shownAs(b, api[hit.line - 2])]);
        assert.deepEqual(m.after.map(pick), [shownAs(b, api[hit.line])]);
      } else {
        assert.equal(r.isError, true, text(r));
        assert.match(text(r), /^invalid_argument: .*context/);
      }
      const p = await s.call("log_patterns", { file: "gen/api" });
      if (b.patterns) {
        ok(p);
        const mined = p.structuredContent.templates.reduce(
          (n: number, x: { count: number }) => n + x.count,
          0,
        );
        assert.equal(mined, api.length);
        assert.equal(p.structuredContent.complete, true);
      } else {
        assert.equal(p.isError, true, text(p));
        assert.match(text(p), /^invalid_argument: .*log_patterns/);
      }
    },
  };
}

function tailGlobCase(): ContractCase {
  return {
    id: "tail_glob",
    name: "log_tail over a glob is refused, saying it takes one log",
    async run(s) {
      const r = await s.call("log_tail", { file: "gen/*" });
      assert.equal(r.isError, true, text(r));
      assert.match(text(r), /^invalid_argument: .*one log/);
    },
  };
}

function searchedCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "searched_text",
    name: "log_search matches on what the backend searches (a file's whole line, a row's body), any case",
    async run(s) {
      for (
        const [args, match] of [
          [{ file: "gen/*", text: "00:01:3" }, (x: string) => x.includes("00:01:3")],
          [{ file: "gen/api", text: "WARN" }, (x: string) => x.includes("WARN")],
          [{ file: "gen/db", text: "^login ok", regex: true }, (x: string) => /^login ok/.test(x)],
          [{ file: "gen/*", text: "REQUEST 12", ignore_case: true }, (x: string) => x.includes("request 12")],
          [
            { file: "gen/*", text: "Twin.*ID=8", regex: true, ignore_case: true },
            (x: string) => /twin.*id=8/i.test(x),
          ],
        ] as const
      ) {
        const glob = args.file === "gen/*";
        const want = inLog(entries, args.file).filter((e) =>
          match(b.searched(e).toLowerCase()) || match(b.searched(e))
        );
        const r = await s.call("log_search", { ...args, limit: 1000 });
        ok(r);
        assert.deepEqual(
          bag(r.structuredContent.matches),
          bag(want.map((e) => shownAs(b, e, glob))),
          JSON.stringify(args),
        );
        assert.equal(r.structuredContent.complete, true);
      }
    },
  };
}

function filtersCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "filters",
    name: "a level and a time window (since inclusive, until exclusive) narrow log_search and log_tail",
    async run(s) {
      const since = BASE + 20, until = BASE + 70;
      const window = { since: iso(since), until: iso(until) };
      const inWindow = (e: Entry) => e.time >= since && e.time < until;
      for (
        const [args, match] of [
          [
            { text: "request", level: "WARN", ...window },
            (e: Entry) => FOLD[e.level] === "WARN" && inWindow(e),
          ],
          [{ text: "request", level: "UNKNOWN" }, (e: Entry) => FOLD[e.level] === "UNKNOWN"],
          [
            { text: "request", level: "FATAL", since: window.since },
            (e: Entry) => FOLD[e.level] === "FATAL" && e.time >= since,
          ],
        ] as const
      ) {
        const want = entries.filter((e) => match(e) && b.searched(e).includes("request"));
        assert.ok(want.length > 30, `${JSON.stringify(args)}: ${want.length}`);
        const all = await pages(s, { file: "gen/*", ...args, limit: 25 });
        const got = all.flatMap((p) => p.structuredContent.matches);
        assert.deepEqual(bag(got), bag(want.map((e) => shownAs(b, e, true))), JSON.stringify(args));
        assert.equal(all.at(-1)!.structuredContent.complete, true);
      }
      for (
        const [args, match] of [
          [{ file: "gen/db", lines: 6, level: "ERROR" }, (e: Entry) => FOLD[e.level] === "ERROR"],
          [
            { file: "gen/worker", lines: 100, since: iso(BASE + 50), until: iso(BASE + 55) },
            (e: Entry) => e.time >= BASE + 50 && e.time < BASE + 55,
          ],
          [
            { file: "gen/api", lines: 4, level: "INFO", until: window.until },
            (e: Entry) => FOLD[e.level] === "INFO" && e.time < until,
          ],
        ] as const
      ) {
        const mine = inLog(entries, args.file).filter(match);
        const r = await s.call("log_tail", args);
        ok(r);
        assertTail(
          b,
          r.structuredContent.lines.map(pick),
          mine,
          mine.slice(-args.lines),
          JSON.stringify(args),
        );
      }
    },
  };
}

function lineCutCase(b: Backend, entries: Entry[]): ContractCase {
  return {
    id: "line_cut",
    name: "a line longer than LOGPEEK_MAX_LINE is returned cut at that many characters, and says cut",
    async run(s) {
      const long = inLog(entries, "gen/worker").filter((e) => e.body.length >= LONG_BODY);
      assert.equal(long.length, 1);
      const r = await s.call("log_search", { file: "gen/worker", text: "payload dump" });
      ok(r);
      const m = r.structuredContent.matches;
      assert.equal(m.length, 1);
      assert.equal(m[0].cut, true);
      assert.equal(m[0].text, [...shownAs(b, long[0]).text].slice(0, MAX_LINE).join(""));
    },
  };
}
