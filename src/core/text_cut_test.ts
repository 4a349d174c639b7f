import assert from "node:assert/strict";
import { wellFormed } from "../../tests/fixtures.ts";
import { cutText, cutTextEnd } from "./text_cut.ts";

Deno.test("cutText never splits a surrogate pair, at every cut position", () => {
  const s = "ab😀c𝄞dé漢🇫🇷z";
  for (let max = 0; max <= s.length + 2; max++) {
    const head = cutText(s, max);
    const tail = cutTextEnd(s, max);
    assert.ok(head.length <= max && tail.length <= max, `max ${max}`);
    assert.ok(max - head.length <= 1 && max - tail.length <= 1 || max > s.length, `max ${max}`);
    assert.ok(
      wellFormed(head) && wellFormed(tail),
      `max ${max}: ${JSON.stringify(head)} ${JSON.stringify(tail)}`,
    );
    assert.ok(s.startsWith(head) && s.endsWith(tail));
  }
});

Deno.test("cutText makes lone surrogates well-formed", () => {
  assert.equal(cutText("a\ud800b", 10), "a\ufffdb");
  assert.equal(cutTextEnd("\udc00xy", 10), "\ufffdxy");
  assert.throws(() => cutText("x", -1), RangeError);
  assert.throws(() => cutTextEnd("x", 1.5), RangeError);
});
