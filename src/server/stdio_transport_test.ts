import assert from "node:assert/strict";
import {
  countValues,
  guessIdAndMethod,
  MAX_FRAME_BYTES,
  type RefusedFrame,
  StdioFrameTransport,
  wellFormed,
} from "./stdio_transport.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A transport over in-memory streams: feed it chunks, read what it wrote. */
function pipe(opts: { maxFrameBytes?: number; maxFrameValues?: number } = {}) {
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const input = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
  let written = "";
  const output = new WritableStream<Uint8Array>({ write: (b) => void (written += dec.decode(b)) });
  const t = new StdioFrameTransport({ input, output, ...opts });
  // deno-lint-ignore no-explicit-any
  const got: any[] = [];
  const refused: RefusedFrame[] = [];
  const errors: string[] = [];
  let closed = 0;
  t.onmessage = (m: unknown) => void got.push(m);
  t.onrefused = (f) => void refused.push(f);
  t.onerror = (e) => void errors.push(e.message);
  t.onclose = () => void closed++;
  return {
    t,
    got,
    refused,
    errors,
    closed: () => closed,
    out: () => written.split("\n").filter(Boolean).map((l) => JSON.parse(l)),
    raw: () => written,
    push: (s: string | Uint8Array) => feed.enqueue(typeof s === "string" ? enc.encode(s) : s),
    end: () => feed.close(),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 10));
const req = (id: number | string, method = "ping") => JSON.stringify({ jsonrpc: "2.0", id, method });

Deno.test("frames split anywhere across chunks, several in one chunk, CRLF, blank lines: each parsed once", async () => {
  const p = pipe();
  await p.t.start();
  const all = `${req(1)}\r\n\n${req(2)}\n${req("x")}\n`;
  // Byte by byte for the first frame, then the rest in one chunk.
  const cut = req(1).length + 2;
  for (const ch of all.slice(0, cut)) p.push(ch);
  p.push(all.slice(cut));
  await tick();
  assert.deepEqual(p.got.map((m) => m.id), [1, 2, "x"]);
  assert.deepEqual(p.out(), []);
  p.end();
  await tick();
  assert.equal(p.closed(), 1);
});

Deno.test("a frame over the cap is answered with -32600 and its id, never buffered whole; the next is served", async () => {
  const p = pipe({ maxFrameBytes: 1000 });
  await p.t.start();
  // As the SDK's client writes a request: the id is the last member.
  const big = JSON.stringify({ method: "tools/call", params: { name: "log_tail", x: "a".repeat(5000) } });
  const frame = big.slice(0, -1) + ',"jsonrpc":"2.0","id":7}';
  for (let i = 0; i < frame.length; i += 300) p.push(frame.slice(i, i + 300));
  p.push("\n" + req(8) + "\n");
  await tick();
  assert.deepEqual(p.out(), [{
    jsonrpc: "2.0",
    id: 7,
    error: {
      code: -32600,
      message: `Invalid Request: a frame of ${frame.length} bytes is over logpeek's limit of 1000 bytes ` +
        "for one message; it was not read",
    },
  }]);
  assert.deepEqual(p.refused.map((r) => [r.id, r.method, r.bytes]), [[7, "tools/call", frame.length]]);
  assert.deepEqual(p.got.map((m) => m.id), [8]);
  assert.equal(MAX_FRAME_BYTES, 8 * 1024 * 1024);
});

Deno.test("not JSON: -32700 with id null and no echo of the line; not JSON-RPC: -32600 with its id", async () => {
  const p = pipe();
  await p.t.start();
  p.push("{nope password=hunter2\n");
  p.push(JSON.stringify({ id: 3, method: 5 }) + "\n");
  p.push(JSON.stringify([1, 2]) + "\n");
  await tick();
  assert.deepEqual(p.out(), [
    { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the line is not JSON" } },
    {
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" },
    },
    {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" },
    },
  ]);
  assert.doesNotMatch(p.raw(), /hunter2/);
  assert.deepEqual(p.got, []);
});

Deno.test("a frame of too many JSON values is refused unparsed, with its id; strings do not count", async () => {
  const p = pipe({ maxFrameValues: 100 });
  await p.t.start();
  const keys = Array.from({ length: 200 }, (_, i) => `"k${i}":1`).join(",");
  p.push(`{"jsonrpc":"2.0","id":"a1","method":"tools/call","params":{"arguments":{${keys}}}}\n`);
  p.push(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping", params: { s: ",[{".repeat(500) } }) + "\n");
  await tick();
  assert.equal(p.out().length, 1);
  assert.equal(p.out()[0].id, "a1");
  assert.equal(p.out()[0].error.code, -32600);
  assert.match(p.out()[0].error.message, /more than 100 JSON values/);
  assert.deepEqual(p.got.map((m) => m.id), [2]);
  assert.equal(countValues(enc.encode('{"a":[1,2,{"b":"x,\\",["}]}'), 99), 5);
});

Deno.test("guessIdAndMethod reads the outermost id at the end or after simple members at the start, else null", () => {
  assert.deepEqual(
    guessIdAndMethod('{"method":"tools/call","params":{"na', 'aaa"}},"jsonrpc":"2.0","id":42}'),
    {
      id: 42,
      method: "tools/call",
    },
  );
  assert.deepEqual(guessIdAndMethod('{"jsonrpc":"2.0","id":"r-1","method":"ping","params":{"x":"', "zzz"), {
    id: "r-1",
    method: "ping",
  });
  // An "id" inside params is not the request's.
  assert.deepEqual(guessIdAndMethod('{"params":{"id":5,"x":"', 'aaa"}}'), { id: null, method: null });
  assert.deepEqual(guessIdAndMethod("xxxx", 'a\\"id":5}'), { id: null, method: null });
});

Deno.test("an answer that cannot be serialized becomes a -32603 error with its id; the request is answered", async () => {
  const p = pipe();
  await p.t.start();
  // A value JSON cannot hold (a BigInt), as a handler's bug might return.
  await p.t.send({ jsonrpc: "2.0", id: 9, result: { content: [], n: 1n } });
  await p.t.send({ jsonrpc: "2.0", id: 10, result: {} });
  const out = p.out();
  assert.equal(out.length, 2);
  assert.equal(out[0].id, 9);
  assert.equal(out[0].error.code, -32603);
  assert.match(out[0].error.message, /^Internal error: the answer could not be serialized/);
  assert.deepEqual(out[1], { jsonrpc: "2.0", id: 10, result: {} });
  assert.equal(p.errors.length, 1);
});

Deno.test("wellFormed: lone surrogates in values and keys become U+FFFD, pairs stay, untouched values are not copied", () => {
  const ok = { a: ["😀", 1, null, { b: "x" }] };
  assert.equal(wellFormed(ok), ok);
  assert.deepEqual(wellFormed({ t: "a\ud800", "k\udc00": ["😀\ud83d", 2] }), {
    t: "a\ufffd",
    "k\ufffd": ["😀\ufffd", 2],
  });
});

Deno.test("send writes a lone surrogate as U+FFFD: every line on stdout is well-formed", async () => {
  const chunks: Uint8Array[] = [];
  const t = new StdioFrameTransport({
    input: new ReadableStream({ start: (c) => c.close() }),
    output: new WritableStream({ write: (c) => void chunks.push(c) }),
  });
  t.oninputend = () => {};
  await t.start();
  await t.send({
    jsonrpc: "2.0",
    id: 1,
    result: { content: [{ type: "text", text: "Tool x\ud800y not found 😀" }] },
  });
  const line = dec.decode(chunks[0]);
  assert.equal(JSON.parse(line).result.content[0].text, "Tool x\ufffdy not found 😀");
  assert.ok(!line.includes("\\ud800"));
  await t.close();
});
