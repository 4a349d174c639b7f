/**
 * Writes `docs/tool_schemas.md`: every tool, what it does in full, and every argument and every
 * structuredContent field with its whole description — all from the tools' own zod schemas (their
 * `.describe()`, and `.meta({ details })` where the listed description is short), so the page cannot drift
 * from the server. `tools/list` carries short descriptions and no output field descriptions (issue #24:
 * it is read at the start of every agent session); this page carries the rest.
 *
 * Usage: `deno run --allow-read --allow-write=docs scripts/tool_docs.ts` (writes the page);
 * `--check` exits 1 when the page is not what this script makes (`tests/tool_docs_test.ts` checks too).
 *
 * @module
 */

import { fileURLToPath } from "node:url";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/mcp.d.ts"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { DEFAULT_LIMITS, type Limits } from "../src/core/config.ts";
import { registerTools } from "../src/server/server.ts";
import type { JsonSchema } from "../src/server/tool_list.ts";
import * as logFiles from "../src/tools/log_files.ts";
import * as logLevels from "../src/tools/log_levels.ts";
import * as logPatterns from "../src/tools/log_patterns.ts";
import * as logSearch from "../src/tools/log_search.ts";
import * as logTail from "../src/tools/log_tail.ts";
import * as readArtifact from "../src/tools/read_artifact.ts";

/** Where the page is. */
export const TOOL_SCHEMAS_MD = fileURLToPath(new URL("../docs/tool_schemas.md", import.meta.url));

/** Each tool's full description, by name. */
const TOOL_DOCS: Record<string, (limits: Readonly<Limits>) => string> = {
  log_files: logFiles.toolDocs,
  log_tail: logTail.toolDocs,
  log_search: logSearch.toolDocs,
  log_levels: logLevels.toolDocs,
  log_patterns: logPatterns.toolDocs,
  read_artifact: readArtifact.toolDocs,
};

/** One row of a field table. */
interface Row {
  field: string;
  type: string;
  required: boolean;
  text: string;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** A schema's type in a few words: `integer 1..200`, `string ≤ 2000`, `"a" | "b" | null`, `array of string`. */
function typeText(s: JsonSchema): string {
  if (Array.isArray(s.anyOf)) return (s.anyOf as JsonSchema[]).map(typeText).join(" | ");
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const types = Array.isArray(s.type) ? s.type : [s.type ?? "any"];
  return types.map((t) => {
    if (t === "array") return `array of ${s.items ? typeText(s.items as JsonSchema) : "any"}`;
    if (t === "object" && s.additionalProperties && typeof s.additionalProperties === "object") {
      return `object of ${typeText(s.additionalProperties as JsonSchema)}`;
    }
    if (t === "integer" || t === "number") {
      const lo = s.minimum === -SAFE ? undefined : s.minimum, hi = s.maximum === SAFE ? undefined : s.maximum;
      return lo === undefined && hi === undefined ? t : `${t} ${lo ?? ""}..${hi ?? ""}`;
    }
    if (t === "string") {
      const len = s.minLength !== undefined || s.maxLength !== undefined
        ? ` (${s.minLength ?? 0}..${s.maxLength ?? ""} characters)`
        : "";
      return `string${len}${s.pattern ? ` matching \`${s.pattern}\`` : ""}`;
    }
    return String(t);
  }).join(" | ");
}

/** The object schema inside `s`, if any: itself, an array's items, or a nullable's object side. */
function objectIn(s: JsonSchema): JsonSchema | undefined {
  if (s.properties) return s;
  if (s.items) return objectIn(s.items as JsonSchema);
  if (Array.isArray(s.anyOf)) return (s.anyOf as JsonSchema[]).map(objectIn).find((o) => o);
  return undefined;
}

/** The rows of an object schema's fields, nested fields as `a.b` and `a[].b`, depth first. */
function rows(s: JsonSchema, prefix = ""): Row[] {
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = (s.required ?? []) as string[];
  return Object.entries(props).flatMap(([name, p]) => {
    const text = String(p.details ?? p.description ?? "") +
      (p.default !== undefined ? ` (default ${JSON.stringify(p.default)})` : "");
    const row = { field: prefix + name, type: typeText(p), required: required.includes(name), text };
    const inner = objectIn(p);
    const below = inner && !(p.additionalProperties && typeof p.additionalProperties === "object")
      ? rows(inner, `${prefix}${name}${p.type === "array" || p.items ? "[]" : ""}.`)
      : [];
    return [row, ...below];
  });
}

/** A Markdown table of rows; `|` in a cell escaped. */
function table(rs: Row[]): string {
  const cell = (t: string) => t.replace(/\|/g, "\\|").replace(/\n/g, " ");
  return "| field | type | required | meaning |\n| --- | --- | --- | --- |\n" +
    rs.map((r) => `| \`${r.field}\` | ${cell(r.type)} | ${r.required ? "yes" : ""} | ${cell(r.text)} |`)
      .join("\n") +
    "\n";
}

/**
 * The page, made from the tools as `createServer` registers them (with the default limits).
 *
 * @returns The Markdown text of `docs/tool_schemas.md`.
 */
export function toolSchemasDoc(): string {
  const server = new McpServer({ name: "logpeek-docs", version: "0" });
  const tools = registerTools(server, {
    limits: { ...DEFAULT_LIMITS },
    dispatch: () => Promise.reject(new Error("the docs run no tool")),
  });
  let out = "# logpeek tools: every argument and every field\n\n" +
    "Made by `scripts/tool_docs.ts` from the tools' zod schemas (`src/tools/*.ts`); do not edit by hand: " +
    "run `deno run --allow-read --allow-write=docs scripts/tool_docs.ts`. `tests/tool_docs_test.ts` fails " +
    "when this page is not what the script makes. Numbers are the defaults (`LOGPEEK_*` change them).\n\n" +
    "`tools/list` gives each tool's short description, its arguments with short descriptions, and its " +
    "output schema without descriptions (`src/server/tool_list.ts`); the schemas there accept exactly the " +
    "values these do.\n";
  for (const [name, t] of Object.entries(tools)) {
    const input = z.toJSONSchema(t.inputSchema as z.ZodType, {
      target: "draft-7",
      io: "input",
    }) as JsonSchema;
    const output = z.toJSONSchema(t.outputSchema as z.ZodType, {
      target: "draft-7",
      io: "output",
    }) as JsonSchema;
    out += `\n## ${name}: ${t.title}\n\n${TOOL_DOCS[name](DEFAULT_LIMITS)}\n\n` +
      `Listed as: ${t.description}\n\n### Arguments\n\n${table(rows(input))}\n` +
      `### structuredContent\n\n${table(rows(output))}`;
  }
  return out;
}

if (import.meta.main) {
  const page = toolSchemasDoc();
  if (Deno.args.includes("--check")) {
    const now = await Deno.readTextFile(TOOL_SCHEMAS_MD).catch(() => "");
    if (now !== page) {
      console.error(`${TOOL_SCHEMAS_MD} is not current: run scripts/tool_docs.ts`);
      Deno.exit(1);
    }
  } else {
    await Deno.mkdir(new URL("../docs", import.meta.url), { recursive: true });
    await Deno.writeTextFile(TOOL_SCHEMAS_MD, page);
    console.error(`wrote ${TOOL_SCHEMAS_MD} (${page.length} characters)`);
  }
}
