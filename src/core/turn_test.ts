import assert from "node:assert/strict";
import { turn } from "./turn.ts";

Deno.test("turn: a timer that fell due during synchronous work runs before the turn resolves", async () => {
  let fired = false;
  setTimeout(() => (fired = true), 1);
  const start = performance.now();
  while (performance.now() - start < 5) {
    // busy: the timer falls due meanwhile
  }
  assert.equal(fired, false);
  await turn();
  assert.equal(fired, true);
});

Deno.test("turn: a message from a worker is taken in at a turn, not only when the work ends", async () => {
  const src = "self.postMessage('hi');";
  const w = new Worker(URL.createObjectURL(new Blob([src], { type: "application/javascript" })), {
    type: "module",
  });
  let got = false;
  w.onmessage = () => (got = true);
  try {
    const start = performance.now();
    while (!got && performance.now() - start < 10_000) {
      const t = performance.now();
      while (performance.now() - t < 5) {
        // busy
      }
      await turn();
    }
    assert.equal(got, true);
  } finally {
    w.terminate();
  }
});
