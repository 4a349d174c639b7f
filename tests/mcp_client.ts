/**
 * End-to-end test helper: spawns logpeek exactly as users are told to run it (`deno run` with
 * {@linkcode serverFlags}) and connects the MCP SDK's own client to it over stdio.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/client/stdio.d.ts"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { netOfRoots, serverFlags } from "../src/cli/flags.ts";
import { isClickHouseRoot } from "../src/source/clickhouse/target.ts";
import { tempDir } from "./fixtures.ts";
import { LineStdioTransport } from "./line_transport.ts";

/** The repository's `main.ts`. */
export const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

/** A connected client, and the server's stderr so far. */
export interface Session extends AsyncDisposable {
  client: Client;
  /** The server's state directory (trace and artifacts). */
  stateDir: string;
  stderr: () => string;
  pid: number | null;
  /** Calls a tool; returns the raw result. */
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
}

/** A tools/call result as the client receives it. */
export interface CallResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  // deno-lint-ignore no-explicit-any
  structuredContent?: any;
}

/**
 * Starts logpeek on `roots` and connects a client.
 *
 * @param roots Root paths (as given to logpeek).
 * @param env Extra environment for the server (LOGPEEK_* budgets).
 * @param extraRead More paths for --allow-read (a symlinked root's real path).
 * @param opts `stateDir` (default: a new temporary one), `args`: more logpeek options, `noWrite`: leave
 *   out `--allow-write` (a state directory the server cannot use), `broadRead`: grant read access to
 *   everything (the tools then run in the narrowed worker), `lines`: carry messages with
 *   {@linkcode LineStdioTransport} instead of the SDK's `StdioClientTransport`, whose reading is
 *   quadratic in an answer's size (the benchmark's choice: it times the server, not the client).
 */
export async function connect(
  roots: string[],
  env: Record<string, string> = {},
  extraRead: string[] = [],
  opts: { stateDir?: string; args?: string[]; noWrite?: boolean; broadRead?: boolean; lines?: boolean } = {},
): Promise<Session> {
  // A ClickHouse root (issue #14) stays as given; its HOST:PORT is the one network permission.
  const abs = roots.map((r) => (isClickHouseRoot(r) ? r : resolve(r)));
  const { net, files } = netOfRoots(abs);
  const stateDir = opts.stateDir ?? tempDir("logpeek-state-");
  const args = [
    "run",
    ...serverFlags([...files, ...extraRead], stateDir, undefined, net)
      .filter((f) => !(opts.noWrite && f.startsWith("--allow-write")))
      .map((f) => (opts.broadRead && f.startsWith("--allow-read") ? "--allow-read" : f)),
    ...(opts.broadRead ? ["--unstable-worker-options"] : []),
    MAIN,
    "--state-dir",
    stateDir,
    ...(opts.args ?? []),
    ...abs,
  ];
  const fullEnv = { ...getDefaultEnvironment(), ...denoEnv(), ...env };
  let err = "";
  let transport: StdioClientTransport | LineStdioTransport;
  if (opts.lines) {
    transport = new LineStdioTransport(Deno.execPath(), args, fullEnv, (t) => (err += t));
  } else {
    const sdk = new StdioClientTransport({ command: Deno.execPath(), args, env: fullEnv, stderr: "pipe" });
    sdk.stderr?.on("data", (d: Uint8Array) => (err += new TextDecoder().decode(d)));
    transport = sdk;
  }
  const client = new Client({ name: "logpeek-test", version: "0" });
  await client.connect(transport);
  return {
    client,
    stateDir,
    stderr: () => err,
    pid: transport.pid,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallResult,
    [Symbol.asyncDispose]: () => client.close(),
  };
}

function denoEnv(): Record<string, string> {
  const out: Record<string, string> = { NO_COLOR: "1" };
  for (const k of ["DENO_DIR", "XDG_CACHE_HOME"]) {
    const v = Deno.env.get(k);
    if (v) out[k] = v;
  }
  return out;
}

/**
 * `{ text }` for a tool that takes a search text (`log_search`), else nothing: a loop over the reading
 * tools passes each only its own arguments (an unknown argument is refused: issue #24).
 */
export function textFor(tool: string, text: string): { text?: string } {
  return tool === "log_search" ? { text } : {};
}
