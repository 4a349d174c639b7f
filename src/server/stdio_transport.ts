/**
 * The stdio transport: newline-delimited JSON-RPC on stdin and stdout, implementing the MCP SDK's
 * `Transport` interface, with a cap on the size of one incoming frame (issue #8, item 11).
 *
 * Why not the SDK's `StdioServerTransport`: its `ReadBuffer` joins every chunk to the whole buffer so
 * far (`Buffer.concat`) and searches the whole buffer for a newline after each chunk, so one 9 MB line
 * costs quadratic copying and stalls every call for seconds; and a line over its 10 MiB cap makes it
 * clear the buffer, throw, and close the transport, which ends the server silently (exit 0, nothing on
 * stderr). Here stdin is read in chunks, each chunk is searched once for newlines, and a frame's pieces
 * are joined once, when its newline arrives. A frame that grows past {@linkcode MAX_FRAME_BYTES} is
 * dropped piece by piece as it streams in (never held whole) and, when its newline comes, answered with
 * a JSON-RPC error (`-32600`); the server goes on serving. A line that is not JSON is answered with
 * `-32700`, a JSON value that is no JSON-RPC message (a batch included: MCP has none since 2025-06-18)
 * with `-32600` (the id is `null` where it cannot be read), and a request whose params the SDK's schema of
 * its method refuses (`initialize` with a `protocolVersion` that is no string, say) with `-32602` and what
 * was wrong (JSON-RPC 2.0 §5.1; the SDK itself would answer `-32603` with a dump of its schema). Parsing
 * and checking reuse the SDK's schemas (`JSONRPCMessageSchema`, `InitializeRequestSchema`, …).
 *
 * Outgoing messages are written one after another, each as one line. An answer that cannot be
 * serialized (a value JSON cannot hold, such as a BigInt, or a cycle) is replaced by a `-32603` error
 * with the same id, so a request never goes unanswered. Every string of an outgoing message (keys too)
 * is well-formed Unicode (issue #10, item 5): a lone surrogate that reached one — a client's `"\ud800"`
 * echoed in an SDK error, say — is replaced by U+FFFD before the message is written.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/shared/transport.d.ts"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/types.d.ts"
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type * as z from "zod";
import { cutText } from "../core/text_cut.ts";

/**
 * The largest incoming frame (one line of stdin, without its newline) that is parsed: 8 MiB. Larger
 * frames are answered with a `-32600` error and dropped without being buffered. 8 MiB leaves room for
 * a 4 MiB argument (JSON-escaped) while keeping what one frame can cost bounded; MCP clients send
 * frames of a few KiB to logpeek.
 */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/**
 * The most JSON values one frame may hold, counted as array items and object members (commas) plus
 * arrays and objects (opening brackets), outside strings: 50,000. Parsing costs about one allocation
 * per value, so a frame of millions of tiny values (500,000 keys, an array nested 4 million deep)
 * would hold the server for seconds; such a frame is answered with a `-32600` error unparsed. MCP
 * messages to logpeek hold a few dozen.
 */
export const MAX_FRAME_VALUES = 50_000;

/**
 * Counts the JSON values of a frame (see {@linkcode MAX_FRAME_VALUES}) in one pass over its bytes,
 * stopping once the count passes `limit`.
 *
 * @param bytes The frame (UTF-8).
 * @param limit Where to stop counting.
 * @returns The count, or a number above `limit` once it is passed.
 */
export function countValues(bytes: Uint8Array, limit: number): number {
  let n = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === 0x5c) i++; // a backslash escapes the next byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x2c || b === 0x5b || b === 0x7b) {
      if (++n > limit) return n;
    }
  }
  return n;
}

/** How many bytes of a refused frame's start and end are kept, to read its id and method. */
const KEPT_EDGE_BYTES = 512;

/** A frame that was answered with an error instead of being passed on. */
export interface RefusedFrame {
  /** The request id read from the frame, or null when it could not be read. */
  id: string | number | null;
  /**
   * The JSON-RPC error code sent: -32600 (too large, or not a JSON-RPC message), -32700 (not JSON), or
   * -32602 (a request whose params its method does not take: {@linkcode paramsProblem}).
   */
  code: number;
  /** The error message sent (bounded). */
  message: string;
  /** The frame's size in bytes. */
  bytes: number;
  /** The method, when it could be read (`tools/call`…), else null. */
  method: string | null;
}

/** Where the transport reads and writes, and its frame cap. */
export interface StdioFrameOptions {
  /** The input stream (default: `Deno.stdin.readable`). */
  input?: ReadableStream<Uint8Array>;
  /** The output stream (default: `Deno.stdout.writable`). */
  output?: WritableStream<Uint8Array>;
  /** The frame cap in bytes (default {@linkcode MAX_FRAME_BYTES}). */
  maxFrameBytes?: number;
  /** The cap on JSON values in one frame (default {@linkcode MAX_FRAME_VALUES}). */
  maxFrameValues?: number;
}

// deno-lint-ignore no-explicit-any
type Message = any;

const ID = String.raw`(-?\d{1,20}(?:\.\d{1,20})?(?:[eE][+-]?\d{1,5})?|"(?:[^"\\\n]|\\.){0,256}")`;
/** `…,"id":5}` at the very end of a JSON object: the outermost object's own id (the SDK's order). */
const ID_AT_END = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${ID}\s*\}\s*$`);
/** `{"jsonrpc":"2.0","id":5,…`: an id after only simple members at the start. */
const ID_AT_START = new RegExp(
  String
    .raw`^\s*\{\s*(?:"[A-Za-z_]{1,20}"\s*:\s*(?:"[^"\\]{0,64}"|-?\d{1,20})\s*,\s*){0,4}"id"\s*:\s*${ID}\s*[,}]`,
);
const METHOD = /"method"\s*:\s*"([A-Za-z0-9_/.$-]{1,64})"/;

/**
 * The SDK's schemas of the requests its `McpServer` answers here (logpeek registers tools only), by
 * method. Another method is left to the SDK, which answers -32601 (method not found).
 */
const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

/** What each method's params are, for the message of an invalid one. */
const PARAMS_SHAPE: Record<string, string> = {
  initialize: 'initialize takes params {protocolVersion: string (e.g. "2025-06-18"), capabilities: object, ' +
    "clientInfo: {name: string, version: string}}",
  "tools/call": "tools/call takes params {name: string, arguments: object}",
  "tools/list": "tools/list takes params {cursor?: string}",
  ping: "ping takes no params, or an object",
};

/** Whether `v` is a request by JSON-RPC 2.0 §4 (jsonrpc "2.0", a method, an id, params absent or structured). */
function isRequestShape(v: unknown): v is { method: string; id: string | number; params?: unknown } {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const m = v as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown };
  return m.jsonrpc === "2.0" && typeof m.method === "string" && idOf(v) !== null &&
    (m.params === undefined || (typeof m.params === "object" && m.params !== null));
}

/**
 * Why a request's params are invalid (JSON-RPC 2.0 §5.1: -32602), or null when they are not (or the
 * method is not one the server answers: then the SDK says so).
 *
 * The rule is the SDK's own schema of the request ({@linkcode REQUEST_SCHEMAS}); a tools/call is first
 * checked for `{name, arguments}` with plain words. The reason names at most three problems by their
 * path (`params.protocolVersion is missing`), each as zod says it, and what the method takes; it quotes
 * no value of the request, and is at most 400 characters.
 *
 * @param request A request (`method`, `params`).
 * @param schema The schema to check it with (default: its method's).
 * @returns The reason, or null.
 */
export function paramsProblem(
  request: { method?: unknown; params?: unknown },
  schema?: z.ZodType,
): string | null {
  const method = typeof request.method === "string" ? request.method : "";
  if (method === "tools/call") {
    const p = request.params as { name?: unknown; arguments?: unknown } | undefined;
    const args = p?.arguments;
    const why = typeof p !== "object" || p === null || Array.isArray(p)
      ? "params must be an object {name, arguments}"
      : typeof p.name !== "string"
      ? "params.name must be the tool's name (a string)"
      : args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))
      ? "params.arguments must be an object of the tool's arguments"
      : null;
    if (why) return why;
  }
  const rule = schema ?? (Object.hasOwn(REQUEST_SCHEMAS, method) ? REQUEST_SCHEMAS[method] : undefined);
  if (!rule) return null;
  const r = rule.safeParse(request);
  if (r.success) return null;
  const issues = r.error.issues.filter((i) => i.path[0] === "params");
  if (issues.length === 0) return null; // not the params (the SDK's own answer stands)
  const said = issues.slice(0, 3).map((i) => {
    const path = i.path.map((k) => typeof k === "number" ? `[${k}]` : `.${String(k)}`).join("").slice(1);
    const msg = i.message.replace(/^Invalid input: /, "");
    return i.code === "invalid_type" && / received undefined$/.test(msg)
      ? `${path} is missing (${msg.replace(/, received undefined$/, "")})`
      : `${path}: ${msg}`;
  });
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : "";
  const shape = Object.hasOwn(PARAMS_SHAPE, method) ? `; ${PARAMS_SHAPE[method]}` : "";
  return cutText(said.join("; ") + more + shape, 400);
}

/** The id of a JSON-RPC message whose id is a string or a number, else null. */
function idOf(v: unknown): string | number | null {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const id = (v as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

/**
 * Guesses a refused frame's id and method from its first and last bytes (a JSON-RPC id is either near
 * the start, or, as the SDK writes requests, the last member).
 *
 * @param head The frame's first bytes, decoded.
 * @param tail The frame's last bytes, decoded.
 * @returns The id (null if neither edge shows it) and the method (null likewise).
 */
export function guessIdAndMethod(
  head: string,
  tail: string,
): { id: string | number | null; method: string | null } {
  const m = ID_AT_END.exec(tail) ?? ID_AT_START.exec(head);
  let id: string | number | null = null;
  if (m) {
    try {
      const v = JSON.parse(m[1]);
      if (typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) id = v;
    } catch {
      id = null;
    }
  }
  const method = METHOD.exec(head)?.[1] ?? METHOD.exec(tail)?.[1] ?? null;
  return { id, method };
}

/**
 * A stdio transport for the server side with a frame cap (see the module's text). When stdin ends it
 * calls `oninputend` if set, else closes (calls `onclose`).
 */
export class StdioFrameTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  /** Called for each frame answered with an error instead of passed on (for the trace). */
  onrefused?: (frame: RefusedFrame) => void;
  /**
   * Called when stdin ends, instead of closing at once: the owner answers the calls in flight, then
   * calls `close`. Unset, the transport closes when stdin ends.
   */
  oninputend?: () => void;

  readonly maxFrameBytes: number;
  readonly maxFrameValues: number;
  #input: ReadableStream<Uint8Array>;
  #output: WritableStream<Uint8Array>;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  #writes: Promise<void> = Promise.resolve();
  #closed = false;
  #enc = new TextEncoder();
  #dec = new TextDecoder();

  // The frame being read.
  #parts: Uint8Array[] = [];
  #size = 0;
  #discarding = false;
  #head = new Uint8Array(0);
  #tail: Uint8Array[] = [];
  #tailSize = 0;

  /** @param options Streams and the frame cap; the defaults are the process's stdin and stdout. */
  constructor(options: StdioFrameOptions = {}) {
    this.#input = options.input ?? Deno.stdin.readable;
    this.#output = options.output ?? Deno.stdout.writable;
    this.maxFrameBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
    this.maxFrameValues = options.maxFrameValues ?? MAX_FRAME_VALUES;
  }

  /** Starts reading; resolves at once (reading goes on until the input ends or `close`). */
  start(): Promise<void> {
    if (this.#reader) throw new Error("StdioFrameTransport already started");
    this.#reader = this.#input.getReader();
    this.#writer = this.#output.getWriter();
    void this.#readLoop();
    return Promise.resolve();
  }

  async #readLoop(): Promise<void> {
    const reader = this.#reader!;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || this.#closed) break;
        let start = 0;
        while (start < value.length) {
          const nl = value.indexOf(10, start);
          this.#take(value.subarray(start, nl < 0 ? value.length : nl));
          if (nl < 0) break;
          this.#endFrame();
          start = nl + 1;
        }
      }
      // A last frame without its newline is read all the same.
      if (!this.#closed && (this.#size > 0 || this.#discarding)) this.#endFrame();
    } catch (e) {
      if (!this.#closed) this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
    if (this.#closed) return;
    if (this.oninputend) this.oninputend();
    else await this.close();
  }

  /** Adds a piece of the current frame, or only counts it once the frame is over the cap. */
  #take(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (!this.#discarding && this.#size + piece.length > this.maxFrameBytes) {
      this.#discarding = true;
      const head = new Uint8Array(KEPT_EDGE_BYTES);
      let n = 0;
      for (const p of [...this.#parts, piece]) {
        if (n >= KEPT_EDGE_BYTES) break;
        const k = Math.min(p.length, KEPT_EDGE_BYTES - n);
        head.set(p.subarray(0, k), n);
        n += k;
      }
      this.#head = head.subarray(0, n);
      this.#parts = [];
    }
    this.#size += piece.length;
    if (!this.#discarding) {
      this.#parts.push(piece);
      return;
    }
    // Keep only the last bytes, for the id at the frame's end.
    this.#tail.push(piece.slice(Math.max(0, piece.length - KEPT_EDGE_BYTES)));
    this.#tailSize += Math.min(piece.length, KEPT_EDGE_BYTES);
    while (this.#tailSize - this.#tail[0].length >= KEPT_EDGE_BYTES) {
      this.#tailSize -= this.#tail.shift()!.length;
    }
  }

  /** A newline came: parses the frame and passes it on, or answers it with an error. */
  #endFrame(): void {
    const size = this.#size;
    const discarded = this.#discarding;
    const parts = this.#parts;
    const head = this.#head;
    const tail = this.#tail;
    this.#parts = [];
    this.#size = 0;
    this.#discarding = false;
    this.#head = new Uint8Array(0);
    this.#tail = [];
    this.#tailSize = 0;
    if (discarded) {
      const tailBytes = join(tail);
      const guess = guessIdAndMethod(
        this.#dec.decode(head),
        this.#dec.decode(tailBytes.subarray(Math.max(0, tailBytes.length - KEPT_EDGE_BYTES))),
      );
      this.#refuse({
        ...guess,
        code: -32600,
        bytes: size,
        message:
          `Invalid Request: a frame of ${size} bytes is over logpeek's limit of ${this.maxFrameBytes} ` +
          "bytes for one message; it was not read",
      });
      return;
    }
    const bytes = join(parts);
    if (countValues(bytes, this.maxFrameValues) > this.maxFrameValues) {
      const edge = Math.min(KEPT_EDGE_BYTES, bytes.length);
      const guess = guessIdAndMethod(
        this.#dec.decode(bytes.subarray(0, edge)),
        this.#dec.decode(bytes.subarray(bytes.length - edge)),
      );
      this.#refuse({
        ...guess,
        code: -32600,
        bytes: size,
        message:
          `Invalid Request: a frame with more than ${this.maxFrameValues} JSON values (items, members, ` +
          "arrays, objects) is over logpeek's limit for one message; it was not read",
      });
      return;
    }
    let text = this.#dec.decode(bytes);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // The engine's message quotes the line: it is not echoed.
      this.#refuse({
        id: null,
        method: null,
        code: -32700,
        bytes: size,
        message: "Parse error: the line is not JSON",
      });
      return;
    }
    this.#pass(value, size);
  }

  /**
   * Passes a parsed frame on to the SDK, or answers it: `-32600` when it is no JSON-RPC message, `-32602`
   * when it is a request whose params its method does not take ({@linkcode paramsProblem}).
   */
  #pass(value: unknown, size: number): void {
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const method = (value as { method?: unknown })?.method;
      // A request by JSON-RPC 2.0's own rules (§4: params by position or by name) that the SDK refuses
      // for its params (an array, a `_meta` that is no object) is invalid params, not an invalid request.
      const why = isRequestShape(value) ? paramsProblem(value, JSONRPCRequestSchema) : null;
      this.#refuse({
        id: idOf(value),
        method: typeof method === "string" ? cutText(method, 64) : null, // for the trace only
        code: why === null ? -32600 : -32602,
        bytes: size,
        message: why === null ? "Invalid Request: not a JSON-RPC 2.0 message" : `Invalid params: ${why}`,
      });
      return;
    }
    // A request whose params the SDK's schema refuses would reach the SDK, which answers -32603 (internal
    // error) with its schema dump: it is invalid params (-32602), said plainly.
    const call = parsed.data as { method?: unknown; id?: string | number; params?: unknown };
    const why = call.id !== undefined ? paramsProblem(call) : null;
    if (why !== null) {
      this.#refuse({
        id: call.id!,
        method: typeof call.method === "string" ? cutText(call.method, 64) : null,
        code: -32602,
        bytes: size,
        message: `Invalid params: ${why}`,
      });
      return;
    }
    try {
      this.onmessage?.(parsed.data as Message);
    } catch (e) {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  }

  #refuse(frame: RefusedFrame): void {
    this.onerror?.(new Error(`refused a frame of ${frame.bytes} bytes: ${frame.message}`));
    void this.send({ jsonrpc: "2.0", id: frame.id, error: { code: frame.code, message: frame.message } })
      .catch((e) => this.onerror?.(e instanceof Error ? e : new Error(String(e))));
    try {
      this.onrefused?.(frame);
    } catch (e) {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /**
   * Writes one message as one line, after those sent before it, every string in it made well-formed
   * ({@linkcode wellFormed}). A response that cannot be serialized is replaced by a `-32603` error
   * response with its id.
   *
   * @param message A JSON-RPC message.
   * @throws The write's error (a closed stdout), or a serialization error for a message that is not a
   *   response.
   */
  send(message: Message): Promise<void> {
    let line: string;
    try {
      line = JSON.stringify(message) + "\n";
      // JSON.stringify writes a lone surrogate as a lower-case `\udXXX` escape (ECMA-262
      // QuoteJSONString); a pair is written as itself. Only then is the message walked.
      if (LONE_SURROGATE_ESCAPE.test(line)) line = JSON.stringify(wellFormed(message)) + "\n";
    } catch (e) {
      const text = e instanceof Error ? e.message : String(e);
      const why = text.length > 200
        ? `${cutText(text, 200)}…[cut ${text.length - 200} chars]`
        : cutText(text, 200);
      if (!(message && message.id !== undefined && ("result" in message || "error" in message))) {
        return Promise.reject(e);
      }
      this.onerror?.(new Error(`an answer could not be serialized (${why}); sent an error instead`));
      line = JSON.stringify({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32603, message: `Internal error: the answer could not be serialized (${why})` },
      }) + "\n";
    }
    const bytes = this.#enc.encode(line);
    const writer = this.#writer;
    if (!writer || this.#closed) return Promise.reject(new Error("the transport is closed"));
    const done = this.#writes.then(() => writer.write(bytes));
    this.#writes = done.catch(() => {});
    return done;
  }

  /** Stops reading, lets queued writes finish, and calls `onclose` (once). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#reader?.cancel();
    } catch {
      // already ended
    }
    await this.#writes;
    try {
      this.#writer?.releaseLock();
    } catch {
      // nothing to release
    }
    this.onclose?.();
  }
}

/**
 * The bytes of `parts`, in order, as one array (the one part itself when there is one).
 *
 * @param parts Byte arrays.
 * @returns Their concatenation.
 */
export function join(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A `\ud800`–`\udfff` escape as JSON.stringify writes a lone surrogate (or a backslash before "ud8…"). */
const LONE_SURROGATE_ESCAPE = /\\ud[89a-f]/;

/**
 * `value` with every string in it, keys included, made well-formed (a lone surrogate becomes U+FFFD,
 * as `String.prototype.toWellFormed`); arrays and objects are copied only where something changed.
 * Nesting is bounded by what the server itself sends (tool results, errors).
 *
 * @param value Any JSON value.
 * @returns The same value when every string was well-formed, else a well-formed copy.
 */
export function wellFormed(value: unknown): unknown {
  if (typeof value === "string") return value.isWellFormed() ? value : value.toWellFormed();
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = wellFormed(value[i]);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const k2 = k.isWellFormed() ? k : k.toWellFormed();
    const v2 = wellFormed(v);
    if (k2 !== k || v2 !== v) changed = true;
    Object.defineProperty(out, k2, { value: v2, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : value;
}
