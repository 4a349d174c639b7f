import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type ContextMatch,
  GROUP_SEPARATOR,
  renderContext,
  renderContextBlocks,
  renderContextLine,
  renderFileHeading,
} from "./context_render.ts";
import { renderLine } from "./render.ts";
import { ContextCollector } from "../read/context.ts";
import { type LogLine, toLogLine } from "../read/log_line.ts";
import { printable } from "../guard/printable.ts";
import { sharedDir } from "../../tests/shared_dir.ts";
import { grepContext, type GrepEntry, NEEDLES, splitLines } from "../../tests/grep_context.ts";
import { LOGHUB, trueLevels } from "../../tests/loghub_truth.ts";

const latin1 = new TextDecoder("latin1");

/**
 * Searches `bytes` for `needle` with `n` context lines the way `log_search` will: every line to a
 * collector whose `make` is `toLogLine` (cut at `maxLine` characters, kept as `maxLine × 4 + 1` bytes).
 */
function search(
  bytes: Uint8Array,
  needle: string,
  n: number,
  maxLine: number,
  file?: string,
  numbers = true,
): ContextMatch[] {
  const c = new ContextCollector(
    n,
    maxLine * 4 + 1,
    (b, len, no, cut) => toLogLine(b, 0, len, no, cut, maxLine).line,
  );
  const found: ContextMatch[] = [];
  splitLines(bytes).forEach(([a, e], i) => {
    const no = numbers ? i + 1 : null;
    if (latin1.decode(bytes.subarray(a, e)).includes(needle)) {
      found.push({ line: toLogLine(bytes, a, e, no, false, maxLine).line, context: c.match(no), file });
    } else c.other(bytes, a, e, no, false);
  });
  return found;
}

/**
 * What the rendering should be for grep's output: each line as `NUMBER: LEVEL text` or `NUMBER- LEVEL
 * text`, the level the Loghub CSV's (`tests/loghub_truth.ts`), the text grep printed (shown printable,
 * cut to `maxLine` characters: the Loghub logs are ASCII, one character a byte).
 */
function expected(want: GrepEntry[], levels: string[], maxLine: number): string[] {
  return want.map((w) => {
    if (w === "--") return GROUP_SEPARATOR;
    const cut = w.text.length > maxLine;
    return `${w.no}${w.match ? ":" : "-"} ${levels[w.no - 1]} ${printable(w.text.slice(0, maxLine))}` +
      (cut ? " …[cut]" : "");
  });
}

Deno.test("context render: each Loghub log, needle and N in 0, 1, 2, 5, 10 reads as grep -n -C N", () => {
  const shared = sharedDir("rendered context lines against grep -C over the Loghub logs");
  if (!shared) return;
  const dir = join(shared, "corpus", "loghub");
  let cut = 0;
  let separators = 0;
  let context = 0;
  for (const name of LOGHUB) {
    const file = join(dir, `${name}_2k.log`);
    const bytes = Deno.readFileSync(file);
    const levels = trueLevels(dir, name);
    for (const needle of NEEDLES[name]) {
      for (const n of [0, 1, 2, 5, 10]) {
        const want = grepContext(file, needle, n);
        // The default LOGPEEK_MAX_LINE (1000: HDFS has a line of 2,521 characters), and 100 (most lines cut).
        for (const maxLine of [1000, 100]) {
          const got = renderContext(search(bytes, needle, n, maxLine));
          assert.deepEqual(
            got,
            expected(want, levels, maxLine),
            `${name} "${needle}" -C ${n} max ${maxLine}`,
          );
          cut += got.filter((l) => l.endsWith(" …[cut]")).length;
        }
        separators += want.filter((w) => w === "--").length;
        context += want.filter((w) => w !== "--" && !w.match).length;
      }
    }
  }
  // The comparison saw cut lines, groups and context lines (not only matches).
  assert.ok(cut > 10_000 && separators > 1000 && context > 10_000, `${cut} ${separators} ${context}`);
});

Deno.test("context render: several logs: a heading where the file changes, groups as grep -C over both files", () => {
  const shared = sharedDir("rendered context lines of several logs against grep -C");
  if (!shared) return;
  const dir = join(shared, "corpus", "loghub");
  // "2015-" is in every line of Hadoop's and Zookeeper's, ":4" in many lines of each; grep is given both
  // files at once (it prefixes each line with its file and puts `--` between them).
  for (const needle of ["2015-", ":4", "ERROR"]) {
    for (const n of [0, 2]) {
      const files = ["Hadoop", "Zookeeper"];
      const matches = files.flatMap((name) =>
        search(Deno.readFileSync(join(dir, `${name}_2k.log`)), needle, n, 1000, `${name}_2k.log`)
      );
      const got = renderContext(matches);
      const out = new Deno.Command("grep", {
        args: ["-a", "-n", "-F", "-C", String(n), "--", needle, ...files.map((f) => `${f}_2k.log`)],
        cwd: dir,
        env: { LC_ALL: "C" },
        stdout: "piped",
      }).outputSync();
      const grepLines = latin1.decode(out.stdout).split("\n").filter(Boolean);
      // grep's form of the rendering: no heading, `--` where the file changes, grep's own line prefix.
      const ours: string[] = [];
      let current = "";
      for (const l of got) {
        const h = /^==> (.*) <==$/.exec(l);
        if (h) {
          if (current) ours.push("--");
          current = h[1];
          continue;
        }
        if (l === "--") {
          ours.push(l);
          continue;
        }
        const m = /^(\d+)([:-]) /.exec(l)!;
        ours.push(`${current}${m[2]}${m[1]}${m[2]}`);
      }
      const theirs = grepLines.map((l) => l === "--" ? l : /^[^:-]+[:-]\d+[:-]/.exec(l)![0]);
      assert.deepEqual(ours, theirs, `"${needle}" -C ${n}`);
      assert.deepEqual(got.filter((l) => l.startsWith("==>")), files.map((f) => `==> ${f}_2k.log <==`));
    }
  }
});

Deno.test("context render: unknown line numbers are shown ?, groups still told apart", () => {
  const shared = sharedDir("rendered context lines without line numbers");
  if (!shared) return;
  const dir = join(shared, "corpus", "loghub");
  const file = join(dir, "Zookeeper_2k.log");
  const want = expected(grepContext(file, "ERROR", 2), trueLevels(dir, "Zookeeper"), 1000);
  const got = renderContext(search(Deno.readFileSync(file), "ERROR", 2, 1000, undefined, false));
  assert.deepEqual(got, want.map((l) => l.replace(/^\d+/, "?")));
  assert.ok(got.includes("--") && got.some((l) => l.startsWith("?- ")));
});

const line = (
  line_no: number | null,
  text: string,
  level: LogLine["level"] = "INFO",
  cut = false,
): LogLine => ({
  line_no,
  level,
  text,
  cut,
});

Deno.test("context render: each line is renderLine's after the mark, printable, one text line", () => {
  const forged = line(7, "ok\n12: ERROR forged\u2028\x1b[31mred", "WARN", true);
  assert.equal(renderContextLine(forged, true), "7: WARN ok\\n12: ERROR forged\\u2028\\x1b[31mred …[cut]");
  assert.equal(renderContextLine(forged, false), "7- WARN ok\\n12: ERROR forged\\u2028\\x1b[31mred …[cut]");
  for (const l of [forged, line(null, " lead space"), line(123456, "")]) {
    const plain = renderLine(l);
    const num = String(l.line_no ?? "-");
    assert.equal(renderContextLine(l, true), `${l.line_no ?? "?"}:${plain.slice(num.length)}`);
  }
  assert.equal(renderFileHeading("a\nb.log"), "==> a\\nb.log <==");
  const text = renderContext([{ line: forged, context: { before: [], after: [forged] } }]);
  assert.ok(text.every((t) => !/[\n\r\u2028]/.test(t)));
});

Deno.test("context render: without adjoins, groups from line numbers, and no line twice", () => {
  // Hand-built contexts (no collector): 1-2 and 3 touch; 10's before overlaps 9, the last after-line.
  const ms: ContextMatch[] = [
    { line: line(2, "m2"), context: { before: [line(1, "c1")], after: [] } },
    { line: line(4, "m4"), context: { before: [line(3, "c3")], after: [line(5, "c5")] } },
    { line: line(8, "m8"), context: { before: [line(7, "c7")], after: [line(9, "c9")] } },
    { line: line(11, "m11"), context: { before: [line(9, "c9"), line(10, "c10")], after: [] } },
    { line: line(null, "m?"), context: { before: [], after: [] } },
  ];
  assert.deepEqual(renderContextBlocks(ms), [
    ["1- INFO c1", "2: INFO m2"],
    ["3- INFO c3", "4: INFO m4", "5- INFO c5"],
    ["--", "7- INFO c7", "8: INFO m8", "9- INFO c9"],
    ["10- INFO c10", "11: INFO m11"],
    ["--", "?: INFO m?"],
  ]);
  // adjoins, when set, decides (the collector saw every line even where numbers are unknown).
  const a: ContextMatch[] = [
    { line: line(null, "a"), context: { before: [], after: [], adjoins: false } },
    { line: line(null, "b"), context: { before: [], after: [], adjoins: true } },
    { line: line(null, "c"), context: { before: [], after: [], adjoins: false } },
  ];
  assert.deepEqual(renderContext(a), ["?: INFO a", "?: INFO b", "--", "?: INFO c"]);
  assert.deepEqual(renderContext([]), []);
});
