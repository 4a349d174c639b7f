/**
 * The tool worker: where logpeek touches log files, inside a Web Worker whose Deno permissions are
 * narrowed at run time to the roots (read), the state directory (read, write), and nothing else — no
 * env, net, run, ffi, sys or import — whatever the process as a whole was granted (issue #4). A
 * compiled binary has its permissions fixed when it is built, but its roots are known only when it
 * starts: this is how it is confined to them anyway.
 *
 * The worker runs the same module as the process (`main.ts` sees it is in a worker), so a bundle or a
 * compiled binary stays one file.
 *
 * Messages: `{type: "init", init}` once, then `{type: "call", id, tool, args}`; it answers
 * `{type: "ready"}` and `{type: "result", id, result}`.
 *
 * @module
 */

import { join } from "node:path";
import { ArtifactStore } from "../state/artifacts.ts";
import type { Limits } from "../core/config.ts";
import { localDispatch } from "./handlers.ts";
import type { OffloadOutcome, PatternTester } from "../read/pattern_offload.ts";
import type { Root } from "../source/local/roots.ts";
import type { ClickHouseTarget } from "../source/clickhouse/target.ts";
import type { Dispatch } from "../tools/deps.ts";

/** What the worker is started with (plain data: it crosses `postMessage`). */
export interface WorkerInit {
  roots: Root[];
  /** A ClickHouse root instead of `roots` (issue #14): the worker may reach its `HOST:PORT` only. */
  clickhouse?: ClickHouseTarget;
  limits: Limits;
  /** The state directory when usable, else null. */
  stateDir: string | null;
  artifactsOff: string | null;
  redact: boolean;
  /**
   * Test only: skip logpeek's own path checks, to show that Deno's permissions alone still confine
   * the worker. Never set by the command line or the environment.
   */
  unsafeNoPathCheck?: boolean;
}

/** A message to the worker. */
export type ToWorker =
  | { type: "init"; init: WorkerInit }
  | { type: "call"; id: number; tool: string; args: Record<string, unknown>; progress: boolean }
  | { type: "cancel"; id: number }
  | { type: "pattern_result"; id: number; outcome: OffloadOutcome };

/**
 * A message from the worker: ready, a call's progress or result, or a pattern test it asks the main
 * thread to run (`read/pattern_offload.ts`: a worker started by a worker is slow) or to stop.
 */
export type FromWorker =
  | { type: "ready" }
  | { type: "progress"; id: number; offset: number; total: number; message: string }
  | { type: "result"; id: number; result: unknown }
  | { type: "pattern"; id: number; pattern: string; flags: number; bytes: Uint8Array; ms: number }
  | { type: "pattern_cancel"; id: number }
  | { type: "pattern_warm" };

/** True in a Web Worker (not the main thread). */
export function inWorker(): boolean {
  // deno-lint-ignore no-explicit-any
  const scope = (globalThis as any).WorkerGlobalScope;
  return typeof scope !== "undefined" && self instanceof scope;
}

/** Starts answering messages; called by `main.ts` when it runs as the worker. */
export function runToolWorker(): void {
  let dispatch: Dispatch | null = null;
  const calls = new Map<number, AbortController>();
  const post = (m: FromWorker, transfer: Transferable[] = []) =>
    (self as unknown as Worker).postMessage(m, transfer);
  const tests = new Map<number, (outcome: OffloadOutcome) => void>();
  let nextTest = 1;
  // Pattern tests run by the main thread, in its pattern worker.
  const patterns: PatternTester = {
    warm: () => post({ type: "pattern_warm" }),
    test(pattern, flags, bytes, ms, signal) {
      if (signal?.aborted) return Promise.resolve("cancelled");
      const id = nextTest++;
      const copy = bytes.slice();
      let timer: ReturnType<typeof setTimeout> | undefined;
      return new Promise<OffloadOutcome>((resolve) => {
        const onAbort = () => {
          post({ type: "pattern_cancel", id });
          resolve("cancelled");
        };
        tests.set(id, (outcome) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(outcome);
        });
        signal?.addEventListener("abort", onAbort, { once: true });
        // The main thread stops the test at `ms` too, but its answer can come tens of ms late (measured
        // 35–65 ms): the deadline is kept here as well.
        timer = setTimeout(() => {
          signal?.removeEventListener("abort", onAbort);
          post({ type: "pattern_cancel", id });
          resolve("time_budget");
        }, Math.max(0, ms));
        post({ type: "pattern", id, pattern, flags, bytes: copy, ms }, [copy.buffer]);
      }).finally(() => {
        clearTimeout(timer);
        tests.delete(id);
      });
    },
  };
  globalThis.addEventListener("message", async (e: Event) => {
    const m = (e as MessageEvent<ToWorker>).data;
    if (m.type === "init") {
      const i = m.init;
      dispatch = localDispatch({
        roots: i.unsafeNoPathCheck ? i.roots.map((r) => ({ ...r, unsafeNoPathCheck: true })) : i.roots,
        clickhouse: i.clickhouse,
        limits: i.limits,
        stderr: (line) => console.error(line),
        artifacts: i.stateDir
          ? new ArtifactStore(
            join(i.stateDir, "artifacts"),
            i.limits.artifactTtlS * 1000,
            i.limits.artifactMaxBytes,
          )
          : null,
        artifactsOff: i.artifactsOff,
        redact: i.redact,
        patterns,
      });
      post({ type: "ready" });
    } else if (m.type === "cancel") {
      calls.get(m.id)?.abort();
    } else if (m.type === "pattern_result") {
      tests.get(m.id)?.(m.outcome);
    } else if (m.type === "call") {
      const ac = new AbortController();
      calls.set(m.id, ac);
      const progress = m.progress
        ? (offset: number, total: number, message: string) =>
          post({ type: "progress", id: m.id, offset, total, message })
        : undefined;
      const result = dispatch ? await dispatch(m.tool, m.args, { signal: ac.signal, progress }) : {
        content: [{ type: "text", text: "internal_error: the tool worker was not initialised" }],
        isError: true,
      };
      calls.delete(m.id);
      post({ type: "result", id: m.id, result });
    }
  });
}
