/**
 * `deno task start [--state-dir DIR] [options] ROOT...`: runs the server with the narrowest Deno
 * permissions that work. A task cannot put its arguments into `--allow-read`, so this launcher resolves
 * the roots (their real paths too) and the state directory, and starts `deno run --no-prompt
 * --allow-read=ROOTS,STATE --allow-write=STATE --allow-env=… main.ts --state-dir STATE ROOTS` with the
 * same stdin, stdout and stderr, and exits with its code. The server process gets no net, run or ffi
 * permission, no sys permission but its user id, and writes only in its state directory. First it checks
 * that no user but root and its own can swap the folders above each root (`src/source/confine.ts`), which the
 * server, reading only the roots, cannot see.
 *
 * Permission (of this launcher only): `--allow-read` to resolve the roots, `--allow-run=deno`,
 * `--allow-env`, `--allow-sys=uid`.
 *
 * @module
 */

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serverFlags } from "../src/cli/flags.ts";
import { chooseStateDir } from "../src/state/state_dir.ts";
import { checkBeforeServing, processTrust } from "../src/source/confine.ts";

const args = [...Deno.args];
const at = args.indexOf("--state-dir");
const stateDir = chooseStateDir(at >= 0 ? args.splice(at, 2)[1] : undefined, (n) => Deno.env.get(n));
const roots = args.filter((a) => !a.startsWith("-") && a.trim() !== "").map((r) => resolve(r));
const paths = [...roots];
for (const r of roots) {
  try {
    paths.push(Deno.realPathSync(r));
  } catch {
    // a root that does not exist: logpeek itself says so and exits 1
  }
}
// The folders above each root and the state directory must be safe from swaps by other users
// (src/source/confine.ts). The server, which may read only those, cannot look at them: this launcher can.
const trustGids: number[] = [];
for (let i = 0; i < args.length; i++) if (args[i] === "--trust-gid") trustGids.push(Number(args[i + 1]));
const trust = processTrust(undefined, trustGids, () => {});
const { problem } = checkBeforeServing(roots, stateDir, trust);
if (problem) {
  console.error(`logpeek: ${problem}`);
  Deno.exit(1);
}
const main = fileURLToPath(new URL("../main.ts", import.meta.url));
const child = new Deno.Command("deno", {
  args: ["run", ...serverFlags(paths, stateDir), main, "--state-dir", stateDir, ...args],
  stdin: "inherit",
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
for (const sig of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(sig, () => child.kill(sig));
Deno.exit((await child.status).code);
