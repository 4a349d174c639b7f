/**
 * The call trace: one JSON line per `tools/call` in `<state>/traces/calls.jsonl` (issue #3, from the
 * seed `../shared/seeds/004_…`): `trace_id`, `tool`, `args` (redacted), `ms`, `ok`, `error`,
 * `out_chars`, `spilled`, `artifact_id`, `ts`.
 *
 * It is taken at the transport, around the MCP SDK: every `tools/call` request and its response pass
 * through {@linkcode TracingTransport}, so calls that fail input validation, unknown tools and
 * unexpected exceptions are traced as well as results, without touching the SDK's internals; the
 * `trace_id` is added to the result's `_meta` on the way out.
 *
 * Issue #8: the trace is always redacted (`--no-redact` is about returned log text only); every
 * string is cut before it is masked, so masking costs the same for a 4 MiB argument as for a short
 * one; nesting, items, keys, key length, tool names and the whole of one call's arguments are bounded
 * (so a line of the trace is at most about 12 KiB); requests that reuse an id in flight are each
 * traced with their own `trace_id`; a failure inside the tracing never keeps an answer from going out.
 *
 * Permission: write access to the state directory.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/shared/transport.d.ts"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MASK, redactLine } from "../guard/redact.ts";
import { cutText } from "../core/text_cut.ts";
import type { RefusedFrame } from "./stdio_transport.ts";

/** One line of the trace. */
export interface TraceRecord {
  trace_id: string;
  tool: string;
  args: unknown;
  ms: number;
  ok: boolean;
  error: { kind: string; message: string } | null;
  out_chars: number;
  spilled: boolean;
  artifact_id: string | null;
  ts: string;
  /** True when the client cancelled the call (issue #5). */
  cancelled?: boolean;
}

/**
 * Longest string kept in a traced argument or error message (issue #3), in UTF-16 code units (JavaScript
 * `length`); a cut never splits a surrogate pair (issue #10, item 5), so it may keep one unit less.
 */
export const MAX_ARG_CHARS = 200;
/** Deepest nesting of arrays and objects kept in traced arguments; deeper ones become a marker (issue #8). */
export const MAX_DEPTH = 8;
/** Most items of one array, or keys of one object, kept in traced arguments; a marker counts the rest. */
export const MAX_ITEMS = 50;
/** Longest object key kept in traced arguments, in characters. */
export const MAX_KEY_CHARS = 100;
/** Longest tool name kept in the trace, in characters (MCP tool names are at most 128). */
export const MAX_TOOL_CHARS = 128;
/**
 * About how many characters the traced arguments of one call may take in all (strings, keys, markers);
 * once spent, the remaining items and keys are counted in a marker instead of kept.
 */
export const MAX_ARGS_TOTAL_CHARS = 8000;
/** Longest error text the SDK makes (`MCP error …`, protocol errors) passed back to the client. */
export const MAX_ERROR_CHARS = 1000;

/**
 * How far past the cut a string is masked before it is cut: a secret that crosses the cut and ends
 * within this many characters is recognised whole (and masked) before the cut.
 */
const LOOKAHEAD = 1000;

const SECRET_KEY =
  /^(?:.*[_-])?(?:token|password|passwd|secret|api[_-]?key|apikey|authorization|cookie|credentials?|private[_-]?key)$/i;

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = "-----END ";
/** An unbroken run of token characters (base64, hex, URL-safe) that reaches the end of the text. */
const TOKEN_RUN_AT_END = /[A-Za-z0-9_.+/-]{16,}$/;

/** True when a run's first characters are varied enough to be a secret (`aaaa…` is not). */
function looksRandom(run: string): boolean {
  return new Set(run.slice(0, 64)).size >= 10;
}

/**
 * Masks, then cuts, one string for the trace, in time linear in `max` whatever the string's length:
 * only its first `max + 1000` characters are looked at. Rules: {@linkcode redactLine} over that
 * window; a private-key `BEGIN` line with no `END` after it has everything after it masked (a key cut
 * before its end, or sent without one); and when the window is shorter than the string, a run of 16 or
 * more token characters (base64, hex, URL-safe) that starts before the cut, reaches the window's end
 * and has 10 or more distinct characters among its first 64 is masked from its start (a secret too
 * long to be recognised in the window). Then the result is cut to `max` UTF-16 code units on a character
 * boundary ({@linkcode cutText}: never inside a surrogate pair) with a marker giving the string's length in
 * code units. The result is always well-formed Unicode: a lone surrogate in `s` becomes U+FFFD.
 *
 * @param s The string.
 * @param max The most characters kept (before the marker).
 * @returns The masked, cut string.
 * @example
 * ```ts
 * import { maskAndCut } from "./trace.ts";
 * console.assert(maskAndCut("password=hunter2", 200) === "password=***");
 * console.assert(maskAndCut("x".repeat(300), 200) === "x".repeat(200) + "…[cut, 300 chars in all]");
 * ```
 */
export function maskAndCut(s: string, max: number): string {
  const windowed = s.length > max + LOOKAHEAD;
  let t = redactLine(cutText(s, max + LOOKAHEAD)).text;
  t = maskOpenPem(t);
  if (windowed) {
    const run = TOKEN_RUN_AT_END.exec(t);
    if (run && run.index < max && looksRandom(run[0])) t = t.slice(0, run.index) + MASK;
  }
  return t.length > max || windowed ? `${cutText(t, max)}…[cut, ${s.length} chars in all]` : t;
}

/** Masks everything after the first private-key `BEGIN` marker that no `END` follows. */
function maskOpenPem(t: string): string {
  if (!t.includes("PRIVATE KEY")) return t;
  const lastEnd = t.lastIndexOf(PEM_END);
  PEM_BEGIN.lastIndex = Math.max(0, lastEnd);
  const m = PEM_BEGIN.exec(t);
  if (!m) return t;
  const after = m.index + m[0].length;
  return after < t.length ? t.slice(0, after) + MASK : t;
}

/** What is left of the character budget while one call's arguments are traced. */
interface Budget {
  left: number;
}

/**
 * Redacts call arguments for the trace, always (`--no-redact` is about returned log text only): values
 * under secret-looking keys become `"***"`, strings and keys are masked and cut by
 * {@linkcode maskAndCut} (to {@linkcode MAX_ARG_CHARS} and {@linkcode MAX_KEY_CHARS}), arrays and
 * objects keep their first {@linkcode MAX_ITEMS} items or keys (then `"…[N more items]"`, or a key
 * `"…"` with `"[N more keys]"`), nesting deeper than {@linkcode MAX_DEPTH} becomes
 * `"…[nested deeper than 8]"`, and all of it stops at about {@linkcode MAX_ARGS_TOTAL_CHARS}
 * characters. Recursion is at most {@linkcode MAX_DEPTH} deep, so no argument can overflow the stack.
 *
 * @param value The arguments (any JSON value).
 * @returns A redacted, bounded copy.
 */
export function redactArgs(value: unknown): unknown {
  return redactValue(value, 0, { left: MAX_ARGS_TOTAL_CHARS });
}

function redactValue(value: unknown, depth: number, budget: Budget): unknown {
  if (typeof value === "string") {
    const s = maskAndCut(value, Math.min(MAX_ARG_CHARS, Math.max(16, budget.left)));
    budget.left -= s.length + 2;
    return s;
  }
  if (value === null || typeof value !== "object") {
    budget.left -= 8;
    return value;
  }
  if (depth >= MAX_DEPTH) {
    budget.left -= 30;
    return `…[nested deeper than ${MAX_DEPTH}]`;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      if (out.length >= MAX_ITEMS || budget.left <= 0) {
        out.push(`…[${value.length - i} more items]`);
        break;
      }
      out.push(redactValue(value[i], depth + 1, budget));
    }
    budget.left -= 2;
    return out;
  }
  const out: Record<string, unknown> = {};
  let kept = 0;
  let left = 0;
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    if (kept >= MAX_ITEMS || budget.left <= 0) {
      left++;
      continue;
    }
    let key = maskAndCut(k, MAX_KEY_CHARS);
    if (Object.hasOwn(out, key)) key = `${key}#${kept}`;
    budget.left -= key.length + 4;
    const secret = SECRET_KEY.test(k.length > 200 ? k.slice(-200) : k);
    const v = secret ? "***" : redactValue((value as Record<string, unknown>)[k], depth + 1, budget);
    // defineProperty: a key "__proto__" is kept as data, never taken as the prototype.
    Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    kept++;
  }
  if (left > 0) out["…"] = `[${left} more keys]`;
  return out;
}

/**
 * Cuts an error text the SDK made (it may quote a tool name or argument of any length) to
 * {@linkcode MAX_ERROR_CHARS} UTF-16 code units on a character boundary ({@linkcode cutText}), with a
 * marker giving its length; the result is well-formed (a lone surrogate becomes U+FFFD).
 *
 * @param text The error text.
 * @returns The text, cut when longer.
 */
export function cutErrorText(text: string): string {
  return text.length > MAX_ERROR_CHARS
    ? `${cutText(text, MAX_ERROR_CHARS)}…[cut, ${text.length} chars in all]`
    : cutText(text, MAX_ERROR_CHARS);
}

/** An ISO 8601 time with the local offset, e.g. `2026-11-30T01:02:03.004+00:00`. */
export function isoWithOffset(d: Date): string {
  const off = -d.getTimezoneOffset();
  const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:` +
    `${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}` +
    `${off >= 0 ? "+" : "-"}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
}

/**
 * Appends trace records to a file that rotates at a size cap, keeping one previous file
 * (`calls.jsonl.1`). A write that fails never fails the call: one warning goes to stderr.
 */
export class TraceWriter {
  #size = -1;
  #warned = false;
  /**
   * @param path The trace file, e.g. `<state>/traces/calls.jsonl`.
   * @param maxBytes The size at which it rotates.
   * @param warn Receives the one warning.
   */
  constructor(readonly path: string, readonly maxBytes: number, readonly warn: (line: string) => void) {}

  /** Appends one record. */
  append(record: TraceRecord): void {
    try {
      const line = new TextEncoder().encode(JSON.stringify(record) + "\n");
      if (this.#size < 0) {
        try {
          this.#size = Deno.statSync(this.path).size;
        } catch (e) {
          if (!(e instanceof Deno.errors.NotFound)) throw e;
          this.#size = 0;
        }
      }
      if (this.#size > 0 && this.#size + line.length > this.maxBytes) {
        Deno.renameSync(this.path, this.path + ".1");
        this.#size = 0;
      }
      Deno.writeFileSync(this.path, line, { append: true, create: true, mode: 0o600 });
      this.#size += line.length;
    } catch (e) {
      this.#size = -1;
      if (!this.#warned) {
        this.#warned = true;
        this.warn(
          `logpeek: cannot write the call trace ${this.path} (${e instanceof Error ? e.message : e}); ` +
            "calls go on untraced",
        );
      }
    }
  }
}

/**
 * When stdin ends, how long the calls in flight may still take to be answered before the transport
 * closes anyway: 60 s (each call is bounded by its own budgets, the longest 30 s by default).
 */
export const DRAIN_MS = 60_000;

/** Most requests with one id held back while an earlier one with that id is answered. */
export const MAX_HELD_PER_ID = 16;

/** A `tools/call` being served. */
interface Pending {
  trace_id: string;
  tool: string;
  /** The arguments, already redacted and bounded (taken on arrival: the call may change nothing). */
  args: unknown;
  t0: number;
}

/** A request in flight (the first of its id) or held back (a later one with the same id). */
interface Entry {
  message: Message;
  extra: unknown;
  /** Set for a `tools/call`. */
  call: Pending | null;
}

// deno-lint-ignore no-explicit-any
type Message = any;

/** A new trace id: 16 hex digits. */
function newTraceId(): string {
  return crypto.randomUUID().replaceAll("-", "").slice(0, 16);
}

const elapsed = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

/**
 * A transport that traces every `tools/call` passing through it, and adds the `trace_id` to each
 * result's `_meta`. It wraps the real transport (stdio) and forwards everything else unchanged.
 *
 * Requests are keyed by id. JSON-RPC asks a client for ids unique among its requests in flight; when a
 * request comes with the id of one still in flight, it is held back (at most
 * {@linkcode MAX_HELD_PER_ID} per id; more are answered with a `-32600` error) and passed to the server
 * once the earlier one is answered or cancelled. So each gets its own answer, its own trace line and
 * its own `trace_id`, and no answer can be taken for another's. Arguments are redacted on arrival,
 * within fixed bounds (see {@linkcode redactArgs}); a failure inside the tracing is written to stderr
 * and never keeps an answer from being sent. Calls still open when the connection closes are traced as
 * `unanswered`. SDK-made error texts longer than {@linkcode MAX_ERROR_CHARS} are cut.
 */
export class TracingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  /** Requests by id: the first is in flight, the rest are held back. */
  #byId = new Map<string | number, Entry[]>();
  /** Waiting for nothing to be in flight (stdin ended). */
  #idle: (() => void)[] = [];

  /**
   * @param inner The real transport; when it refuses frames itself (`onrefused`, as
   *   `StdioFrameTransport` does), refused frames that may be calls are traced too.
   * @param write Receives each finished record (null: tracing is off, only `_meta` is added).
   * @param warn Receives a line for a failure inside the tracing (default: stderr).
   */
  constructor(
    readonly inner: Transport & { onrefused?: (f: RefusedFrame) => void; oninputend?: () => void },
    readonly write: ((r: TraceRecord) => void) | null,
    readonly warn: (line: string) => void = (l) => console.error(l),
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onclose = () => {
      this.#closeOpenCalls();
      this.onclose?.();
    };
    this.inner.onerror = (e: Error) => this.onerror?.(e);
    this.inner.onmessage = (message: Message, extra?: Message) => this.#incoming(message, extra);
    this.inner.onrefused = (f: RefusedFrame) => this.#refused(f);
    // The client closed stdin: answer what is in flight (an answer it may still read), then close.
    this.inner.oninputend = () => void this.#drained().then(() => this.inner.close());
    await this.inner.start();
  }

  async send(message: Message, options?: Parameters<Transport["send"]>[1]): Promise<void> {
    let out = message;
    try {
      out = this.#outgoing(message);
    } catch (e) {
      this.#fail("an answer", e);
    }
    await this.inner.send(out, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  #fail(what: string, e: unknown): void {
    try {
      this.warn(
        `logpeek: tracing ${what} failed: ${cutErrorText(e instanceof Error ? e.message : String(e))}`,
      );
    } catch {
      // nowhere left to say it
    }
  }

  #record(r: TraceRecord): void {
    try {
      this.write?.(r);
    } catch (e) {
      this.#fail("a call", e);
    }
  }

  /** Resolves when no request is in flight or held, or after {@linkcode DRAIN_MS}. */
  #drained(): Promise<void> {
    if (this.#byId.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#idle = this.#idle.filter((f) => f !== done);
        resolve();
      };
      const timer = setTimeout(done, DRAIN_MS);
      this.#idle.push(done);
    });
  }

  #deliver(e: Entry): void {
    this.onmessage?.(e.message, e.extra as Message);
  }

  #incoming(m: Message, extra: unknown): void {
    let entry: Entry | null = null;
    try {
      if (typeof m?.method === "string" && m.id !== undefined && m.id !== null) {
        entry = { message: m, extra, call: m.method === "tools/call" ? this.#open(m) : null };
        const queue = this.#byId.get(m.id);
        if (!queue) this.#byId.set(m.id, [entry]);
        else if (queue.length <= MAX_HELD_PER_ID) {
          queue.push(entry); // held back until the earlier ones with this id are answered
          return;
        } else {
          this.#refuseDuplicate(entry, queue.length);
          return;
        }
      } else if (m?.method === "notifications/cancelled") {
        this.#cancelled(m);
      }
    } catch (e) {
      this.#fail("a request", e);
    }
    this.onmessage?.(m, extra as Message);
  }

  #open(m: Message): Pending {
    const name = m.params?.name;
    return {
      trace_id: newTraceId(),
      tool: maskAndCut(typeof name === "string" ? name : "(no name)", MAX_TOOL_CHARS),
      args: redactArgs(m.params?.arguments ?? {}),
      t0: performance.now(),
    };
  }

  /** The request that was first with its id is done: the next one held back with that id goes in. */
  #finish(id: string | number): Entry | undefined {
    const queue = this.#byId.get(id);
    if (!queue) return undefined;
    const done = queue.shift();
    if (queue.length === 0) {
      this.#byId.delete(id);
      if (this.#byId.size === 0) { for (const f of [...this.#idle]) f(); }
    } else {
      const next = queue[0];
      // After the SDK has finished with the earlier one (its cancellation runs in a microtask).
      setTimeout(() => {
        if (this.#byId.get(id)?.[0] === next) this.#deliver(next);
      }, 0);
    }
    return done;
  }

  #cancelled(m: Message): void {
    // The SDK sends no response to a cancelled request: the call is traced now.
    const id = m.params?.requestId;
    if (id === undefined || id === null || !this.#byId.has(id)) return;
    const done = this.#finish(id);
    if (done?.call) {
      this.#record({
        ...this.#base(done.call),
        ok: false,
        error: {
          kind: "cancelled",
          message: maskAndCut(
            `the client cancelled the call (${String(m.params?.reason ?? "")})`,
            MAX_ARG_CHARS,
          ),
        },
        out_chars: 0,
        cancelled: true,
      });
    }
  }

  #base(p: Pending): Omit<TraceRecord, "ok" | "error" | "out_chars"> {
    return {
      trace_id: p.trace_id,
      tool: p.tool,
      args: p.args,
      ms: elapsed(p.t0),
      spilled: false,
      artifact_id: null,
      ts: isoWithOffset(new Date()),
    };
  }

  #refuseDuplicate(entry: Entry, inFlight: number): void {
    const message = `Invalid Request: ${inFlight} requests with id ${
      cutErrorText(JSON.stringify(entry.message.id))
    } are in flight already; ids must be unique`;
    if (entry.call) {
      this.#record({
        ...this.#base(entry.call),
        ok: false,
        error: { kind: "protocol_error", message: maskAndCut(message, MAX_ARG_CHARS) },
        out_chars: 0,
      });
    }
    this.inner.send({ jsonrpc: "2.0", id: entry.message.id, error: { code: -32600, message } })
      .catch((e: unknown) => this.#fail("a refusal", e));
  }

  #refused(f: RefusedFrame): void {
    if (f.method !== null && f.method !== "tools/call") return;
    this.#record({
      trace_id: newTraceId(),
      tool: "(unread frame)",
      args: {},
      ms: 0,
      ok: false,
      error: {
        kind: f.code === -32700 ? "parse_error" : "invalid_request",
        message: maskAndCut(f.message, MAX_ARG_CHARS),
      },
      out_chars: 0,
      spilled: false,
      artifact_id: null,
      ts: isoWithOffset(new Date()),
    });
  }

  #closeOpenCalls(): void {
    for (const queue of this.#byId.values()) {
      for (const e of queue) {
        if (!e.call) continue;
        this.#record({
          ...this.#base(e.call),
          ok: false,
          error: { kind: "unanswered", message: "the connection closed before the call was answered" },
          out_chars: 0,
        });
      }
    }
    this.#byId.clear();
  }

  #outgoing(m: Message): Message {
    if (m?.id === undefined || m.id === null || !("result" in m || "error" in m)) return m;
    if (m.error && typeof m.error.message === "string" && m.error.message.length > MAX_ERROR_CHARS) {
      m = { ...m, error: { ...m.error, message: cutErrorText(m.error.message) } };
    }
    const result = m.result;
    if (result?.isError && Array.isArray(result.content)) {
      const content = result.content.map((c: { type: string; text?: string }) =>
        c?.type === "text" && typeof c.text === "string" && c.text.startsWith("MCP error") &&
          c.text.length > MAX_ERROR_CHARS
          ? { ...c, text: cutErrorText(c.text) }
          : c
      );
      m = { ...m, result: { ...result, content } };
    }
    const done = this.#finish(m.id);
    const p = done?.call;
    if (!p) return m;
    const res = m.result;
    const text: string = (Array.isArray(res?.content) ? res.content : [])
      .map((c: { type: string; text?: string }) => (c?.type === "text" ? c.text ?? "" : ""))
      .join("\n");
    const artifact = res?.structuredContent?.artifact;
    let error: TraceRecord["error"] = null;
    if (m.error) {
      error = { kind: "protocol_error", message: maskAndCut(String(m.error.message), MAX_ARG_CHARS) };
    } else if (res?.isError) {
      const kind = /^([a-z_]{1,40}): /.exec(text)?.[1] ??
        (/^MCP error -?\d+/.test(text) ? "invalid_call" : "tool_error");
      error = { kind, message: maskAndCut(text, MAX_ARG_CHARS) };
    }
    this.#record({
      ...this.#base(p),
      ok: error === null,
      error,
      out_chars: text.length,
      spilled: Boolean(artifact),
      artifact_id: typeof artifact?.artifact_id === "string" ? artifact.artifact_id : null,
    });
    if (res && typeof res === "object") {
      return { ...m, result: { ...res, _meta: { ...(res._meta ?? {}), trace_id: p.trace_id } } };
    }
    return m;
  }
}
