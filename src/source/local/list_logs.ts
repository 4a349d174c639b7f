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
 * out is refused (named in `unreadable`), and its target is never opened, listed or descended into
 * (`../shared/cases/13-symlink-escape`); with a glob its name does not match, only its type is asked (a
 * folder out may hide a match, a file out cannot). A link to a file whose folders an untrusted user could swap
 * is refused as reading would refuse it (`confine.ts`). A link that leads nowhere inside the roots, and
 * FIFOs, sockets and devices, are not logs and are left out.
 *
 * Permission: read access to the roots.
 *
 * @module
 */

import { posix } from "node:path";
import { checkMiddleFolders } from "./confine.ts";
import { ToolError } from "../../core/errors.ts";
import { cutText } from "../../core/text_cut.ts";
import { Turns } from "../../core/turn.ts";
import { globMatcher } from "../glob.ts";
import { GlobScope } from "../glob_scope.ts";
import { MAX_NAME, printable, type Root, rootOf } from "./roots.ts";
import { COUNT_STOPPED, type ListOptions, type LogList } from "../log_types.ts";
import { ListingPage, statOf } from "./listing_page.ts";

export { compareModified, countStopped, walkStopped } from "./listing_page.ts";

/** Why a symlink out of the roots is not listed. */
export const LINK_OUT = "a symlink that leads outside the log roots: refused, its target is not read";

/**
 * How long the walk goes on past the cap, counting (not keeping, not sniffing) the files it does not
 * list, in milliseconds. Past it the walk stops and `not_listed` is a lower bound, said in `unreadable`
 * ({@linkcode countStopped}).
 */
export const COUNT_BEYOND_MS = 2000;

/** How the `unreadable` entry of {@linkcode countStopped} begins (`log_types.ts`). */
export { COUNT_STOPPED };

/**
 * How often a walk lets the event loop turn, in milliseconds of work (issue #22: no call holds the
 * others; a listing of 200,000 files is a second of system calls).
 */
export const YIELD_MS = 5;

/**
 * How many entries a walk finishes in each call before it may stop at its deadline, so that every call
 * of a walk that goes on over several calls gets further.
 */
export const MIN_ENTRIES = 256;

/**
 * Lists the logs under the roots: those a glob matches (all without one), in name order or newest first,
 * after a key (from a cursor), at most `opts.limit` of them.
 *
 * Memory: at most `limit` entries are kept. In name order the walk lists the first `limit` after the key
 * (folders wholly before the key are not entered), then goes on counting in `not_listed` every file it
 * does not list (by the folder's entry types, no call per file), for at most `countMs` milliseconds.
 * Newest first, every file must be compared (issue #22: a page is the newest only once all were seen):
 * the newest `limit` after the key are kept in a heap (`core/best_of.ts` `BestOf`, in `listing_page.ts`) and sniffed once the walk is
 * over. A walk that reaches `opts.deadline` stops (after at least {@linkcode MIN_ENTRIES} entries): in
 * name order with what it listed and `next` after the last entry walked; newest first with no entry and
 * `walk`, which `opts.resume` takes to go on. The walk lets the event loop turn every
 * {@linkcode YIELD_MS} ms. When a walk or count stops for its time, `unreadable` ends with an entry that
 * begins with {@linkcode COUNT_STOPPED} and `not_listed` is a lower bound.
 *
 * With a glob, only folders that could hold a name it matches are entered (`glob_scope.ts`: its segments,
 * for every brace choice, `**` any number of them), and only refusals that could hide a match are counted
 * and reported: a file (or link, or name the tools cannot take) whose name the glob matches, or a folder
 * (or link to one) that may hold a match. An entry the glob cannot match is no part of the scope. A refusal (a link out, a folder that could not be read) is
 * reported in name order on the page whose range holds it; newest first (it has no time) on every page.
 *
 * Permission: read access to the roots.
 *
 * @param roots The log roots.
 * @param opts The glob, the order, the most entries, the key to resume after, readable only, the
 *   deadline, a stopped walk to go on with.
 * @param countMs How long to go on counting past the cap in name order ({@linkcode COUNT_BEYOND_MS}).
 * @returns The entries, whether they are all of them, and where to go on.
 * @throws {TypeError} for a malformed glob; {@linkcode RangeError} for a limit that is not a whole number
 *   from 1 or a glob whose braces expand too far (`glob.ts`).
 * @throws {ToolError} `invalid_cursor` when a key names a root there is not.
 * @example
 * ```ts
 * import { openRoots } from "./roots.ts";
 * const list = await listLogs(openRoots(["."], Deno.cwd()), { sort: "modified", limit: 10 });
 * console.log(list.files.map((f) => f.file), list.complete);
 * ```
 */
export async function listLogs(
  roots: Root[],
  opts: ListOptions,
  countMs = COUNT_BEYOND_MS,
): Promise<LogList> {
  if (!Number.isSafeInteger(opts.limit) || opts.limit < 1) {
    throw new RangeError(`a listing's limit is a whole number from 1, not ${opts.limit}`);
  }
  return await new Walk(roots, opts, countMs).run();
}

/** Why a FIFO, socket or device in the roots is not listed. */
const NOT_A_FILE = "not_a_file: not a regular file (a FIFO, socket or device)";

/** One listing's walk over the roots (see {@linkcode listLogs}). */
class Walk {
  readonly #roots: Root[];
  readonly #opts: ListOptions;
  readonly #byName: boolean;
  readonly #deadline: number;
  readonly #match: ((file: string) => boolean) | null;
  readonly #scope: GlobScope | null;
  /** What the walk keeps, counts and refuses, and the page it makes. */
  readonly #page: ListingPage;
  readonly #dirs = new Set<string>();
  #timedOut = false;
  /** The last entry finished with, in walk order. */
  #at: string | null = null;
  /** Entries finished in this call. */
  #entries = 0;
  #lastYield = performance.now();
  readonly #turns = new Turns();

  constructor(roots: Root[], opts: ListOptions, countMs: number) {
    this.#roots = roots;
    this.#opts = opts;
    this.#byName = (opts.sort ?? "name") === "name";
    this.#deadline = opts.deadline ?? Infinity;
    this.#match = opts.glob === undefined ? null : globMatcher(opts.glob);
    this.#scope = opts.glob === undefined ? null : new GlobScope(opts.glob);
    this.#page = new ListingPage(opts, countMs);
    if (opts.resume && !this.#byName) {
      // A stopped newest-first walk taken up where it was.
      this.#page.restore(opts.resume);
      for (const d of opts.resume.dirs) this.#dirs.add(d);
    }
  }

  #wanted(file: string): boolean {
    return this.#match === null || this.#match(file);
  }

  #mayHold(folder: string): boolean {
    return this.#scope === null || this.#scope.holds(folder);
  }

  /**
   * Whether an entry the walk cannot take is one the glob's scope holds, so counted and named as not
   * listed: a file the glob matches, or a folder that may hold a match ("unknown": either). An entry the
   * glob cannot match is no part of the scope, whatever is wrong with it.
   */
  #hides(file: string, kind: Kind): boolean {
    return (kind !== "folder" && this.#wanted(file)) || (kind !== "file" && this.#mayHold(file));
  }

  /** Refuses a name longer than the tools take (when it hides a match); true when it is one. */
  #tooLong(file: string, kind: Kind): boolean {
    if (file.length <= MAX_NAME) return false;
    if (this.#hides(file, kind)) {
      this.#page.refuse(
        cutText(file, 80) + "…",
        `a name longer than ${MAX_NAME} characters, which the tools cannot take`,
      );
    }
    return true;
  }

  /** Walks every root from where the key or the stopped walk says, then gives the listing. */
  async run(): Promise<LogList> {
    const { first, bound: firstBound } = this.#start();
    for (let i = first; i < this.#roots.length; i++) {
      const root = this.#roots[i];
      const bound = i === first ? firstBound : null;
      if (bound && bound.length === 0) continue; // the key is this root (a single file): done with it
      if (root.kind === "file") {
        if (this.#wanted(root.label)) {
          try {
            if (!this.#page.add(root.label, statOf(Deno.statSync(root.path)), root.real)) break;
          } catch (e) {
            this.#page.refuse(root.label, `${e instanceof Error ? e.name : e}`);
          }
        }
        let go = this.#done(root.label);
        if (go instanceof Promise) go = await go;
        if (!go) break;
      } else if (this.#mayHold(root.label) && !(await this.#walk(root.path, root.real, root.label, bound))) {
        break;
      }
    }
    return await this.#page.result({
      timedOut: this.#timedOut,
      at: this.#at,
      dirs: this.#dirs,
      pace: () => this.#pace(),
    });
  }

  /** Where the walk starts: the root, and the segments of the name to go on after within it. */
  #start(): { first: number; bound: string[] | null } {
    const key = this.#byName ? this.#opts.after?.file : this.#opts.resume?.at;
    if (key === undefined) return { first: 0, bound: null };
    const segs = key.split("/");
    if (this.#roots.length === 1 && this.#roots[0].label === "") return { first: 0, bound: segs };
    const first = this.#roots.findIndex((r) => r.label === segs[0]);
    if (first < 0) {
      throw new ToolError(
        "invalid_cursor",
        `the cursor's log root '${
          printable(segs[0])
        }' is not one of the roots now; start again without cursor`,
      );
    }
    return { first, bound: segs.slice(1) };
  }

  /**
   * Marks an entry finished; false when the walk must stop (its deadline, or the count past the cap).
   * Every 64 entries reads the clock, and lets the event loop turn when {@linkcode YIELD_MS} have passed.
   */
  #done(file: string): boolean | Promise<boolean> {
    this.#at = file;
    if (this.#page.countCut) return false;
    if (++this.#entries % 64 !== 0) return true;
    const now = performance.now();
    if (now > this.#deadline && this.#entries >= MIN_ENTRIES) {
      this.#timedOut = true;
      return false;
    }
    if (now - this.#lastYield < YIELD_MS) return true;
    return this.#turns.next().then(() => {
      this.#lastYield = performance.now();
      return true;
    });
  }

  /** Lets the event loop turn when {@linkcode YIELD_MS} have passed since it last did; else null. */
  #pace(): Promise<void> | null {
    if (performance.now() - this.#lastYield < YIELD_MS) return null;
    return this.#turns.next().then(() => {
      this.#lastYield = performance.now();
    });
  }

  /** Walks one folder (its real path `real`, named `prefix`), after `bound` when given; false to stop. */
  async #walk(dir: string, real: string, prefix: string, bound: string[] | null): Promise<boolean> {
    // A link back up the tree: listed once. A folder on the path a walk goes on along (`bound`) is
    // walked again from there.
    if (bound === null && this.#dirs.has(real)) return true;
    this.#dirs.add(real);
    let entries: Deno.DirEntry[];
    try {
      entries = Array.from(Deno.readDirSync(dir)).sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0
      );
    } catch (e) {
      this.#page.refuse(prefix || ".", `${e instanceof Error ? e.name : e}`);
      return true;
    }
    for (const ent of entries) {
      const name = ent.name;
      // After a key: entries before it are skipped unseen, and the folders on its path entered only for
      // what follows it.
      let below: string[] | null = null;
      if (bound) {
        if (name < bound[0]) continue;
        if (name === bound[0]) {
          if (bound.length === 1) continue;
          below = bound.slice(1);
        }
      }
      const file = prefix ? `${prefix}/${name}` : name;
      if (this.#wanted(file) || this.#mayHold(file)) {
        let go = this.#entry(ent, `${dir}/${name}`, real, file, below);
        if (go instanceof Promise) go = await go;
        if (!go) return false;
      }
      let go = this.#done(file);
      if (go instanceof Promise) go = await go;
      if (!go) return false;
    }
    return true;
  }

  /**
   * One entry of a folder: a file is taken, a folder walked. An entry that is no symlink is known by the
   * folder's entry type (its real path is the folder's and its name); a link is resolved and must stay
   * inside the roots. False to stop the walk.
   */
  #entry(
    ent: Deno.DirEntry,
    path: string,
    real: string,
    file: string,
    below: string[] | null,
  ): boolean | Promise<boolean> {
    const own = real === "/" ? `/${ent.name}` : `${real}/${ent.name}`;
    if (!ent.isSymlink && ent.isDirectory) return this.#folder(file, own, below);
    if (!ent.isSymlink && ent.isFile) {
      return below || !this.#wanted(file) ? true : this.#file(file, own, null, path);
    }
    if (file.length > MAX_NAME && this.#tooLong(file, linkKind(path))) return true;
    const r = this.#resolve(path, real, file, ent.name);
    if (r === null) return true;
    if (r.info.isDirectory) return this.#folder(file, r.target, below);
    if (below || !this.#wanted(file)) return true;
    // A FIFO, a socket, a device: no log to read (`log_tail` refuses it as not_a_file), named, not hidden.
    if (!r.info.isFile) return (this.#page.refuse(file, NOT_A_FILE), true);
    if (r.target !== own) {
      // A link to a file elsewhere in the roots: its folders must pass the rule reading applies.
      const home = rootOf(this.#roots, r.target)!;
      try {
        checkMiddleFolders(home.real, r.target, home.trust, file);
      } catch (e) {
        this.#page.refuse(file, e instanceof ToolError ? `${e.kind}: ${e.message}` : String(e));
        return true;
      }
    }
    return this.#file(file, r.target, r.info, path);
  }

  /** A link (or an entry of unknown type): its real path and status, or null when it is no log. */
  #resolve(
    path: string,
    real: string,
    file: string,
    name: string,
  ): { target: string; info: Deno.FileInfo } | null {
    try {
      const target = Deno.realPathSync(path);
      if (!rootOf(this.#roots, target)) {
        // A symlink out is refused by name. An entry that is no symlink yet resolves outside was
        // reached through a folder swapped meanwhile: its name is not the roots' to tell.
        if (Deno.lstatSync(path).isSymlink) {
          // Its target is not read; only its type is asked, for whether it may hide a match.
          if (this.#wanted(file) || this.#hides(file, linkKind(path))) this.#page.refuse(file, LINK_OUT);
        } else if (this.#hides(file, "unknown")) {
          this.#page.refuse(folderOf(file), "the folder changed while it was listed (swapped?): call again");
        }
        return null;
      }
      // lstat of the real path, not stat of the name: a name swapped for a link between the two calls
      // shows as a link (skipped), never as the size and time of what the link points to.
      const info = Deno.lstatSync(target);
      return info.isSymlink ? null : { target, info };
    } catch (e) {
      this.#failed(e, name, file, real, path, "unknown");
      return null;
    }
  }

  /**
   * Why an entry could not be looked at. One gone since the folder was read is simply not a log, nor is
   * a link to nothing inside the roots; a dangling link that points out is refused like any link out. A
   * name that is not valid UTF-8 cannot be named to the other tools (Deno paths are strings): said so,
   * never skipped quietly.
   */
  #failed(e: unknown, name: string, file: string, real: string, path: string, kind: Kind): void {
    if (name.includes("\uFFFD")) {
      if (this.#hides(file, kind)) this.#page.refuse(file, "the name is not valid UTF-8");
    } else if (!(e instanceof Deno.errors.NotFound)) {
      if (this.#hides(file, kind)) this.#page.refuse(file, `${e instanceof Error ? e.name : e}`);
    } else if (this.#hides(file, "file") && danglingOut(this.#roots, real, path)) {
      this.#page.refuse(file, LINK_OUT); // it leads nowhere: no folder, so only its name may match
    }
  }

  /** A folder to walk, unless an untrusted user could swap it for a link outside (`confine.ts`). */
  #folder(file: string, target: string, below: string[] | null): boolean | Promise<boolean> {
    if (!this.#mayHold(file) || this.#tooLong(file, "folder")) return true;
    const home = rootOf(this.#roots, target)!;
    try {
      checkMiddleFolders(home.real, `${target}/-`, home.trust, file);
    } catch (e) {
      this.#page.refuse(file, e instanceof ToolError ? `${e.kind}: ${e.message}` : String(e));
      return true;
    }
    return this.#walk(target, target, file, below);
  }

  /**
   * A file the glob matches, at its real path `real` (its status, when a link was resolved). In name
   * order past the cap it is only counted, with no call; else its status is read. False to stop.
   */
  #file(file: string, real: string, info: Deno.FileInfo | null, path: string): boolean {
    if (this.#tooLong(file, "file")) return true;
    if (this.#page.full) return this.#page.countPast();
    if (info === null) {
      try {
        info = Deno.lstatSync(real);
      } catch (e) {
        this.#failed(
          e,
          real.slice(real.lastIndexOf("/") + 1),
          file,
          real.slice(0, real.lastIndexOf("/")),
          path,
          "file",
        );
        return true;
      }
      if (!info.isFile) return true; // swapped for a link or a folder since the folder was read
    }
    return this.#page.add(file, statOf(info), real);
  }
}

/** What an entry the walk cannot take may be, for whether it hides a match (`Walk.#hides`). */
type Kind = "file" | "folder" | "unknown";

/**
 * What a link leads to, by its type alone (`stat` through the link's own path inside the roots; its
 * target is never opened): a folder, a file (or anything else that is no folder), or unknown when its
 * type cannot be had (then either).
 */
function linkKind(path: string): Kind {
  try {
    return Deno.statSync(path).isDirectory ? "folder" : "file";
  } catch (e) {
    return e instanceof Deno.errors.NotFound ? "file" : "unknown";
  }
}

/** The folder part of a listed name (`.` for a name at the top). */
function folderOf(file: string): string {
  const i = file.lastIndexOf("/");
  return i < 0 ? "." : file.slice(0, i);
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
