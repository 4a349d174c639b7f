import assert from "node:assert/strict";
import { RE2JS } from "re2js";
import { compilePattern, maskProof, requiredLiteral } from "./pattern.ts";
import { sharedDir } from "../../tests/shared_dir.ts";
import { isHeavy, PatternOffload } from "./pattern_offload.ts";

const dec = new TextDecoder();
const lit = (p: string, ic = false) => {
  const l = requiredLiteral(p, ic);
  return l ? `${dec.decode(l.bytes)}${l.ignoreCase ? "/i" : ""}` : null;
};

Deno.test("requiredLiteral: the longest run every match holds, or none", () => {
  assert.equal(lit("zq-[0-9]+ timed"), " timed");
  assert.equal(lit("blk_-?[0-9]+ .*(terminating|deleting)"), "blk_");
  assert.equal(lit("[0-9]{3}-[a-z]{4}"), "-");
  assert.equal(lit("(?i)error.*refused"), "refused/i");
  assert.equal(lit("error", true), "error/i");
  assert.equal(lit("abc*d"), "ab");
  assert.equal(lit("abc+d"), "abc");
  assert.equal(lit("abc?de"), "ab");
  assert.equal(lit("abc{0,3}de"), "ab");
  assert.equal(lit("abc{2}de"), "abc");
  assert.equal(lit("a|b"), null);
  assert.equal(lit("(foo|bar)"), null);
  assert.equal(lit("x(?i)abcdef"), null); // a flag change in mid-pattern
  assert.equal(lit("(?i:abc)de"), "de");
  assert.equal(lit("\\Qa.b*c\\E+x"), "a.b*c");
  assert.equal(lit("1\\.2\\.3"), "1.2.3");
  assert.equal(lit("\\d+ms\\b"), "ms");
  assert.equal(lit("[a-z]+"), null);
  assert.equal(lit("\\pLabc\\p{Greek}de"), "abc");
  assert.equal(lit("straße"), "straße");
  assert.equal(lit("(?i)straße"), "stra/i"); // non-ASCII letters fold outside the scanner's reach
  assert.equal(lit("[]a]xyz"), "xyz");
  assert.equal(lit("a{,3}"), "a{,3"); // not a repeat in RE2: literal braces (the `}` ends the run)
});

/** Patterns with their literals, run over every line of the corpus. */
const PATTERNS = [
  "zq-[0-9]+ timed",
  "blk_-?[0-9]+ .*(terminating|deleting)",
  "[0-9]{3}-[a-z]{4}",
  "(?i)error.*refused",
  "Received block blk_[0-9-]+ of size \\d+",
  "session (opened|closed) for user \\w+",
  "(?i)failed",
  "\\bWARN(ING)?\\b",
  "^\\d{6} \\d{6}",
  "[A-Z]{4,}\\s+\\d",
  "jk2_init\\(\\) Found child \\d+",
  "(?i)Connection.*closed",
  "authentication failure;.*rhost=\\S+",
  "Invalid user \\w+ from",
  "(?i)k[a-z]+s",
  "INFO [a-z.]+: ",
  "\\[[a-z]+\\]",
  "Starting.*\\.\\.\\.",
];

Deno.test("requiredLiteral: no line of the Loghub corpus matches a pattern without holding its literal (RE2JS decides)", () => {
  const shared = sharedDir("the required-literal check over the Loghub corpus");
  if (!shared) return;
  const dir = `${shared}/corpus/loghub`;
  let tested = 0;
  let matched = 0;
  for (const e of Deno.readDirSync(dir)) {
    if (!e.name.endsWith(".log")) continue;
    const lines = Deno.readTextFileSync(`${dir}/${e.name}`).split("\n");
    for (const p of PATTERNS) {
      for (const ic of [false, true]) {
        const re = compilePattern(p, ic);
        const l = requiredLiteral(p, ic);
        if (!l) continue;
        const text = dec.decode(l.bytes);
        for (const line of lines) {
          tested++;
          if (!re.test(line)) continue;
          matched++;
          const holds = l.ignoreCase ? line.toLowerCase().includes(text.toLowerCase()) : line.includes(text);
          assert.ok(holds, `${p} (ignore_case ${ic}) matched "${line}" without "${text}"`);
        }
      }
    }
  }
  console.error(`requiredLiteral: ${tested} line tests, ${matched} matches, each holding its literal`);
  assert.ok(matched > 10_000);
});

Deno.test("isHeavy: short lines with small patterns are tested in place, long lines or large patterns in the worker", () => {
  assert.equal(isHeavy(compilePattern("zq-[0-9]+ timed", false).programSize(), 200), false);
  assert.equal(isHeavy(13, 4097), true);
  assert.equal(isHeavy(compilePattern("[A-Za-z0-9+/]{1000}=", false).programSize(), 4096), true);
});

Deno.test("PatternOffload: answers as RE2JS does, and gives up at the deadline or a cancel, promptly", async () => {
  using off = new PatternOffload();
  const enc = new TextEncoder();
  const B64 = "[A-Za-z0-9+/]{10}=";
  assert.equal(await off.test(B64, 0, enc.encode("data=abcdefghij="), 5000), "match");
  assert.equal(await off.test(B64, 0, enc.encode("data=abc="), 5000), "no_match");
  assert.equal(await off.test("DATA", RE2JS.CASE_INSENSITIVE, enc.encode("data=abc="), 5000), "match");
  // 3 s of work for RE2JS here (the DFA misses its cache and falls back to the NFA).
  const SLOW = "(?:a|aa){1,1000}b";
  const line = enc.encode("b" + "a".repeat(65536) + "c");
  assert.equal(RE2JS.compile(SLOW).test("aab"), true);
  let t = performance.now();
  assert.equal(await off.test(SLOW, 0, line, 300), "time_budget");
  const late = performance.now() - t - 300;
  console.error(`deadline: answered ${late.toFixed(0)} ms after it`);
  assert.ok(late < 100, `${late} ms late`);
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 200);
  t = performance.now();
  assert.equal(await off.test(SLOW, 0, line, 60_000, ac.signal), "cancelled");
  assert.ok(performance.now() - t < 300);
  // After a stop, the next test starts a new worker.
  assert.equal(await off.test(SLOW, 0, enc.encode("aaab"), 5000), "match");
});

Deno.test("maskProof: true only for patterns that can match none of * blank \" ' \\ U+FFFD and have no \\b; each verdict checked by RE2 itself", () => {
  const yes = [
    "[0-9]{3}-[a-z]{4}",
    "ERROR|WARN",
    "(?i)timeout=[0-9]+ms",
    "^blk_-?\\d+$",
    "(?P<id>[A-Fa-f0-9]{8})-x",
    "[[:alpha:]]+=\\w+",
    "a{2,5}b*c+",
    "\\x41\\.\\-",
  ];
  const no = [
    "password=.+", // . matches *
    "user \\w+", // a blank
    "\\bERROR", // a word boundary
    "x\\Bx",
    "[^a]", // negated
    "\\S+",
    "\\s",
    "\\pL+",
    "[!-z]", // a range over * and "
    "[[:punct:]]",
    '"id"',
    "it's",
    "a\\*b",
    "\\x2a",
    "\\x{20}",
    "\\Qa*b\\E",
    "\\\\",
    "\\x{FFFD}",
    "[*]",
  ];
  for (const p of yes) assert.equal(maskProof(p), true, p);
  for (const p of no) assert.equal(maskProof(p), false, p);
  // The claim behind a true verdict, checked by RE2: none of these patterns matches any of the
  // characters masking or decoding add, alone or next to a letter or digit.
  const added = [" ", '"', "'", "*", "\\", "\uFFFD"];
  for (const p of yes) {
    const re = compilePattern(p, false);
    for (const c of added) {
      for (const ctx of [c, `a${c}`, `${c}a`, `1${c}1`, `${c}${c}${c}`]) {
        const m = re.matcher(ctx);
        while (m.find()) {
          assert.ok(!(m.group() ?? "").includes(c), `${p} matched ${JSON.stringify(m.group())} in ${ctx}`);
        }
      }
    }
  }
});

Deno.test("requiredLiteral.prefix: true only for a literal every match starts with", () => {
  const cases: [string, string, boolean][] = [
    ["blk_-?[0-9]+ .*(terminating|deleting)", "blk_", true],
    ["zq-[0-9]+ timed", " timed", false],
    ["^blk_", "blk_", false],
    ["a*blk_x", "blk_x", false],
    ["ab+c", "ab", true],
    ["(?i)kernel: x", "kernel: x", true],
    ["\\Qa.b\\E[0-9]", "a.b", true],
    ["[0-9]+ INFO", " INFO", false],
    ["(x)INFO", "INFO", false],
    ["ab[0-9]cdef", "cdef", false],
  ];
  for (const [source, bytes, prefix] of cases) {
    const l = requiredLiteral(source, false)!;
    assert.equal(dec.decode(l.bytes), bytes, source);
    assert.equal(l.prefix, prefix, source);
  }
});

const PREFIX_SHARED = sharedDir("requiredLiteral.prefix over the Loghub corpus");

Deno.test({
  name:
    "requiredLiteral.prefix: where it is true, each Loghub line's leftmost match (re2js) starts with the literal",
  ignore: !PREFIX_SHARED,
  fn() {
    const dir = `${PREFIX_SHARED}/corpus/loghub`;
    const lines = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".log"))
      .flatMap((e) => Deno.readTextFileSync(`${dir}/${e.name}`).split("\n"));
    const sources = [
      "Received block blk_[0-9-]+",
      "INFO [a-z.]+",
      "rhost=[0-9.]+",
      "user=[a-z]+",
      "for (user|block)",
    ];
    for (const source of sources) {
      const l = requiredLiteral(source, false)!;
      assert.ok(l.prefix, source);
      const text = dec.decode(l.bytes);
      const re = RE2JS.compile(source);
      let seen = 0;
      for (const line of lines) {
        const m = re.matcher(line);
        if (!m.find()) continue;
        seen++;
        assert.ok(line.startsWith(text, m.start()), `${source} on ${line}`);
      }
      assert.ok(seen > 10, `${source} matches ${seen} lines`);
    }
  },
});

Deno.test("compilePattern: repeats whose product passes RE2's 1000 are refused saying so, though each count is under it", () => {
  assert.throws(
    () => compilePattern("((a{100}){100}){100}", false),
    (e: Error) => /invalid repeat count/.test(e.message) && /count as their product/.test(e.message),
  );
  // Each alone, and a product within the limit, compile.
  assert.ok(compilePattern("a{1000}", false).test("a".repeat(1000)));
  assert.ok(compilePattern("(a{10}){100}", false).test("a".repeat(1000)));
});
