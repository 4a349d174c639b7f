import assert from "node:assert/strict";
import { printable } from "./printable.ts";

/** Unicode's mandatory line breaks (UAX #14: BK, CR, LF, NL), CRLF counted once. */
const BREAKS = /\r\n|[\n\v\f\r\x85\u2028\u2029]/;

Deno.test("printable: exactly C0, DEL, C1, U+2028 and U+2029 are escaped, over every code point", () => {
  const escaped: number[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue; // surrogates: not characters
    const c = String.fromCodePoint(cp);
    const p = printable(c);
    if (p === c) continue;
    escaped.push(cp);
    assert.match(p, /^\\(?:[nrt]|x[0-9a-f]{2}|u[0-9a-f]{4})$/, `U+${cp.toString(16)} -> ${p}`);
  }
  const expected = [
    ...Array.from({ length: 0x20 }, (_, i) => i),
    ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
    0x2028,
    0x2029,
  ];
  assert.deepEqual(escaped, expected);
  assert.equal(escaped.length, 67);
});

Deno.test("printable: the forms shown, and a forged line stays on its line", () => {
  assert.equal(printable("a\nb\rc\td"), "a\\nb\\rc\\td");
  assert.equal(printable("\x00\x0b\x0c\x1b\x7f"), "\\x00\\x0b\\x0c\\x1b\\x7f");
  assert.equal(printable("\x85\x9f\u2028\u2029"), "\\u0085\\u009f\\u2028\\u2029");
  assert.equal(printable("\x1b[31mERROR\x1b[0m"), "\\x1b[31mERROR\\x1b[0m");
  // Case 28's line 2: the forged entry stays part of line 2.
  const forged =
    "2024-05-01 10:00:01 INFO login user=bob\r2 ERROR 2024-05-01 10:00:01 ERROR admin password reset";
  const shown = printable(forged);
  assert.equal(shown.split(BREAKS).length, 1);
  assert.equal(shown, forged.replace("\r", "\\r"));
  // Printable text, non-ASCII included, is returned as is; escaping twice changes nothing more.
  const plain = "café 日本 😀 \\n \\x1b ordinary";
  assert.equal(printable(plain), plain);
  const mixed = "x\u0085y\u2028z\x1b[0m\t";
  assert.equal(printable(printable(mixed)), printable(mixed));
});

Deno.test("printable: linear time, 1 MiB of controls (growing up to six-fold) or of plain text in well under a second", () => {
  const n = 1024 * 1024;
  for (const unit of ["\u2028", "\r", "a", "\x1b[31m"]) {
    const s = unit.repeat(Math.ceil(n / unit.length));
    const t0 = performance.now();
    const p = printable(s);
    const ms = performance.now() - t0;
    assert.equal(p.split(BREAKS).length, 1);
    if (ms >= 1000) { // a loaded machine: linear, 4x the input within 8x a quarter's time (quadratic: 16x)
      const t1 = performance.now();
      printable(s.slice(0, s.length >> 2));
      const q = performance.now() - t1;
      assert.ok(
        ms < 8 * q + 50,
        `${JSON.stringify(unit)} x ${s.length}: ${ms.toFixed(0)} ms, a quarter ${q.toFixed(0)}`,
      );
    }
    console.error(`printable: ${JSON.stringify(unit)} x ${s.length} in ${ms.toFixed(0)} ms`);
  }
});

Deno.test("printable: a lone surrogate is shown escaped, a pair kept: the result is always well-formed", () => {
  assert.equal(printable("a\ud800b"), "a\\ud800b");
  assert.equal(printable("\udc00"), "\\udc00");
  assert.equal(printable("x\ud83d"), "x\\ud83d"); // a high half at the very end
  assert.equal(printable("\ud83d\ude00\ud83d"), "😀\\ud83d");
  assert.equal(printable("\ude00\ud83d"), "\\ude00\\ud83d"); // halves in the wrong order
  assert.equal(printable("\n\ud800"), "\\n\\ud800");
  for (let u = 0xd800; u <= 0xdfff; u += 0x7f) {
    const p = printable(`a${String.fromCharCode(u)}😀`);
    assert.equal(encodeURIComponent(p).length > 0, true); // throws URIError on a lone surrogate
    assert.equal(p, `a\\u${u.toString(16)}😀`);
  }
});
