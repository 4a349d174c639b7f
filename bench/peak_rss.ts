/**
 * Peak resident memory of a process, read from outside it: `VmHWM` in `/proc/<pid>/status` (Linux).
 *
 * Deno asks for `--allow-all` to read `/proc/<pid>/…` directly, so the file is read by `cat`
 * (permission: `--allow-run`), keeping the harness's own permissions narrow.
 *
 * @module
 */

/**
 * The process's peak resident set size in bytes, or null where `/proc` has no such file.
 *
 * @param pid The process id.
 */
export function peakRss(pid: number): number | null {
  try {
    const out = new Deno.Command("cat", { args: [`/proc/${pid}/status`], stdout: "piped", stderr: "null" })
      .outputSync();
    const m = new TextDecoder().decode(out.stdout).match(/^VmHWM:\s+(\d+) kB/m);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The process's current resident set size in bytes (`VmRSS` in `/proc/<pid>/status`), or null where
 * `/proc` has no such file. Read with `cat` like {@linkcode peakRss} (permission: `--allow-run`).
 *
 * @param pid The process id.
 */
export function residentRss(pid: number): number | null {
  try {
    const out = new Deno.Command("cat", { args: [`/proc/${pid}/status`], stdout: "piped", stderr: "null" })
      .outputSync();
    const m = new TextDecoder().decode(out.stdout).match(/^VmRSS:\s+(\d+) kB/m);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Resets the process's peak resident set size (`VmHWM`) to its current one, by writing `5` to
 * `/proc/<pid>/clear_refs` (Linux 4.0+, `proc(5)`), through `sh` (permission: `--allow-run`). After it,
 * {@linkcode peakRss} gives the peak since this call.
 *
 * @param pid The process id (of a process this user owns).
 * @returns Whether the reset was done.
 */
export function resetPeak(pid: number): boolean {
  try {
    const r = new Deno.Command("sh", {
      args: ["-c", `echo 5 > /proc/${pid}/clear_refs`],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    return r.success;
  } catch {
    return false;
  }
}
