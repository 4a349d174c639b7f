import assert from "node:assert/strict";
import { jsonChunks } from "./json_chunks.ts";

Deno.test("jsonChunks joined is JSON.stringify's text: nesting, skipped members, holes, dates, unicode", () => {
  const values: unknown[] = [
    null,
    1.5,
    'a\n"b" 😀 \ud800',
    [],
    {},
    [1, undefined, () => 1, null, [2, [3, [4, [5]]]]],
    { a: undefined, b: { c: [{ d: "x" }, { e: { f: { g: 1 } } }] }, h: Symbol("s"), 'k"ey': true },
    // deno-lint-ignore no-sparse-arrays
    [1, , 3],
    { when: new Date(0), list: new Array(3) },
  ];
  for (const v of values) {
    for (const depth of [0, 1, 2, 3, 10]) {
      assert.equal([...jsonChunks(v, depth)].join(""), JSON.stringify(v), `${JSON.stringify(v)} at ${depth}`);
    }
  }
  // A large array is many pieces, none of them the whole.
  const big = { run: { clusters: Array.from({ length: 1000 }, (_, i) => ({ i, t: "x".repeat(100) })) } };
  const pieces = [...jsonChunks(big)];
  assert.ok(pieces.length > 1000 && Math.max(...pieces.map((p) => p.length)) < 200);
  assert.equal(pieces.join(""), JSON.stringify(big));
});
