import assert from "node:assert/strict";
import { filesHeader, MAX_FILES, renderEntry } from "./log_files.ts";
import { countStopped } from "../source/local/list_logs.ts";
import type { LogEntry } from "../source/log_source.ts";

const entry = (file: string, more: Partial<LogEntry> = {}): LogEntry => ({
  file,
  size_bytes: 2,
  modified: null,
  format: "text",
  unsupported: null,
  compression: null,
  readable: true,
  reason: null,
  modified_ms: null,
  ...more,
});
const NEXT = { file: "f999.log", modified_ms: null };

Deno.test("filesHeader names how many entries are not listed, and when that count is only a lower bound", () => {
  const files = Array.from({ length: MAX_FILES }, (_, i) => entry(`f${i}.log`));
  assert.equal(
    filesHeader({ files, complete: false, unreadable: [], not_listed: 5, next: NEXT }),
    "1000 log file(s) listed; the list is NOT complete: 5 entries not listed (only the first 1000 files are " +
      "listed). Pass next_cursor as cursor (same glob and sort) for the next page.",
  );
  assert.equal(
    filesHeader({
      files,
      complete: false,
      unreadable: ["x: NotFound", countStopped(2000)],
      not_listed: 40,
      next: NEXT,
    }),
    "1000 log file(s) listed; the list is NOT complete: at least 40 entries not listed (only the first 1000 " +
      "files are listed); the count stopped at its time budget, so more may exist; not listed: x: NotFound " +
      "(and 39 more). Pass next_cursor as cursor (same glob and sort) for the next page.",
  );
  assert.equal(
    filesHeader({
      files: [entry("a.log")],
      complete: false,
      unreadable: ["out: a link"],
      not_listed: 1,
      next: null,
    }),
    "1 log file(s) listed; the list is NOT complete: 1 entry not listed; not listed: out: a link.",
  );
});

Deno.test("filesHeader says the glob, the order and the page; counts what is not read, and why", () => {
  const files = [
    entry("b.log.xz", {
      format: "xz",
      unsupported: "xz-compressed; run …",
      readable: false,
      reason: "unsupported_format: xz-compressed; run …",
    }),
    entry("c.log", {
      format: null,
      readable: false,
      reason: "permission_denied: no permission to read c.log",
    }),
  ];
  assert.equal(
    filesHeader({ files, complete: false, unreadable: [], not_listed: 3, next: NEXT }, {
      glob: "*.log*",
      sort: "modified",
      paged: true,
    }),
    "2 log file(s) listed matching the glob '*.log*', newest first, after the cursor; the list is NOT complete: " +
      "3 entries not listed (only 2 files are listed). Pass next_cursor as cursor (same glob and sort) for the " +
      "next page. 1 of them in a format log_tail, log_search and log_levels do not read (marked NOT READ). " +
      "1 of them could not be opened (marked NOT READ, with why).",
  );
  assert.equal(
    filesHeader({ files: [], complete: true, unreadable: [], not_listed: 0, next: null }, { glob: "x\ny" }),
    "0 log file(s) matching the glob 'x\\ny'; the list is complete.",
  );
});

Deno.test("renderEntry: one line, tab-separated; gzip marked; not read with the reason", () => {
  assert.equal(
    renderEntry(
      entry("a.log.1.gz", { size_bytes: 10, modified: "2024-01-01T00:00:00.000Z", compression: "gzip" }),
    ),
    "a.log.1.gz\t10 bytes\t2024-01-01T00:00:00.000Z\tgzip",
  );
  assert.equal(
    renderEntry(entry("c\tx.log", { format: null, readable: false, reason: "permission_denied: no" })),
    "c\\tx.log\t2 bytes\t?\tNOT READ: permission_denied: no",
  );
  assert.equal(
    renderEntry(
      entry("b.xz", {
        unsupported: "xz-compressed; run …",
        readable: false,
        reason: "unsupported_format: x",
      }),
    ),
    "b.xz\t2 bytes\t?\tNOT READ: xz-compressed; run …",
  );
});

Deno.test("filesHeader and renderEntry over a table: the backend's words, each log with its rows", () => {
  const listed_as = {
    what: "log(s) in clickhouse://h:1/t.gen (each a value of its source column, named gen/<source>)",
    items: "logs",
  };
  const files = [entry("gen/api", { size_bytes: null, rows: 7, format: "clickhouse" })];
  assert.equal(
    filesHeader({ files, complete: false, unreadable: [], not_listed: 2, next: NEXT, listed_as }),
    "1 log(s) in clickhouse://h:1/t.gen (each a value of its source column, named gen/<source>) listed; " +
      "the list is NOT complete: 2 entries not listed (only the first 1 logs are listed). Pass next_cursor as " +
      "cursor (same glob and sort) for the next page.",
  );
  assert.equal(renderEntry(files[0]), "gen/api\t7 rows\t?");
  assert.equal(
    renderEntry(
      entry("gen/x", { size_bytes: null, rows: 0, readable: false, reason: "invalid_argument: masked" }),
    ),
    "gen/x\t0 rows\t?\tNOT READ: invalid_argument: masked",
  );
});

Deno.test("filesHeader names the closest names a backend gave for a glob that matched nothing", () => {
  assert.equal(
    filesHeader(
      {
        files: [],
        complete: true,
        unreadable: [],
        not_listed: 0,
        next: null,
        closest: ["rot/app.log", "a\tb"],
      },
      { glob: "rto/app.lg" },
    ),
    "0 log file(s) matching the glob 'rto/app.lg'; the list is complete. No log matches; the closest names: " +
      "rot/app.log, a\\tb.",
  );
});
