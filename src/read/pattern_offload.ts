/**
 * Testing a pattern on one long line where the test can be stopped: in a separate worker that is
 * terminated when the call's time budget runs out or the client cancels (issue #11, item 3;
 * `../shared/cases/24-slow-regex-overruns-budget`).
 *
 * Why: RE2's linear time is linear in the line's length times the size of the compiled pattern, and a
 * lazy DFA that keeps missing its cache falls back to the NFA: one 64 KiB line can cost seconds
 * (`(?:a|aa){1,1000}b` on 64 Ki `a`s: 3 s here; `[ab]*a[ab]{20}c` on random `ab`: 0.3 s). JavaScript
 * cannot interrupt a running function, and a search runs in the tool worker, whose event loop also
 * carries every other call and the client's cancel. So a line that may be slow ({@linkcode isHeavy})
 * is sent to a worker; the search awaits it, and terminates it at the deadline or on cancel.
 *
 * The worker runs the program's main module: `main.ts` calls {@linkcode runPatternWorker} when the
 * worker's name is {@linkcode PATTERN_WORKER_NAME}.
 *
 * @module
 */

import { RE2JS } from "re2js";

/** The name the pattern worker runs under (`main.ts` dispatches on it). */
export const PATTERN_WORKER_NAME = "logpeek-pattern";

/**
 * Lines of at most this many bytes (4 KiB), with a compiled pattern small enough
 * ({@linkcode isHeavy}), are tested in place: measured worst cases stay under ~20 ms a line.
 */
export const LIGHT_BYTES = 4096;

/**
 * Pattern size × bytes above which a line is tested in the worker: ≈ 30 ms at worst here (a trial
 * measured 50 ms for `[ab]*a[ab]{200}c` on 4 KiB lines at 1.7 M, which 4 M let run in place).
 */
export const LIGHT_COST = 1_000_000;

/**
 * True when testing `bytes` bytes against a pattern of `programSize` instructions may take long enough
 * (tens of milliseconds or more) to hold the call past its budget or delay a cancel.
 *
 * @param programSize `RE2JS.programSize()`.
 * @param bytes The bytes to be tested.
 */
export function isHeavy(programSize: number, bytes: number): boolean {
  return bytes > LIGHT_BYTES || programSize * bytes > LIGHT_COST;
}

/**
 * How a test in the worker ended. `unavailable`: the worker cannot start (its module is not readable:
 * Deno checks read permission when a worker loads its module); the caller tests in its own thread.
 */
export type OffloadOutcome = "match" | "no_match" | "time_budget" | "cancelled" | "unavailable";

/**
 * Tests a pattern on one line where the test can be stopped. {@linkcode PatternOffload} does it in a
 * worker started by the calling thread; the tool worker (`server/tool_worker.ts`) asks the main thread
 * to (a worker started by a worker starts and answers ten times slower in Deno: 0.5 s and 5 ms a
 * message, measured).
 */
export interface PatternTester {
  /**
   * @param pattern The pattern's source (RE2 syntax; it compiles).
   * @param flags RE2JS flags (`RE2JS.CASE_INSENSITIVE` or 0).
   * @param bytes The line's bytes (copied before the call returns: the caller may reuse its buffer).
   * @param ms How long the test may take, in ms.
   * @param signal Aborted when the client cancels.
   * @returns Whether the pattern matched, or why the test was stopped.
   */
  test(
    pattern: string,
    flags: number,
    bytes: Uint8Array,
    ms: number,
    signal?: AbortSignal,
  ): Promise<OffloadOutcome>;
  /**
   * Starts the worker now, if it is not running, so that a first test does not wait for it (a search
   * with a pattern calls it before it reads).
   */
  warm(): void;
}

/** A request to the pattern worker. */
interface Request {
  id: number;
  pattern: string;
  flags: number;
  bytes: Uint8Array;
}

/**
 * Tests lines in a worker that can be stopped; the worker starts on the first test (tens of
 * milliseconds) and is sent nothing but the patterns and the lines' bytes. A test that runs out of time
 * or is cancelled terminates the worker (other tests waiting on it end as `time_budget`); the next test
 * starts a new one. {@linkcode close} it when done.
 */
export class PatternOffload implements PatternTester, Disposable {
  #worker: Worker | null = null;
  #next = 1;
  #waiting = new Map<number, (outcome: OffloadOutcome) => void>();
  /** The worker has answered at least once (an error before that is a failure to start). */
  #answered = false;
  /** Why the worker cannot start, once it failed to; every later test is `unavailable`. */
  #unavailable: string | null = null;

  /**
   * @param opts `noPermissions`: start the worker with no permission at all (Deno's unstable
   *   `deno.permissions: "none"`; it needs `--unstable-worker-options`, without which Deno ends the process).
   *   The worker reads nothing but messages; without this it has the permissions of the thread that starts
   *   it, which is right when that thread's are already narrow.
   */
  constructor(readonly opts: { noPermissions?: boolean } = {}) {}

  /** {@inheritDoc PatternTester.test} */
  async test(
    pattern: string,
    flags: number,
    bytes: Uint8Array,
    ms: number,
    signal?: AbortSignal,
  ): Promise<OffloadOutcome> {
    if (signal?.aborted) return "cancelled";
    if (this.#unavailable !== null) return "unavailable";
    if (ms <= 0) return "time_budget";
    const worker = this.#start();
    const id = this.#next++;
    const copy = bytes.slice();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    try {
      const outcome = await new Promise<OffloadOutcome>((resolve) => {
        this.#waiting.set(id, resolve);
        timer = setTimeout(() => resolve("time_budget"), ms);
        onAbort = () => resolve("cancelled");
        signal?.addEventListener("abort", onAbort, { once: true });
        const req: Request = { id, pattern, flags, bytes: copy };
        worker.postMessage(req, [copy.buffer]);
      });
      if (outcome === "time_budget" || outcome === "cancelled") this.#stop("time_budget");
      return outcome;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      this.#waiting.delete(id);
    }
  }

  /** {@inheritDoc PatternTester.warm} */
  warm(): void {
    if (this.#unavailable === null) this.#start();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const url = workerUrl();
    // The worker inherits the permissions of the code that starts it, already narrowed to the roots (a
    // `deno.permissions` option would end the process with exit 70 without --unstable-worker-options).
    const worker = new Worker(url, {
      type: "module",
      name: PATTERN_WORKER_NAME,
      // @ts-ignore: `deno.permissions` is an unstable Worker option (--unstable-worker-options)
      ...(this.opts.noPermissions ? { deno: { permissions: "none" } } : {}),
    });
    worker.onmessage = (e: MessageEvent<{ id: number; match: boolean }>) => {
      this.#answered = true;
      this.#waiting.get(e.data.id)?.(e.data.match ? "match" : "no_match");
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      if (this.#answered) {
        console.error(`logpeek: the pattern worker failed: ${e.message}`);
        this.#stop("time_budget");
        return;
      }
      this.#unavailable = e.message;
      console.error(
        `logpeek: the pattern worker cannot start (${e.message}): lines over ${LIGHT_BYTES} bytes are ` +
          "tested in the calling thread, where a costly pattern can overrun the time budget and a cancel " +
          `waits for the line; allow reading ${
            patternWorkerFolder() ?? url
          } (\`logpeek config\` prints such flags)`,
      );
      this.#stop("unavailable");
    };
    this.#worker = worker;
    return worker;
  }

  #stop(outcome: OffloadOutcome): void {
    this.#worker?.terminate();
    this.#worker = null;
    for (const resolve of this.#waiting.values()) resolve(outcome);
  }

  /** Terminates the worker, if one was started. */
  close(): void {
    this.#stop("time_budget");
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

/**
 * The worker's module: this file when run from source (it starts in tens of milliseconds: it imports
 * only RE2JS), else the program's main module (a bundle, a compiled binary), whose `main.ts` dispatches
 * on the worker's name.
 */
function workerUrl(): string {
  // In a bundle this module's URL is the bundle's, which is also the main module (and a worker has no
  // Deno.mainModule).
  return import.meta.url.endsWith("/read/pattern_offload.ts")
    ? import.meta.url
    : (Deno.mainModule ?? import.meta.url);
}

/**
 * The folder the pattern worker's module is read from, or null when it is not a file. Deno checks read
 * permission when a worker loads its module, so the server's `--allow-read` list holds this folder
 * (`cli/flags.ts`): source files of logpeek itself, no log.
 *
 * @returns An absolute path, or null.
 */
export function patternWorkerFolder(): string | null {
  const url = workerUrl();
  // (No node:path here: importing a node: module makes the worker start far slower.)
  return url.startsWith("file:") ? decodeURIComponent(new URL(".", url).pathname).replace(/\/$/, "") : null;
}

/** True when this module runs in the pattern worker. */
export function inPatternWorker(): boolean {
  // deno-lint-ignore no-explicit-any
  const scope = (globalThis as any).WorkerGlobalScope;
  return typeof scope !== "undefined" && self instanceof scope && self.name === PATTERN_WORKER_NAME;
}

/**
 * Answers test requests; runs when this module, or `main.ts` (a bundle, a compiled binary), is the
 * pattern worker's module. A second call does nothing (in a bundle both run).
 */
export function runPatternWorker(): void {
  const running = Symbol.for("logpeek.patternWorker");
  // deno-lint-ignore no-explicit-any
  if ((globalThis as any)[running]) return;
  // deno-lint-ignore no-explicit-any
  (globalThis as any)[running] = true;
  let compiled: { key: string; re: RE2JS } | null = null;
  globalThis.addEventListener("message", (e: Event) => {
    const m = (e as MessageEvent<Request>).data;
    const key = `${m.flags}:${m.pattern}`;
    if (compiled?.key !== key) compiled = { key, re: RE2JS.compile(m.pattern, m.flags) };
    (self as unknown as Worker).postMessage({ id: m.id, match: compiled.re.test(m.bytes) });
  });
}

if (import.meta.main && inPatternWorker()) runPatternWorker();
