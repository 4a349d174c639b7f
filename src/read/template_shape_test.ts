import assert from "node:assert/strict";
import { join } from "node:path";
import { RE2JS } from "re2js";
import { learnHeader, NOT_TAKEN, TemplateMiner } from "./template_miner.ts";
import { sameShape, sameShapeBytes, shapeHash, shapeHashBytes } from "./template_shape.ts";
import { sharedDir } from "../../tests/shared_dir.ts";

/**
 * The shape key written the plain way (the reference `sameShape` must agree with): each token (`\S+`)
 * holding a letter (`Scan`'s: ASCII letters or any code unit above 127) with its digits as `1` but a `0`
 * before `x`/`X`; any other token with each digit run as one `1`; whitespace as it is.
 */
function refKey(line: string): string {
  return line.replace(
    /\S+/g,
    (t) => /[A-Za-z\u0080-\uffff]/.test(t) ? t.replace(/[1-9]|0(?![xX])/g, "1") : t.replace(/\d+/g, "1"),
  );
}

/** Lines as logpeek reads them: split on LF, a CR before it removed, no empty last line. */
function lines(text: string): string[] {
  const ls = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (ls.at(-1) === "") ls.pop();
  return ls;
}

/** A seeded generator of numbers in [0, 1). */
function random(seed: number): () => number {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/** The line with each digit run replaced by a random run of 1–`most` digits (same length when `most` is 0). */
function renumber(line: string, rnd: () => number, most: number): string {
  return line.replace(/\d+/g, (d) => {
    const n = most === 0 ? d.length : 1 + Math.floor(rnd() * most);
    let out = "";
    for (let i = 0; i < n; i++) out += String(Math.floor(rnd() * 10));
    return out;
  });
}

/** The shared corpora's folder, or null (then the tests that read it are ignored, SKIP printed once). */
const SHARED = sharedDir("the shape cache's tests on the Loghub and lnav corpora");

/** The real corpora's logs (Loghub's seven samples, lnav's test logs) as lines. */
function corpora(dir: string): { name: string; lines: string[] }[] {
  const out: { name: string; lines: string[] }[] = [];
  for (const sub of ["loghub", "lnav/logs"]) {
    const d = join(dir, "corpus", sub);
    const names = [...Deno.readDirSync(d)].filter((e) => e.isFile && !/(\.csv|\.md|LICENSE)$/.test(e.name))
      .map((e) => e.name).sort();
    for (const n of names) {
      const text = new TextDecoder().decode(Deno.readFileSync(join(d, n)));
      out.push({ name: `${sub}/${n}`, lines: lines(text) });
    }
  }
  return out;
}

Deno.test("sameShape: numbers' lengths differ only in tokens without letters; 0x kept", () => {
  assert.ok(sameShape("took 12 ms", "took 12345 ms"));
  assert.ok(sameShape("at 10:02:33.1 [7]", "at 9:2:3.12345 [123]"));
  assert.ok(sameShape("blk_123 done", "blk_456 done"));
  assert.ok(!sameShape("blk_123 done", "blk_1234 done"));
  assert.ok(!sameShape("id 0x1f", "id 1x1f"));
  assert.ok(sameShape("id 0x1f", "id 0x2f"));
  assert.ok(!sameShape("took 12 ms", "took 12  ms"));
  assert.ok(!sameShape("took 12 ms", "took 12\tms"));
  assert.ok(!sameShape("took 12 ms", "took a ms"));
  assert.ok(!sameShape("took 12 ms", "took 12 ms "));
  assert.ok(!sameShape("a1 b", "a12 b"));
  assert.ok(sameShape("é1 b", "é2 b"));
  assert.ok(!sameShape("é1 b", "é12 b"));
  // A wide space splits tokens: "1\u3000a" is two tokens, so the digit run is in a token of its own.
  assert.ok(sameShape("x 1\u3000a", "x 123\u3000a"));
  assert.ok(!sameShape("x 1\u00e0a", "x 123\u00e0a"));
  // Where the lines differ outside a digit run, or one ends first.
  assert.ok(!sameShape("0x1", "0y1"));
  assert.ok(sameShape("x 12", "x 123") && sameShape("x 123", "x 12"));
  assert.ok(!sameShape("x 12", "x 12 ") && !sameShape("x 12 ", "x 12"));
  assert.ok(!sameShape("12", "") && !sameShape("", "1") && sameShape("", ""));
  assert.ok(!sameShape("a 00x 9", "a 0x 12345") && !sameShape("a 10x", "a 0x"));
  assert.ok(sameShape("a 1x", "a 9x") && !sameShape("a0x b", "a1x b") && !sameShape("a12x", "a0x"));
  assert.ok(sameShape("a 00x 9", "a 50x 12345"));
});

Deno.test({
  name:
    "sameShape agrees with the plain shape key on real lines and renumbered ones; equal shapes hash alike",
  ignore: SHARED === null,
}, () => {
  const logs = corpora(SHARED!);
  const rnd = random(20261202);
  let same = 0, differ = 0;
  for (const { name, lines: ls } of logs) {
    for (let i = 0; i < ls.length; i++) {
      const a = ls[i];
      for (const b of [renumber(a, rnd, 0), renumber(a, rnd, 6), ls[(i + 1) % ls.length]]) {
        const want = refKey(a) === refKey(b);
        assert.equal(sameShape(a, b), want, `${name} line ${i + 1}: ${JSON.stringify([a, b])}`);
        if (want) assert.equal(shapeHash(a), shapeHash(b), `${name} line ${i + 1}`), same++;
        else differ++;
      }
    }
  }
  assert.ok(same > 10_000 && differ > 10_000, `${same} pairs of one shape, ${differ} not`);
});

/** The line's bytes at offset 3 of a buffer with bytes around them (so `s` and `e` are not the ends). */
function placed(line: string): { b: Uint8Array; v: DataView; s: number; e: number } {
  const t = new TextEncoder().encode(line);
  const all = new Uint8Array(t.length + 16).fill(0x31); // "1" around: a digit run must not run past s or e
  const b = all.subarray(5); // a view not at its buffer's start
  b.set(t, 3);
  return { b, v: new DataView(b.buffer, b.byteOffset, b.byteLength), s: 3, e: 3 + t.length };
}

/** sameShapeBytes of two lines placed in buffers. */
function sameBytes(x: string, y: string): boolean {
  const a = placed(x), b = placed(y);
  return sameShapeBytes(a.b, a.v, a.s, a.e, b.b, b.v, b.s, b.e);
}

/** Whether a line is ASCII (the byte path's lines). */
const isAscii = (l: string) => /^\p{ASCII}*$/u.test(l);

Deno.test("sameShapeBytes and shapeHashBytes: the cases of sameShape, on bytes inside a buffer", () => {
  const pairs: [string, string][] = [
    ["took 12 ms", "took 12345 ms"],
    ["at 10:02:33.1 [7]", "at 9:2:3.12345 [123]"],
    ["blk_123 done", "blk_1234 done"],
    ["id 0x1f", "id 1x1f"],
    ["id 0x1f", "id 0x2f"],
    ["took 12 ms", "took 12\tms"],
    ["a1 b", "a12 b"],
    ["x 12", "x 12 "],
    ["12", ""],
    ["", "1"],
    ["", ""],
    ["1", "12"],
    ["12 a", "1 a"],
    ["a 00x 9", "a 0x 12345"],
    ["a 00x 9", "a 50x 12345"],
    ["a0x b", "a1x b"],
    ["a12x", "a0x"],
    ["took 12345678 ms and 9 s", "took 12345678 ms and 10 s"],
    ["2024-05-01 10:00:00 INFO a job 1234 done", "2024-05-01 10:00:00 INFO a job 12 done"],
    ["2024-05-01 10:00:00 INFO job1234 done", "2024-05-01 10:00:00 INFO job12 done"],
    ["abcdefgh", "abcdefgi"],
    ["abcdefgh1", "abcdefgh"],
  ];
  let same = 0;
  for (const [x, y] of pairs) {
    for (const [a, b] of [[x, y], [y, x]]) {
      const { b: buf, s, e } = placed(a);
      assert.equal(sameBytes(a, b), sameShape(a, b), JSON.stringify([a, b]));
      assert.equal(shapeHashBytes(buf, s, e), shapeHash(a), JSON.stringify(a));
      if (sameShape(a, b)) same++;
    }
  }
  assert.ok(same >= 8 && same < pairs.length * 2, `${same} pairs of one shape`);
});

Deno.test({
  name: "sameShapeBytes and shapeHashBytes agree with sameShape and shapeHash on the corpora's ASCII lines",
  ignore: SHARED === null,
}, () => {
  const logs = corpora(SHARED!);
  const rnd = random(26);
  let same = 0, differ = 0;
  for (const { name, lines: ls } of logs) {
    for (let i = 0; i < ls.length; i++) {
      const a = ls[i];
      if (!isAscii(a)) continue;
      const { b: buf, s, e } = placed(a);
      assert.equal(shapeHashBytes(buf, s, e), shapeHash(a), `${name} line ${i + 1}`);
      for (const b of [renumber(a, rnd, 0), renumber(a, rnd, 6), ls[(i + 1) % ls.length]]) {
        if (!isAscii(b)) continue;
        const want = sameShape(a, b);
        assert.equal(sameBytes(a, b), want, `${name} line ${i + 1}: ${JSON.stringify([a, b])}`);
        if (want) same++;
        else differ++;
      }
    }
  }
  assert.ok(same > 10_000 && differ > 10_000, `${same} pairs of one shape, ${differ} not`);
});

/** Every line's cluster index (and the miner) mining `ls`, with or without the shape cache. */
function mine(
  ls: readonly string[],
  shapeCache: boolean,
  maxTemplates?: number,
): { miner: TemplateMiner; idx: number[] } {
  const miner = new TemplateMiner({ shapeCache, maxTemplates });
  const layout = learnHeader(ls.slice(0, 200));
  return { miner, idx: ls.map((l, i) => miner.add(l, i + 1, layout)) };
}

Deno.test({
  name: "the shape cache gives every line the cluster the tree gives it (real corpora, renumbered passes)",
  ignore: SHARED === null,
}, () => {
  const logs = corpora(SHARED!);
  const rnd = random(7);
  let hits = 0;
  const one: string[] = [];
  for (const { name, lines: ls } of logs) {
    // The log, then twice renumbered (same lengths, then other lengths): later passes take the cache.
    const all = [...ls, ...ls.map((l) => renumber(l, rnd, 0)), ...ls.map((l) => renumber(l, rnd, 5))];
    one.push(...all);
    for (const max of [undefined, 20]) {
      const slow = mine(all, false, max), fast = mine(all, true, max);
      assert.deepEqual(fast.idx, slow.idx, `${name} maxTemplates ${max}`);
      assert.deepEqual(fast.miner.templates(), slow.miner.templates(), `${name} maxTemplates ${max}`);
      assert.equal(fast.miner.otherLines, slow.miner.otherLines);
      assert.deepEqual(fast.miner.snapshot(), slow.miner.snapshot(), name);
    }
    hits += all.length;
  }
  // All logs through one miner (leaves shared across logs, the cap reached).
  for (const max of [undefined, 300]) {
    const slow = mine(one, false, max), fast = mine(one, true, max);
    assert.deepEqual(fast.idx, slow.idx, `one miner, maxTemplates ${max}`);
    assert.deepEqual(fast.miner.templates(), slow.miner.templates());
  }
  assert.ok(hits > 50_000, `${hits} lines`);
});

Deno.test({
  name: "addBytes counts each ASCII line as add of its text does, or leaves it to add (real corpora)",
  ignore: SHARED === null,
}, () => {
  const logs = corpora(SHARED!);
  const rnd = random(11);
  const one: string[] = [];
  let taken = 0, left = 0;
  /** Mines `all` as `mineTemplates` gives lines: an ASCII line first as bytes, its text when not taken. */
  const byBytes = (all: readonly string[], max?: number) => {
    const miner = new TemplateMiner({ maxTemplates: max });
    const layout = learnHeader(all.slice(0, 200));
    const idx = all.map((l, i) => {
      if (isAscii(l)) {
        const { b, s, e } = placed(l);
        const c = miner.addBytes(b, s, e, i + 1, layout);
        if (c !== NOT_TAKEN) return taken++, c;
        left++;
      }
      return miner.add(l, i + 1, layout);
    });
    return { miner, idx };
  };
  for (const { name, lines: ls } of logs) {
    const all = [...ls, ...ls.map((l) => renumber(l, rnd, 0)), ...ls.map((l) => renumber(l, rnd, 5))];
    one.push(...all);
    for (const max of [undefined, 20]) {
      const slow = mine(all, true, max), fast = byBytes(all, max);
      assert.deepEqual(fast.idx, slow.idx, `${name} maxTemplates ${max}`);
      assert.deepEqual(fast.miner.templates(), slow.miner.templates(), `${name} maxTemplates ${max}`);
      assert.equal(fast.miner.totalLines, slow.miner.totalLines);
      assert.equal(fast.miner.otherLines, slow.miner.otherLines);
      assert.deepEqual(fast.miner.snapshot(), slow.miner.snapshot(), name);
    }
  }
  for (const max of [undefined, 300]) {
    const slow = mine(one, false, max), fast = byBytes(one, max);
    assert.deepEqual(fast.idx, slow.idx, `one miner, maxTemplates ${max}`);
    assert.deepEqual(fast.miner.templates(), slow.miner.templates());
  }
  // Without the cache nothing is taken as bytes.
  const off = new TemplateMiner({ shapeCache: false });
  const { b, s, e } = placed("took 12 ms");
  off.add("took 13 ms", 1);
  assert.equal(off.addBytes(b, s, e, 2, null), NOT_TAKEN);
  assert.equal(off.totalLines, 1);
  assert.ok(taken > 50_000 && left > 1000, `${taken} lines taken as bytes, ${left} left to add`);
});

/**
 * A regex where each `<*>` stands for any run of characters (re2js: linear time).
 */
function templateRegex(t: string): RE2JS {
  return RE2JS.compile(t.split("<*>").map((p) => RE2JS.quote(p)).join("(?s:.*)"));
}

Deno.test({
  name: "with the shape cache, each Loghub template counts the lines its text matches (counted apart)",
  ignore: SHARED === null,
}, () => {
  const dir = SHARED!;
  for (const name of ["Apache", "HDFS", "Hadoop", "Linux", "OpenSSH", "Spark", "Zookeeper"]) {
    const ls = lines(Deno.readTextFileSync(join(dir, "corpus", "loghub", `${name}_2k.log`)));
    const { miner, idx } = mine(ls, true);
    const ts = miner.templates();
    const res = ts.map((t) => templateRegex(t.template));
    const place = new Map(ts.map((t, k) => [t.template, k]));
    // Per template, the lines its text matches, and those no other template's text matches.
    const matches = new Array(ts.length).fill(0), only = new Array(ts.length).fill(0);
    for (let i = 0; i < ls.length; i++) {
      const hit = res.flatMap((re, k) => (re.matches(ls[i]) ? [k] : []));
      for (const k of hit) matches[k]++;
      if (hit.length === 1) only[hit[0]]++;
      const own = place.get(miner.text(idx[i]))!;
      assert.ok(hit.includes(own), `${name} line ${i + 1} matches its template ${ts[own].template}`);
    }
    let exact = 0;
    for (let k = 0; k < ts.length; k++) {
      const t = ts[k];
      assert.ok(
        only[k] <= t.count && t.count <= matches[k],
        `${name}: ${t.template}: ${only[k]} ≤ ${t.count} ≤ ${matches[k]}`,
      );
      if (t.count === matches[k]) exact++;
    }
    console.log(`${name}: ${exact} of ${ts.length} templates count exactly the lines they match`);
    assert.equal(ts.reduce((s, t) => s + t.count, 0), ls.length, name);
  }
});
