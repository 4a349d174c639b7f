/**
 * Issue #12, "a listing that scales", end to end through the MCP SDK's client: `log_files` pages past
 * 1000 entries with `next_cursor`, newest first or by name, narrowed by a glob; each entry says whether the
 * reading tools read it. Checked against `find` (names, modified times, counts) and bash's globstar
 * expansion, never against logpeek alone.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";
import { bySegments, find, newest } from "./find_files.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const T0 = 1_700_000_000;

/** 3 folders of 401 logs with repeating modified times, and a folder of rotated siblings. */
function tree(): string {
  const dir = tempDir("logpeek-paging-");
  for (let d = 0; d < 3; d++) {
    Deno.mkdirSync(`${dir}/d${d}`);
    for (let i = 0; i < 401; i++) {
      const p = `${dir}/d${d}/f${String(i).padStart(3, "0")}.log`;
      Deno.writeTextFileSync(p, "2024-05-01 INFO x\n");
      const s = T0 + ((i * 7 + d) % 97) * 60; // ties across folders: the name breaks them
      Deno.utimeSync(p, s, s);
    }
  }
  Deno.mkdirSync(`${dir}/rot`);
  const rot: [string, Uint8Array, number][] = [
    ["app.log", new TextEncoder().encode("2024-05-03 ERROR now\n"), 99_000],
    ["app.log.1", new TextEncoder().encode("2024-05-02 ERROR before\n"), 98_000],
    ["app.log.2.gz", gzipSync(new TextEncoder().encode("2024-05-01 ERROR long ago\n")), 97_000],
    ["old.log.xz", new Uint8Array([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0, 0, 4]), 96_000],
  ];
  for (const [name, bytes, s] of rot) {
    Deno.writeFileSync(`${dir}/rot/${name}`, bytes);
    Deno.utimeSync(`${dir}/rot/${name}`, T0 + s, T0 + s);
  }
  return dir;
}

Deno.test({
  name:
    "e2e: log_files pages past 1000 with next_cursor, by name and newest first; find agrees on every page",
  ...opts,
  async fn() {
    const dir = tree();
    const found = find(dir);
    assert.equal(found.length, 1207);
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "10000000" });

    // By name, the default 1000 a page: two pages.
    const byName = found.map((f) => f.file).sort(bySegments);
    const p1 = (await s.call("log_files", {})).structuredContent;
    assert.deepEqual([p1.files.length, p1.complete, p1.not_listed, typeof p1.next_cursor], [
      1000,
      false,
      207,
      "string",
    ]);
    assert.equal(p1.artifact, undefined); // nothing spilled: every entry is in the answer
    const p2r = await s.call("log_files", { cursor: p1.next_cursor });
    const p2 = p2r.structuredContent;
    assert.deepEqual([p2.files.length, p2.complete, p2.not_listed, p2.next_cursor], [207, true, 0, null]);
    assert.deepEqual([...p1.files, ...p2.files].map((f: { file: string }) => f.file), byName);
    assert.match(p2r.content[0].text, /^207 log file\(s\), after the cursor; the list is complete\./);
    // Nothing of the internal time key leaks into the answer.
    assert.equal("modified_ms" in p1.files[0], false);

    // Newest first, 500 a page: three pages, in find's %T@ order (ties by name), with find's times.
    const want = [...found].sort(newest);
    const got: { file: string; modified: string }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = (await s.call("log_files", { sort: "modified", limit: 500, ...(cursor ? { cursor } : {}) }))
        .structuredContent;
      assert.ok(r.files.length <= 500);
      got.push(...r.files);
      assert.equal(r.not_listed, found.length - got.length);
      cursor = r.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(got.map((f) => f.file), want.map((f) => f.file));
    assert.deepEqual(got.map((f) => Date.parse(f.modified)), want.map((f) => f.ms));
    assert.equal(got[0].file, "rot/app.log");
  },
});

Deno.test({
  name:
    "e2e: log_files with a glob: bash's globstar agrees; rotated siblings newest first; readable and reason",
  ...opts,
  async fn() {
    const dir = tree();
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "10000000" });
    const bash = (glob: string) => {
      const script =
        `shopt -s globstar dotglob nullglob; cd "$1"; for f in ${glob}; do [[ -f $f ]] && echo "$f"; done; true`;
      const out = new Deno.Command("bash", { args: ["-c", script, "bash", dir], stdout: "piped" })
        .outputSync();
      return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l);
    };
    for (const glob of ["**/app.log*", "d1/f1?0.log", "{d0,d2}/f00[0-4].log", "**/*.xz"]) {
      const r = (await s.call("log_files", { glob })).structuredContent;
      assert.deepEqual(r.files.map((f: { file: string }) => f.file), bash(glob).sort(bySegments), glob);
      assert.equal(r.complete, true, glob);
    }
    const rot = await s.call("log_files", { glob: "**/app.log*", sort: "modified" });
    assert.deepEqual(
      rot.structuredContent.files.map((
        f: Record<string, unknown>,
      ) => [f.file, f.compression, f.readable, f.reason]),
      [
        ["rot/app.log", null, true, null],
        ["rot/app.log.1", null, true, null],
        ["rot/app.log.2.gz", "gzip", true, null],
      ],
    );
    assert.match(
      rot.content[0].text,
      /^3 log file\(s\) matching the glob '\*\*\/app\.log\*', newest first; the list is complete\.\n/,
    );
    assert.match(rot.content[0].text, /\nrot\/app\.log\.2\.gz\t\d+ bytes\t\S+\tgzip\n?/);
    const xz = (await s.call("log_files", { glob: "**/*.xz" })).structuredContent.files[0];
    assert.deepEqual([xz.format, xz.compression, xz.readable], ["xz", null, false]);
    assert.equal(xz.reason, `unsupported_format: ${xz.unsupported}`);
    // The reason is what the reading tool answers.
    const tail = await s.call("log_tail", { file: "rot/old.log.xz" });
    assert.equal(tail.isError, true);
    assert.match(tail.content[0].text, /^unsupported_format: rot\/old\.log\.xz is xz-compressed/);

    // A glob with a page: limit 2 over the three siblings, by name.
    const g1 = (await s.call("log_files", { glob: "rot/app*", limit: 2 })).structuredContent;
    assert.deepEqual([g1.files.length, g1.complete, g1.not_listed], [2, false, 1]);
    const g2 =
      (await s.call("log_files", { glob: "rot/app*", limit: 2, cursor: g1.next_cursor })).structuredContent;
    assert.deepEqual(g2.files.map((f: { file: string }) => f.file), ["rot/app.log.2.gz"]);

    // The cursor belongs to its glob and sort.
    for (const other of [{ glob: "rot/*" }, { glob: "rot/app*", sort: "modified" }, {}]) {
      const r = await s.call("log_files", { ...other, limit: 2, cursor: g1.next_cursor });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /^invalid_cursor: the cursor belongs to another listing/);
    }
    const junk = await s.call("log_files", { cursor: "abc.def" });
    assert.match(junk.content[0].text, /^invalid_cursor: the cursor is not one this server made/);

    // A malformed glob, one that matches nothing (the closest names offered), limits out of range.
    const bad = await s.call("log_files", { glob: "rot/[a" });
    assert.equal(bad.isError, true);
    assert.equal(
      bad.content[0].text,
      "invalid_pattern: the glob 'rot/[a' is malformed: the [ at character 5 is never closed by ]",
    );
    const none = await s.call("log_files", { glob: "rto/app.lg" });
    assert.equal(none.isError, undefined);
    assert.deepEqual(none.structuredContent.files, []);
    assert.match(none.content[0].text, /No log matches; the closest names: rot\/app\.log, /);
    for (const limit of [0, 1001, 1.5]) {
      const r = await s.call("log_files", { limit });
      assert.equal(r.isError, true, `${limit}`);
      assert.match(r.content[0].text, /limit/);
    }
  },
});

Deno.test({
  name: "e2e: log_files lists a file it may not open with readable false and permission_denied",
  ...opts,
  ignore: Deno.uid() === 0,
  async fn() {
    const dir = tempDir("logpeek-paging-perm-");
    Deno.writeTextFileSync(`${dir}/ok.log`, "x\n");
    Deno.writeTextFileSync(`${dir}/shut.log`, "x\n");
    Deno.chmodSync(`${dir}/shut.log`, 0o000);
    await using s = await connect([dir]);
    const r = await s.call("log_files", {});
    const shut = r.structuredContent.files.find((f: { file: string }) => f.file === "shut.log");
    assert.deepEqual([shut.readable, shut.format], [false, null]);
    assert.match(shut.reason, /^permission_denied: /);
    const tail = await s.call("log_tail", { file: "shut.log" });
    assert.match(tail.content[0].text, /^permission_denied: /);
  },
});
if (Deno.uid() === 0) console.error("SKIP: the chmod 000 case: running as root, who may open any file");
