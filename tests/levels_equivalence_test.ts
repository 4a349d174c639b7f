/**
 * Issue #23, item 6: the faster level detection of `src/read/level.ts` gives every line the code the rules
 * gave before it (`tests/level_reference.ts`, a frozen copy of `level.ts` before the speed work): each
 * line of both corpora (`../shared/corpus/loghub`, `../shared/corpus/lnav/logs`), in file order and
 * shuffled, through `lineLevel` with the SIMD hint the scanner gives, with none, and through a
 * `LevelTally` (the codes it returns and its counts); then generated lines: every prefix of each corpus
 * line's first 96 bytes, level words in many settings and cases, long lines past the structured limit,
 * and seeded random lines made of header tokens (timestamps, level words, brackets, tags, JSON and
 * logfmt keys, ANSI codes, frames).
 *
 * The corpus tests print SKIP and are ignored where `../shared` is absent; the generated lines run always.
 *
 * @module
 */

import assert from "node:assert/strict";
import { levelOf, LevelTally, lineLevel, STRUCTURED_BYTES } from "../src/read/level.ts";
import * as ref from "./level_reference.ts";
import { POSITIONS, simdScanner } from "../src/read/simd.ts";
import { binaryOrGzip, corporaFiles, splitLines } from "../bench/corpora_log.ts";
import { rng } from "../bench/loghub_log.ts";
import { sharedDir } from "./shared_dir.ts";

const shared = sharedDir("the level equivalence over both corpora (issue #23)");

const BUF = 1 << 22;

/** Where each line ends in a buffer packed with lines (LF after each), and its SIMD hint. */
interface Packed {
  buf: Uint8Array;
  starts: number[];
  ends: number[];
  hints: number[];
}

/** Packs `lines` (as many as fit in {@linkcode BUF}) into one SIMD buffer and lists them as the scanner does. */
function pack(lines: Uint8Array[]): { packed: Packed; used: number } {
  const s = simdScanner(BUF);
  let at = 0, used = 0;
  for (const l of lines) {
    if (at + l.length + 1 > BUF) break;
    s.buf.set(l, at);
    at += l.length;
    s.buf[at++] = 10;
    used++;
  }
  const packed: Packed = { buf: s.buf, starts: [], ends: [], hints: [] };
  let ls = 0;
  while (ls < at) {
    const count = s.lines(ls, at);
    for (let k = 0; k < count; k++) {
      const nl = s.positions[k] & 0xffffff;
      packed.starts.push(ls);
      packed.ends.push(nl);
      packed.hints.push(s.positions[k] >>> 24);
      ls = nl + 1;
    }
    if (count < POSITIONS) break;
  }
  assert.equal(packed.starts.length, used, "every packed line listed");
  return { packed, used };
}

const show = (buf: Uint8Array, a: number, b: number) =>
  JSON.stringify(new TextDecoder().decode(buf.subarray(a, b)));

/**
 * Checks every line of `lines` in order: `lineLevel` and `levelOf` with the SIMD hint and without, and a
 * `LevelTally` each side (codes returned, counts at the end). Returns how many lines were checked.
 */
function same(what: string, lines: Uint8Array[]): number {
  let done = 0;
  const mine = new LevelTally(), theirs = new ref.LevelTally();
  while (done < lines.length) {
    const { packed: p, used } = pack(lines.slice(done));
    const { buf } = p;
    for (let k = 0; k < p.starts.length; k++) {
      const a = p.starts[k], b = p.ends[k], h = p.hints[k];
      const where = () => `${what}: line ${done + k + 1} ${show(buf, a, b)}`;
      // Like with like: the reference's answer with the hint is not always its answer without one (a line
      // that starts `.456 ` is a numbered frame to the full rules, not to the hint's fast path).
      const want = ref.lineLevel(buf, a, b, h), bare = ref.lineLevel(buf, a, b);
      if (lineLevel(buf, a, b, h) !== want) {
        assert.equal(lineLevel(buf, a, b, h), want, `${where()} hint ${h}`);
      }
      if (lineLevel(buf, a, b) !== bare) assert.equal(lineLevel(buf, a, b), bare, `${where()} no hint`);
      if (levelOf(buf, a, b, h) !== ref.levelOf(buf, a, b, h)) assert.fail(`${where()}: levelOf`);
      const t = mine.add(buf, a, b, h), u = theirs.add(buf, a, b, h);
      if (t !== u) assert.equal(t, u, `${where()}: LevelTally.add`);
    }
    done += used;
  }
  assert.deepEqual([...mine.counts], [...theirs.counts], `${what}: tally counts`);
  assert.equal(mine.unscaled, theirs.unscaled, `${what}: unscaled`);
  return done;
}

/** Every text file of both corpora with its lines. */
function corpora(dir: string): [string, Uint8Array[]][] {
  const out: [string, Uint8Array[]][] = [];
  for (const f of corporaFiles(dir, "both")) {
    const bytes = Deno.readFileSync(f);
    if (!binaryOrGzip(f, bytes)) out.push([f, splitLines(bytes)]);
  }
  return out;
}

Deno.test({
  name: "every line of both corpora gets the reference's level, in file order and shuffled",
  ignore: shared === null,
  fn() {
    const files = corpora(shared!);
    assert.ok(files.length >= 80, `${files.length} files`); // 7 Loghub logs, 78 of lnav's with lines
    let n = 0;
    for (const [f, lines] of files) n += same(f, lines);
    const pool = files.flatMap(([, ls]) => ls);
    const rnd = rng(23);
    const shuffled = Array.from({ length: 3 * pool.length }, () => pool[Math.floor(rnd() * pool.length)]);
    n += same("shuffled", shuffled);
    assert.ok(n > 4 * 18_000, `${n} lines checked`);
  },
});

Deno.test({
  name: "every short prefix of each corpus line gets the reference's level",
  ignore: shared === null,
  fn() {
    const prefixes: Uint8Array[] = [];
    for (const [, lines] of corpora(shared!)) {
      for (const l of lines) {
        for (let k = 0; k <= Math.min(96, l.length); k++) prefixes.push(l.subarray(0, k));
      }
    }
    assert.ok(same("prefixes", prefixes) > 1_000_000);
  },
});

/** Level words as the rules name them, numbered debug levels, and near misses. */
const WORDS = [
  "trace",
  "trc",
  "verbose",
  "debug",
  "dbg",
  "info",
  "inf",
  "information",
  "notice",
  "warn",
  "warning",
  "wrn",
  "error",
  "err",
  "severe",
  "fatal",
  "ftl",
  "crit",
  "critical",
  "alert",
  "emerg",
  "emergency",
  "panic",
  "failure",
  "config",
  "fine",
  "finer",
  "finest",
  "debug2",
  "debug9",
  "debug0",
  "debug12",
  "errors",
  "infos",
  "warns",
  "tracer",
  "inform",
  "fin",
  "er",
  "noticed",
  "alerts",
  "combo",
  "kernel",
];

/** Settings a level word appears in (`W` is replaced by the word). */
const SETTINGS = [
  "W",
  "W x",
  "W: x",
  "[W] x",
  "(W) x",
  "<W> x",
  "|W| x",
  "W|x",
  "2024-05-01 10:00:00,123 W [main] x",
  "2024-05-01T10:00:00Z W x",
  "[2024-05-01 10:00:00] local.W: x {}",
  "[2024-05-01 10:00:00] app.W x",
  "Dec 10 06:55:46 LabSZ sshd[24200]: W: x",
  "Jun  5 04:06:18 combo kernel: W x",
  "Jun 15 host prog W x",
  "[Sun Dec 04 04:47:44 2005] [W] x",
  "081109 214043 2561 W dfs.DataNode: x",
  "17/06/09 20:11:11 W x: y",
  "- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 RAS KERNEL W x",
  "2015-07-29 19:21:33,067 - W  [QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181:Follower@166] - x",
  '{"level":"W","msg":"x"}',
  '{"msg":"x", "severity" : "W"}',
  "{\"lvl\":'W'}",
  "level=W msg=x",
  "ts=1 lvl=W",
  "msg=x severity=W",
  "  W x",
  "\tW: x",
  "    at W.x(Y.java:1)",
  "\x1b[31mW\x1b[0m x",
  "05-01 10:00:00.123  1234  5678 W Tag: x",
  "W/Tag( 123): x",
  "I0501 10:00:00.000 W x",
  "[main/W] x",
  "host1 myapp W x",
  "host1 myapp my W x",
  "a b c W x",
  "x.W: y",
  "java.lang.W: x",
  "W[05-01|10:00:00] x",
  "[4242]W: x",
  "W[E0308]: x",
  "<13>W x",
  "<191>1 x W",
  "#0 /app/x.php(12): W",
  "... 12 more W",
  "Caused by: W",
  "W2 x",
  "2024 W, x",
  "2024 x W; y",
  "[W:x] y",
  '"W" x',
  "*W* x",
  "=W= x",
  "W\r",
];

const CASES = [
  (w: string) => w,
  (w: string) => w.toUpperCase(),
  (w: string) => w[0].toUpperCase() + w.slice(1),
];

/** Tokens the random lines are made of: pieces of headers, levels and bodies. */
const TOKENS = [
  "2024-05-01",
  "10:00:00",
  ",123",
  ".456",
  "Z",
  "+02:00",
  " ",
  " ",
  " ",
  "  ",
  "\t",
  "Jun",
  "Sun",
  " 5",
  "Dec 10 06:55:46 ",
  "[Sun Dec 04 04:47:44 2005] ",
  "05-01 10:00:00.123 ",
  "I0501 ",
  "<13>",
  "<999>",
  "[",
  "]",
  "(",
  ")",
  ":",
  ".",
  "|",
  "/",
  "=",
  '"',
  "'",
  "{",
  "}",
  ",",
  ";",
  "-",
  "*",
  "#",
  "<",
  ">",
  "@",
  "\x1b[31m",
  "\x1b[0m",
  "\x1b",
  "\r",
  "#0 ",
  "#12 ",
  "at ",
  "Caused by: ",
  "Suppressed: ",
  "Stack trace:",
  "... 3 more",
  'File "x.py", line 3',
  "goroutine 1 [running]:",
  "Traceback (most recent call last):",
  "level=",
  "lvl=",
  "severity=",
  '"level":',
  '"PRIORITY":"3"',
  '"severityNumber":17',
  '"level":30',
  '"level":1',
  "levelname",
  "sshd[123]:",
  "kernel:",
  "local.",
  "app.",
  "W/Tag(123):",
  "E/x:",
  "1234",
  "0",
  "7",
  "42",
  "host",
  "myapp",
  "LabSZ",
  "RAS",
  "KERNEL",
  "java.lang.IllegalStateException",
  "Error",
  "ValueError",
  "x",
  "failed",
  "Failure",
  "\u00e9",
  "\xff",
  "a",
  "Z",
  "_",
  "$",
];

Deno.test("generated lines: level words in many settings, long lines, random header tokens", () => {
  const enc = new TextEncoder();
  const lines: Uint8Array[] = [];
  for (const s of SETTINGS) {
    for (const w of WORDS) for (const c of CASES) lines.push(enc.encode(s.replaceAll("W", c(w))));
  }
  const pad = "x".repeat(STRUCTURED_BYTES);
  for (const tail of ['"level":"error"}', " level=warn", "", "}"]) {
    lines.push(enc.encode(`{"msg":"${pad.slice(0, STRUCTURED_BYTES - 12)}",${tail}`));
    lines.push(enc.encode(`{"msg":"${pad}",${tail}`));
    lines.push(enc.encode(`a=b ${pad.slice(0, STRUCTURED_BYTES - 14)}${tail}`));
    lines.push(enc.encode(`${"2024 ".repeat(50)}ERROR ${tail}`));
  }
  const rnd = rng(2306);
  for (let n = 0; n < 300_000; n++) {
    let line = "";
    const parts = 1 + Math.floor(rnd() * 14);
    for (let k = 0; k < parts; k++) {
      line += rnd() < 0.15
        ? CASES[Math.floor(rnd() * 3)](WORDS[Math.floor(rnd() * WORDS.length)])
        : TOKENS[Math.floor(rnd() * TOKENS.length)];
    }
    lines.push(enc.encode(line));
  }
  assert.ok(same("generated", lines) > 300_000);
});
