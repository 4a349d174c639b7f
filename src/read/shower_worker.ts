/**
 * Showing lines in a second thread (issue #13): `log_patterns` spends about as long masking secrets in a
 * line as mining it, and this machine has two cores, so batches of lines are decoded and masked
 * ({@linkcode showLines}) in a worker while the calling thread mines the batch before.
 *
 * The worker runs this module from source (it imports only the decoder and the redactor), else the
 * program's main module (a bundle, a compiled binary), whose `main.ts` dispatches on the worker's name
 * {@linkcode SHOWER_WORKER_NAME}. It needs no permission but reading its own module (the folder the
 * pattern worker's module is read from: `pattern_offload.ts` `patternWorkerFolder`). When it cannot start,
 * the lines are shown in the calling thread (the same lines, only slower), and stderr says why once.
 *
 * @module
 */

import { type LineBatch, type LineShower, showLines, type ShownLines } from "./line_shower.ts";

/** The name the worker runs under (`main.ts` dispatches on it). */
export const SHOWER_WORKER_NAME = "logpeek-shower";

/** A batch sent to the worker. */
interface Request {
  id: number;
  batch: LineBatch;
}

/** Shows batches of lines in a worker, started at the first batch. */
export class WorkerShower implements LineShower {
  #worker: Worker | null = null;
  #waiting = new Map<number, { batch: LineBatch; resolve: (s: ShownLines) => void }>();
  #next = 1;
  /** Why the worker is not used (it could not start or failed), or null. */
  #unavailable: string | null = null;

  /** @param stderr Where the one line saying the worker could not start goes. */
  constructor(readonly stderr: (line: string) => void = (l) => console.error(l)) {}

  /** {@inheritDoc LineShower.show} */
  show(batch: LineBatch): Promise<ShownLines> {
    if (this.#unavailable !== null) return Promise.resolve(showLines(batch));
    const worker = this.#start();
    const id = this.#next++;
    return new Promise<ShownLines>((resolve) => {
      // The batch's buffers are copied, not transferred: a worker that fails shows them here instead.
      this.#waiting.set(id, { batch, resolve });
      worker.postMessage({ id, batch } satisfies Request);
    });
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const url = import.meta.url.endsWith("/read/shower_worker.ts")
      ? import.meta.url
      : (Deno.mainModule ?? import.meta.url);
    const worker = new Worker(url, { type: "module", name: SHOWER_WORKER_NAME });
    worker.onmessage = (e: MessageEvent<{ id: number; shown: ShownLines }>) => {
      const w = this.#waiting.get(e.data.id);
      this.#waiting.delete(e.data.id);
      w?.resolve(e.data.shown);
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.#unavailable = e.message;
      this.stderr(
        `logpeek: the line worker cannot run (${e.message}): log_patterns shows lines in the calling ` +
          "thread (the same answers, slower)",
      );
      this.#worker?.terminate();
      this.#worker = null;
      // What was sent is shown here.
      for (const { batch, resolve } of this.#waiting.values()) resolve(showLines(batch));
      this.#waiting.clear();
    };
    this.#worker = worker;
    return worker;
  }

  /** Terminates the worker, if one was started (batches still waiting are shown here). */
  close(): void {
    this.#worker?.terminate();
    this.#worker = null;
    for (const { batch, resolve } of this.#waiting.values()) resolve(showLines(batch));
    this.#waiting.clear();
  }
}

/** True when this module runs in the line worker. */
export function inShowerWorker(): boolean {
  // deno-lint-ignore no-explicit-any
  const scope = (globalThis as any).WorkerGlobalScope;
  return typeof scope !== "undefined" && self instanceof scope && self.name === SHOWER_WORKER_NAME;
}

/**
 * Answers batches; runs when this module, or `main.ts` (a bundle, a compiled binary), is the line
 * worker's module. A second call does nothing (in a bundle both run).
 */
export function runShowerWorker(): void {
  const running = Symbol.for("logpeek.showerWorker");
  // deno-lint-ignore no-explicit-any
  if ((globalThis as any)[running]) return;
  // deno-lint-ignore no-explicit-any
  (globalThis as any)[running] = true;
  globalThis.addEventListener("message", (e: Event) => {
    const m = (e as MessageEvent<Request>).data;
    const shown = showLines(m.batch);
    (self as unknown as Worker).postMessage({ id: m.id, shown }, [
      shown.cut.buffer as ArrayBuffer,
      shown.replaced.buffer as ArrayBuffer,
      shown.masked.buffer as ArrayBuffer,
    ]);
  });
}

if (import.meta.main && inShowerWorker()) runShowerWorker();
