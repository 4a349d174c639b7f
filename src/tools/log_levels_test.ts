import assert from "node:assert/strict";
import { renderLevels } from "./log_levels.ts";
import type { LevelsAnswer } from "../source/backend.ts";
import type { LevelCounts } from "../source/levels_query.ts";

const levels = (more: Partial<LevelCounts>): LevelCounts => ({
  TRACE: 0,
  DEBUG: 0,
  INFO: 0,
  NOTICE: 0,
  WARN: 0,
  ERROR: 0,
  FATAL: 0,
  UNKNOWN: 0,
  ...more,
});

const answer = (more: Partial<LevelsAnswer>): LevelsAnswer => ({
  file: "app.log",
  counts: levels({ INFO: 3, ERROR: 4 }),
  entries: levels({ INFO: 3, ERROR: 1 }),
  continuation_lines: 3,
  unscaled_levels: 0,
  total_lines: 7,
  last_line: 7,
  log_format: null,
  complete: true,
  stop_reason: null,
  next_cursor: null,
  progress: true,
  scanned_bytes: 100,
  logs_order: "newest first",
  not_read_count: 0,
  untimed_logs: [],
  seek_broken: false,
  time: {},
  unit: "line",
  scope: "",
  ...more,
});

Deno.test("renderLevels: a file's counts, its entries where they differ, and what they cover", () => {
  assert.equal(
    renderLevels(answer({})),
    "app.log: 7 line(s): INFO 3, ERROR 4 (1 entry); 0 of TRACE, DEBUG, NOTICE, WARN, FATAL, UNKNOWN; 3 of the " +
      "lines continue the entry before them (stack traces, indented lines) and are counted under its level. " +
      "complete: every line was counted.",
  );
  assert.match(
    renderLevels(answer({ complete: false, stop_reason: "time_budget" })),
    /\. NOT complete \(stop_reason: time_budget\): the time budget \(LOGPEEK_LEVELS_MS\) ran out after 7 lines;.*; these counts cover only the lines before that point\.$/,
  );
  assert.match(
    renderLevels(answer({ complete: false, stop_reason: null })),
    /\. NOT complete: some matching logs were not read, or their lines could not be placed in the window \(see below\)\.$/,
  );
  assert.match(
    renderLevels(answer({ time: { window: { since: null, until: "x", zone: "UTC" } } })),
    /complete: every line in the window was counted\.$/,
  );
});

Deno.test("renderLevels: a table's rows, with the backend's words for how levels were told and what was read", () => {
  const counts = levels({ WARN: 2 });
  assert.equal(
    renderLevels(answer({
      file: "gen/*",
      counts,
      entries: counts,
      continuation_lines: 0,
      total_lines: 2,
      unit: "row",
      scope: "level texts as stored; a table has no line numbers (-)",
      stop_words: "complete: every row in scope was read (2 rows)",
    })),
    "gen/*: 2 row(s): WARN 2; 0 of TRACE, DEBUG, INFO, NOTICE, ERROR, FATAL, UNKNOWN (level texts as stored; " +
      "a table has no line numbers (-)). complete: every row in scope was read (2 rows).",
  );
});
