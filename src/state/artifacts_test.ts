import assert from "node:assert/strict";
import { ArtifactStore } from "./artifacts.ts";
import { ToolError } from "../core/errors.ts";

function store(ttlMs: number, maxBytes: number) {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-art-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  let now = 1_000_000;
  const s = new ArtifactStore(dir, ttlMs, maxBytes, () => now);
  return { s, dir, tick: (ms: number) => (now += ms) };
}

Deno.test("an artifact reads back page by page, every line once, with next_offset null at the end", async () => {
  const { s } = store(60_000, 1 << 30);
  const lines = Array.from({ length: 1234 }, (_, i) => `${i + 1} INFO line ${i + 1} ${"é".repeat(i % 7)}`);
  const ref = s.write("log_search", lines);
  assert.equal(ref.total_lines, 1234);
  const got: string[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page = await s.read(ref.artifact_id, offset, 200);
    got.push(...page.lines);
    offset = page.next_offset;
  }
  assert.deepEqual(got, lines);
  const past = await s.read(ref.artifact_id, 5000, 10);
  assert.deepEqual([past.lines, past.next_offset], [[], null]);
});

Deno.test("artifacts expire after their time to live and the oldest go first over the size cap", async () => {
  const { s, tick } = store(10_000, 3000);
  const a = s.write("t", Array(10).fill("x".repeat(99))); // 1000 bytes
  tick(1);
  const b = s.write("t", Array(10).fill("y".repeat(99)));
  tick(1);
  const c = s.write("t", Array(10).fill("z".repeat(99)));
  assert.equal((await s.read(a.artifact_id, 0, 1)).lines[0][0], "x");
  tick(1);
  s.write("t", Array(10).fill("w".repeat(99))); // 4000 bytes in all: the oldest goes
  await assert.rejects(() => s.read(a.artifact_id, 0, 1), (e: ToolError) => e.kind === "artifact_not_found");
  assert.equal((await s.read(b.artifact_id, 0, 1)).lines[0][0], "y");
  tick(20_000);
  await assert.rejects(() => s.read(c.artifact_id, 0, 1), /expired/);
  assert.equal(s.sweep(), 2, "the rest expire at the next sweep");
});

Deno.test("read refuses ids not of the server's form before touching the disk", async () => {
  const { s } = store(1000, 1000);
  for (const id of ["../x", "a123", "A" + "0".repeat(24), "a" + "0".repeat(24) + "/..", ""]) {
    await assert.rejects(() => s.read(id, 0, 1), (e: ToolError) => e.kind === "invalid_artifact_id", id);
  }
});
