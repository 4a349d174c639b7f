import assert from "node:assert/strict";
import { openLog } from "../source/local/log_file.ts";
import { openRoots, type Root } from "../source/local/roots.ts";
import { LineLiteral, searchLog, type SearchOptions } from "./search.ts";
import { compilePattern } from "./pattern.ts";
import { PatternOffload } from "./pattern_offload.ts";
import { LineRedactor, redactLine } from "../guard/redact.ts";
import { DEFAULT_LIMITS } from "../core/config.ts";
import type { LogLine } from "./log_line.ts";
import type { ResumePoint } from "./readable_log.ts";
import { ToolError } from "../core/errors.ts";

const dir = Deno.makeTempDirSync({ prefix: "logpeek-search-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const roots: Root[] = openRoots([dir], "/");

/** What a pattern sees of a line (search.ts `subject`): what is shown when that masks something. */
function shownOrWhole(line: string, maxLine: number): string {
  if (line.length > maxLine) {
    const r = new LineRedactor(true, false);
    const shown = r.line(line.slice(0, maxLine), true);
    if (r.count > 0) return shown;
  }
  return redactLine(line).text;
}

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

const enc = new TextEncoder();
/** Pieces a random line is made of: ASCII letters in both cases, K (U+212A), ſ (U+017F), damage. */
const PIECES: number[][] = [
  ..."adiksADIKS -".split("").map((c) => [c.charCodeAt(0)]),
  [0xe2, 0x84, 0xaa], // K KELVIN SIGN
  [0xc5, 0xbf], // ſ LONG S
  [0xe2, 0x84], // a Kelvin sign cut short: invalid
  [0xc5], // a long s cut short: invalid
  [0xff],
  [...enc.encode("é")],
  // Look-alikes that the one-pass search for both K and ſ (bits 0x27 and 0x3B set) takes for candidates:
  [...enc.encode("ä")], // C3 A4
  [...enc.encode("翿")], // E7 BF BF
  [...enc.encode("ℬ")], // E2 84 AC: K's first two bytes
];

/** A random log of such lines, LF and CRLF, some longer than the smaller piece sizes. */
function randomLog(rnd: () => number): Uint8Array {
  const out: number[] = [];
  const n = Math.floor(rnd() * 50);
  for (let i = 0; i < n; i++) {
    out.push(...enc.encode(["INFO ", "ERROR "][Math.floor(rnd() * 2)]));
    const len = rnd() < 0.15 ? 200 + Math.floor(rnd() * 2000) : Math.floor(rnd() * 30);
    for (let k = 0; k < len; k++) out.push(...PIECES[Math.floor(rnd() * PIECES.length)]);
    if (i < n - 1 || rnd() < 0.5) out.push(...(rnd() < 0.3 ? [13, 10] : [10]));
  }
  return new Uint8Array(out);
}

/**
 * The reference, written independently of the server's folding: each line decoded with replacement,
 * K and ſ replaced by k and s (the only characters outside ASCII whose simple case folding is an ASCII
 * letter), then ASCII letters lower-cased, and searched for the needle lower-cased the same way.
 */
function referenceLines(bytes: Uint8Array, needle: string, mode: "exact" | "ascii" | "simple"): number[] {
  const partners = (
    s: string,
  ) => (mode === "simple" ? s.replaceAll("\u212a", "k").replaceAll("\u017f", "s") : s);
  const fold = (s: string) => (mode === "exact" ? s : partners(s).replace(/[A-Z]/g, (c) => c.toLowerCase()));
  const text = new TextDecoder().decode(bytes);
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const want: number[] = [];
  lines.forEach((l, i) => {
    if (fold(l.replace(/\r$/, "")).includes(fold(needle))) want.push(i + 1);
  });
  return want;
}

const limits = { ...DEFAULT_LIMITS, searchMs: 1e9 };

/** All matches, by pages of `budget` bytes each resumed where the one before stopped. */
async function paged(opts: SearchOptions, budget: number, file = "f.log"): Promise<LogLine[]> {
  using log = await openLog(roots, file);
  const got: LogLine[] = [];
  let resume: ResumePoint | undefined;
  let pages = 0;
  do {
    const page = await searchLog(log, { ...opts, searchBytes: budget, resume });
    got.push(...page.matches);
    resume = page.next ?? undefined;
    assert.ok(++pages < 100000, "pages make progress");
  } while (resume);
  return got;
}

Deno.test("ignore_case of an ASCII text finds K (U+212A) for k and ſ (U+017F) for s: 126 random logs (every text at every piece size, 3 times), every piece size, budgeted pages", async () => {
  const rnd = rng(1010);
  let lines = 0;
  let viaPartner = 0;
  for (let t = 0; t < 126; t++) {
    const bytes = randomLog(rnd);
    Deno.writeFileSync(`${dir}/f.log`, bytes);
    const text = ["disk", "ks", "s", "k", "Sk", "a-k", "kiss"][t % 7];
    const pieceSize = [1, 3, 7, 64, 1000, 65536][t % 6];
    const base = { ...limits, pieceSize, text, limit: 5000, redact: false, maxLine: 50 };
    using log = await openLog(roots, "f.log");
    const sensitive = await searchLog(log, { ...base, searchBytes: 1e12 });
    const ci = await searchLog(log, { ...base, searchBytes: 1e12, ignoreCase: true });
    assert.equal(ci.complete, true);
    const want = referenceLines(bytes, text, "simple");
    const ciNos = ci.matches.map((m) => m.line_no!);
    assert.deepEqual(ciNos, want, `case ${t}: "${text}" ignoring case, piece ${pieceSize}`);
    assert.deepEqual(sensitive.matches.map((m) => m.line_no), referenceLines(bytes, text, "exact"));
    const set = new Set(ciNos);
    for (const m of sensitive.matches) {
      assert.ok(set.has(m.line_no!), `case ${t}: ⊇ the case-sensitive lines`);
    }
    // Pages under a small byte budget find the same lines (a K or ſ may straddle two pages).
    const pages = await paged({ ...base, ignoreCase: true }, 1 + Math.floor(rnd() * 300));
    assert.deepEqual(pages.map((m) => m.line_no), want, `case ${t}: paged`);
    lines += want.length;
    viaPartner += want.length - referenceLines(bytes, text, "ascii").length;
  }
  console.error(`ignore_case property: 126 logs, ${lines} matching lines`);
  assert.ok(lines > 400 && viaPartner > 0, `${lines} lines matched, some only through K or ſ`);
});

Deno.test("ignore_case of a non-ASCII text is simple case folding on both sides: Greek, Turkish, German", async () => {
  const lines = [
    "ΣΑΣ αρχείο", // 1 capital sigmas
    "σας αρχείο", // 2 final sigma at the word's end
    "ασα", // 3 medial sigma: ΑΣ lower-cased alone would be "ας" (final) and miss it
    "İstanbul", // 4 dotted capital I: no simple folding
    "istanbul", // 5
    "ıstanbul", // 6 dotless small i: no simple folding
    "Istanbul", // 7
    "Straße", // 8
    "STRAẞE", // 9 capital sharp s (U+1E9E) folds to ß
    "STRASSE", // 10 ß folds to ss only in full folding: not here
  ];
  Deno.writeTextFileSync(`${dir}/g.log`, lines.join("\n") + "\n");
  using log = await openLog(roots, "g.log");
  const base = { ...limits, searchBytes: 1e12, pieceSize: 65536, limit: 100, redact: false, maxLine: 100 };
  const nos = async (text: string, ignoreCase: boolean) =>
    (await searchLog(log, { ...base, text, ignoreCase })).matches.map((m) => m.line_no!);
  // Expected sets from CaseFolding.txt (Unicode 16): 03A3;C;03C3, 03C2;C;03C3, 1E9E;S;00DF, 0130 F/T only,
  // 0049;C;0069; 0131 has no entry.
  const cases: [string, number[]][] = [
    ["ΑΣ", [1, 2, 3]],
    ["σας", [1, 2]],
    ["ς", [1, 2, 3]],
    ["İ", [4]],
    ["ıs", [6]],
    ["Iß", []],
    ["ß", [8, 9]],
    ["ẞE", [8, 9]],
    ["stanbul", [4, 5, 6, 7]],
  ];
  for (const [text, want] of cases) {
    const ci = await nos(text, true);
    assert.deepEqual(ci, want, `"${text}" ignoring case`);
    for (const n of await nos(text, false)) assert.ok(ci.includes(n), `"${text}": ⊇ case-sensitive`);
  }
  // ASCII "i" (the byte path) matches I and i, not İ or ı.
  assert.deepEqual(await nos("istanbul", true), [5, 7]);
});

Deno.test("a non-ASCII ignore_case text sees the line as read, as the literal search does: never fewer lines", async () => {
  Deno.writeTextFileSync(`${dir}/s.log`, "login password=Äpfel123 ok\nplain äpfel\n");
  using log = await openLog(roots, "s.log");
  const base = { ...limits, searchBytes: 1e12, pieceSize: 65536, limit: 100, redact: true, maxLine: 100 };
  const exact = await searchLog(log, { ...base, text: "Äpfel" });
  const ci = await searchLog(log, { ...base, text: "Äpfel", ignoreCase: true });
  assert.deepEqual(exact.matches.map((m) => m.line_no), [1]);
  assert.deepEqual(ci.matches.map((m) => m.line_no), [1, 2]);
  assert.equal(ci.matches[0].text, "login password=*** ok", "the returned line is still masked");
});

Deno.test("compilePattern: a syntax error and a pattern RE2 refuses are worded apart; the pattern is quoted as written", () => {
  const err = (p: string) => {
    try {
      compilePattern(p, false);
    } catch (e) {
      assert.ok(e instanceof ToolError && e.kind === "invalid_pattern");
      return e.message;
    }
    assert.fail(`${p} compiled`);
  };
  assert.equal(
    err("(unclosed"),
    "invalid regular expression: missing closing ): `(unclosed` (RE2's syntax, not JavaScript's: no " +
      "backreferences or lookaround)",
  );
  assert.match(err("[z-a]"), /^invalid regular expression: invalid character class range: `z-a`/);
  assert.match(
    err("(?<=id=)\\d+"),
    /^the regular expression `\(\?<=id=\)\\d\+` uses what RE2 cannot run in linear time/,
  );
  assert.match(err("(a)\\1"), /^the regular expression `\(a\)\\1` uses .*\(invalid escape sequence: `\\1`\)/);
  assert.match(err("a{2000}"), /beyond its limits \(invalid repeat count: `\{2000\}`\)/);
  // A tab is shown escaped, a quote and a backslash as written (no JSON escaping).
  assert.match(err('"\t(?=x)\\'), /^invalid regular expression: .*|^the regular expression `"\\t/);
  assert.match(err('"\t(?=x)'), /^the regular expression `"\\t\(\?=x\)` uses/);
});

Deno.test("regex pages under byte budgets equal one search and a line-by-line RegExp: 60 random logs with lines of 1 B to 9 KiB (some tested in the pattern worker), secrets, CRLF, pieces of 64 B to 1 MiB", async () => {
  const rnd = rng(1111);
  const words = ["ab", "abbc", "x", "12x", "9", " ", "z", "INFO", "password=ab12", "k.s"];
  const patterns = ["ab+c", "[0-9]{2}x", "^INFO .*z$", "b{2}c.*12x", "(?:ab|z)x?z"];
  let total = 0;
  let long = 0;
  using patternsTester = new PatternOffload();
  for (let t = 0; t < 60; t++) {
    const lines: string[] = [];
    for (let i = Math.floor(rnd() * 40); i > 0; i--) {
      const n = rnd() < 0.1 ? 1500 + Math.floor(rnd() * 1500) : Math.floor(rnd() * 12);
      lines.push(Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(""));
    }
    const text = lines.map((l) => l + (rnd() < 0.2 ? "\r\n" : "\n")).join("");
    Deno.writeTextFileSync(`${dir}/r.log`, text);
    const pattern = patterns[t % patterns.length];
    const js = new RegExp(pattern);
    // The reference: each line masked, or, when it is longer than the 50 characters shown and those hold
    // a secret, only what is shown (search.ts `subject`); tested by JavaScript's RegExp.
    const want = lines.flatMap((l, i) => (js.test(shownOrWhole(l, 50)) ? [i + 1] : []));
    const pieceSize = [64, 1000, 65536, 1 << 20][t % 4];
    const base = {
      ...limits,
      pieceSize,
      text: pattern,
      regex: true,
      limit: 5000,
      redact: true,
      maxLine: 50,
      patterns: patternsTester,
    };
    using log = await openLog(roots, "r.log");
    const whole = await searchLog(log, { ...base, searchBytes: 1e12 });
    assert.equal(whole.complete, true);
    assert.deepEqual(whole.matches.map((m) => m.line_no), want, `case ${t}: /${pattern}/, one search`);
    const pages = await paged(base, 200 + Math.floor(rnd() * 4000), "r.log");
    assert.deepEqual(pages.map((m) => m.line_no), want, `case ${t}: /${pattern}/, paged`);
    total += want.length;
    long += want.filter((no) => enc.encode(lines[no - 1]).length > 4096).length;
  }
  console.error(`regex pages: 60 logs, ${total} matching lines, ${long} of them over 4 KiB`);
  assert.ok(total > 100 && long > 10, `${total} matching lines, ${long} over 4 KiB`);
});

Deno.test("a regex never decides a line the byte budget cut before its end: `$` and `\\b` at the cut match nothing (issue #11 trial), at budgets of 7 to 333 bytes", async () => {
  Deno.writeTextFileSync(`${dir}/cut.log`, "INFO 1234567890 xyz\n".repeat(30));
  using patterns = new PatternOffload(); // one worker for all the pages
  for (const [text, want] of [["INFO 12$", 0], ["INFO 12\\b", 0], ["xyz$", 30], ["\\bxyz", 30]] as const) {
    for (const budget of [7, 19, 50, 333]) {
      using log = await openLog(roots, "cut.log");
      const got: number[] = [];
      let resume: ResumePoint | undefined;
      let pages = 0;
      let partial = 0;
      do {
        const page = await searchLog(log, {
          ...limits,
          pieceSize: 64,
          text,
          regex: true,
          limit: 5000,
          redact: true,
          maxLine: 100,
          searchBytes: budget,
          resume,
          patterns,
        });
        got.push(...page.matches.map((m) => m.line_no!));
        partial += page.partially_tested ?? 0;
        resume = page.next ?? undefined;
        assert.ok(++pages < 10000);
      } while (resume);
      // grep -c agrees: every line is "INFO 1234567890 xyz".
      assert.deepEqual(
        got,
        Array.from({ length: want }, (_, i) => i + 1),
        `${text} at ${budget} bytes a page`,
      );
      assert.equal(partial, 0, `${text} at ${budget}: no line is over 64 KiB`);
    }
  }
});

Deno.test("maskProof patterns answer as the masked text does: 40 random logs of secrets, quotes, blanks and invalid bytes, each line checked by RE2 on its masked text", async () => {
  const rnd = rng(4242);
  const bits = [
    "password=hunter2",
    "token=abc123",
    "Bearer abcdefghijklmnop0123",
    '"secret":"s3cr3t',
    "x",
    "ab1",
    "123-abcd",
    "999-zzzz",
    " ",
    '"',
    "'",
    "\\",
    "*",
    "\uFFFD",
    "\u212A",
    "timeout=15ms",
    "ERROR",
  ];
  const patterns = [
    "[0-9]{3}-[a-z]{4}",
    "ERROR|WARN",
    "(?i)timeout=[0-9]+ms",
    "^x",
    "[a-z]{3}[0-9]$",
    "abc1",
  ];
  using patternsTester = new PatternOffload();
  let total = 0;
  for (let t = 0; t < 40; t++) {
    const lines: Uint8Array[] = [];
    for (let i = 5 + Math.floor(rnd() * 30); i > 0; i--) {
      const parts = Array.from(
        { length: 1 + Math.floor(rnd() * 6) },
        () => bits[Math.floor(rnd() * bits.length)],
      );
      const bytes = enc.encode(parts.join(""));
      // Now and then a byte that is not UTF-8.
      lines.push(rnd() < 0.15 ? new Uint8Array([...bytes, 0xff, 0x61]) : bytes);
    }
    const file = new Uint8Array(lines.reduce((n, l) => n + l.length + 1, 0));
    let at = 0;
    for (const l of lines) {
      file.set(l, at);
      file[at + l.length] = 10;
      at += l.length + 1;
    }
    Deno.writeFileSync(`${dir}/m.log`, file);
    const pattern = patterns[t % patterns.length];
    const re = compilePattern(pattern, false);
    const dec = new TextDecoder();
    const want = lines.flatMap((l, i) => (re.test(redactLine(dec.decode(l)).text) ? [i + 1] : []));
    using log = await openLog(roots, "m.log");
    const got = await searchLog(log, {
      ...limits,
      pieceSize: 1 << 20,
      text: pattern,
      regex: true,
      limit: 5000,
      redact: true,
      maxLine: 200,
      searchBytes: 1e12,
      patterns: patternsTester,
    });
    assert.deepEqual(got.matches.map((m) => m.line_no), want, `case ${t}: /${pattern}/`);
    total += want.length;
  }
  console.error(`maskProof property: 40 logs, ${total} matching lines`);
  assert.ok(total > 40, `${total}`);
});

Deno.test("pages that reach their limit on a last line without a line feed end there: no line repeated, none numbered past the end (a trial's pages repeated it forever)", async () => {
  for (const [name, text] of [["nonl.log", "a1\na2\na3"], ["nonl-crlf.log", "a1\r\na2\r\na3"]]) {
    Deno.writeTextFileSync(`${dir}/${name}`, text);
    for (const regex of [false, true]) {
      for (const limit of [1, 2, 3]) {
        using log = await openLog(roots, name);
        const got: number[] = [];
        let resume: ResumePoint | undefined;
        let pages = 0;
        let complete = false;
        do {
          const page = await searchLog(log, {
            ...limits,
            pieceSize: 64,
            text: regex ? "a[0-9]" : "a",
            regex,
            limit,
            redact: true,
            maxLine: 100,
            searchBytes: 1e12,
            resume,
          });
          got.push(...page.matches.map((m) => m.line_no!));
          complete = page.complete;
          resume = page.next ?? undefined;
          assert.ok(++pages <= 5, `${name} limit ${limit}: ${pages} pages (${got})`);
        } while (resume);
        // grep -c a: 3 lines.
        assert.deepEqual(got, [1, 2, 3], `${name}, regex ${regex}, limit ${limit}`);
        assert.equal(complete, true);
      }
    }
  }
});

/** xorshift32 (Marsaglia): a seeded stream of numbers in [0, 1). */
function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

Deno.test("LineLiteral: the lines a line-by-line String.includes finds, whatever the buffer holds around the line: 3,000 random lines of near-matches (issue #22)", () => {
  const rnd = xorshift(2222);
  const pick = (alphabet: string, n: number) =>
    Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
  let hits = 0;
  for (let t = 0; t < 3000; t++) {
    // Small alphabets and periodic needles: many first-byte hits and long partial matches. A third of
    // the cases are runs built to send the line to KMP: a needle unit^k + "c", a line of unit^r + "c"
    // with r < k (every first-byte hit a partial match up to k units long), half of them ending with the
    // needle.
    const alphabet = ["ab", "aab", "abc", "Zz", "a"][t % 5];
    let needle: string;
    let line: string;
    const len = rnd() < 0.2 ? 129 + Math.floor(rnd() * 3000) : Math.floor(rnd() * 129);
    if (t % 3 === 0) {
      const unit = pick("ab", 1 + Math.floor(rnd() * 3));
      const k = 2 + Math.floor(rnd() * 40);
      needle = unit.repeat(k) + "c";
      line = "";
      while (line.length < len) line += unit.repeat(Math.floor(rnd() * k)) + "c";
      if (rnd() < 0.5) line += unit.repeat(k) + "c"; // half the lines hold it, at their end
    } else {
      needle = pick(alphabet, 1 + Math.floor(rnd() * 12));
      line = rnd() < 0.3
        ? needle.slice(0, -1).repeat(1 + Math.floor(len / needle.length))
        : pick(alphabet, len);
    }
    // The needle whole just before and just after the line, and across each of its ends.
    const before = needle + needle.slice(0, Math.floor(rnd() * needle.length));
    const after = needle.slice(Math.floor(rnd() * needle.length)) + needle;
    const buf = enc.encode(before + line + after);
    const s = before.length, e = s + line.length;
    const want = line.includes(needle);
    assert.equal(
      new LineLiteral(enc.encode(needle)).holds(buf, s, e),
      want,
      `case ${t}: "${needle}" in "${line}"`,
    );
    if (want) hits++;
  }
  console.error(`LineLiteral: 3000 lines, ${hits} holding the needle`);
  assert.ok(hits > 600 && hits < 2400, `${hits} of 3000 hold it: both answers tried`);
});

/**
 * Runs `fn` with `Uint8Array.prototype.indexOf` counting the bytes each call looks at (from its start
 * to the byte found, or to the array's end), and returns that count: the work a byte search did.
 */
async function indexOfWork(fn: () => unknown): Promise<number> {
  return (await indexOfCalls(fn)).bytes;
}

/** As {@linkcode indexOfWork}: the bytes looked at, and the number of calls. */
async function indexOfCalls(fn: () => unknown): Promise<{ bytes: number; calls: number }> {
  const original = Uint8Array.prototype.indexOf;
  let bytes = 0;
  let calls = 0;
  Uint8Array.prototype.indexOf = function (this: Uint8Array, b: number, from = 0) {
    const i = original.call(this, b, from);
    bytes += (i < 0 ? this.length : i + 1) - Math.max(0, from);
    calls++;
    return i;
  };
  try {
    await fn();
  } finally {
    Uint8Array.prototype.indexOf = original;
  }
  return { bytes, calls };
}

Deno.test("LineLiteral: a line of near-matches costs a few passes over it, not one compare of the needle per byte (issue #22)", async () => {
  // 1 MiB of `a` for 99 `a`s and a `b`: every byte starts a near-match 99 bytes long. Checked by
  // counting the first-byte hits looked at (one indexOf call each): without the switch to KMP, one a byte.
  const line = enc.encode("a".repeat(1 << 20));
  const needle = new LineLiteral(enc.encode("a".repeat(99) + "b"));
  let found = true;
  const { calls } = await indexOfCalls(() => (found = needle.holds(line, 0, line.length)));
  assert.equal(found, false);
  console.error(`near-matches: ${calls} first-byte hits compared on a ${line.length}-byte line`);
  assert.ok(calls > 0 && calls < line.length / 32, `${calls} hits compared`);
  const hit = enc.encode("a".repeat(1 << 20) + "b");
  assert.equal(needle.holds(hit, 0, hit.length), true);
  assert.equal(needle.holds(hit, 0, hit.length - 1), false); // the `b` is past the line's end
});

Deno.test("a literal searched on every line (context, a window) reads each line, not the rest of the piece: byte-search work under 2× the log on 8 MiB of lines without its first byte, 3 of them holding it (issue #22)", async () => {
  // 8 MiB of lines without a Z (every other one over 128 bytes: searched by indexOf on a view of it),
  // and three lines with "Zookeeper": grep -n finds those three.
  const lines: string[] = [];
  for (let size = 0, i = 0; size < 8 << 20; i++) {
    const t = `2024-05-01 10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${
      String(i % 60).padStart(2, "0")
    }`;
    const line = `${t} INFO job=${String(i % 1000).padStart(3, "0")} step ${i}${
      i % 2 ? " ok=" + "y".repeat(150) : ""
    }`;
    lines.push(line);
    size += line.length + 1;
  }
  for (const at of [1000, 50000, lines.length - 2]) lines[at] = lines[at].slice(0, 36) + " Zookeeper up";
  Deno.writeTextFileSync(`${dir}/zk.log`, lines.join("\n") + "\n");
  const grep = new TextDecoder().decode(
    new Deno.Command("grep", { args: ["-n", "-F", "Zookeeper", `${dir}/zk.log`], stdout: "piped" })
      .outputSync()
      .stdout,
  ).trim().split("\n").map((l) => Number(l.split(":")[0]));
  assert.deepEqual(grep, [1001, 50001, lines.length - 1]);
  const size = Deno.statSync(`${dir}/zk.log`).size;
  using log = await openLog(roots, "zk.log");
  const base = { ...limits, text: "Zookeeper", limit: 100, redact: false, maxLine: 200, searchBytes: 1e12 };
  // Every line has a time (0) in the open window: each is tested for the literal.
  const window = { span: { since: -Infinity, until: Infinity }, timeOf: () => 0 };
  for (const extra of [{ context: 2 }, { window }]) {
    let r: Awaited<ReturnType<typeof searchLog>> | undefined;
    const t = performance.now();
    const work = await indexOfWork(async () => (r = await searchLog(log, { ...base, ...extra })));
    const ms = performance.now() - t;
    console.error(
      `${Object.keys(extra)[0]}: ${work} bytes looked at by indexOf for ${size} bytes, ${ms.toFixed(0)} ms`,
    );
    assert.equal(r!.complete, true);
    assert.deepEqual(r!.matches.map((m) => m.line_no), grep);
    // Before the fix, each line's search ran on to the end of its 1 MiB piece: thousands of times the log.
    assert.ok(work > 0 && work < 2 * size, `${work} bytes looked at for a ${size}-byte log`);
  }
});
