/**
 * Builds the logs of the two-corpus level-speed table (issue #23, item 6): shuffled real lines of the
 * Loghub corpus (`../shared/corpus/loghub/*.log`, seven systems) and of lnav's test logs
 * (`../shared/corpus/lnav/logs/*`, the formats Loghub lacks: JSON, logfmt, Laravel, access logs, …), or
 * of Loghub alone, drawn with repetition by a seeded PRNG until the file has the asked size.
 *
 * Every non-empty line of every file is one entry of the pool, so a corpus weighs as many lines as it
 * holds (Loghub 14,000, lnav ~4,200); the bytes are kept as they are (invalid UTF-8 too), a CR before the
 * LF dropped, as server logs end lines with LF. A file that is binary (a NUL byte in it) or gzip (its magic
 * bytes, or a `.gz` name) is skipped. The lines are drawn independently, so a stack trace's frames are
 * scattered: the log tests each line's rules, not the order of entries.
 *
 * The same pool, seed and size give the same bytes; a marker beside the log (`<log>.seed-…`) records the
 * size and the line count, and a later run with the same parameters reuses the file.
 *
 * @module
 */

import { join } from "node:path";
import { type LoghubLog, reuse, rng, writeWithRare } from "./loghub_log.ts";

/** Which corpora a log's lines come from. */
export type Corpora = "both" | "loghub";

/** What {@linkcode makeCorporaLog} made. */
export interface CorporaLog {
  /** The log's path. */
  path: string;
  /** Its size in bytes. */
  size: number;
  /** Its line count (every line ends with LF). */
  lines: number;
  /** How many lines the pool held, and how many files they came from. */
  pool: { lines: number; files: number };
}

/** Whether a file's bytes are a gzip stream or binary (a NUL byte): such files are not log lines here. */
export function binaryOrGzip(name: string, bytes: Uint8Array): boolean {
  if (name.endsWith(".gz")) return true;
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return true;
  return bytes.indexOf(0) >= 0;
}

/** The non-empty lines of `bytes`, each without its CR or LF, as views into `bytes`. */
export function splitLines(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    let nl = bytes.indexOf(10, at);
    if (nl < 0) nl = bytes.length;
    const end = nl > at && bytes[nl - 1] === 13 ? nl - 1 : nl;
    if (end > at) out.push(bytes.subarray(at, end));
    at = nl + 1;
  }
  return out;
}

/**
 * The files whose lines make the pool, sorted by path: Loghub's `*.log`, and with `both` lnav's logs.
 *
 * @param shared The shared folder (`../shared`).
 * @throws {Deno.errors.NotFound} when a corpus folder is missing.
 */
export function corporaFiles(shared: string, which: Corpora): string[] {
  const loghub = join(shared, "corpus", "loghub");
  const files = [...Deno.readDirSync(loghub)]
    .filter((e) => e.isFile && e.name.endsWith(".log")).map((e) => join(loghub, e.name));
  if (which === "both") {
    const lnav = join(shared, "corpus", "lnav", "logs");
    files.push(...[...Deno.readDirSync(lnav)].filter((e) => e.isFile).map((e) => join(lnav, e.name)));
  }
  return files.sort();
}

/**
 * The pool: every non-empty line of every text file of {@linkcode corporaFiles}, with its LF.
 *
 * @returns The lines (each ending with LF) and how many files gave them.
 */
export function corporaPool(shared: string, which: Corpora): { lines: Uint8Array[]; files: number } {
  const lines: Uint8Array[] = [];
  let files = 0;
  for (const f of corporaFiles(shared, which)) {
    const bytes = Deno.readFileSync(f);
    if (binaryOrGzip(f, bytes)) continue;
    const ls = splitLines(bytes);
    if (ls.length > 0) files++;
    for (const l of ls) {
      const withLf = new Uint8Array(l.length + 1);
      withLf.set(l);
      withLf[l.length] = 10;
      lines.push(withLf);
    }
  }
  return { lines, files };
}

/**
 * Writes the log to `path` (or reuses the one there when its marker matches).
 *
 * @param shared The shared folder (`../shared`).
 * @param which `both` corpora or `loghub` alone.
 * @param path Where to write.
 * @param bytes The size to reach, in bytes (the last line is whole, so the file is a little larger).
 * @param seed The PRNG seed.
 * @throws {Deno.errors.NotFound} when a corpus folder is missing.
 */
export function makeCorporaLog(
  shared: string,
  which: Corpora,
  path: string,
  bytes: number,
  seed = 23,
): CorporaLog {
  const marker = `${path}.seed-${seed}-${bytes}-${which}`;
  try {
    const m = JSON.parse(Deno.readTextFileSync(marker)) as CorporaLog;
    if (Deno.statSync(path).size === m.size) return { ...m, path };
  } catch {
    // not made yet, or made with other parameters
  }
  const pool = corporaPool(shared, which);
  const rnd = rng(seed);
  const buf = new Uint8Array(1 << 20);
  const f = Deno.openSync(path, { write: true, create: true, truncate: true });
  let size = 0, used = 0, lines = 0;
  try {
    while (size < bytes) {
      const l = pool.lines[Math.floor(rnd() * pool.lines.length)];
      if (used + l.length > buf.length) {
        f.writeSync(buf.subarray(0, used));
        used = 0;
      }
      if (l.length > buf.length) f.writeSync(l);
      else {
        buf.set(l, used);
        used += l.length;
      }
      size += l.length;
      lines++;
    }
    if (used) f.writeSync(buf.subarray(0, used));
  } finally {
    f.close();
  }
  const made: CorporaLog = { path, size, lines, pool: { lines: pool.lines.length, files: pool.files } };
  Deno.writeTextFileSync(marker, JSON.stringify(made));
  return made;
}

/**
 * The real-line table's second log (issue #26): the lines of both corpora ({@linkcode corporaPool}
 * `both`: 16 systems' line shapes), shuffled, with the rare lines of `loghub_log.ts` inserted the way
 * `makeLoghubLog` inserts them (`writeWithRare`), so that every row of the real-line table has the same
 * few real matches in it. Reused when the marker beside it (`<log>.seed-…-rare`) matches.
 *
 * @param shared The shared folder (`../shared`).
 * @param path Where to write.
 * @param bytes The size to reach, in bytes (the last line is whole).
 * @param seed The PRNG seed.
 * @returns The file's size, line count and rare line numbers.
 * @throws {Deno.errors.NotFound} when a corpus folder is missing.
 */
export function makeCorporaRareLog(shared: string, path: string, bytes: number, seed = 26): LoghubLog {
  const marker = `${path}.seed-${seed}-${bytes}-both-rare`;
  const made = reuse<LoghubLog>(marker, path);
  if (made) return made;
  const log = writeWithRare(corporaPool(shared, "both").lines, path, bytes, seed);
  Deno.writeTextFileSync(marker, JSON.stringify(log));
  return log;
}

if (import.meta.main) {
  const [shared, which, path, mib] = Deno.args;
  console.log(makeCorporaLog(shared, which as Corpora, path, Number(mib) * 1024 * 1024));
}
