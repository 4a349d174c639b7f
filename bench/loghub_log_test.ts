/**
 * The benchmark's real-line log is what `bench/README.md` says it is, checked with ripgrep and `wc`
 * (independent of logpeek): the rare lines are where the generator says, hold what the rows search for,
 * and the corpus itself holds none of it; the same seed gives the same bytes. Also the `rg -n` output
 * parser the benchmark checks answers with.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { sharedDir } from "../tests/shared_dir.ts";
import { makeLoghubLog, RARE_COUNT, RARE_TEXT } from "./loghub_log.ts";
import { corporaFiles, makeCorporaRareLog } from "./corpora_log.ts";
import { firstDifference, lineNumbers } from "./measure.ts";
import { QUERIES } from "./real_log.ts";

function run(cmd: string, args: string[]): string {
  return new TextDecoder().decode(
    new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).outputSync().stdout,
  );
}

Deno.test("the real-line log: rare lines where the generator says, rows' queries match them, seeded", () => {
  const shared = sharedDir("the benchmark's real-line log");
  if (shared === null) return;
  const loghub = join(shared, "corpus", "loghub");
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-loghub-log-" });
  try {
    const bytes = 3 * 1024 * 1024;
    const a = makeLoghubLog(loghub, join(dir, "a.log"), bytes);
    assert.equal(a.size, Deno.statSync(a.path).size);
    assert.ok(a.size >= bytes && a.size < bytes + 2000);
    assert.equal(Number(run("wc", ["-l", a.path]).trim().split(/\s+/)[0]), a.lines);
    assert.equal(a.rare.length, RARE_COUNT);
    // Three in the last 1% of the lines' bytes: their numbers are near the end.
    assert.ok(a.rare.slice(-3).every((n) => n > a.lines * 0.98), JSON.stringify(a));
    const even = a.rare.filter((_, i) => i % 2 === 0);
    assert.deepEqual(lineNumbers(run("rg", ["-n", "-F", QUERIES.literal, a.path])), even);
    assert.deepEqual(lineNumbers(run("rg", ["-n", "-i", "-F", QUERIES.ignoreCase, a.path])), a.rare);
    assert.deepEqual(lineNumbers(run("rg", ["-n", QUERIES.requiredLiteral, a.path])), a.rare);
    assert.deepEqual(lineNumbers(run("rg", ["-n", QUERIES.noLiteral, a.path])), even);
    assert.ok(lineNumbers(run("rg", ["-n", QUERIES.manyMatches, a.path])).length > 200);
    assert.equal(run("rg", ["-c", "\r", a.path]), "", "no CR left");
    // The corpus holds none of what the rare lines add.
    for (const q of [QUERIES.requiredLiteral, QUERIES.noLiteral, `(?i)${RARE_TEXT}`]) {
      assert.equal(run("rg", ["-c", q, loghub]), "", q);
    }
    // The same seed and size, the same bytes; a second call reuses the file.
    const b = makeLoghubLog(loghub, join(dir, "b.log"), bytes);
    assert.deepEqual(Deno.readFileSync(b.path), Deno.readFileSync(a.path));
    const mtime = Deno.statSync(a.path).mtime;
    assert.deepEqual(makeLoghubLog(loghub, a.path, bytes), a);
    assert.deepEqual(Deno.statSync(a.path).mtime, mtime);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the 16-system log: both corpora's lines and the same rare lines, rare in both corpora", () => {
  const shared = sharedDir("the benchmark's 16-system log");
  if (shared === null) return;
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-corpora-rare-" });
  try {
    const bytes = 3 * 1024 * 1024;
    const a = makeCorporaRareLog(shared, join(dir, "a.log"), bytes);
    assert.equal(a.size, Deno.statSync(a.path).size);
    assert.ok(a.size >= bytes && a.size < bytes + 70_000, JSON.stringify(a));
    assert.equal(Number(run("wc", ["-l", a.path]).trim().split(/\s+/)[0]), a.lines);
    assert.equal(a.rare.length, RARE_COUNT);
    assert.ok(a.rare.slice(-3).every((n) => n > a.lines * 0.98), JSON.stringify(a));
    const even = a.rare.filter((_, i) => i % 2 === 0);
    assert.deepEqual(lineNumbers(run("rg", ["-n", "-F", QUERIES.literal, a.path])), even);
    assert.deepEqual(lineNumbers(run("rg", ["-n", "-i", "-F", QUERIES.ignoreCase, a.path])), a.rare);
    assert.deepEqual(lineNumbers(run("rg", ["-n", QUERIES.requiredLiteral, a.path])), a.rare);
    // lnav's lines hold one `[0-9]{3}-[a-z]{4}`: the rare lines' are among the matches, not all of them.
    const noLiteral = lineNumbers(run("rg", ["-n", QUERIES.noLiteral, a.path]));
    assert.ok(even.every((n) => noLiteral.includes(n)), JSON.stringify(noLiteral));
    // Lines of lnav's logs are in it (a JSON line and a logfmt one, say), not only Loghub's.
    assert.ok(Number(run("rg", ["-c", "^\\{", a.path]).trim() || 0) > 0, "no JSON line");
    // Neither corpus holds the rare literal (either case) or the phrase of row 3.
    const files = corporaFiles(shared, "both");
    for (const q of [QUERIES.requiredLiteral, `(?i)${RARE_TEXT}`]) {
      assert.equal(run("rg", ["-c", "-a", q, ...files]), "", q);
    }
    const b = makeCorporaRareLog(shared, join(dir, "b.log"), bytes);
    assert.deepEqual(Deno.readFileSync(b.path), Deno.readFileSync(a.path));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("lineNumbers reads rg -n output; firstDifference names the first difference", () => {
  assert.deepEqual(lineNumbers("3:a:b\n17:x\n"), [3, 17]);
  assert.deepEqual(lineNumbers(""), []);
  assert.throws(() => lineNumbers("a:3\n"), /not a numbered line/);
  assert.equal(firstDifference([1, 2], [1, 2]), null);
  assert.match(firstDifference([1, 3], [1, 2])!, /match #2: logpeek line 3, peer line 2/);
  assert.match(firstDifference([1], [1, 2])!, /logpeek has 1 matches, the peer 2 \(next peer line 2\)/);
});
