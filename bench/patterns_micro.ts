/**
 * Where `log_patterns`' time goes (issue #13), in-process, no server and no protocol: each stage of
 * `src/read/mine_templates.ts`' per-line work run on its own over every line of a real-lines log (the
 * `real` part's shuffled Loghub lines, `bench/real_log.ts`), timed, and given in ns per line:
 *
 * 1. `scan`: the scanner (`src/read/scanner.ts`) over the file with a sink that does nothing (reading and
 *    finding the lines, the hint included);
 * 2. `decode`: `decodeLine` of each line (as `minePage` calls it, `LOGPEEK_MAX_LINE` 1000);
 * 3. `redact`: `LineRedactor.line` of each decoded line (what `--no-redact` saves);
 * 4. `levelOf`: of each line, with the scanner's hint, as `minePage` calls it;
 * 5. `clock`: the header clock's `timeOf` (`lineClock`, zone UTC, the file's mtime), as `log_patterns`
 *    without a window reads each line's time;
 * 6. `miner.add`: `TemplateMiner.add` of each shown line, into a fresh miner (default options); and
 *    `miner.raw` (not in the sum): the same on the decoded lines before redaction (as `--no-redact` mines
 *    them), to see whether the redactor's strings cost the miner more; and inside `miner.add` (not in
 *    the sum): `  split` (a copy of the miner's private `split`: the `(\s*)(\S+)` tokenizer) and
 *    `  split+mask` (then `maskToken` of every token, the miner's export), so `maskToken`'s share is their
 *    difference and the tree and similarity search is `miner.add` less `split+mask`;
 * 7. `stats.add`: `TemplateStats.add` of each line with its cluster, level and time;
 *
 * then `whole`: `mineTemplates` with a `MiningRun`'s sink (`src/tools/template_mining.ts`) and the clock,
 * redaction on — the tool's own loop, in-process — and the sum of the stages beside it. The lines are
 * split once into memory first (their offsets; decoded and shown texts kept for the next stages), so a
 * stage's time is its own. Each stage runs `--runs` times (default 3); the median and the least are
 * printed. The server runs with `--v8-flags=--max-semi-space-size=4` (`src/cli/flags.ts`); pass it to
 * compare.
 *
 * ```sh
 * # the log: made by `deno task bench` (LOGPEEK_BENCH_PARTS=real or patterns) in $TMPDIR/logpeek-bench
 * deno run -A [--v8-flags=--max-semi-space-size=4] bench/patterns_micro.ts
 *   [--file /tmp/logpeek-bench/loghub-150000000.log] [--runs 3]
 *   [--only scan,decode,redact,level,clock,miner,raw,parts,stats,whole]
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { basename, dirname } from "node:path";
import { openRoots } from "../src/source/local/roots.ts";
import { openLogSync } from "../src/source/local/log_file.ts";
import { type ByteSource, scan } from "../src/read/scanner.ts";
import { decodeLine } from "../src/read/decode.ts";
import { LineRedactor } from "../src/guard/redact.ts";
import { HEADER_BYTES, levelOf, STRUCTURED_BYTES } from "../src/read/level.ts";
import { lineClock } from "../src/read/timestamp.ts";
import { maskToken, TemplateMiner } from "../src/read/template_miner.ts";
import { TemplateStats } from "../src/source/local/template_stats.ts";
import { mineTemplates } from "../src/read/mine_templates.ts";
import { MiningRun } from "../src/source/local/template_mining.ts";
import { median } from "./measure.ts";

/** `LOGPEEK_MAX_LINE`'s default, as the server mines with it. */
const MAX_LINE = 1000;
/** `pieceSize`'s default (`src/core/config.ts`). */
const PIECE = 1024 * 1024;

/** A ByteSource over an open file (read from its start). */
function fileSource(path: string): ByteSource & Disposable {
  const f = Deno.openSync(path);
  const size = f.statSync().size;
  let at = 0;
  return {
    readSync(into: Uint8Array) {
      const n = f.readSync(into);
      if (n !== null) at += n;
      return n;
    },
    atEnd: () => at >= size,
    [Symbol.dispose]: () => f.close(),
  };
}

/**
 * A copy of `template_miner.ts`' private `split` (its tokens; the separators are built as it builds them
 * and dropped), so that the tokenizer's share of `TemplateMiner.add` can be timed.
 */
function split(line: string): string[] {
  const tokens: string[] = [];
  const seps: string[] = [];
  const re = /(\s*)(\S+)/y;
  let p = 0;
  for (;;) {
    re.lastIndex = p;
    const m = re.exec(line);
    if (m === null) break;
    seps.push(m[1]);
    tokens.push(m[2]);
    p = re.lastIndex;
  }
  seps.push(line.slice(p));
  return tokens;
}

if (import.meta.main) {
  const { values: o } = parseArgs({
    args: Deno.args,
    options: {
      file: { type: "string", default: "/tmp/logpeek-bench/loghub-150000000.log" },
      runs: { type: "string", default: "3" },
      only: { type: "string", default: "scan,decode,redact,level,clock,miner,raw,parts,stats,whole" },
    },
  });
  const path = o.file!;
  const runs = Number(o.runs);
  const only = new Set(o.only!.split(","));
  const info = Deno.statSync(path);
  const mtime = info.mtime?.getTime() ?? null;
  const headBytes = Math.max(STRUCTURED_BYTES, HEADER_BYTES, MAX_LINE * 4 + 1);
  const take = MAX_LINE * 4 + 1;

  // The lines, once: the file in memory, each line's start, end and the scanner's hint.
  const buf = Deno.readFileSync(path);
  const starts: number[] = [];
  const ends: number[] = [];
  const hints: number[] = [];
  {
    using src = fileSource(path);
    await scan(src, {
      line: (_b, s, e, _no, cut, hint, at) => {
        if (cut) throw new Error("a line longer than the scanner's buffer: not expected in this log");
        starts.push(at);
        ends.push(at + (e - s));
        hints.push(hint);
        return true;
      },
    }, { pieceSize: PIECE, headBytes });
  }
  const n = starts.length;
  console.log(
    `${path}: ${buf.length} bytes, ${n} lines; ${runs} run(s) per stage: the median, then the least ` +
      `(on a shared machine the least is the steadier), in ns per line\n`,
  );
  console.log(`${"stage".padEnd(12)} ${"median".padStart(14)} ${"least".padStart(14)}`);

  const results: [string, number, number][] = [];
  const time = (name: string, f: () => void | Promise<void>) => async () => {
    const ms: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      await f();
      ms.push(performance.now() - t);
    }
    const m = median(ms);
    const least = Math.min(...ms);
    results.push([name, m, least]);
    console.log(
      `${name.padEnd(12)} ${(m * 1e6 / n).toFixed(0).padStart(6)} ns/line ` +
        `${(least * 1e6 / n).toFixed(0).padStart(6)} ns/line  ${m.toFixed(0).padStart(7)} ms  ` +
        `(runs: ${ms.map((x) => x.toFixed(0)).join(", ")})`,
    );
  };

  const texts: string[] = new Array(n);
  const cuts: boolean[] = new Array(n);
  const shown: string[] = new Array(n);
  const levels = new Uint8Array(n);
  const times = new Float64Array(n);
  const clusters = new Int32Array(n);
  let sink = 0;

  if (only.has("scan")) {
    await time("scan", async () => {
      using src = fileSource(path);
      let lines = 0;
      await scan(src, {
        line: () => {
          lines++;
          return true;
        },
      }, { pieceSize: PIECE, headBytes });
      sink += lines;
    })();
  }
  // decode, redact and miner feed the stages after them, so they always run (only the printing is
  // left out).
  await time("decode", () => {
    for (let i = 0; i < n; i++) {
      const s = starts[i], e = ends[i];
      const end = Math.min(e, s + take);
      const d = decodeLine(buf.subarray(s, end), MAX_LINE, end < e);
      texts[i] = d.text;
      cuts[i] = d.cut;
    }
  })();
  await time("redact", () => {
    const red = new LineRedactor(true, false);
    for (let i = 0; i < n; i++) shown[i] = red.line(texts[i], cuts[i]);
    sink += red.count;
  })();
  if (only.has("level")) {
    await time("levelOf", () => {
      for (let i = 0; i < n; i++) levels[i] = levelOf(buf, starts[i], ends[i], hints[i]);
    })();
  }
  if (only.has("clock")) {
    await time("clock", () => {
      const clock = lineClock({ zone: "UTC", modifiedMs: mtime });
      for (let i = 0; i < n; i++) times[i] = clock.timeOf(buf, starts[i], ends[i]);
    })();
  }
  let miner = new TemplateMiner();
  await time("miner.add", () => {
    miner = new TemplateMiner();
    for (let i = 0; i < n; i++) clusters[i] = miner.add(shown[i], i + 1);
  })();
  if (only.has("raw")) {
    const at = results.length;
    await time("miner.raw", () => {
      const m = new TemplateMiner();
      for (let i = 0; i < n; i++) m.add(texts[i], i + 1);
      sink += m.size;
    })();
    results.splice(at, 1);
  }
  if (only.has("parts")) {
    const at = results.length;
    await time("  split", () => {
      let k = 0;
      for (let i = 0; i < n; i++) k += split(shown[i]).length;
      sink += k;
    })();
    await time("  split+mask", () => {
      let k = 0;
      for (let i = 0; i < n; i++) k += split(shown[i]).map(maskToken).length;
      sink += k;
    })();
    results.splice(at, 2);
  }
  if (only.has("stats")) {
    await time("stats.add", () => {
      const stats = new TemplateStats();
      for (let i = 0; i < n; i++) stats.add(clusters[i], "x.log", i + 1, levels[i], times[i], shown[i]);
      sink += stats.lines;
    })();
  }
  const sum = results.reduce((a, [, ms]) => a + ms, 0);
  const sumLeast = results.reduce((a, [, , ms]) => a + ms, 0);
  console.log(
    `${"sum".padEnd(12)} ${(sum * 1e6 / n).toFixed(0).padStart(6)} ns/line ` +
      `${(sumLeast * 1e6 / n).toFixed(0).padStart(6)} ns/line  ${sum.toFixed(0).padStart(7)} ms  ` +
      `(${miner.size} clusters, ${miner.otherLines} other lines)`,
  );
  if (only.has("whole")) {
    const roots = openRoots([dirname(path)], "/");
    await time("whole", async () => {
      using log = openLogSync(roots, basename(path));
      const run = new MiningRun(5000);
      const clock = lineClock({ zone: "UTC", modifiedMs: log.modifiedMs ?? null });
      const page = await mineTemplates(log, run.sink(run.window, log.name), {
        pieceSize: PIECE,
        maxLine: MAX_LINE,
        redact: true,
        deadline: Infinity,
        timeOf: (b, s, e) => clock.timeOf(b, s, e),
      });
      if (page.total_lines !== n) throw new Error(`whole: ${page.total_lines} lines, not ${n}`);
      sink += run.miner.size;
    })();
  }
  const heap = Deno.memoryUsage();
  console.log(
    `\nheap after the stages (the lines' texts still held): used ${
      (heap.heapUsed / 2 ** 20).toFixed(0)
    } MiB, ` +
      `RSS ${(heap.rss / 2 ** 20).toFixed(0)} MiB`,
  );
  console.log(`(checksum ${sink}; whole = mineTemplates with a MiningRun sink, redaction and clock on)`);
}
