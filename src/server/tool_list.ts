/**
 * The `tools/list` answer, compact (issue #24: it is read at the start of every agent session, and the
 * SDK's was 43,648 characters). Each tool's zod schemas stay the one source of the fields' meanings; this
 * module converts them as the SDK does (`z.toJSONSchema`, draft-07, `io: "input"` for `inputSchema` and
 * `"output"` for `outputSchema`) and then rewrites the JSON Schema without changing which values it accepts:
 *
 * - `"$schema"` is dropped. Every keyword left (see {@linkcode SCHEMA_KEYWORDS}) means the same in draft-07
 *   and in 2020-12, which MCP assumes when `$schema` is absent.
 * - An output schema loses its `description`s (they are in `docs/tool_schemas.md`, made by
 *   `scripts/tool_docs.ts`); an input schema keeps them: they tell a model how to call the tool. A field's
 *   `details` (zod `.meta({ details })`: the whole description, when the listed one is short) is dropped:
 *   it is for `docs/tool_schemas.md`.
 * - `"minimum": -9007199254740991` / `"maximum": 9007199254740991` on an `integer` are dropped: zod 4
 *   adds them to every `.int()` because a JavaScript number is exact only within them, a JavaScript
 *   artefact, not a rule of the tool (the server's zod schema still refuses such a value).
 * - `type` beside an `enum` whose values are all of that type is dropped: the `enum` alone admits only them.
 * - `"propertyNames": {"type": "string"}` (zod's `z.record(z.string(), …)`) is dropped: every property name
 *   of a JSON object is a string, so it holds of every value.
 * - `anyOf: [X, {type: "null"}]` becomes X with `type: [X.type, "null"]` (and `null` added to X's `enum`),
 *   when X has one type and only keywords that ignore a null value ({@linkcode NULL_BLIND}).
 * - `execution: {taskSupport: "forbidden"}` (the SDK's, on every tool) is left out: MCP defines an absent
 *   `taskSupport` as `"forbidden"`.
 * - A sub-schema a tool's schema holds more than once (after the above) is written once under `$defs` and
 *   referred to by `{"$ref": "#/$defs/NAME"}`, when that is shorter. A `$ref` stands alone, so draft-07's
 *   rule that `$ref` hides its siblings never applies.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/types.d.ts"
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON Schema object (a boolean schema is never made by zod for a tool's object). */
export type JsonSchema = { [key: string]: Json };

/** The tools to list, by name, as `server.registerTool` returned them. */
export type ToolSet = Record<string, RegisteredTool>;

/** Keywords whose value is a map of sub-schemas. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions"];
/** Keywords whose value is one sub-schema. */
const SCHEMA_ONE = [
  "items",
  "additionalProperties",
  "propertyNames",
  "not",
  "contains",
  "if",
  "then",
  "else",
];
/** Keywords whose value is a list of sub-schemas. */
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf"];

/**
 * Every keyword a listed schema may hold: each means the same under draft-07 and 2020-12 (no tuple
 * `items`, no `dependencies`, `$ref` alone). `tool_list_test.ts` checks every listed schema against it.
 */
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "items",
  "enum",
  "const",
  "anyOf",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "default",
  "description",
  "$ref",
  "$defs",
]);

/** Keywords that assert nothing about `null` (they apply to one other type, or annotate). */
const NULL_BLIND = new Set([
  "type",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "items",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "default",
  "description",
]);

const isSchema = (v: Json | undefined): v is JsonSchema =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Applies `f` to each direct sub-schema of `node` (in place of it), leaving other keywords as they are.
 *
 * @param node A schema.
 * @param f What to make of a sub-schema.
 * @returns A new schema with the sub-schemas replaced.
 */
export function mapSubschemas(node: JsonSchema, f: (s: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (SCHEMA_MAPS.includes(k) && isSchema(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, isSchema(s) ? f(s) : s]));
    } else if (SCHEMA_ONE.includes(k) && isSchema(v)) out[k] = f(v);
    else if (SCHEMA_LISTS.includes(k) && Array.isArray(v)) out[k] = v.map((s) => (isSchema(s) ? f(s) : s));
    else out[k] = v;
  }
  return out;
}

/**
 * `anyOf: [X, {type: "null"}]` (either order) as one schema with `type: [X.type, "null"]`, or `node`
 * unchanged when that would change what it accepts.
 */
function mergeNullable(node: JsonSchema): JsonSchema {
  const any = node.anyOf;
  if (!Array.isArray(any) || any.length !== 2) return node;
  const nullAt = any.findIndex((s) => isSchema(s) && Object.keys(s).length === 1 && s.type === "null");
  const x = any[1 - nullAt];
  if (nullAt < 0 || !isSchema(x)) return node;
  // X has one type (not null), or none but an enum (an enum with type dropped: `enumWithoutType`).
  const typed = typeof x.type === "string" && x.type !== "null";
  if (!typed && !(x.type === undefined && Array.isArray(x.enum) && !x.enum.includes(null))) return node;
  const rest = Object.keys(node).filter((k) => k !== "anyOf");
  if (!Object.keys(x).every((k) => NULL_BLIND.has(k) && !rest.includes(k))) return node;
  const { anyOf: _, ...outer } = node;
  const merged: JsonSchema = { ...outer, ...x };
  if (typed) merged.type = [x.type as string, "null"];
  if (Array.isArray(x.enum)) merged.enum = [...x.enum, null];
  return merged;
}

/**
 * A schema rewritten as this module's header says, `$defs` aside: no `$schema`, no safe-integer bounds,
 * nullable `anyOf` merged, and (unless `descriptions`) no `description`.
 *
 * @param node A JSON Schema from `z.toJSONSchema`.
 * @param descriptions Keep the `description`s (an input schema) or drop them (an output schema).
 * @returns The compact schema (a new object; `node` is not changed).
 */
export function compactSchema(node: JsonSchema, descriptions: boolean): JsonSchema {
  const out = mapSubschemas(node, (s) => compactSchema(s, descriptions));
  delete out.$schema;
  delete out.details;
  if (!descriptions) delete out.description;
  const integer = out.type === "integer" || (Array.isArray(out.type) && out.type.includes("integer"));
  if (integer && out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (integer && out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  // Every property name of a JSON object is a string: z.record(z.string(), …)'s check always holds.
  if (isSchema(out.propertyNames) && JSON.stringify(out.propertyNames) === '{"type":"string"}') {
    delete out.propertyNames;
  }
  return enumWithoutType(mergeNullable(out));
}

/** The JSON Schema type name of a JSON value. */
function typeOf(v: Json): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** `node` without `type` when its `enum` already holds only values of that type (`enum` alone says it). */
function enumWithoutType(node: JsonSchema): JsonSchema {
  if (!Array.isArray(node.enum) || node.type === undefined) return node;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const fits = (v: Json) =>
    types.includes(typeOf(v)) || (typeOf(v) === "integer" && types.includes("number"));
  if (!node.enum.every(fits)) return node;
  const { type: _, ...rest } = node;
  return rest;
}

/** Each sub-schema below `root` (not `root` itself), with the name of the property it sits under. */
function subschemas(root: JsonSchema): { schema: JsonSchema; name: string }[] {
  const found: { schema: JsonSchema; name: string }[] = [];
  const walk = (node: JsonSchema, name: string) => {
    for (const [k, v] of Object.entries(node)) {
      if (SCHEMA_MAPS.includes(k) && isSchema(v)) {
        for (const [p, s] of Object.entries(v)) {
          if (isSchema(s)) found.push({ schema: s, name: p }), walk(s, p);
        }
      } else if (SCHEMA_ONE.includes(k) && isSchema(v)) found.push({ schema: v, name }), walk(v, name);
      else if (SCHEMA_LISTS.includes(k) && Array.isArray(v)) {
        for (const s of v) if (isSchema(s)) found.push({ schema: s, name }), walk(s, name);
      }
    }
  };
  walk(root, "def");
  return found;
}

/**
 * `root` with each sub-schema it holds more than once written once under `$defs` (named after the
 * property it first sits under) and referred to by `$ref`, the longest first, while that makes it shorter.
 *
 * @param root A compact schema without `$defs`.
 * @returns The schema, shared where shorter.
 */
export function shareSubschemas(root: JsonSchema): JsonSchema {
  const defs: JsonSchema = {};
  let body = root;
  for (;;) {
    const seen = new Map<string, { count: number; name: string }>();
    for (const { schema, name } of subschemas(body)) {
      const key = JSON.stringify(schema);
      const s = seen.get(key);
      if (s) s.count++;
      else seen.set(key, { count: 1, name });
    }
    const best = [...seen].filter(([key, s]) => s.count > 1 && saving(key, s.count) > 0)
      .sort(([a, x], [b, y]) => saving(b, y.count) - saving(a, x.count))[0];
    if (!best) break;
    const [key, { name }] = best;
    let id = name;
    for (let n = 2; id in defs; n++) id = `${name}${n}`;
    defs[id] = JSON.parse(key);
    const ref = { $ref: `#/$defs/${id}` };
    const replace = (s: JsonSchema): JsonSchema =>
      JSON.stringify(s) === key ? ref : mapSubschemas(s, replace);
    body = mapSubschemas(body, replace);
    for (const d of Object.keys(defs)) {
      if (d !== id && isSchema(defs[d])) defs[d] = mapSubschemas(defs[d], replace);
    }
  }
  return Object.keys(defs).length ? { ...body, $defs: defs } : body;
}

/** Characters saved by writing a sub-schema (as JSON, `key`) held `count` times once in `$defs`. */
const saving = (key: string, count: number) => count * key.length - count * 24 - (key.length + 24);

/**
 * A tool's zod schema as its listed JSON Schema.
 *
 * @param schema The zod object (a RegisteredTool's `inputSchema` or `outputSchema`).
 * @param io `input` for arguments (descriptions kept), `output` for structuredContent (dropped).
 * @returns The compact JSON Schema.
 */
export function listedSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const full = z.toJSONSchema(schema, { target: "draft-7", io }) as JsonSchema;
  return shareSubschemas(compactSchema(full, io === "input"));
}

/**
 * The `tools` of a `tools/list` answer: what the SDK's own handler lists, with compact schemas.
 *
 * @param tools The registered tools, by name.
 * @returns One entry per enabled tool, in `tools`' order.
 */
export function listedTools(tools: ToolSet): Tool[] {
  return Object.entries(tools).filter(([, t]) => t.enabled).map(([name, t]) => {
    return {
      name,
      title: t.title,
      description: t.description,
      inputSchema: (t.inputSchema
        ? listedSchema(t.inputSchema as z.ZodType, "input")
        : { type: "object", properties: {} }) as Tool["inputSchema"],
      ...(t.outputSchema
        ? { outputSchema: listedSchema(t.outputSchema as z.ZodType, "output") as Tool["outputSchema"] }
        : {}),
      annotations: t.annotations,
      ...(t.execution && !(Object.keys(t.execution).length === 1 && t.execution.taskSupport === "forbidden")
        ? { execution: t.execution }
        : {}),
      _meta: t._meta,
    };
  });
}

/**
 * Makes `server` answer `tools/list` with {@linkcode listedTools}, in place of the SDK's handler (call it
 * after the tools are registered: the SDK sets its own on the first `registerTool`).
 *
 * @param server The MCP server.
 * @param tools Its registered tools, by name.
 */
export function listToolsCompactly(server: McpServer, tools: ToolSet): void {
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools(tools) }));
}
