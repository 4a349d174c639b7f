/**
 * The command line: `logpeek [options] ROOT...`. Parses flags, loads the configuration, starts the
 * server on stdio, and is the one place that turns errors into exit codes (0 done, 1 cannot start,
 * 2 usage).
 *
 * @module
 */

import { parseArgs } from "node:util";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/dist/esm/server/stdio.d.ts"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ENV_NAMES, readLimits } from "./config.ts";
import { openRoots, RootError } from "./roots.ts";
import { createServer } from "./server.ts";
import { VERSION } from "./version.ts";

/** The usage text, printed by `--help` (stdout) and on a usage error (stderr). */
export const USAGE =
  `logpeek ${VERSION}: an MCP server (stdio) that lets AI agents read log files safely and honestly.

Usage: logpeek [options] ROOT...

  ROOT          a log directory (read recursively) or a single log file; at least one.
                There is no default: a stdio server inherits its client's working directory.

Options:
  -h, --help     print this help and exit
  -V, --version  print the version and exit

Environment (whole numbers; sizes in bytes, times in ms):
  LOGPEEK_TAIL_BYTES    log_tail reads at most this much from a log's end   (262144)
  LOGPEEK_SEARCH_MS     log_search time budget                              (2000)
  LOGPEEK_SEARCH_BYTES  log_search byte budget                              (5242880)
  LOGPEEK_LEVELS_MS     log_levels time budget                              (30000)
  LOGPEEK_MAX_LINE      most characters of one returned line                (1000)

Run with Deno's narrowest permissions, e.g.:
  deno run --no-prompt --allow-read=/var/log/app --allow-env=${ENV_NAMES.join(",")} main.ts /var/log/app
`;

/** Where the CLI writes. stdout carries the MCP protocol only once the server runs. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: (name: string) => string | undefined;
  cwd: () => string;
}

/** The process's own streams and environment. */
export const DENO_IO: CliIo = {
  stdout: (t) => Deno.stdout.writeSync(new TextEncoder().encode(t)),
  stderr: (t) => Deno.stderr.writeSync(new TextEncoder().encode(t)),
  env: (n) => Deno.env.get(n),
  cwd: () => Deno.cwd(),
};

/**
 * Runs logpeek with `args`.
 *
 * @param args The command-line arguments (no program name).
 * @param io Streams and environment.
 * @returns An exit code when done (help, version, or an error at start), or null when the server is
 *   running (the process then ends when the client closes stdin).
 */
export async function main(args: string[], io: CliIo = DENO_IO): Promise<number | null> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { help: { type: "boolean", short: "h" }, version: { type: "boolean", short: "V" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    io.stderr(`logpeek: ${e instanceof Error ? e.message : e}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    io.stdout(USAGE);
    return 0;
  }
  if (parsed.values.version) {
    io.stdout(`logpeek ${VERSION}\n`);
    return 0;
  }
  if (parsed.positionals.length === 0) {
    io.stderr(`logpeek: no ROOT given: name the log directories or files to serve\n\n${USAGE}`);
    return 2;
  }
  try {
    const limits = readLimits(io.env, (m) => io.stderr(m + "\n"));
    const roots = openRoots(parsed.positionals, io.cwd());
    const stderr = (line: string) => io.stderr(line + "\n");
    const server = createServer({ roots, limits, stderr });
    await server.connect(new StdioServerTransport());
    stderr(`logpeek ${VERSION}: serving ${roots.map((r) => r.path).join(", ")} over stdio`);
    return null;
  } catch (e) {
    if (e instanceof RootError || e instanceof RangeError) {
      io.stderr(`logpeek: ${e.message}\n`);
      return 1;
    }
    io.stderr(`logpeek: cannot start: ${e instanceof Error ? e.stack : e}\n`);
    return 1;
  }
}
