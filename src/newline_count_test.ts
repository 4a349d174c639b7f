import assert from "node:assert/strict";
import { newlineCounter } from "./newline_count.ts";

function jsCount(b: Uint8Array, s: number, e: number): number {
  let n = 0;
  for (let i = s; i < e; i++) if (b[i] === 10) n++;
  return n;
}

Deno.test("newlineCounter agrees with a byte loop on random data and every range edge", () => {
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (const size of [1, 15, 16, 17, 100, 65536, 70000]) {
    const c = newlineCounter(size);
    for (let i = 0; i < size; i++) c.buf[i] = rnd() < 0.1 ? 10 : Math.floor(rnd() * 256);
    for (let k = 0; k < 50; k++) {
      const s = Math.floor(rnd() * size);
      const e = s + Math.floor(rnd() * (size - s + 1));
      assert.equal(c.count(s, e), jsCount(c.buf, s, e), `size ${size} range [${s}, ${e})`);
    }
    assert.equal(c.count(0, size), jsCount(c.buf, 0, size));
    assert.equal(c.count(size, size), 0);
  }
});

Deno.test("newlineCounter counts a buffer of only newlines and refuses ranges outside it", () => {
  const c = newlineCounter(33);
  c.buf.fill(10);
  assert.equal(c.count(0, 33), 33);
  assert.equal(c.count(1, 32), 31);
  assert.throws(() => c.count(0, 34), RangeError);
  assert.throws(() => c.count(5, 4), RangeError);
  assert.throws(() => newlineCounter(0), RangeError);
});
