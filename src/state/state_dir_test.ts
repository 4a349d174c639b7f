import assert from "node:assert/strict";
import { CURSOR_KEY_BYTES, cursorKey } from "./state_dir.ts";

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
