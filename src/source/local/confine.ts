/**
 * Confinement against swapped folders (issue #8, item 1): no swap of any component of a log's path may
 * make logpeek read a byte from outside its roots.
 *
 * Deno opens files only by absolute path (a relative one is joined to the working directory first), and
 * gives a program neither `openat` nor the kernel's own path of an open handle (`/proc/self/fd` needs
 * `--allow-all`). So every path operation resolves the whole path again, and a folder in the middle of
 * the path that is swapped for a symlink between a check and the open (`renameat2(RENAME_EXCHANGE)`)
 * sends the open outside, whatever was checked before or after. What no check can see, logpeek refuses
 * to depend on: it reads a log only when **no one but root and logpeek's own user can rename the folders
 * in the middle of its path**. A folder's entry can be renamed only by a user who may write that folder
 * (or, in a sticky folder such as `/tmp`, who owns the entry or the folder), so those folders cannot
 * change under the call, and the last component's swap is caught by comparing the open handle with an
 * `lstat` of the path (see `log_file.ts`).
 *
 * The rule, for each folder `D` in which a middle component `c` of the path is looked up (a log's own
 * folder may be writable by anyone: only its file name is looked up there):
 * - `D` is owned by a trusted user (root, or the user logpeek runs as);
 * - `D` is not writable by every user, and not by its group unless the group is trusted (root's group
 *   `0`, or one named with `--trust-gid`), except where `D` is sticky and `c` is owned by a trusted user;
 * - `c` is a folder, not a symlink (the path checked is the real path, so a symlink there was swapped in).
 *
 * Folders inside the roots are checked at every open; folders above a root (`/`, `/var`, …) when the
 * process may read them (at start, and by the launcher). Not seen: POSIX ACLs and Linux capabilities
 * that grant write access beyond the mode bits, and systems without user ids (Windows), where only the
 * checks around the open stand.
 *
 * Permission: read access to the folders checked; `--allow-sys=uid` to learn logpeek's own user id
 * (without it, the owner of a file logpeek makes in its state directory, else only root is trusted).
 *
 * @module
 */

import { ToolError } from "../../core/errors.ts";
import { printable } from "../../guard/printable.ts";

/** Who may be trusted not to swap folders: root, logpeek's own user, and groups named by the operator. */
export interface Trust {
  /** Trusted user ids: 0 and logpeek's own, when known. */
  uids: number[];
  /** Trusted group ids: 0 and those given with `--trust-gid`. */
  gids: number[];
}

/**
 * Who is trusted in this process: root (uid and gid 0), the user logpeek runs as, and `extraGids`.
 *
 * @param uid logpeek's own user id when the caller knows it (`ownUid` in `state/state_dir.ts`); else it is
 *   asked of `Deno.uid()` where `--allow-sys=uid` is granted (without a prompt).
 * @param extraGids Group ids the operator trusts (`--trust-gid`).
 * @param warn Receives one line when logpeek's own user id cannot be learnt.
 * @returns The trust to confine with.
 */
export function processTrust(
  uid: number | null | undefined,
  extraGids: number[],
  warn: (line: string) => void,
): Trust {
  uid ??= sysUid();
  if ((uid === null || uid === undefined) && Deno.build.os !== "windows") {
    warn(
      "logpeek: cannot learn which user it runs as (grant --allow-sys=uid, or a state directory): " +
        "only folders owned by root count as safe from swaps, so logs under folders of other users are refused",
    );
  }
  return {
    uids: [...new Set([0, ...(uid === null || uid === undefined ? [] : [uid])])],
    gids: [...new Set([0, ...extraGids])],
  };
}

/**
 * `Deno.uid()` where `--allow-sys=uid` is granted (asked without a prompt), else null.
 *
 * Permission: `--allow-sys=uid` (none needed to ask).
 */
export function sysUid(): number | null {
  try {
    if (Deno.permissions.querySync({ name: "sys", kind: "uid" }).state === "granted") return Deno.uid();
  } catch {
    // no such permission on this runtime
  }
  return null;
}

/**
 * Why an untrusted user could rename `entry` inside the folder `dir`, or null when none can.
 *
 * @param dir The folder's `lstat`.
 * @param entry The entry's `lstat` (null when not known: the sticky bit then protects nothing).
 * @param trust Who is trusted.
 * @returns A short reason ("owned by user 65534", "writable by every user", "writable by group 4").
 */
export function untrustedWriter(
  dir: Deno.FileInfo,
  entry: Deno.FileInfo | null,
  trust: Trust,
): string | null {
  if (dir.uid === null || dir.mode === null) return null; // no user ids here (Windows): nothing to check
  if (!trust.uids.includes(dir.uid)) return `owned by user ${dir.uid}`;
  const sticky = (dir.mode & 0o1000) !== 0;
  const entryTrusted = entry !== null && entry.uid !== null && trust.uids.includes(entry.uid);
  if (sticky && entryTrusted) return null;
  const owner = sticky && entry?.uid != null ? ` (sticky, but that entry is owned by user ${entry.uid})` : "";
  if (dir.mode & 0o002) return `writable by every user${owner}`;
  if ((dir.mode & 0o020) && dir.gid !== null && !trust.gids.includes(dir.gid)) {
    return `writable by group ${dir.gid}${owner}`;
  }
  return null;
}

/** The identity of one folder on a checked path, to compare after the open. */
export interface FolderId {
  path: string;
  dev: number;
  ino: number;
}

/**
 * Checks that no untrusted user can swap the middle folders of `real` below `base`: for each folder on
 * the way from `base` to the log's own folder, the folder it is looked up in must be safe
 * ({@linkcode untrustedWriter}) and it must be a folder, not a symlink.
 *
 * @param base The real path checked from (a root's real path): its own components are not checked here.
 * @param real The log's real path, inside `base`.
 * @param trust Who is trusted.
 * @param name The log's name, for messages.
 * @returns The middle folders' identities (for {@linkcode sameFolders} after the open).
 * @throws {ToolError} `unsafe_path` when a folder could be swapped by an untrusted user;
 *   `outside_roots` when a middle component is not a folder (swapped while being checked).
 * @throws {Deno.errors.NotFound} (and other OS errors) when a folder vanished: map with `osError`.
 */
export function checkMiddleFolders(base: string, real: string, trust: Trust, name: string): FolderId[] {
  const rel = real.slice(base.length).split("/").filter((p) => p !== "");
  const ids: FolderId[] = [];
  let dirPath = base;
  let dir = Deno.lstatSync(dirPath);
  for (let i = 0; i < rel.length - 1; i++) {
    const path = dirPath === "/" ? `/${rel[i]}` : `${dirPath}/${rel[i]}`;
    const entry = Deno.lstatSync(path);
    if (!entry.isDirectory || entry.isSymlink) {
      throw new ToolError(
        "outside_roots",
        `${
          printable(name)
        } changed while it was being opened (a folder on its path was swapped); refused: call again`,
      );
    }
    const why = untrustedWriter(dir, entry, trust);
    if (why) throw unsafe(name, dirPath, rel[i], why);
    ids.push({ path, dev: entry.dev, ino: entry.ino ?? -1 });
    dirPath = path;
    dir = entry;
  }
  return ids;
}

/**
 * True when each folder still is the folder (same device and inode) it was at the check: a last line of
 * defence, after the open, against a swap by a trusted user (which the rule above does not exclude).
 *
 * @param ids From {@linkcode checkMiddleFolders}.
 */
export function sameFolders(ids: FolderId[]): boolean {
  for (const id of ids) {
    const now = Deno.lstatSync(id.path);
    if (!now.isDirectory || now.isSymlink || now.dev !== id.dev || (now.ino ?? -1) !== id.ino) return false;
  }
  return true;
}

/**
 * Checks the folders above a root, from `/` down: none may be swappable by an untrusted user. Run at
 * start where the process may read them; a folder it may not read (Deno's permission) is not checked,
 * and the result says so.
 *
 * @param real The root's real path.
 * @param trust Who is trusted.
 * @returns null when every folder was checked and is safe; `{unchecked}` when Deno's read permission
 *   stopped the check at that folder.
 * @throws {ToolError} `unsafe_path` naming the folder that an untrusted user could swap.
 */
export function checkAncestors(real: string, trust: Trust): { unchecked: string } | null {
  const parts = real.split("/").filter((p) => p !== "");
  let dirPath = "/";
  for (const part of parts) {
    const path = dirPath === "/" ? `/${part}` : `${dirPath}/${part}`;
    let dir: Deno.FileInfo, entry: Deno.FileInfo;
    try {
      dir = Deno.lstatSync(dirPath);
      entry = Deno.lstatSync(path);
    } catch (e) {
      if (e instanceof Deno.errors.NotCapable) return { unchecked: dirPath };
      throw e;
    }
    const why = untrustedWriter(dir, entry, trust);
    if (why) throw unsafe(real, dirPath, part, why);
    dirPath = path;
  }
  return null;
}

/**
 * {@linkcode checkAncestors} for a folder that may not exist yet (a state directory logpeek will make):
 * checked from its nearest existing folder up, and that folder must also be safe for the entries that
 * will be made in it.
 *
 * @param path An absolute path.
 * @param trust Who is trusted.
 * @returns As {@linkcode checkAncestors}.
 * @throws {ToolError} `unsafe_path`, as {@linkcode checkAncestors}.
 */
export function checkFolderToBe(path: string, trust: Trust): { unchecked: string } | null {
  let probe = path;
  let missing = "";
  while (true) {
    let real: string;
    try {
      real = Deno.realPathSync(probe);
    } catch (e) {
      const up = probe.slice(0, probe.lastIndexOf("/")) || "/";
      if (!(e instanceof Deno.errors.NotFound) || up === probe) throw e;
      missing = probe.slice(up.length).replace(/^\//, "").split("/")[0];
      probe = up;
      continue;
    }
    const r = checkAncestors(real, trust);
    if (r || !missing) return r;
    // The missing entry will be made by logpeek, so it will be logpeek's (in a sticky folder such as
    // /tmp that protects it; one another user makes first is refused by the server as not its own).
    const mine = { uid: trust.uids[trust.uids.length - 1] } as Deno.FileInfo;
    const why = untrustedWriter(Deno.lstatSync(real), mine, trust);
    if (why) throw unsafe(path, real, missing, why);
    return null;
  }
}

/**
 * What a launcher (`deno task start`, `logpeek config`) checks before it starts or describes a server
 * that may read only its roots and state directory, and so cannot check the folders above them itself:
 * the folders above each root ({@linkcode checkAncestors}) and the state directory's
 * ({@linkcode checkFolderToBe}). A root that does not exist is passed over (the server says so).
 *
 * @param roots Absolute root paths.
 * @param stateDir The absolute state directory.
 * @param trust Who is trusted.
 * @returns The first problem as a line to print (`root R: …` or `state directory S: …`), or null; and
 *   the folders Deno's read permission kept from being checked.
 */
export function checkBeforeServing(
  roots: string[],
  stateDir: string,
  trust: Trust,
): { problem: string | null; unchecked: string[] } {
  const unchecked: string[] = [];
  for (const r of roots) {
    let real: string;
    try {
      real = Deno.realPathSync(r);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) continue;
      throw e;
    }
    try {
      const u = checkAncestors(real, trust);
      if (u) unchecked.push(u.unchecked);
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      return { problem: `root ${r}: ${e.message}`, unchecked };
    }
  }
  try {
    const u = checkFolderToBe(stateDir, trust);
    if (u) unchecked.push(u.unchecked);
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    return { problem: `state directory ${stateDir}: ${withoutName(e.message)}`, unchecked };
  }
  return { problem: null, unchecked };
}

/** An `unsafe_path` message without its leading "NAME is not read: " (to name the folder otherwise). */
export function withoutName(message: string): string {
  return message.replace(/^.*? is not read: /, "");
}

function unsafe(name: string, dir: string, entry: string, why: string): ToolError {
  return new ToolError(
    "unsafe_path",
    `${printable(name)} is not read: the folder ${printable(dir)} is ${why}, who could swap ` +
      `'${printable(entry)}' for a link outside the log roots while it is read. ` +
      (why.includes("(sticky")
        ? `Give '${
          printable(entry)
        }' to root or logpeek's user (chown), or serve logs from a folder of theirs`
        : `Make that folder writable only by root and logpeek's user (chown, chmod go-w)`) +
      (why.startsWith("writable by group")
        ? `, or, if every member of that group is trusted, start logpeek with --trust-gid ${
          why.slice(18).split(" ")[0]
        }`
        : ""),
  );
}
