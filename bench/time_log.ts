/**
 * Builds the benchmark's time-ordered log (issue #12, "Seek, don't scan"): the real lines of
 * `../shared/corpus/loghub/*.log` (`loghub_log.ts`'s {@linkcode corpusLines}, drawn at random with
 * repetition by its seeded {@linkcode rng}), each behind an ISO 8601 header whose time never decreases
 * through the file (`2024-03-01T00:00:00.000Z ` + the line; 0 to 19 ms from one line to the next), and
 * after 2% of them an untimed run of 1 to 20 stack-trace lines (`\tat org.example…(…java:N)`), which
 * belong to the timed line before them. Lines end with LF.
 *
 * The builder records, as its own ground truth (counted while writing, not by a reader), the last-1%
 * window: `since`, the time of the first timed line starting at or after 99% of the asked size, and how
 * many lines (timed and untimed) have a time ≥ `since` (those from that line to the end). The same
 * corpus, seed and size give the same bytes; a marker file beside the log (`<log>.seed-…`) records the
 * result, and a later run with the same parameters reuses the file.
 *
 * @module
 */

import { corpusLines, rng } from "./loghub_log.ts";

/** What {@linkcode makeTimeLog} made. */
export interface TimeLog {
  /** The log's path. */
  path: string;
  /** Its size in bytes. */
  size: number;
  /** Its line count (every line ends with LF), untimed ones included. */
  lines: number;
  /** Untimed (stack-trace) lines among them. */
  untimed: number;
  /** The time (epoch ms) of its first and last timed lines. */
  firstMs: number;
  lastMs: number;
  /** The last-1% window's start: the time of the first timed line starting at or after 99% of the size asked. */
  sinceMs: number;
  /** The byte offset of that line. */
  sinceOff: number;
  /** Lines with a time ≥ `sinceMs` (from that line to the end, untimed ones included). */
  windowLines: number;
}

/** The first line's time: 2024-03-01T00:00:00.000Z. */
export const TIME_LOG_START = Date.UTC(2024, 2, 1);

/** Classes and methods of the stack-trace lines (`\tat <class>.<method>(<file>:<line>)`). */
const FRAMES = [
  "org.apache.hadoop.ipc.Client.call",
  "org.apache.hadoop.hdfs.DFSClient.open",
  "org.apache.zookeeper.ClientCnxn$SendThread.run",
  "org.apache.spark.scheduler.Task.run",
  "java.util.concurrent.ThreadPoolExecutor.runWorker",
  "java.lang.Thread.run",
] as const;

/**
 * Writes `2024-03-01T00:00:00.000Z`-shaped text for `ms` into `buf` at `at` (24 bytes, a space after).
 * Faster than `toISOString` and the same text for years 1000–9999.
 */
function putIso(buf: Uint8Array, at: number, ms: number): number {
  const s = new Date(ms).toISOString(); // "2024-03-01T00:00:00.000Z"
  for (let k = 0; k < 24; k++) buf[at + k] = s.charCodeAt(k);
  buf[at + 24] = 32;
  return at + 25;
}

/**
 * The time of a line with an ISO 8601 UTC header (`YYYY-MM-DDTHH:MM:SS.mmmZ`, as this log has), by
 * Date.UTC on its digits; NaN for any other line. The bench's stand-in for `src/read/timestamp.ts`.
 *
 * @param buf Bytes holding the line.
 * @param start Index of its first byte.
 * @param end Index past its last byte.
 * @returns Epoch ms, or NaN.
 */
export function isoTimeOf(buf: Uint8Array, start: number, end: number): number {
  if (end - start < 24 || buf[start + 10] !== 84 /* T */ || buf[start + 23] !== 90 /* Z */) return NaN;
  const d = (i: number, n: number) => {
    let v = 0;
    for (let k = 0; k < n; k++) {
      const c = buf[start + i + k] - 48;
      if (c < 0 || c > 9) return NaN;
      v = v * 10 + c;
    }
    return v;
  };
  return Date.UTC(d(0, 4), d(5, 2) - 1, d(8, 2), d(11, 2), d(14, 2), d(17, 2), d(20, 3));
}

/**
 * Writes the log to `path` (or reuses the one there when its marker matches).
 *
 * @param loghub The `corpus/loghub` folder of the shared material.
 * @param path Where to write.
 * @param bytes The size to reach, in bytes (the last line is whole, so the file is a little larger).
 * @param seed The PRNG seed.
 * @returns The file's size, line counts, times and its last-1% window.
 * @throws {Deno.errors.NotFound} when a source log is missing.
 */
export function makeTimeLog(loghub: string, path: string, bytes: number, seed = 12): TimeLog {
  const marker = `${path}.seed-${seed}-${bytes}`;
  try {
    const m = JSON.parse(Deno.readTextFileSync(marker)) as TimeLog;
    if (Deno.statSync(path).size === m.size) return { ...m, path };
  } catch {
    // not made yet, or made with other parameters
  }
  const enc = new TextEncoder();
  const pool = corpusLines(loghub).map((l) => enc.encode(l + "\n"));
  const rnd = rng(seed);
  const cut = Math.floor(bytes * 0.99);
  const buf = new Uint8Array(1 << 20);
  const f = Deno.openSync(path, { write: true, create: true, truncate: true });
  const made: TimeLog = {
    path,
    size: 0,
    lines: 0,
    untimed: 0,
    firstMs: TIME_LOG_START,
    lastMs: TIME_LOG_START,
    sinceMs: NaN,
    sinceOff: -1,
    windowLines: 0,
  };
  let used = 0;
  let t = TIME_LOG_START;
  // Makes room for `n` bytes in the buffer (a line is at most a few KiB).
  const room = (n: number) => {
    if (used + n > buf.length) {
      f.writeSync(buf.subarray(0, used));
      used = 0;
    }
  };
  const ended = () => {
    made.lines++;
    if (made.sinceOff >= 0) made.windowLines++;
  };
  try {
    while (made.size < bytes) {
      const line = pool[Math.floor(rnd() * pool.length)];
      if (made.sinceOff < 0 && made.size >= cut) {
        // The window's first line is later than every line before it.
        if (made.size > 0 && t === made.lastMs) t++;
        made.sinceOff = made.size;
        made.sinceMs = t;
      }
      room(25 + line.length);
      used = putIso(buf, used, t);
      buf.set(line, used);
      used += line.length;
      made.size += 25 + line.length;
      made.lastMs = t;
      ended();
      if (rnd() < 0.02) {
        const run = 1 + Math.floor(rnd() * 20);
        for (let k = 0; k < run; k++) {
          const frame = FRAMES[Math.floor(rnd() * FRAMES.length)];
          const file = frame.split(".").at(-2)!.split("$")[0];
          const l = enc.encode(`\tat ${frame}(${file}.java:${1 + Math.floor(rnd() * 900)})\n`);
          room(l.length);
          buf.set(l, used);
          used += l.length;
          made.size += l.length;
          made.untimed++;
          ended();
        }
      }
      // The next line's time: 0 to 19 ms later, so that some lines share a time.
      t += Math.floor(rnd() * 20);
    }
    if (used) f.writeSync(buf.subarray(0, used));
  } finally {
    f.close();
  }
  Deno.writeTextFileSync(marker, JSON.stringify(made));
  return made;
}

if (import.meta.main) {
  const [loghub, path, mib] = Deno.args;
  console.log(makeTimeLog(loghub, path, Number(mib) * 1024 * 1024));
}
