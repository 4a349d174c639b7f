/**
 * Checks that this worktree's `levelOf` gives every line of a real log the same level as another copy
 * of the repository's (`--base`), with and without the SIMD hint: a speed change to `level.ts` must
 * change no answer (issue #11). Prints the first lines that differ and exits 1, or the counts.
 *
 * ```sh
 * deno run -A bench/scan_level_diff.ts --base /tmp/scan/base [--file /tmp/lvl/mix.log]
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { levelOf, LEVELS } from "../src/read/level.ts";
import { POSITIONS, simdScanner } from "../src/read/simd.ts";

const { values: o } = parseArgs({
  args: Deno.args,
  options: { base: { type: "string" }, file: { type: "string", default: "/tmp/lvl/mix.log" } },
});
if (!o.base) throw new Error("--base DIR is required");
const base = await import(resolve(o.base, "src/read/level.ts"));
const data = Deno.readFileSync(o.file!);
const piece = 1 << 20;
const s = simdScanner(piece);
const counts = new Array(LEVELS.length).fill(0);
let lines = 0, differ = 0;
function check(ls: number, e: number, hint: number): void {
  const got = levelOf(s.buf, ls, e, hint);
  const plain = levelOf(s.buf, ls, e);
  const want = base.levelOf(s.buf, ls, e);
  if ((got !== want || plain !== want) && differ++ < 10) {
    console.log(
      `${LEVELS[got]}/${LEVELS[plain]} vs ${LEVELS[want]}: ${
        new TextDecoder().decode(s.buf.subarray(ls, e))
      }`,
    );
  }
  counts[got]++;
  lines++;
}
for (let off = 0; off < data.length;) {
  const n = Math.min(piece, data.length - off);
  s.buf.set(data.subarray(off, off + n));
  let ls = 0;
  while (true) {
    const k = s.lines(ls, n);
    for (let j = 0; j < k; j++) {
      const nl = s.positions[j] & 0xffffff;
      check(ls, nl > ls && s.buf[nl - 1] === 13 ? nl - 1 : nl, s.positions[j] >>> 24);
      ls = nl + 1;
    }
    if (k < POSITIONS) break;
  }
  if (off + n === data.length && ls < n) { // the last line, without a line feed
    check(ls, n, -1);
    ls = n;
  }
  if (ls === 0) throw new Error("a line longer than the piece");
  off += ls;
}
console.log(`${lines} lines, ${differ} differ; ${LEVELS.map((l, i) => `${l} ${counts[i]}`).join(", ")}`);
if (differ) Deno.exit(1);
