/**
 * Issue #8, item 1: a swap of any component of a log's path — a folder in the middle as well as the last
 * component — while calls run, never yields a byte from outside the roots, in every permission mode.
 *
 * A python loop exchanges names atomically (`renameat2(RENAME_EXCHANGE)`) as fast as it can:
 * `sub` ⇄ `sub_alt` (a symlink to an outside folder), `deep/x` ⇄ `deep/x_alt`, `deep` ⇄ `deep_alt`,
 * and `top.log` ⇄ `top_alt.log` (a symlink to an outside file). Every outside file holds a canary.
 *
 * Two attackers:
 * - another user (`nobody`, who owns the log folder, as in the fuzzer's report): the folders it could
 *   swap are refused (`unsafe_path`), and the last-component swap is caught after the open;
 * - logpeek's own user (root here): it may swap anything, so only the checks around the open stand.
 */
import assert from "node:assert/strict";
import { connect, type Session, textFor } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

const SWAPPER = `
import ctypes, os, signal, sys, time
libc = ctypes.CDLL(None, use_errno=True)
def stop(*_):
    print(n, flush=True)
    os._exit(0)
signal.signal(signal.SIGTERM, stop)
uid = int(sys.argv[1]); seconds = float(sys.argv[2]); pairs = sys.argv[3:]
if uid:
    os.setgid(uid); os.setuid(uid)
end = time.time() + seconds
n = 0
while time.time() < end:
    for i in range(0, len(pairs), 2):
        if libc.renameat2(-100, pairs[i].encode(), -100, pairs[i + 1].encode(), 2) == 0:
            n += 1
print(n)
`;

const NOBODY = 65534;
const IS_ROOT = Deno.uid() === 0;

/** The layout: `dir/logs` (the root) and `dir/outside` (canaries), owned by `owner`. */
function setup(owner: number): string {
  const dir = tempDir("logpeek-swap-");
  Deno.chmodSync(dir, 0o755); // the other user must reach logs/
  const inside = "2024-05-01 10:00:00 INFO inside line\n";
  for (const d of ["logs/sub", "logs/deep/x", "outside/deepx", "outside/sub", "outside/x"]) {
    Deno.mkdirSync(`${dir}/${d}`, { recursive: true });
  }
  Deno.writeTextFileSync(`${dir}/logs/sub/app.log`, inside);
  Deno.writeTextFileSync(`${dir}/logs/deep/x/app.log`, inside);
  Deno.writeTextFileSync(`${dir}/logs/top.log`, inside);
  const canary = "2024-05-01 10:00:00 ERROR CANARY-swap-outside line\n";
  Deno.writeTextFileSync(`${dir}/outside/app.log`, canary, { mode: 0o600 });
  Deno.writeTextFileSync(`${dir}/outside/CANARY-name.log`, canary, { mode: 0o600 });
  Deno.writeTextFileSync(`${dir}/outside/deepx/app.log`, canary, { mode: 0o600 });
  Deno.writeTextFileSync(`${dir}/outside/sub/app.log`, canary, { mode: 0o600 });
  Deno.writeTextFileSync(`${dir}/outside/x/app.log`, canary, { mode: 0o600 });
  Deno.symlinkSync(`${dir}/outside`, `${dir}/logs/sub_alt`);
  Deno.symlinkSync(`${dir}/outside/deepx`, `${dir}/logs/deep/x_alt`);
  Deno.symlinkSync(`${dir}/outside`, `${dir}/logs/deep_alt`);
  Deno.symlinkSync(`${dir}/outside/app.log`, `${dir}/logs/top_alt.log`);
  Deno.chmodSync(`${dir}/outside`, 0o700);
  if (owner !== Deno.uid()) {
    for (const p of ["logs", "logs/sub", "logs/deep", "logs/deep/x"]) {
      Deno.chownSync(`${dir}/${p}`, owner, owner);
    }
    for (const p of ["logs/sub_alt", "logs/deep/x_alt", "logs/deep_alt", "logs/top_alt.log"]) {
      Deno.chownSync(`${dir}/${p}`, owner, owner);
    }
    for (const p of ["logs/sub/app.log", "logs/deep/x/app.log", "logs/top.log"]) {
      Deno.chownSync(`${dir}/${p}`, owner, owner);
    }
  }
  return dir;
}

function swapper(dir: string, uid: number, seconds: number): Deno.ChildProcess {
  const l = `${dir}/logs`;
  return new Deno.Command("python3", {
    args: [
      "-c",
      SWAPPER,
      String(uid),
      String(seconds),
      ...[`${l}/sub`, `${l}/sub_alt`, `${l}/deep/x`, `${l}/deep/x_alt`, `${l}/deep`, `${l}/deep_alt`],
      ...[`${l}/top.log`, `${l}/top_alt.log`],
    ],
    stdout: "piped",
  }).spawn();
}

interface Tally {
  calls: number;
  answered: number;
  refused: Record<string, number>;
  /** Answers that held a canary, by log name (log_files under "log_files"). */
  leaked: Record<string, number>;
  swaps: number;
}

/** The fewest calls a race must make: thousands on a quiet machine, far fewer under load. */
const MIN_CALLS = 200;

/**
 * Calls every reading tool on every log, and log_files, for `ms` and at least {@linkcode MIN_CALLS} calls (a
 * loaded machine makes fewer calls a second: the race then runs longer, up to ten times `ms`), while the
 * swapper exchanges names; asserts no canary in any answer.
 */
async function hammer(s: Session, dir: string, uid: number, ms: number): Promise<Tally> {
  const cap = ms * 10;
  const loop = swapper(dir, uid, cap / 1000 + 0.5);
  const t: Tally = { calls: 0, answered: 0, refused: {}, leaked: {}, swaps: 0 };
  const start = Date.now();
  const files = ["sub/app.log", "deep/x/app.log", "top.log"];
  const more = () => {
    const spent = Date.now() - start;
    return spent < cap && (spent < ms || t.calls < MIN_CALLS);
  };
  while (more()) {
    for (const file of files) {
      for (const tool of ["log_tail", "log_search", "log_levels"]) {
        const r = await s.call(tool, { file, ...textFor(tool, "line") });
        t.calls++;
        if (JSON.stringify(r).includes("CANARY")) t.leaked[file] = (t.leaked[file] ?? 0) + 1;
        else if (r.isError) {
          const kind = r.content[0].text.split(":")[0];
          t.refused[kind] = (t.refused[kind] ?? 0) + 1;
        } else t.answered++;
      }
    }
    const list = await s.call("log_files");
    t.calls++;
    if (JSON.stringify(list).includes("CANARY")) t.leaked.log_files = (t.leaked.log_files ?? 0) + 1;
  }
  try {
    loop.kill("SIGTERM"); // it prints its count and ends
  } catch {
    // it ended at its own time already
  }
  const out = await loop.output();
  t.swaps = Number(new TextDecoder().decode(out.stdout).trim());
  return t;
}

const MODES = [
  // Deno's read permission covers the outside folder too: only logpeek's own checks stand.
  { name: "narrow permissions (outside readable)", broad: false, extra: (d: string) => [d] },
  // Deno may read the roots only.
  { name: "narrow permissions (roots only)", broad: false, extra: (_d: string) => [] as string[] },
  // The process may read everything: the tools run in the narrowed worker.
  { name: "worker", broad: true, extra: (_d: string) => [] as string[] },
];

for (const mode of MODES) {
  Deno.test({
    name: `swap race, another user swaps folders and files (${mode.name}): 0 bytes from outside`,
    ignore: !IS_ROOT,
    ...opts,
    async fn() {
      const dir = setup(NOBODY);
      await using s = await connect([`${dir}/logs`], {}, mode.extra(dir), { broadRead: mode.broad });
      const t = await hammer(s, dir, NOBODY, 4000);
      console.error(`${mode.name}, swapper uid ${NOBODY}: ${JSON.stringify(t)}`);
      assert.deepEqual(t.leaked, {}, "no leak");
      assert.ok(t.swaps > 10_000, `the swapper ran (${t.swaps} exchanges)`);
      assert.ok(
        t.calls >= MIN_CALLS,
        `hundreds of calls at least (${t.calls}; thousands on a quiet machine)`,
      );
      // The middle folders live in folders nobody may write: every read through them is refused as
      // unsafe, whatever the moment; top.log sits directly in the root and is read when not swapped.
      assert.ok(t.refused.unsafe_path > 0, "folders another user can swap are refused");
      assert.ok(t.answered > 0, "the log directly in the root is still read");
    },
  });

  Deno.test({
    name:
      `swap race, logpeek's own user swaps files and folders (${mode.name}): last-component swaps never leak`,
    ...opts,
    async fn() {
      const dir = setup(Deno.uid()!);
      await using s = await connect([`${dir}/logs`], {}, mode.extra(dir), { broadRead: mode.broad });
      const t = await hammer(s, dir, Deno.uid()!, 4000);
      // A user who may rename the folders on a log's path can redirect a read through them: no Deno
      // program can prevent it (confine.ts says why). Those counts are measured, not asserted; the
      // swap of the log's own name is caught after the open whoever does it.
      console.error(
        `${mode.name}, swapper = logpeek's user: ${JSON.stringify(t)} ` +
          "(KNOWN LIMIT: middle-folder swaps by logpeek's own user or root are not excluded)",
      );
      assert.ok(t.swaps > 10_000, `the swapper ran (${t.swaps} exchanges)`);
      assert.ok(
        t.calls >= MIN_CALLS,
        `hundreds of calls at least (${t.calls}; thousands on a quiet machine)`,
      );
      assert.ok(t.answered > 0, "logs are read between swaps");
      assert.equal(t.leaked["top.log"], undefined, "the swap of a log's own name never leaks");
      assert.equal(t.refused.unsafe_path, undefined, "logpeek's own folders are trusted");
    },
  });
}

Deno.test({
  name: "swap race, another user: SKIP notice when not root",
  ignore: IS_ROOT,
  fn() {
    console.error("SKIP: the cross-user swap race needs root (to run the swapper as nobody)");
  },
});
