/**
 * A search's matches (a regex's, a literal's) and context lines are shown as a `LineRedactor` shows each
 * line alone (decoded with replacement, cut to `maxLine` code points, masked), and their masked secrets
 * counted, whether the search took the fast path of a line its bytes clear (issue #26, item 2:
 * `shownAsRead`, `mayHoldSecretBytes`: the redactor not asked) or masked it. Over every line of the Loghub
 * and lnav corpora (SKIP when absent) and generated lines with secrets, look-alikes, letters outside ASCII
 * and invalid bytes; by pages of 5,000 matches, with and without context.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openLog } from "../source/local/log_file.ts";
import { openRoots } from "../source/local/roots.ts";
import { searchLog } from "./search.ts";
import { DEFAULT_LIMITS } from "../core/config.ts";
import { LineRedactor, mayHoldSecretBytes } from "../guard/redact.ts";
import type { LogLine } from "./log_line.ts";
import type { ResumePoint } from "./readable_log.ts";
import { sharedDir } from "../../tests/shared_dir.ts";
import { RE2JS } from "re2js";

const SHARED = sharedDir("the Loghub and lnav corpora's lines as regex matches");

/** The corpora's log files, whole, joined (each ends with a line feed). */
function corpusText(shared: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const sub of ["corpus/loghub", "corpus/lnav/logs"]) {
    const dir = join(shared, sub);
    const names = [...Deno.readDirSync(dir)].filter((e) => e.isFile).map((e) => e.name).sort();
    for (const name of names) {
      if (sub.endsWith("loghub") && !name.endsWith(".log")) continue;
      const b = Deno.readFileSync(join(dir, name));
      out.push(b, new Uint8Array(b.at(-1) === 10 ? [] : [10]));
    }
  }
  return out;
}

/** Lines of secrets, look-alikes and odd bytes, one per line feed. */
function generated(): Uint8Array {
  let seed = 2612;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const b64 = (n: number) =>
    Array.from(
      { length: n },
      () => pick([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"]),
    )
      .join("");
  const pieces = [
    "2026-12-02 10:00:00 INFO ",
    "password=hunter2 ",
    "token=" + "ghp_" + b64(36).replace(/[+/]/g, "x") + " ",
    "Authorization: Bearer " + b64(30).replace(/[+/]/g, "y") + " ",
    "Set-Cookie: sid=abc123; Path=/ ",
    "mysql -uroot -pS3cret db ",
    "-----BEGIN RSA PRIVATE KEY-----",
    "secret=AbCdEf123456 ",
    "blk_-123 terminating ",
    "caf\u00e9 ",
    "\u212aey=v4lue9 ",
    "https://user:pa55@host/x ",
  ];
  const enc = new TextEncoder();
  const parts: number[] = [];
  for (let i = 0; i < 4000; i++) {
    let s = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(pieces)).join("");
    if (rnd() < 0.3) s = [...s].map((c) => (rnd() < 0.5 ? c.toUpperCase() : c)).join("");
    if (rnd() < 0.1) s += " " + b64(56 + Math.floor(rnd() * 20));
    if (rnd() < 0.05) s = "  " + b64(64);
    if (rnd() < 0.05) s += "x".repeat(1100); // longer than maxLine: cut
    const b = [...enc.encode(s)];
    if (rnd() < 0.05) b[Math.floor(rnd() * b.length)] = 0xff;
    parts.push(...b, rnd() < 0.1 ? 13 : 0x20, 10);
    // Between them, lines that surely hold no secret (the bytes' path), as most of a real log's lines.
    const n = Math.floor(rnd() * 1e6);
    const plain = `2026-12-02 10:00:0${i % 10} ${pick(["INFO", "WARN", "ERROR"])} served request ${n} in ` +
      `${n % 997} ms from 10.0.${n % 256}.${i % 256} status ${pick([200, 404, 503])} blk_${n} terminating`;
    parts.push(...enc.encode(plain), 10);
  }
  return new Uint8Array(parts);
}

/** The corpora's lines (when `../shared` is there) and the generated ones, written as `dir/all.log`. */
function writeAll(dir: string): Uint8Array {
  const chunks = [...(SHARED ? corpusText(SHARED) : []), generated()];
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  chunks.reduce((at, c) => (bytes.set(c, at), at + c.length), 0);
  Deno.writeFileSync(join(dir, "all.log"), bytes);
  return bytes;
}

/** Each line as shown alone: decoded, cut to `maxLine` code points, masked; and the secrets masked. */
function reference(bytes: Uint8Array, maxLine: number): { texts: string[]; redactions: number } {
  const lines = new TextDecoder().decode(bytes).split("\n");
  lines.pop();
  const r = new LineRedactor(true, false);
  const texts = lines.map((l) => {
    const chars = [...l.replace(/\r$/, "")];
    const cut = chars.length > maxLine;
    return r.line(chars.slice(0, maxLine).join(""), cut);
  });
  return { texts, redactions: r.count };
}

Deno.test("regex and literal matches and context lines are each line as LineRedactor shows it, by its bytes or masked: corpus and generated lines, pages of 5,000", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-page-matches-" });
  try {
    const bytes = writeAll(dir);
    const want = reference(bytes, 1000);
    const roots = openRoots([dir], "/");
    const byContext: LogLine[][] = [];
    for (const context of [0, 2]) {
      using log = await openLog(roots, "all.log");
      const got: LogLine[] = [];
      let redactions = 0;
      let resume: ResumePoint | undefined;
      do {
        const page = await searchLog(log, {
          ...DEFAULT_LIMITS,
          searchMs: 1e9,
          text: "^",
          regex: true,
          limit: 5000,
          redact: true,
          context,
          resume,
        });
        got.push(...page.matches);
        redactions += page.redactions;
        resume = page.next ?? undefined;
      } while (resume);
      assert.equal(got.length, want.texts.length, `context ${context}: every line matches ^`);
      got.forEach((m, i) => assert.equal(m.text, want.texts[i], `context ${context}, line ${i + 1}`));
      assert.equal(redactions, want.redactions, `context ${context}: secrets masked`);
      byContext.push(got);
    }
    // Without context, a match shown as read is made apart (its text decoded with others'); with
    // context, every match by toLogLine: the same lines, levels, continuation marks and cut flags.
    assert.deepEqual(byContext[0], byContext[1]);
    const continued = byContext[0].filter((m) => m.continuation).length;
    assert.ok(!SHARED || continued > 100, `${continued} continuation lines`);
    // A literal (the scanner's own path, `search.ts`): the lines holding a blank, each as shown.
    {
      using log = await openLog(roots, "all.log");
      const got: LogLine[] = [];
      let redactions = 0;
      let resume: ResumePoint | undefined;
      do {
        const page = await searchLog(log, {
          ...DEFAULT_LIMITS,
          searchMs: 1e9,
          text: " ",
          limit: 5000,
          redact: true,
          resume,
        });
        got.push(...page.matches);
        redactions += page.redactions;
        resume = page.next ?? undefined;
      } while (resume);
      const raw = new TextDecoder().decode(bytes).split("\n").slice(0, -1);
      const holding = raw.flatMap((l, i) => (l.includes(" ") ? [i] : []));
      assert.deepEqual(
        got.map((m) => m.line_no),
        holding.map((i) => i + 1),
        "the literal's lines (as JS finds them)",
      );
      got.forEach((m, k) => assert.equal(m.text, want.texts[holding[k]], `literal, line ${m.line_no}`));
      const alone = reference(new TextEncoder().encode(holding.map((i) => raw[i] + "\n").join("")), 1000);
      assert.equal(redactions, alone.redactions, "literal: secrets masked");
    }
    const lines = new TextDecoder().decode(bytes).split("\n").slice(0, -1);
    const clear = lines.filter((l) => !mayHoldSecretBytes(new TextEncoder().encode(l))).length;
    console.error(
      `page matches: ${lines.length} lines, ${clear} clear by their bytes, ${want.redactions} secrets`,
    );
    assert.ok(want.redactions > 1000 && clear > 1000, `${want.redactions} secrets, ${clear} clear lines`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a regex with a literal that masking may help (a blank, `.`, `\\*`): its matches are the lines whose text as shown it matches, corpus and generated lines", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-page-matches-" });
  try {
    const bytes = writeAll(dir);
    const want = reference(bytes, 1000);
    const raw = new TextDecoder().decode(bytes).split("\n").slice(0, -1);
    // Lines shown whole (a cut line's pattern subject is its bytes unless its shown part is masked).
    const whole = raw.map((l) => [...l.replace(/\r$/, "")].length <= 1000);
    const roots = openRoots([dir], "/");
    for (
      const text of [
        "blk_-?[0-9]+ .*(terminating|deleting)",
        "(?i)bearer \\*+",
        "password=\\S+ ",
        "sid=.*; Path",
        "token=\\*\\*\\*",
      ]
    ) {
      const re = RE2JS.compile(text);
      const expected = want.texts.flatMap((t, i) => (whole[i] && re.test(t) ? [i + 1] : []));
      using log = await openLog(roots, "all.log");
      const got: number[] = [];
      let resume: ResumePoint | undefined;
      do {
        const page = await searchLog(log, {
          ...DEFAULT_LIMITS,
          searchMs: 1e9,
          text,
          regex: true,
          limit: 5000,
          redact: true,
          resume,
        });
        got.push(...page.matches.flatMap((m) => (whole[m.line_no! - 1] ? [m.line_no!] : [])));
        resume = page.next ?? undefined;
      } while (resume);
      assert.deepEqual(got, expected, text);
      const onlyShown = expected.filter((n) => !re.test(raw[n - 1])).length;
      console.error(`${text}: ${got.length} matches, ${onlyShown} only as shown`);
      assert.ok(got.length > 0, `${text} matches`);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
