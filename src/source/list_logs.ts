/**
 * Listing the logs under the roots: regular files, recursively, in a stable order (by name, or newest
 * first), each marked with what its first bytes say it is (`read/format.ts`: a format the reading tools
 * refuse is marked so) and whether the reading tools read it. A glob (`glob.ts`) narrows the listing;
 * a key (the last entry of a page, from a `log_files` cursor) resumes it after that entry (issue #12).
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

import fs from "node:fs";
import { posix } from "node:path";
import { checkMiddleFolders } from "./confine.ts";
import { BestOf } from "../core/best_of.ts";
import { ToolError } from "../core/errors.ts";
import { cutText } from "../core/text_cut.ts";
import { refusalNote } from "../read/format.ts";
import { globMatcher, isGlob } from "./glob.ts";
import { MAX_NAME, osError, printable, type Root, rootOf } from "./roots.ts";
import type { ListOptions, ListSort, LogEntry, LogList } from "./log_source.ts";
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

/**
 * The `unreadable` entry that says the count of entries not listed is a lower bound (and, newest first,
 * that logs newer than those listed may exist among those not seen).
 *
 * @param ms The time budget, in milliseconds.
 * @param sort The listing's order.
 */
export function countStopped(ms: number, sort: ListSort = "name"): string {
  return `${COUNT_STOPPED} the walk past the cap stopped after ${ms} ms (its time budget), so more entries than ` +
    "not_listed says may exist: not_listed is a lower bound" +
    (sort === "modified"
      ? "; files not walked were not compared, so newer logs than those listed may exist"
      : "");
}

/** A file the walk found: what an entry is made of, once it is kept. */
interface Found {
  file: string;
  info: Deno.FileInfo;
  real: string;
  ms: number | null;
  /** Its entry, when it was made during the walk (sort `name`, or `readableOnly`). */
  entry?: LogEntry;
}

/**
 * The `modified` order: newer first, then by name in code-unit order; an unknown time after every known
 * one. Negative when `a` comes first.
 */
export function compareModified(
  a: { file: string; ms: number | null },
  b: { file: string; ms: number | null },
): number {
  if (a.ms !== b.ms) {
    if (a.ms === null) return 1;
    if (b.ms === null) return -1;
    return b.ms - a.ms;
  }
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}

/**
 * Lists the logs under the roots: those a glob matches (all without one), in name order or newest first,
 * after a key (from a cursor), at most `opts.limit` of them.
 *
 * Memory: at most `limit` entries are kept. In name order the walk lists the first `limit` after the key
 * (folders wholly before the key are not entered), then goes on counting in `not_listed` every file it
 * does not list, for at most `countMs` milliseconds. Newest first, every file must be seen: the newest
 * `limit` after the key are kept in a heap ({@linkcode BestOf}), and sniffed only once the walk is over;
 * once `limit` are kept, the walk goes on for at most `countMs`. When a walk stops for its time, `unreadable`
 * ends with {@linkcode countStopped} and `not_listed` is a lower bound.
 *
 * With a glob, only folders that could hold a name it matches are entered (its leading folders without a
 * glob character, and as deep as its segments go when it has no `**` and no braces), and only refusals
 * that could hide a match are reported. A refusal (a link out, a folder that could not be read) is
 * reported in name order on the page whose range holds it; newest first (it has no time) on every page.
 *
 * @param roots The log roots.
 * @param opts The glob, the order, the most entries, the key to resume after, readable only.
 * @param countMs How long to go on walking past the cap ({@linkcode COUNT_BEYOND_MS}).
 * @returns The entries, whether they are all of them, and the key to resume after.
 * @throws {TypeError} for a malformed glob; {@linkcode RangeError} for a limit that is not a whole number
 *   from 1 or a glob whose braces expand too far (`glob.ts`).
 * @throws {ToolError} `invalid_cursor` when a name-order key names a root there is not.
 */
export function listLogs(roots: Root[], opts: ListOptions, countMs = COUNT_BEYOND_MS): LogList {
  const { limit, after } = opts;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`a listing's limit is a whole number from 1, not ${limit}`);
  }
  const byName = (opts.sort ?? "name") === "name";
  const match = opts.glob === undefined ? null : globMatcher(opts.glob);
  const scope = opts.glob === undefined ? null : globScope(opts.glob);
  const wanted = (file: string) => match === null || match(file);
  const mayHold = (folder: string) => scope === null || scopeHolds(scope, folder);
  const readableOnly = opts.readableOnly ?? false;

  const files: LogEntry[] = [];
  const best = new BestOf<Found>(limit, (a, b) => compareModified(a, b));
  const afterKey = after ? { file: after.file, ms: after.modified_ms } : null;
  const unreadable: string[] = [];
  let notListed = 0;
  let beyond = 0; // files that match, after the page
  let overflowSeen = false; // readableOnly, newest first: a readable file is known beyond the page
  const seenDirs = new Set<string>();
  let deadline = Infinity; // set when the cap is reached
  let stopped = false;
  const refuse = (file: string, why: string) => {
    notListed++;
    if (unreadable.length < 20) unreadable.push(`${file}: ${why}`);
  };
  const pastCap = () => {
    beyond++;
    notListed++;
    if (deadline === Infinity) deadline = performance.now() + countMs;
  };

  /** Takes one file the glob matches; false to stop the walk. */
  const add = (file: string, info: Deno.FileInfo, real: string): boolean => {
    const ms = info.mtime ? info.mtime.getTime() : null;
    if (byName) {
      if (files.length >= limit) {
        // Past the cap: counted, not kept (nor sniffed), while the time budget lasts.
        pastCap();
        if (performance.now() > deadline) stopped = true;
        return !stopped;
      }
      const entry = entryOf(file, info, real);
      if (readableOnly && !entry.readable) refuse(file, entry.reason!);
      else files.push(entry);
      return true;
    }
    const found: Found = { file, info, real, ms };
    if (afterKey && compareModified(found, afterKey) <= 0) return true; // listed on an earlier page
    if (!best.wouldKeep(found)) {
      if (readableOnly && !overflowSeen) {
        const entry = entryOf(file, info, real);
        if (!entry.readable) refuse(file, entry.reason!);
        else {
          overflowSeen = true;
          pastCap();
        }
      } else pastCap();
    } else {
      if (readableOnly) {
        found.entry = entryOf(file, info, real);
        if (!found.entry.readable) {
          refuse(file, found.entry.reason!);
          return true;
        }
      }
      if (best.offer(found) !== undefined) {
        overflowSeen = true; // what was let go was kept, so readable when readableOnly
        pastCap();
      }
      if (best.full && deadline === Infinity) deadline = performance.now() + countMs;
    }
    if (performance.now() > deadline) stopped = true;
    return !stopped;
  };

  const walk = (dir: string, real: string, prefix: string, bound: string[] | null): boolean => {
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
      // Name order after a key: entries before it are skipped unseen, and the folders on its path entered
      // only for what follows it.
      let below: string[] | null = null;
      if (bound) {
        if (name < bound[0]) continue;
        if (name === bound[0]) {
          if (bound.length === 1) continue;
          below = bound.slice(1);
        }
      }
      const path = `${dir}/${name}`;
      const file = prefix ? `${prefix}/${name}` : name;
      if (!wanted(file) && !mayHold(file)) continue; // neither matched nor able to hold a match
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
        if (below || !wanted(file)) continue; // a file before the key's path, or one the glob leaves out
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
        if (!mayHold(file)) continue;
        // A folder that an untrusted user could swap for a link outside is not descended into (its
        // logs could not be read either: confine.ts).
        const home = rootOf(roots, target)!;
        try {
          checkMiddleFolders(home.real, `${target}/-`, home.trust, file);
        } catch (e) {
          refuse(file, e instanceof ToolError ? `${e.kind}: ${e.message}` : String(e));
          continue;
        }
        if (!walk(target, target, file, below)) return false;
      }
    }
    return true;
  };

  // Name order after a key: the roots before the key's are skipped, the key's is walked from the key on.
  let first = 0;
  let firstBound: string[] | null = null;
  if (byName && after) {
    const segs = after.file.split("/");
    if (roots.length === 1 && roots[0].label === "") firstBound = segs;
    else {
      first = roots.findIndex((r) => r.label === segs[0]);
      if (first < 0) {
        throw new ToolError(
          "invalid_cursor",
          `the cursor's log root '${
            printable(segs[0])
          }' is not one of the roots now; start again without cursor`,
        );
      }
      firstBound = segs.slice(1);
    }
  }
  for (let i = first; i < roots.length; i++) {
    const root = roots[i];
    const bound = i === first ? firstBound : null;
    if (bound && bound.length === 0) continue; // the key is this root (a single file): done with it
    if (root.kind === "file") {
      if (!wanted(root.label)) continue;
      try {
        if (!add(root.label, Deno.statSync(root.path), root.real)) break;
      } catch (e) {
        refuse(root.label, `${e instanceof Error ? e.name : e}`);
      }
    } else if (mayHold(root.label) && !walk(root.path, root.real, root.label, bound)) break;
  }
  if (stopped) unreadable.push(countStopped(countMs, byName ? "name" : "modified"));
  const listed = byName ? files : best.sorted().map((f) => f.entry ?? entryOf(f.file, f.info, f.real));
  const last = listed[listed.length - 1];
  return {
    files: listed,
    complete: notListed === 0 && !stopped,
    unreadable,
    not_listed: notListed,
    // A walk stopped by its time may have left files unseen: there may be more after the last.
    next: (beyond > 0 || stopped) && last ? { file: last.file, modified_ms: last.modified_ms } : null,
  };
}

/**
 * A listed file's entry: what its first bytes say (`log_file.ts` `sniffListed`), and whether the
 * reading tools read it, and if not why.
 */
function entryOf(file: string, info: Deno.FileInfo, real: string): LogEntry {
  const sniffed = sniffListed(real, info, file);
  const refusal = sniffed?.refusal ?? null;
  const unsupported = refusal ? refusalNote(real, refusal) : null;
  const reason = !sniffed ? openFailure(real, file) : refusal ? `${refusal.kind}: ${unsupported}` : null;
  return {
    file,
    size_bytes: info.size,
    modified: info.mtime ? info.mtime.toISOString() : null,
    format: sniffed?.format ?? null,
    unsupported,
    compression: sniffed?.format.startsWith("gzip") ? "gzip" : null,
    readable: reason === null,
    reason,
    modified_ms: info.mtime ? info.mtime.getTime() : null,
  };
}

/**
 * Why a listed file could not be opened to look at, as `kind: message`: the error a reading tool would
 * answer (`roots.ts` `osError`: permission, gone), or that it changed while it was listed.
 */
function openFailure(real: string, file: string): string {
  try {
    fs.closeSync(
      fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW),
    );
  } catch (e) {
    const err = osError(e, file);
    return err instanceof ToolError ? `${err.kind}: ${err.message}` : `${e instanceof Error ? e.name : e}`;
  }
  return `file_changed: ${
    printable(file)
  } changed while it was listed (swapped or rotated): call log_files again`;
}

/** Which folders may hold a name a glob matches: its leading literal folders, and how deep it goes. */
interface GlobScope {
  /** The glob's leading folder segments without a glob character, unescaped. */
  prefix: string[];
  /** How many segments a matching name has; Infinity with `**` or braces (any depth). */
  segments: number;
}

/** The {@linkcode GlobScope} of a glob. */
function globScope(glob: string): GlobScope {
  // A `\` may escape a `/`, and braces may hold one: then any folder may hold a match.
  if (glob.includes("\\")) return { prefix: [], segments: Infinity };
  const segs = glob.split("/");
  const prefix: string[] = [];
  for (const seg of segs.slice(0, -1)) {
    if (isGlob(seg)) break;
    prefix.push(seg);
  }
  const deep = glob.includes("**") || glob.includes("{");
  return { prefix, segments: deep ? Infinity : segs.length };
}

/** True when the folder `folder` may hold a name the glob of `scope` matches. */
function scopeHolds(scope: GlobScope, folder: string): boolean {
  if (folder === "") return true;
  const segs = folder.split("/");
  const n = Math.min(segs.length, scope.prefix.length);
  for (let i = 0; i < n; i++) if (segs[i] !== scope.prefix[i]) return false;
  return segs.length < scope.segments;
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
