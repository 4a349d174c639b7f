/**
 * A W3C extended log's statuses when other programs' lines share the file (issue #26, item 3): only the
 * lines whose leading fields fit the last `#Fields:` directive's `date` and `time` carry a status. The
 * truth: the IIS lines of two of lnav's W3C logs (the field the directive names `sc-status`) and none for
 * Loghub's Hadoop lines, whose field there may be three digits too (`… for 339 seconds`): the rule before
 * counted those as statuses.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sharedDir } from "./shared_dir.ts";
import { mulberry32, tempDir } from "./fixtures.ts";
import { detectStatus, statusLevel, StatusReader } from "../src/read/http_status.ts";
import { openRoots } from "../src/source/local/roots.ts";
import { openLogSync } from "../src/source/local/log_file.ts";
import { countLevels } from "../src/read/count_levels.ts";
import { LEVELS } from "../src/read/level.ts";

const SHARED = sharedDir("W3C statuses among Hadoop lines");
const enc = new TextEncoder();

/**
 * Two IIS logs of lnav's (`logfile_w3c_big.0`: `date time …`, sc-status 12th; `logfile_w3c.3`:
 * `date-local time-local …`, sc-status 13th), one after the other, each its directives first, then its
 * entries and Hadoop's lines, shuffled (seeded); the truth, each line's status by its log's directive.
 */
function mixedLines(shared: string): { lines: string[]; truth: number[]; trap: number } {
  const read = (p: string) => Deno.readTextFileSync(p).split("\n").filter((l) => l.trim() !== "");
  const hadoop = read(join(shared, "corpus/loghub/Hadoop_2k.log"));
  const rand = mulberry32(26);
  const lines: string[] = [], truth: number[] = [];
  let trap = 0;
  for (const name of ["logfile_w3c_big.0", "logfile_w3c.3"]) {
    const iis = read(join(shared, "corpus/lnav/logs", name));
    const directives = iis.filter((l) => l.startsWith("#")).slice(0, 4);
    const names = directives.find((l) => l.startsWith("#Fields:"))!.slice(8).trim().split(/\s+/);
    const column = names.indexOf("sc-status");
    const pool = [
      ...iis.filter((l) => !l.startsWith("#")).map((l) => [l, true] as const),
      ...hadoop.map((l) => [l, false] as const),
    ];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    lines.push(...directives, ...pool.map(([l]) => l));
    truth.push(...directives.map(() => 0), ...pool.map(([l, w3c]) => w3c ? statusField(l, column) : 0));
    trap += pool.filter(([l, w3c]) => !w3c && statusField(l, column) > 0).length;
  }
  return { lines, truth, trap };
}

/** Field `column` (blank-separated, a quoted one whole, its quotes dropped) as a status (100–599), or 0. */
function statusField(line: string, column: number): number {
  const f = line.match(/"[^"]*"|[^ \t]+/g)?.[column]?.replace(/^"(.*)"$/, "$1");
  return f !== undefined && /^[1-5][0-9][0-9]$/.test(f) ? Number(f) : 0;
}

Deno.test(
  "W3C statuses: only the IIS lines among Hadoop's carry one, line by line and in log_levels' derived counts at every piece size",
  {
    ignore: SHARED === null,
  },
  async () => {
    const { lines, truth, trap } = mixedLines(SHARED!);
    const text = lines.join("\n") + "\n";
    const bytes = enc.encode(text);
    const layout = detectStatus(bytes.subarray(0, 65536));
    assert.deepEqual(layout, { kind: "w3c", column: 11 });
    const r = new StatusReader(layout!);
    const got = lines.map((l) => r.statusOf(enc.encode(l), 0, enc.encode(l).length));
    assert.deepEqual(got, truth);
    assert.ok(truth.filter((s) => s > 0).length > 200, "the IIS lines' statuses");
    // Hadoop lines with three digits in the status's field: what a rule without the directive's shapes miscounts.
    assert.ok(trap > 200, `the trap: ${trap} lines`);

    const want = Object.fromEntries(LEVELS.map((l) => [l, 0]));
    for (const s of truth) want[LEVELS[s > 0 ? statusLevel(s) : 7]]++;
    const dir = tempDir("logpeek-w3c-");
    Deno.writeTextFileSync(join(dir, "mix.log"), text);
    const roots = openRoots([dir], "/");
    for (const pieceSize of [7, 64, 1000, 65536, 1 << 20]) {
      using log = openLogSync(roots, "mix.log");
      const res = await countLevels(log, { levelsMs: 600000, pieceSize });
      assert.equal(res.complete, true);
      assert.deepEqual(res.derived?.counts, want, `piece ${pieceSize}`);
      assert.equal(res.derived?.lines, truth.filter((s) => s > 0).length, `piece ${pieceSize}`);
    }
  },
);
