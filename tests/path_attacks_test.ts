/**
 * The path-attack corpus (issue #4): every vector is refused with a clear message, or stays inside the
 * roots. Read permission covers the whole test folder, so only logpeek's own checks stand between a
 * vector and the outside files (each holds a canary that must never come back).
 */
import assert from "node:assert/strict";
import { connect, textFor } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const base = tempDir("logpeek-attack-");
const root = `${base}/logs`;
for (const d of ["logs/sub", "logs-old", "outside/dir"]) Deno.mkdirSync(`${base}/${d}`, { recursive: true });
const INSIDE = "2024-05-01 10:00:00 INFO inside";
Deno.writeTextFileSync(`${root}/app.log`, INSIDE + "\n");
Deno.writeTextFileSync(`${root}/sub/nested.log`, INSIDE + "\n");
Deno.writeTextFileSync(`${root}/café.log`.normalize("NFC"), INSIDE + "\n");
Deno.writeTextFileSync(`${root}/%2e%2e`, INSIDE + "\n"); // a file literally named %2e%2e
Deno.writeTextFileSync(`${base}/logs-old/secret.log`, "CANARY-sibling\n");
Deno.writeTextFileSync(`${base}/outside/secret.log`, "CANARY-outside\n");
Deno.writeTextFileSync(`${base}/outside/dir/deep.log`, "CANARY-deep\n");
const link = (target: string, name: string) => Deno.symlinkSync(target, `${root}/${name}`);
link(`${base}/outside/secret.log`, "abs-out.log");
link("../outside/secret.log", "rel-out.log");
link("../outside", "out-dir");
link("../logs-old", "old");
link("rel-out.log", "chain1.log");
link("chain1.log", "chain2.log");
link("../outside/missing.log", "dangling.log");
link("loop-b", "loop-a");
link("loop-a", "loop-b");
link("/proc/self/root", "procroot");
link("/dev/zero", "zero.log");
link("/dev/null", "null.log");
link("app.log", "inside-link.log");
link("sub", "inside-dir");
link(".", "self");
new Deno.Command("mkfifo", { args: [`${root}/fifo.log`] }).outputSync();
Deno.symlinkSync("logs", `${base}/logs-link`);

const OUT = /^outside_roots: /;
const NOT_FOUND = /^not_found: /;
const INVALID = /^invalid_path: /;
const NOT_FILE = /^not_a_file: /;

/** [what, file, expected: a refusal pattern, or "inside" for the inside line]. */
const VECTORS: [string, string, RegExp | "inside"][] = [
  ["parent", "..", OUT],
  ["parent with slash", "../", NOT_FILE],
  ["parent then file", "../logs-old/secret.log", OUT],
  ["deep parent", "../../../../../../etc/passwd", OUT],
  ["parent in the middle", "sub/../../outside/secret.log", OUT],
  ["dot then parent", "./../outside/secret.log", OUT],
  ["parent that would stay inside", "sub/../app.log", "inside"],
  ["absolute", "/etc/passwd", OUT],
  ["absolute into the root", `${root}/app.log`, "inside"],
  ["double slash absolute", "//etc/passwd", OUT],
  ["/proc/self/root", "/proc/self/root/etc/passwd", OUT],
  ["windows drive", "C:/Windows/win.ini", NOT_FOUND],
  ["windows drive backslash", "C:\\Windows\\win.ini", NOT_FOUND],
  ["backslash parent", "..\\outside\\secret.log", NOT_FOUND],
  ["backslash separator", "sub\\nested.log", NOT_FOUND],
  ["NUL", "app.log\0.png", INVALID],
  ["NUL only", "\0", INVALID],
  ["empty", "", INVALID],
  ["dot", ".", INVALID],
  ["%2e%2e taken literally (a file of that name)", "%2e%2e", "inside"],
  ["%2e%2e/ taken literally", "%2e%2e/outside/secret.log", NOT_FOUND],
  ["%2e%2e%2f taken literally", "%2e%2e%2foutside%2fsecret.log", NOT_FOUND],
  ["%252e taken literally", "%252e%252e/etc/passwd", NOT_FOUND],
  ["unicode division slash", "..\u2215outside\u2215secret.log", NOT_FOUND],
  ["fullwidth dots", "\uff0e\uff0e/outside/secret.log", NOT_FOUND],
  ["prefix sibling through a link", "old/secret.log", OUT],
  ["absolute symlink out", "abs-out.log", OUT],
  ["relative symlink out", "rel-out.log", OUT],
  ["directory symlink out", "out-dir/secret.log", OUT],
  ["directory symlink out, deeper", "out-dir/dir/deep.log", OUT],
  ["chain of symlinks out", "chain2.log", OUT],
  ["dangling symlink", "dangling.log", NOT_FOUND],
  ["symlink loop", "loop-a", INVALID],
  ["symlink to /proc/self/root", "procroot/etc/passwd", OUT],
  ["symlink to a device", "zero.log", OUT],
  ["symlink to /dev/null", "null.log", OUT],
  ["a directory", "sub", NOT_FILE],
  ["a directory with a trailing slash", "sub/", NOT_FILE],
  ["a FIFO (never opened)", "fifo.log", NOT_FILE],
  ["a file with a trailing slash", "app.log/", NOT_FILE],
  ["a file used as a folder", "app.log/x", NOT_FOUND],
  ["a very long name", "a".repeat(300) + ".log", INVALID],
  ["a very long path", "a/".repeat(3000) + "x.log", INVALID],
  ["NFC name, as on disk", "café.log".normalize("NFC"), "inside"],
  ["NFD name, not on disk", "café.log".normalize("NFD"), NOT_FOUND],
  ["symlink that stays inside", "inside-link.log", "inside"],
  ["directory symlink that stays inside", "inside-dir/nested.log", "inside"],
  ["self loop directory that stays inside", "self/self/app.log", "inside"],
  ["doubled separators", "sub//nested.log", "inside"],
  ["tilde taken literally", "~/app.log", NOT_FOUND],
  ["variable taken literally", "$HOME/app.log", NOT_FOUND],
  ["leading space", " app.log", NOT_FOUND],
];

Deno.test({
  name: `path-attack corpus: ${VECTORS.length} vectors, each refused with a clear message or kept inside`,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assert.ok(VECTORS.length >= 40);
    await using s = await connect([root], {}, [base]);
    const wrong: string[] = [];
    for (const [what, file, want] of VECTORS) {
      for (const tool of ["log_tail", "log_search", "log_levels"]) {
        const r = await s.call(tool, { file, ...textFor(tool, "i") });
        const text = r.content[0].text;
        if (/CANARY/.test(JSON.stringify(r))) wrong.push(`${what} (${tool}): LEAKED ${text}`);
        else if (want === "inside") {
          if (r.isError || !JSON.stringify(r.structuredContent).includes("inside") && tool !== "log_levels") {
            wrong.push(`${what} (${tool}): expected the inside line, got ${text}`);
          }
        } else if (!r.isError || !want.test(text)) {
          wrong.push(`${what} (${tool}): expected ${want}, got ${text}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  },
});

Deno.test({
  name: "path-attack corpus: a root reached through a symlink still refuses every link out",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using s = await connect([`${base}/logs-link`], {}, [base]);
    for (
      const file of [
        "abs-out.log",
        "rel-out.log",
        "out-dir/secret.log",
        "chain2.log",
        "old/secret.log",
        "../outside/secret.log",
      ]
    ) {
      const r = await s.call("log_tail", { file });
      assert.match(r.content[0].text, OUT, file);
    }
    const ok = await s.call("log_tail", { file: "app.log" });
    assert.equal(ok.structuredContent.lines[0].text, INSIDE);
  },
});
