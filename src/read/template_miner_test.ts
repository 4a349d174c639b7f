import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { RE2JS } from "re2js";
import { maskToken, type Template, templateId, TemplateMiner } from "./template_miner.ts";
import { sharedDir } from "../../tests/shared_dir.ts";

const LOGS = ["Apache", "HDFS", "Hadoop", "Linux", "OpenSSH", "Spark", "Zookeeper"] as const;
/** Drain's GA on these samples (Zhu et al. ICSE-SEIP 2019, Table of accuracies). */
const DRAIN: Record<string, number> = {
  Apache: 1.0,
  HDFS: 0.998,
  Hadoop: 0.948,
  Linux: 0.690,
  OpenSSH: 0.788,
  Spark: 0.920,
  Zookeeper: 0.967,
};

/**
 * A regex where each `<*>` stands for any run of characters (re2js: linear time, where a backtracking
 * engine with many `[\s\S]*` can take minutes on a line that does not match).
 */
function templateRegex(t: string): { test(s: string): boolean } {
  const re = RE2JS.compile(t.split("<*>").map((p) => RE2JS.quote(p)).join("(?s:.*)"));
  return { test: (s) => re.matches(s) };
}

/** Lines as logpeek reads them: split on LF, a CR before it removed, no empty last line. */
function lines(text: string): string[] {
  const ls = text.split("\n").map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
  if (ls.at(-1) === "") ls.pop();
  return ls;
}

/** Grouping accuracy (Zhu et al. 2019): lines whose predicted group equals their true group as a set. */
function groupingAccuracy(pred: string[], truth: string[]): number {
  const byPred = new Map<string, number[]>(), byTrue = new Map<string, number[]>();
  pred.forEach((p, i) => byPred.set(p, [...(byPred.get(p) ?? []), i]));
  truth.forEach((t, i) => byTrue.set(t, [...(byTrue.get(t) ?? []), i]));
  let ok = 0;
  for (const members of byPred.values()) {
    const t = truth[members[0]];
    const trueSet = byTrue.get(t)!;
    if (trueSet.length === members.length && members.every((i) => truth[i] === t)) ok += members.length;
  }
  return ok / truth.length;
}

Deno.test("maskToken masks numbers, ips, hex, block ids, paths with digits, header date words", () => {
  assert.equal(maskToken("blk_-6952295868487656571", 5), "<*>");
  assert.equal(maskToken("rhost=218.188.2.4", 9), "rhost=<*>");
  assert.equal(maskToken("/10.10.34.11:3888", 9), "<*>");
  assert.equal(maskToken("18:01:47,978", 1), "<*>");
  assert.equal(maskToken("uid=0", 9), "uid=<*>");
  assert.equal(maskToken("Jun", 0), "<*>");
  assert.equal(maskToken("0x7f3a", 9), "0x7f3a".replace(/.*/, "<*>"));
  assert.equal(maskToken("550e8400-e29b-41d4-a716-446655440000", 9), "<*>");
  assert.equal(maskToken("sshd[24200]:", 4), "sshd[<*>]:");
  // A number keeps the punctuation around it, so the template reads as the line (a trial: `line 42, in`
  // was `line <*> in`, `+0000]` lost its bracket).
  assert.equal(maskToken("42,", 9), "<*>,");
  assert.equal(maskToken("+0000]", 9), "<*>]");
  assert.equal(maskToken("8.0.36)", 9), "<*>)");
  assert.equal(maskToken("(5)", 9), "(<*>)");
  assert.equal(maskToken("99:", 9), "<*>:");
  assert.equal(maskToken("[Sun", 0), "<*>");
  assert.equal(maskToken("Sun", 9), "Sun");
  assert.equal(maskToken("fe80::1ff:fe23:4567:890a", 9), "<*>");
  assert.equal(maskToken("hello", 9), "hello");
});

Deno.test("templates keep exact spaces; variable parts become <*>; ids hash the final text", () => {
  const m = new TemplateMiner();
  m.add("a  b 1 c ", 1);
  m.add("a  b 2 c ", 2);
  m.add("a  b 0x1f c ", 3);
  const [t] = m.templates();
  assert.equal(t.template, "a  b <*> c ");
  assert.equal(t.count, 3);
  assert.equal(t.firstLine, 1);
  assert.equal(t.lastLine, 3);
  assert.equal(t.example, "a  b 1 c ");
  assert.equal(t.id, templateId(t.template));
  assert.equal(m.totalLines, 3);
  assert.equal(m.otherLines, 0);
});

Deno.test("a line that differs only in spaces still matches its template", () => {
  const m = new TemplateMiner();
  m.add("x y z w", 1);
  m.add("x  y z w", 2);
  const [t] = m.templates();
  assert.equal(t.count, 2);
  assert.ok(templateRegex(t.template).test("x y z w"));
  assert.ok(templateRegex(t.template).test("x  y z w"));
});

Deno.test("the cap: lines that fit no template once it is reached are counted in otherLines", () => {
  const m = new TemplateMiner({ maxTemplates: 2 });
  assert.equal(m.add("alpha beta", 1), 0);
  assert.equal(m.add("gamma delta epsilon", 2), 1);
  assert.equal(m.add("one two three four", 3), -1);
  assert.equal(m.add("alpha beta", 4), 0);
  assert.equal(m.size, 2);
  assert.equal(m.text(1), "gamma delta epsilon");
  assert.equal(m.id(1), templateId("gamma delta epsilon"));
  assert.throws(() => m.text(2), RangeError);
  assert.equal(m.otherLines, 1);
  assert.equal(m.totalLines, 4);
  assert.equal(m.templates().reduce((s, t) => s + t.count, 0), 3);
});

/** The seven logs' lines and true EventIds, or null when the shared corpus is absent. */
function loghub(what: string): { name: string; lines: string[]; truth: string[] }[] | null {
  const dir = sharedDir(what);
  if (dir === null) return null;
  return LOGS.map((name) => {
    const base = join(dir, "corpus", "loghub", `${name}_2k.log`);
    const ls = lines(Deno.readTextFileSync(base));
    const truth = (parse(Deno.readTextFileSync(`${base}_structured.csv`), { columns: true }) as Record<
      string,
      string
    >[]).map((r) => r.EventId);
    assert.equal(ls.length, truth.length, name);
    return { name, lines: ls, truth };
  });
}

Deno.test("Loghub: every line matches its template; grouping accuracy against the true EventId", () => {
  const logs = loghub("template miner on Loghub");
  if (logs === null) return;
  const rows: string[] = [];
  const gas: number[] = [];
  for (const { name, lines: ls, truth } of logs) {
    const { miner, ids: pred } = assignFinal(ls);
    const ts = miner.templates();
    const byId = new Map<string, Template>(ts.map((t) => [t.id, t]));
    const res = ts.map((t) => templateRegex(t.template));
    for (let i = 0; i < ls.length; i++) {
      const t = byId.get(pred[i]);
      assert.ok(t !== undefined, `${name} line ${i + 1} has a template`);
      assert.ok(res[ts.indexOf(t)].test(ls[i]), `${name} line ${i + 1} matches ${t.template}`);
    }
    assert.equal(ts.reduce((s, t) => s + t.count, 0), ls.length);
    const ga = groupingAccuracy(pred, truth);
    gas.push(ga);
    rows.push(
      `${name.padEnd(10)} ${ga.toFixed(3)}  ${DRAIN[name].toFixed(3)}  ${String(ts.length).padStart(4)} ${
        String(new Set(truth).size).padStart(4)
      }`,
    );
  }
  const mean = gas.reduce((a, b) => a + b, 0) / gas.length;
  const drain = Object.values(DRAIN).reduce((a, b) => a + b, 0) / LOGS.length;
  console.log(
    `log        GA     Drain  tmpl true\n${rows.join("\n")}\nmean       ${mean.toFixed(3)}  ${
      drain.toFixed(3)
    }`,
  );
  console.log(overfitTable(logs));
  assert.ok(mean >= MEAN_TARGET, `mean GA ${mean}`);
  assert.ok(Math.min(...gas) >= MIN_TARGET, `min GA ${Math.min(...gas)}`);
});

/**
 * Against overfitting (printed beside the asserted table, not asserted): GA per log when the seven logs
 * go to one miner in sequence, and when each log's lines are shuffled (seeded) before mining.
 */
function overfitTable(logs: { lines: string[]; truth: string[] }[]): string {
  const one = new TemplateMiner();
  const idx = logs.map(({ lines: ls }) => ls.map((l, i) => one.add(l, i + 1)));
  const oneGa = logs.map(({ truth }, k) => groupingAccuracy(idx[k].map((i) => one.id(i)), truth));
  let seed = 20261201;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const shuffled = logs.map(({ lines: ls, truth }) => {
    const order = ls.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return groupingAccuracy(assignFinal(order.map((i) => ls[i])).ids, order.map((i) => truth[i]));
  });
  const mean = (a: number[]) => (a.reduce((x, y) => x + y, 0) / a.length).toFixed(3);
  return `log        one    shuffled\n${
    LOGS.map((n, i) => `${n.padEnd(10)} ${oneGa[i].toFixed(3)}  ${shuffled[i].toFixed(3)}`).join("\n")
  }\nmean       ${mean(oneGa)}  ${mean(shuffled)}`;
}

/** The targets reached (asserted). */
const MEAN_TARGET = 0.95;
const MIN_TARGET = 0.81;

/** Each line's final template id. */
function assignFinal(ls: string[]): { miner: TemplateMiner; ids: string[] } {
  const miner = new TemplateMiner();
  const idx = ls.map((l, i) => miner.add(l, i + 1));
  return { miner, ids: idx.map((i) => miner.id(i)) };
}

/** The seven Loghub samples' lines, in LOGS order, or null when the shared corpus is absent. */
function loghubLines(what: string): string[][] | null {
  const dir = sharedDir(what);
  if (dir === null) return null;
  return LOGS.map((name) => lines(Deno.readTextFileSync(join(dir, "corpus", "loghub", `${name}_2k.log`))));
}

/** Every line's cluster index, and the final texts, mining `ls` with a snapshot and restore after `k` lines. */
function mineWithRestore(
  ls: string[],
  k: number,
  opts: { maxTemplates?: number },
): { idx: number[]; texts: string[]; other: number; total: number } {
  let m = new TemplateMiner(opts);
  const idx: number[] = [];
  for (let i = 0; i < ls.length; i++) {
    if (i === k) m = TemplateMiner.restore(JSON.parse(JSON.stringify(m.snapshot())), opts);
    idx.push(m.add(ls[i], i + 1));
  }
  if (k === ls.length) m = TemplateMiner.restore(JSON.parse(JSON.stringify(m.snapshot())), opts);
  return {
    idx,
    texts: Array.from({ length: m.size }, (_, i) => m.text(i)),
    other: m.otherLines,
    total: m.totalLines,
  };
}

Deno.test("snapshot and restore: mining goes on exactly as without the break (Loghub, one miner)", () => {
  const logs = loghubLines("snapshot/restore on Loghub");
  if (logs === null) return;
  const all = logs.flat();
  assert.equal(all.length, 14000);
  for (const maxTemplates of [5000, 40]) {
    const whole = mineWithRestore(all, -1, { maxTemplates });
    if (maxTemplates === 40) {
      assert.equal(whole.texts.length, 40);
      assert.ok(whole.other > 0, `otherLines ${whole.other}`);
    }
    for (const k of [0, 1, 999, 2000, 6543, 13999, 14000]) {
      const r = mineWithRestore(all, k, { maxTemplates });
      assert.deepEqual(r.idx, whole.idx, `maxTemplates ${maxTemplates}, k ${k}`);
      assert.deepEqual(r.texts, whole.texts, `maxTemplates ${maxTemplates}, k ${k}`);
      assert.equal(r.other, whole.other);
      assert.equal(r.total, 14000);
    }
  }
});

Deno.test("restore rejects malformed snapshots with TypeError", () => {
  const m = new TemplateMiner();
  m.add("alpha beta 1", 1);
  m.add("alpha beta 2", 2);
  m.add("gamma delta", 3);
  const good = m.snapshot();
  const ok = TemplateMiner.restore(JSON.parse(JSON.stringify(good)));
  assert.equal(ok.size, 2);
  assert.equal(ok.text(0), "alpha beta <*>");
  assert.equal(ok.add("alpha beta 3", 4), 0);
  // deno-lint-ignore no-explicit-any
  const bads: [string, (s: any) => unknown][] = [
    ["null", () => null],
    ["a string", () => "x"],
    ["an array", () => []],
    ["wrong version", (s) => (s.v = 1, s)],
    ["header count over the tokens", (s) => (s.clusters[0].h = 9, s)],
    ["header count below -1", (s) => (s.clusters[0].h = -2, s)],
    ["header count missing", (s) => (delete s.clusters[0].h, s)],
    ["totalLines a string", (s) => (s.totalLines = "3", s)],
    ["negative otherLines", (s) => (s.otherLines = -1, s)],
    ["otherLines over totalLines", (s) => (s.otherLines = 9, s)],
    ["counts not summing", (s) => (s.totalLines = 4, s)],
    ["negative count", (s) => (s.clusters[0].count = -2, s.clusters[1].count = 5, s)],
    ["fractional count", (s) => (s.clusters[0].count = 1.5, s)],
    ["tokens not an array", (s) => (s.clusters[0].tokens = "a", s)],
    ["token a number", (s) => (s.clusters[0].tokens[0] = 7, s)],
    ["seps too short", (s) => (s.clusters[0].seps.pop(), s)],
    ["sep not whitespace", (s) => (s.clusters[0].seps[1] = "x", s)],
    // (A last line before the first is fine: one miner mines several logs, each numbered from 1.)
    ["firstLine negative", (s) => (s.clusters[0].firstLine = -1, s)],
    ["example missing", (s) => (delete s.clusters[0].example, s)],
    ["leaf index out of range", (s) => (s.tree[0][1].kids[0][1].kids[0][1].leaf = [5], s)],
    ["leaf index negative", (s) => (s.tree[0][1].kids[0][1].kids[0][1].leaf = [-1], s)],
    ["cluster twice", (s) => (s.tree[1][1].kids[0][1].kids[0][1].leaf.push(0), s)],
    ["cluster missing", (s) => (s.tree[1][1].kids[0][1].kids[0][1].leaf = [], s)],
    ["cluster under the wrong length", (s) => (s.tree[0][0] = 9, s)],
    ["tree not an array", (s) => (s.tree = {}, s)],
    ["tree deeper than depth", (s) => {
      s.tree[1][1].kids[0][1].kids[0][1].kids = [["x", { kids: [["y", { kids: [], leaf: [] }]], leaf: [] }]];
      return s;
    }],
    ["depth too small for the tree", (s) => (s.opts.depth = 3, s)],
    ["similarity out of range", (s) => (s.opts.similarity = 2, s)],
    ["more clusters than maxTemplates", (s) => (s.opts.maxTemplates = 1, s)],
  ];
  for (const [what, spoil] of bads) {
    const s = JSON.parse(JSON.stringify(good));
    assert.throws(() => TemplateMiner.restore(spoil(s)), TypeError, what);
  }
  assert.throws(() => TemplateMiner.restore(good, { depth: 5 }), TypeError);
});

Deno.test("the header (time, level, thread with spaces, logger) is left out of the comparison", () => {
  const m = new TemplateMiner();
  assert.equal(m.add("2015-10-18 18:01:47,978 INFO [main] a.B: Got allocated containers 3", 1), 0);
  assert.equal(m.add("2015-10-18 18:01:48,001 INFO [RM Allocator] a.B: Got allocated containers 4", 2), 0);
  // Same header, another message: a cluster of its own.
  assert.equal(
    m.add("2015-10-18 18:01:48,002 INFO [main] a.B: Recalculating schedule, headroom=<memory:1>", 3),
    1,
  );
  assert.equal(m.text(0), "<*> <*> INFO <*> a.B: Got allocated containers <*>");
  // Headers of different field counts (here none at all): the header becomes one <*>.
  assert.equal(m.add("Got allocated containers 5", 4), 0);
  assert.equal(m.text(0), "<*>Got allocated containers <*>");
  // Syslog: host and tag[pid]: are header fields.
  assert.equal(m.add("Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user webmaster from 173.234.31.186", 5), 2);
  assert.equal(m.add("Dec 10 07:02:47 LabSZ sshd[24203]: Invalid user test9 from 52.80.34.196", 6), 2);
  assert.equal(m.text(2), "<*> <*> <*> LabSZ sshd[<*>]: Invalid user <*> from <*>");
  // Day and month names beside numbers inside a message are masked.
  assert.equal(m.add("connection from 1.2.3.4 at Sun Jul 10 03:55:15 2005", 7), 3);
  assert.equal(m.add("connection from 1.2.3.5 at Mon Aug 11 03:55:15 2005", 8), 3);
  assert.equal(m.text(3), "connection from <*> at <*> <*> <*> <*> <*>");
});

Deno.test("constants' names and key=value keys or value kinds that differ keep lines apart", () => {
  const m = new TemplateMiner();
  assert.equal(m.add("task_1 Task Transitioned from NEW to SCHEDULED", 1), 0);
  assert.equal(m.add("task_2 Task Transitioned from NEW to SCHEDULED", 2), 0);
  assert.equal(m.add("task_3 Task Transitioned from NEW to RUNNING", 3), 1);
  assert.equal(m.add("session opened for user news by (uid=0)", 4), 2);
  assert.equal(m.add("session opened for user cyrus by (uid=0)", 5), 2);
  assert.equal(m.add("session opened for user root by LOGIN(uid=0)", 6), 3);
  assert.equal(m.add("failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=1.2.3.4", 7), 4);
  assert.equal(m.add("failure; logname= uid=0 euid=0 tty=:0 ruser= rhost=", 8), 5);
  assert.equal(m.add("failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=", 9), 4);
  assert.equal(m.text(2), "session opened for user <*> by (uid=<*>)");
  assert.equal(m.text(4), "failure; logname= uid=<*> euid=<*> tty=NODEVssh ruser= <*>");
});

Deno.test("masking through the shape cache equals maskToken (0x kept apart from other digits)", () => {
  // similarity 1: lines join only when their masked tokens are equal, so the clusters show the masks.
  const m = new TemplateMiner({ similarity: 1 });
  const lines = ["k 0x12 v", "k 1x12 v", "k 5x99 v", "k 0X99 v", "k a0x1 v", "k a5x1 v"];
  const idx = lines.map((l, i) => m.add(l, i + 1));
  assert.deepEqual(idx, [0, 1, 1, 0, 2, 3]);
  assert.deepEqual([0, 1, 2, 3].map((i) => m.text(i)), [
    "k <*> v",
    "k <*>x<*> v",
    "k a<*> v",
    "k a<*>x<*> v",
  ]);
  for (const l of lines) {
    const t = l.split(" ")[1];
    assert.ok(m.text(idx[lines.indexOf(l)]).includes(maskToken(t, 1)), l);
  }
});

Deno.test("once the cap is reached the tree stops growing (memory stays bounded)", () => {
  const m = new TemplateMiner({ maxTemplates: 2 });
  m.add("alpha beta", 1);
  m.add("gamma delta epsilon", 2);
  const tree = JSON.stringify(m.snapshot().tree);
  for (let i = 0; i < 500; i++) {
    assert.equal(
      m.add(`w${"x".repeat(i % 7)} v${String.fromCharCode(97 + (i % 26))} ${"y ".repeat(i % 40)}`, 3 + i),
      -1,
    );
  }
  assert.equal(JSON.stringify(m.snapshot().tree), tree);
  assert.equal(m.otherLines, 500);
  assert.equal(m.add("alpha beta", 600), 0);
});

/** A seeded PRNG (mulberry32): the same seed, the same numbers in [0, 1). */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `n` lines that are all different and share no template: 6–8 words of 3–9 random lowercase letters
 * (no digit, so nothing is masked; ~50 characters, as the issue's 1 M distinct lines).
 */
function distinctLines(n: number, seed: number): string[] {
  const r = prng(seed);
  const word = () => {
    let w = "";
    for (let k = 3 + Math.floor(r() * 7); k > 0; k--) w += String.fromCharCode(97 + Math.floor(r() * 26));
    return w;
  };
  return Array.from({ length: n }, () => Array.from({ length: 6 + Math.floor(r() * 3) }, word).join(" "));
}

/**
 * `n` lines of 400 made-up events, each line its event's words with up to three replaced (another word or
 * a number), some behind one of two headers, some with double spaces: lines that join clusters at
 * similarities around st, with ties, key=value pairs and constants' names.
 */
function nearLines(n: number, seed: number): string[] {
  const r = prng(seed);
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)];
  const base = ["alpha", "beta", "gamma", "delta", "key=a", "key=b", "id=", "ERROR_X", "STATE_Y", "to"];
  const vocab = Array.from(
    { length: 40 },
    (_, i) => base[i % 10] + (i >= 10 ? String.fromCharCode(97 + i % 26) : ""),
  );
  const events = Array.from(
    { length: 400 },
    () => Array.from({ length: 4 + Math.floor(r() * 8) }, () => pick(vocab)),
  );
  return Array.from({ length: n }, (_, i) => {
    const words = [...pick(events)];
    for (let s = Math.floor(r() * 4); s > 0; s--) {
      words[Math.floor(r() * words.length)] = r() < 0.5 ? pick(vocab) : String(Math.floor(r() * 1000));
    }
    const head = r() < 0.3
      ? `2024-01-01 10:00:${i % 60} INFO [t${i % 3}] svc: `
      : r() < 0.5
      ? "Jan 1 host sshd[12]: "
      : "";
    return head + words.join(r() < 0.1 ? "  " : " ");
  });
}

Deno.test("a leaf's index finds the cluster that trying each cluster finds, for every line", () => {
  const logs = loghubLines("the leaf index on Loghub");
  // The generated sets under a cap of 1000 (the search that tries each cluster is slow on them: that is
  // what the index is for), Loghub under the default one.
  const sets: [string, string[], number][] = [
    ["distinct", distinctLines(8_000, 1), 1000],
    ["near", nearLines(12_000, 2), 1000],
    ...(logs === null ? [] : [["Loghub, one miner", logs.flat(), 5000] as [string, string[], number]]),
  ];
  for (const [name, ls, cap] of sets) {
    const base = { maxTemplates: cap };
    for (const o of [{}, { similarity: 0.4 }, { similarity: 1, depth: 5 }, { maxTemplates: 50 }]) {
      const opts = { ...base, ...o };
      const what = `${name} ${JSON.stringify(opts)}`;
      const ref = new TemplateMiner({ ...opts, indexAt: Infinity });
      const want = ls.map((l, i) => ref.add(l, i + 1));
      for (const indexAt of [1, 16]) {
        const m = new TemplateMiner({ ...opts, indexAt });
        // Half-way, through a snapshot: the restored miner builds its indexes again.
        let got = ls.slice(0, ls.length >> 1).map((l, i) => m.add(l, i + 1));
        const back = TemplateMiner.restore(JSON.parse(JSON.stringify(m.snapshot())), { indexAt });
        got = got.concat(ls.slice(ls.length >> 1).map((l, i) => back.add(l, (ls.length >> 1) + i + 1)));
        const at = got.findIndex((c, i) => c !== want[i]);
        assert.equal(
          at,
          -1,
          `${what}, indexAt ${indexAt}: line ${at + 1} joined ${got[at]}, not ${want[at]}`,
        );
        assert.deepEqual(back.templates(), ref.templates(), what);
        assert.equal(back.otherLines, ref.otherLines, what);
      }
    }
  }
  assert.throws(() => new TemplateMiner({ indexAt: 0 }), RangeError);
  assert.throws(() => new TemplateMiner({ indexAt: 1.5 }), RangeError);
});

Deno.test("lines that are all different: 60,000 mined in seconds (a line is not tried against every cluster)", () => {
  const ls = distinctLines(60_000, 3);
  assert.equal(new Set(ls).size, ls.length, "the lines are all different");
  const m = new TemplateMiner();
  const t = performance.now();
  ls.forEach((l, i) => m.add(l, i + 1));
  const ms = performance.now() - t;
  // Before the index each line past the cap was tried against the thousands of clusters of its leaf:
  // 16–68 s here; with it ~0.2 s. 8 s leaves room for a loaded machine.
  assert.ok(ms < 8000, `${ms.toFixed(0)} ms for 60,000 distinct lines`);
  assert.equal(m.totalLines, ls.length);
  assert.equal(m.size, 5000, "each line starts a template of its own until the cap");
  assert.equal(m.templates().reduce((s, t) => s + t.count, 0) + m.otherLines, ls.length);
  assert.equal(m.otherLines, ls.length - 5000);
});
