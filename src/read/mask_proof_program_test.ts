/**
 * `programMaskProof` (`mask_proof_program.ts`): true for every pattern `maskProof` passes and for classes
 * it refuses by syntax but that match no masking character (`\pL`, `\p{Greek}`, `[^\s*"'\\]`); false for
 * any that can match one or has `\b`. Each true verdict checked by RE2 on the characters themselves, and
 * by searches with masking on: the lines RE2 matches on each line's masked text.
 */

import assert from "node:assert/strict";
import { openLog } from "../source/local/log_file.ts";
import { openRoots } from "../source/local/roots.ts";
import { searchLog } from "./search.ts";
import { compilePattern, maskProof } from "./pattern.ts";
import { programMaskProof } from "./mask_proof_program.ts";
import { PatternOffload } from "./pattern_offload.ts";
import { redactLine } from "../guard/redact.ts";
import { DEFAULT_LIMITS } from "../core/config.ts";

const enc = new TextEncoder();
const MORE = [
  "\\pL{3}\\d{4}$",
  "\\pL+",
  "\\p{Greek}+[0-9]",
  "[^\\s*\"'\\\\\\x{FFFD}]{2}=",
  "(?i)k\\pN",
];
const YES = [
  "[0-9]{3}-[a-z]{4}",
  "ERROR|WARN",
  "(?i)timeout=[0-9]+ms",
  "^blk_-?\\d+$",
  "a{2,5}b*c+",
  "[[:alpha:]]é",
  ...MORE,
];
const NO = [
  "password=.+",
  "user \\w+",
  "\\bERROR",
  "x\\Bx",
  "[^a]",
  "\\S+",
  "\\s",
  "[!-z]",
  '"id"',
  "a\\*b",
  "\\x{FFFD}",
  "(?s).",
  "\\PL",
];

Deno.test("programMaskProof: true where maskProof is and for classes that match no masking character; checked by RE2", () => {
  for (const p of YES) assert.equal(programMaskProof(compilePattern(p, false)), true, p);
  for (const p of NO) assert.equal(programMaskProof(compilePattern(p, false)), false, p);
  for (const p of MORE) assert.equal(maskProof(p), false, `${p}: refused by the syntactic walk`);
  for (const p of YES) {
    const re = compilePattern(p, false);
    for (const c of [" ", '"', "'", "*", "\\", "\uFFFD"]) {
      assert.equal(re.test(c), false, `${p} on ${JSON.stringify(c)}`);
    }
  }
});

const dir = Deno.makeTempDirSync({ prefix: "logpeek-maskproof-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const roots = openRoots([dir], "/");

Deno.test("programMaskProof patterns answer as the masked text does: random logs of secrets, quotes and invalid bytes", async () => {
  let seed = 77;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const bits = [
    "password=hunter2",
    "token=abc123",
    "Bearer abcdefghijklmnop0123",
    '"secret":"s3cr3t',
    "key=ΑΒΓ12",
    "abcd1234",
    "Δέλτα7",
    "ab",
    " ",
    '"',
    "'",
    "\\",
    "*",
    "\uFFFD",
    "\u212A",
    "k9",
    "x=",
    "é",
  ];
  using tester = new PatternOffload();
  let total = 0;
  for (let t = 0; t < 40; t++) {
    const lines = Array.from({ length: 5 + Math.floor(rnd() * 30) }, () => {
      const text = Array.from(
        { length: 1 + Math.floor(rnd() * 6) },
        () => bits[Math.floor(rnd() * bits.length)],
      );
      const bytes = enc.encode(text.join(""));
      return rnd() < 0.15 ? new Uint8Array([...bytes, 0xff, 0x61]) : bytes;
    });
    Deno.writeFileSync(`${dir}/m.log`, Uint8Array.from(lines.flatMap((l) => [...l, 10])));
    // And two the proof refuses (masking makes `***` and a blank before it): tested as shown.
    const all = [...MORE, "\\*{3}", "\\S \\*"];
    const pattern = all[t % all.length];
    const re = compilePattern(pattern, false);
    const dec = new TextDecoder();
    const want = lines.flatMap((l, i) => (re.test(redactLine(dec.decode(l)).text) ? [i + 1] : []));
    using log = await openLog(roots, "m.log");
    const got = await searchLog(log, {
      ...DEFAULT_LIMITS,
      searchMs: 1e9,
      pieceSize: 1 << 20,
      text: pattern,
      regex: true,
      limit: 5000,
      redact: true,
      maxLine: 200,
      searchBytes: 1e12,
      patterns: tester,
    });
    assert.deepEqual(got.matches.map((m) => m.line_no), want, `case ${t}: /${pattern}/`);
    total += want.length;
  }
  assert.ok(total > 30, `${total} matching lines`);
});
