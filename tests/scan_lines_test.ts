/**
 * The scanner's hot paths (issue #11) on real, varied lines: the seven Loghub samples' lines shuffled
 * together (as the benchmark's file is), searched at piece sizes from tiny to 1 MiB. Line numbers are
 * compared with ripgrep's `rg -n` (GNU `grep -n` where rg is absent), level counts with the Loghub
 * ground truth (`loghub_truth.ts`, from the samples' CSV files), line totals with a byte count of `\n`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sharedDir } from "./shared_dir.ts";
import { LOGHUB, trueLevels } from "./loghub_truth.ts";
import { tempDir } from "./fixtures.ts";
import { openRoots } from "../src/source/local/roots.ts";
import { openLogSync } from "../src/source/local/log_file.ts";
import { searchLog } from "../src/read/search.ts";
import { countLevels } from "../src/read/count_levels.ts";
import { LEVELS } from "../src/read/level.ts";

/** Tiny pieces (most lines longer than one, streamed), a few lines a piece, 64 KiB, 1 MiB. */
const PIECES = [61, 300, 4096, 65536, 1 << 20];

/** The Loghub lines shuffled (seeded), three times over, CRLF in one copy, no final line feed. */
function mixedLog(shared: string): { text: string; truth: Record<string, number> } {
  const dir = join(shared, "corpus", "loghub");
  const lines: [string, string][] = [];
  for (const name of LOGHUB) {
    const levels = trueLevels(dir, name);
    const text = Deno.readTextFileSync(join(dir, `${name}_2k.log`)).replace(/\n$/, "");
    text.split("\n").forEach((l, i) => lines.push([l, levels[i]]));
  }
  let seed = 2026;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  const truth: Record<string, number> = Object.fromEntries(LEVELS.map((l) => [l, 0]));
  for (const [, level] of lines) truth[level] += 3;
  const one = lines.map(([l]) => l);
  return { text: [one.join("\n"), one.join("\r\n"), one.join("\n")].join("\n"), truth };
}

async function peerLines(args: string[], file: string): Promise<number[]> {
  let cmd = "rg";
  try {
    await new Deno.Command("rg", { args: ["--version"], stdout: "null" }).output();
  } catch {
    cmd = "grep"; // grep -n -F [-i] takes the same flags
  }
  const out = await new Deno.Command(cmd, { args: [...args, file], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map((l) => Number(l.split(":")[0]));
}

const SHARED_0 = sharedDir("line numbers against rg -n on Loghub lines");
Deno.test("search line numbers agree with rg -n on shuffled Loghub lines, at every piece size", {
  ignore: SHARED_0 === null,
}, async () => {
  const shared = SHARED_0!;
  const dir = tempDir("logpeek-scanlines-");
  const file = join(dir, "mix.log");
  Deno.writeTextFileSync(file, mixedLog(shared).text);
  const roots = openRoots([dir], "/");
  const cases: [string, boolean][] = [
    ["Failed password for", false],
    ["blk_-", false],
    ["jk2_init() Found child", false],
    ["RetryUpToMaximumCountWithFixedSleep", false],
    ["session opened", false],
    ["FAILED PASSWORD", true],
    ["Error", true],
    ["Kerberos", true],
  ];
  for (const [text, ignoreCase] of cases) {
    const want = await peerLines(["-n", "-F", ...(ignoreCase ? ["-i"] : []), text], file);
    assert.ok(want.length > 10 && want.length < 5000, `${text}: ${want.length} lines`);
    for (const pieceSize of PIECES) {
      using log = openLogSync(roots, "mix.log");
      const r = await searchLog(log, {
        text,
        ignoreCase,
        limit: 5000,
        searchMs: 600000,
        searchBytes: 1e12,
        maxLine: 1000,
        pieceSize,
        redact: false,
      });
      assert.equal(r.complete, true);
      assert.deepEqual(
        r.matches.map((m) => m.line_no),
        want,
        `${text} (ignore case ${ignoreCase}) piece ${pieceSize}`,
      );
    }
  }
});

const SHARED_1 = sharedDir("level counts on Loghub lines");
Deno.test("level counts on shuffled Loghub lines equal the ground truth, at every piece size", {
  ignore: SHARED_1 === null,
}, async () => {
  const shared = SHARED_1!;
  const dir = tempDir("logpeek-scanlevels-");
  const { text, truth } = mixedLog(shared);
  Deno.writeTextFileSync(join(dir, "mix.log"), text);
  const bytes = Deno.readFileSync(join(dir, "mix.log"));
  const lineFeeds = bytes.reduce((n, b) => n + (b === 10 ? 1 : 0), 0);
  const roots = openRoots([dir], "/");
  for (const pieceSize of PIECES) {
    using log = openLogSync(roots, "mix.log");
    const r = await countLevels(log, { levelsMs: 600000, pieceSize });
    assert.equal(r.complete, true);
    assert.equal(r.total_lines, lineFeeds + 1, `piece ${pieceSize}: lines (no final line feed)`);
    assert.deepEqual(r.counts, truth, `piece ${pieceSize}`);
  }
});
