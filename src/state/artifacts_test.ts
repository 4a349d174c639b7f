import assert from "node:assert/strict";
import { ArtifactStore, CHANGES_FILE, WRITE_BATCH_BYTES } from "./artifacts.ts";
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

Deno.test("the change counter gets one byte a save, is replaced by a one-byte file at 64 KiB, and a sweep that removes nothing leaves it", () => {
  const { s, dir, tick } = store(60_000, 1 << 30);
  s.sweep();
  assert.deepEqual([...Deno.readDirSync(dir)], [], "an empty folder is left as it was");
  Deno.writeFileSync(`${dir}/${CHANGES_FILE}`, new Uint8Array(65536));
  const ino = Deno.lstatSync(`${dir}/${CHANGES_FILE}`).ino;
  s.write("t", ["one"]);
  const st = Deno.lstatSync(`${dir}/${CHANGES_FILE}`);
  assert.equal(st.size, 1);
  if (ino !== null) assert.notEqual(st.ino, ino, "a new file, renamed into place");
  tick(1);
  s.write("t", ["two"]);
  assert.equal(Deno.lstatSync(`${dir}/${CHANGES_FILE}`).size, 2, "one byte a change");
  assert.equal(s.sweep(), 0);
  assert.equal(Deno.lstatSync(`${dir}/${CHANGES_FILE}`).size, 2);
  assert.deepEqual(
    [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith(CHANGES_FILE)),
    [CHANGES_FILE],
    "no temporary file left",
  );
});

Deno.test("a save when the clock went back keeps the oldest-first order: the cap removes the oldest by time", async () => {
  const { s, tick } = store(60_000, 2500);
  const a = s.write("t", Array(10).fill("x".repeat(99))); // 1000 bytes at t
  tick(-500);
  const b = s.write("t", Array(10).fill("y".repeat(99))); // 1000 bytes, made "before" a
  tick(1000);
  s.write("t", Array(10).fill("z".repeat(99))); // 3000 bytes in all: the oldest by time is b
  await assert.rejects(() => s.read(b.artifact_id, 0, 1), (e: ToolError) => e.kind === "artifact_not_found");
  assert.equal((await s.read(a.artifact_id, 0, 1)).lines[0][0], "x");
});

Deno.test("a saved state reads back whole for its tool only, never through read, and expires", async () => {
  const { s, tick } = store(60_000, 1 << 30);
  const json = JSON.stringify({ a: "x".repeat(70_000), b: [1, 2, 3] });
  const id = s.writeState("log_patterns", json);
  assert.equal(s.readState("log_patterns", id), json);
  assert.throws(
    () => s.readState("log_search", id),
    (e) => e instanceof ToolError && e.kind === "artifact_not_found",
  );
  await assert.rejects(
    () => s.read(id, 0, 10),
    (e) => e instanceof ToolError && e.kind === "artifact_not_found",
  );
  assert.throws(() => s.readState("log_patterns", "../x"), (e) => e instanceof ToolError);
  tick(60_001);
  assert.throws(() => s.readState("log_patterns", id), /expired|gone/);
});

Deno.test("a write taken from a generator in batches is byte-for-byte the joined text: long items, line feeds, pairs cut at a batch end", async () => {
  const { s, dir } = store(60_000, 1 << 30);
  // A state of 2.5 M units whose batch ends (every WRITE_BATCH_BYTES units) fall between a surrogate pair's
  // halves, short items that cross a batch end, and a line feed inside an item (written as a space).
  const long = "a".repeat(WRITE_BATCH_BYTES - 1) + "😀".repeat(300_000) + "b".repeat(WRITE_BATCH_BYTES);
  const items = [
    "first\nsecond",
    ...Array.from({ length: 3000 }, (_, i) => `${i} ${"é".repeat(500)} 😀`),
    long,
    "last",
  ];
  let made = 0;
  const ref = s.write(
    "log_search",
    (function* () {
      for (const it of items) {
        made++;
        yield it;
      }
    })(),
  );
  assert.equal(made, items.length);
  assert.equal(ref.total_lines, items.length);
  const expected = items.map((l) => l.replaceAll("\n", " ") + "\n").join("");
  assert.equal(Deno.readTextFileSync(`${dir}/${ref.artifact_id}.txt`), expected);
  assert.equal((await s.read(ref.artifact_id, 3002, 1)).lines[0], "last");
});

Deno.test("a write whose items fail part way leaves no file behind and no artifact", () => {
  const { s, dir } = store(60_000, 1 << 30);
  const before = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assert.throws(() =>
    s.write(
      "log_search",
      (function* () {
        yield "x".repeat(WRITE_BATCH_BYTES + 10);
        throw new Error("render failed");
      })(),
    ), /render failed/);
  assert.deepEqual(
    [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n !== CHANGES_FILE).sort(),
    before,
  );
});
