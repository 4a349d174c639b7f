import assert from "node:assert/strict";
import { BestOf } from "./best_of.ts";

Deno.test("BestOf keeps the n best of a stream: the first n of Array.prototype.sort over all of it", () => {
  // A fixed pseudo-random stream (xorshift32), with ties, against a full sort of the whole stream.
  let x = 2463534242;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % 500;
  };
  const cmp = (a: [number, number], b: [number, number]) => b[0] - a[0] || a[1] - b[1]; // newest first, then id
  for (const n of [1, 2, 7, 100, 5000]) {
    const best = new BestOf<[number, number]>(n, cmp);
    const all: [number, number][] = [];
    let letGo = 0;
    for (let i = 0; i < 3000; i++) {
      const item: [number, number] = [next(), i];
      all.push(item);
      if (best.offer(item) !== undefined) letGo++;
      assert.ok(best.size <= n);
    }
    const want = all.sort(cmp).slice(0, n);
    assert.deepEqual(best.sorted(), want, `n=${n}`);
    assert.equal(letGo, 3000 - want.length);
    assert.deepEqual(best.worst(), want[want.length - 1]);
  }
});

Deno.test("BestOf refuses a size that is not a whole number from 1", () => {
  for (const n of [0, -1, 1.5, NaN]) assert.throws(() => new BestOf<number>(n, (a, b) => a - b), RangeError);
  const b = new BestOf<number>(2, (a, b) => a - b);
  assert.equal(b.worst(), undefined);
  assert.deepEqual([b.offer(3), b.offer(1), b.wouldKeep(2), b.wouldKeep(3), b.offer(2), b.sorted()], [
    undefined,
    undefined,
    true,
    false,
    3,
    [1, 2],
  ]);
});
