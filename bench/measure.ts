/**
 * Timing helpers for the benchmark: medians, peer commands run with their output read through a pipe
 * (never sent to `/dev/null`: ripgrep stops at the first match when it sees its output going there),
 * and the line numbers in `rg -n` / `grep -n` output.
 *
 * @module
 */

/** The median of `xs` (the upper one of the two middle values for an even count); NaN when empty. */
export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** One run of a command: its wall time in ms, its stdout (text), and its exit code. */
export interface CommandRun {
  ms: number;
  out: string;
  code: number;
}

/**
 * Runs `cmd` with `args` once, stdout piped and read whole, stderr dropped, and times it (from spawn
 * to exit, output read).
 *
 * @param cmd The program.
 * @param args Its arguments.
 */
export async function runCommand(cmd: string, args: string[]): Promise<CommandRun> {
  const t = performance.now();
  const r = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output();
  const ms = performance.now() - t;
  return { ms, out: new TextDecoder().decode(r.stdout), code: r.code };
}

/**
 * Runs a shell command line (`sh -c`), timed like {@linkcode runCommand}: for pipelines such as
 * `zcat FILE | rg -c -F NEEDLE`. Arguments must already be quoted ({@linkcode shellQuote}).
 */
export function runShell(line: string): Promise<CommandRun> {
  return runCommand("sh", ["-c", line]);
}

/** `s` in single quotes for `sh`, a single quote inside written as `'\''`. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * The line numbers at the start of each line of `rg -n` or `grep -n` output on one file
 * (`123:the line`), in order.
 *
 * @throws {Error} when a non-empty output line does not start with a number and a colon.
 */
export function lineNumbers(out: string): number[] {
  const nums: number[] = [];
  let at = 0;
  while (at < out.length) {
    let end = out.indexOf("\n", at);
    if (end < 0) end = out.length;
    if (end > at) {
      const colon = out.indexOf(":", at);
      const n = colon > at && colon < end ? Number(out.slice(at, colon)) : NaN;
      if (!Number.isSafeInteger(n)) throw new Error(`not a numbered line: ${out.slice(at, end)}`);
      nums.push(n);
    }
    at = end + 1;
  }
  return nums;
}

/**
 * Where two ascending lists of line numbers first differ, as a short text, or null when they are equal.
 *
 * @param got logpeek's line numbers.
 * @param want The peer's.
 */
export function firstDifference(got: number[], want: number[]): string | null {
  const n = Math.min(got.length, want.length);
  for (let i = 0; i < n; i++) {
    if (got[i] !== want[i]) return `match #${i + 1}: logpeek line ${got[i]}, peer line ${want[i]}`;
  }
  if (got.length !== want.length) {
    return `logpeek has ${got.length} matches, the peer ${want.length}` +
      (got.length > n ? ` (next logpeek line ${got[n]})` : ` (next peer line ${want[n]})`);
  }
  return null;
}

/**
 * A throughput for the table: `bytes` over `ms` as GB/s (10⁹ bytes a second) from 1 GB/s up, else
 * MB/s (10⁶).
 */
export function rate(bytes: number, ms: number): string {
  const bps = bytes / (ms / 1000);
  return bps >= 1e9 ? `${(bps / 1e9).toFixed(2)} GB/s` : `${(bps / 1e6).toFixed(0)} MB/s`;
}
