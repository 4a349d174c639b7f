import assert from "node:assert/strict";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/inMemory.d.ts"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { z } from "zod";
import { DEFAULT_LIMITS } from "../core/config.ts";
import { createServer, registerTools } from "./server.ts";
import { checkOutputsInOnePass } from "./output_check.ts";
import type { ToolDeps } from "../tools/deps.ts";
import { inProcess } from "../../tests/in_process.ts";

/** A connected client of `server`. */
async function clientOf(server: McpServer): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "output-check-test", version: "1" });
  await client.connect(b);
  return client;
}

/** A server whose `log_search` answers with `structuredContent` (the dispatcher of `ToolDeps` replaced). */
function serverAnswering(structuredContent: unknown, isError = false): McpServer {
  const deps = {
    limits: DEFAULT_LIMITS,
    dispatch: () => Promise.resolve({ content: [{ type: "text", text: "x" }], structuredContent, isError }),
  } as unknown as ToolDeps;
  return createServer(deps);
}

/** A real `log_search` answer (in process) over a log of `lines` lines, every one a match. */
async function searchAnswer(lines: number): Promise<Record<string, unknown>> {
  const text = Array.from({ length: lines }, (_, i) => `2026-12-03 10:00:00 INFO line ${i}\n`).join("");
  using lp = inProcess({ "app.log": text }, "logpeek-output-check-");
  const r = await lp.dispatch("log_search", { file: "app.log", text: "line", limit: 1000 });
  assert.equal(r.isError, undefined);
  const sc = r.structuredContent as { matches: unknown[] };
  assert.equal(sc.matches.length, Math.min(lines, 1000), "every line is a match (as the log was written)");
  return sc;
}

Deno.test("checkOutputsInOnePass: the SDK keeps no output schema to check, the listing keeps each tool's", () => {
  const server = new McpServer({ name: "x", version: "1" });
  const tools = registerTools(
    server,
    { limits: DEFAULT_LIMITS, dispatch: () => Promise.reject() } as unknown as ToolDeps,
  );
  const before = Object.fromEntries(Object.entries(tools).map(([n, t]) => [n, t.outputSchema]));
  const listed = checkOutputsInOnePass(tools);
  for (const [name, tool] of Object.entries(tools)) {
    assert.equal(tool.outputSchema, undefined, name);
    assert.ok(before[name], `${name} has an output schema`);
    assert.equal(listed[name].outputSchema, before[name], name);
  }
});

Deno.test("an answer the output schema refuses is a tool error with the SDK's message; a good one passes as it is", async () => {
  // The real log_search schema, read from the answer the server lists, judges what the fake dispatcher says.
  const good = await searchAnswer(3);
  const client = await clientOf(serverAnswering(good));
  const listed = await client.listTools();
  assert.ok(
    listed.tools.find((t: { name: string }) => t.name === "log_search")?.outputSchema,
    "log_search lists its output schema",
  );
  const ok = await client.callTool({ name: "log_search", arguments: { file: "app.log", text: "line" } });
  assert.ok(!ok.isError, JSON.stringify(ok.content));
  assert.deepEqual(ok.structuredContent, good);
  await client.close();

  const first = (good.matches as Record<string, unknown>[])[0];
  const bad = { ...good, matches: [{ ...first, line_no: "one" }] };
  const c2 = await clientOf(serverAnswering(bad));
  const r = await c2.callTool({ name: "log_search", arguments: { file: "app.log", text: "line" } });
  assert.equal(r.isError, true);
  const text = (r.content as { text: string }[])[0].text;
  assert.match(
    text,
    /^MCP error -32602: Output validation error: Invalid structured content for tool log_search: /,
  );
  // The SDK's own words for the issue (`getParseErrorMessage`: the message, then the path).
  assert.match(text, /: Invalid input: expected number, received string at matches\[0\]\.line_no$/);
  await c2.close();

  const c3 = await clientOf(serverAnswering(undefined));
  const none = await c3.callTool({ name: "log_search", arguments: { file: "app.log", text: "line" } });
  assert.equal(none.isError, true);
  assert.match(
    (none.content as { text: string }[])[0].text,
    /has an output schema but no structured content/,
  );
  await c3.close();

  // An error result is not checked (it has no structuredContent to hold to the schema).
  const c4 = await clientOf(serverAnswering(undefined, true));
  const err = await c4.callTool({ name: "log_search", arguments: { file: "app.log", text: "line" } });
  assert.equal(err.isError, true);
  assert.equal((err.content as { text: string }[])[0].text, "x");
  await c4.close();
});

Deno.test("zod's synchronous parse of log_search's output schema judges answers as the SDK's asynchronous one does", async () => {
  const server = new McpServer({ name: "x", version: "1" });
  const tools = registerTools(
    server,
    { limits: DEFAULT_LIMITS, dispatch: () => Promise.reject() } as unknown as ToolDeps,
  );
  const schema = tools.log_search.outputSchema as z.ZodType;
  const good = await searchAnswer(50);
  const m = good.matches as Record<string, unknown>[];
  const cases: unknown[] = [
    good,
    { ...good, matches: [] },
    { ...good, complete: "yes" },
    { ...good, matches: [...m, { ...m[0], level: "LOUD" }] },
    { ...good, matches: [{ ...m[0], before: [{ ...m[1], cut: 1 }] }] },
    { ...good, matches: [{ ...m[0], line_no: 1.5 }] },
    { ...good, matches: [{ ...m[0], line_no: null, file: "a.log" }] },
    { ...good, scanned_lines: undefined },
  ];
  const verdicts = [];
  for (const c of cases) {
    const sync = schema.safeParse(c).success;
    const async = (await schema.safeParseAsync(c)).success;
    assert.equal(sync, async, JSON.stringify(c).slice(0, 200));
    verdicts.push(sync);
  }
  assert.deepEqual(verdicts, [true, true, false, false, false, false, true, false]);
});
