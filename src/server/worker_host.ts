/**
 * Starting the tool worker with narrowed permissions, and dispatching tool calls to it (issue #4).
 *
 * The worker gets read access to the roots, their real paths, the state directory and the program's own
 * folder (a worker must read its module to start), write access to the state directory, and nothing
 * else. Deno requires `--unstable-worker-options` for `Worker` `deno.permissions`.
 *
 * @module
 */

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolResult } from "../tools/outcome.ts";
import type { CallContext, Dispatch } from "../tools/deps.ts";
import type { FromWorker, ToWorker, WorkerInit } from "./tool_worker.ts";
import { PatternOffload } from "../read/pattern_offload.ts";
import { longName } from "./handlers.ts";

/** A running tool worker. */
export interface ToolWorker extends Disposable {
  /** Runs a tool in the worker. */
  dispatch: Dispatch;
  /** The permissions the worker was given. */
  permissions: { read: string[]; write: string[] };
  /** Stops the worker. */
  close(): void;
}

/** The worker could not be started with narrowed permissions; `main` prints it and exits 1. */
export class WorkerPermissionError extends Error {
  /** @param message What is missing. */
  constructor(message: string) {
    super(message);
    this.name = "WorkerPermissionError";
  }
}

/**
 * The tool worker, with read permission on `read` only, write on `write`, the network only for a
 * ClickHouse root's HOST:PORT (issue #14), and nothing else.
 *
 * @throws {WorkerPermissionError} when `--unstable-worker-options` is missing.
 */
function narrowedWorker(moduleUrl: string, read: string[], write: string[], init: WorkerInit): Worker {
  try {
    return new Worker(moduleUrl, {
      type: "module",
      name: "logpeek-tools",
      // @ts-ignore: `deno.permissions` is an unstable Worker option (--unstable-worker-options)
      deno: {
        permissions: {
          read,
          write: write.length ? write : false,
          env: false,
          net: init.clickhouse ? [init.clickhouse.netPermission] : false,
          run: false,
          ffi: false,
          sys: false,
          import: false,
        },
      },
    });
  } catch (e) {
    throw new WorkerPermissionError(
      "logpeek narrows its read permission to the roots in a worker, which needs --unstable-worker-options " +
        `(or grant --allow-read for the roots only): ${e instanceof Error ? e.message : e}`,
    );
  }
}

/**
 * Starts the tool worker.
 *
 * @param moduleUrl The module the worker runs (the program's main module).
 * @param init Roots, limits, state directory.
 * @returns The worker, ready for calls.
 * @throws {WorkerPermissionError} when `--unstable-worker-options` is missing.
 */
export async function startToolWorker(moduleUrl: string, init: WorkerInit): Promise<ToolWorker> {
  const read = [...new Set(init.roots.flatMap((r) => [r.path, r.real]))];
  const write: string[] = [];
  if (init.stateDir) {
    read.push(init.stateDir);
    write.push(init.stateDir);
  }
  if (moduleUrl.startsWith("file:")) read.push(dirname(fileURLToPath(moduleUrl)));
  const worker = narrowedWorker(moduleUrl, read, write, init);
  const pending = new Map<number, { resolve: (r: ToolResult) => void; call?: CallContext }>();
  let nextId = 1;
  let ready!: () => void;
  let failed!: (e: Error) => void;
  const started = new Promise<void>((res, rej) => {
    ready = res;
    failed = rej;
  });
  const fail = (why: string) => {
    for (const [id, p] of pending) {
      pending.delete(id);
      p.resolve({
        content: [{ type: "text", text: `internal_error: the tool worker failed (${why})` }],
        isError: true,
      });
    }
  };
  // The worker's pattern tests (read/pattern_offload.ts), run in a worker started from this thread.
  // This thread may read everything (that is why the tools run in a narrowed worker): the pattern worker
  // gets no permission at all (--unstable-worker-options is on, or the tool worker would not have started).
  const patterns = new PatternOffload({ noPermissions: true });
  const tests = new Map<number, AbortController>();
  worker.onmessage = (e: MessageEvent<FromWorker>) => {
    const m = e.data;
    if (m.type === "pattern") {
      const ac = new AbortController();
      tests.set(m.id, ac);
      void patterns.test(m.pattern, m.flags, m.bytes, m.ms, ac.signal).then((outcome) => {
        tests.delete(m.id);
        send({ type: "pattern_result", id: m.id, outcome });
      });
    } else if (m.type === "pattern_cancel") tests.get(m.id)?.abort();
    else if (m.type === "pattern_warm") patterns.warm();
    else if (m.type === "ready") ready();
    else if (m.type === "progress") pending.get(m.id)?.call?.progress?.(m.offset, m.total, m.message);
    else if (m.type === "result") {
      pending.get(m.id)?.resolve(m.result as ToolResult);
      pending.delete(m.id);
    }
  };
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    console.error(`logpeek: the tool worker failed: ${e.message}`);
    failed(new Error(e.message));
    fail(e.message);
  };
  const send = (m: ToWorker) => worker.postMessage(m);
  send({ type: "init", init });
  await started;
  const close = () => {
    fail("closed");
    worker.terminate();
    patterns.close();
  };
  return {
    permissions: { read, write },
    dispatch: (tool, args, call) => {
      // Refused here, as the worker would: a name of megabytes is not copied into the worker first.
      const long = init.clickhouse ? null : longName(args);
      if (long) return Promise.resolve({ content: [{ type: "text", text: long }], isError: true });
      return new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, { resolve, call });
        send({ type: "call", id, tool, args, progress: Boolean(call?.progress) });
        call?.signal?.addEventListener("abort", () => send({ type: "cancel", id }), { once: true });
      });
    },
    close,
    [Symbol.dispose]: close,
  };
}
