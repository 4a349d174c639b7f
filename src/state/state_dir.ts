/**
 * logpeek's state directory: where the call trace and spilled artifacts live (issue #3).
 *
 * `--state-dir DIR`, else `LOGPEEK_STATE_DIR`, else `$XDG_STATE_HOME/logpeek`, else
 * `$HOME/.local/state/logpeek` (the XDG Base Directory Specification). Never relative to the working
 * directory: a stdio server inherits its client's, which is the seed's third pitfall
 * (`../shared/seeds/004_…`, 坑 3), so a relative path is refused and a relative `XDG_STATE_HOME` is
 * ignored, as the specification says.
 *
 * Permission: `--allow-read` and `--allow-write` of the directory.
 *
 * @module
 */

import { dirname, isAbsolute, join } from "node:path";
import { sysUid } from "../source/local/confine.ts";

/**
 * Chooses the state directory.
 *
 * @param flag The `--state-dir` value, if given.
 * @param env Looks an environment variable up (undefined when unset; a caller that may not read one says
 *   so itself, as `stateDirFrom` in `src/cli/cli.ts` does).
 * @returns An absolute path.
 * @throws {RangeError} when the chosen path is relative, HOME is relative, or HOME is not set.
 */
export function chooseStateDir(flag: string | undefined, env: (name: string) => string | undefined): string {
  const given = flag ?? env("LOGPEEK_STATE_DIR");
  if (given !== undefined && given !== "") {
    if (!isAbsolute(given)) {
      throw new RangeError(`the state directory must be an absolute path, got '${given}'`);
    }
    return given;
  }
  const xdg = env("XDG_STATE_HOME");
  if (xdg && isAbsolute(xdg)) return join(xdg, "logpeek");
  const home = env("HOME");
  if (home && isAbsolute(home)) return join(home, ".local", "state", "logpeek");
  if (home) {
    throw new RangeError(
      `no state directory: HOME (${home}) is not an absolute path: pass --state-dir /absolute/path`,
    );
  }
  throw new RangeError(
    "no state directory: HOME is not set (nor LOGPEEK_STATE_DIR, XDG_STATE_HOME): pass --state-dir /absolute/path",
  );
}

/**
 * Whether `dir` is the default state directory of this environment (what {@linkcode chooseStateDir}
 * picks with no flag and no `LOGPEEK_STATE_DIR`): the launcher and `config` name the default in the
 * server's command line, and it is made with its parents wherever it comes from (issue #24: the launcher
 * passed it as a named one, which the server refused to make under a missing `~/.local/state`).
 *
 * @param dir An absolute path.
 * @param env Looks an environment variable up (undefined when unset or not readable).
 * @returns True when `dir` is that default.
 */
export function isDefaultStateDir(dir: string, env: (name: string) => string | undefined): boolean {
  try {
    return chooseStateDir(undefined, (n) => (n === "LOGPEEK_STATE_DIR" ? undefined : env(n))) === dir;
  } catch {
    return false;
  }
}

/**
 * What is wrong with a state directory the user named (`--state-dir`), as one line, or null: it is there
 * but not a folder (`--state-dir /etc/shadow`), or its parent folder does not exist (a mistyped
 * `--state-dir /nonexist/deep` would otherwise be made, parents and all). The default state directory
 * is not checked here: `~/.local/state/logpeek` may be made with its parents.
 *
 * Permission: `--allow-read` of the directory and its parent; where it is not granted, nothing is said
 * (then {@linkcode prepareStateDir} with `parents` false refuses a missing parent).
 *
 * @param dir The absolute state directory.
 * @returns The mistake, or null.
 */
export function namedStateDirProblem(dir: string): string | null {
  try {
    const st = Deno.statSync(dir);
    return st.isDirectory
      ? null
      : `the state directory ${dir} is a file, not a folder: pass --state-dir a folder`;
  } catch (e) {
    if (e instanceof Deno.errors.NotADirectory) return underFile(dir);
    if (!(e instanceof Deno.errors.NotFound)) return null;
  }
  const parent = dirname(dir);
  try {
    return Deno.statSync(parent).isDirectory ? null : underFile(dir);
  } catch (e) {
    if (e instanceof Deno.errors.NotADirectory) return underFile(dir);
    if (!(e instanceof Deno.errors.NotFound)) return null;
    return `the state directory ${dir} cannot be made: its parent folder ${parent} does not exist ` +
      "(a mistyped path?); make it first, or pass --state-dir a folder that exists or whose parent does";
  }
}

/** The problem of a state directory whose path goes through a file (`/etc/hostname/sub`, ENOTDIR). */
function underFile(dir: string): string {
  return `the state directory ${dir} cannot be made: a part of its path is a file, not a folder; ` +
    "pass --state-dir a folder that exists or whose parent does";
}

/**
 * The user id logpeek runs as: `Deno.uid()` where `--allow-sys=uid` is granted (asked without a prompt),
 * else the owner of a file it makes in `dir` (a file belongs to the user who creates it), else null.
 *
 * Permission: `--allow-sys=uid`, or read and write access to `dir`.
 *
 * @param dir A folder logpeek may write in (the state directory), or null.
 * @returns The user id, or null when neither way works (Windows has none).
 */
export function ownUid(dir: string | null): number | null {
  const uid = sysUid();
  if (uid !== null || !dir) return uid;
  const probe = join(dir, `.uid-probe-${crypto.randomUUID()}`);
  try {
    Deno.writeFileSync(probe, new Uint8Array(), { createNew: true, mode: 0o600 });
    return Deno.lstatSync(probe).uid;
  } catch {
    return null;
  } finally {
    try {
      Deno.removeSync(probe);
    } catch {
      // not made
    }
  }
}

/**
 * Creates the state directory and its `traces` and `artifacts` folders, owner-only (0700), and checks that
 * each is a real folder (not a symlink) owned by logpeek's own user: a state directory another user owns or
 * may write could hold planted artifacts, a symlinked trace file or cursor key, and `read_artifact` would
 * read what they point to (issue #8: found by a trial with a `--state-dir` another user had made first).
 *
 * Permission: `--allow-read` and `--allow-write` of the directory (`--allow-sys=uid` to learn the user id
 * without a probe file).
 *
 * @param dir The state directory.
 * @param parents Whether the folders above `dir` may be made too: true for the default state directory,
 *   false for one the user named (a mistyped path is refused, not made).
 * @returns logpeek's own user id ({@linkcode ownUid}), or null when it cannot be learnt.
 * @throws {Error} when a folder is a symlink, a file, or owned by another user (before anything is
 *   changed in it), or `dir`'s parent does not exist and `parents` is false; or Deno's errors when it
 *   cannot be created (NotCapable without `--allow-write`).
 */
export function prepareStateDir(dir: string, parents = true): number | null {
  let uid: number | null = null;
  for (const [i, d] of [dir, join(dir, "traces"), join(dir, "artifacts")].entries()) {
    try {
      Deno.mkdirSync(d, { recursive: i > 0 || parents, mode: 0o700 });
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) {
        throw new Error(`its parent folder ${dirname(d)} does not exist (a mistyped path?)`);
      }
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
    const st = Deno.lstatSync(d);
    if (st.isSymlink || !st.isDirectory) {
      throw new Error(`${d} is ${st.isSymlink ? "a symlink" : "a file, not a folder"}`);
    }
    if (i === 0) uid = ownUid(dir);
    if (uid !== null && st.uid !== null && st.uid !== uid) {
      throw new Error(
        `${d} is owned by user ${st.uid}, not by logpeek's user ${uid}: another user could plant files there; ` +
          "use a state directory of logpeek's own",
      );
    }
    Deno.chmodSync(d, 0o700);
  }
  return uid;
}

/** The length of the cursor key in bytes: HMAC-SHA-256's output size (RFC 2104 §3 advises at least that). */
export const CURSOR_KEY_BYTES = 32;

/** The cursor key's file in the state directory. */
export const CURSOR_KEY_FILE = "cursor.key";

/** The cursor key, and where it came from. */
export interface CursorKey {
  /** 32 random bytes. */
  key: Uint8Array;
  /** The file it is kept in (cursors survive a restart), or null: made for this process only. */
  path: string | null;
}

/**
 * The key resume cursors are sealed with (issue #8, item 13): `<state>/cursor.key`, 32 random bytes in
 * a file only the owner may read or write (0600), made on first use, so cursors outlive a restart. A key
 * file that is not a regular file of 32 bytes, or that others may read or write, is replaced (cursors
 * sealed with it are refused from then on). Two servers starting at once agree: the new key is written
 * to a temporary file and hard-linked into place, which fails if the other was first, and then the
 * other's is read. When `dir` is null, or the key cannot be kept there, a key is made for this process
 * only (its cursors do not survive a restart), with one line on stderr saying why. Never throws.
 *
 * Permission: `--allow-read` and `--allow-write` of the state directory (none when `dir` is null).
 *
 * @param dir The usable state directory, or null.
 * @param stderr Writes one diagnostic line.
 * @returns The key, and its file.
 */
export function cursorKey(dir: string | null, stderr: (line: string) => void): CursorKey {
  const fresh = () => crypto.getRandomValues(new Uint8Array(CURSOR_KEY_BYTES));
  if (dir === null) return { key: fresh(), path: null };
  const path = join(dir, CURSOR_KEY_FILE);
  try {
    let present = false;
    for (let attempt = 0; attempt < 2; attempt++) {
      const kept = readKey(path);
      if (kept.key) return { key: kept.key, path };
      present = kept.present;
      const key = fresh();
      const tmp = join(dir, `${CURSOR_KEY_FILE}.${Array.from(fresh().subarray(0, 8), hex).join("")}.tmp`);
      Deno.writeFileSync(tmp, key, { mode: 0o600, createNew: true });
      try {
        if (present) {
          Deno.renameSync(tmp, path); // replaces the unusable one
          return { key, path };
        }
        try {
          Deno.linkSync(tmp, path);
          return { key, path };
        } catch (e) {
          if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
          // Another server made it meanwhile: read theirs (next attempt).
        }
      } finally {
        try {
          Deno.removeSync(tmp);
        } catch {
          // renamed into place, or already gone
        }
      }
    }
    throw new Error(`${path} keeps changing`);
  } catch (e) {
    stderr(
      `logpeek: the cursor key cannot be kept in ${path} (${
        e instanceof Error ? e.message : e
      }): resume cursors are sealed with a key for this process only and do not survive a restart`,
    );
    return { key: fresh(), path: null };
  }
}

const hex = (b: number) => b.toString(16).padStart(2, "0");

/** The key in `path` when it is a usable one; `present` when something is there (usable or not). */
function readKey(path: string): { key: Uint8Array | null; present: boolean } {
  let st: Deno.FileInfo;
  try {
    st = Deno.lstatSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { key: null, present: false };
    throw e;
  }
  // A symlink, a folder, a key of the wrong size, or one others may read or write: not used.
  if (!st.isFile || st.size !== CURSOR_KEY_BYTES || (st.mode !== null && (st.mode & 0o077) !== 0)) {
    return { key: null, present: true };
  }
  const key = Deno.readFileSync(path);
  return { key: key.length === CURSOR_KEY_BYTES ? key : null, present: true };
}
