/**
 * The command line: `logpeek [options] ROOT...`. Parses flags, loads the configuration, starts the
 * server on stdio, and is the one place that turns errors into exit codes (0 done, 1 cannot start,
 * 2 usage).
 *
 * @module
 */

import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { clientConfig, type ClientName, CLIENTS, type Launch } from "./client_config.ts";
import { type CommandLine, type OptionValues, parseCommandLine, SEE_HELP } from "./command_line.ts";
import { ArtifactStore } from "../state/artifacts.ts";
import { envReader, type Limits, readLimits } from "../core/config.ts";
import { openRoots, type Root, RootError } from "../source/local/roots.ts";
import { type ClickHouseTarget, isClickHouseRoot, parseClickHouseRoot } from "../source/clickhouse/target.ts";
import {
  checkAncestors,
  checkBeforeServing,
  processTrust,
  type Trust,
  withoutName,
} from "../source/local/confine.ts";
import { ToolError } from "../core/errors.ts";
import { createServer } from "../server/server.ts";
import {
  chooseStateDir,
  isDefaultStateDir,
  namedStateDirProblem,
  prepareStateDir,
} from "../state/state_dir.ts";
import { commaProblem, netOfRoots, serverFlags } from "./flags.ts";
import { suggestWords } from "./did_you_mean.ts";
import { maskAndCut, MAX_ERROR_CHARS, TraceWriter, TracingTransport } from "../server/trace.ts";
import { StdioFrameTransport } from "../server/stdio_transport.ts";
import { shownArg } from "./shown_arg.ts";
import { renderReport, traceReport } from "./trace_report.ts";
import { VERSION } from "../core/version.ts";
import { localDispatch } from "../server/handlers.ts";
import type { Dispatch } from "../tools/deps.ts";
import { startToolWorker, WorkerPermissionError } from "../server/worker_host.ts";
import { PatternOffload } from "../read/pattern_offload.ts";

/**
 * The usage text, printed by `--help` (stdout) and on a usage error (stderr). A function, not a
 * constant: its example flags name the pattern worker's folder, which is known only in the main thread.
 *
 * @returns The text, ending in a newline.
 */
export function usage(): string {
  return `logpeek ${VERSION}: an MCP server (stdio) that lets AI agents read log files safely and honestly.

Usage: logpeek [options] ROOT...
       logpeek trace-report [--state-dir DIR] [--json]
       logpeek config --client claude-desktop|claude-code|vscode|cursor [--binary PATH | --bundle PATH]
                      [--state-dir DIR] ROOT...

    ROOT          a log directory (read recursively) or a single log file; at least one.
                There is no default: a stdio server inherits its client's working directory.
                Or, alone, a ClickHouse table: clickhouse://[USER@]HOST:PORT/DATABASE.TABLE (its password
                only from LOGPEEK_CLICKHOUSE_PASSWORD; docs/clickhouse.md).

Options:
  --state-dir DIR  where the call trace and spilled artifacts live (absolute; default
                   $LOGPEEK_STATE_DIR, else $XDG_STATE_HOME/logpeek, else ~/.local/state/logpeek)
  --no-trace       do not write the call trace
  --no-redact      do not mask secrets in returned log text
  --trust-gid GID  trust every member of this group not to swap folders on a log's path (repeatable;
                   by default a folder its group may write is refused, unless the group is root's)
  -h, --help       print this help and exit
  -V, --version    print the version and exit

trace-report prints, per tool: calls, failures, spills, avg_ms, p95_ms, max_ms (--json: as JSON).
config prints a server entry for an MCP client, starting logpeek with the narrowest permissions.

Environment (whole numbers; sizes in bytes, times in ms):
  LOGPEEK_TAIL_BYTES          log_tail reads at most this much from a log's end   (262144)
  LOGPEEK_SEARCH_MS           log_search time budget                              (10000)
  LOGPEEK_SEARCH_BYTES        log_search byte budget                              (4294967296)
  LOGPEEK_LEVELS_MS           log_levels time budget                              (30000)
  LOGPEEK_PATTERNS_MS         log_patterns (and search by template) time budget   (30000)
  LOGPEEK_MAX_TEMPLATES       most templates log_patterns holds                   (5000)
  LOGPEEK_MAX_LINE            most characters of one returned line                (1000)
  LOGPEEK_INLINE_CHARS        longer answers spill to an artifact                 (8000)
  LOGPEEK_ARTIFACT_TTL_S      seconds an artifact is kept                         (86400)
  LOGPEEK_ARTIFACT_MAX_BYTES  all artifacts together at most                      (268435456)
  LOGPEEK_TRACE_MAX_BYTES     the trace rotates at this size                      (10485760)
    LOGPEEK_TZ                  zone of timestamps that name none (IANA or +hh:mm)  (UTC)
  LOGPEEK_CLICKHOUSE_USER     a ClickHouse root's user, when its URL names none   (default)
  LOGPEEK_CLICKHOUSE_PASSWORD a ClickHouse root's password                        (none)
  LOGPEEK_CLICKHOUSE_COLUMNS  time=…,body=…,level=…,source=… column names         (OTel's)

Run with Deno's narrowest permissions (as \`deno task start\` and config do), e.g.:
  deno run ${serverFlags(["/var/log/app"], "/home/me/.local/state/logpeek").join(" \\\n    ")} \\
    main.ts --state-dir /home/me/.local/state/logpeek /var/log/app
`;
}

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
 * Writes a usage mistake as one line with a pointer to `--help` (issue #10, item 11) and gives its exit code.
 *
 * @returns 2.
 */
function usageError(io: CliIo, message: string): number {
  io.stderr(`logpeek: ${message}${/[.?!…]$/.test(message) ? "" : "."} ${SEE_HELP}\n`);
  return 2;
}

/**
 * Whether `dir` is this environment's default state directory (`state/state_dir.ts` `isDefaultStateDir`),
 * with the variables `io` may not read taken as unset.
 */
function isDefault(dir: string, io: Pick<CliIo, "env">): boolean {
  return isDefaultStateDir(dir, (name) => {
    try {
      return io.env(name);
    } catch {
      return undefined;
    }
  });
}

/**
 * What is wrong with the default state directory that `config` writes into an entry, or null: it exists
 * but is not a folder of this user's own, or it is missing and could not be made (a part of its path is a
 * file). A missing one is fine: the server makes it, with its parents, when it first starts.
 */
function defaultStateDirProblem(dir: string): string | null {
  let st: Deno.FileInfo;
  try {
    st = Deno.lstatSync(dir);
  } catch (e) {
    if (e instanceof Deno.errors.NotADirectory) {
      return `the state directory ${dir} cannot be made: a part of its path is a file, not a folder; pass --state-dir`;
    }
    return null;
  }
  if (st.isSymlink || !st.isDirectory) {
    return `the state directory ${dir} is ${
      st.isSymlink ? "a symlink" : "a file"
    }, not a folder: pass --state-dir`;
  }
  const uid = Deno.permissions.querySync({ name: "sys", kind: "uid" }).state === "granted"
    ? Deno.uid()
    : null;
  if (uid !== null && st.uid !== null && st.uid !== uid) {
    return `the state directory ${dir} is owned by user ${st.uid}, not by this user (${uid}): the server would ` +
      "refuse it; pass --state-dir a folder of your own";
  }
  return null;
}

/**
 * The state directory `flag` or the environment names, or a {@linkcode RangeError} that says why there is
 * none: a relative path given; or which variables `--allow-env` does not let it read; or that HOME is not
 * set (said only when it is not: issue #10, item 10).
 *
 * @param flag The `--state-dir` value, if given.
 * @param io Its `env` throws where the environment may not be read (as `Deno.env.get` does).
 * @returns An absolute path.
 * @throws {RangeError} as above.
 */
export function stateDirFrom(flag: string | undefined, io: Pick<CliIo, "env">): string {
  const unreadable: string[] = [];
  const env = (name: string) => {
    try {
      return io.env(name);
    } catch {
      unreadable.push(name);
      return undefined;
    }
  };
  try {
    return chooseStateDir(flag, env);
  } catch (e) {
    if (!(e instanceof RangeError) || flag !== undefined || env("LOGPEEK_STATE_DIR")) throw e;
    const home = env("HOME");
    const pass = "pass --state-dir /absolute/path";
    if (unreadable.length) {
      const names = [...new Set(unreadable)];
      throw new RangeError(
        `no state directory: --allow-env does not cover ${names.join(", ")}: ` +
          `grant --allow-env=${names.join(",")} or ${pass}`,
      );
    }
    if (home) {
      throw new RangeError(`no state directory: HOME (${shownArg(home)}) is not an absolute path: ${pass}`);
    }
    throw new RangeError(
      `no state directory: HOME is not set (nor LOGPEEK_STATE_DIR, XDG_STATE_HOME): ${pass}`,
    );
  }
}

/** The `--trust-gid` values as group ids, or a message for a usage error. */
function parseTrustGids(given: string[] | undefined): number[] | string {
  const gids: number[] = [];
  for (const g of given ?? []) {
    if (!/^\d{1,10}$/.test(g) || Number(g) > 0xfffffffe) {
      return `--trust-gid needs a group id (a number from 0 to 4294967294), got ${shownArg(g)}`;
    }
    gids.push(Number(g));
  }
  return gids;
}

/** Why a `config` command line is a usage mistake (a sentence), or null. */
function configUsageError(rootArgs: string[], v: OptionValues): string | null {
  if (!v.client || !(CLIENTS as readonly string[]).includes(v.client)) {
    const near = v.client ? suggestWords(v.client, CLIENTS) : [];
    const not = v.client
      ? `${shownArg(v.client)} is not a client${near.length ? `; did you mean ${near.join(" / ")}?` : ";"} `
      : "";
    return `${not}config needs --client ${CLIENTS.join("|")}`;
  }
  if (rootArgs.length === 0 || rootArgs.some((r) => r.trim() === "")) {
    return "config needs the ROOTs to serve";
  }
  if (v.binary && v.bundle) return "give --binary or --bundle, not both";
  return null;
}

/**
 * The state directory a `config` entry names (absolute), checked; or an exit code (1) once stderr says
 * why not. An entry without a state directory would let the server pick one from the client's
 * environment that it may not write: the entry names one, so one is needed here. A ClickHouse root
 * (issue #14) is checked here too.
 */
function configStateDir(rootArgs: string[], v: OptionValues, io: CliIo): string | number {
  let stateDir: string;
  try {
    stateDir = resolve(stateDirFrom(v["state-dir"], io));
  } catch (e) {
    io.stderr(`logpeek: config: ${e instanceof Error ? e.message : e}\n`);
    return 1;
  }
  const stateProblem = v["state-dir"] !== undefined && !isDefault(stateDir, io)
    ? namedStateDirProblem(stateDir)
    : defaultStateDirProblem(stateDir);
  if (stateProblem) {
    io.stderr(`logpeek: ${stateProblem}\n`);
    return 1;
  }
  // A ClickHouse root (issue #14) is served alone, as a URL; its HOST:PORT is the entry's --allow-net.
  try {
    clickHouseRootOf(rootArgs, () => undefined, () => {});
  } catch (e) {
    io.stderr(`logpeek: config: ${e instanceof Error ? e.message : e}\n`);
    return 1;
  }
  return stateDir;
}

/** `logpeek config --client NAME [--binary PATH | --bundle PATH] [--state-dir DIR] ROOT...`. */
function configCommand(rootArgs: string[], v: OptionValues, io: CliIo, mainModule: string): number {
  const trustGids = parseTrustGids(v["trust-gid"]);
  if (typeof trustGids === "string") return usageError(io, trustGids);
  const mistake = configUsageError(rootArgs, v);
  if (mistake) return usageError(io, mistake);
  const stateDir = configStateDir(rootArgs, v, io);
  if (typeof stateDir === "number") return stateDir;
  const { net, files } = netOfRoots(rootArgs);
  const roots = files.map((r) => resolve(io.cwd(), r));
  const readPaths = [...roots];
  for (const r of roots) {
    try {
      readPaths.push(Deno.realPathSync(r));
    } catch (e) {
      // The entry still names the root, but the server will not start until it exists.
      if (e instanceof Deno.errors.NotFound) io.stderr(`logpeek: warning: root ${r} does not exist (yet)\n`);
    }
  }
  const comma = commaProblem([...readPaths, stateDir]);
  if (comma) return usageError(io, comma);
  // The server the entry starts may read only its roots and state directory, so it cannot see the
  // folders above them: they are checked here, as `deno task start` does (confine.ts).
  const trust = processTrust(undefined, trustGids, (line) => io.stderr(line + "\n"));
  const { problem, unchecked } = checkBeforeServing(roots, stateDir, trust);
  if (problem) {
    io.stderr(`logpeek: ${problem}\n`);
    return 1;
  }
  if (unchecked.length) {
    io.stderr(
      `logpeek: warning: folders from ${
        unchecked.join(", ")
      } up were not checked for swaps (run config with --allow-read)\n`,
    );
  }
  // The absolute path of the Deno that runs this, not "deno": a GUI client often lacks the shell's PATH.
  const self = Deno.execPath();
  const compiled = !/^deno(\.exe)?$/i.test(basename(self));
  const launch: Launch = v.binary
    ? { kind: "binary", path: resolve(io.cwd(), v.binary) }
    : v.bundle
    ? { kind: "bundle", path: resolve(io.cwd(), v.bundle) }
    : compiled
    ? { kind: "binary", path: self }
    : { kind: "source", path: fileURLToPath(mainModule) };
  const out = clientConfig({
    client: v.client as ClientName,
    roots: net.length ? rootArgs : roots,
    readPaths,
    net,
    stateDir,
    launch,
    trustGids,
    deno: self,
  });
  io.stderr(`logpeek: ${out.where}\n`);
  if (net.length) {
    io.stderr(
      "logpeek: the entry holds no password: add LOGPEEK_CLICKHOUSE_PASSWORD to the server's env in the " +
        'client\'s config ("env": {"LOGPEEK_CLICKHOUSE_PASSWORD": "…"} beside "args"), when the user has one\n',
    );
  }
  io.stdout(out.text);
  return 0;
}

/**
 * What is wrong with a command line that would serve (no `trace-report`, `config`, `--help` or `--version`):
 * no ROOT, an empty ROOT, an option that belongs to another command, or a bad `--trust-gid`.
 *
 * @param c The command line read by `parseCommandLine`.
 * @returns The mistake as one line (exit 2), or null when the server may be started.
 */
export function serveUsageError(c: CommandLine): string | null {
  const v = c.values;
  if (v.json) return "--json goes with trace-report";
  if (v.client || v.binary || v.bundle) return "--client, --binary and --bundle go with config";
  // Before the ROOTs: `--trust-gid /var/log` took the ROOT as its group id.
  const gids = parseTrustGids(v["trust-gid"]);
  if (typeof gids === "string") return gids;
  if (c.positionals.length === 0) return "no ROOT given: name the log directories or files to serve";
  if (c.positionals.some((p) => p.trim() === "")) {
    return "an empty ROOT was given (an unset variable?): name the log directories or files";
  }
  return null;
}

/**
 * Runs logpeek with `args`.
 *
 * @param args The command-line arguments (no program name).
 * @param io Streams and environment.
 * @param workerUrl The module the tool worker runs (the program's main module).
 * @returns An exit code when done (help, version, trace-report, or an error at start), or null when
 *   the server is running (the process then ends when the client closes stdin).
 */
export async function main(
  args: string[],
  io: CliIo = DENO_IO,
  workerUrl: string = Deno.mainModule,
): Promise<number | null> {
  const parsed = parseCommandLine(args);
  if ("error" in parsed) return usageError(io, parsed.error);
  const v = parsed.values;
  if (v.help) {
    io.stdout(usage());
    return 0;
  }
  if (v.version) {
    io.stdout(`logpeek ${VERSION}\n`);
    return 0;
  }
  if (parsed.positionals[0] === "trace-report") {
    if (parsed.positionals.length > 1) return usageError(io, "trace-report takes no ROOT");
    return await traceReportCommand(v, io);
  }
  if (parsed.positionals[0] === "config") {
    return configCommand(parsed.positionals.slice(1), v, io, workerUrl);
  }
  const mistake = serveUsageError(parsed);
  if (mistake) return usageError(io, mistake);
  try {
    await serve(parsed.positionals, v, io, workerUrl);
    return null;
  } catch (e) {
    if (e instanceof RootError || e instanceof RangeError || e instanceof WorkerPermissionError) {
      io.stderr(`logpeek: ${e.message}\n`);
      return 1;
    }
    io.stderr(`logpeek: cannot start: ${e instanceof Error ? e.stack : e}\n`);
    return 1;
  }
}

/** The options of a command line, as parsed. */
type Values = OptionValues;

/** `logpeek trace-report [--json]`: the report of the traced calls, or exit 1 naming why not. */
async function traceReportCommand(v: Values, io: CliIo): Promise<number> {
  try {
    const report = await traceReport(stateDirFrom(v["state-dir"], io));
    if (v.json) io.stdout(JSON.stringify(report, null, 2) + "\n");
    else {
      if (report.files.length === 0) io.stderr("logpeek: no calls traced yet\n");
      io.stdout(renderReport(report));
    }
    return 0;
  } catch (e) {
    io.stderr(`logpeek: trace-report: ${e instanceof Error ? e.message : e}\n`);
    return 1;
  }
}

/** The state directory as the server uses it: artifacts and trace, or why they are off. */
interface ServerState {
  stateDir: string;
  artifacts: ArtifactStore | null;
  /** Why there are no artifacts (a sentence), or null. */
  artifactsOff: string | null;
  trace: TraceWriter | null;
  /** The state directory's owner, when known. */
  uid: number | null;
}

/**
 * Starts the server on `positionals` (the roots) and connects it to stdio.
 *
 * @throws {RootError} for a root that cannot be served; {@linkcode RangeError} for a bad variable or
 *   state directory; {@linkcode WorkerPermissionError} when the tool worker cannot be narrowed.
 */
async function serve(positionals: string[], v: Values, io: CliIo, workerUrl: string): Promise<void> {
  const stderr = (line: string) => io.stderr(line + "\n");
  const limits = readLimits(io.env, stderr);
  const trustGids = parseTrustGids(v["trust-gid"]) as number[];
  // A ClickHouse root (issue #14) is served alone: its tools ask the table, not files.
  const clickhouse = clickHouseRootOf(positionals, io.env, stderr);
  const roots = clickhouse ? [] : openRoots(positionals, io.cwd());
  const state = openState(v, io, limits, stderr);
  checkFolders(roots, state, processTrust(state.uid, trustGids, stderr), stderr);
  const redact = !v["no-redact"];
  const { artifacts, artifactsOff, stateDir, trace } = state;
  let dispatch: Dispatch;
  let closeWorker: (() => void) | undefined;
  if (Deno.permissions.querySync({ name: "read" }).state === "granted") {
    // The process may read everything (a compiled binary, or --allow-read with no list): the code
    // that touches log files runs in a worker narrowed to the roots and the state directory.
    // Deno ends the process (exit 70) when --unstable-worker-options is missing; say first what for.
    stderr(
      "logpeek: read permission covers everything: narrowing it to the roots in a worker " +
        "(needs --unstable-worker-options, or grant --allow-read for the roots only)",
    );
    const worker = await startToolWorker(workerUrl, {
      roots,
      clickhouse,
      limits,
      stateDir: artifacts ? stateDir : null,
      artifactsOff,
      redact,
    });
    dispatch = worker.dispatch;
    closeWorker = worker.close;
    stderr(`logpeek: tools run in a worker that may read only ${worker.permissions.read.join(", ")}`);
  } else {
    // Tools run on this thread: a pattern's costly lines are tested in a worker started from here.
    const patterns = new PatternOffload();
    dispatch = localDispatch({
      roots,
      clickhouse,
      limits,
      stderr,
      artifacts,
      artifactsOff,
      redact,
      patterns,
    });
    closeWorker = () => patterns.close();
  }
  const server = createServer({ limits, dispatch });
  // The trace is always redacted; --no-redact is about returned log text only (issue #8).
  const transport = new TracingTransport(
    new StdioFrameTransport(),
    trace ? (r) => trace.append(r) : null,
    stderr,
  );
  // Errors the SDK would drop (a refused frame, an answer that could not be sent) go to stderr.
  server.server.onerror = (e: Error) => stderr(`logpeek: ${maskAndCut(e.message, MAX_ERROR_CHARS)}`);
  // When the client closes stdin the calls in flight are answered, then the transport closes and the
  // server is done; the tool worker must not keep the process alive.
  server.server.onclose = () => closeWorker?.();
  await server.connect(transport);
  stderr(
    `logpeek ${VERSION}: serving ${
      clickhouse ? clickhouse.shown : roots.map((r) => r.path).join(", ")
    } over stdio; ` +
      (artifacts ? `state in ${stateDir}` : "no state directory"),
  );
}

/**
 * The state directory: made (the default one with its parents), swept, its trace opened. A relative
 * --state-dir is a usage mistake (exit 1); a named one that is a file, or whose parent folder does not
 * exist (mistyped), is refused (exit 1); a state directory that cannot be had or used only turns
 * spilling and tracing off (said on stderr).
 *
 * @throws {RangeError} for a named state directory that is refused.
 */
function openState(v: Values, io: CliIo, limits: Limits, stderr: (line: string) => void): ServerState {
  const named = v["state-dir"] !== undefined && !isDefault(stateDirFrom(v["state-dir"], io), io);
  if (named) {
    const problem = namedStateDirProblem(stateDirFrom(v["state-dir"], io));
    if (problem) throw new RangeError(problem);
  }
  const state: ServerState = { stateDir: "", artifacts: null, artifactsOff: null, trace: null, uid: null };
  try {
    state.stateDir = stateDirFrom(v["state-dir"], io);
    state.uid = prepareStateDir(state.stateDir, !named);
    state.artifacts = new ArtifactStore(
      join(state.stateDir, "artifacts"),
      limits.artifactTtlS * 1000,
      limits.artifactMaxBytes,
    );
    state.artifacts.sweep();
    if (!v["no-trace"]) {
      state.trace = new TraceWriter(
        join(state.stateDir, "traces", "calls.jsonl"),
        limits.traceMaxBytes,
        stderr,
      );
    }
  } catch (e) {
    state.artifacts = null;
    const why = e instanceof Error ? e.message : String(e);
    state.artifactsOff = state.stateDir
      ? `the state directory ${state.stateDir} cannot be used (${why})`
      : `there is no state directory (${
        why.replace(/^no state directory: /, "").replace(/:? (or )?pass --state-dir \/absolute\/path$/, "")
      })`;
    stderr(
      `logpeek: ${state.artifactsOff}: long answers are cut instead of saved, and calls are not traced. ` +
        (!state.stateDir
          ? "Pass --state-dir."
          : e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied
          ? `Grant --allow-read and --allow-write=${state.stateDir}, or pass --state-dir.`
          : "Pass --state-dir a folder of logpeek's own."),
    );
  }
  return state;
}

/**
 * Checks the folders above each root and above the state directory (`source/local/confine.ts`), where this
 * process may read them (with read access to the roots only it may not: the launcher, `deno task start`,
 * checks them before it starts the server). A state directory another user could swap is not used
 * (`state` loses its artifacts and trace, said on stderr): they could plant artifacts for read_artifact
 * and links for the trace to write through.
 *
 * @throws {RootError} for a root under a folder another user could swap.
 */
function checkFolders(roots: Root[], state: ServerState, trust: Trust, stderr: (line: string) => void): void {
  let unchecked = 0;
  for (const root of roots) {
    root.trust = trust;
    try {
      if (checkAncestors(root.real, trust)) unchecked++;
    } catch (e) {
      if (e instanceof ToolError) throw new RootError(`root ${root.path}: ${e.message}`);
      throw e;
    }
  }
  if (state.artifacts) {
    try {
      if (checkAncestors(Deno.realPathSync(state.stateDir), trust)) unchecked++;
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      state.artifacts = null;
      state.trace = null;
      state.artifactsOff = `the state directory ${state.stateDir} cannot be used (${withoutName(e.message)})`;
      stderr(
        `logpeek: ${state.artifactsOff}: long answers are cut instead of saved, and calls are not traced. ` +
          "Pass --state-dir with a folder only root and logpeek's user can change.",
      );
    }
  }
  if (unchecked) {
    stderr(
      "logpeek: note: this server may read only its roots and state directory, so it cannot check the " +
        "folders above them for swaps by other users; `deno task start` checks them before it starts the " +
        "server, and `logpeek config` when it prints the entry (docs/security.md: What is confined, and against whom)",
    );
  }
}

/**
 * The ClickHouse root of a command line, when it has one (issue #14), read with its variables.
 *
 * @param args The ROOT arguments.
 * @param env Looks a variable up; may throw `Deno.errors.NotCapable` (then the variable counts as unset,
 *   and stderr names it).
 * @param stderr Receives one line naming variables that could not be read.
 * @returns The target, or undefined when no root is a ClickHouse URL.
 * @throws {RootError} when a ClickHouse root is given with other roots, or is malformed (the message says
 *   how; a password in it is never repeated).
 */
export function clickHouseRootOf(
  args: readonly string[],
  env: (name: string) => string | undefined,
  stderr: (line: string) => void,
): ClickHouseTarget | undefined {
  const ch = args.filter(isClickHouseRoot);
  if (ch.length === 0) return undefined;
  if (args.length > 1) {
    throw new RootError(
      "a ClickHouse root is served alone (its tools ask the table, not files): start one logpeek for the " +
        "table and another for the files or other tables",
    );
  }
  const { read, denied } = envReader(env);
  try {
    const target = parseClickHouseRoot(ch[0], read);
    if (denied.length) {
      stderr(`logpeek: cannot read ${denied.join(", ")} (add them to --allow-env): taken as unset`);
    }
    return target;
  } catch (e) {
    throw new RootError(`root: ${e instanceof Error ? e.message : e}`);
  }
}
