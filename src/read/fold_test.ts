import assert from "node:assert/strict";
import { foldMatcher, foldPartners, matchSpan } from "./fold.ts";

Deno.test("fold: K (U+212A) and ſ (U+017F) are the only characters outside ASCII that fold to an ASCII letter", () => {
  const partners: string[] = [];
  const asciiLetter = /[a-z]/iu;
  for (let cp = 0x80; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (asciiLetter.test(String.fromCodePoint(cp))) partners.push(cp.toString(16));
  }
  assert.deepEqual(partners, ["17f", "212a"]);
  assert.deepEqual(foldPartners(new TextEncoder().encode("Disk usage")), { kelvin: true, longS: true });
  assert.deepEqual(foldPartners(new TextEncoder().encode("error")), { kelvin: false, longS: false });
  assert.equal(matchSpan(new TextEncoder().encode("kiss"), true), 4 + 2 + 1 + 1);
  assert.equal(matchSpan(new TextEncoder().encode("kiss"), false), 4);
});

Deno.test("fold: foldMatcher folds per code point as CaseFolding.txt C+S says, and escapes the text", () => {
  // Rows of CaseFolding.txt (Unicode 16): 03A3; C; 03C3 — 03C2; C; 03C3 — 1E9E; S; 00DF — 212A; C; 006B —
  // 017F; C; 0073 — 0049; C; 0069; 0130 has only F and T rows, 0131 none.
  const yes: [string, string][] = [["Σ", "ς"], ["ΑΣ", "ασα"], ["ß", "ẞ"], ["k", "\u212a"], ["S", "\u017f"], [
    "I",
    "i",
  ]];
  const no: [string, string][] = [["İ", "i"], ["İ", "I"], ["ı", "i"], ["ı", "I"], ["ß", "ss"], ["ﬀ", "ff"]];
  for (const [a, b] of yes) assert.ok(foldMatcher(a).test(b), `${a} found in ${b}`);
  for (const [a, b] of no) assert.ok(!foldMatcher(a).test(b), `${a} !~ ${b}`);
  assert.ok(foldMatcher("a.b(c)[d]|e*").test("A.B(C)[D]|E*"));
  assert.ok(!foldMatcher("a.b").test("axb"));
});
