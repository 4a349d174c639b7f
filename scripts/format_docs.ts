/**
 * Writes `docs/formats.md`: the table of programs' default log formats logpeek detects (issue #23 item 2),
 * each with its program, kind, documentation, how its levels and times are written and what its
 * continuation lines look like, all from `src/read/log_format.ts`'s `LOG_FORMATS`, so the page cannot drift.
 *
 * Usage: `deno run --allow-read --allow-write=docs scripts/format_docs.ts` (writes the page);
 * `--check` exits 1 when the page is not what this script makes (`src/read/log_format_test.ts` checks too).
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { LOG_FORMATS, MIN_MATCH, SAMPLE_LINES } from "../src/read/log_format.ts";

/** Where the page is. */
export const FORMATS_MD = fileURLToPath(new URL("../docs/formats.md", import.meta.url));

/** A table cell: `|` escaped, on one line. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** The levels a format writes, as `written → LEVEL`; "none written" for a format without a level. */
function levelsOf(levels: Readonly<Record<string, string>>): string {
  const entries = Object.entries(levels);
  if (entries.length === 0) return "none written (UNKNOWN; general rules for a level in the message)";
  if (entries.length > 40) {
    return "PRI % 8 (RFC 5424 §6.2.1): 0–2 FATAL, 3 ERROR, 4 WARN, 5 NOTICE, 6 INFO, 7 DEBUG";
  }
  return entries.map(([w, l]) => `\`${w}\` ${l}`).join(", ");
}

/**
 * The page's text.
 *
 * @returns The Markdown of `docs/formats.md`.
 */
export function formatsDoc(): string {
  const rows = LOG_FORMATS.map((f) =>
    `| \`${f.name}\` | ${cell(f.program)} | ${f.kind} | ${cell(f.url)} | ${cell(levelsOf(f.levels))}${
      f.own ? " (own reading)" : ""
    } | ${cell(f.time)} | ${cell(f.continuation)} |`
  );
  return [
    "# Log formats logpeek detects",
    "",
    "<!-- Made by scripts/format_docs.ts from src/read/log_format.ts; do not edit by hand. -->",
    "",
    `The default log formats of ${LOG_FORMATS.length} widely deployed programs, each written from the program's`,
    "own documentation (the source column). Every reading answer (`log_tail`, `log_search`, `log_levels`,",
    "`log_patterns`) and every text log in `log_files` names the format it read the log as in `log_format`;",
    "`null` means none matched and the general rules of `src/read/level.ts` read the levels.",
    "",
    "**Detection** (`detectFormat`): once per file, on the first " +
    `${SAMPLE_LINES} lines of its first 32 KiB (the head the time`,
    "layer learns from) that are not continuation lines: the lines the general rules call continuation",
    "lines (stack frames, indented lines) are not counted, nor, for one format, lines of its own continuation pattern (PostgreSQL's `DETAIL:`, W3C's",
    "`#Fields:`); ANSI colour codes are skipped. A format wins when it matches more than half of the lines",
    `left and at least ${MIN_MATCH} of them (or every line of a shorter sample); the most matching lines win, a`,
    "tie the format listed first (the more specific). A file of mixed formats with no clear majority, or of",
    "none, is read by the general rules.",
    "",
    "**Levels.** Where the general rules already read a format's levels right, they still read them (no",
    "cost). Where they misread them, the format reads its own (marked *own reading*): Redis's symbols, .NET's",
    "`info:`/`fail:`, PostgreSQL's `LOG:` and its `DETAIL:`/`STATEMENT:` continuation lines, MySQL's and",
    "MariaDB's `[Note]`/`[System]`, MongoDB's `\"s\"`, Docker's and CRI's wrapped messages, … —",
    "`src/read/log_format_test.ts` checks, on lines written from each program's documentation, that each",
    "own reading is needed and that every other format's levels are read right by the general rules.",
    "",
    "**Cost.** Detection reads a log's first 32 KiB once per call (a listing: once per text log) and tests",
    "its first lines against every pattern: about 0.1 ms a log (measured in one process on 1,000 logs cut from",
    "both corpora: 107 ms of detection, 25 ms of reading), nothing per line. A log of a format with its own",
    "level reading pays a decode and a pattern per line (in one process, 116–173 MB/s on Redis, PostgreSQL",
    "and .NET lines written from their docs); every other log keeps the general rules' scan.",
    "",
    "| name | program | kind | source | levels (as written → logpeek) | time | continuation lines |",
    "| ---- | ------- | ---- | ------ | ----------------------------- | ---- | ------------------ |",
    ...rows,
    "",
  ].join("\n");
}

if (import.meta.main) {
  const page = formatsDoc();
  if (Deno.args.includes("--check")) {
    if (Deno.readTextFileSync(FORMATS_MD) !== page) {
      console.error("docs/formats.md is not current: run scripts/format_docs.ts");
      Deno.exit(1);
    }
  } else {
    Deno.writeTextFileSync(FORMATS_MD, page);
    console.error(`wrote ${FORMATS_MD} (${page.length} characters)`);
  }
}
