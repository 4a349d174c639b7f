/**
 * `log_search` with a regular expression, through the scanner's byte-DFA path (`hand_lines.ts`
 * `handPickedLines`, patterns without a required literal) and the DFA's check before RE2JS (patterns
 * with one), against `rg -n` on Loghub's logs: the same line numbers at piece sizes from 1 byte to 64 KiB,
 * on `\n` and `\r\n` line ends (`rg --crlf`), in one call and in pages under a small byte budget.
 */

import assert from "node:assert/strict";
import { openLog } from "../source/local/log_file.ts";
import { openRoots } from "../source/local/roots.ts";
import { searchLog, type SearchOptions } from "./search.ts";
import { DEFAULT_LIMITS } from "../core/config.ts";
import type { LogLine } from "./log_line.ts";
import type { ResumePoint } from "./readable_log.ts";

const CORPUS = new URL("../../../shared/corpus/loghub/", import.meta.url).pathname;
const present = (() => {
  try {
    return Deno.statSync(CORPUS).isDirectory;
  } catch {
    return false;
  }
})();
if (!present) console.error(`SKIP byte_dfa_search_test: ${CORPUS} is absent`);

/** Patterns RE2 and ripgrep read alike (ASCII classes), each with the pattern given to rg. */
const PATTERNS: [string, string][] = [
  ["[0-9]{2}:[0-9]{2}:[0-9]{2}", "[0-9]{2}:[0-9]{2}:[0-9]{2}"],
  ["[0-9]{3}-[a-z]{4}", "[0-9]{3}-[a-z]{4}"],
  ["(?i)(error|fail(ed|ure))", "(?i)(error|fail(ed|ure))"],
  ["^[A-Z][a-z]{2} +[0-9]+ ", "^[A-Z][a-z]{2} +[0-9]+ "],
  ["[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+$", "[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+$"],
  ["[a-z]+_[0-9]{3,}\\b", "[a-z]+_[0-9]{3,}(?-u:\\b)"],
  ["\\[[0-9]+\\]: [A-Z]", "\\[[0-9]+\\]: [A-Z]"],
  ["(?i)session (opened|closed) for user [a-z]+$", "(?i)session (opened|closed) for user [a-z]+$"],
  ["[^\\x00-\\x7f]", "[^\\x00-\\x7f]"],
  ["^$|=$", "^$|=$"],
];

const dir = Deno.makeTempDirSync({ prefix: "logpeek-dfa-search-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const roots = openRoots([dir], "/");
const limits = { ...DEFAULT_LIMITS, searchMs: 1e9 };

/** The line numbers `rg -n` prints for `pattern` in `file`. */
function rgLines(pattern: string, file: string, crlf: boolean): number[] {
  const args = ["-n", "--no-config", ...(crlf ? ["--crlf"] : []), "-e", pattern, file];
  const out = new Deno.Command("rg", { args, stdout: "piped" }).outputSync();
  const text = new TextDecoder().decode(out.stdout).trim();
  return text === "" ? [] : text.split("\n").map((l) => Number(l.slice(0, l.indexOf(":"))));
}

/** All matches, by pages of `budget` bytes each resumed where the one before stopped. */
async function paged(opts: SearchOptions, file: string): Promise<LogLine[]> {
  using log = await openLog(roots, file);
  const got: LogLine[] = [];
  let resume: ResumePoint | undefined;
  do {
    const page = await searchLog(log, { ...opts, resume });
    got.push(...page.matches);
    resume = page.next ?? undefined;
  } while (resume);
  return got;
}

/** The test log: the first `lines` lines of each Loghub log, ending in `\n` or `\r\n`. */
function writeLog(name: string, lines: number, crlf: boolean): string {
  const all: string[] = [];
  for (const e of Deno.readDirSync(CORPUS)) {
    if (!e.name.endsWith(".log")) continue;
    const text = Deno.readTextFileSync(CORPUS + e.name).replaceAll("\r\n", "\n"); // some end in \r\n
    all.push(...text.split("\n").filter((l) => l !== "").slice(0, lines));
  }
  all.splice(7, 0, "", "a=");
  Deno.writeTextFileSync(`${dir}/${name}`, all.join(crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n"));
  return `${dir}/${name}`;
}

Deno.test({
  name: "log_search regex through the byte DFA: the lines rg -n finds in Loghub's logs, at every piece size",
  ignore: !present,
  async fn() {
    let total = 0;
    for (const crlf of [false, true]) {
      const small = writeLog(`small${crlf}.log`, 15, crlf);
      const big = writeLog(`big${crlf}.log`, 400, crlf);
      for (const [text, rg] of PATTERNS) {
        for (const [file, pieces] of [[small, [1, 3, 7, 64]], [big, [64, 65536]]] as const) {
          const want = rgLines(rg, file, crlf);
          const name = file.slice(dir.length + 1);
          using log = await openLog(roots, name);
          for (const pieceSize of pieces) {
            const opts = {
              ...limits,
              pieceSize,
              text,
              regex: true,
              limit: 20000,
              redact: false,
              maxLine: 500,
            };
            const r = await searchLog(log, { ...opts, searchBytes: 1e12 });
            assert.equal(r.complete, true, `${text} in ${name}, piece ${pieceSize}: ${r.stop_reason}`);
            const got = r.matches.map((m) => m.line_no);
            assert.deepEqual(got, want, `${text} in ${name}, piece ${pieceSize}`);
            total += got.length;
          }
          if (file === small) {
            const pages = await paged({
              ...limits,
              pieceSize: 64,
              text,
              regex: true,
              limit: 20000,
              redact: false,
              maxLine: 500,
              searchBytes: 700,
            }, name);
            assert.deepEqual(pages.map((m) => m.line_no), want, `${text} in ${name}, pages of 700 bytes`);
          }
        }
      }
    }
    console.error(`byte DFA search: ${total} matching lines, as rg -n`);
    assert.ok(total > 5000, `${total} matching lines`);
  },
});

/** Patterns whose every match starts with their required literal (`RequiredLiteral.prefix`). */
const PREFIX_PATTERNS = [
  "blk_-?[0-9]+ .*(terminating|deleting)",
  "Received block blk_[0-9-]+ of size [0-9]+",
  "INFO [a-zA-Z.$]+: [A-Z]",
  "id=[0-9]+;",
  "ab+c[0-9]",
  "rhost=[0-9.]+ +user=",
];

Deno.test({
  name:
    "log_search regex whose matches start with its literal (the DFAs start at its first occurrence): the lines rg -n finds, at every piece size, masking on and off",
  ignore: !present,
  async fn() {
    // Loghub's lines, and lines where the literal comes more than once, a match only at a later one.
    const base = writeLog("prefix.log", 400, false);
    const extra = [
      "id=x id=12; ok",
      "id= id=id=7;",
      "id=3 id=4;",
      "abbbc abc7",
      "ac abc abbc1",
      "rhost=1.2.3 rhost=10.0.0.1  user=root",
      "x".repeat(300) + " id=5;",
      "id=9;" + "y".repeat(700),
    ];
    Deno.writeTextFileSync(base, extra.join("\n") + "\n", { append: true });
    const name = base.slice(dir.length + 1);
    let total = 0;
    for (const text of PREFIX_PATTERNS) {
      const want = rgLines(text, base, false);
      using log = await openLog(roots, name);
      for (const redact of [false, true]) {
        for (const pieceSize of [1, 3, 7, 64, 65536]) {
          const r = await searchLog(log, {
            ...limits,
            pieceSize,
            text,
            regex: true,
            limit: 20000,
            redact,
            maxLine: 500,
            searchBytes: 1e12,
          });
          assert.equal(r.complete, true, `${text}, piece ${pieceSize}`);
          assert.deepEqual(
            r.matches.map((m) => m.line_no),
            want,
            `${text}, piece ${pieceSize}, redact ${redact}`,
          );
          total += r.matches.length;
        }
      }
    }
    console.error(`prefix patterns: ${total} matching lines, as rg -n`);
    assert.ok(total > 1000, `${total} matching lines`);
  },
});
