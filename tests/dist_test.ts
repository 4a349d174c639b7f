/**
 * Single-file distribution (issue #4): the bundle runs from an empty DENO_DIR with the network
 * unreachable; the compiled binary passes the smoke test where a real `denort` is at hand.
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ENV_NAMES } from "../src/core/config.ts";
import { DEMO, smoke } from "../scripts/smoke.ts";
import { COMPILE_FLAGS } from "../scripts/compile.ts";
import { tempDir } from "./fixtures.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const opts = { sanitizeResources: false, sanitizeOps: false };
/** An environment where any download fails at once: an empty cache and proxies that refuse. */
function offline(denoDir: string): Record<string, string> {
  const dead = "http://127.0.0.1:9";
  return {
    PATH: Deno.env.get("PATH") ?? "",
    DENO_DIR: denoDir,
    HTTP_PROXY: dead,
    HTTPS_PROXY: dead,
    ALL_PROXY: dead,
    NPM_CONFIG_REGISTRY: dead + "/",
    NO_COLOR: "1",
  };
}

const dir = tempDir("logpeek-dist-");
const bundle = `${dir}/logpeek.js`;

Deno.test({
  name: "bundle: one file that runs from an empty DENO_DIR, offline, with explicit flags",
  ...opts,
  async fn() {
    const built = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--quiet", "--platform", "deno", "-o", bundle, `${ROOT}main.ts`],
      cwd: ROOT,
    }).output();
    assert.equal(built.code, 0, new TextDecoder().decode(built.stderr));
    const empty = tempDir("logpeek-empty-deno-dir-");
    const tools = await smoke(Deno.execPath(), (state, logs) => [
      "run",
      "--no-config",
      "--no-prompt",
      `--allow-read=${DEMO},${state},${logs}`,
      `--allow-write=${state}`,
      `--allow-env=${ENV_NAMES.join(",")}`,
      bundle,
    ], offline(empty));
    assert.deepEqual(tools.sort(), [
      "log_files",
      "log_levels",
      "log_patterns",
      "log_search",
      "log_tail",
      "read_artifact",
    ]);
    // The same file as its own permission-narrowed worker, from a process that may read everything.
    await smoke(Deno.execPath(), (state) => [
      "run",
      "--no-config",
      "--no-prompt",
      "--unstable-worker-options",
      "--allow-read",
      `--allow-write=${state}`,
      bundle,
    ], offline(empty));
    assert.deepEqual(
      [...Deno.readDirSync(`${empty}`)].filter((e) => e.name === "npm" || e.name === "remote").flatMap((
        e,
      ) => [...Deno.readDirSync(`${empty}/${e.name}`)]),
      [],
    );
  },
});

const denort = Deno.env.get("DENORT_BIN");
let skip: string | null = null;
if (!denort) {
  skip = "DENORT_BIN is not set: deno compile must download its runtime, which this machine cannot";
} else if (realpathSync(denort) === realpathSync(Deno.execPath())) {
  skip =
    "DENORT_BIN names the deno CLI itself, not a denort runtime (that would be a full Deno with all permissions)";
}
if (skip) console.error(`SKIP compile and native smoke test: ${skip}`);

Deno.test({
  name: "compile: dist/logpeek builds and answers a real MCP client",
  ignore: skip !== null,
  ...opts,
  async fn() {
    const out = `${dir}/logpeek`;
    const built = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}scripts/compile.ts`, "--output", out],
      cwd: ROOT,
    }).output();
    assert.equal(built.code, 0, new TextDecoder().decode(built.stderr));
    const tools = await smoke(out, () => []);
    assert.ok(tools.includes("log_tail"));
  },
});

/** Runs `deno ARGS` with exactly `env`; stdout and stderr as text. */
async function denoRun(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), { args, env, clearEnv: true, cwd: ROOT, stdin: "null" })
    .output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Deno's own cache (the npm packages are there), with every download sent to a port that refuses. */
function noDownloads(): Record<string, string> {
  const denoDir = JSON.parse(
    new TextDecoder().decode(
      new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).outputSync().stdout,
    ),
  ).denoDir;
  // The npm registry is left as it is: Deno's npm cache is kept per registry.
  const { NPM_CONFIG_REGISTRY: _, ...env } = offline(denoDir);
  return { ...env, HOME: Deno.env.get("HOME") ?? "/" };
}

if (denort) {
  console.error("SKIP compile failure message: DENORT_BIN is set, so deno compile downloads nothing here");
}
Deno.test({
  name:
    "compile: where the runtime cannot be downloaded, deno compile's own error comes through, then DENORT_BIN",
  ignore: Boolean(denort),
  ...opts,
  async fn() {
    const env = noDownloads();
    const out = `${dir}/logpeek-no-runtime`;
    const viaTask = await denoRun(["run", "-A", `${ROOT}scripts/compile.ts`, "--output", out], env);
    if (viaTask.code === 0) {
      console.error("SKIP compile failure message: deno compile found its runtime in the cache and worked");
      return;
    }
    // The same deno compile, run directly: its own output, to compare with what the script passed through.
    const direct = await denoRun(
      ["compile", ...COMPILE_FLAGS, "--include", `${ROOT}main.ts`, "-o", out, `${ROOT}main.ts`],
      env,
    );
    assert.notEqual(direct.code, 0);
    assert.equal(viaTask.code, direct.code);
    const url = `https://dl.deno.land/release/v${Deno.version.deno}/denort-${Deno.build.target}.zip`;
    assert.ok(direct.stderr.includes(`Download ${url}\n`), direct.stderr);
    const same = (s: string) => s.replace(/\.tmp-[0-9a-f]+/g, ".tmp-…").replace(/^Check .*\n/m, "");
    assert.ok(same(viaTask.stderr).includes(same(direct.stderr)), viaTask.stderr);
    assert.equal(
      viaTask.stderr.trimEnd().split("\n").at(-1),
      `logpeek: deno compile could not download its runtime (${url}). Where downloads are blocked, fetch ` +
        "that file elsewhere, unzip it, and name the denort in it: DENORT_BIN=/path/to/denort deno task " +
        `compile (a denort of Deno ${Deno.version.deno}, not the deno CLI)`,
    );
    assert.throws(() => Deno.statSync(out), Deno.errors.NotFound);
  },
});

Deno.test("compile: a DENORT_BIN that is the deno CLI itself is refused before anything is built", async () => {
  const out = `${dir}/logpeek-cli-as-runtime`;
  const r = await denoRun(["run", "-A", `${ROOT}scripts/compile.ts`, "--output", out], {
    ...noDownloads(),
    DENORT_BIN: Deno.execPath(),
  });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /logpeek: DENORT_BIN \(.*\) is the deno CLI itself, not the denort runtime/);
  assert.doesNotMatch(r.stderr, /^deno compile/m);
  assert.throws(() => Deno.statSync(out), Deno.errors.NotFound);
});
