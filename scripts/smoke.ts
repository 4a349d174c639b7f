/**
 * A smoke test of a built logpeek (compiled binary or bundle) through the MCP SDK's client: initialize,
 * tools/list, and `log_tail` on the bundled demo log. Used by the release workflow and the tests.
 *
 * Usage: `deno run -A scripts/smoke.ts COMMAND [ARG...]` — the command that starts logpeek, before its
 * `--state-dir` and ROOT (which this script adds); a compiled binary needs no arguments.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** The demo logs the smoke test reads. */
export const DEMO = fileURLToPath(new URL("../fixtures/demo", import.meta.url));

/**
 * Starts `command args(STATE)… --state-dir STATE DEMO`, and checks the three calls.
 *
 * @param command The program.
 * @param args Its arguments before logpeek's own, given the temporary state directory.
 * @param env Its environment (default: a minimal one).
 * @returns The names of the tools listed.
 * @throws {Error} when a step fails.
 */
export async function smoke(
  command: string,
  args: (state: string) => string[],
  env?: Record<string, string>,
): Promise<string[]> {
  const state = Deno.makeTempDirSync({ prefix: "logpeek-smoke-" });
  try {
    const transport = new StdioClientTransport({
      command,
      args: [...args(state), "--state-dir", state, DEMO],
      env: env ?? { PATH: Deno.env.get("PATH") ?? "", HOME: state },
      stderr: "inherit",
    });
    const client = new Client({ name: "logpeek-smoke", version: "0" });
    await client.connect(transport);
    try {
      const { tools } = (await client.listTools()) as { tools: { name: string }[] };
      // deno-lint-ignore no-explicit-any
      const r: any = await client.callTool({ name: "log_tail", arguments: { file: "app.log", lines: 2 } });
      const last = r.structuredContent?.lines?.at(-1);
      if (r.isError || last?.line_no !== 2003) throw new Error(`log_tail failed: ${JSON.stringify(r)}`);
      return tools.map((t) => t.name);
    } finally {
      await client.close();
    }
  } finally {
    Deno.removeSync(state, { recursive: true });
  }
}

if (import.meta.main) {
  const [command, ...args] = Deno.args;
  if (!command) {
    console.error("usage: smoke.ts COMMAND [ARG...]");
    Deno.exit(2);
  }
  const tools = await smoke(command, () => args, { ...Deno.env.toObject() });
  console.log(`smoke test passed: tools ${tools.join(", ")}; log_tail answered`);
}
