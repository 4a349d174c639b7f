/**
 * lnav (Debian's 0.11.1) as a peer: its own reading of a log, headless, one row per log message, as
 * `../shared/corpus/lnav/README.md` runs it (issue #23).
 *
 * @module
 */

/** One of lnav's rows. */
export interface LnavRow {
  log_line: number;
  log_actual_time: string;
  log_level: string;
  log_format: string;
  log_raw_text: string;
}

/**
 * lnav's rows for `path` (TZ=UTC, with `home` as its HOME); [] when lnav reads no format ("no query result
 * to write").
 *
 * Permission: `--allow-run=lnav`.
 */
export function lnavRows(path: string, home: string): LnavRow[] {
  const out = new Deno.Command("lnav", {
    args: [
      "-n",
      "-c",
      ";SELECT log_line, log_actual_time, log_level, log_format, log_raw_text FROM all_logs ORDER BY log_line",
      "-c",
      ":write-json-to -",
      path,
    ],
    env: { HOME: home, TZ: "UTC" },
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  const text = new TextDecoder().decode(out.stdout).trim();
  return text ? JSON.parse(text) : [];
}

/**
 * True when `lnav -V` runs; prints a SKIP line naming `what` otherwise.
 *
 * @param what The comparison that needs lnav, for the SKIP line.
 */
export function haveLnav(what: string): boolean {
  try {
    if (new Deno.Command("lnav", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync().success) {
      return true;
    }
  } catch {
    // not installed
  }
  console.error(`SKIP ${what}: lnav is not installed (apt-get install lnav)`);
  return false;
}
