/**
 * A glob over local files names as "not read" only the entries it matches (or folders that may hold a
 * match), end to end through the real client: a link out that the glob cannot match is no part of its
 * scope (the trial's `**∕*.gz` naming `sub/passwd.log`, a link to a file outside the root). What each
 * tool reads, and what it names as not read, is checked against bash's own pathname expansion
 * (`globstar`, `dotglob`: the rules `src/source/glob.ts` follows) and each count against grep.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

/** The names bash's pathname expansion gives for `glob` in `dir`, in code-unit order. */
function bashGlob(dir: string, glob: string): string[] {
  const out = new Deno.Command("bash", {
    args: ["-O", "globstar", "-O", "dotglob", "-O", "nullglob", "-c", `for f in ${glob}; do echo "$f"; done`],
    cwd: dir,
    stdout: "piped",
  }).outputSync();
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "").sort();
}

/** How many lines of `file` hold `text` (`grep -c`, through `zcat` for a .gz). */
function grepCount(file: string, text: string): number {
  const cmd = file.endsWith(".gz")
    ? new Deno.Command("bash", { args: ["-c", `zcat '${file}' | grep -c -F '${text}'`], stdout: "piped" })
    : new Deno.Command("grep", { args: ["-c", "-F", text, file], stdout: "piped" });
  return Number(new TextDecoder().decode(cmd.outputSync().stdout).trim());
}

Deno.test({
  name:
    "e2e: a glob of any form names as not read only the entries it matches; complete when it matches no link out",
  ...opts,
  async fn() {
    const base = tempDir("logpeek-glob-scope-");
    const root = join(base, "root");
    const mirror = join(base, "mirror"); // the same names, the link replaced by a file
    const line = (i: number) => `2024-05-01T10:00:0${i}Z ${i % 2 ? "ERROR" : "INFO"} request ${i} done\n`;
    const body = [0, 1, 2, 3].map(line).join("");
    for (const d of [root, mirror]) {
      Deno.mkdirSync(join(d, "sub"), { recursive: true });
      for (const f of ["app.log", "java.log", "app.jsonl"]) Deno.writeTextFileSync(join(d, f), body);
      Deno.writeFileSync(join(d, "a.gz"), gzipSync(new TextEncoder().encode(body)));
    }
    Deno.writeTextFileSync(join(base, "passwd"), "root:x:0:0:root:/root:/bin/bash\n");
    Deno.symlinkSync(join(base, "passwd"), join(root, "sub", "passwd.log"));
    Deno.writeTextFileSync(join(mirror, "sub", "passwd.log"), "x\n");
    await using s = await connect([root]);
    const globs = [
      "**/*.gz",
      "{app,java}.log",
      "app.{log,jsonl}",
      "**/*.jsonl",
      "**/*.log",
      "*.log",
      "su?/*",
    ];
    for (const glob of globs) {
      const matched = bashGlob(mirror, glob);
      const out = matched.filter((f) => f === "sub/passwd.log");
      const read = matched.filter((f) => f !== "sub/passwd.log");
      const complete = out.length === 0;
      const files = await s.call("log_files", { glob });
      assert.deepEqual(files.structuredContent.files.map((f: { file: string }) => f.file), read, glob);
      assert.deepEqual(files.structuredContent.unreadable.map((u: string) => u.split(":")[0]), out, glob);
      assert.deepEqual([files.structuredContent.not_listed, files.structuredContent.complete], [
        out.length,
        complete,
      ], glob);
      if (read.length === 0) continue; // no readable log matches: the reading tools say not_found
      const found = await s.call("log_search", { file: glob, text: "request", limit: 1000 });
      const sc = found.structuredContent;
      assert.equal(sc.complete, complete, `${glob}: ${found.content[0].text}`);
      assert.deepEqual(
        sc.not_read ?? [],
        out.map((f) => sc.not_read?.find((n: string) => n.startsWith(f))),
        glob,
      );
      assert.equal(/NOT read, though the glob matches/.test(found.content[0].text), !complete, glob);
      assert.deepEqual(sc.logs.map((l: { file: string }) => l.file).sort(), read, glob);
      const want = read.reduce((n, f) => n + grepCount(join(root, f), "request"), 0);
      assert.equal(sc.matches.length, want, glob);
      const zzz = await s.call("log_search", { file: glob, text: "zzz" });
      assert.deepEqual([zzz.structuredContent.complete, zzz.structuredContent.not_read ?? []].map(String), [
        String(complete),
        String(sc.not_read ?? []),
      ], glob);
      const levels = await s.call("log_levels", { file: glob });
      assert.equal(levels.structuredContent.complete, complete, `${glob}: ${levels.content[0].text}`);
      assert.deepEqual(levels.structuredContent.not_read ?? [], sc.not_read ?? [], glob);
      const errors = read.reduce((n, f) => n + grepCount(join(root, f), "ERROR"), 0);
      assert.equal(levels.structuredContent.counts.ERROR, errors, glob);
      const patterns = await s.call("log_patterns", { file: glob });
      assert.equal(patterns.structuredContent.complete, complete, `${glob}: ${patterns.content[0].text}`);
      assert.deepEqual(patterns.structuredContent.not_read ?? [], sc.not_read ?? [], glob);
    }
  },
});
