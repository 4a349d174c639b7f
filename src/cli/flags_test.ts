import assert from "node:assert/strict";
import { commaProblem, netOfRoots, serverFlags, V8_FLAG } from "./flags.ts";
import { fileURLToPath } from "node:url";

const opts = { sanitizeResources: false, sanitizeOps: false };

// Garbage with some survivors, as calls make: V8 grows its young generation (the "new_space") with it.
const PROBE = `import v8 from "node:v8";
let keep = [];
let max = 0;
for (let r = 0; r < 15; r++) {
  for (let i = 0; i < 200000; i++) keep.push({ i, s: "x" + i });
  if (keep.length > 600000) keep = keep.slice(-300000);
  max = Math.max(max, v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size);
}
console.log(max);
`;

/** The largest new space (both semi-spaces) a process reached, in bytes. */
async function newSpace(flags: string[]): Promise<number> {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-v8-" });
  try {
    Deno.writeTextFileSync(`${dir}/probe.mjs`, PROBE);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, `${dir}/probe.mjs`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    return Number(new TextDecoder().decode(out.stdout).trim());
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("serverFlags ends with the V8 flags, after the permissions", () => {
  const f = serverFlags(["/var/log/app"], "/state");
  assert.deepEqual(f.slice(0, 3), [
    "--no-prompt",
    `--allow-read=/var/log/app,/state,${fileURLToPath(new URL("../read", import.meta.url))}`,
    "--allow-write=/state",
  ]);
  assert.equal(f.at(-1), V8_FLAG);
  assert.match(V8_FLAG, /^--v8-flags=--max-semi-space-size=4$/);
});

Deno.test({
  name:
    "the V8 flag keeps the young generation near 2 × 4 MiB (at most 24 MiB) where this Deno's default grows it to 64 MiB",
  ...opts,
  async fn() {
    const capped = await newSpace([V8_FLAG]);
    const dflt = await newSpace([]);
    // With the flag: 8 MiB in most runs, and in 12 runs on a quiet machine (2026-12-01) also 8.5, 10.25,
    // 16.25 and 17.5 MiB once each (V8 holds more pages for a while around a scavenge; a bound of 10 MiB
    // failed one fresh clone in six). Without it: 64 MiB in every run. So: at most 24 MiB (three times the
    // nominal size), and the default at least twice that.
    assert.ok(capped > 0 && capped <= 24 * 1024 * 1024, `with ${V8_FLAG}: ${capped} bytes`);
    assert.ok(dflt >= 2 * capped, `without it: ${dflt} bytes (the flag would change little)`);
  },
});

Deno.test("serverFlags: no state directory, no --allow-write; a comma is refused, never passed to Deno", () => {
  const f = serverFlags(["/var/log/app"], null);
  // The roots, then the folder of the pattern worker's module (src/read here): Deno reads it to start it.
  assert.equal(f[1], `--allow-read=/var/log/app,${fileURLToPath(new URL("../read", import.meta.url))}`);
  assert.equal(f.some((x) => x.startsWith("--allow-write")), false);
  assert.equal(commaProblem(["/var/log/app", "/s"]), null);
  const line =
    "/t/a,b has a comma, which a Deno permission list cannot hold (--allow-read splits at commas " +
    "and has no escape): serve it by a path without a comma";
  assert.equal(commaProblem(["/var/log", "/t/a,b"]), line);
  assert.throws(() => serverFlags(["/t/a,b"], "/s"), { name: "RangeError", message: line });
  assert.throws(() => serverFlags(["/t"], "/s,t"), RangeError);
});

Deno.test("serverFlags with a ClickHouse root: --allow-net=HOST:PORT of that root only; netOfRoots splits the roots", () => {
  const { net, files } = netOfRoots(["/var/log/app", "clickhouse://ch.internal:8123/otel.otel_logs"]);
  assert.deepEqual(net, ["ch.internal:8123"]);
  assert.deepEqual(files, ["/var/log/app"]);
  const f = serverFlags(files, "/st", null, net);
  assert.ok(f.includes("--allow-net=ch.internal:8123"));
  assert.equal(f.filter((x) => x.startsWith("--allow-net")).length, 1);
  assert.ok(!serverFlags(["/var/log/app"], "/st", null).some((x) => x.startsWith("--allow-net")));
  assert.ok(f.find((x) => x.startsWith("--allow-env="))!.includes("LOGPEEK_CLICKHOUSE_PASSWORD"));
  // A malformed root is left to logpeek itself, which says what is wrong.
  assert.deepEqual(netOfRoots(["clickhouse://nope"]).net, []);
});
