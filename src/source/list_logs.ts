/**
 * Listing the logs under the roots: regular files, recursively, in a stable order.
 *
 * Symlinks are followed only when their real path stays inside the roots; a link that leads out, or
 * leads nowhere, is left out, and its target is never listed or descended into
 * (`../shared/cases/13-symlink-escape`). FIFOs, sockets and devices are left out.
 *
 * Permission: read access to the roots.
 *
 * @module
 */

import { checkMiddleFolders } from "./confine.ts";
import { ToolError } from "../core/errors.ts";
import { type Root, rootOf } from "./roots.ts";
import type { LogEntry, LogList } from "./log_source.ts";

/**
 * Lists the logs under the roots.
 *
 * @param roots The log roots.
 * @param max The most entries to list (1000 for `log_files`).
 * @returns The entries, and whether they are all of them.
 */
export function listLogs(roots: Root[], max: number): LogList {
  const files: LogEntry[] = [];
  const unreadable: string[] = [];
  let complete = true;
  const seenDirs = new Set<string>();

  const add = (file: string, info: Deno.FileInfo): boolean => {
    if (files.length >= max) {
      complete = false;
      return false;
    }
    files.push({ file, size_bytes: info.size, modified: info.mtime ? info.mtime.toISOString() : null });
    return true;
  };

  const walk = (dir: string, real: string, prefix: string): boolean => {
    if (seenDirs.has(real)) return true; // a link back up the tree: listed once
    seenDirs.add(real);
    let names: string[];
    try {
      names = Array.from(Deno.readDirSync(dir), (e) => e.name).sort();
    } catch (e) {
      complete = false;
      if (unreadable.length < 20) unreadable.push(`${prefix || "."}: ${e instanceof Error ? e.name : e}`);
      return true;
    }
    for (const name of names) {
      const path = `${dir}/${name}`;
      const file = prefix ? `${prefix}/${name}` : name;
      let info: Deno.FileInfo;
      let target: string;
      try {
        target = Deno.realPathSync(path);
        if (!rootOf(roots, target)) continue;
        // lstat of the real path, not stat of the name: a name swapped for a link between the two calls
        // shows as a link (skipped), never as the size and time of what the link points to.
        info = Deno.lstatSync(target);
        if (info.isSymlink) continue;
      } catch (e) {
        // A dangling link, or an entry gone since readDir, is simply not a log. A name that is not valid
        // UTF-8 cannot be named to the other tools (Deno paths are strings): say so, never skip quietly.
        if (name.includes("\uFFFD")) {
          complete = false;
          if (unreadable.length < 20) unreadable.push(`${file}: the name is not valid UTF-8`);
        } else if (!(e instanceof Deno.errors.NotFound)) {
          complete = false;
          if (unreadable.length < 20) unreadable.push(`${file}: ${e instanceof Error ? e.name : e}`);
        }
        continue;
      }
      if (info.isFile) {
        if (!add(file, info)) return false;
      } else if (info.isDirectory) {
        // A folder that an untrusted user could swap for a link outside is not descended into (its
        // logs could not be read either: confine.ts).
        const home = rootOf(roots, target)!;
        try {
          checkMiddleFolders(home.real, `${target}/-`, home.trust, file);
        } catch (e) {
          complete = false;
          if (unreadable.length < 20) {
            unreadable.push(`${file}: ${e instanceof ToolError ? `${e.kind}: ${e.message}` : String(e)}`);
          }
          continue;
        }
        if (!walk(target, target, file)) return false;
      }
    }
    return true;
  };

  for (const root of roots) {
    if (root.kind === "file") {
      try {
        if (!add(root.label, Deno.statSync(root.path))) break;
      } catch (e) {
        complete = false;
        unreadable.push(`${root.label}: ${e instanceof Error ? e.name : e}`);
      }
    } else if (!walk(root.path, root.real, root.label)) break;
  }
  return { files, complete, unreadable };
}
