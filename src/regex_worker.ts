/**
 * Running a user's regular expression where it cannot hang the server (issue #5): JavaScript's
 * engine backtracks, and a pattern such as `(a+)+$` takes exponential time on a line of `a`s. The lines
 * are tested in a separate Web Worker, in batches; when a batch does not come back before the time
 * budget ends, the worker is terminated — that stops any regex at once — and the search reports
 * `time_budget` honestly, for exactly the lines that were tested.
 *
 * The worker's code is a small self-contained string loaded from a `blob:` URL, so it needs no read
 * permission of its own, and works from a bundle or a compiled binary.
 *
 * @module
 */

import { ToolError } from "./errors.ts";

const WORKER_CODE = `
let re = null;
self.onmessage = (e) => {
  const m = e.data;
  if (m.type === "init") { re = new RegExp(m.source, m.flags); return; }
  const hits = [];
  for (let i = 0; i < m.lines.length; i++) { re.lastIndex = 0; if (re.test(m.lines[i])) hits.push(i); }
  self.postMessage(hits);
};
`;

/**
 * Compiles a pattern to check it, without running it.
 *
 * @param source The pattern (JavaScript syntax).
 * @param flags `"i"` for ignore case, or `""`.
 * @throws {ToolError} `invalid_pattern`, quoting the engine's error.
 */
export function checkPattern(source: string, flags: string): void {
  try {
    new RegExp(source, flags);
  } catch (e) {
    throw new ToolError(
      "invalid_pattern",
      `${JSON.stringify(source)} is not a valid JavaScript regular expression: ${
        e instanceof Error ? e.message : e
      }`,
    );
  }
}

/** Tests lines against one pattern in a worker that can be killed. */
export class RegexTester implements Disposable {
  #worker: Worker | null;
  #url: string;
  #failure: string | null = null;
  #fail: ((why: string) => void) | null = null;

  /**
   * @param worker A started regex worker (from {@linkcode RegexPool.take}).
   * @param url Its blob URL, revoked on close.
   * @param source The pattern (already checked with {@linkcode checkPattern}).
   * @param flags Its flags.
   */
  constructor(
    worker: Worker,
    url: string,
    source: string,
    flags: string,
    readonly giveBack?: (worker: Worker, url: string) => void,
  ) {
    this.#url = url;
    this.#worker = worker;
    this.#worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.#failure = e.message;
      this.#fail?.(e.message);
    };
    this.#worker.postMessage({ type: "init", source, flags });
  }

  /**
   * Tests a batch of lines.
   *
   * @param lines The lines.
   * @param timeoutMs How long the batch may take.
   * @returns The indexes of the lines that match, or null when the time ran out (the worker is then
   *   terminated and this tester unusable).
   * @throws {Error} when the worker failed (it could not start, say).
   */
  test(lines: string[], timeoutMs: number): Promise<number[] | null> {
    const worker = this.#worker;
    if (!worker) return Promise.resolve(null);
    if (this.#failure) return Promise.reject(new Error(`the regex worker failed: ${this.#failure}`));
    return new Promise((resolve, reject) => {
      this.#fail = (why) => reject(new Error(`the regex worker failed: ${why}`));
      const timer = setTimeout(() => {
        this.#kill();
        resolve(null);
      }, Math.max(0, timeoutMs));
      worker.onmessage = (e: MessageEvent<number[]>) => {
        clearTimeout(timer);
        resolve(e.data);
      };
      worker.postMessage({ type: "test", lines });
    });
  }

  /** Terminates the worker: the only way to stop a regex that runs away. */
  #kill(): void {
    this.#worker?.terminate();
    this.#worker = null;
    URL.revokeObjectURL(this.#url);
  }

  /** Ends this tester: a healthy worker goes back to its pool for the next search, else it is terminated. */
  close(): void {
    const w = this.#worker;
    if (w && !this.#failure && this.giveBack) {
      w.onmessage = null;
      w.onerror = null;
      this.#worker = null;
      this.giveBack(w, this.#url);
    } else this.#kill();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

/**
 * Keeps one regex worker started ahead of need: a worker takes about a second to start inside the
 * tool worker (measured here with Deno 2.9), which would otherwise come out of a search's time budget.
 * A search takes the warm worker and gives it back when done; only a worker terminated for running
 * over the budget is replaced, and the next search pays for its start.
 */
export class RegexPool {
  #warm: { worker: Worker; url: string } | null = null;

  #start(): { worker: Worker; url: string } {
    const url = URL.createObjectURL(new Blob([WORKER_CODE], { type: "application/javascript" }));
    return { worker: new Worker(url, { type: "module", name: "logpeek-regex" }), url };
  }

  /** Starts the warm worker now (call at start-up). */
  warm(): void {
    this.#warm ??= this.#start();
  }

  /**
   * A tester for one pattern, on the warm worker.
   *
   * @param source The pattern (already checked with {@linkcode checkPattern}).
   * @param flags Its flags.
   */
  take(source: string, flags: string): RegexTester {
    const w = this.#warm ?? this.#start();
    this.#warm = null;
    return new RegexTester(w.worker, w.url, source, flags, (worker, url) => {
      if (this.#warm) {
        worker.terminate();
        URL.revokeObjectURL(url);
      } else this.#warm = { worker, url };
    });
  }

  /** Stops the warm worker. */
  close(): void {
    this.#warm?.worker.terminate();
    this.#warm = null;
  }
}
