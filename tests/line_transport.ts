/**
 * A stdio client transport for the MCP SDK's `Client` that splits the server's output into lines by
 * looking for the line feed in each new chunk only (`Uint8Array.indexOf`) — for the benchmark.
 *
 * Why: the SDK's `StdioClientTransport` appends every chunk to one Node `Buffer` and searches the whole
 * buffer again for `\n` after each chunk (`shared/stdio.js` `ReadBuffer`): an answer of n chunks costs
 * O(n²), and Deno's `Buffer.indexOf` runs in JavaScript. Measured here (`bench/real_log.ts` row 4: 39
 * answers of 1.5 MB): the client spent ~3 s of CPU in `ReadBuffer`, against ~2 s for the server's whole
 * work. The messages are the same (`JSONRPCMessageSchema`, as the SDK parses them); only the splitting
 * differs, so a time measured through this transport is the server's, not the client's.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/shared/transport.d.ts"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/types.d.ts"
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { join } from "../src/server/stdio_transport.ts";

/**
 * Splits a byte stream into lines without re-reading bytes already searched.
 *
 * @example
 * ```ts
 * import { LineSplitter } from "./line_transport.ts";
 * const out: string[] = [];
 * const s = new LineSplitter((l) => out.push(l));
 * s.push(new TextEncoder().encode('{"a"'));
 * s.push(new TextEncoder().encode(':1}\n{"b":2}\n'));
 * console.assert(out.join("|") === '{"a":1}|{"b":2}');
 * ```
 */
export class LineSplitter {
  #parts: Uint8Array[] = [];
  #dec = new TextDecoder();
  /** @param onLine Receives each line, decoded (UTF-8), without its `\n` or a `\r` before it. */
  constructor(readonly onLine: (line: string) => void) {}

  /** Takes the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    let from = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
      this.#parts.push(chunk.subarray(from, nl));
      const whole = join(this.#parts);
      this.#parts = [];
      let line = this.#dec.decode(whole);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      this.onLine(line);
      from = nl + 1;
    }
    if (from < chunk.length) this.#parts.push(chunk.slice(from));
  }
}

/**
 * Runs `command args` with piped stdio and carries JSON-RPC messages, one per line, to and from it.
 * The server's stderr is handed to `onStderr`.
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #child: Deno.ChildProcess | null = null;
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  #enc = new TextEncoder();
  #closed = false;

  /**
   * @param command The program.
   * @param args Its arguments.
   * @param env Its whole environment.
   * @param onStderr Receives the server's stderr, chunk by chunk.
   */
  constructor(
    readonly command: string,
    readonly args: string[],
    readonly env: Record<string, string>,
    readonly onStderr: (text: string) => void,
  ) {}

  /** The child's process id, once started. */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  /** Spawns the server and starts reading its output. */
  start(): Promise<void> {
    const child = new Deno.Command(this.command, {
      args: this.args,
      env: this.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    const splitter = new LineSplitter((line) => {
      if (line.trim() === "") return;
      try {
        this.onmessage?.(JSONRPCMessageSchema.parse(JSON.parse(line)));
      } catch (e) {
        this.onerror?.(e instanceof Error ? e : new Error(String(e)));
      }
    });
    void (async () => {
      for await (const chunk of child.stdout) splitter.push(chunk);
      this.#end();
    })();
    void (async () => {
      const dec = new TextDecoder();
      for await (const chunk of child.stderr) this.onStderr(dec.decode(chunk, { stream: true }));
    })();
    return Promise.resolve();
  }

  /** Writes one message as a line. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closed) throw new Error("the transport is closed");
    await this.#writer.write(this.#enc.encode(JSON.stringify(message) + "\n"));
  }

  /** Closes the server's stdin (it then exits), waits for it, and calls `onclose`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#writer?.close();
    } catch { /* already gone */ }
    await this.#child?.status;
    this.#end();
  }

  #end(): void {
    const f = this.onclose;
    this.onclose = undefined;
    f?.();
  }
}
