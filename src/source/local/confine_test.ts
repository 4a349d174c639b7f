import assert from "node:assert/strict";
import {
  checkAncestors,
  checkFolderToBe,
  checkMiddleFolders,
  type Trust,
  untrustedWriter,
} from "./confine.ts";
import { ToolError } from "../../core/errors.ts";

const ME = 1000;
const trust: Trust = { uids: [0, ME], gids: [0] };

/** A FileInfo with the fields the rule reads (as `lstat` gives them on Linux). */
function info(uid: number, gid: number, mode: number): Deno.FileInfo {
  return { uid, gid, mode, isDirectory: true, isFile: false, isSymlink: false } as Deno.FileInfo;
}

Deno.test("untrustedWriter: owner, other-write, group-write and the sticky bit, as rename(2) allows", () => {
  const mine = info(ME, ME, 0o40755);
  assert.equal(untrustedWriter(info(0, 0, 0o40755), mine, trust), null, "root's 755 folder");
  assert.equal(untrustedWriter(info(ME, 100, 0o40755), mine, trust), null, "my own 755 folder");
  assert.equal(untrustedWriter(info(65534, 65534, 0o40755), mine, trust), "owned by user 65534");
  assert.equal(untrustedWriter(info(0, 0, 0o40777), mine, trust), "writable by every user");
  assert.equal(untrustedWriter(info(0, 4, 0o40775), mine, trust), "writable by group 4");
  assert.equal(untrustedWriter(info(0, 0, 0o40775), mine, trust), null, "root's group is trusted");
  assert.equal(untrustedWriter(info(0, 4, 0o40775), mine, { ...trust, gids: [0, 4] }), null, "--trust-gid 4");
  // /tmp: sticky, writable by all; an entry I own cannot be renamed by others, one they own can.
  assert.equal(untrustedWriter(info(0, 0, 0o41777), mine, trust), null);
  assert.equal(
    untrustedWriter(info(0, 0, 0o41777), info(65534, 65534, 0o40755), trust),
    "writable by every user (sticky, but that entry is owned by user 65534)",
  );
  assert.equal(untrustedWriter(info(0, 0, 0o41777), null, trust), "writable by every user");
  // No user ids (Windows): nothing to check.
  assert.equal(untrustedWriter({ ...info(0, 0, 0), uid: null, mode: null }, mine, trust), null);
});

Deno.test("checkMiddleFolders refuses a folder an untrusted user could swap, and names it and the fix", () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-confine-" });
  try {
    Deno.mkdirSync(`${dir}/sub/deeper`, { recursive: true });
    Deno.writeTextFileSync(`${dir}/sub/deeper/app.log`, "x\n");
    const uid = Deno.uid()!;
    const me: Trust = { uids: [0, uid], gids: [0] };
    const ids = checkMiddleFolders(dir, `${dir}/sub/deeper/app.log`, me, "sub/deeper/app.log");
    assert.deepEqual(ids.map((i) => i.path), [`${dir}/sub`, `${dir}/sub/deeper`]);
    // A log directly in the root has no middle folder: its root may be writable by anyone.
    Deno.chmodSync(dir, 0o777);
    assert.deepEqual(checkMiddleFolders(dir, `${dir}/top.log`, me, "top.log"), []);
    assert.throws(
      () => checkMiddleFolders(dir, `${dir}/sub/deeper/app.log`, me, "sub/deeper/app.log"),
      (e) =>
        e instanceof ToolError && e.kind === "unsafe_path" &&
        e.message.includes(`the folder ${dir} is writable by every user, who could swap 'sub'`),
    );
    Deno.chmodSync(dir, 0o755);
    Deno.chmodSync(`${dir}/sub`, 0o770);
    const g = Deno.lstatSync(`${dir}/sub`).gid!;
    if (g !== 0) {
      assert.throws(
        () => checkMiddleFolders(dir, `${dir}/sub/deeper/app.log`, me, "sub/deeper/app.log"),
        (e) => e instanceof ToolError && e.message.includes(`--trust-gid ${g}`),
      );
    }
    Deno.chmodSync(`${dir}/sub`, 0o775);
    // A middle component that is a symlink was swapped in after the real path was taken.
    Deno.renameSync(`${dir}/sub`, `${dir}/sub_real`);
    Deno.symlinkSync(`${dir}/sub_real`, `${dir}/sub`);
    assert.throws(
      () => checkMiddleFolders(dir, `${dir}/sub/deeper/app.log`, me, "sub/deeper/app.log"),
      (e) => e instanceof ToolError && e.kind === "outside_roots",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("checkAncestors: a root under a folder owned by another user is refused; /tmp's sticky bit counts", () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-anc-" });
  try {
    Deno.mkdirSync(`${dir}/a/logs`, { recursive: true });
    const me: Trust = { uids: [0, Deno.uid()!], gids: [0] };
    assert.equal(checkAncestors(`${dir}/a/logs`, me), null, "every folder from / down is safe");
    if (Deno.uid() === 0) {
      Deno.chownSync(`${dir}/a`, 65534, 65534);
      assert.throws(
        () => checkAncestors(`${dir}/a/logs`, me),
        (e) => e instanceof ToolError && e.message.includes(`the folder ${dir}/a is owned by user 65534`),
      );
    } else console.error("SKIP: the part of this test that gives a folder to another user needs root");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("checkFolderToBe: a state directory still to be made under a sticky folder is fine; under another user's folder it is not", () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-tobe-" });
  try {
    const me: Trust = { uids: [0, Deno.uid()!], gids: [0] };
    Deno.chmodSync(dir, 0o1777);
    assert.equal(
      checkFolderToBe(`${dir}/state/deeper`, me),
      null,
      "logpeek makes it: its own, in a sticky folder",
    );
    Deno.chmodSync(dir, 0o777);
    assert.throws(
      () => checkFolderToBe(`${dir}/state`, me),
      (e) => e instanceof ToolError && e.message.includes(`the folder ${dir} is writable by every user`),
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
