/**
 * The command line: usage, exit codes, and a stdout that carries nothing but protocol.
 */
import assert from "node:assert/strict";
import { MAIN } from "./mcp_client.ts";
import { serverFlags } from "../src/cli/flags.ts";
import { makeFixtures, tempDir } from "./fixtures.ts";

const dir = makeFixtures();
const state = tempDir("logpeek-cli-state-");
const dec = new TextDecoder();

async function run(args: string[], flags = serverFlags([dir], state), stdin = "") {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, MAIN, "--state-dir", state, ...args],
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
  await w.close();
  const out = await child.output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("no ROOT: usage on stderr, exit 2, nothing on stdout", async () => {
  const r = await run([]);
  assert.deepEqual([r.code, r.stdout], [2, ""]);
  assert.match(r.stderr, /no ROOT given/);
  assert.match(r.stderr, /Usage: logpeek \[options\] ROOT\.\.\./);
});

Deno.test("an empty ROOT (an unset variable in a client's config) is a usage error, never the working directory", async () => {
  const r = await run([""]);
  assert.deepEqual([r.code, r.stdout], [2, ""]);
  assert.match(r.stderr, /an empty ROOT was given/);
  const mixed = await run([dir, " "]);
  assert.equal(mixed.code, 2);
});

Deno.test("an unknown option: exit 2 with usage", async () => {
  const r = await run(["--frobnicate", dir]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Unknown option '--frobnicate'/);
});

Deno.test("--help and --version print to stdout and exit 0", async () => {
  const h = await run(["--help"]);
  assert.equal(h.code, 0);
  assert.match(h.stdout, /LOGPEEK_SEARCH_BYTES/);
  const v = await run(["--version"]);
  assert.deepEqual([v.code, v.stdout], [0, "logpeek 0.1.0\n"]);
});

Deno.test("a ROOT that does not exist, or that Deno may not read: a clear message and exit 1", async () => {
  const missing = `${dir}/nope`;
  const r = await run([missing], serverFlags([dir, missing], state));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /root .*nope does not exist/);
  const other = await run(["/usr"]);
  assert.equal(other.code, 1);
  assert.match(other.stderr, /read permission does not cover root \/usr: run with --allow-read=\/usr/);
});

Deno.test("stdout carries only JSON-RPC messages, even for failing calls", async () => {
  const msgs = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "log_tail", arguments: { file: "gone.log" } },
    },
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "log_search", arguments: { file: "crlf.log" } },
    },
    {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "log_levels", arguments: { file: "crlf.log" } },
    },
  ];
  const r = await run([dir], serverFlags([dir], state), msgs.map((m) => JSON.stringify(m)).join("\n") + "\n");
  const lines = r.stdout.trim().split("\n");
  const parsed = lines.map((l) => JSON.parse(l)).sort((a, b) => a.id - b.id);
  assert.deepEqual(parsed.map((p) => p.id), [1, 2, 3, 4]);
  assert.ok(parsed.every((p) => p.jsonrpc === "2.0"));
  assert.equal(parsed[1].result.isError, true);
  assert.equal(parsed[2].result.isError, true);
  assert.equal(parsed[3].result.structuredContent.total_lines, 3);
  assert.match(r.stderr, /serving/);
});
