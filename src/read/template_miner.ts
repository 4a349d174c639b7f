/**
 * A log template miner (groundwork for issue #13, `log_patterns`): groups lines by the event that wrote
 * them and gives each group a template, the line with each variable part replaced by `<*>`.
 *
 * The grouping follows Drain (He, Zhu, Zheng, Lyu, "Drain: An Online Log Parsing Approach with Fixed
 * Depth Tree", ICWS 2017) on the message, the header being set aside as log parsers do (Loghub's
 * benchmark parses the header with a format per log; here one rule for all, {@linkcode header}): a
 * line's tokens (runs of non-space) are masked, then the line goes down a fixed-depth tree, first by its
 * message's token count, then by the message's first `depth − 2` masked tokens that hold no digit and no
 * mask, and in that leaf joins the template most similar to it when the similarity (Drain's `simSeq`:
 * equal tokens over the tokens, here over the message, leaving out the positions masked whole in both)
 * is at least `similarity`, and no pair of tokens names different things ({@linkcode distinct}: other
 * keys of `key=value`, values of other kinds, other constants' names); a position where they differ
 * becomes `<*>`. Otherwise the line starts a template of its own.
 *
 * Adapted as issue #13 asks:
 * - The template is the whole line, header included; its literal parts are the exact characters of the
 *   lines (double and trailing spaces too): where members differ in a token or in the spaces between two
 *   tokens, that part is `<*>`, so every member matches its template with `<*>` standing for any run of
 *   characters (possibly empty).
 * - Masking before grouping ({@linkcode maskToken}): the tokens every log parser masks (Zhu et al.,
 *   "Tools and Benchmarks for Automated Log Parsing", ICSE-SEIP 2019, the preprocessing regexes of
 *   their benchmark): UUIDs, IPv4 (and port), IPv6, hex ids, block ids, paths holding a digit, numbers;
 *   a token with digits and no letter (a time, a date, an address) whole; and dates' words (day and
 *   month names among the first tokens, or beside a masked token or another such name).
 * - Headers, per log ({@linkcode learnHeader}): the layout of the header is learned from the log's first
 *   lines (the leading fields whose kind most lines agree on: values, levels, bracketed groups, the words
 *   between them, up to a tag), however many fields; a line that does not fit it (a continuation) gets
 *   the header its own fields give ({@linkcode header}). A bracketed header field with spaces (a thread
 *   `[IPC Server handler 5 on 62270]`) is one field; members whose headers differ in their field count
 *   share a template whose header is `<*>`.
 * - After mining (`template_merge.ts`, a function of the clusters, so every pass and a restored miner
 *   agree): clusters one line could match both are one template (no line matches two templates), and
 *   clusters alike but in one of the tree's words, which takes at least `variants` values among them, are
 *   one template with `<*>` there (`chrome.exe - …`, `Dropbox.exe - …`). {@linkcode TemplateMiner.text}
 *   and {@linkcode TemplateMiner.id} give a cluster's merged template.
 * - Bounded memory: at most `maxTemplates` templates; a line that fits none once the cap is reached is
 *   counted in {@linkcode TemplateMiner.otherLines}, never dropped silently, and from then on the tree
 *   does not grow. What a miner holds, at worst: per cluster its first line (the example), that line's
 *   masked tokens and whitespace (no longer than the line) and two arrays of one pointer per token, so
 *   about 3 × the line's size plus 16 bytes per token; the tree, at most `depth − 1` nodes per cluster;
 *   the masking cache, {@linkcode MASK_CACHE_SLOTS} shapes of at most {@linkcode MASK_CACHE_TOKEN} code
 *   units and their masks (under 2.5 MB); the scan's buffers, 9 bytes and two pointers per token of the
 *   longest line; a leaf of {@linkcode INDEX_AT} clusters or more, its index, 11–22 bytes per literal
 *   token of its clusters' messages ({@linkcode Postings}). With the default cap of 5000 and lines of at
 *   most L characters, that is about 5000 × (3 × 2L + 8L) bytes for the clusters (two-byte strings; a
 *   line of one-character tokens has L/2 tokens), e.g. 70 MB for L = 1000 (47 MB measured with one-byte
 *   text) and 7 MB for lines of 100 characters, and at most 5000 × 11L bytes more for the indexes (a
 *   token of one character and its space are 2 characters); measured on 5000 all-different lines of
 *   140 random words (1000 characters), 28.8 MiB without the indexes and 36.4 MiB with them, and
 *   2.8 MiB and 3.8 MiB for lines of 7 words (50 characters); the caller bounds L.
 * - Speed on lines that are all different: such lines do not join, so their leaf (the `<*>` one past
 *   {@linkcode MAX_CHILDREN} first words) fills with thousands of clusters, and trying each made a line
 *   cost thousands of comparisons (1 M lines of 7 random words took minutes); a leaf's index gives the
 *   few clusters that can reach st (the same one is chosen: {@linkcode TemplateMiner.probe}), and the
 *   tree's children are found by an integer hash (V8 hashes each new string once, ~200 ns a token).
 *
 * @module
 */

import { type Joined, mergeClusters } from "./template_merge.ts";

/** One template and the lines counted under it. */
export interface Template {
  /**
   * Stable id: 16 hex digits of a 64-bit FNV-1a hash of {@linkcode Template.template} (UTF-16 code units),
   * so the same template text has the same id in any run. Computed from the final text: a template's
   * text may gain `<*>` as lines arrive, and its id follows it.
   */
  id: string;
  /** The line with each variable part replaced by `<*>`; literal parts are the lines' exact characters. */
  template: string;
  /** Lines counted under it. */
  count: number;
  /** The first line's number (1-based). */
  firstLine: number;
  /** The last line's number (1-based). */
  lastLine: number;
  /** The first line's text. */
  example: string;
}

/**
 * The defaults. `similarity` and `variants` are chosen by leave-one-out, not by the best fit on the seven
 * Loghub samples (issue #23): the rule "the pair of the grid (st 0.3–0.9 by 0.05 × variants 2, 3, 4, 5, 6,
 * 8, 12, 16) with the best mean GA on the logs at hand, ties to the smaller variants, then the smaller st"
 * picks, on each six of the seven, the pair scored on the seventh; that gives a mean GA of 0.955 on the
 * log left out (least 0.806, Linux, whose best GA over the grid is 0.813), and it picks st 0.6 with
 * variants 12 in five of the seven folds (variants 6 when Linux is left out, st 0.55 when Zookeeper is)
 * and on all seven, so that is the default. Fewer variants merge Linux's `<daemon> startup succeeded`
 * lines, which Loghub labels one event per daemon; 2 merges OpenSSH's `Accepted`/`Failed` (0.73). The
 * depth is Drain's 4 (He et al. 2017), not chosen: with depth 3–6 in the grid the six logs' choice swings
 * with one log and the leave-one-out mean is 0.931. The table: `deno run --allow-read --allow-run
 * --allow-env --allow-write bench/grouping_accuracy.ts` (bench part `ga`).
 */
const DEFAULTS = { maxTemplates: 5000, similarity: 0.6, depth: 4, variants: 12 } as const;

/** The most children a tree node keeps before further first tokens share its `<*>` branch (Drain's maxChild). */
const MAX_CHILDREN = 100;

const WILD = "<*>";

/**
 * The masking rules, tried left to right at each place of a token; each match becomes `<*>`.
 * UUID; IPv4 with an optional port; IPv6 (two or more colons between hex groups, at least one hex
 * letter or `::`); block ids (`blk_-123`); `0x` hex; hex ids of 8 or more hex digits holding a digit;
 * paths holding a digit; numbers (signed, decimals, and the digit groups of times and dates).
 */
const MASK = new RegExp(
  [
    String.raw`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`,
    String.raw`(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?![\w.])`,
    String
      .raw`(?<![\w:])(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{0,4}(?![\w:])(?=[^\w]|$)(?<=[a-fA-F:][0-9a-fA-F]{0,4})`,
    String.raw`blk_-?\d+`,
    String.raw`0[xX][0-9a-fA-F]+`,
    String.raw`(?<![\w])(?=[a-fA-F]*\d)[0-9a-fA-F]{8,}(?!\w)`,
    String.raw`(?:/[\w.\-]*)*/[\w.\-]*\d[\w.\-]*(?:/[\w.\-]*)*`,
    String.raw`[-+]?\d+(?:[.,]\d+)*`,
  ].join("|"),
  "g",
);

/** Day and month names, masked among a line's first tokens (the header's timestamp). */
const DATE_WORD = /^\[?(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\]?,?$/;
/** The day and month names as `c0 << 16 | c1 << 8 | c2` of their code units. */
const DATE_CODES = new Set(
  "Mon Tue Wed Thu Fri Sat Sun Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ").map((w) =>
    w.charCodeAt(0) << 16 | w.charCodeAt(1) << 8 | w.charCodeAt(2)
  ),
);

/** {@linkcode DATE_WORD}`.test(t)`, without the regex for the words that cannot match. */
function isDateWord(t: string): boolean {
  const n = t.length;
  if (n < 3 || n > 6) return false;
  const o = t.charCodeAt(0) === 91 ? 1 : 0;
  return n - o >= 3 &&
    DATE_CODES.has(t.charCodeAt(o) << 16 | t.charCodeAt(o + 1) << 8 | t.charCodeAt(o + 2)) &&
    DATE_WORD.test(t);
}

/** How many first tokens may hold the header's timestamp words. */
const HEADER_TOKENS = 4;

/**
 * A token masked: a token holding a digit and no letter (a number, time, date, address: `18:01:47,978`,
 * `/10.10.34.11:3888`) becomes `<*>` whole; otherwise each part matching a masking rule is replaced by
 * `<*>`, runs of `<*>` joined by nothing else folded into one (`sshd[24200]:` → `sshd[<*>]:`).
 *
 * @param token One token (no whitespace).
 * @param index Its place in the line (0-based); the first few may be a header's day or month name.
 * @returns The masked token.
 */
export function maskToken(token: string, index: number): string {
  if (index < HEADER_TOKENS && DATE_WORD.test(token)) return WILD;
  if (!/\d/.test(token)) return token;
  if (!/[A-Za-z\u0080-\uffff]/.test(token)) {
    // A number's punctuation stays (`42,` → `<*>,`, `+0000]` → `<*>]`): the template reads as the line.
    const m = /^([(\["'{]*)(.*?)([)\]"'},;:.]*)$/.exec(token)!;
    return m[2] === "" ? WILD : `${m[1]}${WILD}${m[3]}`;
  }
  return token.replace(MASK, WILD).replaceAll("<*><*>", WILD);
}

/**
 * A cluster: what a snapshot saves of it ({@linkcode SnapshotCluster}: its header's field count, tokens
 * — masked text, or null for `<*>` —, the spaces between them, its counts and example), and its rendered
 * text and id, kept until a line widens it.
 */
interface Cluster extends SnapshotCluster {
  /** The rendered text, or null when it must be rendered again. */
  text: string | null;
  /** The id of the current text, or null when it must be computed again. */
  id: string | null;
}

/**
 * A tree node: children by key (a first word, or `<*>`), the clusters (indexes) whose keys end here, and,
 * once they are {@linkcode INDEX_AT} or more, their index.
 */
interface Node {
  /** The key its parent holds it by ("" for a root). */
  key: string;
  /** The children by key, in insertion order (what a snapshot saves). */
  kids: Map<string, Node>;
  /**
   * The same children by {@linkcode tokenHash} of their keys (several under one hash as an array), for
   * {@linkcode kidOf}: a map keyed by a small integer looks a new string up without V8 hashing it.
   */
  hashed: Map<number, Node | Node[]>;
  leaf: number[];
  /**
   * The leaf's index ({@linkcode Postings}): {@linkcode tokenHash} of each literal message token (not
   * null, not `<*>`) and its position → the places in `leaf` of the clusters holding it there, ascending;
   * null until the leaf holds {@linkcode INDEX_AT} clusters (built from their tokens
   * then, or on a restored miner's first line here), never saved. A posting may hold more than the
   * clusters with that token there (two keys' hashes alike, or a token that later became `<*>`): a
   * superset is enough, each candidate being scored.
   */
  index: Postings | null;
}

/**
 * The clusters a leaf holds before its index is built: below it, trying each cluster costs less than
 * looking a line's tokens up (Loghub's leaves hold a few each); the index serves leaves that grow with
 * lines that are all different, where trying each made a line cost thousands of comparisons.
 */
const INDEX_AT = 16;

/** {@linkcode TemplateMiner.probe}'s answer when the index cannot narrow the search (no literal token). */
const UNNARROWED = -2;

/** A probe key's factor: a posting's length × this + a place in the probe's list (below 2²⁴). */
const POSITIONS = 2 ** 24;

/**
 * A 30-bit FNV-1a of a token's UTF-16 code units after a seed (a leaf index's key of the token at
 * message position i has seed i): a small integer, so a map keyed by it looks a new string up without
 * V8 hashing the string, which cost ~200 ns a token (new strings have no hash yet).
 */
function tokenHash(t: string, i: number): number {
  let h = Math.imul(0x811c9dc5 ^ i, 0x01000193);
  for (let k = 0; k < t.length; k++) h = Math.imul(h ^ t.charCodeAt(k), 0x01000193);
  return (h ^ (h >>> 15)) & 0x3fffffff;
}

/** {@linkcode Postings.get}'s answer for a key with no posting. */
const ABSENT = 0x7fffffff;

/**
 * A leaf's index ({@linkcode Node.index}): an open-addressing hash table (linear probing, at most 3/4
 * full) from a key ({@linkcode tokenHash}, 30 bits) to the places in the leaf posted under it, one place
 * kept in the table itself and more in a list: in two Int32Arrays, 11–22 bytes a key (a `Map` took
 * about 40).
 */
class Postings {
  /** The keys by slot, -1 for an empty slot. */
  #keys = new Int32Array(16).fill(-1);
  /** Per slot: a place (≥ 0), or `~i` for `#lists[i]`. */
  #vals = new Int32Array(16);
  #size = 0;
  readonly #lists: number[][] = [];

  /** What is posted under a key: {@linkcode ABSENT}, a place (≥ 0), or `~i` for {@linkcode Postings.list}(i). */
  get(key: number): number {
    const keys = this.#keys, mask = keys.length - 1;
    for (let h = key & mask;; h = (h + 1) & mask) {
      const k = keys[h];
      if (k === key) return this.#vals[h];
      if (k === -1) return ABSENT;
    }
  }

  /** The places of list i (ascending), for a `get` that gave `~i`. */
  list(i: number): number[] {
    return this.#lists[i];
  }

  /** How many places a `get` answer holds. */
  count(v: number): number {
    return v === ABSENT ? 0 : v >= 0 ? 1 : this.#lists[~v].length;
  }

  /** Posts place p (not below any place posted before) under a key. */
  add(key: number, p: number): void {
    if ((this.#size + 1) * 4 > this.#keys.length * 3) this.#grow();
    const keys = this.#keys, mask = keys.length - 1;
    let h = key & mask;
    while (keys[h] !== -1 && keys[h] !== key) h = (h + 1) & mask;
    if (keys[h] === -1) {
      keys[h] = key, this.#vals[h] = p, this.#size++;
      return;
    }
    const v = this.#vals[h];
    if (v >= 0) {
      if (v !== p) this.#vals[h] = ~(this.#lists.push([v, p]) - 1);
    } else {
      const l = this.#lists[~v];
      if (l[l.length - 1] !== p) l.push(p);
    }
  }

  #grow(): void {
    const oldKeys = this.#keys, oldVals = this.#vals;
    const keys = new Int32Array(oldKeys.length * 2).fill(-1), vals = new Int32Array(keys.length);
    const mask = keys.length - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      const k = oldKeys[i];
      if (k === -1) continue;
      let h = k & mask;
      while (keys[h] !== -1) h = (h + 1) & mask;
      keys[h] = k, vals[h] = oldVals[i];
    }
    this.#keys = keys, this.#vals = vals;
  }
}

/** A leaf's index ({@linkcode Node.index}) from its clusters' tokens now, for messages of `len` tokens. */
function buildIndex(leaf: number[], all: Cluster[], len: number): Postings {
  const index = new Postings();
  for (let p = 0; p < leaf.length; p++) post(index, all[leaf[p]], p, len);
  return index;
}

/** Adds the literal message tokens of cluster c, at place p of its leaf, to the leaf's index. */
function post(index: Postings, c: SnapshotCluster, p: number, len: number): void {
  const ch = c.h < 0 ? 0 : c.h;
  for (let i = 0; i < len; i++) {
    const t = c.tokens[ch + i];
    if (t !== null && t !== WILD) index.add(tokenHash(t, i), p);
  }
}

/** The slots of a miner's mask cache ({@linkcode Scan}), a power of two; a new shape takes its slot. */
const MASK_CACHE_SLOTS = 4096;
/** The longest token (UTF-16 code units) the mask cache holds; longer ones are masked each time. */
const MASK_CACHE_TOKEN = 128;

/** Whether a code unit above 127 is whitespace for `\s` (ECMAScript's WhiteSpace and LineTerminator). */
function wideSpace(c: number): boolean {
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * A line split into tokens (runs of non-whitespace, as `\S+`) and masked, in reused buffers: the
 * miner's hot path allocates only the strings it keeps.
 *
 * Masking a token that holds a digit is cached by the token's shape (each digit as `1`, but a `0` before
 * `x`/`X` kept): no masking rule tells two digits apart except `0x`, so tokens of one shape (the times of
 * one format, say) mask alike. The cache holds at most {@linkcode MASK_CACHE_SLOTS} shapes of at most
 * {@linkcode MASK_CACHE_TOKEN} code units, two-way set-associative by a key of the shape's length and
 * ends ({@linkcode shapeKey}); a hit is a whole shape compared.
 */
class Scan {
  /** Token count. */
  n = 0;
  /** Masked text per token (the first n). */
  m: string[] = [];
  /** Whitespace before each token and after the last (the first `n + 1`). */
  s: string[] = [];
  /** Each token's start and end offsets in the line. */
  a = new Int32Array(64);
  b = new Int32Array(64);
  /** 1 when a day or month name is among the tokens past the first few (see {@linkcode dateWords}). */
  dates = 0;
  /** 1 where the token holds an ASCII digit. */
  d = new Uint8Array(64);
  /** The mask cache, direct-mapped by the shape's hash: each slot's shape and its masked text. */
  readonly #shapes: (string | undefined)[] = new Array(MASK_CACHE_SLOTS);
  readonly #masks: string[] = new Array(MASK_CACHE_SLOTS);

  /** Splits and masks a line (maskToken's rules, day and month names among the first tokens too). */
  scan(line: string): void {
    const L = line.length, m = this.m, s = this.s;
    let i = 0, n = 0;
    this.dates = 0;
    for (;;) {
      const s0 = i;
      while (i < L) {
        const c = line.charCodeAt(i);
        if (c === 32 || (c <= 13 && c >= 9) || (c > 127 && wideSpace(c))) i++;
        else break;
      }
      s[n] = i === s0 ? "" : i - s0 === 1 && line.charCodeAt(s0) === 32 ? " " : line.slice(s0, i);
      if (i >= L) break;
      if (n === this.a.length) this.#grow();
      const t0 = i;
      let dig = 0, letter = 0;
      while (i < L) {
        const c = line.charCodeAt(i);
        if (c > 32) {
          if (c > 127) {
            if (wideSpace(c)) break;
            letter = 1;
          } else if (c <= 57 && c >= 48) dig = 1;
          else if ((c | 32) >= 97 && (c | 32) <= 122) letter = 1;
          i++;
        } else if (c === 32 || (c <= 13 && c >= 9)) break;
        else i++;
      }
      this.a[n] = t0;
      this.b[n] = i;
      this.d[n] = dig;
      // Digits without letters (numbers, times, dates, addresses) are masked whole.
      if (dig === 1) m[n] = letter === 0 ? WILD : this.mask(line, t0, i);
      else {
        const t = line.slice(t0, i);
        if (isDateWord(t)) {
          if (n < HEADER_TOKENS) m[n] = WILD;
          else m[n] = t, this.dates = 1;
        } else m[n] = t;
      }
      n++;
    }
    // (The buffers keep their length: entries past n + 1 are stale; no reallocation line after line.)
    this.n = n;
  }

  /**
   * {@linkcode maskToken} of `line.slice(a, b)`, which holds a digit (so no day or month name), through
   * the cache; `hash` is the 32-bit FNV-1a of its shape.
   */
  mask(line: string, a: number, b: number): string {
    const cache = b - a <= MASK_CACHE_TOKEN;
    let slot = 0;
    if (cache) {
      slot = shapeKey(line, a, b) & (MASK_CACHE_SLOTS - 2);
      const shapes = this.#shapes;
      let shape = shapes[slot];
      if (shape !== undefined && sameShape(line, a, b, shape)) return this.#masks[slot];
      shape = shapes[slot + 1];
      if (shape !== undefined && sameShape(line, a, b, shape)) return this.#masks[slot + 1];
    }
    const tok = line.slice(a, b);
    const masked = maskToken(tok, HEADER_TOKENS);
    if (cache) {
      // The newest shape first; the one it displaces goes second, the second is dropped.
      this.#shapes[slot + 1] = this.#shapes[slot];
      this.#masks[slot + 1] = this.#masks[slot];
      this.#shapes[slot] = tok.replace(SHAPE, "1");
      this.#masks[slot] = masked;
    }
    return masked;
  }

  /**
   * Joins tokens i..j (and the whitespace between) into token i: a bracketed header field, masked as its
   * tokens were (no masking rule spans whitespace).
   */
  join(i: number, j: number): void {
    const m = this.m, s = this.s;
    let masked = m[i], dig = this.d[i];
    for (let k = i + 1; k <= j; k++) masked += s[k] + m[k], dig |= this.d[k];
    const k = j - i;
    m.splice(i, k + 1, masked);
    s.splice(i + 1, k);
    this.a.copyWithin(i + 1, j + 1, this.n);
    this.b.copyWithin(i, j, this.n);
    this.d.copyWithin(i + 1, j + 1, this.n);
    this.d[i] = dig;
    this.n -= k;
  }

  #grow(): void {
    const a = new Int32Array(this.a.length * 2), b = new Int32Array(a.length), d = new Uint8Array(a.length);
    a.set(this.a), b.set(this.b), d.set(this.d);
    this.a = a, this.b = b, this.d = d;
  }
}

/** The digits a shape writes as `1`: all but a `0` before `x` or `X`. */
const SHAPE = /[1-9]|0(?![xX])/g;

/**
 * A cache key of the shape of `line.slice(a, b)` from its length and its first and last three code
 * units, digits as one (a key picks a cache slot; {@linkcode sameShape} decides).
 */
function shapeKey(line: string, a: number, b: number): number {
  let h = Math.imul(b - a, 0x9e3779b1);
  const e = b - a < 6 ? b : a + 3;
  for (let k = a; k < e; k++) {
    const c = line.charCodeAt(k);
    h = Math.imul(h ^ (c <= 57 && c >= 48 ? 49 : c), 0x01000193);
  }
  for (let k = b - a < 6 ? b : b - 3; k < b; k++) {
    const c = line.charCodeAt(k);
    h = Math.imul(h ^ (c <= 57 && c >= 48 ? 49 : c), 0x01000193);
  }
  return (h ^ (h >>> 15)) >>> 0;
}

/** Whether `line.slice(a, b)` has the shape `shape` (see {@linkcode Scan}). */
function sameShape(line: string, a: number, b: number, shape: string): boolean {
  if (shape.length !== b - a) return false;
  for (let k = a, j = 0; k < b; k++, j++) {
    const c = line.charCodeAt(k), h = shape.charCodeAt(j);
    if (c === h) {
      // A "0" of the line in the shape is a "0" before x: equal text on, equal shape.
      continue;
    }
    // A digit other than that "0": the shape has "1" there, and no "x" after it if the line has "0".
    if (
      h !== 49 || c < 48 || c > 57 || (c === 48 && j + 1 < b - a && (shape.charCodeAt(j + 1) | 32) === 120)
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Masks day and month names beside a masked token or another such name (a date inside a message:
 * `at Sun Jul 10 03:55:15 2005`), in place.
 */
function dateWords(masked: string[], n: number): void {
  for (let i = 0; i < n; i++) {
    const t = masked[i];
    if (t === WILD || !isDateWord(t)) continue;
    let j = i;
    while (j + 1 < n && isDateWord(masked[j + 1])) j++;
    if ((i > 0 && masked[i - 1] === WILD) || (j + 1 < n && masked[j + 1] === WILD)) {
      for (let k = i; k <= j; k++) masked[k] = WILD;
    }
    i = j;
  }
}

/** An all-capitals word of two or more letters (and `_`): a constant's name, such as a state. */
const CAPS = /^[A-Z][A-Z_]+$/;

/**
 * Whether two unequal masked tokens name different things, so a line holding one never joins a cluster
 * holding the other, however similar the rest:
 * - `key=value` pairs with different keys (a key is a name, not data), or with the same key and values of
 *   different kinds: one holding a number (masked) and the other none (`tty=NODEVssh`, `tty=:0`); empty
 *   values are left out (a field left blank);
 * - two all-capitals words (constants' names: `Transitioned from NEW to SCHEDULED`).
 */
function distinct(a: string, b: string): boolean {
  const ka = a.indexOf("=");
  if (ka > 0) {
    const kb = b.indexOf("=");
    if (kb > 0) {
      if (ka !== kb || !a.startsWith(b.slice(0, kb))) return true;
      const va = a.slice(ka + 1), vb = b.slice(kb + 1);
      return va !== "" && vb !== "" && va.includes(WILD) !== vb.includes(WILD);
    }
  }
  return isCaps(a) && isCaps(b);
}

/** {@linkcode CAPS}`.test(t)`, without the regex for the words that cannot match. */
function isCaps(t: string): boolean {
  const c0 = t.charCodeAt(0), c1 = t.charCodeAt(1);
  return c0 >= 65 && c0 <= 90 && ((c1 >= 65 && c1 <= 90) || c1 === 95) && CAPS.test(t);
}

/** Level words (syslog severities, log4j/java.util.logging levels), bare or in brackets. */
const LEVEL =
  /^[[(<]?(?:trace|debug|info|notice|warn|warning|error|err|fatal|critical|crit|severe|alert|emerg|fine|finer|finest|config)[\])>]?:?$/i;
/** The most fields a header may have. */
const MAX_HEADER = 8;

/**
 * The header of a line (the fields a logging library writes before the message: timestamp, pid, level,
 * thread, logger or syslog host and tag), as log parsers separate it (Loghub's per-log formats, Zhu et
 * al. 2019; here one rule for all): from the start, fields that are
 * - timestamp-like (masked, no letter and no digit left: dates, times, pids, `-`; before any level);
 * - a level word ({@linkcode LEVEL});
 * - a bracketed group (`[AsyncDispatcher event handler]`, `[Sun Dec 04 04:47:44 2005]`), spaces inside
 *   and all, joined into one field here;
 * - a `-` or `|` separator, which ends the header once a level or bracket was seen;
 * - a word ending in `:` after such fields (a logger or a tag), which ends it; so does a host followed
 *   by it (syslog, RFC 3164: `host tag[pid]:`).
 * A line whose first field is none of these has no header.
 *
 * Joins each bracketed header group into one token in place ({@linkcode Scan.join}).
 *
 * @returns The header's field count.
 */
function header(line: string, sc: Scan): number {
  let h = 0, time = false, levelOrBracket = false;
  for (let i = 0; i < sc.n && i < MAX_HEADER; i++) {
    let bracket = false;
    if (line.charCodeAt(sc.a[i]) === 91 /* [ */) {
      // A bracketed group (with spaces: the tokens to its closing bracket joined).
      const j = bracketEnd(line, sc, i);
      if (j > i) sc.join(i, j);
      bracket = j >= i;
    }
    const m = sc.m[i], a = sc.a[i], b = sc.b[i];
    if (!levelOrBracket && noWord(m)) {
      time = true;
    } else if (bracket || isLevel(m)) {
      levelOrBracket = true;
    } else if (b - a === 1 && (m === "-" || m === "|")) {
      if (levelOrBracket) return i + 1;
    } else if (i > 0 && b - a > 1 && line.charCodeAt(b - 1) === 58 /* : */) {
      return i + 1;
    } else if (
      i > 0 && time && i + 1 < sc.n && sc.b[i + 1] - sc.a[i + 1] > 1 &&
      line.charCodeAt(sc.b[i + 1] - 1) === 58
    ) {
      return i + 2;
    } else {
      return h;
    }
    h = i + 1;
  }
  return h;
}

/**
 * A header field's kind, as {@linkcode learnHeader} reads it: a bracketed group, a level word, a tag or
 * logger (a word ending in `:`), a value (a token masked in whole or in part: a time, a date, a number, a
 * host or node with digits), a separator (no letter and no digit: `-`, `|`), or a word.
 */
type FieldKind = "bracket" | "level" | "tag" | "value" | "sep" | "word";

/** The kinds that mark a header by themselves (a word is header only between them). */
const MARKS: ReadonlySet<FieldKind> = new Set(["bracket", "level", "value"]);

/**
 * A log's header layout, learned from its first lines ({@linkcode learnHeader}): the number of header
 * fields, and each field's kind; a line whose fields have those kinds (a word field takes any) has that
 * header, any other line (a continuation, a line of another writer) the header its own fields give.
 */
export interface HeaderLayout {
  /** The header's field count (≥ 1). */
  h: number;
  /** Each field's kind (`h` entries). */
  kinds: readonly FieldKind[];
}

/** The fields {@linkcode learnHeader} looks at. */
const LAYOUT_FIELDS = 12;
/** The share of the sample's lines that must agree on a field's kind for it to be part of the layout. */
const LAYOUT_AGREE = 0.9;
/** The most lines of the sample {@linkcode learnHeader} reads. */
const LAYOUT_LINES = 200;

/** The kind of scanned token i (bracketed groups joined first, as {@linkcode header} does). */
function kindOf(line: string, sc: Scan, i: number): FieldKind {
  if (line.charCodeAt(sc.a[i]) === 91 /* [ */) {
    const j = bracketEnd(line, sc, i);
    if (j > i) sc.join(i, j);
    if (j >= i) return "bracket";
  }
  const m = sc.m[i];
  if (isLevel(m)) return "level";
  if (sc.b[i] - sc.a[i] > 1 && line.charCodeAt(sc.b[i] - 1) === 58 /* : */) return "tag";
  if (m.includes(WILD)) return "value";
  if (noWord(m)) return "sep";
  return "word";
}

/**
 * A log's header layout from a sample of its lines (issue #23: the leading fields whose values vary
 * across the file are the header, however many): field by field from the start, the kind the sample's
 * lines have there ({@linkcode LAYOUT_AGREE} of them at least, else a word; the layout ends at a field
 * fewer lines than that reach); the header
 * runs to the last field of a marking kind (a value, a level, a bracketed group) and a tag or separator
 * right after it, or to the first tag (a tag ends a header: `host sshd[12]:`, `dfs.DataNode:`); word fields
 * between such fields are header too (a host, a component). So `- 1117838570 2005.06.03 R02-M1 … RAS
 * KERNEL INFO` has nine fields, `[10.30 16:49:06]` one, `app.log 2024-01-01 12:00:00 INFO` four. Lines
 * that start with whitespace (continuations) are left out of the sample.
 *
 * @param lines The log's first lines (decoded; at most {@linkcode LAYOUT_LINES} are read).
 * @returns The layout, or null when no field has a marking kind in most lines (then each line's header
 *   is found alone).
 */
export function learnHeader(lines: readonly string[]): HeaderLayout | null {
  const sc = new Scan();
  const counts: Map<FieldKind, number>[] = Array.from({ length: LAYOUT_FIELDS }, () => new Map());
  let n = 0;
  for (const line of lines) {
    if (n >= LAYOUT_LINES) break;
    if (line === "" || /^\s/.test(line)) continue;
    n++;
    sc.scan(line);
    if (sc.dates === 1) dateWords(sc.m, sc.n);
    // The last field is the message's (a header has a message after it).
    for (let i = 0; i < LAYOUT_FIELDS && i < sc.n - 1; i++) {
      const k = kindOf(line, sc, i), c = counts[i];
      c.set(k, (c.get(k) ?? 0) + 1);
    }
  }
  const kinds: FieldKind[] = [];
  let h = 0;
  for (let i = 0; i < LAYOUT_FIELDS; i++) {
    let best: FieldKind | null = null, most = 0, all = 0;
    for (const [k, c] of counts[i]) {
      all += c;
      if (c > most) best = k, most = c;
    }
    // Fewer lines reach this field: the layout ends. A field whose kind the lines do not agree on (a flag
    // that is `-` or a word) is a word: header only between marking fields.
    if (best === null || all < LAYOUT_AGREE * n) break;
    if (most < LAYOUT_AGREE * n) best = "word";
    kinds.push(best);
    if (best === "tag") {
      h = i + 1;
      break;
    }
    if (MARKS.has(best)) h = i + 1;
    else if (best === "sep" && h === i) h = i + 1;
  }
  return h === 0 ? null : { h, kinds: kinds.slice(0, h) };
}

/**
 * {@linkcode learnHeader} of a log's first bytes (as `scan_source.ts` `logHead` gives them: whole lines),
 * decoded as UTF-8 (invalid bytes replaced), CR before LF dropped.
 *
 * @param head The bytes.
 * @returns The layout, or null.
 */
export function headerOfHead(head: Uint8Array): HeaderLayout | null {
  const lines = new TextDecoder().decode(head).split("\n", LAYOUT_LINES + 1);
  return learnHeader(lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l)));
}

/**
 * The header of a scanned line under its log's layout: the layout's field count when the line's first
 * fields have its kinds (a word field takes any) and a message follows, else {@linkcode header}'s.
 */
function headerOf(line: string, sc: Scan, layout: HeaderLayout): number {
  const h = layout.h;
  for (let i = 0; i < h; i++) {
    if (i >= sc.n - 1) return header(line, sc);
    const want = layout.kinds[i], got = kindOf(line, sc, i);
    if (want !== "word" && got !== want) return header(line, sc);
  }
  return sc.n > h ? h : header(line, sc);
}

/** {@linkcode LEVEL}`.test(t)`, without the regex for the words that cannot match. */
function isLevel(t: string): boolean {
  if (t.length < 3 || t.length > 12) return false;
  let c = t.charCodeAt(0);
  if (c === 91 || c === 40 || c === 60) c = t.charCodeAt(1);
  c |= 32;
  return (c === 116 || c === 100 || c === 105 || c === 110 || c === 119 || c === 101 || c === 102 ||
    c === 99 ||
    c === 115 || c === 97) && LEVEL.test(t);
}

/** Whether a masked token holds no letter and no digit (`\p{L}`, `\p{N}`). */
function noWord(m: string): boolean {
  for (let k = 0; k < m.length; k++) {
    const c = m.charCodeAt(k);
    if (c > 127) return !/[\p{L}\p{N}]/u.test(m);
    if ((c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122)) return false;
  }
  return true;
}

/**
 * Where the bracketed group opening token i ends: the index of the token whose last character closes
 * its `[`, or -1 when it closes inside a token or not within {@linkcode MAX_HEADER} tokens.
 */
function bracketEnd(line: string, sc: Scan, i: number): number {
  let d = 0;
  for (let j = i; j < sc.n && j < i + MAX_HEADER; j++) {
    const b = sc.b[j];
    for (let k = sc.a[j]; k < b; k++) {
      const c = line.charCodeAt(k);
      if (c === 91) d++;
      else if (c === 93 && --d === 0) return k === b - 1 ? j : -1;
    }
  }
  return -1;
}

/**
 * 64-bit FNV-1a of a string's UTF-16 code units, as 16 hex digits.
 *
 * @param s The text.
 * @returns The hash.
 */
export function templateId(s: string): string {
  let h1 = 0x811c9dc5 | 0, h2 = 0xcbf29ce4 | 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 16), 0x01000193);
  }
  return (h2 >>> 0).toString(16).padStart(8, "0") + (h1 >>> 0).toString(16).padStart(8, "0");
}

/**
 * A miner's whole state as plain JSON data ({@linkcode TemplateMiner.snapshot}, read back by
 * {@linkcode TemplateMiner.restore}). Its shape may change with `v`; treat it as opaque.
 */
export interface MinerSnapshot {
  /** The format's version: 2 (1, without `h`, was the first API's; its snapshots are refused). */
  v: 2;
  /** The options the miner ran with (`restore` uses them unless given others; `depth` must agree). */
  opts: { maxTemplates: number; similarity: number; depth: number; variants?: number | null };
  /** {@linkcode TemplateMiner.totalLines}. */
  totalLines: number;
  /** {@linkcode TemplateMiner.otherLines}. */
  otherLines: number;
  /** The clusters in creation order (index = cluster index). */
  clusters: SnapshotCluster[];
  /** The tree: [the message's token count, its root node] in the order the counts were first seen. */
  tree: [number, SnapshotNode][];
}

/** One cluster in a {@linkcode MinerSnapshot}. */
export interface SnapshotCluster {
  /**
   * How many of `tokens` are the header's fields; -1 when members' headers differ in their field count
   * (then `tokens` is the message alone, the header renders as `<*>`, and `seps[0]` is the whitespace
   * before the message).
   */
  h: number;
  /** Masked text per token (header fields, then the message's tokens); null where members differ (`<*>`). */
  tokens: (string | null)[];
  /** Whitespace before each token and after the last (`tokens.length + 1` entries); null where members differ. */
  seps: (string | null)[];
  /** Lines counted (≥ 1). */
  count: number;
  /** First line number (1-based). */
  firstLine: number;
  /** Last line number (1-based; may be below `firstLine` when one miner mines several logs). */
  lastLine: number;
  /** The first line's text. */
  example: string;
}

/** One tree node in a {@linkcode MinerSnapshot}: children in insertion order, and cluster indexes in leaf order. */
export interface SnapshotNode {
  /** [key, child] pairs in insertion order. */
  kids: [string, SnapshotNode][];
  /** Indexes into {@linkcode MinerSnapshot.clusters}, in the order the leaf holds them. */
  leaf: number[];
}

/** Options of {@linkcode TemplateMiner}. */
export interface MinerOptions {
  /** The most clusters held (default 5000); past it, unfitting lines are counted in `otherLines`. */
  maxTemplates?: number;
  /**
   * Drain's st, in [0, 1] (default 0.6, chosen by leave-one-out: see DEFAULTS): the least fraction of the
   * message's tokens a line must share with a cluster to join it.
   */
  similarity?: number;
  /**
   * Drain's tree depth (default 4, at least 3): the message's token count, then its first `depth − 2`
   * words (free of digits and masks).
   */
  depth?: number;
  /**
   * The clusters a leaf holds before it is searched through an index (default {@linkcode INDEX_AT}, at
   * least 1); `Infinity`: never, each cluster is tried (the search the index must agree with: the same
   * cluster for every line, `template_miner_test.ts`). Not saved in a snapshot: it changes no result.
   */
  indexAt?: number;
  /**
   * The least number of different words at one of the tree's word positions that makes that position a
   * variable across clusters otherwise alike (default in DEFAULTS, chosen by leave-one-out; at least 2,
   * Infinity: never): see `template_merge.ts`. Saved in a snapshot.
   */
  variants?: number;
}

function bad(what: string): never {
  throw new TypeError(`TemplateMiner.restore: malformed snapshot: ${what}`);
}

function isCount(x: unknown): x is number {
  return typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
}

/**
 * Mines templates from lines given one at a time, in Drain's way (see the module's doc).
 *
 * Clusters are numbered 0, 1, … in creation order; the number is stable for the miner's life (and across
 * {@linkcode TemplateMiner.snapshot} / {@linkcode TemplateMiner.restore}). A cluster's text may gain
 * `<*>` as lines arrive ({@linkcode TemplateMiner.text}); {@linkcode TemplateMiner.templates} gives the
 * texts now, two clusters whose texts are equal given as one template.
 */
export class TemplateMiner {
  readonly #max: number;
  readonly #st: number;
  readonly #depth: number;
  readonly #prefix: number;
  readonly #indexAt: number;
  readonly #variants: number;
  /** The clusters' merge ({@linkcode mergeClusters}) and each group's text and id; null when stale. */
  #merged: {
    rep: Int32Array;
    joined: Map<number, Joined>;
    text: Map<number, string>;
    id: Map<number, string>;
  } | null = null;
  /** The message's token count → the root node of that length. */
  readonly #root = new Map<number, Node>();
  #other = 0;
  #total = 0;
  readonly #all: Cluster[] = [];
  readonly #scan = new Scan();

  /**
   * @param opts The options ({@linkcode MinerOptions}); missing ones take the defaults.
   * @throws {RangeError} When an option is out of range (maxTemplates not a non-negative integer,
   *   similarity outside [0, 1], depth not an integer ≥ 3, indexAt not an integer ≥ 1 or Infinity).
   */
  constructor(opts: MinerOptions = {}) {
    const max = opts.maxTemplates ?? DEFAULTS.maxTemplates;
    const st = opts.similarity ?? DEFAULTS.similarity;
    const depth = opts.depth ?? DEFAULTS.depth;
    const indexAt = opts.indexAt ?? INDEX_AT;
    const variants = opts.variants ?? DEFAULTS.variants;
    if (!(variants === Infinity || (Number.isSafeInteger(variants) && variants >= 2))) {
      throw new RangeError(`variants must be an integer ≥ 2 or Infinity: ${variants}`);
    }
    if (!(indexAt === Infinity || (Number.isSafeInteger(indexAt) && indexAt >= 1))) {
      throw new RangeError(`indexAt must be an integer ≥ 1 or Infinity: ${indexAt}`);
    }
    if (!isCount(max)) throw new RangeError(`maxTemplates must be a non-negative integer: ${max}`);
    if (!(st >= 0 && st <= 1)) throw new RangeError(`similarity must be in [0, 1]: ${st}`);
    if (!Number.isSafeInteger(depth) || depth < 3) {
      throw new RangeError(`depth must be an integer ≥ 3: ${depth}`);
    }
    this.#max = max;
    this.#st = st;
    this.#depth = depth;
    this.#prefix = depth - 2;
    this.#indexAt = indexAt;
    this.#variants = variants;
  }

  /** Lines not counted under any cluster (the cap was reached and they fit none). */
  get otherLines(): number {
    return this.#other;
  }

  /** Lines given to {@linkcode TemplateMiner.add}. */
  get totalLines(): number {
    return this.#total;
  }

  /** Clusters so far (≤ maxTemplates). */
  get size(): number {
    return this.#all.length;
  }

  /**
   * The current template text of a cluster: its lines with each variable part `<*>`; it may gain `<*>`
   * as lines arrive.
   *
   * @param i A cluster index, 0 ≤ i < {@linkcode TemplateMiner.size}.
   * @throws {RangeError} For any other i.
   */
  text(i: number): string {
    this.#cluster(i);
    const m = this.#merge(), r = m.rep[i];
    let t = m.text.get(r);
    if (t === undefined) m.text.set(r, t = render(m.joined.get(r)!));
    return t;
  }

  /**
   * {@linkcode templateId} of {@linkcode TemplateMiner.text}(i), cached until the text changes.
   *
   * @param i A cluster index, 0 ≤ i < {@linkcode TemplateMiner.size}.
   * @throws {RangeError} For any other i.
   */
  id(i: number): string {
    this.#cluster(i);
    const m = this.#merge(), r = m.rep[i];
    let id = m.id.get(r);
    if (id === undefined) m.id.set(r, id = templateId(this.text(i)));
    return id;
  }

  /** The clusters' merge now ({@linkcode mergeClusters}), computed again after a line changed a cluster. */
  #merge(): {
    rep: Int32Array;
    joined: Map<number, Joined>;
    text: Map<number, string>;
    id: Map<number, string>;
  } {
    if (this.#merged !== null) return this.#merged;
    const m = mergeClusters(this.#all, {
      similarity: this.#st,
      prefix: this.#prefix,
      variants: this.#variants,
      distinct,
    });
    return this.#merged = { ...m, text: new Map(), id: new Map() };
  }

  #cluster(i: number): Cluster {
    const c = this.#all[i];
    if (c === undefined || !Number.isInteger(i)) {
      throw new RangeError(`no cluster ${i} (size ${this.#all.length})`);
    }
    return c;
  }

  /**
   * Counts one line.
   *
   * @param line Its text, decoded, without its line break.
   * @param lineNo Its line number, 1-based.
   * @param layout Its log's header layout ({@linkcode learnHeader} of the log's first lines), or null:
   *   the header is then found by the rules of one line alone.
   * @returns The index of the cluster it joined or started (0-based, creation order), or -1 when it was
   *   counted in {@linkcode TemplateMiner.otherLines}.
   */
  add(line: string, lineNo: number, layout: HeaderLayout | null = null): number {
    this.#total++;
    const sc = this.#scan;
    sc.scan(line);
    const masked = sc.m;
    if (sc.dates === 1) dateWords(masked, sc.n);
    const lh = layout === null ? header(line, sc) : headerOf(line, sc, layout);
    const len = sc.n - lh;
    // Once the cap is reached the tree stops growing: a line with no path can join no cluster.
    const full = this.#all.length >= this.#max;
    const node = this.#leafOf(sc, lh, len, full);
    if (node === null) return this.#other++, -1;
    const best = this.#best(node, masked, lh, len);
    if (best >= 0) {
      if (this.#widen(this.#all[best], masked, sc.s, lh)) this.#merged = null;
      this.#all[best].lastLine = lineNo;
      return best;
    }
    if (full) {
      this.#other++;
      return -1;
    }
    const i = this.#all.length;
    const c: Cluster = {
      h: lh,
      tokens: masked.slice(0, sc.n),
      seps: sc.s.slice(0, sc.n + 1),
      count: 1,
      firstLine: lineNo,
      lastLine: lineNo,
      example: line,
      text: null,
      id: null,
    };
    this.#all.push(c);
    this.#merged = null;
    node.leaf.push(i);
    if (node.index !== null) post(node.index, c, node.leaf.length - 1, len);
    return i;
  }

  /**
   * The leaf a scanned line goes to: the root of its message's token count, then a child per key (the
   * message's first `depth − 2` tokens free of digits and masks), past {@linkcode MAX_CHILDREN} the
   * `<*>` child; nodes made as needed, unless the miner is full (then null when one is missing).
   */
  #leafOf(sc: Scan, lh: number, len: number, full: boolean): Node | null {
    const masked = sc.m;
    let node: Node;
    const root = this.#root.get(len);
    if (root !== undefined) node = root;
    else if (full) return null;
    else this.#root.set(len, node = newNode(""));
    for (let i = lh, k = 0; i < sc.n && k < this.#prefix; i++) {
      let key = masked[i];
      // (Masking leaves no digit: every digit is in a masked part.)
      if (sc.d[i] === 1 || key === WILD || key.includes(WILD)) continue;
      k++;
      let next = kidOf(node, key);
      if (next === undefined) {
        if (node.kids.size >= MAX_CHILDREN && key !== WILD) key = WILD;
        next = kidOf(node, key);
        if (next === undefined) {
          if (full) return null;
          addKid(node, next = newNode(key));
        }
      }
      node = next;
    }
    return node;
  }

  /**
   * The cluster of the leaf a line joins: the most similar one, comparing messages (ties: more literal
   * tokens, then the earlier in the leaf), when its similarity is at least st; else -1. A leaf of
   * {@linkcode INDEX_AT} clusters or more is searched through its index ({@linkcode TemplateMiner.probe}),
   * which finds the same cluster; a smaller one, or a line the index cannot narrow, by trying each.
   */
  #best(node: Node, masked: string[], lh: number, len: number): number {
    const leaf = node.leaf;
    if (leaf.length >= this.#indexAt && this.#st > 0 && len < POSITIONS) {
      node.index ??= buildIndex(leaf, this.#all, len);
      const got = this.#probe(node, masked, lh, len);
      if (got !== UNNARROWED) return got;
    }
    let best = -1, bestSim = -1, bestLit = -1;
    for (let p = 0; p < leaf.length; p++) {
      const ci = leaf[p];
      const sim = this.#score(this.#all[ci], masked, lh, len);
      const lit = this.#lit;
      if (sim > bestSim || (sim === bestSim && lit > bestLit)) best = ci, bestSim = sim, bestLit = lit;
    }
    return best >= 0 && bestSim >= this.#st ? best : -1;
  }

  /** Literal tokens of the cluster last scored ({@linkcode TemplateMiner.score}'s second result). */
  #lit = 0;

  /**
   * Drain's simSeq of a line's message against a cluster's: equal tokens over the positions not masked
   * whole in both; -1 when a pair of tokens names different things ({@linkcode distinct}). Sets
   * `#lit` to the cluster's literal tokens among those positions (up to where a `distinct` pair stopped).
   */
  #score(c: Cluster, masked: string[], lh: number, len: number): number {
    const ch = c.h < 0 ? 0 : c.h;
    let same = 0, lit = 0, n = 0;
    for (let i = 0; i < len; i++) {
      const t = c.tokens[ch + i];
      const mt = masked[lh + i];
      if (mt === WILD && (t === WILD || t === null)) continue;
      n++;
      if (t === null) continue;
      lit++;
      if (t === mt) same++;
      else if (distinct(t, mt)) {
        this.#lit = lit;
        return -1;
      }
    }
    this.#lit = lit;
    return n === 0 ? 1 : same / n;
  }

  /**
   * Scratch of {@linkcode TemplateMiner.probe}: per literal position, its posting's length × 2²⁴ + its
   * place in `#posts`, which holds what the index posts under its key ({@linkcode Postings.get}).
   */
  #keys = new Float64Array(64);
  #posts = new Int32Array(64);
  /** Per cluster, the probe that last scored it (so a cluster in two postings is scored once). */
  #seen = new Uint32Array(64);
  #epoch = 0;

  /**
   * {@linkcode TemplateMiner.best} through a leaf's index, or {@linkcode UNNARROWED} for a line with no
   * literal token in its message. Exact: a cluster of similarity ≥ st > 0 shares a line's literal token
   * (at its position) in at least r of the line's k literal positions, r the least whole number with
   * r / k ≥ st (a similarity is same / n with same ≤ the shared tokens and n ≥ k, and a division is
   * monotonic), so it is in one at least of any k − r + 1 of those positions' postings: the shortest
   * k − r + 1 give every candidate, each scored as the linear search scores it, ties broken by the
   * leaf's order as there.
   */
  #probe(node: Node, masked: string[], lh: number, len: number): number {
    const index = node.index!, leaf = node.leaf;
    if (this.#keys.length < len) {
      this.#keys = new Float64Array(len * 2), this.#posts = new Int32Array(len * 2);
    }
    const keys = this.#keys, posts = this.#posts;
    let k = 0;
    for (let i = 0; i < len; i++) {
      const mt = masked[lh + i];
      if (mt === WILD) continue;
      const v = index.get(tokenHash(mt, i));
      keys[k] = index.count(v) * POSITIONS + k;
      posts[k++] = v;
    }
    if (k === 0) return UNNARROWED;
    let r = 1;
    while (r / k < this.#st) r++;
    const q = k - r + 1;
    if (q < k) keys.subarray(0, k).sort();
    if (this.#seen.length < this.#all.length) {
      const seen = new Uint32Array(Math.max(this.#all.length, this.#seen.length * 2));
      seen.set(this.#seen);
      this.#seen = seen;
    }
    const seen = this.#seen;
    if (++this.#epoch === 0x100000000) seen.fill(0), this.#epoch = 1;
    const epoch = this.#epoch;
    let best = -1, bestSim = -1, bestLit = -1, bestAt = -1;
    for (let j = 0; j < q; j++) {
      const v = posts[keys[j] % POSITIONS];
      if (v === ABSENT) continue;
      const list = v >= 0 ? null : index.list(~v);
      const n = list === null ? 1 : list.length;
      for (let e = 0; e < n; e++) {
        const p = list === null ? v : list[e];
        const ci = leaf[p];
        if (seen[ci] === epoch) continue;
        seen[ci] = epoch;
        const sim = this.#score(this.#all[ci], masked, lh, len);
        const lit = this.#lit;
        if (sim > bestSim || (sim === bestSim && (lit > bestLit || (lit === bestLit && p < bestAt)))) {
          best = ci, bestSim = sim, bestLit = lit, bestAt = p;
        }
      }
    }
    return best >= 0 && bestSim >= this.#st ? best : -1;
  }

  /**
   * A line joins cluster c: each token and separator where they differ becomes `<*>` (null), a header
   * of another field count the one `<*>` of the header; the count goes up.
   */
  #widen(c: Cluster, masked: string[], seps: string[], lh: number): boolean {
    let changed = false;
    if (c.h !== lh && c.h >= 0) {
      // Headers of different field counts: the header becomes one `<*>`.
      c.tokens.splice(0, c.h);
      c.seps.splice(0, c.h);
      c.h = -1;
      changed = true;
    }
    const off = c.h < 0 ? lh : 0;
    for (let i = 0; i < c.tokens.length; i++) {
      const t = c.tokens[i];
      if (t !== null && t !== masked[off + i]) c.tokens[i] = null, changed = true;
    }
    for (let i = 0; i < c.seps.length; i++) {
      const sp = c.seps[i];
      if (sp !== null && sp !== seps[off + i]) c.seps[i] = null, changed = true;
    }
    if (changed) c.text = c.id = null;
    c.count++;
    return changed;
  }

  /**
   * The templates, most frequent first (ties by first line). Clusters whose texts are equal are given as
   * one template (counts summed, the earliest first line and example, the latest last line).
   *
   * @returns The templates; their counts sum to {@linkcode TemplateMiner.totalLines} −
   *   {@linkcode TemplateMiner.otherLines}.
   */
  templates(): Template[] {
    const byText = new Map<string, Template>();
    for (let i = 0; i < this.#all.length; i++) {
      const c = this.#all[i];
      const text = this.text(i);
      const t = byText.get(text);
      if (t === undefined) {
        byText.set(text, {
          id: this.id(i),
          template: text,
          count: c.count,
          firstLine: c.firstLine,
          lastLine: c.lastLine,
          example: c.example,
        });
      } else {
        t.count += c.count;
        if (c.firstLine < t.firstLine) t.firstLine = c.firstLine, t.example = c.example;
        if (c.lastLine > t.lastLine) t.lastLine = c.lastLine;
      }
    }
    return [...byText.values()].sort((a, b) => b.count - a.count || a.firstLine - b.firstLine);
  }

  /**
   * The miner's whole state (clusters and tree) as plain JSON-serializable data, sharing nothing with
   * the miner (later adds do not change it).
   *
   * @returns The snapshot; {@linkcode TemplateMiner.restore} reads it back.
   */
  snapshot(): MinerSnapshot {
    const node = (n: Node): SnapshotNode => ({
      kids: [...n.kids].map(([k, v]) => [k, node(v)]),
      leaf: [...n.leaf],
    });
    return {
      v: 2,
      opts: {
        maxTemplates: this.#max,
        similarity: this.#st,
        depth: this.#depth,
        variants: this.#variants === Infinity ? null : this.#variants,
      },
      totalLines: this.#total,
      otherLines: this.#other,
      clusters: this.#all.map((c) => ({
        h: c.h,
        tokens: [...c.tokens],
        seps: [...c.seps],
        count: c.count,
        firstLine: c.firstLine,
        lastLine: c.lastLine,
        example: c.example,
      })),
      tree: [...this.#root].map(([n, r]) => [n, node(r)]),
    };
  }

  /**
   * A miner in exactly the state a snapshot saw: it goes on identically (same clusters in the same order,
   * same ties, same full nodes, same counts) as the miner the snapshot was taken of.
   *
   * @param s What {@linkcode TemplateMiner.snapshot} gave, possibly through JSON and a disk: every shape,
   *   size and index is checked.
   * @param opts Options; those missing are the snapshot's. `depth` must equal the snapshot's.
   * @returns The miner.
   * @throws {TypeError} When `s` is not a well-formed snapshot (wrong types, negative or inconsistent
   *   counts, an index out of range or not exactly once in the tree, a tree deeper than its depth, more
   *   clusters than maxTemplates, a depth differing from opts.depth).
   */
  static restore(s: unknown, opts: MinerOptions = {}): TemplateMiner {
    const o = rec(s, "snapshot");
    if (o.v !== 2) bad(`v is ${JSON.stringify(o.v)}, not 2`);
    const so = rec(o.opts, "opts");
    if (!isCount(so.maxTemplates)) bad("opts.maxTemplates");
    if (typeof so.similarity !== "number" || !(so.similarity >= 0 && so.similarity <= 1)) {
      bad("opts.similarity");
    }
    if (!isCount(so.depth) || so.depth < 3) bad("opts.depth");
    if (opts.depth !== undefined && opts.depth !== so.depth) bad(`depth ${so.depth} differs from opts.depth`);
    let m: TemplateMiner;
    try {
      m = new TemplateMiner({
        maxTemplates: opts.maxTemplates ?? so.maxTemplates,
        indexAt: opts.indexAt,
        similarity: opts.similarity ?? so.similarity,
        depth: so.depth,
        variants: opts.variants ?? (so.variants === null ? Infinity : so.variants as number | undefined),
      });
    } catch (e) {
      bad(String(e));
    }
    if (!isCount(o.totalLines) || !isCount(o.otherLines) || o.otherLines > o.totalLines) bad("line counts");
    if (!Array.isArray(o.clusters)) bad("clusters is not an array");
    if (o.clusters.length > m.#max) bad(`${o.clusters.length} clusters over maxTemplates ${m.#max}`);
    let sum = 0;
    for (const [i, x] of o.clusters.entries()) {
      const c = rec(x, `clusters[${i}]`);
      const tokens = c.tokens, seps = c.seps;
      if (!Array.isArray(tokens) || !tokens.every((t) => t === null || (typeof t === "string" && t !== ""))) {
        bad(`clusters[${i}].tokens`);
      }
      if (
        !Array.isArray(seps) || seps.length !== tokens.length + 1 ||
        !seps.every((t) => t === null || (typeof t === "string" && /^\s*$/.test(t)))
      ) bad(`clusters[${i}].seps`);
      if (!Number.isSafeInteger(c.h) || (c.h as number) < -1 || (c.h as number) > tokens.length) {
        bad(`clusters[${i}].h`);
      }
      if (!isCount(c.count) || c.count < 1) bad(`clusters[${i}].count`);
      // Each a line number; not ordered: one miner may mine several logs (a glob, a baseline), whose line
      // numbers each start at 1 (a trial: every cursor past the first log was refused).
      if (!isCount(c.firstLine) || !isCount(c.lastLine)) bad(`clusters[${i}] line numbers`);
      if (typeof c.example !== "string") bad(`clusters[${i}].example`);
      sum += c.count;
      m.#all.push({
        h: c.h as number,
        tokens: [...tokens],
        seps: [...seps],
        count: c.count,
        firstLine: c.firstLine,
        lastLine: c.lastLine,
        example: c.example,
        text: null,
        id: null,
      });
    }
    if (sum + o.otherLines !== o.totalLines) bad("cluster counts and otherLines do not sum to totalLines");
    m.#total = o.totalLines;
    m.#other = o.otherLines;
    if (!Array.isArray(o.tree)) bad("tree is not an array");
    const placed = new Uint8Array(m.#all.length);
    const node = (x: unknown, key: string, len: number, depth: number, where: string): Node => {
      const n = rec(x, where);
      if (!Array.isArray(n.kids) || !Array.isArray(n.leaf)) bad(`${where} kids/leaf`);
      if (depth > m.#prefix && n.kids.length > 0) bad(`${where} deeper than depth`);
      if (n.kids.length > MAX_CHILDREN + 1) bad(`${where} has too many children`);
      const out = newNode(key);
      for (const [j, kv] of n.kids.entries()) {
        if (!Array.isArray(kv) || kv.length !== 2 || typeof kv[0] !== "string" || kv[0] === "") {
          bad(`${where}.kids[${j}]`);
        }
        if (out.kids.has(kv[0])) bad(`${where} key ${JSON.stringify(kv[0])} twice`);
        addKid(out, node(kv[1], kv[0], len, depth + 1, `${where}.${kv[0]}`));
      }
      for (const ci of n.leaf) {
        if (!isCount(ci) || ci >= m.#all.length) bad(`${where} leaf index ${ci}`);
        if (placed[ci]) bad(`cluster ${ci} in the tree twice`);
        const c = m.#all[ci];
        if (c.tokens.length - Math.max(c.h, 0) !== len) bad(`cluster ${ci} under token count ${len}`);
        placed[ci] = 1;
      }
      out.leaf.push(...n.leaf);
      return out;
    };
    for (const [j, e] of o.tree.entries()) {
      if (!Array.isArray(e) || e.length !== 2 || !isCount(e[0])) bad(`tree[${j}]`);
      if (m.#root.has(e[0])) bad(`token count ${e[0]} twice`);
      m.#root.set(e[0], node(e[1], "", e[0], 1, `tree[${e[0]}]`));
    }
    if (!placed.every((p) => p === 1)) bad("a cluster is not in the tree");
    return m;
  }
}

function newNode(key: string): Node {
  return { key, kids: new Map(), hashed: new Map(), leaf: [], index: null };
}

/** The child of a node by key (through {@linkcode Node.hashed}), or undefined. */
function kidOf(node: Node, key: string): Node | undefined {
  const v = node.hashed.get(tokenHash(key, -1));
  if (v === undefined || !Array.isArray(v)) return v === undefined || v.key !== key ? undefined : v;
  for (const k of v) if (k.key === key) return k;
  return undefined;
}

/** Adds a child under its key (new to the node). */
function addKid(node: Node, kid: Node): void {
  node.kids.set(kid.key, kid);
  const h = tokenHash(kid.key, -1), v = node.hashed.get(h);
  if (v === undefined) node.hashed.set(h, kid);
  else if (Array.isArray(v)) v.push(kid);
  else node.hashed.set(h, [v, kid]);
}

function rec(x: unknown, where: string): Record<string, unknown> {
  if (typeof x !== "object" || x === null || Array.isArray(x)) bad(`${where} is not an object`);
  return x as Record<string, unknown>;
}

/** A cluster's text: separators and tokens in order, `<*>` for variable parts, runs of `<*>` folded. */
function render(c: Joined): string {
  let out = c.h < 0 ? WILD : "";
  for (let i = 0; i < c.tokens.length; i++) {
    out += c.seps[i] ?? WILD;
    out += c.tokens[i] ?? WILD;
  }
  out += c.seps[c.tokens.length] ?? WILD;
  while (out.includes("<*><*>")) out = out.replaceAll("<*><*>", WILD);
  return out;
}
