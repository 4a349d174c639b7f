/**
 * Issue #25, item 4: no function in `src/` over a screen ({@linkcode FUNCTION_LINES} lines) and no class over
 * {@linkcode CLASS_LINES}, counted by the TypeScript parser (`scripts/function_sizes.ts`); and the count
 * itself sees a long function (one made up here).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { CLASS_LINES, FUNCTION_LINES, longBlocks, longBlocksUnder } from "../scripts/function_sizes.ts";

Deno.test("function sizes: no function in src/ over 80 lines, no class over 300", () => {
  const long = longBlocksUnder(fileURLToPath(new URL("../src/", import.meta.url)))
    .map((b) => `${b.lines} ${b.file}:${b.line} ${b.kind} ${b.name}`);
  assert.deepEqual(long, []);
});

Deno.test("function sizes: the count sees a function one line over, and a class one line over", () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
  const fn = `function f() {\n${body(FUNCTION_LINES - 2)}\n}\nfunction g() {\n${
    body(FUNCTION_LINES - 1)
  }\n}\n`;
  assert.deepEqual(longBlocks("x.ts", fn).map((b) => [b.name, b.lines]), [["g", FUNCTION_LINES + 1]]);
  const methods = Array.from({ length: CLASS_LINES - 2 }, (_, i) => `  m${i}() {}`).join("\n");
  const cls = `class A {\n${methods}\n}\nclass B {\n${methods}\n  extra() {}\n}\n`;
  assert.deepEqual(longBlocks("y.ts", cls).map((b) => [b.name, b.lines]), [["B", CLASS_LINES + 1]]);
});
