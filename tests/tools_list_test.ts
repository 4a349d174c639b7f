/**
 * `tools/list` through the SDK's client (issue #24: it is read at the start of every agent session): at
 * most 16,000 characters, each listed schema what `src/server/tool_list.ts` makes of the tool's zod schema,
 * and real answers of every tool valid under both the listed schema and the SDK's zod-made one.
 */
import assert from "node:assert/strict";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/validation/ajv-provider.d.ts"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { gzipSync } from "node:zlib";
import { z } from "zod";
import { DEFAULT_LIMITS } from "../src/core/config.ts";
import { registerTools } from "../src/server/server.ts";
import { type JsonSchema, listedSchema } from "../src/server/tool_list.ts";
import { tempDir } from "./fixtures.ts";
import { connect } from "./mcp_client.ts";

/** The most characters `tools/list` may take (issue #24). */
const MAX_LIST_CHARS = 16_000;

const opts = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name:
    "e2e: tools/list is at most 16,000 characters, its schemas compact, real answers valid under old and new",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-tools-list-");
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) {
      const level = ["INFO", "WARN", "ERROR"][i % 3];
      lines.push(
        `2024-05-01T10:${String(Math.floor(i / 60)).padStart(2, "0")}:${
          String(i % 60).padStart(2, "0")
        }Z ${level} request ${i} took ${i * 7} ms`,
      );
    }
    Deno.writeTextFileSync(`${dir}/app.log`, lines.join("\n") + "\n");
    Deno.writeFileSync(
      `${dir}/app.log.1.gz`,
      gzipSync(new TextEncoder().encode(lines.slice(0, 50).join("\n") + "\n")),
    );
    await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "2000" });
    const listed = await s.client.listTools();
    const size = JSON.stringify(listed).length;
    assert.ok(size <= MAX_LIST_CHARS, `tools/list is ${size} characters`);
    // What the server sent is this module's conversion of each tool's zod schema; and the SDK's was bigger.
    const local = registerTools(new McpServer({ name: "t", version: "0" }), {
      limits: { ...DEFAULT_LIMITS },
      dispatch: () => Promise.reject(new Error("no call")),
    });
    const ajv = new AjvJsonSchemaValidator();
    const old: Record<string, (v: unknown) => boolean> = {};
    const now: Record<string, (v: unknown) => boolean> = {};
    let sdkSize = 0;
    for (const t of listed.tools) {
      const zt = local[t.name];
      assert.deepEqual(t.inputSchema, listedSchema(zt.inputSchema as z.ZodType, "input"), t.name);
      assert.deepEqual(t.outputSchema, listedSchema(zt.outputSchema as z.ZodType, "output"), t.name);
      const sdk = z.toJSONSchema(zt.outputSchema as z.ZodType, {
        target: "draft-7",
        io: "output",
      }) as JsonSchema;
      sdkSize += JSON.stringify(sdk).length;
      const o = ajv.getValidator(sdk), n = ajv.getValidator(t.outputSchema as JsonSchema);
      old[t.name] = (v) => o(v).valid;
      now[t.name] = (v) => n(v).valid;
    }
    const listedOut = listed.tools.reduce(
      (a: number, t: { outputSchema?: unknown }) => a + JSON.stringify(t.outputSchema).length,
      0,
    );
    assert.ok(
      listedOut < sdkSize / 2,
      `output schemas: ${listedOut} listed, ${sdkSize} as the SDK made them`,
    );
    // Real answers of every tool (the client already checked each against the listed outputSchema).
    const calls: [string, Record<string, unknown>][] = [
      ["log_files", {}],
      ["log_files", { glob: "*.gz", sort: "modified", limit: 1 }],
      ["log_tail", { file: "app.log", lines: 200 }], // spilled at 2,000 characters: artifact, spill_summary
      ["log_tail", { file: "app.log", level: "ERROR", since: "2024-05-01T10:02:00Z" }],
      ["log_search", { file: "app.log", text: "request 1", context: 2 }],
      ["log_search", { file: "app.log*", text: "took \\d+0 ms", regex: true, limit: 3 }],
      ["log_levels", { file: "app.log*" }],
      ["log_levels", { file: "app.log", since: "2024-05-01T10:01:00Z", until: "2024-05-01T10:03:00Z" }],
      ["log_patterns", { file: "app.log" }],
      ["log_patterns", { file: "app.log", since: "2024-05-01T10:03:00Z", baseline_file: "app.log.1.gz" }],
    ];
    let artifact: string | undefined;
    for (const [name, args] of calls) {
      const r = await s.call(name, args);
      assert.equal(r.isError, undefined, `${name} ${JSON.stringify(args)}: ${r.content[0].text}`);
      const sc = r.structuredContent;
      assert.ok(old[name](sc) && now[name](sc), `${name}: valid under the SDK's schema and the listed one`);
      // The same answer with a field it may not have, or a required one gone: refused by both.
      assert.equal(old[name]({ ...sc, no_such_field: 1 }), false);
      assert.equal(now[name]({ ...sc, no_such_field: 1 }), false);
      const { [Object.keys(sc)[0]]: _, ...rest } = sc;
      assert.equal(now[name](rest), old[name](rest), `${name} without ${Object.keys(sc)[0]}`);
      artifact ??= sc.artifact?.artifact_id;
    }
    assert.ok(artifact, "a spilled answer gave an artifact");
    const page = await s.call("read_artifact", { artifact_id: artifact, limit: 5 });
    assert.equal(page.isError, undefined);
    assert.ok(old.read_artifact(page.structuredContent) && now.read_artifact(page.structuredContent));
    assert.equal(page.structuredContent.lines.length, 5);
  },
});
