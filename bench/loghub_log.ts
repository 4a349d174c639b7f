/**
 * Builds the benchmark's log of real lines (issue #11): the lines of `../shared/corpus/loghub/*.log`
 * (seven systems, 2,000 lines each), drawn at random with repetition by a seeded PRNG until the file
 * has the asked size, plus {@linkcode RARE_COUNT} rare lines inserted at seeded places (three of them
 * in the last 1% of the file). The corpus ends its lines with CRLF; the log has LF only, as server logs
 * do.
 *
 * Each rare line is shaped like a line of one of the seven systems (its timestamp, level and component)
 * and holds the rare literal ({@linkcode RARE_TEXT}, in lower case in the even-numbered ones and
 * capitalised in the odd-numbered ones), a `zq-<digits> timed out` phrase, and in every other one a
 * `<3 digits>-<4 letters>` token, so that each row of the benchmark has a few real matches. None of
 * these occurs in the corpus (checked with `rg` when writing this).
 *
 * The same corpus, seed and size give the same bytes; a marker file beside the log (`<log>.seed-…`)
 * records the size, the line count and the rare lines' numbers, and a later run with the same
 * parameters reuses the file.
 *
 * @module
 */

import { join } from "node:path";

/** How many rare lines are inserted. */
export const RARE_COUNT = 10;

/** The rare literal, as it stands in the even-numbered rare lines (the odd ones capitalise it). */
export const RARE_TEXT = "vortex-kestrel-17";

/** The rare literal as the odd-numbered rare lines hold it. */
export const RARE_TEXT_CAPITALISED = "Vortex-Kestrel-17";

/** The Loghub logs the lines are drawn from (`<name>_2k.log`). */
export const SOURCES = ["Apache", "HDFS", "Hadoop", "Linux", "OpenSSH", "Spark", "Zookeeper"] as const;

/** One template per source: `{T}` is the rare literal, `{N}` digits, `{X}` the optional extra token. */
const TEMPLATES: readonly string[] = [
  "[Sun Dec 04 07:18:00 2005] [error] mod_jk child {T} zq-{N} timed out in scoreboard slot 7{X}",
  "081109 214043 2561 WARN dfs.DataNode$DataXceiver: 10.251.71.16:50010:{T} zq-{N} timed out serving " +
  "blk_-1608999687919862906{X}",
  "2015-10-18 18:05:12,345 ERROR [RMCommunicator Allocator] " +
  "org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator: {T} zq-{N} timed out after 30000 ms{X}",
  "Jun 15 04:06:18 combo kernel: {T}: zq-{N} timed out, resetting{X}",
  "Dec 10 07:07:38 LabSZ sshd[24206]: {T} zq-{N} timed out for 173.234.31.186 port 38926 [preauth]{X}",
  "17/06/09 20:11:11 WARN storage.BlockManager: {T} zq-{N} timed out fetching rdd_42_3{X}",
  "2015-07-29 19:21:33,067 - WARN  [QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181:Follower@166] - {T} zq-{N} " +
  "timed out waiting for leader{X}",
];

/** What {@linkcode makeLoghubLog} made. */
export interface LoghubLog {
  /** The log's path. */
  path: string;
  /** Its size in bytes. */
  size: number;
  /** Its line count (every line ends with LF). */
  lines: number;
  /** The 1-based numbers of the rare lines, ascending. */
  rare: number[];
}

/** mulberry32: a small seeded PRNG giving numbers in [0, 1). */
export function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Reads the corpus's lines: every non-empty line of each source, without its CR or LF.
 *
 * @param loghub The `corpus/loghub` folder.
 * @throws {Deno.errors.NotFound} when a source log is missing.
 */
export function corpusLines(loghub: string): string[] {
  const out: string[] = [];
  for (const s of SOURCES) {
    for (const l of Deno.readTextFileSync(join(loghub, `${s}_2k.log`)).split("\n")) {
      const t = l.endsWith("\r") ? l.slice(0, -1) : l;
      if (t !== "") out.push(t);
    }
  }
  return out;
}

/**
 * The `i`-th rare line (0-based), drawn with `rnd`.
 *
 * @param i Which rare line: chooses the template (`i % 7`), the literal's case (odd: capitalised) and
 *   whether it holds a `<3 digits>-<4 letters>` token (even).
 * @param rnd The PRNG.
 */
export function rareLine(i: number, rnd: () => number): string {
  const digits = String(1000 + Math.floor(rnd() * 9_000_000));
  const letters = Array.from({ length: 4 }, () => String.fromCharCode(97 + Math.floor(rnd() * 26))).join("");
  const extra = i % 2 === 0 ? ` ticket ${100 + Math.floor(rnd() * 900)}-${letters}` : "";
  return TEMPLATES[i % TEMPLATES.length]
    .replace("{T}", i % 2 === 0 ? RARE_TEXT : RARE_TEXT_CAPITALISED)
    .replace("{N}", digits)
    .replace("{X}", extra);
}

/**
 * Writes the log to `path` (or reuses the one there when its marker matches).
 *
 * @param loghub The `corpus/loghub` folder of the shared material.
 * @param path Where to write.
 * @param bytes The size to reach, in bytes (the last line is whole, so the file is a little larger).
 * @param seed The PRNG seed.
 * @returns The file's size, line count and rare line numbers.
 */
export function makeLoghubLog(loghub: string, path: string, bytes: number, seed = 11): LoghubLog {
  const marker = `${path}.seed-${seed}-${bytes}`;
  const made = reuse<LoghubLog>(marker, path);
  if (made) return made;
  const enc = new TextEncoder();
  const log = writeWithRare(corpusLines(loghub).map((l) => enc.encode(l + "\n")), path, bytes, seed);
  Deno.writeTextFileSync(marker, JSON.stringify(log));
  return log;
}

/**
 * What a marker file beside `path` recorded, when the file there still has its size; else null.
 *
 * @param marker The marker's path (its name holds the parameters the log was made with).
 * @param path The log's path.
 */
export function reuse<T extends { size: number }>(marker: string, path: string): T | null {
  try {
    const m = JSON.parse(Deno.readTextFileSync(marker)) as T;
    if (Deno.statSync(path).size === m.size) return { ...m, path };
  } catch {
    // not made yet, or made with other parameters
  }
  return null;
}

/**
 * Writes `path`: lines of `pool` drawn at random with repetition by a PRNG seeded with `seed` until the
 * file has `bytes`, and {@linkcode RARE_COUNT} rare lines ({@linkcode rareLine}) at seeded places, three
 * of them in the last 1% of the bytes. The log of {@linkcode makeLoghubLog}, and of
 * `corpora_log.ts` `makeCorporaRareLog` with another pool.
 *
 * @param pool The lines, each ending with LF (a line longer than 1 MiB is written on its own).
 * @param path Where to write (truncated).
 * @param bytes The size to reach, in bytes (the last line is whole).
 * @param seed The PRNG seed.
 * @returns The file's size, line count and rare line numbers (1-based, ascending).
 */
export function writeWithRare(pool: Uint8Array[], path: string, bytes: number, seed: number): LoghubLog {
  const enc = new TextEncoder();
  const rnd = rng(seed);
  // Where the rare lines go, as fractions of the size: 7 anywhere before the last 1%, 3 within it.
  const at = [
    ...Array.from({ length: RARE_COUNT - 3 }, () => rnd() * 0.99),
    ...Array.from({ length: 3 }, () => 0.99 + rnd() * 0.0099),
  ].sort((a, b) => a - b).map((f) => Math.floor(f * bytes));
  const buf = new Uint8Array(1 << 20);
  const f = Deno.openSync(path, { write: true, create: true, truncate: true });
  let size = 0;
  let used = 0;
  let lines = 0;
  const rare: number[] = [];
  const put = (b: Uint8Array) => {
    if (used + b.length > buf.length) {
      f.writeSync(buf.subarray(0, used));
      used = 0;
    }
    if (b.length > buf.length) f.writeSync(b);
    else {
      buf.set(b, used);
      used += b.length;
    }
    size += b.length;
    lines++;
  };
  try {
    while (size < bytes) {
      if (rare.length < at.length && size >= at[rare.length]) {
        put(enc.encode(rareLine(rare.length, rnd) + "\n"));
        rare.push(lines);
        continue;
      }
      put(pool[Math.floor(rnd() * pool.length)]);
    }
    if (used) f.writeSync(buf.subarray(0, used));
  } finally {
    f.close();
  }
  return { path, size, lines, rare };
}

if (import.meta.main) {
  const [loghub, path, mib] = Deno.args;
  console.log(makeLoghubLog(loghub, path, Number(mib) * 1024 * 1024));
}
