import assert from "node:assert/strict";
import { join } from "node:path";
import { ContextCollector, type WithContext } from "./context.ts";
import { sharedDir } from "../../tests/shared_dir.ts";
import { grepContext, type GrepEntry, NEEDLES, splitLines } from "../../tests/grep_context.ts";

/** What the tests make of a kept line: its number, its bytes as text (one character per byte), cut. */
interface Kept {
  no: number | null;
  text: string;
  cut: boolean;
  /** The length of the array `make` was handed: never more than `keepBytes`, whatever the line's. */
  held: number;
}

const latin1 = new TextDecoder("latin1");
const make = (b: Uint8Array, len: number, no: number | null, cut: boolean): Kept => ({
  no,
  text: latin1.decode(b.subarray(0, len)),
  cut,
  held: b.length,
});

/** One match and its context, as the tests feed them. */
interface Found {
  no: number | null;
  text: string;
  ctx: WithContext<Kept>;
}

/**
 * Feeds every line of `bytes` to a collector (a line holding `needle` is a match), in order, as the
 * search's scanner will; with `max`, stops matching after `max` matches and reads on only while the last
 * match wants after-lines (grep `-m`).
 */
function collect(
  bytes: Uint8Array,
  needle: string,
  n: number,
  keepBytes: number,
  opts: { numbers?: boolean; max?: number } = {},
): Found[] {
  const c = new ContextCollector(n, keepBytes, make);
  const found: Found[] = [];
  const lines = splitLines(bytes);
  for (let i = 0; i < lines.length; i++) {
    const [a, e] = lines[i];
    const no = opts.numbers === false ? null : i + 1;
    if (opts.max !== undefined && found.length === opts.max && !c.wantsAfter()) break;
    const text = latin1.decode(bytes.subarray(a, e));
    if ((opts.max === undefined || found.length < opts.max) && text.includes(needle)) {
      found.push({ no, text, ctx: c.match(no) });
    } else c.other(bytes, a, e, no, false);
  }
  return found;
}

/** The collector's answer in grep's terms: `--` where a match does not adjoin the previous one. */
function asGrep(found: Found[]): GrepEntry[] {
  const out: GrepEntry[] = [];
  found.forEach((f, i) => {
    if (i > 0 && !f.ctx.adjoins) out.push("--");
    for (const k of f.ctx.before) out.push({ no: k.no!, match: false, text: k.text });
    out.push({ no: f.no!, match: true, text: f.text });
    for (const k of f.ctx.after) out.push({ no: k.no!, match: false, text: k.text });
  });
  return out;
}

const NS = [0, 1, 2, 5, 10];

Deno.test("context: over each Loghub log and needle, N in 0, 1, 2, 5, 10, the lines grep -n -C N shows", () => {
  const shared = sharedDir("context lines against grep -C over the Loghub logs");
  if (!shared) return;
  let cases = 0;
  // Files with a needle matching: their first line, their last, 1..3 lines, two adjacent lines, two lines
  // 3..5 apart (one group for grep -C 2).
  const seen = { first: new Set(), last: new Set(), rare: new Set(), adjacent: new Set(), merged: new Set() };
  for (const [name, needles] of Object.entries(NEEDLES)) {
    const file = join(shared, "corpus", "loghub", `${name}_2k.log`);
    const bytes = Deno.readFileSync(file);
    const total = splitLines(bytes).length;
    for (const needle of needles) {
      for (const n of NS) {
        const want = grepContext(file, needle, n);
        const found = collect(bytes, needle, n, 1 << 16);
        assert.deepEqual(asGrep(found), want, `${name} "${needle}" -C ${n}`);
        // No line was cut: keepBytes (64 KiB) is above every Loghub line.
        assert.ok(found.every((f) => [...f.ctx.before, ...f.ctx.after].every((k) => !k.cut)));
        cases++;
        if (n !== 0) continue;
        const matches = want.filter((w) => w !== "--").map((w) => w.no);
        if (matches[0] === 1) seen.first.add(name);
        if (matches.at(-1) === total) seen.last.add(name);
        if (matches.length > 0 && matches.length <= 3) seen.rare.add(name);
        if (matches.some((m, i) => matches[i + 1] === m + 1)) seen.adjacent.add(name);
      }
      // grep -C 2 joins two matches 3..5 lines apart into one group: the needle exercises merging.
      const m0 = grepContext(file, needle, 0).filter((w) => w !== "--").map((w) => w.no);
      if (m0.some((m, i) => m0[i + 1] - m >= 3 && m0[i + 1] - m <= 5)) seen.merged.add(name);
    }
  }
  assert.equal(cases, 7 * 5 * NS.length);
  // What the table claims, checked on grep's output: each file has a needle at its first line and
  // one at its last (five of them without a final newline), a rare one, adjacent matches, matches grep
  // -C 2 merges.
  const names = Object.keys(NEEDLES);
  for (const [what, files] of Object.entries(seen)) assert.deepEqual([...files].sort(), names.sort(), what);
});

Deno.test("context: lines longer than keepBytes are kept as their first keepBytes bytes, marked cut", () => {
  const shared = sharedDir("context lines cut at keepBytes over the Loghub logs");
  if (!shared) return;
  const keep = 64;
  let cutSeen = 0;
  for (const [name, needles] of Object.entries(NEEDLES)) {
    const file = join(shared, "corpus", "loghub", `${name}_2k.log`);
    const bytes = Deno.readFileSync(file);
    for (const needle of needles) {
      const want = grepContext(file, needle, 2);
      const got = collect(bytes, needle, 2, keep);
      const shown = asGrep(got);
      assert.equal(shown.length, want.length);
      shown.forEach((s, i) => {
        const w = want[i];
        if (s === "--" || w === "--" || s.match) return assert.deepEqual(s, w);
        assert.equal(s.no, w.no);
        assert.equal(s.text, w.text.slice(0, keep));
      });
      for (const f of got) {
        for (const k of [...f.ctx.before, ...f.ctx.after]) {
          const whole = want.find((w) => w !== "--" && w.no === k.no) as { text: string };
          assert.equal(k.cut, whole.text.length > keep, `${name} line ${k.no}`);
          if (k.cut) cutSeen++;
        }
      }
    }
  }
  assert.ok(cutSeen > 1000, `cut lines seen: ${cutSeen}`);
});

Deno.test("context: a 10 MB line, in the ring or after a match, is kept as keepBytes bytes only, marked cut", () => {
  const keep = 4001;
  const big = new Uint8Array(10_000_000);
  for (let i = 0; i < big.length; i++) big[i] = 97 + (i % 26);
  const enc = new TextEncoder();
  const lines = [enc.encode("one"), big, enc.encode("MATCH two"), big, enc.encode("three")];
  const calls: number[] = [];
  const c = new ContextCollector(1, keep, (b, len, no, cut) => {
    calls.push(len);
    return make(b, len, no, cut);
  });
  let ctx: WithContext<Kept> | undefined;
  lines.forEach((l, i) => {
    if (i === 2) ctx = c.match(3);
    else c.other(l, 0, l.length, i + 1, false);
  });
  const first = latin1.decode(big.subarray(0, keep));
  assert.deepEqual(ctx!.before, [{ no: 2, text: first, cut: true, held: keep }]);
  // The after-line is made from the scanner's buffer, but only its first keepBytes are handed on.
  assert.deepEqual(ctx!.after.map((k) => [k.no, k.text, k.cut]), [[4, first, true]]);
  assert.deepEqual(calls, [keep, keep]);
  // A line the scanner already cut (cut = true) stays cut even when shorter than keepBytes.
  const c3 = new ContextCollector(1, keep, make);
  c3.other(enc.encode("head"), 0, 4, 1, true);
  assert.deepEqual(c3.match(2).before, [{ no: 1, text: "head", cut: true, held: 4 }]);
});

Deno.test("context: N = 0 gives no context lines, and the matches grep -n -F finds", () => {
  const shared = sharedDir("context N = 0 over the Loghub logs");
  if (!shared) return;
  for (const [name, needles] of Object.entries(NEEDLES)) {
    const file = join(shared, "corpus", "loghub", `${name}_2k.log`);
    const bytes = Deno.readFileSync(file);
    for (const needle of needles) {
      const got = collect(bytes, needle, 0, 1 << 16);
      assert.ok(got.every((f) => f.ctx.before.length === 0 && f.ctx.after.length === 0));
      const plain = new Deno.Command("grep", {
        args: ["-a", "-n", "-F", "--", needle, file],
        env: { LC_ALL: "C" },
        stdout: "piped",
      }).outputSync();
      const want = latin1.decode(plain.stdout).split("\n").filter(Boolean).map((l) =>
        Number(l.split(":")[0])
      );
      assert.deepEqual(got.map((f) => f.no), want, `${name} "${needle}"`);
    }
  }
});

Deno.test("context: a run of 2,000 matches (every line) gives no context and one group", () => {
  const shared = sharedDir("a long run of matches over the Loghub logs");
  if (!shared) return;
  // Every line of Linux_2k.log holds "combo", every line of OpenSSH_2k.log "LabSZ" (grep -c: 2000).
  for (const [name, needle] of [["Linux", "combo"], ["OpenSSH", "LabSZ"]]) {
    const file = join(shared, "corpus", "loghub", `${name}_2k.log`);
    const count = new Deno.Command("grep", { args: ["-c", "-F", "--", needle, file], stdout: "piped" })
      .outputSync();
    assert.equal(Number(new TextDecoder().decode(count.stdout)), 2000);
    const got = collect(Deno.readFileSync(file), needle, 10, 1 << 16);
    assert.equal(got.length, 2000);
    assert.ok(got.every((f, i) => f.ctx.before.length + f.ctx.after.length === 0 && f.ctx.adjoins === i > 0));
  }
});

Deno.test("context: with line numbers unknown (null), the same lines and groups, numbered null", () => {
  const shared = sharedDir("context lines without line numbers over the Loghub logs");
  if (!shared) return;
  for (const [name, needles] of Object.entries(NEEDLES)) {
    const file = join(shared, "corpus", "loghub", `${name}_2k.log`);
    const bytes = Deno.readFileSync(file);
    for (const needle of needles.slice(2, 4)) {
      for (const n of [1, 5]) {
        const want = grepContext(file, needle, n);
        const got = collect(bytes, needle, n, 1 << 16, { numbers: false });
        const all = got.flatMap((f) => [f.no, ...[...f.ctx.before, ...f.ctx.after].map((k) => k.no)]);
        assert.ok(all.every((no) => no === null));
        // Compared with grep's output without its numbers: texts, kinds and separators.
        const strip = (e: GrepEntry) => e === "--" ? e : { match: e.match, text: e.text };
        assert.deepEqual(asGrep(got).map(strip), want.map(strip), `${name} "${needle}" -C ${n}`);
      }
    }
  }
});

Deno.test("context: stopping at a match limit, wantsAfter reads on for the last match's after-lines as grep -m", () => {
  const shared = sharedDir("context lines at a match limit over the Loghub logs");
  if (!shared) return;
  for (const [name, needles] of Object.entries(NEEDLES)) {
    const file = join(shared, "corpus", "loghub", `${name}_2k.log`);
    const bytes = Deno.readFileSync(file);
    for (const needle of needles) {
      for (const [n, max] of [[1, 1], [3, 2], [5, 10], [10, 7]]) {
        const want = grepContext(file, needle, n, max);
        assert.deepEqual(asGrep(collect(bytes, needle, n, 1 << 16, { max })), want, `${name} "${needle}"`);
      }
    }
  }
});

Deno.test("context: wantsAfter is true until the last match has N after-lines, false before any match", () => {
  const enc = new TextEncoder().encode("x");
  const c = new ContextCollector(2, 10, make);
  assert.equal(c.wantsAfter(), false);
  c.other(enc, 0, 1, 1, false);
  assert.equal(c.wantsAfter(), false);
  const m = c.match(2);
  assert.equal(c.wantsAfter(), true);
  c.other(enc, 0, 1, 3, false);
  assert.equal(c.wantsAfter(), true);
  c.other(enc, 0, 1, 4, false);
  assert.equal(c.wantsAfter(), false);
  assert.deepEqual([m.before.map((k) => k.no), m.after.map((k) => k.no)], [[1], [3, 4]]);
  const z = new ContextCollector(0, 10, make);
  z.match(1);
  assert.equal(z.wantsAfter(), false);
});

Deno.test("context: reset starts a new file: no group and no ring across it", () => {
  const x = new TextEncoder().encode("x");
  const c = new ContextCollector(2, 10, make);
  c.match(1);
  c.other(x, 0, 1, 2, false);
  c.reset();
  c.other(x, 0, 1, 1, false);
  const m = c.match(2);
  assert.deepEqual([m.adjoins, m.before.map((k) => k.no)], [false, [1]]);
});

Deno.test("context: bad arguments and lines out of order throw RangeError", () => {
  for (const n of [-1, 1.5, NaN, Infinity]) {
    assert.throws(() => new ContextCollector(n, 10, make), RangeError);
  }
  for (const k of [0, -3, 2.5]) assert.throws(() => new ContextCollector(1, k, make), RangeError);
  const x = new TextEncoder().encode("x");
  const c = new ContextCollector(1, 10, make);
  c.other(x, 0, 1, 5, false);
  assert.throws(() => c.other(x, 0, 1, 5, false), /line 5 came after line 5/); // handed twice
  const d = new ContextCollector(1, 10, make);
  d.other(x, 0, 1, 5, false);
  assert.throws(() => d.match(7), RangeError); // line 6 skipped
  // Unknown numbers are not checked, and a known number may follow an unknown one.
  const e = new ContextCollector(1, 10, make);
  e.other(x, 0, 1, null, false);
  e.other(x, 0, 1, 40, false);
  assert.deepEqual(e.match(41).before.map((k) => k.no), [40]);
});
