import assert from "node:assert/strict";
import {
  chooseStateDir,
  CURSOR_KEY_BYTES,
  cursorKey,
  namedStateDirProblem,
  prepareStateDir,
} from "./state_dir.ts";

function temp(): string {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-statedir-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  return dir;
}

Deno.test("cursorKey: made once, 32 bytes, 0600, and the same after a restart", () => {
  const dir = temp();
  const lines: string[] = [];
  const a = cursorKey(dir, (l) => lines.push(l));
  assert.equal(a.path, `${dir}/cursor.key`);
  assert.equal(a.key.length, CURSOR_KEY_BYTES);
  const st = Deno.statSync(`${dir}/cursor.key`);
  assert.equal(st.mode! & 0o777, 0o600);
  assert.deepEqual(Deno.readFileSync(`${dir}/cursor.key`), a.key);
  const b = cursorKey(dir, (l) => lines.push(l));
  assert.deepEqual(b.key, a.key);
  assert.equal(lines.length, 0);
  // No temporary files are left behind.
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["cursor.key"]);
  // Without a state directory: a key for this process, different each time.
  const c = cursorKey(null, (l) => lines.push(l));
  assert.equal(c.path, null);
  assert.equal(c.key.length, CURSOR_KEY_BYTES);
  assert.notDeepEqual(c.key, cursorKey(null, () => {}).key);
});

Deno.test("cursorKey: a key others may read, of the wrong size, or a symlink is replaced", () => {
  const dir = temp();
  const first = cursorKey(dir, () => {}).key;
  Deno.chmodSync(`${dir}/cursor.key`, 0o644);
  const second = cursorKey(dir, () => {}).key;
  assert.notDeepEqual(second, first);
  assert.equal(Deno.statSync(`${dir}/cursor.key`).mode! & 0o777, 0o600);
  Deno.writeFileSync(`${dir}/cursor.key`, new Uint8Array(5), { mode: 0o600 });
  const third = cursorKey(dir, () => {}).key;
  assert.equal(third.length, CURSOR_KEY_BYTES);
  assert.deepEqual(Deno.readFileSync(`${dir}/cursor.key`), third);
  Deno.writeFileSync(`${dir}/elsewhere`, crypto.getRandomValues(new Uint8Array(32)), { mode: 0o600 });
  Deno.removeSync(`${dir}/cursor.key`);
  Deno.symlinkSync(`${dir}/elsewhere`, `${dir}/cursor.key`);
  const fourth = cursorKey(dir, () => {}).key;
  assert.ok(Deno.lstatSync(`${dir}/cursor.key`).isFile);
  assert.notDeepEqual(fourth, Deno.readFileSync(`${dir}/elsewhere`));
});

Deno.test("cursorKey: a state directory where the key cannot be written gives a per-process key and says why", () => {
  // A file where the state directory should be: nothing can be written under it (even by root).
  const dir = `${temp()}/not-a-dir`;
  Deno.writeFileSync(dir, new Uint8Array(1));
  const lines: string[] = [];
  const k = cursorKey(dir, (l) => lines.push(l));
  assert.equal(k.path, null);
  assert.equal(k.key.length, CURSOR_KEY_BYTES);
  assert.equal(lines.length, 1);
  assert.match(lines[0], /cursor key cannot be kept in .*cursor\.key .*for this process only/);
});

Deno.test("chooseStateDir: the one true reason there is none", () => {
  const env = (vars: Record<string, string>) => (n: string) => vars[n];
  assert.throws(
    () => chooseStateDir(undefined, env({})),
    {
      name: "RangeError",
      message:
        "no state directory: HOME is not set (nor LOGPEEK_STATE_DIR, XDG_STATE_HOME): pass --state-dir /absolute/path",
    },
  );
  assert.throws(() => chooseStateDir(undefined, env({ HOME: "rel" })), {
    message: "no state directory: HOME (rel) is not an absolute path: pass --state-dir /absolute/path",
  });
});

Deno.test("namedStateDirProblem: a file, or a missing parent, is named; a folder or a new one in a folder is not", () => {
  const dir = temp();
  Deno.writeTextFileSync(`${dir}/f`, "x");
  assert.equal(
    namedStateDirProblem(`${dir}/f`),
    `the state directory ${dir}/f is a file, not a folder: pass --state-dir a folder`,
  );
  assert.equal(
    namedStateDirProblem(`${dir}/no/deep`),
    `the state directory ${dir}/no/deep cannot be made: its parent folder ${dir}/no does not exist ` +
      "(a mistyped path?); make it first, or pass --state-dir a folder that exists or whose parent does",
  );
  Deno.writeTextFileSync(`${dir}/file`, "x");
  for (const under of [`${dir}/file/sub`, `${dir}/file/sub/deeper`]) {
    assert.equal(
      namedStateDirProblem(under),
      `the state directory ${under} cannot be made: a part of its path is a file, not a folder; ` +
        "pass --state-dir a folder that exists or whose parent does",
    );
  }
  assert.equal(namedStateDirProblem(dir), null);
  assert.equal(namedStateDirProblem(`${dir}/new`), null);
});

Deno.test("prepareStateDir: parents made only when allowed; a file is said to be one", () => {
  const dir = temp();
  assert.throws(() => prepareStateDir(`${dir}/no/deep`, false), {
    message: `its parent folder ${dir}/no does not exist (a mistyped path?)`,
  });
  assert.throws(() => Deno.statSync(`${dir}/no`), Deno.errors.NotFound);
  prepareStateDir(`${dir}/yes/deep`);
  assert.ok(Deno.statSync(`${dir}/yes/deep/traces`).isDirectory);
  prepareStateDir(`${dir}/yes/deep`, false); // already there: fine
  Deno.writeTextFileSync(`${dir}/f`, "x");
  assert.throws(() => prepareStateDir(`${dir}/f`, false), { message: `${dir}/f is a file, not a folder` });
  assert.throws(() => prepareStateDir(`${dir}/f`), { message: `${dir}/f is a file, not a folder` });
});
