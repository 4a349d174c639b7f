/**
 * Single-file distribution (issue #4): the bundle runs from an empty DENO_DIR with the network
 * unreachable; the compiled binary passes the smoke test where a real `denort` is at hand.
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ENV_NAMES } from "../src/core/config.ts";
import { DEMO, smoke } from "../scripts/smoke.ts";
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
    const tools = await smoke(Deno.execPath(), (state) => [
      "run",
      "--no-config",
      "--no-prompt",
      `--allow-read=${DEMO},${state}`,
      `--allow-write=${state}`,
      `--allow-env=${ENV_NAMES.join(",")}`,
      bundle,
    ], offline(empty));
    assert.deepEqual(tools.sort(), ["log_files", "log_levels", "log_search", "log_tail", "read_artifact"]);
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
