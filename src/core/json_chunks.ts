/**
 * JSON text in pieces (issue #22: a stopped `log_patterns` call saved its miner as one JSON string of
 * ~10 M characters, 20 MB for text outside Latin-1, held beside the state it was made from).
 *
 * @module
 */

/**
 * `JSON.stringify(value)` as a sequence of pieces whose concatenation is exactly that text, for plain
 * data (objects, arrays, strings, numbers, booleans, null; a value with `toJSON` is one piece), so a
 * writer can encode it piece by piece without the whole text ever being one string. Objects and arrays
 * `depth` levels down are split into their members; deeper ones are one piece each.
 *
 * @param value The data (as `JSON.parse` gives back: no boxed primitives, no BigInt).
 * @param depth How many levels of objects and arrays are split (default 3).
 * @returns The pieces, in order.
 * @throws {TypeError} what `JSON.stringify` throws (a cycle, a BigInt), when the pieces are taken.
 * @example
 * ```ts
 * import { jsonChunks } from "./json_chunks.ts";
 * const v = { a: [1, { b: "x" }], c: undefined, d: null };
 * console.assert([...jsonChunks(v)].join("") === JSON.stringify(v));
 * ```
 */
export function* jsonChunks(value: unknown, depth = 3): Generator<string> {
  const split = depth > 0 && value !== null && typeof value === "object" &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function";
  if (!split) {
    yield JSON.stringify(value);
    return;
  }
  const skipped = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";
  if (Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ",";
      const v = value[i];
      if (skipped(v)) yield "null";
      else yield* jsonChunks(v, depth - 1);
    }
    yield "]";
    return;
  }
  yield "{";
  let first = true;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (skipped(v)) continue;
    yield `${first ? "" : ","}${JSON.stringify(k)}:`;
    first = false;
    yield* jsonChunks(v, depth - 1);
  }
  yield "}";
}
