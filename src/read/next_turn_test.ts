import assert from "node:assert/strict";
import { ScanTurns } from "./next_turn.ts";

/** Busy for `ms` milliseconds: synchronous work, as a scan's piece is. */
function busy(ms: number): void {
  const t = performance.now();
  while (performance.now() - t < ms) {
    // work
  }
}

Deno.test("ScanTurns: a timer that fell due during the work runs before each turn resolves, first turn and armed ones", async () => {
  const turns = new ScanTurns();
  try {
    for (let i = 0; i < 5; i++) {
      let fired = false;
      setTimeout(() => (fired = true), 1);
      busy(5);
      assert.equal(fired, false);
      await turns.next();
      assert.equal(fired, true, `turn ${i}`);
    }
  } finally {
    turns.close(); // the armed timer cleared: the test's sanitizer sees no timer left
  }
});

Deno.test("ScanTurns: a worker's message and a child's pipe are taken in at the turns, not only when the work ends", async () => {
  const w = new Worker(
    URL.createObjectURL(new Blob(["self.postMessage('hi');"], { type: "application/javascript" })),
    { type: "module" },
  );
  let got = false;
  w.onmessage = () => (got = true);
  const child = new Deno.Command("sh", { args: ["-c", "echo piped"], stdout: "piped" }).spawn();
  let piped = "";
  const reading = (async () => {
    for await (const c of child.stdout) piped += new TextDecoder().decode(c);
  })();
  const turns = new ScanTurns();
  try {
    const start = performance.now();
    while ((!got || !piped.includes("piped")) && performance.now() - start < 10_000) {
      busy(10);
      await turns.next();
    }
    assert.equal(got, true, "the worker's message");
    assert.match(piped, /piped/);
  } finally {
    turns.close();
    w.terminate();
    await reading;
    await child.status;
  }
});
