/**
 * Listing the logs under the roots: regular files, recursively, in a stable order, each marked with what
 * its first bytes say it is (`read/format.ts`: a format the reading tools refuse is marked so).
 *
 * Listing and reading agree (issue #10 item 4, `../shared/cases/21-…`): every name listed is one the
 * reading tools take as it is (`roots.ts` `resolveLog`), and is readable as far as names and folders go;
 * an entry that is not is not listed but named in `unreadable`, with `complete: false` — never dropped in
 * silence. Symlinks are followed only when their real path stays inside the roots; a link that leads
 * out is refused (named in `unreadable`), and its target is never looked at, listed or descended into
 * (`../shared/cases/13-symlink-escape`). A link to a file whose folders an untrusted user could swap
 * is refused as reading would refuse it (`confine.ts`). A link that leads nowhere inside the roots, and
 * FIFOs, sockets and devices, are not logs and are left out.
 *
 * Permission: read access to the roots.
 *
 * @module
 */

import { posix } from "node:path";
import { checkMiddleFolders } from "./confine.ts";
import { ToolError } from "../core/errors.ts";
import { cutText } from "../core/text_cut.ts";
import { refusalNote } from "../read/format.ts";
import { MAX_NAME, type Root, rootOf } from "./roots.ts";
import type { LogEntry, LogList } from "./log_source.ts";
import { sniffListed } from "./log_file.ts";

/** Why a symlink out of the roots is not listed. */
export const LINK_OUT = "a symlink that leads outside the log roots: refused, its target is not read";

/**
 * How long the walk goes on past the cap, counting (not keeping, not sniffing) the files it does not
 * list, in milliseconds. Past it the walk stops and `not_listed` is a lower bound, said in `unreadable`
 * ({@linkcode countStopped}).
 */
export const COUNT_BEYOND_MS = 2000;

/** How the `unreadable` entry of {@linkcode countStopped} begins. */
export const COUNT_STOPPED = "(the count):";

/** The `unreadable` entry that says the count of entries not listed is a lower bound. */
export function countStopped(ms: number): string {
  return `${COUNT_STOPPED} the walk past the cap stopped after ${ms} ms (its time budget), so more entries than ` +
    "not_listed says may exist: not_listed is a lower bound";
}

/**
 * Lists the logs under the roots. Past `max` files the walk goes on, counting in `not_listed` every file
 * it does not list, for at most `countMs` milliseconds; when it stops before the end, `unreadable` ends
 * with {@linkcode countStopped} and `not_listed` is a lower bound.
 *
 * @param roots The log roots.
 * @param max The most entries to list (1000 for `log_files`).
 * @param countMs How long to go on counting past `max` ({@linkcode COUNT_BEYOND_MS}).
 * @returns The entries, and whether they are all of them.
 */
export function listLogs(roots: Root[], max: number, countMs = COUNT_BEYOND_MS): LogList {
  const files: LogEntry[] = [];
  const unreadable: string[] = [];
  let notListed = 0;
  let complete = true;
  const seenDirs = new Set<string>();
  let deadline = Infinity; // set when the cap is reached
  let stopped = false;
  const refuse = (file: string, why: string) => {
    complete = false;
    notListed++;
    if (unreadable.length < 20) unreadable.push(`${file}: ${why}`);
  };

  const add = (file: string, info: Deno.FileInfo, real: string): boolean => {
    if (files.length >= max) {
      // Past the cap: counted, not kept (nor sniffed), while the time budget lasts.
      if (deadline === Infinity) deadline = performance.now() + countMs;
      complete = false;
      notListed++;
      if (performance.now() > deadline) stopped = true;
      return !stopped;
    }
    const sniffed = sniffListed(real, info, file);
    files.push({
      file,
      size_bytes: info.size,
      modified: info.mtime ? info.mtime.toISOString() : null,
      format: sniffed?.format ?? null,
      unsupported: sniffed?.refusal ? refusalNote(real, sniffed.refusal) : null,
    });
    return true;
  };

  const walk = (dir: string, real: string, prefix: string): boolean => {
    if (seenDirs.has(real)) return true; // a link back up the tree: listed once
    seenDirs.add(real);
    let names: string[];
    try {
      names = Array.from(Deno.readDirSync(dir), (e) => e.name).sort();
    } catch (e) {
      refuse(prefix || ".", `${e instanceof Error ? e.name : e}`);
      return true;
    }
    for (const name of names) {
      const path = `${dir}/${name}`;
      const file = prefix ? `${prefix}/${name}` : name;
      let info: Deno.FileInfo;
      let target: string;
      if (file.length > MAX_NAME) {
        refuse(
          cutText(file, 80) + "…",
          `a name longer than ${MAX_NAME} characters, which the tools cannot take`,
        );
        continue;
      }
      try {
        target = Deno.realPathSync(path);
        if (!rootOf(roots, target)) {
          // A symlink out is refused by name. An entry that is no symlink yet resolves outside was
          // reached through a folder swapped meanwhile: its name is not the roots' to tell.
          if (Deno.lstatSync(path).isSymlink) refuse(file, LINK_OUT);
          else refuse(prefix || ".", "the folder changed while it was listed (swapped?): call again");
          continue;
        }
        // lstat of the real path, not stat of the name: a name swapped for a link between the two calls
        // shows as a link (skipped), never as the size and time of what the link points to.
        info = Deno.lstatSync(target);
        if (info.isSymlink) continue;
      } catch (e) {
        // An entry gone since readDir is simply not a log, nor is a link to nothing inside the roots; a
        // dangling link that points out is refused like any link out. A name that is not valid UTF-8
        // cannot be named to the other tools (Deno paths are strings): say so, never skip quietly.
        if (name.includes("\uFFFD")) refuse(file, "the name is not valid UTF-8");
        else if (!(e instanceof Deno.errors.NotFound)) refuse(file, `${e instanceof Error ? e.name : e}`);
        else if (danglingOut(roots, real, path)) refuse(file, LINK_OUT);
        continue;
      }
      if (info.isFile) {
        if (target !== (real === "/" ? `/${name}` : `${real}/${name}`)) {
          // A link to a file elsewhere in the roots: its folders must pass the rule reading applies.
          const home = rootOf(roots, target)!;
          try {
            checkMiddleFolders(home.real, target, home.trust, file);
          } catch (e) {
            refuse(file, e instanceof ToolError ? `${e.kind}: ${e.message}` : String(e));
            continue;
          }
        }
        if (!add(file, info, target)) return false;
      } else if (info.isDirectory) {
        // A folder that an untrusted user could swap for a link outside is not descended into (its
        // logs could not be read either: confine.ts).
        const home = rootOf(roots, target)!;
        try {
          checkMiddleFolders(home.real, `${target}/-`, home.trust, file);
        } catch (e) {
          refuse(file, e instanceof ToolError ? `${e.kind}: ${e.message}` : String(e));
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
        if (!add(root.label, Deno.statSync(root.path), root.real)) break;
      } catch (e) {
        refuse(root.label, `${e instanceof Error ? e.name : e}`);
      }
    } else if (!walk(root.path, root.real, root.label)) break;
  }
  if (stopped) unreadable.push(countStopped(countMs));
  return { files, complete, unreadable, not_listed: notListed };
}

/**
 * True when `path` is a symlink whose target (taken lexically from `realDir`, the real path of the folder
 * it is in) lies outside the roots: a link out that leads nowhere is refused like one that leads somewhere.
 */
function danglingOut(roots: Root[], realDir: string, path: string): boolean {
  try {
    return Deno.lstatSync(path).isSymlink && !rootOf(roots, posix.resolve(realDir, Deno.readLinkSync(path)));
  } catch {
    return false;
  }
}
