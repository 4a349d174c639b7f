/**
 * The `log_files` cursor (issue #12): where the next page of a listing starts, sealed (`core/seal.ts`)
 * with the server's cursor key so a client can neither forge nor alter it. It holds the sort key of the
 * last entry listed (keyset paging: the next page lists the entries after that key as they are then),
 * and the glob (a hash of it) and sort it belongs to: a cursor for another glob or sort is refused.
 *
 * Files that come and go between pages: a file added or removed after the key shows up or not on a later
 * page; one added before the key is not listed by later pages (a new listing shows it); nothing listed is
 * listed again, unless (newest first) its modified time moved past the key meanwhile.
 *
 * A newest-first walk that stopped at its time budget before every file was compared (issue #22) saves
 * where it was in the state directory; its cursor holds that state's id (`w`) beside the key of the page
 * before (none on the first page: `f` is then empty).
 *
 * @module
 */

import { createHash } from "node:crypto";
import { ToolError } from "../core/errors.ts";
import { seal, unseal } from "../core/seal.ts";
import type { ListKey, ListSort } from "../source/log_source.ts";

/**
 * The longest listing cursor, in characters (`log_files`' input schema): the longest name (4096 UTF-16
 * code units, each a control character that JSON writes as six) in base64url, with room to spare.
 */
export const MAX_LIST_CURSOR = 40_000;

/** What a listing cursor says (its payload). */
interface ListCursor {
  /** The tool: `log_files`. */
  k: "log_files";
  /** The glob's hash ({@linkcode globHash}). */
  g: string;
  /** The sort. */
  s: ListSort;
  /** The last entry's name. */
  f: string;
  /** Its modified time in epoch milliseconds, or null. */
  m: number | null;
  /** The saved state of a stopped newest-first walk (`state/artifacts.ts` `writeState`), or "". */
  w: string;
  /**
   * What was listed (`LogBackend.shown`, hashed as {@linkcode globHash} hashes a glob): a server of other
   * logs that shares the state directory, and so the key, refuses the cursor.
   */
  r: string;
}

/** The fields of a listing cursor, in the order written. */
const FIELDS = ["k", "g", "s", "f", "m", "w", "r"] as const;

/** Where a `log_files` page starts: after a key, and within a stopped walk. */
export interface ListStart {
  /** The last entry of the page before, if any. */
  after?: ListKey;
  /** The id of a stopped newest-first walk's saved state, if any. */
  walk?: string;
}

/** Why a cursor that fails its seal or its shape is refused (the words of `read/cursor.ts`). */
const NOT_OURS =
  "the cursor is not one this server made (it was made over another server's logs: other roots or another " +
  "table; or it was damaged in copying); start again without cursor";

/** A glob's hash in a cursor: SHA-256 of it (or of "" without one), base64url, first 16 characters. */
export function globHash(glob: string | undefined): string {
  return createHash("sha256").update(glob === undefined ? "" : `g:${glob}`).digest("base64url").slice(0, 16);
}

/**
 * Makes the cursor for the page after `key`.
 *
 * @param key The last entry listed (`LogList.next`), or null (a stopped walk on the first page).
 * @param call The glob (if any) and sort of the call.
 * @param cursorKey The key to seal with (`ToolContext.cursorKey`).
 * @param walk The id of a stopped walk's saved state, or "".
 * @returns The opaque cursor: characters `A-Z a-z 0-9 - _ .`; about 4/3 of the name's UTF-8 bytes plus
 *   about 120.
 */
export function makeListCursor(
  key: ListKey | null,
  call: { glob?: string; sort: ListSort; source?: string },
  cursorKey: Uint8Array,
  walk = "",
): string {
  const c: ListCursor = {
    k: "log_files",
    g: globHash(call.glob),
    s: call.sort,
    f: key?.file ?? "",
    m: key?.modified_ms ?? null,
    w: walk,
    r: globHash(call.source ?? ""),
  };
  return seal(Object.fromEntries(FIELDS.map((f) => [f, c[f]])), cursorKey);
}

/**
 * Reads a listing cursor back: its seal, every field's type, then that it belongs to this call.
 *
 * @param text The cursor.
 * @param call The glob (if any) and sort of this call.
 * @param cursorKey The key it was sealed with.
 * @returns Where to resume: after a key, within a stopped walk, or both.
 * @throws {ToolError} `invalid_cursor`: not sealed by this server (or damaged), not a listing cursor (a
 *   `log_search` one), or one for another glob or sort.
 */
export function readListCursor(
  text: string,
  call: { glob?: string; sort: ListSort; source?: string },
  cursorKey: Uint8Array,
): ListStart {
  const v = unseal(text, cursorKey);
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new ToolError("invalid_cursor", NOT_OURS);
  }
  const o = v as Record<string, unknown>;
  if (typeof o.k === "string" && o.k !== "log_files" && /^log_[a-z]+$/.test(o.k)) {
    throw new ToolError("invalid_cursor", `the cursor belongs to ${o.k}, not log_files`);
  }
  const keys = Object.keys(o);
  const valid = keys.length === FIELDS.length && FIELDS.every((k) => Object.hasOwn(o, k)) &&
    o.k === "log_files" && typeof o.g === "string" && (o.s === "name" || o.s === "modified") &&
    typeof o.f === "string" && (o.m === null || Number.isSafeInteger(o.m)) && typeof o.w === "string" &&
    typeof o.r === "string" &&
    (o.f !== "" || (o.w !== "" && o.m === null));
  if (!valid) throw new ToolError("invalid_cursor", NOT_OURS);
  const c = o as unknown as ListCursor;
  if (c.r !== globHash(call.source ?? "")) {
    throw new ToolError(
      "invalid_cursor",
      "the cursor belongs to another server's logs (another root or table, one state directory): call the " +
        "server that gave it, or start again without cursor",
    );
  }
  if (c.g !== globHash(call.glob) || c.s !== call.sort) {
    throw new ToolError(
      "invalid_cursor",
      `the cursor belongs to another listing (${c.s === call.sort ? "another glob" : `sort ${c.s}`}): ` +
        "call with the glob and sort that gave it, or start again without cursor",
    );
  }
  return {
    ...(c.f === "" ? {} : { after: { file: c.f, modified_ms: c.m } }),
    ...(c.w === "" ? {} : { walk: c.w }),
  };
}
