/**
 * Issue #26, item 3: `log_levels`' counts through the scanner's counting loop (`read/count_levels.ts`
 * `countLevels`, `hand_lines.ts` `countEveryLine`) equal the reference's (`tests/level_reference.ts`, an
 * independent slow copy of the rules), line by line in order, over every line of both corpora
 * (`../shared/corpus/loghub`, `../shared/corpus/lnav/logs`): in file order, and shuffled (seeded), at
 * piece sizes from a few bytes (every line a long line) to the server's 1 MiB. Counts, entries,
 * continuation lines and unscaled lines must all agree.
 *
 * SKIP (ignored, the reason printed) where `../shared` is absent.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import * as ref from "./level_reference.ts";
import { corporaPool } from "../bench/corpora_log.ts";
import { rng } from "../bench/loghub_log.ts";
import { sharedDir } from "./shared_dir.ts";
import { tempDir } from "./fixtures.ts";
import { openRoots } from "../src/source/local/roots.ts";
import { openLogSync } from "../src/source/local/log_file.ts";
import { countLevels } from "../src/read/count_levels.ts";
import { lineLevel } from "../src/read/level.ts";

const shared = sharedDir("log_levels against the reference over both corpora (issue #26)");

/** How many bytes of a line longer than the buffer the scanner keeps (`count_levels.ts` headBytes). */
const HEAD = Math.max(ref.STRUCTURED_BYTES, ref.HEADER_BYTES);

/**
 * The reference's counts of `lines` (each ending with LF) read in order, as `log_levels` gives them.
 * A line longer than `pieceSize` is read by its first {@linkcode HEAD} bytes, as the scanner reads a
 * long line (`ScanOptions.levelCounts`).
 */
function reference(lines: Uint8Array[], pieceSize: number) {
  const t = new ref.LevelTally();
  for (const l of lines) {
    const len = l.length - 1; // without its LF
    const long = l.length > pieceSize && len > HEAD;
    t.add(l, 0, long ? HEAD : len);
  }
  const c = t.counts;
  return {
    counts: Object.fromEntries(ref.LEVELS.map((n, i) => [n, c[i] + c[ref.CONTINUED + i]])),
    entries: Object.fromEntries(ref.LEVELS.map((n, i) => [n, c[i]])),
    continuation_lines: c.subarray(ref.CONTINUED).reduce((n, x) => n + x, 0),
    unscaled_levels: t.unscaled,
  };
}

/** Writes `lines` to a temporary log and counts it with `countLevels` at each piece size. */
async function check(lines: Uint8Array[], what: string): Promise<void> {
  const dir = tempDir("logpeek-levels-ref-");
  const size = lines.reduce((n, l) => n + l.length, 0);
  const all = new Uint8Array(size);
  let at = 0;
  for (const l of lines) {
    all.set(l, at);
    at += l.length;
  }
  Deno.writeFileSync(join(dir, "mix.log"), all);
  const roots = openRoots([dir], "/");
  for (const pieceSize of [5, 64, 333, 4096, 65536, 1 << 20]) {
    using log = openLogSync(roots, "mix.log");
    const r = await countLevels(log, { levelsMs: 600000, pieceSize });
    assert.equal(r.complete, true, `${what}, piece ${pieceSize}`);
    assert.equal(r.total_lines, lines.length, `${what}, piece ${pieceSize}: lines`);
    if (r.log_format !== null) { // a format of its own would read other rules than the reference's
      throw new Error(`${what}: read as ${r.log_format}, not by the general rules`);
    }
    const got = {
      counts: r.counts,
      entries: r.entries,
      continuation_lines: r.continuation_lines,
      unscaled_levels: r.unscaled_levels,
    };
    assert.deepEqual(got, reference(lines, pieceSize), `${what}, piece ${pieceSize}`);
  }
}

Deno.test(
  "log_levels counts every line of both corpora as the reference does, in file order, at every piece size",
  {
    ignore: shared === null,
  },
  async () => {
    const { lines } = corporaPool(shared!, "both");
    assert.ok(lines.length > 15000, `${lines.length} lines`);
    await check(lines, "file order");
  },
);

Deno.test(
  "log_levels counts every line of both corpora as the reference does, shuffled, at every piece size",
  {
    ignore: shared === null,
  },
  async () => {
    const { lines } = corporaPool(shared!, "both");
    const rnd = rng(26);
    for (let i = lines.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [lines[i], lines[j]] = [lines[j], lines[i]];
    }
    await check(lines, "shuffled");
  },
);

Deno.test("lineLevel after a BSD syslog timestamp (level.ts syslogTag's one pass over host and tag) gives the reference's codes on generated hosts, tags and messages", () => {
  const r = rng(7);
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)];
  const hosts = [
    "combo",
    "LabSZ",
    "ubu-mac",
    "10.0.0.1",
    "ERROR",
    "error",
    "host1",
    "h",
    "Warn-x",
    "a.b_c",
    "[x]",
    "",
    "x:y",
    "info",
    "Info2",
    "sev",
    "crit.host",
    "  ",
    "\t",
    "WRN",
  ];
  const tags = [
    "sshd[24200]:",
    "sshd(pam_unix)[19939]:",
    "kernel:",
    "su(pam_unix)[1]:",
    "[123]:",
    "x:",
    "error:",
    "warn[1]:",
    "a/WARN]:",
    "abc[:",
    "abc]:",
    "abc[1]x:",
    "::",
    "logrotate:",
    "cron[1]",
    "d(e:",
    "info(x):",
    "a[b[c]]:",
    "x]]:",
    "sshd[1]:x",
    "sshd[1]::",
  ];
  const messages = [
    " error: x",
    " ERROR x",
    " Failure registering",
    " warning: y",
    " *** fatal",
    " reverse mapping",
    "",
    " ",
    "  error",
    "\terror",
    " failed - x",
    " [error] z",
    " info",
    " Error:",
  ];
  const stamps = ["Dec 10 06:55:46 ", "Jun  4 15:16:01 ", "Jan 31 00:00:00 "];
  const enc = new TextEncoder();
  const codes = new Set<number>();
  for (let n = 0; n < 50000; n++) {
    let s = pick(stamps) + pick(hosts) + pick([" ", "  ", "\t", ""]) + pick(tags) + pick(messages);
    if (r() < 0.2) s = s.slice(0, Math.floor(r() * s.length));
    const b = enc.encode(s);
    for (const hint of [-1, 0]) {
      const want = ref.lineLevel(b, 0, b.length, hint);
      assert.equal(lineLevel(b, 0, b.length, hint), want, JSON.stringify(s));
      codes.add(want);
    }
  }
  assert.ok(codes.size >= 5, `levels seen: ${[...codes]}`);
});

Deno.test("lineLevel on lines that start with `[` and a letter (Apache's error-log stamp tried first) gives the reference's codes on generated, mutated stamps", () => {
  const r = rng(11);
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)];
  const enc = new TextEncoder();
  const stamps = [
    "[Sun Dec 04 04:47:44 2005] ",
    "[Mon Jan  1 00:00:00 2024] ",
    "[Sun Dec 04 04:47:44 2005]",
    "[Err Dec 04 04:47:44 2005] ",
  ];
  const rests = [
    "[notice] x",
    "[error] y",
    "error z",
    "[client 1.2.3.4] warn",
    "",
    " ",
    "WARN",
    "[warn]",
    "jk2_init() Found",
    "[ERROR/main]",
    "x [error]",
  ];
  /** The SIMD hint: the offset of the first ASCII letter or ESC in the first 32 bytes, else 255. */
  const hintOf = (b: Uint8Array) => {
    for (let i = 0; i < Math.min(b.length, 32); i++) {
      const c = b[i] | 0x20;
      if ((c >= 97 && c <= 122) || b[i] === 27) return i;
    }
    return 255;
  };
  const codes = new Set<number>();
  for (let n = 0; n < 50000; n++) {
    let s = pick(stamps) + pick(rests);
    if (r() < 0.3) {
      const k = Math.floor(r() * s.length);
      s = s.slice(0, k) + pick(["x", " ", "1", "]", "[", ""]) + s.slice(k + 1);
    }
    if (r() < 0.2) s = s.slice(0, Math.floor(r() * s.length));
    const b = enc.encode(s);
    for (const hint of [hintOf(b), -1]) {
      const want = ref.lineLevel(b, 0, b.length, hint);
      assert.equal(lineLevel(b, 0, b.length, hint), want, JSON.stringify(s));
      codes.add(want);
    }
  }
  assert.ok(codes.size >= 4, `levels seen: ${[...codes]}`);
});

Deno.test("lineLevel on access-log lines (level.ts accessLine's fixed offsets) gives the reference's codes on generated, mutated lines", () => {
  const r = rng(12);
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)];
  const enc = new TextEncoder();
  const clients = ["54.36.149.41", "1.2.3.4", "127.0.0.1", "10.0.0.255", "1234567890123456"];
  const middles = [" - - [", " - frank [", " - - [[", " -  - ["];
  const times = [
    "22/Jan/2019:03:56:14 +0330] ",
    "10/Oct/2000:13:55:36 -0700] ",
    "22/Err/2019:03:56:14 +0330] ",
  ];
  const requests = [
    '"GET /x HTTP/1.1" 200 1',
    '"ERROR /x" 500 1',
    '"-" 400 0',
    '"GET/error x" 200',
    '"get ',
    '"WARN x"',
    '"GET',
  ];
  const codes = new Set<number>();
  for (let n = 0; n < 50000; n++) {
    let s = pick(clients) + pick(middles) + pick(times) + pick(requests);
    if (r() < 0.4) {
      const k = Math.floor(r() * s.length);
      s = s.slice(0, k) + pick(["x", " ", "1", "]", "[", "", "error", "\x1b[0m"]) + s.slice(k + 1);
    }
    if (r() < 0.2) s = s.slice(0, Math.floor(r() * s.length));
    const b = enc.encode(s);
    for (
      const hint of [
        -1,
        ...(s.search(/[A-Za-z]/) > 0 && s.search(/[A-Za-z]/) < 32 ? [s.search(/[A-Za-z]/)] : []),
      ]
    ) {
      const want = ref.lineLevel(b, 0, b.length, hint);
      assert.equal(lineLevel(b, 0, b.length, hint), want, JSON.stringify(s));
      codes.add(want);
    }
  }
  assert.ok(codes.size >= 3, `levels seen: ${[...codes]}`);
});
