/**
 * In-process timings of `read/context.ts` `ContextCollector.other`, the call a search with `context > 0`
 * makes for every line that is not a match, on the 14,000 lines of the seven Loghub samples
 * (`../shared/corpus/loghub`), beside the least such a call could cost: copying the line's first
 * `keepBytes` bytes into a fixed buffer. For choosing levers quickly (the numbers that count come from
 * `bench/bench.ts`, through the real server).
 *
 * ```sh
 * deno bench --allow-read --allow-env bench/context_micro.ts
 * ```
 *
 * On the project's shared 2-core machine (Deno 2.9, the fastest run of each, the 14,000 lines): the bare copy
 * ~405 µs, `other` with N = 1 ~465 µs and with N = 10 ~495 µs (~35 ns a line); averages vary 2× with the
 * other engineers' load. An object per ring slot ran 4–5 times slower than one buffer with typed arrays
 * beside it (2,000 HDFS lines), which is why the ring is one buffer.
 *
 * @module
 */

import { join } from "node:path";
import { ContextCollector } from "../src/read/context.ts";
import { sharedDir } from "../tests/shared_dir.ts";
import { LOGHUB } from "../tests/loghub_truth.ts";
import { splitLines } from "../tests/grep_context.ts";

const shared = sharedDir("the context collector benchmark (Loghub lines)");
if (shared) {
  const parts = LOGHUB.map((name) => Deno.readFileSync(join(shared, "corpus", "loghub", `${name}_2k.log`)));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
  const lines = splitLines(bytes);
  const keepBytes = 1000 * 4 + 1; // the default LOGPEEK_MAX_LINE
  const copy = new Uint8Array(keepBytes);

  Deno.bench("baseline: copy each line's first keepBytes bytes", { group: "other", baseline: true }, () => {
    for (const [s, e] of lines) copy.set(bytes.subarray(s, Math.min(e, s + keepBytes)));
  });
  for (const n of [1, 10]) {
    const c = new ContextCollector(n, keepBytes, (_b, len) => len);
    let no = 0;
    Deno.bench(`ContextCollector.other, N = ${n}, every line`, { group: "other" }, () => {
      for (const [s, e] of lines) c.other(bytes, s, e, ++no, false);
    });
  }
  // A match every 20 lines: before-lines made (a subarray and a call of make each), after-lines given.
  const m = new ContextCollector(5, keepBytes, (_b, len) => len);
  let mno = 0;
  Deno.bench("other and match, N = 5, a match every 20 lines", { group: "match" }, () => {
    for (const [s, e] of lines) {
      if (++mno % 20 === 0) m.match(mno);
      else m.other(bytes, s, e, mno, false);
    }
  });
}
