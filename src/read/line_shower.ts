/**
 * Lines as a tool shows them — decoded (invalid UTF-8 as U+FFFD), cut at `LOGPEEK_MAX_LINE` characters,
 * secrets masked — made a batch at a time, so that the work can run in another thread while the caller
 * goes on (issue #13: masking costs about 1 µs a line, as much as mining it; `log_patterns` mines one
 * batch while the next is shown).
 *
 * A batch is the raw bytes of its lines one after another (`ends[i]` is where line i ends), and for each
 * whether those bytes are only the line's start. {@linkcode showLines} does the work; a
 * {@linkcode LineShower} runs it somewhere (in this thread, or in the server's main thread for the tool
 * worker: `server/worker_host.ts`).
 *
 * @module
 */

import { decodeLine } from "./decode.ts";
import { LineRedactor } from "../guard/redact.ts";

/** One batch of raw lines. */
export interface LineBatch {
  /** The lines' bytes (each at most `maxLine * 4 + 1` bytes: enough for `maxLine` characters and one more). */
  bytes: Uint8Array;
  /** Where each line's bytes end in `bytes` (line i is `bytes[ends[i − 1] ?? 0, ends[i])`). */
  ends: Uint32Array;
  /** 1 where the bytes are only the line's start (a longer line), else 0. */
  partial: Uint8Array;
  /** `LOGPEEK_MAX_LINE`: the most characters (Unicode code points) of a shown line. */
  maxLine: number;
  /** Mask secrets (false for `--no-redact`). */
  redact: boolean;
}

/** The lines of a batch as shown. */
export interface ShownLines {
  /** Each line's text (cut, masked). */
  texts: string[];
  /** 1 where the text is not the whole line. */
  cut: Uint8Array;
  /** Invalid UTF-8 bytes replaced by U+FFFD in each line's shown part. */
  replaced: Uint32Array;
  /** Secrets masked in each line. */
  masked: Uint32Array;
}

/**
 * Shows a batch of lines (in this thread).
 *
 * @param b The batch.
 * @returns The texts, in order.
 * @example
 * ```ts
 * import { showLines } from "./line_shower.ts";
 * const bytes = new TextEncoder().encode("a password=hunter2b");
 * const s = showLines({ bytes, ends: new Uint32Array([1, 19]), partial: new Uint8Array(2), maxLine: 1000, redact: true });
 * console.assert(s.texts[0] === "a" && s.texts[1] === " password=***");
 * ```
 */
export function showLines(b: LineBatch): ShownLines {
  const n = b.ends.length;
  const texts: string[] = new Array(n);
  const cut = new Uint8Array(n);
  const replaced = new Uint32Array(n);
  const masked = new Uint32Array(n);
  const redactor = new LineRedactor(b.redact, false);
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = b.ends[i];
    const d = decodeLine(b.bytes.subarray(start, end), b.maxLine, b.partial[i] === 1);
    const before = redactor.count;
    texts[i] = redactor.line(d.text, d.cut);
    masked[i] = redactor.count - before;
    replaced[i] = d.replaced;
    cut[i] = d.cut ? 1 : 0;
    start = end;
  }
  return { texts, cut, replaced, masked };
}

/** Shows batches of lines, here or in another thread. */
export interface LineShower {
  /**
   * Shows a batch. The batch's buffers may be transferred to another thread: the caller must not use
   * them after the call.
   *
   * @param b The batch.
   * @returns The lines as shown.
   */
  show(b: LineBatch): Promise<ShownLines>;
}

/** A {@linkcode LineShower} that works in this thread (for tests, and where no other thread is at hand). */
export const LOCAL_SHOWER: LineShower = { show: (b) => Promise.resolve(showLines(b)) };
