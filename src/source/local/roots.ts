/**
 * The log roots and the confinement of every `file` argument to them.
 *
 * A `file` is the name `log_files` lists: relative to the single root directory, or, with several roots
 * (or a root that is one file), prefixed by the root's label (its base name, made unique). Every name
 * `log_files` lists is taken as it is (issue #10 item 4, `../shared/cases/21-…`): on Linux a backslash,
 * a colon and a leading drive letter (`C:\logs\app.log`, a folder `D:`) are ordinary characters of a
 * name, not separators. Also taken: an absolute path inside a root (by the root's path as given or its
 * real path), and a name whose `..` stays inside the roots (`apt/../dpkg.log` is `dpkg.log`: `.` and
 * `..` are taken lexically, as a shell's `cd` does). Then the name's real path (symlinks resolved, as the
 * kernel would open it) must lie inside the real paths of the roots: a sibling such as `/logs-old` for
 * the root `/logs` is outside, and so is a symlink inside a root that points out (CVE-2025-53109,
 * CVE-2025-53110; `../shared/cases/13-symlink-escape`). Refused, each saying which: an empty name, a NUL
 * byte, an absolute path outside the roots, a `..` that climbs above them, a real path outside.
 *
 * Permission: read access to the roots (`--allow-read=ROOT`, and the root's real path when the root is
 * reached through a symlink).
 *
 * @module
 */

import { basename, isAbsolute, posix, resolve } from "node:path";
import { ToolError } from "../../core/errors.ts";
import { cutText } from "../../core/text_cut.ts";
import { processTrust, type Trust } from "./confine.ts";
import { printable } from "../../guard/printable.ts";

export { printable };

/** One root, as given on the command line. */
export interface Root {
  /** The prefix of its logs' names; "" for a single root directory. */
  label: string;
  /** Its absolute path as given (not resolved), the path logs are opened through. */
  path: string;
  /** Its real path (symlinks resolved): what confinement compares against. */
  real: string;
  /** A directory of logs, or a single log file. */
  kind: "dir" | "file";
  /** Who is trusted not to swap the folders below it (`confine.ts`). */
  trust: Trust;
  /**
   * Test only (set by the tool worker's test init, never by users): skip the path checks below, to
   * show that Deno's narrowed permissions alone still refuse what lies outside.
   */
  unsafeNoPathCheck?: boolean;
}

/** A log the caller may read. */
export interface LogRef {
  /** Its name, as `log_files` lists it. */
  file: string;
  /** The path to open it by: inside a root's given path. */
  path: string;
  /** Its real path, inside a root's real path: the path it is opened by. */
  real: string;
  /** The root it lies in (by real path). */
  root: Root;
}

/** A root that cannot be used; `main.ts` prints the message and exits non-zero. */
export class RootError extends Error {
  /**
   * @param message What is wrong with the root and what to do.
   */
  constructor(message: string) {
    super(message);
    this.name = "RootError";
  }
}

/**
 * Checks the roots given on the command line and gives each its label.
 *
 * @param args Root paths, absolute or relative to `cwd`.
 * @param cwd The directory relative roots are taken from.
 * @param trust Who is trusted not to swap folders (`confine.ts`); default: root, and logpeek's own user
 *   where `--allow-sys=uid` is granted.
 * @returns The roots, in the order given.
 * @throws {RootError} when a root does not exist, is neither a directory nor a regular file, or
 *   cannot be read (by the operating system or by Deno's permissions).
 */
export function openRoots(
  args: string[],
  cwd: string,
  trust: Trust = processTrust(undefined, [], () => {}),
): Root[] {
  const roots: Root[] = [];
  const labels = new Set<string>();
  for (const arg of args) {
    if (arg.trim() === "") {
      throw new RootError(
        "an empty ROOT was given (an unset variable?): name the log directories or files to serve",
      );
    }
    const path = resolve(cwd, arg);
    let real: string;
    let kind: "dir" | "file";
    try {
      real = Deno.realPathSync(path);
      const st = Deno.statSync(real);
      if (st.isDirectory) {
        kind = "dir";
        Deno.readDirSync(path)[Symbol.iterator]().next();
      } else if (st.isFile) {
        kind = "file";
        Deno.openSync(path, { read: true }).close();
      } else throw new RootError(`root ${arg} is neither a directory nor a regular file`);
    } catch (e) {
      if (e instanceof RootError) throw e;
      if (e instanceof Deno.errors.NotFound) {
        throw new RootError(
          arg === path ? `root ${arg} does not exist` : `root ${arg} does not exist (${path})`,
        );
      }
      if (e instanceof Deno.errors.NotCapable) {
        let real = path;
        try {
          real = Deno.realPathSync(path);
        } catch {
          // not even the path may be resolved
        }
        throw new RootError(
          `Deno's read permission does not cover root ${arg}: run with --allow-read=${path}` +
            (real !== path
              ? `,${real} (the root is a symlink to ${real}: Deno checks the path it resolves to)`
              : ""),
        );
      }
      if (e instanceof Deno.errors.PermissionDenied) {
        throw new RootError(`root ${arg} cannot be read: ${errText(e)}`);
      }
      throw e;
    }
    let label = basename(path) || "root";
    for (let k = 2; labels.has(label); k++) label = `${basename(path)}-${k}`;
    labels.add(label);
    roots.push({ label, path, real, kind, trust });
  }
  if (roots.length === 1 && roots[0].kind === "dir") roots[0].label = "";
  return roots;
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** True when `real` lies inside one of the roots' real paths. */
export function insideRoots(roots: Root[], real: string): boolean {
  return rootOf(roots, real) !== undefined;
}

/** The first root whose real path holds `real` (a real path), if any. */
export function rootOf(roots: Root[], real: string): Root | undefined {
  return roots.find((r) =>
    r.kind === "file"
      ? real === r.real
      : real === r.real || real.startsWith(r.real === "/" ? "/" : r.real + "/")
  );
}

/**
 * Finds the log that `file` names, confined to the roots.
 *
 * @param roots The roots, from {@linkcode openRoots}.
 * @param file The name as `log_files` lists it.
 * @returns The paths to open and to compare.
 * @throws {ToolError} `invalid_path` (empty, NUL, too long; on Windows a backslash or drive),
 *   `outside_roots` (an absolute path outside the roots, a `..` above them, a real path outside),
 *   `not_a_file` (a name ending in `/`, a root folder), `not_found`, or `permission_denied`.
 */
export function resolveLog(roots: Root[], file: string): LogRef {
  if (roots[0]?.unsafeNoPathCheck) {
    const path = `${roots[0].path}/${file}`;
    return { file, path, real: path, root: roots[0] };
  }
  if (file.length === 0) {
    throw new ToolError("invalid_path", "the file name is empty; call log_files for the names");
  }
  if (file.includes("\0")) throw new ToolError("invalid_path", "the file name contains a NUL byte");
  if (file.length > MAX_NAME) {
    throw new ToolError("invalid_path", `the file name is ${file.length} characters long`);
  }
  if (WINDOWS && /[\\]|^[A-Za-z]:/.test(file)) {
    throw new ToolError(
      "invalid_path",
      "on Windows a backslash or a drive letter is a path separator: name the log as log_files lists it",
    );
  }
  if (file.endsWith("/")) {
    throw new ToolError(
      "not_a_file",
      `'${printable(file)}' ends with '/': it names a folder; call log_files`,
    );
  }
  const parts = nameSegments(roots, isAbsolute(file) ? fromAbsolute(roots, file) : file, file);
  if (parts.length === 0) {
    throw new ToolError("invalid_path", `'${printable(file)}' names no file; call log_files`);
  }
  let root: Root | undefined;
  let rel: string[];
  if (roots.length === 1 && roots[0].label === "") {
    root = roots[0];
    rel = parts;
  } else {
    root = roots.find((r) => r.label === parts[0]);
    rel = parts.slice(1);
    if (!root) {
      throw new ToolError(
        "not_found",
        `no log root is named '${printable(parts[0])}' (roots: ${
          roots.map((r) => r.label).join(", ")
        }); call log_files`,
      );
    }
    if (root.kind === "file" && rel.length > 0) {
      throw new ToolError(
        "not_found",
        `'${root.label}' is a single log file, not a directory; call log_files`,
      );
    }
  }
  const name = [root.label, ...rel].filter((p) => p !== "").join("/");
  const path = rel.length ? `${root.path}/${rel.join("/")}` : root.path;
  let real: string;
  try {
    real = Deno.realPathSync(path);
  } catch (e) {
    throw osError(e, name);
  }
  const home = rootOf(roots, real);
  if (!home) {
    throw new ToolError(
      "outside_roots",
      `${printable(name)} leads outside the log roots (through a symlink); access denied`,
    );
  }
  return { file: name, path, real, root: home };
}

/** The longest name the tools take, in UTF-16 code units (Linux's `PATH_MAX` is 4096 bytes). */
export const MAX_NAME = 4096;

/** True on Windows, where `\\` and `X:` are separators; elsewhere they are ordinary characters of a name. */
const WINDOWS = Deno.build.os === "windows";

/**
 * The segments of a name, `.` dropped and each `..` taking back the segment before it (as a shell's
 * `cd` does: logically, whatever symlink the segment is); the real-path check comes after.
 *
 * @throws {ToolError} `outside_roots` when a `..` climbs above the log roots.
 */
function nameSegments(roots: Root[], name: string, given: string): string[] {
  const out: string[] = [];
  for (const p of name.split("/")) {
    if (p === "" || p === ".") continue;
    if (p !== "..") out.push(p);
    else if (out.pop() === undefined) {
      const above = roots.length === 1 && roots[0].label === "" ? "the log root" : "the log roots' names";
      throw new ToolError(
        "outside_roots",
        `'..' is refused where it climbs above ${above}: '${printable(given)}' leads outside the log ` +
          "roots; name the log as log_files lists it",
      );
    }
  }
  return out;
}

/**
 * The name, as `log_files` would list it, of an absolute path inside a root: the path with `.` and `..`
 * taken lexically, under a root's path as given or its real path (the longest that holds it).
 *
 * @throws {ToolError} `outside_roots` when no root holds it; `not_a_file` when it is a root folder.
 */
function fromAbsolute(roots: Root[], file: string): string {
  const abs = posix.normalize(file).replace(/(.)\/+$/, "$1");
  let best: { root: Root; rest: string; len: number } | null = null;
  for (const root of roots) {
    for (const base of [root.path, root.real]) {
      const under = root.kind === "dir" && abs.startsWith(base === "/" ? "/" : `${base}/`);
      if ((abs === base || under) && (!best || base.length > best.len)) {
        best = {
          root,
          rest: abs === base ? "" : abs.slice(base === "/" ? 1 : base.length + 1),
          len: base.length,
        };
      }
    }
  }
  if (!best) {
    throw new ToolError(
      "outside_roots",
      `absolute paths are refused outside the log roots: ${printable(file)} is not inside one; name the ` +
        "log as log_files lists it (an absolute path inside a root is taken too)",
    );
  }
  if (best.root.kind === "dir" && best.rest === "") {
    throw new ToolError("not_a_file", `${printable(file)} is a log root, a folder; call log_files`);
  }
  return [best.root.label, best.rest].filter((p) => p !== "").join("/");
}

/**
 * Turns an operating-system or permission error about the log `name` into a {@linkcode ToolError}.
 * Errors of other kinds are returned unchanged, to be handled as unexpected.
 */
export function osError(e: unknown, name: string): unknown {
  name = printable(name);
  if (e instanceof Deno.errors.FilesystemLoop) {
    return new ToolError("invalid_path", `${name} is a loop of symlinks; call log_files`);
  }
  if (e instanceof Error && (e as { code?: string }).code === "ENAMETOOLONG") {
    return new ToolError("invalid_path", `${cutText(name, 80)}… is too long a name for this system`);
  }
  // node:fs (the non-blocking open) throws Node's errors, with a code, where Deno throws its own.
  const code = e instanceof Error ? (e as { code?: string }).code : undefined;
  if (code === "ELOOP") {
    return new ToolError(
      "invalid_path",
      `${name} is a loop of symlinks, or a symlink where none may be; call log_files`,
    );
  }
  if (
    e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory || code === "ENOENT" ||
    code === "ENOTDIR"
  ) {
    return new ToolError(
      "not_found",
      `log ${name} not found; it may have been renamed or rotated: call log_files to see the logs there are`,
    );
  }
  if (e instanceof Deno.errors.NotCapable) {
    return new ToolError(
      "permission_denied",
      `Deno's read permission does not cover ${name}; the server's --allow-read must include it`,
    );
  }
  if (e instanceof Deno.errors.PermissionDenied || code === "EACCES" || code === "EPERM") {
    return new ToolError(
      "permission_denied",
      `no permission to read ${name} (the operating system refused); ask the operator for read access`,
    );
  }
  return e;
}
