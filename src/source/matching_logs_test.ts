import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { closestNames, matchingLogList, matchingLogs } from "./matching_logs.ts";
import { localSource } from "./local/local_source.ts";
import { openRoots } from "./local/roots.ts";
import { ToolError } from "../core/errors.ts";

/** A tree of logs with set modification times (seconds after T0), as `[name, seconds]`. */
const T0 = 1_700_000_000;
const TREE: [string, number][] = [
  ["app.log", 30],
  ["app.log.1", 20],
  ["app.log.2.gz", 10],
  ["nginx/access.log", 40],
  ["nginx/error.log", 5],
  ["old.log.xz", 50],
  ["notes.txt", 60],
];

function makeTree(): string {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-match-" });
  Deno.mkdirSync(`${dir}/nginx`);
  for (const [name, s] of TREE) {
    const path = `${dir}/${name}`;
    if (name.endsWith(".gz")) {
      Deno.writeFileSync(path, gzipSync(new TextEncoder().encode("2024-01-01 INFO x\n")));
    } else if (name.endsWith(".xz")) {
      Deno.writeFileSync(path, new Uint8Array([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0, 0, 4]));
    } else Deno.writeTextFileSync(path, "2024-01-01 INFO x\n");
    Deno.utimeSync(path, T0 + s, T0 + s);
  }
  return dir;
}

/** `find DIR -type f -path PATTERN`, newest first by find's own %T@, names relative to DIR. */
function findNewest(dir: string, pattern: string): string[] {
  const out = new Deno.Command("find", {
    args: [dir, "-type", "f", "-path", `${dir}/${pattern}`, "-printf", "%T@ %P\\n"],
    stdout: "piped",
  }).outputSync();
  return new TextDecoder().decode(out.stdout).trim().split("\n").filter((l) => l)
    .map((l) => [Number(l.slice(0, l.indexOf(" "))), l.slice(l.indexOf(" ") + 1)] as const)
    .sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : 1)).map((x) => x[1]);
}

Deno.test("matchingLogs: the readable logs a glob matches, newest first (find -path and %T@ agree)", async () => {
  const dir = makeTree();
  try {
    const src = localSource(openRoots([dir], "/"));
    // find's -path `*` crosses `/`, so `*app*.log*` there is `**/app*.log*` here.
    const want = findNewest(dir, "*app*.log*");
    assert.deepEqual(want, ["app.log", "app.log.1", "app.log.2.gz"]);
    const got = await matchingLogs(src, "**/app*.log*", 10);
    assert.deepEqual(got.map((f) => f.file), want);
    assert.deepEqual(got.map((f) => [f.compression, f.readable, f.modified_ms]), [
      [null, true, (T0 + 30) * 1000],
      [null, true, (T0 + 20) * 1000],
      ["gzip", true, (T0 + 10) * 1000],
    ]);
    // Every .log file, folders included, newest first; the xz one is matched but not read, and said so.
    const all = await matchingLogList(src, "**/*.log*", 10);
    const readable = findNewest(dir, "*.log*").filter((n) => !n.endsWith(".xz"));
    assert.deepEqual(all.files.map((f) => f.file), readable);
    assert.equal(all.files[0].file, "nginx/access.log");
    assert.deepEqual([all.complete, all.not_listed, all.next], [false, 1, null]);
    assert.match(
      all.unreadable[0],
      /^old\.log\.xz: unsupported_format: xz-compressed; run `xz -dc '.*old\.log\.xz'`/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("matchingLogs: none, too many, malformed: explained errors", async () => {
  const dir = makeTree();
  try {
    const src = localSource(openRoots([dir], "/"));
    const fails = async (glob: string, max: number) => {
      try {
        await matchingLogs(src, glob, max);
      } catch (e) {
        assert.ok(e instanceof ToolError, String(e));
        return `${e.kind}: ${e.message}`;
      }
      assert.fail(`${glob} did not fail`);
    };
    const none = await fails("ngnix/*.log", 10);
    assert.match(
      none,
      /^not_found: no readable log matches the glob 'ngnix\/\*\.log'\. The closest log names: nginx\/error\.log, nginx\/access\.log, /,
    );
    // Only a log the tools refuse matches: not found, and why it is not read.
    assert.match(
      await fails("old*", 10),
      /^not_found: no readable log matches the glob 'old\*' \(not read, though matching or maybe holding a match: old\.log\.xz: unsupported_format: xz-compressed/,
    );
    // Three match, two are allowed.
    assert.match(
      await fails("app.log*", 2),
      /^budget_exceeded: more than 2 readable logs match the glob 'app\.log\*' \(at least 3\); one call reads at most 2/,
    );
    assert.equal((await matchingLogs(src, "app.log*", 3)).length, 3);
    assert.match(
      await fails("app[.log", 10),
      /^invalid_pattern: the glob 'app\[\.log' is malformed: the \[ at character 4 is never closed by \]$/,
    );
    await assert.rejects(() => matchingLogs(src, "*", 0), RangeError);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("closestNames: fewest edits first, wildcards free, base names count for a glob without /", () => {
  const names = ["nginx/access.log", "nginx/error.log", "app.log", "syslog", "kern.log", "auth.log"];
  assert.deepEqual(closestNames("acess.log", names, 2), ["nginx/access.log", "app.log"]);
  assert.deepEqual(closestNames("sylog", names, 1), ["syslog"]);
  assert.deepEqual(closestNames("ngnix/*", names, 2), ["nginx/error.log", "nginx/access.log"]);
  assert.deepEqual(closestNames("x", [], 5), []);
});
