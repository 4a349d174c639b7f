import assert from "node:assert/strict";
import { ToolError } from "../core/errors.ts";
import { guarded, okResult } from "./outcome.ts";

Deno.test("guarded passes results through and turns a ToolError into an isError result with its kind", async () => {
  const lines: string[] = [];
  const ok = guarded("t", (l) => lines.push(l), () => Promise.resolve(okResult({ a: 1 }, "fine")));
  assert.deepEqual(await ok({}), { content: [{ type: "text", text: "fine" }], structuredContent: { a: 1 } });
  const expected = guarded("t", (l) => lines.push(l), () => {
    throw new ToolError("not_found", "log x not found");
  });
  assert.deepEqual(await expected({}), {
    content: [{ type: "text", text: "not_found: log x not found" }],
    isError: true,
  });
  assert.deepEqual(lines, []);
});

Deno.test("guarded turns an unexpected exception into a generic error with an id; the stack goes to stderr", async () => {
  const lines: string[] = [];
  const boom = guarded("log_tail", (l) => lines.push(l), () => Promise.reject(new Error("secret detail")));
  const r = await boom({});
  assert.equal(r.isError, true);
  const id = r.content[0].text.match(/error id ([0-9a-f]{8})/)?.[1];
  assert.ok(id, r.content[0].text);
  assert.doesNotMatch(r.content[0].text, /secret detail/);
  assert.equal(lines.length, 1);
  assert.match(
    lines[0],
    new RegExp(`log_tail failed unexpectedly \\(error id ${id}\\): Error: secret detail\\n\\s+at `),
  );
});

Deno.test("guarded masks a secret an expected failure's message echoes (a pattern, a name), as the trace masks arguments", async () => {
  const failing = guarded("t", () => {}, () => {
    throw new ToolError("invalid_pattern", "the pattern '(password=hunter2' is malformed: missing )");
  });
  const r = await failing({});
  assert.equal(r.content[0].text, "invalid_pattern: the pattern '(password=***' is malformed: missing )");
  assert.ok(!r.content[0].text.includes("hunter2"));
});
