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
 * Permission: write access to the state directory.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/shared/transport.d.ts"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { redactLine } from "./redact.ts";

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

/** Longest string kept in a traced argument, in characters (issue #3). */
export const MAX_ARG_CHARS = 200;

const SECRET_KEY =
  /^(?:.*[_-])?(?:token|password|passwd|secret|api[_-]?key|apikey|authorization|cookie|credentials?|private[_-]?key)$/i;

/**
 * Redacts call arguments for the trace: values under secret-looking keys become `"***"`, secrets inside
 * strings are masked, and strings longer than {@linkcode MAX_ARG_CHARS} are cut with a marker.
 *
 * @param value The arguments (any JSON value).
 * @param redact False for `--no-redact`: only the key rule and the cut apply.
 * @returns A redacted copy.
 */
export function redactArgs(value: unknown, redact = true): unknown {
  if (typeof value === "string") {
    const s = redact ? redactLine(value).text : value;
    return s.length > MAX_ARG_CHARS
      ? `${s.slice(0, MAX_ARG_CHARS)}…[cut ${s.length - MAX_ARG_CHARS} chars]`
      : s;
  }
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactArgs(v, redact));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? "***" : redactArgs(v, redact)]),
    );
  }
  return value;
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

interface Pending {
  trace_id: string;
  tool: string;
  args: unknown;
  t0: number;
}

// deno-lint-ignore no-explicit-any
type Message = any;

/**
 * A transport that traces every `tools/call` passing through it, and adds the `trace_id` to each
 * result's `_meta`. It wraps the real transport (stdio) and forwards everything else unchanged.
 */
export class TracingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  #pending = new Map<string | number, Pending>();

  /**
   * @param inner The real transport.
   * @param write Receives each finished record (null: tracing is off, only `_meta` is added).
   * @param redact False for `--no-redact`.
   */
  constructor(
    readonly inner: Transport,
    readonly write: ((r: TraceRecord) => void) | null,
    readonly redact = true,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e: Error) => this.onerror?.(e);
    this.inner.onmessage = (message: Message, extra?: Message) => {
      this.#observeIncoming(message);
      this.onmessage?.(message, extra);
    };
    await this.inner.start();
  }

  async send(message: Message, options?: Parameters<Transport["send"]>[1]): Promise<void> {
    const out = this.#observeOutgoing(message);
    await this.inner.send(out, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  #observeIncoming(m: Message): void {
    if (m?.method === "tools/call" && m.id !== undefined) {
      this.#pending.set(m.id, {
        trace_id: crypto.randomUUID().replaceAll("-", "").slice(0, 16),
        tool: typeof m.params?.name === "string" ? m.params.name : String(m.params?.name),
        args: m.params?.arguments ?? {},
        t0: performance.now(),
      });
    } else if (m?.method === "notifications/cancelled") {
      // The SDK sends no response to a cancelled request: the call is traced now.
      const id = m.params?.requestId;
      const p = this.#pending.get(id);
      if (p) {
        this.#pending.delete(id);
        this.write?.({
          trace_id: p.trace_id,
          tool: p.tool,
          args: redactArgs(p.args, this.redact),
          ms: Math.round((performance.now() - p.t0) * 100) / 100,
          ok: false,
          error: {
            kind: "cancelled",
            message: `the client cancelled the call (${String(m.params?.reason ?? "")})`,
          },
          out_chars: 0,
          spilled: false,
          artifact_id: null,
          ts: isoWithOffset(new Date()),
          cancelled: true,
        });
      }
    }
  }

  #observeOutgoing(m: Message): Message {
    if (m?.id === undefined || !("result" in m || "error" in m)) return m;
    const p = this.#pending.get(m.id);
    if (!p) return m;
    this.#pending.delete(m.id);
    const result = m.result;
    const text: string = (result?.content ?? [])
      .map((c: { type: string; text?: string }) => (c.type === "text" ? c.text ?? "" : ""))
      .join("\n");
    const artifact = result?.structuredContent?.artifact;
    let error: TraceRecord["error"] = null;
    if (m.error) error = { kind: "protocol_error", message: String(m.error.message) };
    else if (result?.isError) {
      const kind = /^([a-z_]+): /.exec(text)?.[1] ??
        (/^MCP error -?\d+/.test(text) ? "invalid_call" : "tool_error");
      error = { kind, message: redactArgs(text, this.redact) as string };
    }
    this.write?.({
      trace_id: p.trace_id,
      tool: p.tool,
      args: redactArgs(p.args, this.redact),
      ms: Math.round((performance.now() - p.t0) * 100) / 100,
      ok: error === null,
      error,
      out_chars: text.length,
      spilled: Boolean(artifact),
      artifact_id: artifact?.artifact_id ?? null,
      ts: isoWithOffset(new Date()),
    });
    if (result && typeof result === "object") {
      return { ...m, result: { ...result, _meta: { ...(result._meta ?? {}), trace_id: p.trace_id } } };
    }
    return m;
  }
}
