/**
 * A/B of the read layer's hot loops, in one process, on a real log held in memory (no file reads, so
 * only the scanning differs): this worktree's `countLevels`-style level count and literal search
 * against another copy of the repository's (`--base`, say `git archive` of an older commit), rounds
 * interleaved, the fastest round of each kept. Times are the process's CPU time (user + system), not
 * wall time: the machine is shared, and another process's load barely moves CPU time or the minimum.
 *
 * ```sh
 * deno run -A bench/scan_ab.ts --base /tmp/scan/base [--file /tmp/lvl/mix.log] [--rounds 7]
 *   [--piece 65536] [--needle blk_8952177028039691517] [--only levels,search,icase]
 * ```
 *
 * Both sides must give the same counts, lines and matches, or it throws; when one side counts with a
 * `LevelTally` (issue #23: continuation lines) and the other does not, only their line counts must agree.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { resolve } from "node:path";
import process from "node:process";

const { values: o } = parseArgs({
  args: Deno.args,
  options: {
    base: { type: "string" },
    file: { type: "string", default: "/tmp/lvl/mix.log" },
    rounds: { type: "string", default: "7" },
    piece: { type: "string", default: "65536" },
    needle: { type: "string", default: "blk_8952177028039691517" },
    only: { type: "string", default: "levels,search,icase" },
  },
});
if (!o.base) throw new Error("--base DIR is required");
const data = Deno.readFileSync(o.file!);
const pieceSize = Number(o.piece);
const only = new Set(o.only!.split(","));

interface Side {
  name: string;
  // deno-lint-ignore no-explicit-any
  scanner: any;
  // deno-lint-ignore no-explicit-any
  level: any;
}

async function load(name: string, repo: string): Promise<Side> {
  return {
    name,
    scanner: await import(resolve(repo, "src/read/scanner.ts")),
    level: await import(resolve(repo, "src/read/level.ts")),
  };
}

function source(bytes: Uint8Array) {
  let pos = 0;
  return {
    readSync(into: Uint8Array): number | null {
      const n = Math.min(into.length, bytes.length - pos);
      into.set(bytes.subarray(pos, pos + n));
      pos += n;
      return n || null;
    },
    atEnd: () => pos >= bytes.length,
  };
}

async function levels(side: Side): Promise<string> {
  if (side.level.LevelTally) {
    const tally = new side.level.LevelTally();
    const r = await side.scanner.scan(source(data), { line: () => true }, {
      pieceSize,
      headBytes: 4096,
      levelCounts: tally,
    });
    return `${r.lines} ${Array.from(tally.counts as Float64Array).join()} tally`;
  }
  const counts = new Float64Array(8);
  const levelOf = side.level.levelOf;
  // The counting option when the side has it (it ignores unknown options otherwise: then the sink counts).
  let viaSink = 0;
  const r = await side.scanner.scan(source(data), {
    line(buf: Uint8Array, s: number, e: number, _n: number, _c: boolean, hint: number) {
      viaSink++;
      counts[levelOf(buf, s, e, hint)]++;
      return true;
    },
  }, { pieceSize, headBytes: 4096, levelCounts: counts });
  return `${r.lines} ${counts.join()} ${viaSink ? "sink" : ""}`.trim();
}

async function search(side: Side, ignoreCase: boolean): Promise<string> {
  const lines: number[] = [];
  const text = ignoreCase ? o.needle!.toUpperCase() : o.needle!;
  const r = await side.scanner.scan(source(data), {
    line(_b: Uint8Array, _s: number, _e: number, no: number) {
      lines.push(no);
      return true;
    },
  }, { pieceSize, headBytes: 4001, needle: new TextEncoder().encode(text), ignoreCase });
  return `${r.lines} ${lines.length} ${lines.slice(-3).join()}`;
}

const sides = [await load("new", new URL("..", import.meta.url).pathname), await load("base", o.base)];
const jobs: [string, (s: Side) => Promise<string>][] = [];
if (only.has("levels")) jobs.push(["levels", levels]);
if (only.has("search")) jobs.push(["search", (s) => search(s, false)]);
if (only.has("icase")) jobs.push(["icase", (s) => search(s, true)]);

/** CPU time of this process so far, in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const best = new Map<string, number>();
const answers = new Map<string, string>();
for (let round = 0; round < Number(o.rounds); round++) {
  for (const [key, job] of jobs) {
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      const t = cpuMs();
      const a = (await job(side)).replace(/ sink$/, "");
      const ms = cpuMs() - t;
      const k = `${key} ${side.name}`;
      best.set(k, Math.min(best.get(k) ?? Infinity, ms));
      const was = answers.get(key);
      const apart = was !== undefined && was.endsWith(" tally") !== a.endsWith(" tally");
      if (was !== undefined && (apart ? was.split(" ")[0] !== a.split(" ")[0] : was !== a)) {
        throw new Error(`${k}: ${a} vs ${was}`);
      }
      answers.set(key, a);
    }
  }
}
console.log(
  `${o.file}: ${data.length} bytes in memory, piece ${pieceSize}; fastest of ${o.rounds} rounds, CPU time`,
);
for (const [k, ms] of best) {
  console.log(
    `${k.padEnd(12)} ${ms.toFixed(0).padStart(6)} ms ${(data.length / 1e3 / ms).toFixed(0).padStart(6)} MB/s`,
  );
}
