import assert from "node:assert/strict";
import { filesHeader, MAX_FILES } from "./log_files.ts";
import { countStopped } from "../source/list_logs.ts";

const entry = (file: string) => ({
  file,
  size_bytes: 2,
  modified: null,
  format: "text",
  unsupported: null,
  compression: null,
  readable: true,
  reason: null,
  modified_ms: null,
});

Deno.test("filesHeader names how many entries are not listed, and when that count is only a lower bound", () => {
  const files = Array.from({ length: MAX_FILES }, (_, i) => entry(`f${i}.log`));
  assert.equal(
    filesHeader({ files, complete: false, unreadable: [], not_listed: 5, next: null }),
    "1000 log file(s) listed; the list is NOT complete: 5 entries not listed (only the first 1000 files are listed).",
  );
  assert.equal(
    filesHeader({
      files,
      complete: false,
      unreadable: ["x: NotFound", countStopped(2000)],
      not_listed: 40,
      next: null,
    }),
    "1000 log file(s) listed; the list is NOT complete: at least 40 entries not listed (only the first 1000 " +
      "files are listed); the count stopped at its time budget, so more may exist; not listed: x: NotFound " +
      "(and 39 more).",
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
