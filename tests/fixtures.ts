/**
 * Builds the test logs in a fresh temporary directory, byte for byte the same every run.
 *
 * @module
 */

import { gzipSync as zlibGzip } from "node:zlib";

const enc = new TextEncoder();

/** gzip of a string, by a subprocess-free route: node:zlib (a Deno built-in). */
function gzipSync(text: string): Uint8Array {
  return new Uint8Array(zlibGzip(enc.encode(text)));
}

/** Lines of `width` bytes (newline included) numbered from 1, as in `../shared/cases/01-…`. */
function fixedLines(count: number, width: number, lastWidth = width): string {
  let s = "";
  for (let i = 1; i <= count; i++) {
    const head = `2024-05-01T10:00:00Z INFO seq=${String(i).padStart(6, "0")} msg=tick `;
    s += head + "x".repeat((i === count ? lastWidth : width) - 1 - head.length) + "\n";
  }
  return s;
}

/** A new temporary directory, removed when the test process ends. */
export function tempDir(prefix: string): string {
  const dir = Deno.makeTempDirSync({ prefix });
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // a tree a swap test left in a state remove() trips on: rm -rf takes it
      new Deno.Command("rm", { args: ["-rf", dir] }).outputSync();
    }
  });
  return dir;
}

/**
 * Writes every fixture into a new temporary directory and returns its path (removed when the process ends).
 *
 * Files: `crlf.log`, `no_eol.log`, `empty.log`, `newlines.log`, `invalid_utf8.log` (two bad bytes),
 * `split_multibyte.log` (an "é" whose two bytes straddle offset 65536), `tail_aligned.log` and
 * `tail_misaligned.log` (the 256 KiB window starts right after a newline / one byte into a line),
 * `long_line.log` (a 3 MiB line with `NEEDLE-3M` straddling offset 131072), `levels.log`,
 * `sub/nested.log`, `utf16.log`, `app.log.1.gz` (5000 lines, every tenth ERROR), `cut.log.gz` (the
 * same, cut in the middle), and a folder `dir.log`.
 */
export function makeFixtures(): string {
  const dir = tempDir("logpeek-fixtures-");
  const w = (name: string, data: string | Uint8Array) =>
    Deno.writeFileSync(`${dir}/${name}`, typeof data === "string" ? enc.encode(data) : data);
  w(
    "crlf.log",
    "2024-05-01 10:00:00 INFO service started\r\n2024-05-01 10:00:01 WARN disk usage 91%\r\n" +
      "2024-05-01 10:00:02 ERROR request failed id=7\r\n",
  );
  w("no_eol.log", "2024-05-01 10:00:01 INFO step 1\n2024-05-01 10:00:02 INFO step 2");
  w("empty.log", "");
  w("newlines.log", "\n\n\n");
  w(
    "invalid_utf8.log",
    new Uint8Array([
      ...enc.encode("2024-05-01 10:00:00 INFO ok\n2024-05-01 10:00:01 ERROR bad "),
      0xff,
      0xfe,
      10,
    ]),
  );
  // "é" = C3 A9 at offsets 65535 and 65536.
  const pre = "2024-05-01 10:00:00 INFO filler\n".repeat(2047); // 65504 bytes
  const line = "2024-05-01 10:00:01 WARN caf"; // 28 bytes: 65504 + 28 = 65532
  w("split_multibyte.log", pre + line + "___é done\n");
  w("tail_aligned.log", fixedLines(5000, 64));
  w("tail_misaligned.log", fixedLines(5000, 64, 65));
  const long = new Uint8Array(3 * 1024 * 1024 + 64);
  const head = enc.encode("2024-05-01 10:00:02 ERROR dump=");
  long.fill(0x41);
  long.set(head, 0);
  const first = enc.encode("2024-05-01 10:00:01 INFO before\n");
  const needleAt = 131072 - 4 - first.length; // straddles the second/third 64 KiB pieces
  long.set(enc.encode("NEEDLE-3M"), needleAt);
  w(
    "long_line.log",
    new Uint8Array([...first, ...long, ...enc.encode("\n2024-05-01 10:00:03 INFO after NEEDLE-3M\n")]),
  );
  w(
    "levels.log",
    "2024-05-01 10:00:00 INFO a\n2024-05-01 10:00:01 WARN b\n2024-05-01 10:00:02 ERROR c\n" +
      "    at stack.Frame(Frame.java:1)\n2024-05-01 10:00:03 ERROR d\n",
  );
  Deno.mkdirSync(`${dir}/sub`);
  w("sub/nested.log", "2024-05-01 10:00:00 DEBUG nested\n");
  w("utf16.log", new Uint8Array([0xff, 0xfe, 0x41, 0, 10, 0]));
  const gz = gzipSync(
    Array.from(
      { length: 5000 },
      (_, i) => `2024-05-01 08:00:00 ${i % 10 ? "INFO" : "ERROR"} old line ${i + 1}\n`,
    ).join(""),
  );
  w("app.log.1.gz", gz);
  w("cut.log.gz", gz.subarray(0, Math.floor(gz.length / 2))); // truncated in the middle
  Deno.mkdirSync(`${dir}/dir.log`);
  return dir;
}

/**
 * `n` bytes of a fixed pseudo-random sequence (xorshift32): like `head -c N /dev/urandom`, but the same
 * bytes on every run.
 *
 * @param n How many bytes.
 * @param seed The generator's start (non-zero).
 */
export function noise(n: number, seed = 2463534242): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * True when `s` is well-formed Unicode, checked without `String.prototype.isWellFormed` (which the code
 * under test uses): `encodeURIComponent` throws on a lone surrogate.
 */
export function wellFormed(s: string): boolean {
  try {
    encodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * How oversubscribed this machine's CPUs are now: the 1-minute load average over the cores
 * (`/proc/loadavg`, `navigator.hardwareConcurrency`), at least 1. The bounds (budget + 100 ms, 250 ms after a cancel) are
 * for a machine with a core free; on one running three times as many threads as it has cores (measured
 * here beside other suites: load 6.5 on 2 cores) the server waits for a core at every turn of its event
 * loop, and a call stopped at its deadline answered 1,110–1,250 ms into a 1,000 ms budget every time. So
 * the slack past a budget is the issue's, times this factor: the exactly on a quiet machine.
 */
export function oversubscribed(): number {
  try {
    // Read by `cat`: Deno reads /proc only with every permission.
    const out = new Deno.Command("cat", { args: ["/proc/loadavg"], stdout: "piped", stderr: "null" })
      .outputSync();
    const load = Number(new TextDecoder().decode(out.stdout).split(" ")[0]);
    if (!Number.isFinite(load)) return 1;
    const cores = navigator.hardwareConcurrency || 1;
    return Math.max(1, load / cores);
  } catch {
    return 1; // no /proc: no scaling
  }
}

/**
 * A latency bound's slack of `ms`, scaled by {@linkcode oversubscribed} (printed with the factor when it
 * is over 1): the bound as given on a machine with a core free.
 *
 * @param ms The slack, in ms.
 * @returns The slack here, in ms.
 */
export function loadScaled(ms: number): number {
  const f = oversubscribed();
  if (f > 1) {
    console.error(`load ${f.toFixed(2)}× the cores: ${ms} ms of slack counts as ${Math.round(ms * f)}`);
  }
  return Math.round(ms * f);
}

/**
 * A seeded generator (mulberry32): the same numbers in [0, 1) for the same seed, for generated test logs.
 *
 * @param seed Any 32-bit integer.
 * @returns The next number, each call.
 */
export function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
