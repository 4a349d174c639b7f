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
 * Starts `command args(STATE, LOGS)… --state-dir STATE DEMO LOGS`, lists the tools, tails the demo log,
 * and runs a regex search over a 32 KiB line in LOGS (a line that long is tested in the pattern worker,
 * which a bundle or a binary starts from its own main module).
 *
 * @param command The program.
 * @param args Its arguments before logpeek's own, given the temporary state directory and the
 *   temporary folder of the long-line log (both to be readable).
 * @param env Its environment (default: a minimal one).
 * @returns The names of the tools listed.
 * @throws {Error} when a step fails.
 */
export async function smoke(
  command: string,
  args: (state: string, logs: string) => string[],
  env?: Record<string, string>,
): Promise<string[]> {
  const state = Deno.makeTempDirSync({ prefix: "logpeek-smoke-" });
  const logs = Deno.makeTempDirSync({ prefix: "logpeek-smoke-logs-" });
  try {
    Deno.writeTextFileSync(`${logs}/long.log`, `start\n${"k=v ".repeat(8192)}zq-42 timed out\nend\n`);
    const transport = new StdioClientTransport({
      command,
      args: [...args(state, logs), "--state-dir", state, DEMO, logs],
      env: env ?? { PATH: Deno.env.get("PATH") ?? "", HOME: state },
      stderr: "inherit",
    });
    const client = new Client({ name: "logpeek-smoke", version: "0" });
    await client.connect(transport);
    try {
      const { tools } = (await client.listTools()) as { tools: { name: string }[] };
      // deno-lint-ignore no-explicit-any
      const r: any = await client.callTool({
        name: "log_tail",
        arguments: { file: "demo/app.log", lines: 2 },
      });
      const last = r.structuredContent?.lines?.at(-1);
      if (r.isError || last?.line_no !== 2003) throw new Error(`log_tail failed: ${JSON.stringify(r)}`);
      // deno-lint-ignore no-explicit-any
      const s: any = await client.callTool({
        name: "log_search",
        arguments: { file: `${logs.split("/").at(-1)}/long.log`, text: "zq-[0-9]+ timed", regex: true },
      });
      const found = s.structuredContent?.matches?.map((m: { line_no: number }) => m.line_no);
      if (s.isError || JSON.stringify(found) !== "[2]" || s.structuredContent?.complete !== true) {
        throw new Error(`log_search (regex, 32 KiB line) failed: ${JSON.stringify(s).slice(0, 2000)}`);
      }
      return tools.map((t) => t.name);
    } finally {
      await client.close();
    }
  } finally {
    Deno.removeSync(state, { recursive: true });
    Deno.removeSync(logs, { recursive: true });
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
