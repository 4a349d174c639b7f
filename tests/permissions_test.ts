/**
 * Issue #4: the code that touches log files is confined by Deno itself, at run time, to the roots —
 * whatever the process as a whole was granted.
 */
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { DEFAULT_LIMITS } from "../src/core/config.ts";
import { openRoots } from "../src/source/local/roots.ts";
import { startToolWorker } from "../src/server/worker_host.ts";
import { MAIN } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";
import { ENV_NAMES } from "../src/core/config.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
/** deno.json's imports alone, to run without its `unstable` list. */
const IMPORT_MAP = (() => {
  const dir = tempDir("logpeek-importmap-");
  const config = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url)));
  Deno.writeTextFileSync(`${dir}/import_map.json`, JSON.stringify({ imports: config.imports }));
  return `${dir}/import_map.json`;
})();

function setup(): string {
  const dir = tempDir("logpeek-perm-");
  Deno.mkdirSync(`${dir}/logs`);
  Deno.mkdirSync(`${dir}/outside`);
  Deno.writeTextFileSync(`${dir}/logs/app.log`, "2024-05-01 10:00:00 INFO inside\n");
  Deno.writeTextFileSync(`${dir}/outside/secret.log`, "2024-05-01 10:00:00 ERROR CANARY-perm-outside\n");
  return dir;
}

Deno.test({
  name:
    "with read access to / and logpeek's own path check off, reading outside the roots fails with NotCapable",
  ...opts,
  async fn() {
    assert.equal(
      Deno.permissions.querySync({ name: "read" }).state,
      "granted",
      "this test runs with --allow-read",
    );
    const dir = setup();
    using worker = await startToolWorker(pathToFileURL(MAIN).href, {
      roots: openRoots([`${dir}/logs`], "/"),
      limits: { ...DEFAULT_LIMITS },
      stateDir: null,
      artifactsOff: "test",
      redact: true,
      unsafeNoPathCheck: true,
    });
    const inside = await worker.dispatch("log_tail", { file: "app.log", lines: 5 });
    assert.equal(inside.isError, undefined);
    assert.equal(
      (inside.structuredContent as { lines: { text: string }[] }).lines[0].text,
      "2024-05-01 10:00:00 INFO inside",
    );
    for (const file of ["../outside/secret.log", "../../../../../../etc/passwd"]) {
      const r = await worker.dispatch("log_tail", { file, lines: 5 });
      assert.equal(r.isError, true, file);
      assert.match(r.content[0].text, /^permission_denied: Deno's read permission does not cover/, file);
      assert.doesNotMatch(JSON.stringify(r), /CANARY|root:/);
    }
    assert.deepEqual(worker.permissions.write, []);
  },
});

Deno.test({
  name:
    "e2e: a process that may read everything serves through the narrowed worker, spills and traces included",
  ...opts,
  async fn() {
    const dir = setup();
    Deno.writeTextFileSync(`${dir}/logs/big.log`, "2024-05-01 10:00:00 ERROR boom\n".repeat(2000));
    const state = tempDir("logpeek-perm-state-");
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: [
        "run",
        "--no-prompt",
        "--unstable-worker-options",
        "--allow-read",
        `--allow-write=${state}`,
        `--allow-env=${ENV_NAMES.join(",")}`,
        MAIN,
        "--state-dir",
        state,
        `${dir}/logs`,
      ],
      env: { NO_COLOR: "1", ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}) },
      stderr: "pipe",
    });
    let err = "";
    transport.stderr?.on("data", (d: Uint8Array) => (err += new TextDecoder().decode(d)));
    const client = new Client({ name: "t", version: "0" });
    await client.connect(transport);
    try {
      // deno-lint-ignore no-explicit-any
      const call = async (name: string, args: Record<string, unknown>): Promise<any> =>
        await client.callTool({ name, arguments: args });
      const leak = await call("log_tail", { file: "../outside/secret.log" });
      assert.match(leak.content[0].text, /^outside_roots:/);
      const big = await call("log_search", { file: "big.log", text: "boom", limit: 5000 });
      assert.equal(big.structuredContent.artifact.total_lines, 2000);
      const page = await call("read_artifact", {
        artifact_id: big.structuredContent.artifact.artifact_id,
        limit: 2,
      });
      assert.equal(page.structuredContent.lines.length, 2);
      assert.match(err, /tools run in a worker that may read only /);
      assert.ok(Deno.readTextFileSync(`${state}/traces/calls.jsonl`).split("\n").length >= 3);
    } finally {
      await client.close();
    }
  },
});

/** Runs logpeek on the test folder with read access to everything, no stdin, and `extra` flags. */
function runBroad(dir: string, extra: string[], signal?: AbortSignal) {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...extra,
      "--no-prompt",
      "--allow-read",
      `--allow-write=${dir}`,
      MAIN,
      "--state-dir",
      `${dir}/state`,
      `${dir}/logs`,
    ],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal,
  }).output();
}

Deno.test("a process that may read everything but lacks --unstable-worker-options stops, saying why", async () => {
  const dir = setup();
  const out = await runBroad(dir, ["--no-config", "--import-map", IMPORT_MAP]);
  assert.notEqual(out.code, 0);
  assert.equal(out.stdout.length, 0);
  assert.match(
    new TextDecoder().decode(out.stderr),
    /needs --unstable-worker-options, or grant --allow-read for the roots only/,
  );
});

Deno.test("the server ends when its client closes stdin, also with the tool worker running", async () => {
  const dir = setup();
  const out = await runBroad(dir, [], AbortSignal.timeout(15000));
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(new TextDecoder().decode(out.stderr), /tools run in a worker/);
});
