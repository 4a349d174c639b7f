/**
 * What a listing's walk (`list_logs.ts`) keeps: the entries of one `log_files` page, in name order the
 * first `limit` after the key, newest first the newest `limit` in a heap ({@linkcode BestOf}); what it
 * counts but does not list (`not_listed`) and refuses (`unreadable`); and the page made of them once the
 * walk is over or stopped, or the stopped newest-first walk saved for a later call ({@linkcode ListWalk}).
 *
 * Permission: read access to the files kept (each is sniffed, `log_file.ts` `sniffListed`).
 *
 * @module
 */

import fs from "node:fs";
import { BestOf } from "../../core/best_of.ts";
import { ToolError } from "../../core/errors.ts";
import { refusalNote } from "../../read/format.ts";
import { osError, printable } from "./roots.ts";
import {
  COUNT_STOPPED,
  type ListOptions,
  type ListSort,
  type ListWalk,
  type LogEntry,
  type LogList,
} from "../log_types.ts";
import { sniffListed } from "./log_file.ts";

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

/**
 * The `unreadable` entry that says a walk stopped at its deadline (issue #22), beginning with
 * {@linkcode COUNT_STOPPED} (so `not_listed` reads as a lower bound).
 *
 * @param byName The listing's order is by name (else newest first).
 * @param seen Files compared so far (newest first).
 */
export function walkStopped(byName: boolean, seen: number): string {
  return `${COUNT_STOPPED} the walk stopped at its time budget` +
    (byName
      ? ", so entries after those listed may exist (next_cursor goes on after the last entry walked)"
      : ` after comparing ${seen} files, before every file was compared, so none can be named the newest ` +
        "yet: next_cursor goes on walking where it stopped (nothing is skipped)") +
    "; not_listed is a lower bound";
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

/** What the walk keeps of a file's status: its size (bytes), time (epoch ms) and identity (for the sniff to check). */
export interface Stat {
  size: number;
  ms: number | null;
  dev: number;
  ino: number | null;
}

/** A file the walk found: what an entry is made of, once it is kept. */
interface Found {
  file: string;
  real: string;
  ms: number | null;
  st: Stat;
  /** Its entry, when it was made during the walk (sort `name`, or `readableOnly`). */
  entry?: LogEntry;
}

/** The {@linkcode Stat} of a file's status. */
export function statOf(info: Deno.FileInfo): Stat {
  return { size: info.size, ms: info.mtime ? info.mtime.getTime() : null, dev: info.dev, ino: info.ino };
}

/** How the walk ended, for {@linkcode ListingPage.result}. */
export interface WalkEnd {
  /** It stopped at its deadline. */
  timedOut: boolean;
  /** The last entry it finished with, in walk order (null when none). */
  at: string | null;
  /** The real paths of the folders it walked (saved with a stopped newest-first walk). */
  dirs: Iterable<string>;
  /** Lets the event loop turn when the walk's pace says so (null: not yet). */
  pace: () => Promise<void> | null;
}

/** One page of a listing: what the walk keeps, counts and refuses (see the module's doc). */
export class ListingPage {
  readonly #opts: ListOptions;
  readonly #byName: boolean;
  readonly #countMs: number;
  readonly #files: LogEntry[] = [];
  readonly #best: BestOf<Found>;
  readonly #afterKey: { file: string; ms: number | null } | null;
  #unreadable: string[] = [];
  #notListed = 0;
  /** Files that match, past the page. */
  #beyond = 0;
  /** readableOnly, newest first: a readable file is known past the page. */
  #overflow = false;
  /** Name order: when counting past the cap must stop (set when the cap is reached). */
  #countDeadline = Infinity;
  #countCut = false;
  /** Files compared newest first, over every call of the walk. */
  #seen = 0;

  /**
   * @param opts The listing's options (its order, limit, key, readableOnly).
   * @param countMs How long to go on counting past the cap in name order, in ms.
   */
  constructor(opts: ListOptions, countMs: number) {
    this.#opts = opts;
    this.#byName = (opts.sort ?? "name") === "name";
    this.#countMs = countMs;
    this.#best = new BestOf<Found>(opts.limit, compareModified);
    this.#afterKey = opts.after ? { file: opts.after.file, ms: opts.after.modified_ms } : null;
  }

  /** Name order, once the page is full: what follows is only counted. */
  get full(): boolean {
    return this.#byName && this.#files.length >= this.#opts.limit;
  }

  /** Counting past the cap ran out of its time: the walk stops. */
  get countCut(): boolean {
    return this.#countCut;
  }

  /** Names an entry not listed, with why, in `unreadable` (the first 20); it counts in `not_listed`. */
  refuse(file: string, why: string): void {
    this.#notListed++;
    if (this.#unreadable.length < 20) this.#unreadable.push(`${file}: ${why}`);
  }

  #pastCap(): void {
    this.#beyond++;
    this.#notListed++;
    if (this.#countDeadline === Infinity) this.#countDeadline = performance.now() + this.#countMs;
  }

  /** Counts a file past the cap of a {@linkcode ListingPage.full} page; false when counting must stop. */
  countPast(): boolean {
    this.#pastCap();
    if (performance.now() > this.#countDeadline) this.#countCut = true;
    return !this.#countCut;
  }

  /** Takes one file the glob matches (its name, status and real path); false to stop the walk. */
  add(file: string, st: Stat, real: string): boolean {
    const readableOnly = this.#opts.readableOnly ?? false;
    if (this.#byName) {
      if (this.#files.length >= this.#opts.limit) {
        this.#pastCap();
        return true;
      }
      const entry = entryOf(file, st, real);
      if (readableOnly && !entry.readable) this.refuse(file, entry.reason!);
      else this.#files.push(entry);
      return true;
    }
    this.#seen++;
    const found: Found = { file, real, ms: st.ms, st };
    if (this.#afterKey && compareModified(found, this.#afterKey) <= 0) return true; // on an earlier page
    if (!this.#best.wouldKeep(found)) {
      if (readableOnly && !this.#overflow) {
        const entry = entryOf(file, st, real);
        if (!entry.readable) this.refuse(file, entry.reason!);
        else {
          this.#overflow = true;
          this.#pastCap();
        }
      } else this.#pastCap();
      return true;
    }
    if (readableOnly) {
      found.entry = entryOf(file, st, real);
      if (!found.entry.readable) {
        this.refuse(file, found.entry.reason!);
        return true;
      }
    }
    if (this.#best.offer(found) !== undefined) {
      this.#overflow = true; // what was let go was kept, so readable when readableOnly
      this.#pastCap();
    }
    return true;
  }

  /** The listing, once the walk is over or stopped (newest first, the kept files sniffed now). */
  async result(end: WalkEnd): Promise<LogList> {
    if (this.#countCut) this.#unreadable.push(countStopped(this.#countMs, "name"));
    if (end.timedOut && !this.#byName) {
      return {
        files: [],
        complete: false,
        unreadable: [...this.#unreadable, walkStopped(false, this.#seen)],
        not_listed: this.#notListed + this.#best.size,
        next: null,
        walk: this.#save(end),
      };
    }
    if (end.timedOut) this.#unreadable.push(walkStopped(true, this.#seen));
    let listed = this.#files;
    if (!this.#byName) {
      listed = [];
      for (const f of this.#best.sorted()) {
        listed.push(f.entry ?? entryOf(f.file, f.st, f.real));
        const turn = end.pace();
        if (turn !== null) await turn;
      }
    }
    const last = listed[listed.length - 1];
    // In name order a walk stopped before the cap goes on after the last entry it walked; past the cap,
    // after the last entry listed (what follows was counted, not listed).
    const next = end.timedOut && this.#files.length < this.#opts.limit
      ? { file: end.at!, modified_ms: null }
      : (this.#beyond > 0 || this.#countCut || end.timedOut) && last
      ? { file: last.file, modified_ms: last.modified_ms }
      : null;
    return {
      files: listed,
      complete: this.#notListed === 0 && !this.#countCut && !end.timedOut,
      unreadable: this.#unreadable,
      not_listed: this.#notListed,
      next,
    };
  }

  /** The stopped newest-first walk, for a later call ({@linkcode ListWalk}). */
  #save(end: WalkEnd): ListWalk {
    return {
      at: end.at!,
      kept: this.#best.sorted().map((f) => [f.file, f.real, f.ms, f.st.size, f.st.dev, f.st.ino]),
      not_listed: this.#notListed,
      beyond: this.#beyond,
      overflow: this.#overflow,
      unreadable: this.#unreadable,
      dirs: [...end.dirs],
      seen: this.#seen,
    };
  }

  /** Takes up a stopped newest-first walk where it was (its folders are the walk's to take up). */
  restore(w: ListWalk): void {
    for (const [file, real, ms, size, dev, ino] of w.kept) {
      this.#best.offer({ file, real, ms, st: { size, ms, dev, ino } });
    }
    this.#notListed = w.not_listed;
    this.#beyond = w.beyond;
    this.#overflow = w.overflow;
    this.#unreadable = [...w.unreadable];
    this.#seen = w.seen;
  }
}

/**
 * A listed file's entry: what its first bytes say (`log_file.ts` `sniffListed`), and whether the
 * reading tools read it, and if not why.
 */
function entryOf(file: string, st: Stat, real: string): LogEntry {
  const sniffed = sniffListed(real, st, file);
  const refusal = sniffed?.refusal ?? null;
  const unsupported = refusal ? refusalNote(real, refusal) : null;
  const reason = !sniffed ? openFailure(real, file) : refusal ? `${refusal.kind}: ${unsupported}` : null;
  return {
    file,
    size_bytes: st.size,
    modified: st.ms === null ? null : new Date(st.ms).toISOString(),
    format: sniffed?.format ?? null,
    log_format: sniffed?.logFormat,
    unsupported,
    compression: sniffed?.format.startsWith("gzip") ? "gzip" : null,
    readable: reason === null,
    reason,
    modified_ms: st.ms,
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
