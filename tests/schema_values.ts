/**
 * Values to tell two JSON Schemas apart (issue #24: the compact `tools/list` schemas must accept exactly
 * what zod's did): from a schema, one valid value, and at every place in it the values that test that
 * place's keywords — each other JSON type, null, each enum value and one outside, the numbers and lengths
 * at and past each bound, a fraction for an integer, a string off its pattern, an object with a key
 * missing or one too many, an empty and a longer array. Each is the valid value with that one place
 * changed, so a schema that refuses it refuses it there.
 *
 * Integers past ±(2^53 − 1) are left out: zod's schema bounds them (a JavaScript artefact,
 * `src/server/tool_list.ts`); `tool_list_test.ts` shows that difference on its own.
 *
 * @module
 */

import type { Json, JsonSchema } from "../src/server/tool_list.ts";

const isObj = (v: Json | undefined): v is JsonSchema =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A string of `n` characters that matches `pattern` when it is the template_id pattern, else "a"s. */
function text(n: number, pattern?: string): string {
  if (pattern === "^[0-9a-f]{16}$") return "0123456789abcdef";
  return "a".repeat(n);
}

/**
 * One value `s` accepts (when it has one of the forms zod makes: no `$ref`, `not` or `allOf`).
 *
 * @param s A JSON Schema from `z.toJSONSchema`.
 * @returns The value.
 */
export function validValue(s: JsonSchema): Json {
  if (Array.isArray(s.anyOf)) return validValue(s.anyOf[0] as JsonSchema);
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "object": {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, Json> = Object.fromEntries(
        Object.entries(props).map(([k, p]) => [k, validValue(p)]),
      );
      if (!s.properties && isObj(s.additionalProperties)) out.k = validValue(s.additionalProperties);
      return out;
    }
    case "array":
      return isObj(s.items) ? [validValue(s.items)] : [];
    case "string":
      return text(Math.max(1, Number(s.minLength ?? 1)), s.pattern as string | undefined);
    case "integer":
      return typeof s.minimum === "number" && s.minimum > Number.MIN_SAFE_INTEGER ? s.minimum : 0;
    case "number":
      return 0.5;
    case "boolean":
      return true;
    case "null":
      return null;
  }
  return null;
}

/** The values that test the keywords of `s` at one place (valid and not). */
function probes(s: JsonSchema): Json[] {
  const out: Json[] = [null, true, 0, 1.5, -1, "", "x", [], {}, validValue(s)];
  if (Array.isArray(s.anyOf)) { for (const b of s.anyOf) if (isObj(b)) out.push(...probes(b)); }
  if (Array.isArray(s.enum)) out.push(...s.enum, "NOT_ONE_OF_THEM", "info");
  for (const k of ["minimum", "maximum"]) {
    const v = s[k];
    if (typeof v === "number" && Math.abs(v) < Number.MAX_SAFE_INTEGER) out.push(v - 1, v, v + 1, v + 0.5);
  }
  for (const k of ["minLength", "maxLength"]) {
    const v = s[k];
    if (typeof v === "number") out.push(text(Math.max(0, v - 1)), text(v), text(v + 1));
  }
  if (typeof s.pattern === "string") out.push("0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0");
  if (isObj(s.items)) out.push([validValue(s.items), validValue(s.items)], [validValue(s.items), "x"]);
  const base = validValue(s);
  if (isObj(base)) {
    out.push({ ...base, unknown_key: 1 });
    for (const k of Object.keys(base)) {
      const { [k]: _, ...rest } = base;
      out.push(rest);
    }
  }
  return out;
}

/** `root` with the value at `path` (keys and indexes) replaced by `v`, or removed when `v` is undefined. */
function replaced(root: Json, path: (string | number)[], v: Json | undefined): Json {
  if (path.length === 0) return v === undefined ? null : v;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[head as number] = replaced(copy[head as number], rest, v);
    return copy;
  }
  const copy = { ...(root as Record<string, Json>) };
  if (rest.length === 0 && v === undefined) delete copy[head as string];
  else copy[head as string] = replaced(copy[head as string], rest, v);
  return copy;
}

/**
 * The values to try against `schema`: its valid value, and that value with each place changed by each
 * of that place's probes (and each optional field left out).
 *
 * @param schema A JSON Schema from `z.toJSONSchema` (an object schema).
 * @returns The values (hundreds to a few thousand).
 */
export function schemaProbes(schema: JsonSchema): Json[] {
  const base = validValue(schema);
  const out: Json[] = [base];
  const walk = (s: JsonSchema, path: (string | number)[]) => {
    for (const p of probes(s)) out.push(replaced(base, path, p));
    const branch = Array.isArray(s.anyOf) ? s.anyOf.find((b) => isObj(b) && validValue(b) !== null) : s;
    if (!isObj(branch)) return;
    const props = (branch.properties ?? {}) as Record<string, JsonSchema>;
    for (const [k, p] of Object.entries(props)) {
      out.push(replaced(base, [...path, k], undefined));
      walk(p, [...path, k]);
    }
    if (isObj(branch.items)) walk(branch.items, [...path, 0]);
    if (!branch.properties && isObj(branch.additionalProperties)) {
      walk(branch.additionalProperties, [...path, "k"]);
    }
  };
  walk(schema, []);
  return out;
}
