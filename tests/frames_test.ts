/**
 * Issue #8 items 10, 11, 12 and 14 end to end, through a raw subprocess (frames no SDK client would
 * send): logpeek spawned as users run it, frames written to its stdin, its stdout read line by line.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { MAIN } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";
import { serverFlags } from "../src/cli/flags.ts";
import { peakRss } from "../bench/peak_rss.ts";

const demo = fileURLToPath(new URL("../fixtures/demo", import.meta.url));
const opts = { sanitizeResources: false, sanitizeOps: false };
const enc = new TextEncoder();

/**
 * logpeek on the demo logs, with its stdin to write frames to and its stdout split into lines; initialized
 * unless `init` is false.
 */
async function raw(init = true) {
  const state = tempDir("logpeek-frames-");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...serverFlags([demo], state), MAIN, "--state-dir", state, demo],
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines: string[] = [];
  let stdout = "";
  let stderr = "";
  const waiting: { wake: () => void } = { wake: () => {} };
  const reading = (async () => {
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      stdout += chunk;
      let nl;
      while ((nl = stdout.indexOf("\n")) >= 0) {
        lines.push(stdout.slice(0, nl));
        stdout = stdout.slice(nl + 1);
      }
      waiting.wake();
    }
  })();
  const readingErr = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })();
  const all: string[] = [];
  const server = {
    state,
    pid: child.pid,
    /** Every stdout line so far, parsed (every one must be JSON). */
    all,
    stderr: () => stderr,
    write: (frame: string | Uint8Array) =>
      writer.write(typeof frame === "string" ? enc.encode(frame) : frame),
    send: (msg: unknown) => writer.write(enc.encode(JSON.stringify(msg) + "\n")),
    /** The next stdout line, parsed; fails after `ms`. */
    async next(ms = 10_000) {
      const until = Date.now() + ms;
      while (lines.length === 0) {
        const left = until - Date.now();
        if (left <= 0) throw new Error(`no answer within ${ms} ms; stderr: ${stderr.slice(-2000)}`);
        await new Promise<void>((r) => {
          waiting.wake = r;
          setTimeout(r, left);
        });
      }
      const line = lines.shift()!;
      all.push(line);
      return JSON.parse(line);
    },
    /** Closes stdin; resolves with the exit code once the server has ended. */
    async end() {
      await writer.close();
      const status = await child.status;
      await reading;
      await readingErr;
      return status.code;
    },
    traces: () =>
      Deno.readTextFileSync(`${state}/traces/calls.jsonl`).trim().split("\n").map((l) => JSON.parse(l)),
  };
  if (!init) return server;
  await server.send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  });
  assert.equal((await server.next()).id, 0);
  await server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return server;
}

/** A tools/call frame as the SDK's client writes it: method and params first, the id last. */
function call(id: number, name: string, args: unknown): string {
  return JSON.stringify({ method: "tools/call", params: { name, arguments: args }, jsonrpc: "2.0", id }) +
    "\n";
}

const tail1 = (id: number) => call(id, "log_tail", { file: "app.log", lines: 1 });

Deno.test({
  name: "frames: a 12 MiB line gets a -32600 error with its id, and the next call is answered within 1 s",
  ...opts,
  async fn() {
    const s = await raw();
    const base = peakRss(s.pid);
    const big = call(2, "log_tail", { file: "app.log", note: "x".repeat(12 * 1024 * 1024) });
    const nine = call(3, "log_tail", { file: "app.log", note: "y".repeat(9 * 1000 * 1000) });
    for (const [frame, id] of [[big, 2], [nine, 3]] as const) {
      await s.write(frame);
      const t0 = performance.now();
      await s.write(tail1(id + 10));
      const refused = await s.next();
      assert.deepEqual(refused, {
        jsonrpc: "2.0",
        id,
        error: {
          code: -32600,
          message:
            `Invalid Request: a frame of ${frame.length - 1} bytes is over logpeek's limit of 8388608 ` +
            "bytes for one message; it was not read",
        },
      });
      const next = await s.next();
      const ms = performance.now() - t0;
      assert.equal(next.id, id + 10);
      assert.equal(next.result.structuredContent.lines.length, 1);
      assert.ok(ms < 2500, `the call after a ${frame.length}-byte frame took ${ms.toFixed(0)} ms`);
      console.error(`after a ${frame.length}-byte frame: the next call answered in ${ms.toFixed(0)} ms`);
    }
    // A line that is not JSON, and one that is not JSON-RPC, are answered too.
    await s.write("{not json\n");
    assert.deepEqual(await s.next(), {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: the line is not JSON" },
    });
    await s.write('{"jsonrpc":"2.0","id":5,"method":7}\n');
    assert.deepEqual((await s.next()).error.code, -32600);
    const peak = peakRss(s.pid);
    if (base !== null && peak !== null) {
      console.error(`peak RSS ${(base / 2 ** 20).toFixed(1)} → ${(peak / 2 ** 20).toFixed(1)} MiB`);
      assert.ok(peak - base < 64 * 2 ** 20, `peak grew ${((peak - base) / 2 ** 20).toFixed(1)} MiB`);
    }
    assert.match(s.stderr(), /refused a frame of 12583\d+ bytes/);
    assert.equal(await s.end(), 0);
    // stdout carried JSON-RPC messages only.
    for (const l of s.all) assert.equal(JSON.parse(l).jsonrpc, "2.0");
    // The refused calls are traced as unread frames.
    const t = s.traces();
    assert.deepEqual(t.map((r) => [r.tool, r.error?.kind ?? null]), [
      ["(unread frame)", "invalid_request"],
      ["log_tail", null],
      ["(unread frame)", "invalid_request"],
      ["log_tail", null],
      ["(unread frame)", "parse_error"],
      ["(unread frame)", "invalid_request"],
    ]);
  },
});

Deno.test({
  name:
    "frames: 10,000-deep arguments, 500,000 keys and a 5 MB tool name: answered fast, bounded answers and trace lines",
  ...opts,
  async fn() {
    const s = await raw();
    const depth = 10_000;
    const t0 = performance.now();
    await s.write(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"log_tail","arguments":` +
        `{"file":"app.log","deep":${"[".repeat(depth)}"password=hunter2"${"]".repeat(depth)}}}}\n`,
    );
    const deep = await s.next();
    const steps = [performance.now() - t0];
    assert.equal(deep.id, 2);
    // An argument log_tail does not take is refused, by name (issue #24), its value never repeated.
    assert.equal(deep.result.isError, true);
    assert.match(deep.result.content[0].text, /unknown argument 'deep': log_tail takes file, lines, level/);
    assert.doesNotMatch(deep.result.content[0].text, /hunter2/);
    const keys = Array.from({ length: 500_000 }, (_, i) => `"k${i}":${i}`).join(",");
    await s.write(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"log_tail","arguments":{${keys}}}}\n`,
    );
    const many = await s.next();
    steps.push(performance.now() - t0);
    assert.equal(many.id, 3);
    assert.equal(many.error.code, -32600);
    assert.match(many.error.message, /more than 50000 JSON values/);
    const moderate = Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(",");
    await s.write(call(4, "log_tail", JSON.parse(`{"file":"app.log",${moderate}}`)));
    const unknown = (await s.next()).result.content[0].text;
    assert.match(unknown, /unknown arguments 'k0', 'k1', 'k2', 'k3', 'k4' and 19995 more: log_tail takes /);
    assert.ok(unknown.length < 500, `${unknown.length}`);
    steps.push(performance.now() - t0);
    await s.write(call(5, "t".repeat(5_000_000), {}));
    const name = await s.next();
    const text: string = name.result.content[0].text;
    assert.equal(name.result.isError, true);
    assert.match(text, /^MCP error -32602: Tool t{977}…\[cut, 5000033 chars in all\]$/);
    const ms = performance.now() - t0;
    steps.push(ms);
    const each = steps.map((t, i) => (t - (steps[i - 1] ?? 0)).toFixed(0));
    console.error(`answered in ${each.join(", ")} ms (deep, 500,000 keys, 20,000 keys, 5 MB name)`);
    assert.ok(ms < 6000, `the four calls took ${ms.toFixed(0)} ms`);
    assert.equal(await s.end(), 0);
    const t = s.traces();
    assert.deepEqual(t.map((r) => r.tool.slice(0, 20)), [
      "log_tail",
      "(unread frame)",
      "log_tail",
      "t".repeat(20),
    ]);
    const sizes = Deno.readTextFileSync(`${s.state}/traces/calls.jsonl`).trim().split("\n").map((l) =>
      l.length
    );
    console.error(`trace line sizes: ${sizes.join(", ")} characters`);
    assert.ok(sizes.every((n) => n < 12 * 1024), `${sizes}`);
    assert.equal(JSON.stringify(t[0].args.deep), `${"[".repeat(7)}"…[nested deeper than 8]"${"]".repeat(7)}`);
    assert.equal(Object.keys(t[2].args).length, 51);
    assert.equal(t[2].args["…"], "[19951 more keys]");
    assert.equal(t[3].tool, "t".repeat(128) + "…[cut, 5000000 chars in all]");
    assert.doesNotMatch(JSON.stringify(t), /hunter2/);
  },
});

Deno.test({
  name:
    "frames: two calls in flight with the same id get two answers, each with its own trace_id and trace line",
  ...opts,
  async fn() {
    const s = await raw();
    await s.write(
      call(7, "log_levels", { file: "app.log" }) + call(7, "log_tail", { file: "app.log", lines: 2 }),
    );
    const a = await s.next();
    const b = await s.next();
    assert.deepEqual([a.id, b.id], [7, 7]);
    assert.equal(a.result.structuredContent.total_lines, 2003);
    assert.equal(b.result.structuredContent.lines.length, 2);
    assert.notEqual(a.result._meta.trace_id, b.result._meta.trace_id);
    assert.equal(await s.end(), 0);
    const t = s.traces();
    assert.deepEqual(t.map((r) => [r.tool, r.trace_id, r.ok]), [
      ["log_levels", a.result._meta.trace_id, true],
      ["log_tail", b.result._meta.trace_id, true],
    ]);
  },
});

Deno.test({
  name: "frames: a tools/call whose params are not {name, arguments} gets -32602 Invalid params, plainly",
  ...opts,
  async fn() {
    const s = await raw();
    const bad: [unknown, number, RegExp][] = [
      [{ name: "log_tail", arguments: "file=app.log" }, -32602, /params\.arguments must be an object/],
      [{ name: "log_tail", arguments: null }, -32602, /params\.arguments must be an object/],
      [{ arguments: { file: "app.log" } }, -32602, /params\.name must be the tool's name/],
      // JSON-RPC 2.0 §4.2: params are structured, so a string is no request at all.
      ["log_tail", -32600, /not a JSON-RPC 2\.0 message/],
    ];
    let id = 10;
    for (const [params, code, why] of bad) {
      await s.send({ jsonrpc: "2.0", id: ++id, method: "tools/call", params });
      const r = await s.next();
      assert.equal(r.id, id);
      assert.equal(r.error.code, code, JSON.stringify(r));
      assert.match(r.error.message, why);
      assert.ok(r.error.message.length < 200, "no schema dump");
    }
    await s.write(tail1(99));
    const ok = await s.next();
    assert.equal(ok.id, 99);
    assert.equal(ok.result.isError, undefined, "the server goes on serving");
    assert.equal(await s.end(), 0);
  },
});

Deno.test({
  name:
    "frames: initialize with invalid params gets -32602 Invalid params, plainly; a batch -32600; then it serves",
  ...opts,
  async fn() {
    const s = await raw(false);
    const client = { name: "raw", version: "0" };
    const init = (params: unknown) => ({ jsonrpc: "2.0", method: "initialize", params });
    // JSON-RPC 2.0 §5.1: -32602 is "Invalid method parameter(s)"; the SDK answered each with -32603 and a
    // dump of its schema.
    const bad: [unknown, RegExp][] = [
      [
        init({ protocolVersion: 5, capabilities: {}, clientInfo: client }),
        /params\.protocolVersion: expected string, received number/,
      ],
      [
        init({ protocolVersion: null, capabilities: {}, clientInfo: client }),
        /params\.protocolVersion: expected string, received null/,
      ],
      [
        init({ capabilities: {}, clientInfo: client }),
        /params\.protocolVersion is missing \(expected string\)/,
      ],
      [
        init({ protocolVersion: { v: "2025-06-18" }, capabilities: {}, clientInfo: client }),
        /params\.protocolVersion: expected string, received object/,
      ],
      [init(undefined), /^Invalid params: params is missing \(expected object\)/],
      // By position (§4.2 allows it); MCP names its params.
      [init(["2025-06-18", {}, client]), /^Invalid params: params: expected object, received array/],
      [init({ protocolVersion: "2025-06-18", capabilities: {} }), /params\.clientInfo is missing/],
      [
        init({ protocolVersion: "2025-06-18", capabilities: 1, clientInfo: { name: 5, version: "0" } }),
        /params\.capabilities: expected object, received number; params\.clientInfo\.name: expected string/,
      ],
      [
        { jsonrpc: "2.0", method: "tools/list", params: { cursor: 5 } },
        /params\.cursor: expected string, received number/,
      ],
      [{ jsonrpc: "2.0", method: "ping", params: [] }, /params: expected object, received array/],
    ];
    let id = 0;
    for (const [frame, why] of bad) {
      await s.send({ ...(frame as object), id: ++id });
      const r = await s.next();
      assert.equal(r.id, id, JSON.stringify(r));
      assert.equal(r.error.code, -32602, JSON.stringify(r));
      assert.match(r.error.message, /^Invalid params: /);
      assert.match(r.error.message, why);
      if ((frame as { method: string }).method === "initialize") {
        assert.match(r.error.message, /initialize takes params \{protocolVersion: string/);
      }
      assert.ok(r.error.message.length <= 420, `no schema dump: ${r.error.message}`);
      assert.doesNotMatch(r.error.message, /"code"|invalid_type/);
    }
    // A batch stays -32600 (MCP sends none since 2025-06-18); a method logpeek does not serve -32601.
    await s.write(JSON.stringify([{ jsonrpc: "2.0", id: 50, method: "ping" }]) + "\n");
    assert.deepEqual(await s.next(), {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" },
    });
    await s.send({ jsonrpc: "2.0", id: 51, method: "resources/list", params: { cursor: 5 } });
    assert.equal((await s.next()).error.code, -32601);
    // The refusals left the server as it was: it is initialized now, and serves.
    await s.send({
      ...init({ protocolVersion: "2025-06-18", capabilities: {}, clientInfo: client }),
      id: 60,
    });
    const ok = await s.next();
    assert.equal(ok.id, 60);
    assert.equal(ok.result.protocolVersion, "2025-06-18");
    assert.equal(ok.result.serverInfo.name, "logpeek");
    await s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await s.write(tail1(61));
    const tail = await s.next();
    assert.equal(tail.id, 61);
    assert.equal(tail.result.structuredContent.lines.length, 1);
    assert.equal(await s.end(), 0);
    for (const l of s.all) assert.equal(JSON.parse(l).jsonrpc, "2.0");
  },
});
