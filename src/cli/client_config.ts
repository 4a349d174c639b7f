/**
 * `logpeek config --client NAME ROOT...`: a ready-to-paste server entry for an MCP client (issue #4),
 * for the compiled binary, the bundle, or the source, with the narrowest Deno permissions.
 *
 * @module
 */

import { serverFlags, workerFolderOf } from "./flags.ts";

/** The clients logpeek can print an entry for. */
export const CLIENTS = ["claude-desktop", "claude-code", "vscode", "cursor"] as const;

/** A client name. */
export type ClientName = typeof CLIENTS[number];

/** How the client should start logpeek. */
export type Launch =
  | { kind: "binary"; path: string }
  | { kind: "bundle" | "source"; path: string };

/** What {@linkcode clientConfig} needs. */
export interface ConfigOptions {
  client: ClientName;
  /** Absolute root paths. */
  roots: string[];
  /** Paths to allow reading: the roots and their real paths. */
  readPaths: string[];
  /** `HOST:PORT` of a ClickHouse root (issue #14), for `--allow-net`; none by default. */
  net?: string[];
  /** The state directory (absolute). */
  stateDir: string;
  /** Groups trusted not to swap folders (`--trust-gid`), passed on to the server. */
  trustGids?: number[];
  launch: Launch;
  /**
   * The absolute path of the Deno that runs the source or the bundle (`Deno.execPath()` of `config`), not
   * `deno`: a client started from a desktop often lacks the shell's PATH (issue #10, item 9).
   */
  deno: string;
}

/** The command (the binary, or the absolute path of Deno) and the arguments that start logpeek. */
export function serverCommand(o: ConfigOptions): { command: string; args: string[] } {
  const tail = [
    "--state-dir",
    o.stateDir,
    ...(o.trustGids ?? []).flatMap((g) => ["--trust-gid", String(g)]),
    ...o.roots,
  ];
  if (o.launch.kind === "binary") return { command: o.launch.path, args: tail };
  const worker = workerFolderOf(o.launch.kind, o.launch.path);
  return {
    command: o.deno,
    args: ["run", ...serverFlags(o.readPaths, o.stateDir, worker, o.net ?? []), o.launch.path, ...tail],
  };
}

/** Quotes a word for a POSIX shell when it needs it. */
function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'"'"'`)}'`;
}

/**
 * The entry to paste, and where it goes.
 *
 * @param o The client, roots, state directory and launch.
 * @returns `text` (JSON, or a shell command for Claude Code) and `where` (a hint for stderr).
 */
export function clientConfig(o: ConfigOptions): { text: string; where: string } {
  const { command, args } = serverCommand(o);
  switch (o.client) {
    case "claude-code":
      return {
        text: ["claude", "mcp", "add", "logpeek", "--", command, ...args].map(shellWord).join(" ") + "\n",
        where: "run this command (add --scope user to make it available in every project)",
      };
    case "vscode":
      return {
        text: JSON.stringify({ servers: { logpeek: { type: "stdio", command, args } } }, null, 2) + "\n",
        where: "merge into .vscode/mcp.json (or your user mcp.json)",
      };
    case "cursor":
      return {
        text: JSON.stringify({ mcpServers: { logpeek: { command, args } } }, null, 2) + "\n",
        where: "merge into ~/.cursor/mcp.json (or .cursor/mcp.json in a project)",
      };
    case "claude-desktop":
      return {
        text: JSON.stringify({ mcpServers: { logpeek: { command, args } } }, null, 2) + "\n",
        where:
          "merge into claude_desktop_config.json (Settings → Developer → Edit Config), then restart Claude",
      };
  }
}
