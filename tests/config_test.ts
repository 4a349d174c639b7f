/**
 * `logpeek config`: every client's entry, and an entry that, pasted as is, starts a working server.
 */
import assert from "node:assert/strict";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MAIN } from "./mcp_client.ts";
import { NEEDS_CLICKHOUSE, READER_PASSWORD, startClickHouse } from "./clickhouse_server.ts";
import { makeFixtures, tempDir } from "./fixtures.ts";

const dir = makeFixtures();
/** `realpath "$(which deno)"`, by the shell: the Deno these tests run on. */
const WHICH_DENO = new TextDecoder().decode(
  new Deno.Command("sh", { args: ["-c", 'realpath "$(which deno)"'] }).outputSync().stdout,
).trim();
const state = tempDir("logpeek-config-state-");

/** Deno's cache, named outright: without HOME, Deno would look for it elsewhere. */
const DENO_DIR: string = JSON.parse(
  new TextDecoder().decode(
    new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).outputSync().stdout,
  ),
).denoDir;

async function config(...args: string[]) {
  return await configIn({ NO_COLOR: "1" }, false, args);
}

/** `logpeek config ARGS` with the environment `env` (only it, when `clear`). */
async function configIn(env: Record<string, string>, clear: boolean, args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-read", "--allow-env", "--allow-sys=uid", MAIN, "config", ...args],
    env,
    clearEnv: clear,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test({
  name: "config: the Claude Desktop entry, pasted as is, starts a server that answers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const r = await config("--client", "claude-desktop", "--state-dir", state, dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /claude_desktop_config\.json/);
    const entry = JSON.parse(r.stdout).mcpServers.logpeek;
    // The absolute path of the Deno that ran config (a GUI client may lack the shell's PATH): the file
    // `deno` on PATH resolves to, as the shell says.
    assert.equal(entry.command, WHICH_DENO);
    assert.ok(entry.args.includes(`--allow-write=${state}`));
    assert.ok(entry.args.some((a: string) => a.startsWith(`--allow-read=${dir}`)));
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { NO_COLOR: "1", ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}) },
      stderr: "pipe",
    });
    const client = new Client({ name: "t", version: "0" });
    await client.connect(transport);
    try {
      // deno-lint-ignore no-explicit-any
      const t: any = await client.callTool({ name: "log_tail", arguments: { file: "crlf.log", lines: 1 } });
      assert.equal(t.structuredContent.lines[0].line_no, 3);
    } finally {
      await client.close();
    }
  },
});

Deno.test("config: VS Code, Cursor and Claude Code entries, for the binary and the bundle; bad use is exit 2", async () => {
  const vscode = JSON.parse(
    (await config("--client", "vscode", "--binary", "/opt/logpeek", "--state-dir", state, dir)).stdout,
  );
  assert.deepEqual(vscode.servers.logpeek, {
    type: "stdio",
    command: "/opt/logpeek",
    args: ["--state-dir", state, dir],
  });
  const cursor = JSON.parse(
    (await config("--client", "cursor", "--bundle", "/opt/logpeek.js", "--state-dir", state, dir)).stdout,
  );
  assert.equal(cursor.mcpServers.logpeek.command, WHICH_DENO);
  assert.ok(cursor.mcpServers.logpeek.args.includes("/opt/logpeek.js"));
  // The bundle's pattern worker runs the bundle: its folder is readable, not this checkout's src/read.
  const read = cursor.mcpServers.logpeek.args.find((a: string) => a.startsWith("--allow-read="));
  assert.deepEqual(read.split("=")[1].split(",").slice(-1), ["/opt"], read);
  const code = await config(
    "--client",
    "claude-code",
    "--binary",
    "/opt/log peek",
    "--state-dir",
    state,
    dir,
  );
  assert.equal(code.stdout, `claude mcp add logpeek -- '/opt/log peek' --state-dir ${state} ${dir}\n`);
  assert.equal((await config("--client", "emacs", dir)).code, 2);
  assert.equal((await config("--client", "cursor")).code, 2);
});

Deno.test({
  name:
    "config: a root under a folder another user could swap is refused; --trust-gid is checked and passed on",
  async fn() {
    const base = tempDir("logpeek-config-unsafe-");
    Deno.mkdirSync(`${base}/theirs/logs`, { recursive: true });
    Deno.chmodSync(`${base}/theirs`, 0o777);
    const r = await config("--client", "cursor", "--state-dir", state, `${base}/theirs/logs`);
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stderr,
      new RegExp(`the folder ${base}/theirs is writable by every user, who could swap 'logs'`),
    );
    assert.equal(r.stdout, "");
    const bad = await config("--client", "cursor", "--trust-gid", "x", dir);
    assert.equal(bad.code, 2);
    assert.equal(
      bad.stderr,
      "logpeek: --trust-gid needs a group id (a number from 0 to 4294967294), got x. See --help.\n",
    );
    const ok = await config("--client", "cursor", "--state-dir", state, "--trust-gid", "4", dir);
    assert.equal(ok.code, 0, ok.stderr);
    const args: string[] = JSON.parse(ok.stdout).mcpServers.logpeek.args;
    assert.deepEqual(args.slice(args.indexOf("--trust-gid"), args.indexOf("--trust-gid") + 2), [
      "--trust-gid",
      "4",
    ]);
  },
});

Deno.test("config: a client name that is not one gets a 'did you mean', exit 2", async () => {
  const r = await config("--client", "claude", dir);
  assert.deepEqual([r.code, r.stdout, r.stderr], [
    2,
    "",
    "logpeek: claude is not a client; did you mean claude-desktop / claude-code? config needs --client " +
    "claude-desktop|claude-code|vscode|cursor. See --help.\n",
  ]);
  const far = await config("--client", "emacs", dir);
  assert.equal(
    far.stderr,
    "logpeek: emacs is not a client; config needs --client claude-desktop|claude-code|vscode|cursor. See --help.\n",
  );
});

Deno.test("config: a root or state directory with a comma is refused, not split by Deno (exit 2)", async () => {
  const base = tempDir("logpeek-config-comma-");
  Deno.mkdirSync(`${base}/a,b`);
  const r = await config("--client", "claude-desktop", "--state-dir", state, `${base}/a,b`);
  assert.deepEqual([r.code, r.stdout, r.stderr], [
    2,
    "",
    `logpeek: ${base}/a,b has a comma, which a Deno permission list cannot hold (--allow-read splits at commas ` +
    "and has no escape): serve it by a path without a comma. See --help.\n",
  ]);
  const s = await config("--client", "cursor", "--state-dir", `${base}/s,t`, dir);
  assert.equal(s.code, 2);
  assert.match(s.stderr, new RegExp(`^logpeek: ${base}/s,t has a comma`));
});

Deno.test("config: without HOME, one line asking for --state-dir; a named one that is a file is refused", async () => {
  const r = await configIn({ NO_COLOR: "1", DENO_DIR }, true, ["--client", "cursor", dir]);
  assert.deepEqual([r.code, r.stdout, r.stderr], [
    1,
    "",
    "logpeek: config: no state directory: HOME is not set (nor LOGPEEK_STATE_DIR, XDG_STATE_HOME): " +
    "pass --state-dir /absolute/path\n",
  ]);
  const base = tempDir("logpeek-config-file-");
  Deno.writeTextFileSync(`${base}/afile`, "x");
  const f = await config("--client", "cursor", "--state-dir", `${base}/afile`, dir);
  assert.deepEqual([f.code, f.stdout, f.stderr], [
    1,
    "",
    `logpeek: the state directory ${base}/afile is a file, not a folder: pass --state-dir a folder\n`,
  ]);
  const deep = await config("--client", "cursor", "--state-dir", `${base}/no/deep`, dir);
  assert.equal(deep.code, 1);
  assert.match(deep.stderr, new RegExp(`its parent folder ${base}/no does not exist`));
});

Deno.test({
  ...NEEDS_CLICKHOUSE,
  name: "config: a ClickHouse root's entry grants --allow-net=HOST:PORT only, and pasted as is it answers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using ch = await startClickHouse("config with a ClickHouse root (issue #14)");
    if (!ch) return;
    const port = new URL(ch.url).port;
    assert.equal((await ch.query("CREATE DATABASE d")).status, 200);
    assert.equal(
      (await ch.query(
        "CREATE TABLE d.logs (Timestamp DateTime, Body String, SeverityText String, ServiceName String) " +
          "ENGINE = MergeTree ORDER BY (ServiceName, Timestamp)",
      )).status,
      200,
    );
    assert.equal(
      (await ch.query(
        "INSERT INTO d.logs VALUES (1700000000, 'disk full', 'err', 'api'), (1700000001, 'ok', 'info', 'api')",
      ))
        .status,
      200,
    );
    const root = `clickhouse://reader@127.0.0.1:${port}/d.logs`;
    const r = await config("--client", "cursor", "--state-dir", state, root);
    assert.equal(r.code, 0, r.stderr);
    const entry = JSON.parse(r.stdout).mcpServers.logpeek;
    assert.ok(entry.args.includes(`--allow-net=127.0.0.1:${port}`), entry.args.join(" "));
    assert.equal(entry.args.filter((a: string) => a.startsWith("--allow-net")).length, 1);
    assert.equal(entry.args.at(-1), root);
    assert.ok(!entry.args.some((a: string) => a.startsWith("--allow-read=") && a.includes("clickhouse")));
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: {
        NO_COLOR: "1",
        LOGPEEK_CLICKHOUSE_PASSWORD: READER_PASSWORD,
        ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      },
      stderr: "pipe",
    });
    const client = new Client({ name: "t", version: "0" });
    await client.connect(transport);
    try {
      // deno-lint-ignore no-explicit-any
      const t: any = await client.callTool({ name: "log_levels", arguments: { file: "logs/api" } });
      assert.equal(t.structuredContent.counts.ERROR, 1);
      assert.equal(t.structuredContent.counts.INFO, 1);
    } finally {
      await client.close();
    }
    // A password in the root is refused, and not repeated.
    const bad = await config(
      "--client",
      "cursor",
      "--state-dir",
      state,
      `clickhouse://u:pw-xyz@127.0.0.1:${port}/d.logs`,
    );
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /LOGPEEK_CLICKHOUSE_PASSWORD/);
    assert.ok(!bad.stderr.includes("pw-xyz"));
  },
});
