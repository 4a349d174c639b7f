/**
 * Issue #8 (found by a user trial): a state directory that another user owns, or that holds a symlink, is
 * not used — otherwise a planted artifact pointing at `/etc/shadow` came back through `read_artifact`.
 */
import assert from "node:assert/strict";
import { connect, MAIN } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const IS_ROOT = Deno.uid() === 0;
const ID = "a000000000000000000000000";

function plant(state: string, target: string): void {
  Deno.mkdirSync(`${state}/artifacts`, { recursive: true });
  Deno.writeTextFileSync(
    `${state}/artifacts/${ID}.json`,
    JSON.stringify({ tool: "log_tail", total_lines: 3, created_ms: Date.now() }),
  );
  Deno.symlinkSync(target, `${state}/artifacts/${ID}.txt`);
}

Deno.test({
  name: "a state directory owned by another user is not used: a planted artifact is never read",
  ignore: !IS_ROOT,
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-stateown-");
    Deno.chmodSync(dir, 0o755);
    Deno.mkdirSync(`${dir}/logs`);
    Deno.writeTextFileSync(`${dir}/logs/app.log`, "2024-05-01 10:00:00 INFO inside\n");
    Deno.writeTextFileSync(`${dir}/secret.txt`, "CANARY-state-outside line 1\nline 2\nline 3\n", {
      mode: 0o600,
    });
    const state = `${dir}/state`;
    plant(state, `${dir}/secret.txt`);
    for (const d of [state, `${state}/artifacts`]) Deno.chownSync(d, 65534, 65534);
    await using s = await connect([`${dir}/logs`], {}, [], { stateDir: state });
    const r = await s.call("read_artifact", { artifact_id: ID, limit: 3 });
    assert.doesNotMatch(JSON.stringify(r), /CANARY/);
    assert.equal(r.isError, true);
    assert.match(s.stderr(), /is owned by user 65534, not by logpeek's user 0/);
    // The server still serves the logs.
    assert.equal((await s.call("log_tail", { file: "app.log" })).isError, undefined);
  },
});

Deno.test({
  name: "a state directory whose artifacts folder is a symlink is not used",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-statelink-");
    Deno.mkdirSync(`${dir}/logs`);
    Deno.writeTextFileSync(`${dir}/logs/app.log`, "2024-05-01 10:00:00 INFO inside\n");
    Deno.writeTextFileSync(`${dir}/secret.txt`, "CANARY-state-link line 1\nline 2\nline 3\n");
    plant(`${dir}/elsewhere`, `${dir}/secret.txt`);
    Deno.mkdirSync(`${dir}/state`);
    Deno.symlinkSync(`${dir}/elsewhere/artifacts`, `${dir}/state/artifacts`);
    await using s = await connect([`${dir}/logs`], {}, [`${dir}/elsewhere`, `${dir}/secret.txt`], {
      stateDir: `${dir}/state`,
    });
    const r = await s.call("read_artifact", { artifact_id: ID, limit: 3 });
    assert.doesNotMatch(JSON.stringify(r), /CANARY/);
    assert.match(s.stderr(), /artifacts is a symlink/);
    assert.equal(
      Deno.statSync(`${dir}/elsewhere/artifacts`).mode! & 0o777,
      0o755,
      "nothing was chmodded through it",
    );
  },
});

Deno.test({
  name:
    "a state directory inside another user's folder is not used where that folder can be seen (worker mode)",
  ignore: !IS_ROOT,
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-stateabove-");
    Deno.chmodSync(dir, 0o755);
    Deno.mkdirSync(`${dir}/logs`);
    Deno.writeTextFileSync(
      `${dir}/logs/app.log`,
      `2024-05-01 10:00:00 INFO inside ${"x".repeat(100)}\n`.repeat(300),
    );
    Deno.mkdirSync(`${dir}/nob`);
    Deno.chownSync(`${dir}/nob`, 65534, 65534);
    // The server may read everything (worker mode): it sees that nobody could swap 'state' after start.
    await using s = await connect([`${dir}/logs`], {}, [], { stateDir: `${dir}/nob/state`, broadRead: true });
    assert.match(
      s.stderr(),
      /the state directory .*nob\/state cannot be used \(the folder .*nob is owned by user 65534/,
    );
    const r = await s.call("log_tail", { file: "app.log", lines: 200 });
    assert.equal(r.isError, undefined, JSON.stringify(r).slice(0, 300));
    assert.match(
      r.content[0].text,
      /cut|no state directory|cannot be used/i,
      "the answer says it was cut, not saved",
    );
    assert.equal(
      r.structuredContent.artifact_id ?? null,
      null,
      "nothing is spilled into a folder another user controls",
    );
    assert.deepEqual([...Deno.readDirSync(`${dir}/nob/state/artifacts`)], []);
  },
});

Deno.test({
  name: "logpeek config refuses a state directory inside another user's folder",
  ignore: !IS_ROOT,
  async fn() {
    const dir = tempDir("logpeek-configstate-");
    Deno.chmodSync(dir, 0o755);
    Deno.mkdirSync(`${dir}/logs`);
    Deno.mkdirSync(`${dir}/nob`);
    Deno.chownSync(`${dir}/nob`, 65534, 65534);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--allow-read", "--allow-env", "--allow-sys=uid", MAIN, "config"].concat(
        ["--client", "cursor", "--state-dir", `${dir}/nob/state`, `${dir}/logs`],
      ),
      env: { NO_COLOR: "1" },
    }).output();
    const err = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, err);
    assert.match(err, /state directory .*nob\/state: the folder .*nob is owned by user 65534/);
    assert.equal(out.stdout.length, 0);
  },
});
