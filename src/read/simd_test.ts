import assert from "node:assert/strict";
import { POSITIONS, simdScanner } from "./simd.ts";

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

Deno.test("count agrees with a byte loop on random data and every range edge", () => {
  const rnd = rng(12345);
  for (const size of [1, 15, 16, 17, 100, 65536, 70000]) {
    const s = simdScanner(size);
    for (let i = 0; i < size; i++) s.buf[i] = rnd() < 0.1 ? 10 : Math.floor(rnd() * 256);
    for (let k = 0; k < 50; k++) {
      const a = Math.floor(rnd() * size);
      const b = a + Math.floor(rnd() * (size - a + 1));
      let want = 0;
      for (let i = a; i < b; i++) if (s.buf[i] === 10) want++;
      assert.equal(s.count(a, b), want, `size ${size} range [${a}, ${b})`);
    }
    assert.equal(s.count(size, size), 0);
  }
  // Only line feeds: every byte lane counts to its most (255) before it is summed, many times over.
  const all = simdScanner(70000);
  all.buf.fill(10);
  assert.equal(all.count(0, 70000), 70000);
  assert.equal(all.count(3, 69999), 69996);
  assert.equal(all.count(16 * 255, 16 * 510 + 1), 16 * 255 + 1);
  const s = simdScanner(33);
  s.buf.fill(10);
  assert.equal(s.count(1, 32), 31);
  assert.throws(() => s.count(0, 34), RangeError);
  assert.throws(() => simdScanner(0), RangeError);
});

Deno.test("newlines lists every line feed in order, in batches, never past the range", () => {
  const rnd = rng(77);
  for (const size of [1, 16, 31, 1000, 65536]) {
    const s = simdScanner(size);
    for (const density of [0, 0.05, 0.5, 1]) {
      for (let i = 0; i < size; i++) s.buf[i] = rnd() < density ? 10 : 65;
      const a = Math.floor(rnd() * size);
      const b = a + Math.floor(rnd() * (size - a + 1));
      const want: number[] = [];
      for (let i = a; i < b; i++) if (s.buf[i] === 10) want.push(i);
      const got: number[] = [];
      let from = a;
      while (true) {
        const n = s.newlines(from, b);
        for (let k = 0; k < n; k++) got.push(s.positions[k]);
        if (n < POSITIONS) break;
        from = s.positions[n - 1] + 1;
      }
      assert.deepEqual(got, want, `size ${size} density ${density} [${a}, ${b})`);
    }
  }
});

Deno.test("find2 finds the first pair candidate in range and -1 past it", () => {
  const rnd = rng(5);
  const size = 5000;
  const s = simdScanner(size);
  for (let t = 0; t < 300; t++) {
    for (let i = 0; i < size; i++) s.buf[i] = 97 + Math.floor(rnd() * 4);
    const o1 = Math.floor(rnd() * 5), o2 = Math.floor(rnd() * 5);
    const b1 = 97 + Math.floor(rnd() * 4), b2 = 97 + Math.floor(rnd() * 4);
    const start = Math.floor(rnd() * 200);
    const last = start - 1 + Math.floor(rnd() * (size - start - 5));
    let want = -1;
    for (let p = start; p <= last; p++) {
      if (s.buf[p + o1] === b1 && s.buf[p + o2] === b2) {
        want = p;
        break;
      }
    }
    assert.equal(s.find2(start, last, b1, o1, b2, o2), want, `case ${t}`);
  }
});

Deno.test("findCount finds what find2 finds and counts the line feeds before it, in one pass", () => {
  const rnd = rng(26);
  for (const size of [20, 37, 300, 5000]) {
    const s = simdScanner(size);
    for (let t = 0; t < 400; t++) {
      // Few letters and many line feeds (so candidates and line feeds share blocks), or rare pairs.
      const nl = t % 3 === 0 ? 0.3 : 0.05;
      for (let i = 0; i < size; i++) s.buf[i] = rnd() < nl ? 10 : 97 + Math.floor(rnd() * (t % 2 ? 3 : 12));
      const o1 = Math.floor(rnd() * 5), o2 = Math.floor(rnd() * 5);
      const b1 = 97 + Math.floor(rnd() * 4), b2 = t % 5 === 0 ? 10 : 97 + Math.floor(rnd() * 4);
      const m1 = t % 4 === 1 ? 0x20 : 0;
      const start = Math.floor(rnd() * Math.min(40, size - 5));
      const last = start - 1 + Math.floor(rnd() * (size - start - 4));
      const want = s.find2(start, last, b1, o1, b2, o2, m1, 0);
      let lf = 0;
      for (let p = start; p < (want < 0 ? last + 1 : want); p++) lf += s.buf[p] === 10 ? 1 : 0;
      const got = s.findCount(start, last, b1, o1, b2, o2, m1, 0);
      assert.equal(got, want, `size ${size} case ${t}`);
      assert.equal(s.counted(), lf, `size ${size} case ${t}: line feeds in [${start}, ${got})`);
      // findCountHigh: the same, and the first byte ≥ 0x80 from start (a few bytes of é and ſ put in).
      for (let k = 0; k < (t % 7); k++) s.buf[Math.floor(rnd() * size)] = 0xc3 + (k % 2) * 0x1f;
      const want2 = s.find2(start, last, b1, o1, b2, o2, m1, 0);
      assert.equal(s.findCountHigh(start, last, b1, o1, b2, o2, m1, 0), want2, `high, case ${t}`);
      const h = s.high(), upTo = want2 < 0 ? last : want2;
      const first = s.buf.subarray(start, upTo + 1).findIndex((b) => b >= 0x80);
      if (first >= 0) assert.equal(h, start + first, `the first high byte, case ${t}`);
      else assert.ok(h < 0 || h > upTo, `no high byte in [${start}, ${upTo}], got ${h}, case ${t}`);
    }
  }
});

Deno.test("lines lists line feeds with each line's first letter offset", () => {
  const rnd = rng(99);
  const alphabet = "0123456789 -:[]\x1babcXYZ";
  for (const size of [16, 100, 5000]) {
    const s = simdScanner(size);
    for (let t = 0; t < 30; t++) {
      for (let i = 0; i < size; i++) {
        s.buf[i] = rnd() < 0.06
          ? 10
          : alphabet.charCodeAt(Math.floor(rnd() * (t % 2 ? 16 : alphabet.length)));
      }
      const want: number[] = [];
      let start = 0;
      for (let i = 0; i < size; i++) {
        if (s.buf[i] !== 10) continue;
        let f = 255;
        for (let k = start; k < Math.min(i, start + 32); k++) {
          const c = s.buf[k] | 0x20;
          if ((c >= 97 && c <= 122) || s.buf[k] === 27) {
            f = k - start;
            break;
          }
        }
        want.push(i | (f << 24));
        start = i + 1;
      }
      const got: number[] = [];
      let from = 0;
      while (true) {
        const n = s.lines(from, size);
        for (let k = 0; k < n; k++) got.push(s.positions[k]);
        if (n < POSITIONS) break;
        from = (s.positions[n - 1] & 0xffffff) + 1;
      }
      assert.deepEqual(got, want, `size ${size} case ${t}`);
    }
  }
});
