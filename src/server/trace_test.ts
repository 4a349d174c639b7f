import assert from "node:assert/strict";
import {
  cutErrorText,
  maskAndCut,
  MAX_ERROR_CHARS,
  MAX_HELD_PER_ID,
  redactArgs,
  type TraceRecord,
  TracingTransport,
} from "./trace.ts";
import type { RefusedFrame } from "./stdio_transport.ts";
import { loadScaled } from "../../tests/fixtures.ts";

const BEGIN = "-----BEGIN RSA PRIVATE KEY-----";
const BODY = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0";

/** Times `f` in ms. */
function timed<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
}

Deno.test("maskAndCut: 4 MiB of repeated BEGIN lines is cut first and masked in bounded time", () => {
  const big = BEGIN.repeat(Math.ceil(4 * 1024 * 1024 / BEGIN.length));
  const [out, ms] = timed(() => maskAndCut(big, 200));
  assert.equal(out, `${BEGIN}***…[cut, ${big.length} chars in all]`);
  assert.ok(ms < 100, `${ms} ms`);
  const [, ms1] = timed(() => maskAndCut(big.slice(0, 1024 * 1024), 200));
  assert.ok(ms1 < 100, `${ms1} ms`);
});

Deno.test("maskAndCut: a secret across the cut is masked whole; a key cut before its END shows no body", () => {
  const across = "a".repeat(190) + " password=hunter2hunter2 next";
  assert.equal(maskAndCut(across, 200), "a".repeat(190) + " password=…[cut, 219 chars in all]");
  assert.doesNotMatch(maskAndCut(across, 200), /hunt/);
  // A key whose END is far beyond the window (a GCP service-account line cut at 1000 characters).
  const gcp = `{"type":"service_account","private_key":"${BEGIN}\\n${
    BODY.repeat(60)
  }\\n-----END RSA PRIVATE KEY-----"}`;
  const cut = maskAndCut(gcp, 200);
  assert.doesNotMatch(cut, /MIIE|u1SU1/);
  assert.ok(cut.length < 260);
  // A BEGIN line with no END at all, short enough not to be cut.
  assert.equal(maskAndCut(`key ${BEGIN}${BODY}`, 200), `key ${BEGIN}***`);
  // A long token run reaching past the window is masked from its start.
  const run = "id=" + BODY.repeat(60);
  assert.equal(maskAndCut(run, 200), `id=***…[cut, ${run.length} chars in all]`);
  const dull = "id=" + "A1b2".repeat(1000);
  assert.equal(maskAndCut(dull, 200), `${dull.slice(0, 200)}…[cut, ${dull.length} chars in all]`);
  // Ordinary words are only cut.
  const words = "the quick brown fox ".repeat(250);
  assert.equal(maskAndCut(words, 200), `${words.slice(0, 200)}…[cut, 5000 chars in all]`);
  assert.equal(maskAndCut("x".repeat(300), 200), "x".repeat(200) + "…[cut, 300 chars in all]");
});

Deno.test("redactArgs: 10,000-deep nesting stops at depth 8 with a marker, without recursion to the bottom", () => {
  // deno-lint-ignore no-explicit-any
  let deep: any = "bottom";
  for (let i = 0; i < 10_000; i++) deep = i % 2 ? [deep] : { k: deep };
  const [out, ms] = timed(() => redactArgs({ file: deep }));
  let levels = 0;
  // deno-lint-ignore no-explicit-any
  for (let v: any = out; typeof v === "object"; v = Array.isArray(v) ? v[0] : Object.values(v)[0]) levels++;
  assert.equal(levels, 8);
  assert.equal(JSON.stringify(out), '{"file":[{"k":[{"k":[{"k":["…[nested deeper than 8]"]}]}]}]}');
  assert.ok(ms < 50, `${ms} ms`);
});

Deno.test("redactArgs: 500,000 keys keep 50 and a count; long keys and secret key names; bounded size", () => {
  const many: Record<string, number> = {};
  for (let i = 0; i < 500_000; i++) many[`k${i}`] = i;
  const [out, ms] = timed(() => redactArgs(many) as Record<string, unknown>);
  const keys = Object.keys(out);
  assert.equal(keys.length, 51);
  assert.deepEqual(keys.slice(0, 3), ["k0", "k1", "k2"]);
  assert.equal(out["…"], "[499950 more keys]");
  // 1 s on a machine with a core free (it took 1.3 s at a load of 10 on 2 cores): scaled by the load.
  assert.ok(ms < loadScaled(1000), `${ms} ms`);
  const odd = JSON.parse(
    `{"${"K".repeat(5_000_000)}":1,"db_password":"hunter2","__proto__":"p","list":${
      JSON.stringify(Array.from({ length: 120 }, (_, i) => i))
    }}`,
  );
  const r = redactArgs(odd) as Record<string, unknown>;
  assert.deepEqual(Object.keys(r), [
    "K".repeat(100) + "…[cut, 5000000 chars in all]",
    "db_password",
    "__proto__",
    "list",
  ]);
  assert.equal(r.db_password, "***");
  assert.equal(Object.getPrototypeOf(r), Object.prototype);
  assert.equal((r.list as unknown[]).length, 51);
  assert.equal((r.list as unknown[])[50], "…[70 more items]");
});

Deno.test("redactArgs: all of one call's arguments stay within about 8000 characters", () => {
  const wide = Array.from({ length: 50 }, () => Array.from({ length: 50 }, () => "w ".repeat(150)));
  const s = JSON.stringify(redactArgs({ wide }));
  assert.ok(s.length > 7000 && s.length < 9000, `${s.length}`);
  assert.match(s, /"…\[\d+ more items\]"/);
});

/** A transport that records what is sent and lets a test deliver incoming messages. */
class FakeInner {
  onclose?: () => void;
  onerror?: (e: Error) => void;
  // deno-lint-ignore no-explicit-any
  onmessage?: (m: any, extra?: any) => void;
  onrefused?: (f: RefusedFrame) => void;
  // deno-lint-ignore no-explicit-any
  sent: any[] = [];
  start() {
    return Promise.resolve();
  }
  // deno-lint-ignore no-explicit-any
  send(m: any) {
    this.sent.push(m);
    return Promise.resolve();
  }
  close() {
    this.onclose?.();
    return Promise.resolve();
  }
}

/** A TracingTransport over a FakeInner, with what the server side received and the records. */
async function traced(write?: (r: TraceRecord) => void) {
  const inner = new FakeInner();
  const records: TraceRecord[] = [];
  const warnings: string[] = [];
  const t = new TracingTransport(inner, write ?? ((r) => void records.push(r)), (l) => void warnings.push(l));
  // deno-lint-ignore no-explicit-any
  const delivered: any[] = [];
  t.onmessage = (m: unknown) => void delivered.push(m);
  await t.start();
  const call = (id: number | string, name: string, args: Record<string, unknown> = {}) =>
    inner.onmessage!({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
  const answer = (id: number | string, text: string) =>
    t.send({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });
  return { inner, t, records, warnings, delivered, call, answer };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

Deno.test("TracingTransport: two calls with one id are served one after the other, each traced with its own trace_id", async () => {
  const x = await traced();
  x.call(1, "log_tail", { file: "a.log" });
  x.call(1, "log_levels", { file: "b.log" });
  assert.deepEqual(x.delivered.map((m) => m.params.name), ["log_tail"]);
  await x.answer(1, "tail answer");
  await tick();
  assert.deepEqual(x.delivered.map((m) => m.params.name), ["log_tail", "log_levels"]);
  await x.answer(1, "levels answer");
  assert.deepEqual(x.records.map((r) => [r.tool, (r.args as { file: string }).file, r.out_chars]), [
    ["log_tail", "a.log", 11],
    ["log_levels", "b.log", 13],
  ]);
  const ids = x.inner.sent.map((m) => m.result._meta.trace_id);
  assert.deepEqual(ids, x.records.map((r) => r.trace_id));
  assert.notEqual(ids[0], ids[1]);
});

Deno.test("TracingTransport: a cancelled call is traced and the next with its id goes in; too many held are refused", async () => {
  const x = await traced();
  x.call(5, "log_search", { text: "a" });
  x.call(5, "log_tail");
  x.inner.onmessage!({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 5, reason: "x" },
  });
  await tick();
  assert.deepEqual(x.records.map((r) => [r.tool, r.cancelled, r.error?.kind]), [[
    "log_search",
    true,
    "cancelled",
  ]]);
  assert.deepEqual(x.delivered.map((m) => m.method), ["tools/call", "notifications/cancelled", "tools/call"]);
  for (let i = 0; i < MAX_HELD_PER_ID + 1; i++) x.call(5, "log_files");
  assert.equal(x.inner.sent.length, 1);
  assert.equal(x.inner.sent[0].id, 5);
  assert.equal(x.inner.sent[0].error.code, -32600);
  assert.equal(x.records.at(-1)!.error!.kind, "protocol_error");
  // The connection closes: the calls still open are traced as unanswered.
  await x.t.close();
  const unanswered = x.records.filter((r) => r.error?.kind === "unanswered");
  assert.equal(unanswered.length, 1 + MAX_HELD_PER_ID);
});

Deno.test("TracingTransport: a trace writer that throws never keeps an answer back; errors the SDK made are cut", async () => {
  const x = await traced(() => {
    throw new Error("disk on fire");
  });
  const name = "t".repeat(5_000_000);
  x.call(2, name);
  await x.t.send({
    jsonrpc: "2.0",
    id: 2,
    result: { content: [{ type: "text", text: `MCP error -32602: Tool ${name} not found` }], isError: true },
  });
  assert.equal(x.inner.sent.length, 1);
  const text: string = x.inner.sent[0].result.content[0].text;
  assert.equal(
    text,
    `MCP error -32602: Tool ${"t".repeat(MAX_ERROR_CHARS - 23)}…[cut, 5000033 chars in all]`,
  );
  assert.match(x.warnings[0], /disk on fire/);
  await x.t.send({ jsonrpc: "2.0", id: 3, error: { code: -32601, message: "m".repeat(3_000_000) } });
  assert.ok(x.inner.sent[1].error.message.length < MAX_ERROR_CHARS + 40);
});

Deno.test("TracingTransport: a 5 MB tool name gives a bounded trace line; refused frames that may be calls are traced", async () => {
  const x = await traced();
  x.call(1, "n".repeat(5_000_000), { ["k".repeat(1_000_000)]: "v".repeat(1_000_000) });
  await x.answer(1, "MCP error -32602: Tool nnn… not found");
  x.inner.onrefused!({
    id: 9,
    code: -32600,
    message: "Invalid Request: too big",
    bytes: 1e7,
    method: "tools/call",
  });
  x.inner.onrefused!({ id: null, code: -32700, message: "Parse error", bytes: 10, method: "initialize" });
  assert.equal(x.records.length, 2);
  assert.ok(JSON.stringify(x.records[0]).length < 1000, `${JSON.stringify(x.records[0]).length}`);
  assert.equal(x.records[0].tool, "n".repeat(128) + "…[cut, 5000000 chars in all]");
  assert.deepEqual([x.records[1].tool, x.records[1].error?.kind], ["(unread frame)", "invalid_request"]);
});

Deno.test("maskAndCut and cutErrorText cut before a surrogate pair, never inside it, and make lone surrogates U+FFFD", () => {
  const E = "😀";
  assert.equal(maskAndCut("x".repeat(199) + E + "y", 200), "x".repeat(199) + "…[cut, 202 chars in all]");
  assert.equal(maskAndCut("x".repeat(198) + E + "y", 200), "x".repeat(198) + E + "…[cut, 201 chars in all]");
  assert.equal(maskAndCut("a\ud800b", 200), "a\ufffdb");
  const long = "x".repeat(2000) + E; // windowed: cut at 200 + 1000 before masking
  assert.equal(maskAndCut(long, 200), "x".repeat(200) + `…[cut, ${long.length} chars in all]`);
  const err = "e".repeat(MAX_ERROR_CHARS - 1) + E + "tail";
  assert.equal(cutErrorText(err), "e".repeat(MAX_ERROR_CHARS - 1) + `…[cut, ${err.length} chars in all]`);
  assert.equal(cutErrorText("lone \udc00"), "lone \ufffd");
});
