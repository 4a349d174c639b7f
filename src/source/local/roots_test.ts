import assert from "node:assert/strict";
import { insideRoots, openRoots, resolveLog, RootError } from "./roots.ts";
import { ToolError } from "../../core/errors.ts";

const base = Deno.makeTempDirSync({ prefix: "logpeek-roots-" });
Deno.mkdirSync(`${base}/a/logs`, { recursive: true });
Deno.mkdirSync(`${base}/b/logs`, { recursive: true });
Deno.writeTextFileSync(`${base}/a/logs/x.log`, "x\n");
Deno.writeTextFileSync(`${base}/b/logs/y.log`, "y\n");
Deno.writeTextFileSync(`${base}/single.log`, "s\n");
globalThis.addEventListener("unload", () => Deno.removeSync(base, { recursive: true }));

Deno.test("one root directory: names are relative to it", () => {
  const roots = openRoots([`${base}/a/logs`], "/");
  assert.equal(roots[0].label, "");
  assert.equal(resolveLog(roots, "x.log").file, "x.log");
  assert.equal(resolveLog(roots, "./x.log").file, "x.log");
  assert.equal(resolveLog(roots, "x.log").real, Deno.realPathSync(`${base}/a/logs/x.log`));
});

Deno.test("several roots: names carry each root's label, made unique; a file root is its own name", () => {
  const roots = openRoots([`${base}/a/logs`, `${base}/b/logs`, `${base}/single.log`], "/");
  assert.deepEqual(roots.map((r) => r.label), ["logs", "logs-2", "single.log"]);
  assert.equal(resolveLog(roots, "logs/x.log").path, `${base}/a/logs/x.log`);
  assert.equal(resolveLog(roots, "logs-2/y.log").path, `${base}/b/logs/y.log`);
  assert.equal(resolveLog(roots, "single.log").path, `${base}/single.log`);
  assert.throws(() => resolveLog(roots, "nope/x.log"), (e: ToolError) => e.kind === "not_found");
  assert.throws(() => resolveLog(roots, "single.log/x"), (e: ToolError) => e.kind === "not_found");
  assert.throws(() => resolveLog(roots, "logs/y.log"), (e: ToolError) => e.kind === "not_found");
});

Deno.test("insideRoots compares whole path segments: a sibling with the same prefix is outside", () => {
  const roots = [{
    label: "",
    path: "/logs",
    real: "/logs",
    kind: "dir" as const,
    trust: { uids: [0], gids: [0] },
  }];
  assert.equal(insideRoots(roots, "/logs/app.log"), true);
  assert.equal(insideRoots(roots, "/logs"), true);
  assert.equal(insideRoots(roots, "/logs-old/app.log"), false);
  assert.equal(insideRoots(roots, "/log"), false);
  assert.equal(
    insideRoots(
      [{ label: "", path: "/", real: "/", kind: "dir", trust: { uids: [0], gids: [0] } }],
      "/etc/passwd",
    ),
    true,
  );
  assert.equal(
    insideRoots([{
      label: "f",
      path: "/a.log",
      real: "/a.log",
      kind: "file",
      trust: { uids: [0], gids: [0] },
    }], "/a.log/x"),
    false,
  );
});

Deno.test("openRoots refuses a missing root and a root that is neither a folder nor a file", () => {
  assert.throws(() => openRoots([`${base}/missing`], "/"), RootError);
  assert.throws(() => openRoots(["/dev/null"], "/"), /neither a directory nor a regular file/);
});

Deno.test("names as log_files lists them: a backslash, a colon, a drive letter are ordinary characters", () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-names-", dir: base });
  Deno.mkdirSync(`${dir}/D:/logs`, { recursive: true });
  Deno.writeTextFileSync(`${dir}/C:\\logs\\app.log`, "c\n");
  Deno.writeTextFileSync(`${dir}/D:/logs/app.log`, "d\n");
  const roots = openRoots([dir], "/");
  assert.equal(resolveLog(roots, "C:\\logs\\app.log").real, `${Deno.realPathSync(dir)}/C:\\logs\\app.log`);
  assert.equal(resolveLog(roots, "D:/logs/app.log").file, "D:/logs/app.log");
  assert.throws(() => resolveLog(roots, "C:/logs/app.log"), (e: ToolError) => e.kind === "not_found");
});

Deno.test("an absolute path inside a root, and a '..' that stays inside, name the listed log", () => {
  const one = openRoots([`${base}/a/logs`], "/");
  assert.equal(resolveLog(one, `${base}/a/logs/x.log`).file, "x.log");
  assert.equal(resolveLog(one, `${base}/a/logs/./sub/../x.log`).file, "x.log");
  assert.equal(resolveLog(one, `${Deno.realPathSync(base)}/a/logs/x.log`).file, "x.log");
  assert.equal(resolveLog(one, "sub/../x.log").file, "x.log"); // lexical: sub need not exist
  assert.equal(resolveLog(one, "./a/b/../../x.log").file, "x.log");
  const two = openRoots([`${base}/a/logs`, `${base}/b/logs`, `${base}/single.log`], "/");
  assert.equal(resolveLog(two, `${base}/b/logs/y.log`).file, "logs-2/y.log");
  assert.equal(resolveLog(two, `${base}/single.log`).file, "single.log");
  assert.equal(resolveLog(two, "logs/../logs-2/y.log").file, "logs-2/y.log");
  const refused = (roots: typeof one, file: string, kind: string, text: RegExp) =>
    assert.throws(() => resolveLog(roots, file), (e: ToolError) => e.kind === kind && text.test(e.message));
  refused(
    one,
    "../logs/x.log",
    "outside_roots",
    /^'\.\.' is refused where it climbs above the log root: '\.\.\/logs\/x\.log' leads outside the log roots;/,
  );
  refused(one, "sub/../../x.log", "outside_roots", /climbs above the log root:/);
  refused(two, "logs/../../x", "outside_roots", /climbs above the log roots' names:/);
  refused(
    one,
    `${base}/b/logs/y.log`,
    "outside_roots",
    /^absolute paths are refused outside the log roots: .* is not inside one/,
  );
  refused(
    one,
    `${base}/a/logs/../../b/logs/y.log`,
    "outside_roots",
    /^absolute paths are refused outside the log roots/,
  );
  refused(one, "/etc/passwd", "outside_roots", /^absolute paths are refused outside the log roots/);
  refused(one, `${base}/a/logs`, "not_a_file", /is a log root, a folder/);
  refused(
    one,
    `${base}/a/logs-old/x.log`,
    "outside_roots",
    /^absolute paths are refused outside the log roots/,
  );
});
