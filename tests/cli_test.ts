/**
 * The command line: usage, exit codes, and a stdout that carries nothing but protocol.
 */
import assert from "node:assert/strict";
import { MAIN } from "./mcp_client.ts";
import { serverFlags, V8_FLAG } from "../src/cli/flags.ts";
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

Deno.test("no ROOT: one line on stderr with a pointer to --help, exit 2, nothing on stdout", async () => {
  const r = await run([]);
  assert.deepEqual([r.code, r.stdout, r.stderr], [
    2,
    "",
    "logpeek: no ROOT given: name the log directories or files to serve. See --help.\n",
  ]);
});

Deno.test("an empty ROOT (an unset variable in a client's config) is a usage error, never the working directory", async () => {
  const r = await run([""]);
  assert.deepEqual([r.code, r.stdout], [2, ""]);
  assert.match(r.stderr, /an empty ROOT was given/);
  const mixed = await run([dir, " "]);
  assert.equal(mixed.code, 2);
});

Deno.test("an unknown option: one line, a 'did you mean' only when a known option is close, exit 2", async () => {
  const cases: [string, string][] = [
    ["-v", "unknown option -v; did you mean -V (--version)?"],
    ["-H", "unknown option -H; did you mean -h (--help)?"],
    ["--verison", "unknown option --verison; did you mean --version?"],
    ["--stat-dir", "unknown option --stat-dir; did you mean --state-dir?"],
    ["--State-Dir=/x", "unknown option --State-Dir; did you mean --state-dir?"],
    ["--no-trase", "unknown option --no-trase; did you mean --no-trace?"],
    ["-x", "unknown option -x."],
    ["--frobnicate", "unknown option --frobnicate."],
    ["--no-tr", "unknown option --no-tr."],
    // An option name is printed on one line, escaped and cut, whatever it holds.
    [`--a\nb${"z".repeat(200)}`, `unknown option --a\\u000ab${"z".repeat(70)}…`],
  ];
  for (const [flag, line] of cases) {
    const r = await run([flag, dir]);
    assert.deepEqual([r.code, r.stdout, r.stderr], [2, "", `logpeek: ${line} See --help.\n`], flag);
  }
  const missing = await run([dir, "--trust-gid"]);
  assert.deepEqual([missing.code, missing.stderr], [
    2,
    "logpeek: option --trust-gid needs a value. See --help.\n",
  ]);
  const switchValue = await run(["--no-trace=yes", dir]);
  assert.deepEqual([switchValue.code, switchValue.stderr], [
    2,
    "logpeek: option --no-trace takes no value. See --help.\n",
  ]);
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

/** Deno's cache, named outright: without HOME, Deno would look for it elsewhere. */
const DENO_DIR: string = JSON.parse(
  dec.decode(new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).outputSync().stdout),
).denoDir;

/** `deno run FLAGS main.ts trace-report ARGS` with exactly the environment `env` (and the cache). */
async function report(flags: string[], env: Record<string, string>, args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...flags, MAIN, "trace-report", ...args],
    env: { NO_COLOR: "1", DENO_DIR, ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("trace-report: a state directory that does not exist is an error naming it, not an empty table", async () => {
  const gone = `${state}/not-here`;
  const r = await report([`--allow-read=${state}`], {}, ["--state-dir", gone]);
  assert.deepEqual([r.code, r.stdout], [1, ""]);
  assert.equal(
    r.stderr,
    `logpeek: trace-report: the state directory ${gone} does not exist: no server has used it yet (the ` +
      "default one is made when a server first starts; a named one must have a parent folder), or " +
      "--state-dir names another\n",
  );
  // One that exists but has no trace yet: an empty table, exit 0.
  const empty = tempDir("logpeek-cli-empty-state-");
  const e = await report([`--allow-read=${empty}`], {}, ["--state-dir", empty]);
  assert.deepEqual([e.code, e.stdout, e.stderr], [
    0,
    "tool  calls  failures  spills  avg_ms  p95_ms  max_ms\n",
    "logpeek: no calls traced yet\n",
  ]);
});

Deno.test("trace-report: 'HOME is not set' only when it is not; a missing --allow-env is named as such", async () => {
  const home = tempDir("logpeek-cli-home-");
  const unset = await report(["--allow-env", "--allow-read"], {}, []);
  assert.deepEqual([unset.code, unset.stdout], [1, ""]);
  assert.equal(
    unset.stderr,
    "logpeek: trace-report: no state directory: HOME is not set (nor LOGPEEK_STATE_DIR, XDG_STATE_HOME): " +
      "pass --state-dir /absolute/path\n",
  );
  const noEnv = await report(["--allow-read"], { HOME: home }, []);
  assert.deepEqual([noEnv.code, noEnv.stdout], [1, ""]);
  assert.equal(
    noEnv.stderr,
    "logpeek: trace-report: no state directory: --allow-env does not cover LOGPEEK_STATE_DIR, XDG_STATE_HOME, " +
      "HOME: grant --allow-env=LOGPEEK_STATE_DIR,XDG_STATE_HOME,HOME or pass --state-dir /absolute/path\n",
  );
  // With HOME set and readable, its default state directory is used: it does not exist yet, and is named.
  const set = await report(["--allow-env", "--allow-read"], { HOME: home }, []);
  assert.equal(set.code, 1);
  assert.match(set.stderr, new RegExp(`the state directory ${home}/\\.local/state/logpeek does not exist`));
});

/** `deno run FLAGS main.ts ARGS` with no `--state-dir` added, stdin closed at once. */
async function runBare(flags: string[], args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, MAIN, ...args],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("--help's example has the flags config and the launcher use: --allow-sys=uid and the V8 flag too", async () => {
  const r = await run(["--help"]);
  assert.equal(r.code, 0);
  const example = r.stdout.slice(r.stdout.indexOf("  deno run ")).replaceAll("\\\n", " ").split(/\s+/);
  const flags = example.slice(example.indexOf("run") + 1, example.indexOf("main.ts"));
  assert.deepEqual(flags, serverFlags(["/var/log/app"], "/home/me/.local/state/logpeek"));
  assert.ok(flags.includes("--allow-sys=uid"));
  assert.ok(
    flags.includes("--v8-flags=--max-semi-space-size=4") && V8_FLAG === "--v8-flags=--max-semi-space-size=4",
  );
});

Deno.test("--trust-gid with its GID forgotten says so first, not 'no ROOT given'", async () => {
  const r = await run(["--trust-gid", "/var/log"]);
  assert.deepEqual([r.code, r.stdout, r.stderr], [
    2,
    "",
    "logpeek: --trust-gid needs a group id (a number from 0 to 4294967294), got /var/log. See --help.\n",
  ]);
});

Deno.test("the folders above the roots: a note saying who checks them, not a warning", async () => {
  const r = await run([dir]);
  assert.equal(r.code, 0);
  assert.ok(
    r.stderr.includes(
      "logpeek: note: this server may read only its roots and state directory, so it cannot check the " +
        "folders above them for swaps by other users; `deno task start` checks them before it starts the " +
        "server, and `logpeek config` when it prints the entry (docs/security.md: What is confined, and against whom)\n",
    ),
    r.stderr,
  );
});

Deno.test("main: a named --state-dir that is a file, or whose parent is missing, is refused (exit 1)", async () => {
  const base = tempDir("logpeek-cli-named-");
  Deno.writeTextFileSync(`${base}/afile`, "x");
  const file = await runBare(serverFlags([dir], `${base}/afile`), ["--state-dir", `${base}/afile`, dir]);
  assert.deepEqual([file.code, file.stdout, file.stderr], [
    1,
    "",
    `logpeek: the state directory ${base}/afile is a file, not a folder: pass --state-dir a folder\n`,
  ]);
  const deep = `${base}/nonexist/deep`;
  const all = ["--no-prompt", "--allow-read", `--allow-write=${base}`, "--allow-env", "--allow-sys=uid"];
  const missing = await runBare(all, ["--state-dir", deep, dir]);
  assert.deepEqual([missing.code, missing.stdout, missing.stderr], [
    1,
    "",
    `logpeek: the state directory ${deep} cannot be made: its parent folder ${base}/nonexist does not exist ` +
    "(a mistyped path?); make it first, or pass --state-dir a folder that exists or whose parent does\n",
  ]);
  // Where the parent may not even be looked at, the server serves without state, and makes nothing.
  const narrow = await runBare(serverFlags([dir], deep), ["--state-dir", deep, dir]);
  assert.equal(narrow.code, 0);
  assert.ok(
    narrow.stderr.includes(
      `logpeek: the state directory ${deep} cannot be used (its parent folder ${base}/nonexist does not exist ` +
        "(a mistyped path?)): long answers are cut instead of saved, and calls are not traced. Pass --state-dir " +
        "a folder of logpeek's own.\n",
    ),
    narrow.stderr,
  );
  assert.throws(() => Deno.statSync(`${base}/nonexist`), Deno.errors.NotFound);
});
