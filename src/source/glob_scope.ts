/**
 * Which folders a listing enters for a glob (`list_logs.ts`): only those that could hold a name the glob
 * matches, by its leading folders without a glob character and, without `**` and braces, its depth.
 *
 * @module
 */

import { isGlob } from "./glob.ts";

/** Which folders may hold a name a glob matches: its leading literal folders, and how deep it goes. */
export interface GlobScope {
  /** The glob's leading folder segments without a glob character, unescaped. */
  prefix: string[];
  /** How many segments a matching name has; Infinity with `**` or braces (any depth). */
  segments: number;
}

/**
 * The {@linkcode GlobScope} of a glob.
 *
 * @param glob A listing's glob (`glob.ts` syntax, `/`-separated).
 * @returns Its scope; a glob with a `\` (which may escape a `/`) may match in any folder.
 */
export function globScope(glob: string): GlobScope {
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

/**
 * True when the folder `folder` may hold a name the glob of `scope` matches.
 *
 * @param scope From {@linkcode globScope}.
 * @param folder A listed folder's name (`/`-separated, "" for the top).
 */
export function scopeHolds(scope: GlobScope, folder: string): boolean {
  if (folder === "") return true;
  const segs = folder.split("/");
  const n = Math.min(segs.length, scope.prefix.length);
  for (let i = 0; i < n; i++) if (segs[i] !== scope.prefix[i]) return false;
  return segs.length < scope.segments;
}
