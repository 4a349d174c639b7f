/**
 * The miner's last step (issue #23, item 4): clusters that Drain's tree keeps apart but whose templates
 * say they are one event are merged, as a function of the clusters alone (so every pass over the same
 * lines gives the same merge, and a restored miner the same as the one saved):
 *
 * - **Overlap.** Two clusters of the same message length where a line of one could match the other's
 *   template, the other having more literal text (at every position its word could be one the other's
 *   token matches, `<*>` standing for any run of characters, and the same for the spaces between), are
 *   one template: otherwise a line would match a template more literal than the one it is counted under,
 *   and a template's text would not tell which lines it counts (a general template and a specific one
 *   both matching; two templates with `<*>` in different places, lnav's `w3c_big`). A cluster with no
 *   literal message token left starts no such merge (it would take every line of its length). Not seen:
 *   templates of different token counts (a `<*>` can span spaces), and a masked part that is not a
 *   number (a hex id, a path: a masked token is tried with `0` for each `<*>`).
 * - **A varying word.** Drain sends a line down its tree by its message's first words, so lines that
 *   differ only in such a word (a program: `chrome.exe - … open through proxy …`, `Dropbox.exe - …`) never
 *   meet. Clusters of the same length, with the same tree words but at one position, and similar
 *   elsewhere (Drain's similarity over the other positions at least `similarity`, no pair of tokens
 *   naming different things) are one template when that position takes at least `variants` different
 *   words among them: a word that takes many values is data; two or three (`Accepted` / `Failed`) name
 *   different events. `variants` is chosen by leave-one-out with the other parameters
 *   (`bench/grouping_accuracy.ts`).
 *
 * Both are applied until nothing changes, at most {@linkcode ROUNDS} rounds. Cost: per round, each cluster's tokens once into an index and
 * its candidates compared (those with its rarest word there, or null or a `<*>` there); at most
 * {@linkcode GROUPS_TRIED} groups tried per cluster for a varying word.
 *
 * @module
 */

/** The text of a token masked whole (a token that varies in its cluster is null; both render `<*>`). */
const WILD = "<*>";

/** The most rounds of merging (each round merges, or the merge is done). */
const ROUNDS = 8;

/** The most groups a cluster is compared with when looking for a varying word's group. */
const GROUPS_TRIED = 64;

/** What the merge reads of a cluster (as the miner holds it: see `SnapshotCluster`). */
export interface MergeInput {
  /** Header fields among `tokens`, or -1 when its lines' headers differ in their field count. */
  h: number;
  /** Masked text per token, null where its lines differ. */
  tokens: readonly (string | null)[];
  /** Whitespace before each token and after the last, null where its lines differ. */
  seps: readonly (string | null)[];
}

/** A merged group's template: as {@linkcode MergeInput}, the join of its clusters. */
export interface Joined {
  h: number;
  tokens: (string | null)[];
  seps: (string | null)[];
}

/** The merge's parameters. */
export interface MergeOptions {
  /** Drain's similarity threshold (the miner's). */
  similarity: number;
  /** How many first literal message words the tree keys on (the miner's depth − 2). */
  prefix: number;
  /** The least number of different words at one position that make it a variable (≥ 2; Infinity: never). */
  variants: number;
  /** Whether two tokens name different things (the miner's rule: never in one template). */
  distinct: (a: string, b: string) => boolean;
}

/** The merge: per cluster its group's representative (a cluster index), and each representative's join. */
export interface Merged {
  rep: Int32Array;
  joined: Map<number, Joined>;
}

/** The message's length of a cluster. */
function msgLen(c: MergeInput): number {
  return c.tokens.length - Math.max(c.h, 0);
}

/** A copy of a cluster as a join. */
function copy(c: MergeInput): Joined {
  return { h: c.h, tokens: [...c.tokens], seps: [...c.seps] };
}

/** The join of two clusters of the same message length: where they differ, null. */
function join(a: Joined, b: Joined): Joined {
  const L = msgLen(a), ah = Math.max(a.h, 0), bh = Math.max(b.h, 0);
  if (a.h === b.h) {
    return {
      h: a.h,
      tokens: a.tokens.map((t, i) => (t === b.tokens[i] ? t : null)),
      seps: a.seps.map((s, i) => (s === b.seps[i] ? s : null)),
    };
  }
  const tokens: (string | null)[] = [], seps: (string | null)[] = [];
  for (let i = 0; i < L; i++) {
    const t = a.tokens[ah + i];
    tokens.push(t === b.tokens[bh + i] ? t : null);
  }
  for (let i = 0; i <= L; i++) {
    const s = a.seps[ah + i];
    seps.push(s === b.seps[bh + i] ? s : null);
  }
  return { h: -1, tokens, seps };
}

/** Whether `text` matches `glob` with each `<*>` standing for any run of characters (leftmost placement). */
function globMatch(glob: string, text: string): boolean {
  const parts = glob.split(WILD);
  const first = parts[0], last = parts[parts.length - 1];
  if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last)) {
    return false;
  }
  let at = first.length;
  const end = text.length - last.length;
  for (let k = 1; k < parts.length - 1; k++) {
    const f = text.indexOf(parts[k], at);
    if (f < 0 || f + parts[k].length > end) return false;
    at = f + parts[k].length;
  }
  return true;
}

/**
 * Whether a line of a cluster whose token here is `a` could hold a word that the template text of a
 * cluster whose token here is `b` matches there (`<*>` any run of characters): so a line counted under
 * one could match the other's template. null (its lines differ there) holds any word; a masked token is
 * tried as its parts with `0` for each `<*>` (a masked part held digits: `a<*>` is `a0`, which `a<*>x<*>`
 * does not match; a hex id or a path masked whole is not tried as such).
 */
function couldMatch(a: string | null, b: string | null): boolean {
  if (a === null || b === null || a === b) return true;
  return b.includes(WILD) && globMatch(b, a.replaceAll(WILD, "0"));
}

/** Whether at every position a line of `a` could hold what `b`'s template matches (same message length). */
function linesOfMatch(a: Joined, b: Joined): boolean {
  const L = msgLen(a), ah = Math.max(a.h, 0), bh = Math.max(b.h, 0);
  if (a.h >= 0 && b.h >= 0) {
    if (a.h !== b.h) return false;
    for (let i = 0; i < a.h; i++) {
      if (!couldMatch(a.tokens[i], b.tokens[i])) return false;
      const s = a.seps[i], t = b.seps[i];
      if (s !== t && s !== null && t !== null) return false;
    }
  }
  for (let i = 0; i < L; i++) if (!couldMatch(a.tokens[ah + i], b.tokens[bh + i])) return false;
  for (let i = 1; i <= L; i++) {
    const s = a.seps[ah + i], t = b.seps[bh + i];
    if (s !== t && s !== null && t !== null) return false;
  }
  return true;
}

/** A template's literal text's length: its characters outside `<*>`. */
function literal(j: Joined): number {
  let n = 0;
  for (const t of j.tokens) if (t !== null) n += t.length - (t.split(WILD).length - 1) * WILD.length;
  for (const t of j.seps) if (t !== null) n += t.length;
  return n;
}

/**
 * Whether a line of one of two clusters (same message length) could match the other's template when
 * that one has more literal text (the line would then match a template more literal than its own).
 */
function meet(a: Joined, b: Joined): boolean {
  const la = literal(a), lb = literal(b);
  return (lb > la && linesOfMatch(a, b)) || (la > lb && linesOfMatch(b, a));
}

/** Union-find over cluster indexes, each root keeping its group's join. */
class Groups {
  readonly rep: Int32Array;
  readonly joined = new Map<number, Joined>();
  constructor(all: readonly MergeInput[]) {
    this.rep = new Int32Array(all.length).map((_, i) => i);
    all.forEach((c, i) => this.joined.set(i, copy(c)));
  }
  find(i: number): number {
    const rep = this.rep;
    while (rep[i] !== i) i = rep[i] = rep[rep[i]];
    return i;
  }
  /** Merges the groups of i and j (the smaller index is the root); true when they were apart. */
  union(i: number, j: number): boolean {
    let a = this.find(i), b = this.find(j);
    if (a === b) return false;
    if (b < a) [a, b] = [b, a];
    this.rep[b] = a;
    this.joined.set(a, join(this.joined.get(a)!, this.joined.get(b)!));
    this.joined.delete(b);
    return true;
  }
}

/**
 * Merges clusters that are one template (see the module's doc).
 *
 * @param all The clusters, by index.
 * @param o The parameters.
 * @returns Each cluster's group and each group's join.
 */
export function mergeClusters(all: readonly MergeInput[], o: MergeOptions): Merged {
  const g = new Groups(all);
  for (let round = 0; round < ROUNDS; round++) {
    const a = mergeOverlaps(g), b = o.variants === Infinity ? false : mergeVariants(g, o);
    if (!a && !b) break;
  }
  for (let i = 0; i < all.length; i++) g.find(i);
  return { rep: g.rep, joined: g.joined };
}

/** One round of the overlap rule; true when it merged. */
function mergeOverlaps(g: Groups): boolean {
  // Per message length: the index (position, token) → groups, and per position the groups with null there.
  const byLen = new Map<number, number[]>();
  for (const [r, j] of g.joined) {
    const L = msgLen(j);
    const l = byLen.get(L);
    if (l === undefined) byLen.set(L, [r]);
    else l.push(r);
  }
  let merged = false;
  for (const [L, roots] of byLen) {
    if (roots.length < 2) continue;
    const post = new Map<string, number[]>(), nulls: number[][] = Array.from({ length: L }, () => []);
    const globs: number[][] = Array.from({ length: L }, () => []);
    for (const r of roots) {
      const j = g.joined.get(r)!, h = Math.max(j.h, 0);
      for (let i = 0; i < L; i++) {
        const t = j.tokens[h + i];
        if (t === null) nulls[i].push(r);
        else if (t.includes(WILD)) globs[i].push(r);
        else {
          const k = `${i}\u0000${t}`, l = post.get(k);
          if (l === undefined) post.set(k, [r]);
          else l.push(r);
        }
      }
    }
    for (const r of roots) {
      if (g.find(r) !== r) continue;
      const j = g.joined.get(r)!, h = Math.max(j.h, 0);
      // The position of a word (no `<*>`) with the fewest candidates: the groups with that word there,
      // with null there, or with a token holding `<*>` (which may match the word); with no word, every
      // group of the length; with no literal token at all, none (it would take every line of its length).
      let best: number[] | null = null, bestN = Infinity, literal = false;
      for (let i = 0; i < L; i++) {
        const t = j.tokens[h + i];
        if (t === null) continue;
        literal = true;
        if (t.includes(WILD)) continue;
        const p = post.get(`${i}\u0000${t}`)!;
        const n = p.length + nulls[i].length + globs[i].length;
        if (n < bestN) bestN = n, best = [...p, ...nulls[i], ...globs[i]];
      }
      if (!literal) continue;
      best ??= roots;
      for (const s of best) {
        const rs = g.find(s), rr = g.find(r);
        if (rs === rr) continue;
        if (meet(g.joined.get(rr)!, g.joined.get(rs)!) && g.union(rr, rs)) merged = true;
      }
    }
  }
  return merged;
}

/** The positions (in the message) of the first `prefix` literal words free of `<*>`: the tree's words. */
function treeWords(j: Joined, prefix: number): number[] {
  const h = Math.max(j.h, 0), out: number[] = [];
  for (let i = h; i < j.tokens.length && out.length < prefix; i++) {
    const t = j.tokens[i];
    if (t !== null && !t.includes(WILD)) out.push(i - h);
  }
  return out;
}

/**
 * Drain's similarity of two messages leaving out position p; -1 when a pair names different things or
 * they share no literal word there.
 */
function simWithout(a: Joined, b: Joined, p: number, distinct: MergeOptions["distinct"]): number {
  const L = msgLen(a), ah = Math.max(a.h, 0), bh = Math.max(b.h, 0);
  let same = 0, n = 0;
  for (let i = 0; i < L; i++) {
    if (i === p) continue;
    const x = a.tokens[ah + i], y = b.tokens[bh + i];
    if ((x === WILD || x === null) && (y === WILD || y === null)) continue;
    n++;
    if (x === null || y === null) continue;
    if (x === y) same++;
    else if (distinct(x, y)) return -1;
  }
  // Nothing else to compare (a message of one word, or of `<*>` but there): not alike.
  return same === 0 ? -1 : same / n;
}

/** One round of the varying-word rule; true when it merged. */
function mergeVariants(g: Groups, o: MergeOptions): boolean {
  // Buckets: the message's length, the tree words' positions and words but one (the one at p).
  const buckets = new Map<string, { p: number; roots: number[] }>();
  for (const [r, j] of g.joined) {
    const words = treeWords(j, o.prefix), h = Math.max(j.h, 0);
    for (let w = 0; w < words.length; w++) {
      const key = [msgLen(j), ...words, ...words.map((q, k) => (k === w ? "" : j.tokens[h + q]))].join(
        "\u0000",
      );
      const b = buckets.get(key);
      if (b === undefined) buckets.set(key, { p: words[w], roots: [r] });
      else b.roots.push(r);
    }
  }
  let merged = false;
  for (const { p, roots } of buckets.values()) {
    if (roots.length < o.variants) continue;
    // Groups of similar clusters (greedy, in index order); each keeps its join and its words at p.
    const groups: { join: Joined; members: number[]; words: Set<string> }[] = [];
    for (const r of roots) {
      const j = g.joined.get(r);
      if (j === undefined) continue; // merged earlier in this round
      const word = j.tokens[Math.max(j.h, 0) + p]!;
      let home = null;
      for (let k = 0; k < groups.length && k < GROUPS_TRIED; k++) {
        if (simWithout(groups[k].join, j, p, o.distinct) >= o.similarity) {
          home = groups[k];
          break;
        }
      }
      if (home === null) groups.push({ join: j, members: [r], words: new Set([word]) });
      else home.join = join(home.join, j), home.members.push(r), home.words.add(word);
    }
    for (const gr of groups) {
      if (gr.words.size < o.variants) continue;
      for (const m of gr.members.slice(1)) if (g.union(gr.members[0], m)) merged = true;
    }
  }
  return merged;
}
