import assert from "node:assert/strict";
import { COUNT_STOPPED, countStopped, LINK_OUT, listLogs } from "./list_logs.ts";
import { openLog } from "./log_file.ts";
import { openRoots } from "./roots.ts";
import { ToolError } from "../core/errors.ts";

const IS_ROOT = Deno.uid() === 0;

Deno.test({
  name: "listLogs agrees with openLog: a link to a file in a folder another user could swap is not listed",
  ignore: !IS_ROOT,
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "logpeek-list-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    Deno.mkdirSync(`${dir}/shared/inner`, { recursive: true });
    Deno.chownSync(`${dir}/shared`, 65534, 65534); // nobody could swap 'inner'
    Deno.writeTextFileSync(`${dir}/shared/inner/app.log`, "x\n");
    Deno.writeTextFileSync(`${dir}/ok.log`, "x\n");
    Deno.symlinkSync("shared/inner/app.log", `${dir}/top.log`);
    Deno.symlinkSync("ok.log", `${dir}/alias.log`);
    const roots = openRoots([dir], "/", { uids: [0], gids: [0] });
    const list = listLogs(roots, { limit: 1000 });
    assert.deepEqual(list.files.map((f) => f.file), ["alias.log", "ok.log"]);
    assert.deepEqual([list.complete, list.not_listed], [false, 2]);
    assert.match(list.unreadable[0], /^shared\/inner: unsafe_path: /);
    assert.match(
      list.unreadable[1],
      /^top\.log: unsafe_path: top\.log is not read: the folder .*shared is owned by user 65534/,
    );
    await assert.rejects(() => openLog(roots, "top.log"), (e: ToolError) => e.kind === "unsafe_path");
    for (const f of list.files) (await openLog(roots, f.file)).close();
  },
});

Deno.test("listLogs: links out (dangling or not) are refused by name; a dangling link inside is no log", () => {
  const base = Deno.makeTempDirSync({ prefix: "logpeek-list2-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(base, { recursive: true }));
  Deno.mkdirSync(`${base}/logs`);
  Deno.writeTextFileSync(`${base}/secret`, "s\n");
  Deno.writeTextFileSync(`${base}/logs/a.log`, "2024-05-01 INFO a\n");
  Deno.writeFileSync(`${base}/logs/b.log.xz`, new Uint8Array([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0, 0, 4]));
  Deno.symlinkSync("../secret", `${base}/logs/out`);
  Deno.symlinkSync("../missing", `${base}/logs/out-dangling`);
  Deno.symlinkSync("missing", `${base}/logs/in-dangling`);
  const list = listLogs(openRoots([`${base}/logs`], "/"), { limit: 1000 });
  assert.deepEqual(list.files.map((f) => [f.file, f.format, f.unsupported]), [
    ["a.log", "text", null],
    [
      "b.log.xz",
      "xz",
      `xz-compressed; run \`xz -dc '${Deno.realPathSync(base)}/logs/b.log.xz'\` outside logpeek`,
    ],
  ]);
  assert.deepEqual(list.unreadable, [`out: ${LINK_OUT}`, `out-dangling: ${LINK_OUT}`]);
  assert.deepEqual([list.complete, list.not_listed], [false, 2]);
});

Deno.test("listLogs: past the cap every file is counted (find agrees); a count cut by its budget says it is a lower bound", () => {
  const base = Deno.makeTempDirSync({ prefix: "logpeek-list3-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(base, { recursive: true }));
  for (const d of ["a", "b"]) {
    Deno.mkdirSync(`${base}/${d}`);
    for (let i = 0; i < 7; i++) Deno.writeTextFileSync(`${base}/${d}/${i}.log`, "x\n");
  }
  const find = new Deno.Command("find", { args: [base, "-type", "f"], stdout: "piped" }).outputSync();
  const total = new TextDecoder().decode(find.stdout).trim().split("\n").length;
  assert.equal(total, 14);
  const roots = openRoots([base], "/");
  const list = listLogs(roots, { limit: 3 });
  assert.deepEqual([list.files.length, list.not_listed, list.complete, list.unreadable], [
    3,
    total - 3,
    false,
    [],
  ]);
  // A budget already spent: the walk stops at the first file past the cap, and says so.
  const cut = listLogs(roots, { limit: 3 }, -1);
  assert.deepEqual([cut.files.length, cut.not_listed, cut.complete], [3, 1, false]);
  assert.deepEqual(cut.unreadable, [countStopped(-1)]);
  assert.ok(cut.unreadable[0].startsWith(COUNT_STOPPED));
  assert.match(cut.unreadable[0], /not_listed is a lower bound/);
});
