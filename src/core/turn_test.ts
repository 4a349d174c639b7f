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

Deno.test("Turns: a worker busy in 5 ms slices takes its host's messages within a few timer turns", async () => {
  const src = `
    import { Turns } from ${JSON.stringify(new URL("./turn.ts", import.meta.url).href)};
    let worst = 0;
    let got = 0;
    self.onmessage = (e) => { worst = Math.max(worst, Date.now() - e.data); got++; };
    const turns = new Turns();
    const start = performance.now();
    while (got < 40 && performance.now() - start < 20000) {
      const t = performance.now();
      while (performance.now() - t < 5) { /* busy */ }
      await turns.next();
    }
    self.postMessage({ got, worst });
  `;
  const w = new Worker(URL.createObjectURL(new Blob([src], { type: "application/javascript" })), {
    type: "module",
  });
  try {
    const sent = setInterval(() => w.postMessage(Date.now()), 10);
    const r = await new Promise<{ got: number; worst: number }>((
      resolve,
    ) => (w.onmessage = (e) => resolve(e.data)));
    clearInterval(sent);
    assert.ok(r.got >= 40, `${r.got} messages`);
    // A timer turn at least every 20 ms: a message waits about that, plus a loaded machine's noise.
    assert.ok(r.worst < 120, `a message waited ${r.worst} ms`);
  } finally {
    w.terminate();
  }
});
