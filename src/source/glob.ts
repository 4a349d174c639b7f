/**
 * Globs over log names (issue #12): `log_files` lists the names a glob matches, and `log_search` and
 * `log_levels` take a glob as `file` to read many logs in one call.
 *
 * The rules are bash's pathname expansion with `shopt -s globstar dotglob` (the GNU Bash manual, §3.5.3
 * "Brace Expansion" and §3.5.8.1 "Pattern Matching"), over names separated by `/`:
 *
 * - `*` matches any characters but `/` (also none); `?` one character (a code point) but `/`;
 * - `**` as a whole segment (`**`, `**∕x`, `a∕**∕x`, `a∕**`) matches any folders, zero or more; elsewhere
 *   (`a**b`) it is `*`;
 * - `[abc]`, `[a-z]`, `[!a]` or `[^a]` (not), `[]a]` (a `]` first is one of the set), `[[:digit:]]` and the
 *   other POSIX classes (ASCII: alnum, alpha, blank, cntrl, digit, graph, lower, print, punct, space,
 *   upper, xdigit); a set never matches `/`;
 * - `{a,b}` is expanded first, as bash does, into one glob per choice (nested, `{,x}` too); braces
 *   without a comma at their level are themselves (`{a}` matches `{a}`);
 * - `\` makes the next character itself (log names never hold a `\`);
 * - a name beginning with a dot is matched like any other (bash's `dotglob`).
 *
 * (In these comments `∕` stands for `/`, which after `*` would end the comment.)
 *
 * Unlike bash, a `[` or `{` that is never closed is an error (bash would take it as itself), and `{1..3}`
 * sequences are not expanded. A glob is compiled to one RE2 expression (re2js): matching takes time
 * linear in the name's length, whatever the glob.
 *
 * @module
 */

import { RE2JS } from "re2js";

/** The most globs a brace expansion may give (`{a,b}{c,d}` gives 4). */
export const MAX_EXPANSIONS = 1024;

/**
 * True when `text` has an unescaped glob character (`*`, `?`, `[`, `{`): then `log_search` takes it as a
 * glob. A character after `\` is itself.
 *
 * @param text A `file` argument.
 * @returns Whether it is a glob.
 * @example
 * ```ts
 * import { isGlob } from "./glob.ts";
 * console.assert(isGlob("nginx/*.log") && isGlob("app.log.[0-9]"));
 * console.assert(!isGlob("nginx/access.log") && !isGlob("a\\*.log"));
 * ```
 */
export function isGlob(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "*" || c === "?" || c === "[" || c === "{") return true;
  }
  return false;
}

/**
 * A matcher for a glob over log names ("/"-separated), by the rules in this module's documentation (bash
 * pathname expansion with globstar and dotglob). The whole name must match.
 *
 * @param glob The glob.
 * @returns A function that says whether a name matches.
 * @throws {TypeError} for a malformed glob: a `[` or `{` never closed, a `\` at its end, a range whose
 *   ends are backwards (`[z-a]`), an unknown class (`[[:foo:]]`), saying at which character (1-based).
 * @throws {RangeError} when its braces expand to more than {@linkcode MAX_EXPANSIONS} globs.
 * @example
 * ```ts
 * import { globMatcher } from "./glob.ts";
 * const m = globMatcher("**∕app*.log*".replace("∕", "/"));
 * console.assert(m("app.log") && m("a/b/app.log.2.gz") && !m("a/b/api.log"));
 * ```
 */
export function globMatcher(glob: string): (name: string) => boolean {
  const cps = Array.from(glob);
  checkClosed(cps);
  const alternatives = expandBraces(cps);
  const source = alternatives.map((alt) => translate(tokens(alt))).join("|");
  const re = RE2JS.compile(`(?s)^(?:${source})$`);
  return (name) => re.matches(name);
}

/**
 * One segment of a glob (between `/`): `**` (any folders, zero or more), or a matcher of one name segment.
 */
export type GlobSegment = "**" | ((segment: string) => boolean);

/**
 * A glob as its segments, one list per brace choice (braces expanded first, as {@linkcode globMatcher}
 * does; an escaped `/` separates segments too, since names are split at every `/`), for a walk to tell
 * which folders could hold a name the glob matches (`glob_scope.ts`).
 *
 * @param glob The glob.
 * @returns Each brace choice's segments, in order.
 * @throws {TypeError} for a malformed glob, as {@linkcode globMatcher}.
 * @throws {RangeError} when its braces expand too far, as {@linkcode globMatcher}.
 */
export function globSegments(glob: string): GlobSegment[][] {
  const cps = Array.from(glob);
  checkClosed(cps);
  return expandBraces(cps).map((alt) => {
    const segs: GlobSegment[] = [];
    let cur: Token[] = [];
    let starred = false; // the last segment was `**` (after it, no segment is pending)
    const close = () => {
      const re = RE2JS.compile(`(?s)^(?:${translate(cur)})$`);
      segs.push((segment) => re.matches(segment));
      cur = [];
    };
    for (const k of tokens(alt)) {
      starred = false;
      if (k.t === "lit" && k.cp === SLASH) close();
      else if (k.t === "folders" || k.t === "below") {
        segs.push("**");
        starred = true;
      } else cur.push(k);
    }
    if (!starred) close();
    return segs;
  });
}

/** Where a code point index is, for an error: its 1-based position in the glob. */
const at = (i: number) => `at character ${i + 1}`;

/**
 * Throws for a `[` or `{` never closed, or a `\` at the end: checked on the whole glob, before braces
 * are expanded, so the position given is the glob's own.
 */
function checkClosed(cps: string[]): void {
  const open: number[] = []; // positions of unclosed `{`
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (c === "\\") {
      if (i === cps.length - 1) throw new TypeError(`a lone \\ ${at(i)} ends the glob: escape nothing`);
      i++;
    } else if (c === "[") {
      const end = bracketEnd(cps, i);
      if (end < 0) throw new TypeError(`the [ ${at(i)} is never closed by ]`);
    } else if (c === "{") open.push(i);
    else if (c === "}") open.pop();
  }
  if (open.length) throw new TypeError(`the { ${at(open[0])} is never closed by }`);
}

/**
 * The index of the `]` that closes the bracket expression opening at `start`, or -1. A `]` right after
 * `[`, `[!` or `[^` belongs to the set; `[:class:]` inside is skipped whole; `\` escapes.
 */
function bracketEnd(cps: string[], start: number): number {
  let i = start + 1;
  if (cps[i] === "!" || cps[i] === "^") i++;
  if (cps[i] === "]") i++;
  for (; i < cps.length; i++) {
    if (cps[i] === "\\") i++;
    else if (cps[i] === "[" && cps[i + 1] === ":") {
      const close = cps.indexOf(":", i + 2);
      if (close > 0 && cps[close + 1] === "]") i = close + 1;
    } else if (cps[i] === "]") return i;
  }
  return -1;
}

/**
 * Bash's brace expansion: the first `{…}` with a comma at its own level becomes one glob per choice,
 * each expanded again; braces without such a comma are themselves. Escapes are kept for the glob step.
 */
function expandBraces(cps: string[]): string[][] {
  const out: string[][] = [];
  const work: string[][] = [cps];
  while (work.length) {
    const g = work.pop()!;
    const found = firstBraces(g);
    if (!found) {
      out.push(g);
      if (out.length > MAX_EXPANSIONS) {
        throw new RangeError(`the glob's braces give more than ${MAX_EXPANSIONS} globs: write fewer choices`);
      }
      continue;
    }
    const { open, close, commas } = found;
    const cuts = [open, ...commas, close];
    for (let k = cuts.length - 2; k >= 0; k--) {
      work.push([...g.slice(0, open), ...g.slice(cuts[k] + 1, cuts[k + 1]), ...g.slice(close + 1)]);
    }
  }
  return out;
}

/** The first `{` (left to right) whose matching `}` has a comma between at its level, with the commas. */
function firstBraces(cps: string[]): { open: number; close: number; commas: number[] } | null {
  for (let open = 0; open < cps.length; open++) {
    if (cps[open] === "\\") {
      open++;
      continue;
    }
    if (cps[open] !== "{") continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open + 1; i < cps.length; i++) {
      const c = cps[i];
      if (c === "\\") i++;
      else if (c === "{") depth++;
      else if (c === "," && depth === 0) commas.push(i);
      else if (c === "}") {
        if (depth === 0) {
          if (commas.length) return { open, close: i, commas };
          break; // `{a}`: itself; look for a later `{`
        }
        depth--;
      }
    }
  }
  return null;
}

/** The ASCII POSIX classes, as code point ranges. */
const CLASSES: Record<string, [number, number][]> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};

const SLASH = 0x2f;
/** A code point as an RE2 escape: always literal, whatever it is. */
const hex = (cp: number) => `\\x{${cp.toString(16)}}`;

/**
 * One piece of a brace-free glob: a character that is itself, `?`, `*`, `**∕` (zero or more folders), a
 * last `**` (everything below), or a set (its code point ranges, `/` never among them, and whether it is
 * negated).
 */
type Token =
  | { t: "lit"; cp: number }
  | { t: "any" }
  | { t: "star" }
  | { t: "folders" }
  | { t: "below" }
  | { t: "set"; negate: boolean; ranges: [number, number][] };

/** A brace-free glob (as code points, escapes kept) as tokens. */
function tokens(cps: string[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (c === "\\") out.push({ t: "lit", cp: cps[++i].codePointAt(0)! });
    else if (c === "?") out.push({ t: "any" });
    else if (c === "*") {
      let j = i;
      while (cps[j + 1] === "*") j++;
      const whole = j > i && (i === 0 || cps[i - 1] === "/") && (j === cps.length - 1 || cps[j + 1] === "/");
      if (!whole) out.push({ t: "star" });
      else if (j === cps.length - 1) out.push({ t: "below" });
      else {
        out.push({ t: "folders" });
        j++; // its `/` is part of it
      }
      i = j;
    } else if (c === "[") {
      const end = bracketEnd(cps, i);
      out.push(bracket(cps, i, end));
      i = end;
    } else out.push({ t: "lit", cp: c.codePointAt(0)! });
  }
  return out;
}

/** Tokens as RE2 syntax. */
function translate(toks: Token[]): string {
  return toks.map((k) => {
    switch (k.t) {
      case "lit":
        return hex(k.cp);
      case "any":
        return "[^/]";
      case "star":
        return "[^/]*";
      case "folders":
        return "(?:[^/]+/)*";
      case "below":
        return ".*";
      case "set": {
        const parts = k.ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`));
        if (k.negate) return `[^/${parts.join("")}]`;
        return parts.length ? `[${parts.join("")}]` : "[^\\x{0}-\\x{10ffff}]";
      }
    }
  }).join("");
}

/** The bracket expression `cps[start..end]` as a set token, `/` taken out of its ranges. */
function bracket(cps: string[], start: number, end: number): Token {
  let i = start + 1;
  const negate = cps[i] === "!" || cps[i] === "^";
  if (negate) i++;
  const ranges: [number, number][] = [];
  while (i < end) {
    if (cps[i] === "[" && cps[i + 1] === ":") {
      const close = cps.indexOf(":", i + 2);
      if (close > 0 && close < end && cps[close + 1] === "]") {
        const name = cps.slice(i + 2, close).join("");
        const cls = CLASSES[name];
        if (!cls) throw new TypeError(`[:${name}:] ${at(i)} is no class (alnum, alpha, digit, …)`);
        ranges.push(...cls);
        i = close + 2;
        continue;
      }
    }
    let lo: number;
    if (cps[i] === "\\") lo = cps[++i].codePointAt(0)!;
    else lo = cps[i].codePointAt(0)!;
    const from = i;
    i++;
    if (cps[i] === "-" && i + 1 < end) {
      i++;
      const hi = (cps[i] === "\\" ? cps[++i] : cps[i]).codePointAt(0)!;
      i++;
      if (hi < lo) {
        throw new TypeError(`the range ${at(from)} runs backwards (${cps.slice(from, i).join("")})`);
      }
      ranges.push([lo, hi]);
    } else ranges.push([lo, lo]);
  }
  // Never `/`: taken out of a set (a negated set excludes it as well: translate).
  const noSlash: [number, number][] = [];
  for (const [lo, hi] of ranges) {
    if (lo <= SLASH && SLASH <= hi) {
      if (lo < SLASH) noSlash.push([lo, SLASH - 1]);
      if (hi > SLASH) noSlash.push([SLASH + 1, hi]);
    } else noSlash.push([lo, hi]);
  }
  return { t: "set", negate, ranges: noSlash };
}

/** Whether a set token holds the code point `cp`. */
function inSet(k: { negate: boolean; ranges: [number, number][] }, cp: number): boolean {
  if (cp === SLASH) return false;
  return k.ranges.some(([lo, hi]) => lo <= cp && cp <= hi) !== k.negate;
}

/**
 * How many code points of a name, and pieces of a glob, {@linkcode globDistance} looks at (the rest are
 * not compared).
 */
export const DISTANCE_CODE_POINTS = 200;

/** How many of a glob's brace choices {@linkcode globDistance} looks at (the first ones). */
export const DISTANCE_CHOICES = 16;

/**
 * How far `name` is from matching `glob`: the fewest single code point insertions, deletions and
 * substitutions in `name` after which it matches, where `*` and `**` take any run of characters (`/`
 * included) and `?` and a set one character without cost (the distance of approximate wildcard
 * matching). 0 for a name that matches, and for one that would if `*` crossed a `/`. For "did you mean"
 * offers, so bounded in time: names and each brace choice of the glob are cut to their first
 * {@linkcode DISTANCE_CODE_POINTS} code points (pieces), and only the first {@linkcode DISTANCE_CHOICES}
 * choices count.
 *
 * @param glob The glob (braces expanded: the nearest choice counts).
 * @param name A log name.
 * @returns The number of edits.
 * @throws {TypeError} for a malformed glob, as {@linkcode globMatcher}.
 * @throws {RangeError} when its braces expand too far, as {@linkcode globMatcher}.
 * @example
 * ```ts
 * import { globDistance } from "./glob.ts";
 * console.assert(globDistance("ngnix/*.log", "nginx/error.log") === 2);
 * console.assert(globDistance("*.log", "app.log") === 0);
 * ```
 */
export function globDistance(glob: string, name: string): number {
  return globDistanceTo(glob)(name);
}

/**
 * {@linkcode globDistance} with the glob parsed once, for many names.
 *
 * @param glob The glob.
 * @returns The distance of a name from matching it.
 * @throws {TypeError} for a malformed glob, as {@linkcode globMatcher}.
 * @throws {RangeError} when its braces expand too far, as {@linkcode globMatcher}.
 */
export function globDistanceTo(glob: string): (name: string) => number {
  const cps = Array.from(glob);
  checkClosed(cps);
  const alts = expandBraces(cps).slice(0, DISTANCE_CHOICES).map((alt) =>
    tokens(alt).slice(0, DISTANCE_CODE_POINTS)
  );
  return (name) => {
    const text = Array.from(name).slice(0, DISTANCE_CODE_POINTS).map((c) => c.codePointAt(0)!);
    let best = Infinity;
    for (const toks of alts) best = Math.min(best, wildcardDistance(toks, text));
    return best;
  };
}

/** Approximate wildcard matching: the edit distance of `text` to the nearest string `toks` matches. */
function wildcardDistance(toks: Token[], text: number[]): number {
  // prev[j]: the cost of matching the tokens so far against text[0..j).
  let prev = Array.from({ length: text.length + 1 }, (_, j) => j);
  for (const k of toks) {
    const cur = new Array<number>(text.length + 1);
    if (k.t === "star" || k.t === "folders" || k.t === "below") {
      cur[0] = prev[0];
      for (let j = 1; j <= text.length; j++) cur[j] = Math.min(prev[j], cur[j - 1]);
    } else {
      cur[0] = prev[0] + 1;
      for (let j = 1; j <= text.length; j++) {
        const cp = text[j - 1];
        const same = k.t === "lit" ? k.cp === cp : k.t === "any" ? cp !== SLASH : inSet(k, cp);
        cur[j] = Math.min(prev[j - 1] + (same ? 0 : 1), prev[j] + 1, cur[j - 1] + 1);
      }
    }
    prev = cur;
  }
  return prev[text.length];
}
