/**
 * `deno task compile [--target TARGET]`: builds `dist/logpeek` (or `dist/logpeek-TARGET`) with
 * `deno compile`. The permissions baked in: read everything (narrowed at run time, in the tool worker,
 * to the roots and the state directory — the roots are known only when the binary starts), write (for
 * the state directory), the environment variables logpeek reads, and `--unstable-worker-options` for
 * that narrowing. No net, run, ffi or sys.
 *
 * `deno compile` downloads its runtime (`denort`) unless `DENORT_BIN` names a local one.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { ENV_NAMES } from "../src/core/config.ts";

/** The flags baked into the binary. */
export const COMPILE_FLAGS = [
  "--no-prompt",
  "--unstable-worker-options",
  "--allow-read",
  "--allow-write",
  `--allow-env=${ENV_NAMES.join(",")}`,
  "--allow-sys=uid",
];

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { target: { type: "string" }, output: { type: "string" } },
  });
  const root = fileURLToPath(new URL("..", import.meta.url));
  const ext = values.target?.includes("windows") ? ".exe" : "";
  const output = values.output ?? `${root}dist/logpeek${values.target ? `-${values.target}` : ""}${ext}`;
  const args = [
    "compile",
    ...COMPILE_FLAGS,
    ...(values.target ? ["--target", values.target] : []),
    "--include",
    `${root}main.ts`,
    "-o",
    output,
    `${root}main.ts`,
  ];
  console.error(`deno ${args.join(" ")}`);
  const { code } = await new Deno.Command(Deno.execPath(), { args, stdin: "null" }).output();
  Deno.exit(code);
}
