/**
 * Start-up (issue #24, item 8): the time from spawning the server to its answer to `initialize`, for the
 * ways a user starts it: the entry `logpeek config` prints (what an MCP client runs), a direct
 * `deno run main.ts`, the bundle (`deno task bundle`, `dist/logpeek.js`), and the launcher (`deno task
 * start`, two processes: information). Warm: each is started once before the runs that count, so Deno's
 * module cache is filled. Target: ≤ 500 ms for the `config` entry.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { median } from "./measure.ts";
import type { Row } from "./table.ts";

/** The most milliseconds the `config` entry may take to answer `initialize`, warm. */
export const STARTUP_MS = 500;

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DENO = Deno.execPath();

/** One `initialize` frame, as a client sends it first. */
const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
}) + "\n";

/**
 * Spawns `command args`, sends `initialize`, and gives the milliseconds until the first answer line.
 *
 * @throws {Error} when the process ends or answers something that is not an `initialize` result.
 */
export async function timeToInitialize(command: string, args: string[], cwd = ROOT): Promise<number> {
  const t = performance.now();
  const p = new Deno.Command(command, { args, cwd, stdin: "piped", stdout: "piped", stderr: "null" }).spawn();
  const w = p.stdin.getWriter();
  await w.write(new TextEncoder().encode(INIT));
  const reader = p.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  const ms = performance.now() - t;
  try {
    p.kill();
  } catch {
    // gone already
  }
  await p.status;
  await reader.cancel().catch(() => {});
  if (!text.includes('"protocolVersion"')) throw new Error(`${command} did not answer initialize: ${text}`);
  return ms;
}

/** The command line `logpeek config --client cursor` prints for `root` with state in `state`. */
async function configEntry(root: string, state: string): Promise<{ command: string; args: string[] }> {
  const out = await new Deno.Command(DENO, {
    args: ["task", "-q", "start", "config", "--client", "cursor", "--state-dir", state, root],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) throw new Error(`config failed: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(new TextDecoder().decode(out.stdout)).mcpServers.logpeek;
}

/**
 * Runs the start-up rows.
 *
 * @param runs Runs per way (the median counts), after one warm-up run each.
 * @returns The table's rows.
 */
export async function startupBench(runs: number): Promise<Row[]> {
  const root = Deno.makeTempDirSync({ prefix: "logpeek-startup-" });
  const state = Deno.makeTempDirSync({ prefix: "logpeek-startup-state-" });
  Deno.writeTextFileSync(`${root}/app.log`, "2024-05-01 00:00:00 INFO x\n");
  try {
    const entry = await configEntry(root, state);
    const flags = [`--allow-read=${root},${state}`, `--allow-write=${state}`, "--allow-env"];
    const ways: [string, string, string[], string | undefined][] = [
      ["the `config` entry (what a client runs)", entry.command, entry.args, `≤ ${STARTUP_MS} ms`],
      ["`deno run main.ts` directly", DENO, [
        "run",
        "--no-prompt",
        ...flags,
        "main.ts",
        "--state-dir",
        state,
        root,
      ], undefined],
    ];
    const bundle = `${ROOT}dist/logpeek.js`;
    const built = await new Deno.Command(DENO, { args: ["task", "-q", "bundle"], cwd: ROOT, stderr: "null" })
      .output();
    if (built.code === 0) {
      ways.push(["the bundle (`deno task bundle`)", DENO, [
        "run",
        "--no-prompt",
        ...flags,
        bundle,
        "--state-dir",
        state,
        root,
      ], undefined]);
    }
    ways.push(["the launcher (`deno task start`: two processes)", DENO, [
      "task",
      "-q",
      "start",
      "--state-dir",
      state,
      root,
    ], undefined]);
    const rows: Row[] = [];
    for (const [what, command, args, target] of ways) {
      await timeToInitialize(command, args); // warm: the module cache filled
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(await timeToInitialize(command, args));
      const ms = median(times);
      rows.push({
        work: `start-up to the initialize answer: ${what} (median of ${runs}, warm)`,
        ms,
        ...(target ? { target, met: ms <= STARTUP_MS, value: `${ms.toFixed(0)} ms` } : {}),
      });
    }
    return rows;
  } finally {
    Deno.removeSync(root, { recursive: true });
    Deno.removeSync(state, { recursive: true });
  }
}
