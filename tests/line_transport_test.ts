import assert from "node:assert/strict";
import { LineSplitter } from "./line_transport.ts";
import { connect } from "./mcp_client.ts";
import { fileURLToPath } from "node:url";

Deno.test("LineSplitter: the same lines as split('\\n') at every chunk size, CRLF and multi-byte UTF-8 across chunks", () => {
  const text = '{"a":"é"}\r\n{"b":"' + "x".repeat(300) + '"}\n\n{"c":"😀 ✓"}\n';
  const bytes = new TextEncoder().encode(text);
  const want = text.split("\n").slice(0, -1).map((l) => l.replace(/\r$/, ""));
  for (const size of [1, 2, 3, 7, 64, bytes.length]) {
    const got: string[] = [];
    const s = new LineSplitter((l) => got.push(l));
    for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size));
    assert.deepEqual(got, want, `chunks of ${size}`);
  }
});

Deno.test({
  name: "LineStdioTransport: a session over it lists the same tools and tails the same lines as the SDK's",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const demo = fileURLToPath(new URL("../fixtures/demo", import.meta.url));
    const answers = [];
    for (const lines of [false, true]) {
      await using s = await connect([demo], {}, [], { lines });
      const tools = (await s.client.listTools()).tools.map((t: { name: string }) => t.name).sort();
      const tail = (await s.call("log_tail", { file: "app.log", lines: 3 })).structuredContent;
      answers.push({ tools, tail });
      assert.ok(s.pid !== null && s.pid > 0);
    }
    assert.equal(answers[1].tail.lines.length, 3);
    assert.deepEqual(answers[1], answers[0]);
  },
});
