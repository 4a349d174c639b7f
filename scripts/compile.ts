/**
 * `deno task compile [--target TARGET]`: builds `dist/logpeek` (or `dist/logpeek-TARGET`) with
 * `deno compile`. The permissions baked in: read everything (narrowed at run time, in the tool worker,
 * to the roots and the state directory — the roots are known only when the binary starts), write (for
 * the state directory), the environment variables logpeek reads, and `--unstable-worker-options` for
 * that narrowing. No net, run, ffi or sys.
 *
 * `deno compile` downloads its runtime (`denort`) unless `DENORT_BIN` names a local one. Its output is passed
 * through as it comes; when it fails and its output shows the download, a last line says that `DENORT_BIN`
 * can name a local `denort`. A `DENORT_BIN` that is the deno CLI itself is refused (the binary would be a
 * full Deno, with every permission its code asks for).
 *
 * Permission: `--allow-read`, `--allow-write=dist`, `--allow-env`, `--allow-run` of the running Deno.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { ENV_NAMES } from "../src/core/config.ts";
import { V8_FLAG } from "../src/cli/flags.ts";

/** The flags baked into the binary. */
export const COMPILE_FLAGS = [
  "--no-prompt",
  "--unstable-worker-options",
  "--allow-read",
  "--allow-write",
  // For a ClickHouse root (issue #14): the tool worker, where every query runs, is narrowed to its
  // HOST:PORT (to no network at all for files); the main thread speaks only stdio.
  "--allow-net",
  `--allow-env=${ENV_NAMES.join(",")}`,
  "--allow-sys=uid",
  V8_FLAG,
];

/** How much of `deno compile`'s stderr is kept (its end) to recognise a failed download. */
const KEPT_BYTES = 65536;

/**
 * What to add when `deno compile` failed: where its output shows the runtime download (`denort`) and
 * `DENORT_BIN` is not set, a line that says `DENORT_BIN` can name a local `denort` (issue #10, item 8).
 *
 * @param stderr The end of `deno compile`'s stderr.
 * @param denortBin `DENORT_BIN`, if set.
 * @returns The hint (one line), or null.
 */
export function downloadHint(stderr: string, denortBin: string | undefined): string | null {
  if (denortBin) return null;
  const url = stderr.match(/https?:\/\/\S*denort\S*?\.zip/)?.[0];
  if (!url && !/denort/.test(stderr)) return null;
  return `logpeek: deno compile could not download its runtime${url ? ` (${url})` : ""}. Where downloads ` +
    `are blocked, fetch that file elsewhere, unzip it, and name the denort in it: DENORT_BIN=/path/to/denort ` +
    `deno task compile (a denort of Deno ${Deno.version.deno}, not the deno CLI)`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { target: { type: "string" }, output: { type: "string" } },
  });
  const denortBin = Deno.env.get("DENORT_BIN") || undefined;
  if (denortBin) {
    let same = false;
    try {
      same = Deno.realPathSync(denortBin) === Deno.realPathSync(Deno.execPath());
    } catch {
      // a DENORT_BIN that does not exist: deno compile says so
    }
    if (same) {
      console.error(
        `logpeek: DENORT_BIN (${denortBin}) is the deno CLI itself, not the denort runtime: the binary would be ` +
          "a full Deno. Name a denort (from https://dl.deno.land/release/v" + Deno.version.deno +
          "/denort-TARGET.zip), or unset DENORT_BIN to let deno compile download it",
      );
      Deno.exit(1);
    }
  }
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
  // deno compile's own output goes through as it comes; the end of its stderr is kept to see why it failed.
  const child = new Deno.Command(Deno.execPath(), { args, stdin: "null", stdout: "inherit", stderr: "piped" })
    .spawn();
  let kept = new Uint8Array(0);
  for await (const chunk of child.stderr) {
    Deno.stderr.writeSync(chunk);
    const both = new Uint8Array(kept.length + chunk.length);
    both.set(kept);
    both.set(chunk, kept.length);
    kept = both.subarray(Math.max(0, both.length - KEPT_BYTES));
  }
  const { code } = await child.status;
  if (code !== 0) {
    const hint = downloadHint(new TextDecoder().decode(kept), denortBin);
    if (hint) console.error(hint);
  }
  Deno.exit(code);
}
