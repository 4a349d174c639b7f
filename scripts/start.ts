/**
 * `deno task start [options] ROOT...` (also `deno task start config …` and `deno task start trace-report …`):
 * runs the server with the narrowest Deno permissions that work. A task cannot put its arguments into
 * `--allow-read`, so this launcher reads the command line as logpeek does (`src/cli/command_line.ts`), resolves
 * the roots (their real paths too) and the state directory, and starts `deno run --no-prompt
 * --allow-read=ROOTS,STATE --allow-write=STATE --allow-env=… --allow-sys=uid main.ts --state-dir=STATE …
 * -- ROOTS` with the same stdin, stdout and stderr, and exits with its code. The server process gets no net,
 * run or ffi permission, no sys permission but its user id, and writes only in its state directory. First it
 * checks that no user but root and its own can swap the folders above each root (`src/source/local/confine.ts`),
 * which the server, reading only the roots, cannot see.
 *
 * Relative ROOTs and a relative `--state-dir` are taken from the folder the user ran the task in (where
 * `deno task` runs: `userCwd`; it runs the task itself in the folder of `deno.json`). The server runs on the same
 * Deno as this launcher (`Deno.execPath()`), never on another `deno` found on PATH. Anything else — `--help`,
 * `--version`, `config`, `trace-report`, and every usage mistake — is answered by logpeek's own `main` in this
 * process, so it prints exactly what `main.ts` prints and exits with the same code.
 *
 * Permission (of this launcher only): `--allow-read` (to resolve the roots and check the folders above them),
 * `--allow-env`, `--allow-sys=uid`, and `--allow-run` of the running Deno's own path: the task passes it as
 * `DENO_EXEC_PATH` (`deno eval 'console.log(Deno.execPath())'`), since `--allow-run=deno` allows only the
 * `deno` PATH names, which is another path (a link to it, another Deno, or none).
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { commaProblem, netOfRoots, serverFlags } from "../src/cli/flags.ts";
import { isClickHouseRoot } from "../src/source/clickhouse/target.ts";
import { type CliIo, DENO_IO, main, serveUsageError, stateDirFrom } from "../src/cli/cli.ts";
import { parseCommandLine, SEE_HELP, toArgs } from "../src/cli/command_line.ts";
import { checkAncestors, checkBeforeServing, processTrust } from "../src/source/local/confine.ts";
import { ToolError } from "../src/core/errors.ts";
import { isDefaultStateDir, namedStateDirProblem } from "../src/state/state_dir.ts";

const MAIN = new URL("../main.ts", import.meta.url);

/**
 * The folder the user ran `deno task start` in: relative paths are taken from there. `deno task` runs this
 * script in the folder of `deno.json` and sets `INIT_CWD` to the user's folder, but only where it is not
 * set already (and Deno may not look at `/proc` to tell). So `INIT_CWD` counts only for a run that is a
 * task's: in the folder of `deno.json`, with the user agent `deno task` sets; a direct run with an
 * `INIT_CWD` inherited from an outer `npm run` is taken from its own folder (issue #24).
 */
function userCwd(): string {
  const here = Deno.cwd();
  const init = Deno.env.get("INIT_CWD");
  const byTask = (Deno.env.get("npm_config_user_agent") ?? "").startsWith("deno/") &&
    here === fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
  return byTask && init && isAbsolute(init) ? init : here;
}

/** An environment variable, or undefined where it is unset or may not be read. */
function safeEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** Writes one line to stderr and ends the launcher with `code`. */
function fail(message: string, code = 1): never {
  console.error(`logpeek: ${message}`);
  Deno.exit(code);
}

if (import.meta.main) {
  const cwd = userCwd();
  const io: CliIo = { ...DENO_IO, cwd: () => cwd };
  const parsed = parseCommandLine(Deno.args);
  const serving = !("error" in parsed) && !parsed.values.help && !parsed.values.version &&
    parsed.positionals[0] !== "config" && parsed.positionals[0] !== "trace-report" &&
    serveUsageError(parsed) === null;
  if (!serving) {
    // Not a server to start: logpeek's main answers here, with the state directory taken from `cwd`.
    const args = "error" in parsed ? Deno.args : toArgs({
      values: {
        ...parsed.values,
        ...(parsed.values["state-dir"] ? { "state-dir": resolve(cwd, parsed.values["state-dir"]) } : {}),
      },
      positionals: parsed.positionals,
    });
    const code = await main(args, io, MAIN.href);
    if (code === null) fail("internal error: main started a server in the launcher");
    Deno.exit(code);
  }
  const { values, positionals } = parsed;
  // No state directory (HOME not set, say): the server runs without one, as main.ts does, and says so
  // itself on stderr (it gets the same environment, so the same reason).
  let stateDir: string | null = null;
  if (values["state-dir"] !== undefined) {
    stateDir = resolve(cwd, values["state-dir"]);
    const named = isDefaultStateDir(stateDir, safeEnv) ? null : namedStateDirProblem(stateDir);
    if (named) fail(named);
  } else {
    try {
      stateDir = stateDirFrom(undefined, io);
    } catch {
      stateDir = null;
    }
  }
  // A ClickHouse root (issue #14) stays a URL; its HOST:PORT is the server's one network permission.
  const { net, files } = netOfRoots(positionals);
  const roots = files.map((r) => resolve(cwd, r));
  const paths = [...roots];
  for (const r of roots) {
    try {
      paths.push(Deno.realPathSync(r));
    } catch {
      // a root that does not exist: logpeek itself says so and exits 1
    }
  }
  // The folders above each root and the state directory must be safe from swaps by other users
  // (src/source/local/confine.ts). The server, which may read only those, cannot look at them: this launcher can.
  const comma = commaProblem(stateDir === null ? paths : [...paths, stateDir]);
  if (comma) fail(`${comma}. ${SEE_HELP}`, 2);
  const trust = processTrust(undefined, (values["trust-gid"] ?? []).map(Number), () => {});
  if (stateDir !== null) {
    const { problem } = checkBeforeServing(roots, stateDir, trust);
    if (problem) fail(problem);
  } else {
    for (const r of roots) {
      try {
        checkAncestors(Deno.realPathSync(r), trust);
      } catch (e) {
        if (e instanceof ToolError) fail(`root ${r}: ${e.message}`);
        // a root that does not exist: logpeek itself says so and exits 1
      }
    }
  }
  const deno = Deno.execPath();
  if (Deno.permissions.querySync({ name: "run", command: deno }).state !== "granted") {
    fail(`this launcher may not run ${deno}: start it with deno task start, or grant --allow-run=${deno}`);
  }
  const child = new Deno.Command(deno, {
    args: [
      "run",
      ...serverFlags(paths, stateDir, undefined, net),
      fileURLToPath(MAIN),
      ...toArgs({
        values: stateDir === null ? values : { ...values, "state-dir": stateDir },
        positionals: positionals.some(isClickHouseRoot) ? positionals : roots,
      }),
    ],
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  for (const sig of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(sig, () => child.kill(sig));
  Deno.exit((await child.status).code);
}
