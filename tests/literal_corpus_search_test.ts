/**
 * The literal search's fused pass (issue #26: `simd.ts` `findCount` finds the needle's rare pair and
 * counts the line feeds before it in one pass; `needle_finder.ts` `rarePair` walks the places of its
 * bytes) against ripgrep over real corpus lines (`../shared/corpus`: Loghub's seven systems and lnav's
 * logs, invalid UTF-8 and all), at piece sizes from a few bytes to 1 MiB: the same line numbers as
 * `rg -n -F` (`-i` with `ignore_case`), for needles from rare to thousands of lines.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { sharedDir } from "./shared_dir.ts";
import { openRoots } from "../src/source/local/roots.ts";
import { openLogSync } from "../src/source/local/log_file.ts";
import { searchLog } from "../src/read/search.ts";
import { rarePair } from "../src/read/needle_finder.ts";

/** Every text file of both corpora, in one log (LF line ends kept as they are, CRLF too). */
function corpusLog(shared: string, path: string): void {
  const parts: Uint8Array[] = [];
  const loghub = join(shared, "corpus", "loghub"), lnav = join(shared, "corpus", "lnav", "logs");
  const files = [
    ...[...Deno.readDirSync(loghub)].filter((e) => e.name.endsWith(".log")).map((e) => join(loghub, e.name)),
    ...[...Deno.readDirSync(lnav)].filter((e) => e.isFile).map((e) => join(lnav, e.name)),
  ].sort();
  for (const f of files) {
    const b = Deno.readFileSync(f);
    if (f.endsWith(".gz") || b.indexOf(0) >= 0 || b.length === 0) continue;
    parts.push(b, new Uint8Array([10]));
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) all.set(p, (at += p.length) - p.length);
  Deno.writeFileSync(path, all);
}

/** The line numbers `rg -n` prints. */
function rgLines(args: string[]): number[] {
  const out = new Deno.Command("rg", { args: ["-n", "-a", "--no-config", ...args], stdout: "piped" })
    .outputSync();
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l).map((l) =>
    Number(l.split(":")[0])
  );
}

Deno.test("literal search over real corpus lines finds the lines rg -n -F finds, at piece sizes of 7 B to 1 MiB, rare needles to common ones (issue #26)", async () => {
  const shared = sharedDir("the literal search against rg over corpus lines");
  if (shared === null) return;
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-literal-corpus-" });
  try {
    corpusLog(shared, join(dir, "c.log"));
    const roots = openRoots([dir], "/");
    const cases: [string, boolean][] = [
      ["blk_", false],
      ["INFO", false],
      ["Exception", false],
      ["session opened for user", false],
      ["\t", false],
      ["a", false],
      ["error", true],
      ["Failed Password", true],
      ["QuorumPeer", true],
      ["kernel", true], // k and s: K (U+212A) and ſ (U+017F) looked for from the first byte ≥ 0x80
      ["Session", true],
    ];
    let checked = 0;
    for (const [text, ignoreCase] of cases) {
      const want = rgLines([...(ignoreCase ? ["-i"] : []), "-F", "--", text, join(dir, "c.log")]);
      assert.ok(want.length > 0, `rg finds ${text}`);
      for (const pieceSize of [7, 64, 1000, 65536, 1 << 20]) {
        using log = openLogSync(roots, "c.log");
        const r = await searchLog(log, {
          text,
          ignoreCase,
          limit: 1e7,
          searchMs: 1e9,
          searchBytes: 1e12,
          maxLine: 10,
          pieceSize,
          redact: false,
        });
        assert.equal(r.complete, true, `${text} at ${pieceSize}`);
        const got = r.matches.map((m) => m.line_no);
        assert.deepEqual(got, want, `${text} (ignore_case ${ignoreCase}) at piece size ${pieceSize}`);
        checked += got.length;
      }
    }
    console.log(`${checked} matching lines checked against rg -n -F`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** `rarePair` as it was before it walked the places of its bytes: every offset of the sample compared. */
function rarePairByEveryOffset(needle: Uint8Array, sample: Uint8Array, m: Uint8Array): [number, number] {
  sample = sample.subarray(0, 65536);
  const freq = new Uint32Array(256);
  for (const b of sample) freq[b]++;
  const often = (o: number) => freq[needle[o]] + (m[o] ? freq[needle[o] & ~0x20] : 0);
  const order = Array.from(needle.keys()).sort((a, b) => often(a) - often(b) || b - a);
  const firsts = order.filter((o, k) => order.findIndex((p) => needle[p] === needle[o]) === k).slice(0, 4);
  if (firsts.length < 2) return [order[0], order[order.length - 1]];
  let best: [number, number] = [firsts[0], firsts[1]];
  let fewest = Infinity;
  for (let x = 0; x < firsts.length; x++) {
    for (let y = x + 1; y < firsts.length; y++) {
      const o1 = firsts[x], o2 = firsts[y];
      const lo = Math.min(o1, o2), hi = Math.max(o1, o2);
      let n = 0;
      for (let s = -lo; s + hi < sample.length; s++) {
        if ((sample[s + o1] | m[o1]) === needle[o1] && (sample[s + o2] | m[o2]) === needle[o2]) n++;
      }
      if (n < fewest) [fewest, best] = [n, [o1, o2]];
    }
  }
  return best;
}

Deno.test("rarePair picks the pair that comparing every offset picks, on real corpus lines, both cases", () => {
  const shared = sharedDir("rarePair on corpus lines");
  if (shared === null) return;
  const enc = new TextEncoder();
  const loghub = join(shared, "corpus", "loghub");
  const samples = [...Deno.readDirSync(loghub)].filter((e) => e.name.endsWith(".log")).sort((a, b) =>
    a.name < b.name ? -1 : 1
  ).map((e) => Deno.readFileSync(join(loghub, e.name)).subarray(3000, 3000 + 65536));
  const needles = [
    "blk_",
    "vortex-kestrel-17",
    "INFO",
    "error",
    "aaaa",
    "PacketResponder 1 for block",
    "a-b",
    "17",
  ];
  for (const sample of samples) {
    for (const text of needles) {
      for (const ignoreCase of [false, true]) {
        const letter = (b: number) => (b >= 65 && b <= 90) || (b >= 97 && b <= 122);
        const needle = enc.encode(text).map((b) => (ignoreCase && letter(b) ? b | 0x20 : b));
        const mask = needle.map((b) => (ignoreCase && letter(b) ? 0x20 : 0));
        assert.deepEqual(
          rarePair(needle, sample, mask),
          rarePairByEveryOffset(needle, sample, mask),
          `${text} ${ignoreCase}`,
        );
      }
    }
  }
});
