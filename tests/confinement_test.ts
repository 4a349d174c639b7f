/**
 * Confinement by real path, end to end: siblings sharing the root's prefix, symlinks that lead out,
 * dangling links, FIFOs, and a root reached through a symlink.
 */
import assert from "node:assert/strict";
import { tempDir } from "./fixtures.ts";
import { connect, textFor } from "./mcp_client.ts";

const base = tempDir("logpeek-confine-");
const root = `${base}/logs`;
Deno.mkdirSync(root);
Deno.mkdirSync(`${base}/logs-old`);
Deno.mkdirSync(`${base}/private`);
Deno.writeTextFileSync(`${root}/app.log`, "2024-05-01 10:00:00 INFO app started\n");
Deno.writeTextFileSync(`${base}/logs-old/secret.log`, "CANARY-sibling\n");
Deno.writeTextFileSync(`${base}/private/secret.txt`, "CANARY-outside\n");
Deno.symlinkSync("app.log", `${root}/current.log`);
Deno.symlinkSync("../private/secret.txt", `${root}/leak.log`);
Deno.symlinkSync("../private", `${root}/archive`);
Deno.symlinkSync("../logs-old", `${root}/old`);
Deno.symlinkSync("../private/missing.txt", `${root}/dangling.log`);
Deno.symlinkSync("leak.log", `${root}/chain.log`);
Deno.symlinkSync(".", `${root}/loop`);
new Deno.Command("mkfifo", { args: [`${root}/pipe.log`] }).outputSync();
Deno.symlinkSync("logs", `${base}/logs-link`);

const opts = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "e2e: links out, siblings, dangling links and FIFOs are refused; links inside work",
  ...opts,
  async fn() {
    // Read permission as wide as the base folder: only logpeek's own real-path check stands between.
    await using s = await connect([root], {}, [base]);
    for (
      const file of [
        "leak.log",
        "chain.log",
        "archive/secret.txt",
        "old/secret.log",
        "../logs-old/secret.log",
      ]
    ) {
      for (const tool of ["log_tail", "log_search", "log_levels"]) {
        const r = await s.call(tool, { file, ...textFor(tool, "CANARY") });
        assert.equal(r.isError, true, `${tool} ${file}`);
        assert.match(r.content[0].text, /^outside_roots:/, `${tool} ${file}`);
        assert.doesNotMatch(JSON.stringify(r), /CANARY/);
      }
    }
    const dangling = await s.call("log_tail", { file: "dangling.log" });
    assert.match(dangling.content[0].text, /^not_found:/);
    const fifo = await s.call("log_tail", { file: "pipe.log" });
    assert.match(fifo.content[0].text, /^not_a_file: pipe.log is not a regular file/);
    const inside = await s.call("log_tail", { file: "current.log" });
    assert.deepEqual(inside.structuredContent.lines.map((l: { text: string }) => l.text), [
      "2024-05-01 10:00:00 INFO app started",
    ]);
    const looped = await s.call("log_tail", { file: "loop/loop/app.log" });
    assert.equal(looped.isError, undefined);
    const list = await s.call("log_files");
    assert.deepEqual(list.structuredContent.files.map((f: { file: string }) => f.file), [
      "app.log",
      "current.log",
    ]);
  },
});

Deno.test({
  name: "e2e: a root given through a symlink serves its logs and still refuses links out",
  ...opts,
  async fn() {
    await using s = await connect([`${base}/logs-link`], {}, [root]);
    const r = await s.call("log_tail", { file: "app.log", lines: 1 });
    assert.equal(r.structuredContent.lines[0].line_no, 1);
    const leak = await s.call("log_tail", { file: "leak.log" });
    assert.match(leak.content[0].text, /^outside_roots:/);
  },
});

Deno.test({
  name: "e2e: several roots, one of them a single file: log_files names carry the labels the tools take",
  ...opts,
  async fn() {
    await using s = await connect([root, `${base}/logs-old/secret.log`]);
    const files = (await s.call("log_files")).structuredContent.files.map((f: { file: string }) => f.file);
    assert.deepEqual(files, ["logs/app.log", "logs/current.log", "secret.log"]);
    const t = await s.call("log_tail", { file: "secret.log" });
    assert.deepEqual(t.structuredContent.lines.map((l: { text: string }) => l.text), ["CANARY-sibling"]);
    const a = await s.call("log_levels", { file: "logs/app.log" });
    assert.equal(a.structuredContent.counts.INFO, 1);
  },
});

Deno.test({
  name: "e2e: loops of symlinks, names that are not UTF-8 or hold newlines, a trailing slash: clear answers",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-odd-");
    Deno.symlinkSync("loop2", `${dir}/loop1`);
    Deno.symlinkSync("loop1", `${dir}/loop2`);
    Deno.writeTextFileSync(`${dir}/app.log`, "2024-05-01 10:00:00 INFO ok\n");
    Deno.writeTextFileSync(`${dir}/new\nline.log`, "2024-05-01 10:00:00 INFO odd name\n");
    new Deno.Command("python3", {
      args: [
        "-c",
        "import sys; open(sys.argv[1].encode() + b'/bad\\xffname.log', 'wb').write(b'INFO x\\n')",
        dir,
      ],
    }).outputSync();
    await using s = await connect([dir]);
    const loop = await s.call("log_tail", { file: "loop1" });
    assert.match(loop.content[0].text, /^invalid_path: loop1 is a loop of symlinks/);
    const slash = await s.call("log_tail", { file: "app.log/" });
    assert.match(slash.content[0].text, /^not_a_file: 'app\.log\/' ends with '\/'/);
    const list = await s.call("log_files");
    assert.equal(list.structuredContent.complete, false);
    assert.match(list.structuredContent.unreadable.join(), /the name is not valid UTF-8/);
    assert.ok(list.structuredContent.files.some((f: { file: string }) => f.file === "new\nline.log"));
    assert.match(list.content[0].text, /new\\nline\.log/);
    const odd = await s.call("log_tail", { file: "new\nline.log" });
    assert.match(odd.content[0].text, /^new\\nline\.log: last 1 line/);
    assert.equal(odd.structuredContent.file, "new\nline.log");
    const fffd = await s.call("log_search", { file: "app.log", text: "bad \uFFFD" });
    assert.match(fffd.content[0].text, /U\+FFFD, which stands for bytes that are not valid UTF-8/);
  },
});
