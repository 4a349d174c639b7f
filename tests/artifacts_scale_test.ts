/**
 * Issue #10, item 14: saving a spilled answer must not slow down as artifacts accumulate (it used to read
 * every artifact's metadata on each save: 10 ms with 250 stored, 107 ms with 3,000). Timing is measured
 * by `bench/artifacts_save.ts`; here the file-system calls of each save are counted (no wall clock), and
 * what the size cap leaves is checked by listing the folder independently.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ArtifactFs, ArtifactStore } from "../src/state/artifacts.ts";
import { answerLines, fillArtifacts } from "../bench/artifacts_save.ts";
import { tempDir } from "./fixtures.ts";

type Counts = Record<keyof ArtifactFs, number>;

/** Deno's calls, counted. */
function countingFs(): { fs: ArtifactFs; counts: Counts; reset: () => void } {
  const counts: Counts = {
    readDirSync: 0,
    readTextFileSync: 0,
    lstatSync: 0,
    removeSync: 0,
    writeFileSync: 0,
    renameSync: 0,
    truncateSync: 0,
  };
  const fs: ArtifactFs = {
    readDirSync: (p) => (counts.readDirSync++, Deno.readDirSync(p)),
    readTextFileSync: (p) => (counts.readTextFileSync++, Deno.readTextFileSync(p)),
    lstatSync: (p) => (counts.lstatSync++, Deno.lstatSync(p)),
    removeSync: (p, o) => (counts.removeSync++, Deno.removeSync(p, o)),
    writeFileSync: (p, d, o) => (counts.writeFileSync++, Deno.writeFileSync(p, d, o)),
    renameSync: (a, b) => (counts.renameSync++, Deno.renameSync(a, b)),
    truncateSync: (p, n) => (counts.truncateSync++, Deno.truncateSync(p, n)),
  };
  return { fs, counts, reset: () => Object.keys(counts).forEach((k) => (counts[k as keyof Counts] = 0)) };
}

/** The folder's artifacts as `ls` would show them: ids of `.txt` and `.json` files, and bytes of the `.txt`. */
function listed(dir: string): { txt: Set<string>; json: Set<string>; bytes: number } {
  const txt = new Set<string>();
  const json = new Set<string>();
  let bytes = 0;
  for (const e of Deno.readDirSync(dir)) {
    const m = /^(a[0-9a-f]{24})\.(txt|json)$/.exec(e.name);
    if (!m) continue;
    if (m[2] === "txt") {
      txt.add(m[1]);
      bytes += Deno.statSync(join(dir, e.name)).size;
    } else json.add(m[1]);
  }
  return { txt, json, bytes };
}

const LINES = answerLines();
const BODY_BYTES = new TextEncoder().encode(LINES.join("\n") + "\n").length;

Deno.test("a save makes the same file calls with 250 and with 3,000 artifacts stored, and reads no metadata", () => {
  const perSave: Counts[] = [];
  for (const stored of [250, 3000]) {
    const dir = tempDir("logpeek-artscale-");
    fillArtifacts(dir, stored, LINES, Date.now());
    const { fs, counts, reset } = countingFs();
    const store = new ArtifactStore(dir, 86_400_000, 1 << 30, Date.now, fs);
    assert.equal(store.sweep(), 0);
    assert.equal(counts.readTextFileSync, stored, "the start reads each artifact's metadata once");
    reset();
    for (let i = 0; i < 20; i++) store.write("log_search", LINES);
    perSave.push(counts);
    assert.equal(listed(dir).txt.size, stored + 20);
  }
  // Per save: the change counter stat'ed before and after, the two files and one byte written.
  const want: Counts = {
    readDirSync: 0,
    readTextFileSync: 0,
    lstatSync: 40,
    removeSync: 0,
    writeFileSync: 60,
    renameSync: 0,
    truncateSync: 0,
  };
  assert.deepEqual(perSave, [want, want]);
});

Deno.test("at the size cap each save of 3,000 removes exactly the oldest artifact: the folder keeps the cap", () => {
  const dir = tempDir("logpeek-artcap-");
  const now = Date.now();
  const old = fillArtifacts(dir, 3000, LINES, now);
  const { fs, counts, reset } = countingFs();
  const store = new ArtifactStore(dir, 86_400_000, 3000 * BODY_BYTES, () => now + 1, fs);
  assert.equal(store.sweep(), 0, "exactly at the cap: nothing to remove");
  reset();
  const made: string[] = [];
  for (let i = 0; i < 50; i++) made.push(store.write("log_search", LINES).artifact_id);
  assert.equal(counts.removeSync, 100, "one .json and one .txt removed per save");
  assert.equal(counts.readTextFileSync + counts.readDirSync, 0);
  const l = listed(dir);
  assert.equal(l.txt.size, 3000);
  assert.deepEqual(l.json, l.txt);
  assert.equal(l.bytes, 3000 * BODY_BYTES);
  assert.deepEqual(old.slice(0, 50).filter((id) => l.txt.has(id)), [], "the 50 oldest are gone");
  assert.ok(old.slice(50).every((id) => l.txt.has(id)) && made.every((id) => l.txt.has(id)));
});

Deno.test("two servers sharing the folder: a save counts the other's artifacts, reading only their metadata", () => {
  const dir = tempDir("logpeek-artshare-");
  let now = 1_000_000;
  const clock = () => now++;
  const a = countingFs();
  const sa = new ArtifactStore(dir, 86_400_000, 10 * BODY_BYTES, clock, a.fs);
  const sb = new ArtifactStore(dir, 86_400_000, 10 * BODY_BYTES, clock);
  sa.sweep();
  sb.sweep();
  const first = sa.write("log_search", LINES).artifact_id;
  for (let i = 0; i < 4; i++) sa.write("log_search", LINES);
  for (let i = 0; i < 5; i++) sb.write("log_search", LINES);
  assert.equal(listed(dir).txt.size, 10);
  a.reset();
  sa.write("log_search", LINES); // 11 in the folder: A must see B's five to know it is over the cap
  const l = listed(dir);
  assert.equal(l.txt.size, 10);
  assert.equal(l.bytes, 10 * BODY_BYTES);
  assert.equal(l.txt.has(first), false, "the oldest (A's first) went");
  assert.equal(a.counts.readDirSync, 1, "the other's change made A list the folder once");
  assert.equal(a.counts.readTextFileSync, 5, "and read only the five metadata files it did not know");
  a.reset();
  sa.write("log_search", LINES);
  assert.equal(a.counts.readDirSync + a.counts.readTextFileSync, 0, "no other change since: no listing");
  assert.equal(listed(dir).txt.size, 10);
});
