import assert from "node:assert/strict";
import { decodeLine } from "./decode.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("decodeLine replaces invalid bytes and counts bytes, not characters", () => {
  assert.deepEqual(decodeLine(new Uint8Array([0x61, 0xff, 0xfe, 0x62]), 100, false), {
    text: "a\uFFFD\uFFFDb",
    replaced: 2,
    cut: false,
  });
  // E2 82 is a truncated 3-byte sequence: one U+FFFD for two bytes (WHATWG maximal subpart).
  const r = decodeLine(new Uint8Array([0xe2, 0x82, 0x41]), 100, false);
  assert.equal(r.text, "\uFFFDA");
  assert.equal(r.replaced, 2);
  // A literal U+FFFD in valid UTF-8 is not a replaced byte.
  assert.equal(decodeLine(enc("x\uFFFDy"), 100, false).replaced, 0);
  // Surrogates encoded in UTF-8 (ED A0 80) are invalid: three replaced bytes, three U+FFFD.
  const s = decodeLine(new Uint8Array([0xed, 0xa0, 0x80]), 100, false);
  assert.equal(s.text, "\uFFFD\uFFFD\uFFFD");
  assert.equal(s.replaced, 3);
});

Deno.test("decodeLine agrees with TextDecoder on random bytes", () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) % 256;
  for (let t = 0; t < 500; t++) {
    const b = new Uint8Array(1 + (t % 40)).map(() => rnd());
    const r = decodeLine(b, 1000, false);
    assert.equal(r.text, new TextDecoder().decode(b));
  }
});

Deno.test("decodeLine cuts at code points and leaves out a sequence split by a partial read", () => {
  const r = decodeLine(enc("héllo😀world"), 6, false);
  assert.equal(r.text, "héllo😀");
  assert.equal(r.cut, true);
  const whole = decodeLine(enc("héllo"), 5, false);
  assert.deepEqual(whole, { text: "héllo", replaced: 0, cut: false });
  // "é" is C3 A9: a partial line that ends after C3 loses only that byte, uncounted.
  const p = decodeLine(enc("abé").subarray(0, 3), 100, true);
  assert.deepEqual(p, { text: "ab", replaced: 0, cut: true });
  // The same bytes as a whole line: C3 is an incomplete sequence, one replaced byte.
  const q = decodeLine(enc("abé").subarray(0, 3), 100, false);
  assert.deepEqual(q, { text: "ab\uFFFD", replaced: 1, cut: false });
});

Deno.test("decodeLine cuts by code points at a character boundary: an emoji or a 3-byte character at the cap is whole or left out", () => {
  const enc = new TextEncoder();
  // "ab😀c": the emoji is the 3rd code point (4 UTF-8 bytes, 2 UTF-16 units).
  const line = enc.encode("ab😀c");
  assert.deepEqual(decodeLine(line, 2, false), { text: "ab", replaced: 0, cut: true });
  assert.deepEqual(decodeLine(line, 3, false), { text: "ab😀", replaced: 0, cut: true });
  assert.deepEqual(decodeLine(line, 4, false), { text: "ab😀c", replaced: 0, cut: false });
  // Only the line's first 5 bytes were read: the emoji is incomplete there and left out, not replaced.
  assert.deepEqual(decodeLine(line.subarray(0, 5), 10, true), { text: "ab", replaced: 0, cut: true });
  // A 3-byte character (€) and a 2-byte one (é) at the cap.
  assert.deepEqual(decodeLine(enc.encode("x€é"), 2, false), { text: "x€", replaced: 0, cut: true });
  for (let cap = 1; cap <= 6; cap++) {
    const t = decodeLine(enc.encode("😀é€😀a😀"), cap, false).text;
    assert.equal(t, [..."😀é€😀a😀"].slice(0, cap).join(""), `cap ${cap}`);
    assert.ok(t.isWellFormed());
  }
});
