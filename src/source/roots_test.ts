import assert from "node:assert/strict";
import { insideRoots, openRoots, resolveLog, RootError } from "./roots.ts";
import { ToolError } from "../core/errors.ts";

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
