/**
 * Issue #10 item 4: listing and reading agree on names (`../shared/cases/21-windows-style-names-listed-not-readable`).
 * Every name `log_files` lists is taken as it is by every reading tool, or is not listed and reported;
 * an absolute path inside a root and a `..` that stays inside are taken; a refusal says truthfully why;
 * symlinks that lead out of the roots are reported, not dropped in silence. Through the real client.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "./fixtures.ts";
import { connect, textFor } from "./mcp_client.ts";
import { sharedDir } from "./shared_dir.ts";
import { caseLogs } from "./case_logs.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const shared = sharedDir("case 21 (Windows-style names)");

type Line = { line_no: number | null; level: string; text: string };

Deno.test({
  name: "case 21: Windows-style names are listed, then read by every tool, as CASE.md says",
  ...opts,
  ignore: shared === null,
  async fn() {
    // The case's logs are not stored (Windows cannot check out such names): its make.sh is run in a copy.
    const logs = caseLogs(shared!, "21-windows-style-names-listed-not-readable");
    await using s = await connect([logs]);

    // 1. log_files: the three, sorted by segment in code-unit order, with their sizes; complete.
    const list = (await s.call("log_files")).structuredContent;
    assert.deepEqual(list.files.map((f: { file: string; size_bytes: number }) => [f.file, f.size_bytes]), [
      ["C:\\logs\\app.log", 80],
      ["D:/logs/app.log", 82],
      ["plain.log", 35],
    ]);
    assert.deepEqual([list.complete, list.unreadable, list.not_listed], [true, [], 0]);

    // 2. log_tail on each name as listed: its one line, line_no 1, ERROR / WARN / INFO.
    const want: [string, string, string][] = [
      [
        "C:\\logs\\app.log",
        "ERROR",
        "2024-05-01 10:00:00 ERROR written through a Windows-style path with backslashes",
      ],
      [
        "D:/logs/app.log",
        "WARN",
        "2024-05-01 10:00:01 WARN written through a Windows-style path with a drive folder",
      ],
      ["plain.log", "INFO", "2024-05-01 10:00:02 INFO plain log"],
    ];
    for (const [file, level, text] of want) {
      const t = await s.call("log_tail", { file, lines: 5 });
      assert.equal(t.isError, undefined, `${file}: ${t.content[0].text}`);
      assert.equal(t.structuredContent.file, file);
      assert.deepEqual(t.structuredContent.lines.map((l: Line) => [l.line_no, l.level, l.text]), [[
        1,
        level,
        text,
      ]]);
      // The other reading tools take the same name.
      const found = await s.call("log_search", { file, text: "2024-05-01" });
      assert.deepEqual(found.structuredContent.matches.map((l: Line) => l.text), [text]);
      const lv = await s.call("log_levels", { file });
      assert.deepEqual([lv.structuredContent.counts[level], lv.structuredContent.total_lines], [1, 1]);
    }
  },
});

/** Code points a Linux file name may hold, weighted toward the ones path code mistakes for syntax. */
const POOL = [..."\\:.~$%*?[]{}'\" -_#@!&;|<>=+,^`()aZ9é日\u00a0\t\r\n\u2028\uFFFD😀"];

function randomName(rand: () => number): string {
  while (true) {
    const n = 1 + Math.floor(rand() * 8);
    let name = "";
    for (let i = 0; i < n; i++) name += POOL[Math.floor(rand() * POOL.length)];
    if (name !== "." && name !== "..") return name;
  }
}

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test({
  name:
    "names: every one of 300 random names (backslashes, colons, dots, controls) is listed and read as listed",
  ...opts,
  async fn() {
    const seed = 20261130;
    const rand = mulberry32(seed);
    const dir = tempDir("logpeek-names-");
    const written = new Map<string, string>(); // name as it should be listed → its one line
    for (let i = 0; i < 300; i++) {
      const depth = Math.floor(rand() * 3);
      const parts = Array.from({ length: depth + 1 }, () => randomName(rand));
      const rel = parts.join("/");
      try {
        Deno.mkdirSync(join(dir, ...parts.slice(0, -1)), { recursive: true });
        if (Deno.statSync(join(dir, ...parts.slice(0, -1))).isDirectory && !written.has(rel)) {
          const line = `2024-05-01 10:00:00 ERROR name number ${i}`;
          Deno.writeTextFileSync(join(dir, ...parts), line + "\n");
          written.set(rel, line);
        }
      } catch {
        // a name taken by a folder, or a folder by a file: another draw
      }
    }
    // Written files that are still files (a later folder of the same name would have failed above).
    const expected = [...written.keys()].filter((rel) => {
      try {
        return Deno.lstatSync(join(dir, rel)).isFile;
      } catch {
        return false;
      }
    });
    // The independent list: find(1), relative to the root, files only.
    const found = new TextDecoder().decode(
      new Deno.Command("find", { args: [".", "-type", "f", "-print0"], cwd: dir, stdout: "piped" })
        .outputSync().stdout,
    ).split("\0").filter((p) => p !== "").map((p) => p.slice(2));
    assert.deepEqual([...found].sort(), [...expected].sort(), "find agrees with what was written");
    assert.ok(expected.length > 200, `${expected.length} files`);

    // (A long listing spills to an artifact: raised so all of it comes back inline.)
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "10000000" });
    const list = (await s.call("log_files")).structuredContent;
    const names: string[] = list.files.map((f: { file: string }) => f.file);
    assert.deepEqual([...names].sort(), [...expected].sort(), `seed ${seed}: every file listed`);
    assert.deepEqual([list.complete, list.not_listed], [true, 0]);
    const wrong: string[] = [];
    for (const file of names) {
      const r = await s.call("log_tail", { file, lines: 1 });
      if (r.isError || r.structuredContent.lines[0]?.text !== written.get(file)) {
        wrong.push(`${JSON.stringify(file)}: ${r.content[0].text.slice(0, 200)}`);
      }
    }
    assert.deepEqual(wrong, [], `seed ${seed}`);
  },
});

Deno.test({
  name:
    "names: an absolute path inside a root and a '..' that stays inside are read; one that leaves says so",
  ...opts,
  async fn() {
    const base = tempDir("logpeek-abs-");
    const root = `${base}/log`;
    Deno.mkdirSync(`${root}/apt`, { recursive: true });
    Deno.mkdirSync(`${base}/log-old`);
    Deno.writeTextFileSync(`${root}/dpkg.log`, "2024-05-01 10:00:00 INFO dpkg line\n");
    Deno.writeTextFileSync(`${root}/apt/history.log`, "2024-05-01 10:00:00 WARN apt line\n");
    Deno.writeTextFileSync(`${base}/log-old/secret.log`, "CANARY-old\n");
    Deno.symlinkSync("log", `${base}/log-link`);
    await using s = await connect([root], {}, [base]);
    const real = Deno.realPathSync(root);
    for (
      const [file, name, text] of [
        [`${root}/dpkg.log`, "dpkg.log", "2024-05-01 10:00:00 INFO dpkg line"],
        [`${real}/apt/history.log`, "apt/history.log", "2024-05-01 10:00:00 WARN apt line"],
        ["apt/../dpkg.log", "dpkg.log", "2024-05-01 10:00:00 INFO dpkg line"],
        ["./apt/./history.log", "apt/history.log", "2024-05-01 10:00:00 WARN apt line"],
        [`${root}/apt/../dpkg.log`, "dpkg.log", "2024-05-01 10:00:00 INFO dpkg line"],
      ]
    ) {
      for (const tool of ["log_tail", "log_search", "log_levels"]) {
        const r = await s.call(tool, { file, ...textFor(tool, "line") });
        assert.equal(r.isError, undefined, `${tool} ${file}: ${r.content[0].text}`);
        assert.equal(r.structuredContent.file, name, `${tool} ${file}`);
        if (tool === "log_tail") assert.equal(r.structuredContent.lines[0].text, text);
      }
    }
    const refused: [string, RegExp][] = [
      ["../log-old/secret.log", /^outside_roots: '\.\.' is refused where it climbs above the log root: /],
      [
        "apt/../../log-old/secret.log",
        /^outside_roots: '\.\.' is refused where it climbs above the log root: /,
      ],
      [
        `${base}/log-old/secret.log`,
        /^outside_roots: absolute paths are refused outside the log roots: .* is not inside one/,
      ],
      [`${root}/../log-old/secret.log`, /^outside_roots: absolute paths are refused outside the log roots/],
      ["/etc/passwd", /^outside_roots: absolute paths are refused outside the log roots/],
      [`${base}/log-link/dpkg.log`, /^outside_roots: absolute paths are refused outside the log roots/],
      [root, /^not_a_file: .* is a log root, a folder/],
    ];
    for (const [file, want] of refused) {
      const r = await s.call("log_tail", { file });
      assert.match(r.content[0].text, want, file);
      assert.doesNotMatch(JSON.stringify(r), /CANARY/);
    }
  },
});

Deno.test({
  name:
    "names: log_files reports symlinks that lead out of the roots (complete: false), never drops them silently",
  ...opts,
  async fn() {
    const base = tempDir("logpeek-links-out-");
    const root = `${base}/logs`;
    Deno.mkdirSync(`${root}/sub`, { recursive: true });
    Deno.mkdirSync(`${base}/outside`);
    Deno.writeTextFileSync(`${root}/app.log`, "2024-05-01 10:00:00 INFO app\n");
    Deno.writeTextFileSync(`${base}/outside/secret.log`, "CANARY-out\n");
    Deno.symlinkSync("app.log", `${root}/current.log`); // inside: listed
    Deno.symlinkSync("../outside/secret.log", `${root}/leak.log`);
    Deno.symlinkSync("../outside", `${root}/archive`);
    Deno.symlinkSync("../../outside/missing.log", `${root}/sub/gone.log`); // dangling, pointing out
    Deno.symlinkSync("nothing-here.log", `${root}/dangling-inside.log`); // dangling, inside: not a log
    for (let i = 0; i < 25; i++) {
      Deno.symlinkSync("/etc/hostname", `${root}/sub/out-${String(i).padStart(2, "0")}`);
    }
    // The independent count: find(1)'s symlinks whose target, resolved, is not under the root.
    const links = new TextDecoder().decode(
      new Deno.Command("sh", {
        args: [
          "-c",
          `cd "${root}" && for l in $(find . -type l); do t=$(realpath -m "$l"); case "$t" in "$(realpath .)"/*) ;; *) echo "$l";; esac; done`,
        ],
        stdout: "piped",
      }).outputSync().stdout,
    ).trim().split("\n");
    assert.equal(links.length, 28);

    await using s = await connect([root], {}, [base]);
    const list = (await s.call("log_files")).structuredContent;
    assert.deepEqual(list.files.map((f: { file: string }) => f.file), ["app.log", "current.log"]);
    assert.equal(list.complete, false);
    assert.equal(list.not_listed, links.length);
    assert.equal(list.unreadable.length, 20);
    const why = "a symlink that leads outside the log roots: refused, its target is not read";
    assert.deepEqual(list.unreadable.slice(0, 3), [
      `archive: ${why}`,
      `leak.log: ${why}`,
      `sub/gone.log: ${why}`,
    ]);
    assert.doesNotMatch(JSON.stringify(list), /CANARY|outside\/|hostname/);
    const text = (await s.call("log_files")).content[0].text;
    assert.match(
      text,
      /^2 log file\(s\) listed; the list is NOT complete: 28 entries not listed; not listed: archive: a symlink .*\(and 8 more\)\./,
    );
    // And what is listed is read; what is refused there is refused by the tools too.
    assert.equal((await s.call("log_tail", { file: "current.log" })).isError, undefined);
    assert.match((await s.call("log_tail", { file: "leak.log" })).content[0].text, /^outside_roots: /);
  },
});
