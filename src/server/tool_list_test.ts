import assert from "node:assert/strict";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/validation/ajv-provider.d.ts"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import { DEFAULT_LIMITS } from "../core/config.ts";
import { registerTools } from "./server.ts";
import {
  compactSchema,
  type Json,
  type JsonSchema,
  listedSchema,
  listedTools,
  mapSubschemas,
  SCHEMA_KEYWORDS,
  shareSubschemas,
} from "./tool_list.ts";
import { schemaProbes } from "../../tests/schema_values.ts";

/** The tools as `createServer` registers them (no call is run). */
function tools() {
  return registerTools(new McpServer({ name: "t", version: "0" }), {
    limits: { ...DEFAULT_LIMITS },
    dispatch: () => Promise.reject(new Error("no call in this test")),
  });
}

/** What the SDK's own tools/list gave (its `toJsonSchemaCompat`: zod's, draft-07). */
const sdkSchema = (s: unknown, io: "input" | "output") =>
  z.toJSONSchema(s as z.ZodType, { target: "draft-7", io }) as JsonSchema;

/** Whether `schema` accepts `v`, by the ajv the SDK's client validates structuredContent with. */
function accepts(ajv: AjvJsonSchemaValidator, schema: JsonSchema) {
  const check = ajv.getValidator(schema);
  return (v: Json) => check(v).valid;
}

Deno.test("tool_list: each listed schema accepts and refuses what the SDK's zod-made one does", () => {
  const ajv = new AjvJsonSchemaValidator();
  let tried = 0, valid = 0;
  for (const [name, t] of Object.entries(tools())) {
    for (const [io, zs] of [["input", t.inputSchema], ["output", t.outputSchema]] as const) {
      const old = sdkSchema(zs, io), now = listedSchema(zs as z.ZodType, io);
      const before = accepts(ajv, old), after = accepts(ajv, now);
      for (const v of schemaProbes(old)) {
        tried++;
        const b = before(v);
        if (b) valid++;
        assert.equal(after(v), b, `${name} ${io}: ${JSON.stringify(v).slice(0, 400)}`);
      }
    }
  }
  // The probes test both sides: many values of each kind (counted on this run: thousands in all).
  assert.ok(tried > 3000 && valid > 300 && tried - valid > 2000, `${tried} tried, ${valid} valid`);
});

Deno.test("tool_list: the listed schemas agree with the zod schemas' own parse on crafted values", () => {
  const ajv = new AjvJsonSchemaValidator();
  const t = tools();
  const search = accepts(ajv, listedSchema(t.log_search.inputSchema as z.ZodType, "input"));
  const parse = (v: Json) => (t.log_search.inputSchema as z.ZodType).safeParse(v).success;
  for (
    const v of [
      { file: "a.log", text: "x" },
      { file: "a.log", text: "x", limit: 5000, context: 10, level: "ERROR", since: "-15m" },
      { file: "a.log", text: "" }, // minLength 1
      { file: "a.log", limit: 5001 },
      { file: "a.log", limit: 2.5 },
      { file: "a.log", context: -1 },
      { file: "a.log", template_id: "0123456789ABCDEF" },
      { file: "a.log", pattern: "x" }, // an unknown argument (strictArgs)
      { text: "x" }, // no file
      { file: "a.log", since: "" },
      { file: "a.log", cursor: "c".repeat(2001) },
    ] as Json[]
  ) assert.equal(search(v), parse(v), JSON.stringify(v));
  // The output side: a real-shaped log_levels answer, and the same with a field of the wrong type.
  const levels = accepts(ajv, listedSchema(t.log_levels.outputSchema as z.ZodType, "output"));
  const counts = { TRACE: 0, DEBUG: 0, INFO: 2, NOTICE: 0, WARN: 0, ERROR: 1, FATAL: 0, UNKNOWN: 0 };
  const answer = {
    file: "a.log",
    counts,
    total_lines: 3,
    last_line: 3,
    next_cursor: null,
    progress: true,
    scanned_bytes: 60,
    complete: true,
    stop_reason: null,
  };
  const out = (v: Json) => (t.log_levels.outputSchema as z.ZodType).safeParse(v).success;
  for (
    const v of [
      answer,
      { ...answer, stop_reason: "time_budget", complete: false },
      { ...answer, stop_reason: "limit" }, // not a stop log_levels has
      { ...answer, counts: { ...counts, INFO: 2.5 } },
      { ...answer, logs: [{ file: "a.log", complete: true, stop_reason: null, scanned_lines: 3, counts }] },
      { ...answer, window: null },
      { ...answer, window: { since: null, until: "2024-05-01T00:00:00Z", zone: "UTC" } },
      { ...answer, window: { since: null, until: null } }, // zone missing
    ] as Json[]
  ) assert.equal(levels(v), out(v), JSON.stringify(v));
});

Deno.test("tool_list: the one difference is zod's safe-integer bounds, a JavaScript artefact", () => {
  const ajv = new AjvJsonSchemaValidator();
  const t = tools();
  const old = sdkSchema(t.read_artifact.outputSchema, "output");
  assert.equal((old.properties as Record<string, JsonSchema>).offset.maximum, Number.MAX_SAFE_INTEGER);
  const answer = { artifact_id: "a", offset: 2 ** 53, lines: [], total_lines: 0, next_offset: null };
  assert.equal(accepts(ajv, old)(answer), false);
  assert.equal(accepts(ajv, listedSchema(t.read_artifact.outputSchema as z.ZodType, "output"))(answer), true);
});

Deno.test("tool_list: the listed schemas use only keywords that mean the same in draft-07 and 2020-12", () => {
  const seen = new Set<string>();
  const walk = (s: JsonSchema): JsonSchema => {
    for (const k of Object.keys(s)) seen.add(k);
    return mapSubschemas(s, walk);
  };
  for (const t of listedTools(tools())) {
    walk(t.inputSchema as JsonSchema);
    walk(t.outputSchema as JsonSchema);
    assert.equal(JSON.stringify(t.outputSchema).includes('"description"'), false, t.name);
    assert.equal(JSON.stringify(t).includes("$schema"), false, t.name);
    assert.equal(JSON.stringify(t).includes("9007199254740991"), false, t.name);
    for (const ref of JSON.stringify(t).matchAll(/"\$ref":"#\/\$defs\/(\w+)"/g)) {
      assert.ok(ref[1] in ((t.outputSchema as JsonSchema).$defs as JsonSchema), `${t.name}: ${ref[0]}`);
    }
  }
  for (const k of seen) assert.ok(SCHEMA_KEYWORDS.has(k), `a listed schema uses ${k}`);
  assert.ok(seen.has("$ref") && seen.has("enum") && seen.has("additionalProperties"));
});

Deno.test("tool_list: compactSchema merges a nullable only where null passes the other side's keywords", () => {
  const n = { type: "null" };
  assert.deepEqual(compactSchema({ anyOf: [{ type: "integer" }, n], description: "d" }, false), {
    type: ["integer", "null"],
  });
  assert.deepEqual(compactSchema({ anyOf: [{ type: "string", enum: ["a"] }, n] }, true), {
    enum: ["a", null],
  });
  // An anyOf inside X, or a const, or two types: left as they are.
  const inner = { anyOf: [{ anyOf: [{ type: "string" }, { type: "integer" }] }, n] };
  assert.deepEqual(compactSchema(inner, true), inner);
  const c = { anyOf: [{ type: "string", const: "a" }, n] };
  assert.deepEqual(compactSchema(c, true), c);
  // An integer's own bounds stay; only ±(2^53 − 1) go; so does a number's (not an integer's) bound.
  assert.deepEqual(compactSchema({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, true), {
    type: "integer",
    minimum: 1,
  });
  assert.deepEqual(compactSchema({ type: "number", maximum: Number.MAX_SAFE_INTEGER }, true), {
    type: "number",
    maximum: Number.MAX_SAFE_INTEGER,
  });
});

Deno.test("tool_list: shareSubschemas writes a repeated sub-schema once, and only when shorter", () => {
  const line = {
    type: "object",
    properties: { a: { type: "string" }, b: { type: "integer" } },
    required: ["a", "b"],
    additionalProperties: false,
  };
  const s = {
    type: "object",
    properties: { x: line, y: { type: "array", items: line }, z: { type: "string" } },
  };
  const shared = shareSubschemas(s);
  assert.deepEqual(shared.$defs, { x: line });
  assert.deepEqual((shared.properties as JsonSchema).x, { $ref: "#/$defs/x" });
  assert.deepEqual(((shared.properties as JsonSchema).y as JsonSchema).items, { $ref: "#/$defs/x" });
  const small = { type: "object", properties: { x: { type: "string" }, y: { type: "string" } } };
  assert.deepEqual(shareSubschemas(small), small);
});
