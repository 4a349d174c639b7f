/**
 * The search of a tree leaf for the cluster a line joins (`template_miner.ts`): Drain's most similar
 * cluster ({@linkcode LeafSearch.best}), by trying each, or, in a leaf of {@linkcode INDEX_AT} clusters or
 * more, through the leaf's index of literal tokens ({@linkcode Postings}), which finds the same one.
 *
 * @module
 */

import type { Cluster, SnapshotCluster } from "./template_cluster.ts";
import { distinct, WILD } from "./template_tokens.ts";
import { type Node, tokenHash } from "./template_tree.ts";
import { ABSENT, Postings } from "./leaf_index.ts";

export { Postings };

/**
 * The clusters a leaf holds before its index is built: below it, trying each cluster costs less than
 * looking a line's tokens up (Loghub's leaves hold a few each); the index serves leaves that grow with
 * lines that are all different, where trying each made a line cost thousands of comparisons.
 */
export const INDEX_AT = 16;

/** `LeafSearch`'s `#probe` answer when the index cannot narrow the search (no literal token). */
const UNNARROWED = -2;

/** A probe key's factor: a posting's length × this + a place in the probe's list (below 2²⁴). */
const POSITIONS = 2 ** 24;

/** A leaf's index ({@linkcode Node.index}) from its clusters' tokens now, for messages of `len` tokens. */
function buildIndex(leaf: number[], all: Cluster[], len: number): Postings {
  const index = new Postings();
  for (let p = 0; p < leaf.length; p++) post(index, all[leaf[p]], p, len);
  return index;
}

/** Adds the literal message tokens of cluster c, at place p of its leaf, to the leaf's index. */
export function post(index: Postings, c: SnapshotCluster, p: number, len: number): void {
  const ch = c.h < 0 ? 0 : c.h;
  for (let i = 0; i < len; i++) {
    const t = c.tokens[ch + i];
    if (t !== null && t !== WILD) index.add(tokenHash(t, i), p);
  }
}

/**
 * The search of a leaf for the cluster a line joins, with its scratch buffers (one per miner: the hot
 * path allocates nothing).
 */
export class LeafSearch {
  /** The miner's clusters, by index (the miner's own array: clusters it adds are seen here). */
  readonly #all: Cluster[];
  readonly #st: number;
  readonly #indexAt: number;
  /** Literal tokens of the cluster last scored (`#score`'s second result). */
  #lit = 0;
  /**
   * Scratch of `#probe`: per literal position, its posting's length × 2²⁴ + its
   * place in `#posts`, which holds what the index posts under its key ({@linkcode Postings.get}).
   */
  #keys = new Float64Array(64);
  #posts = new Int32Array(64);
  /** Per cluster, the probe that last scored it (so a cluster in two postings is scored once). */
  #seen = new Uint32Array(64);
  #epoch = 0;

  /**
   * @param all The miner's clusters (read, never changed here).
   * @param st Drain's similarity threshold, in [0, 1].
   * @param indexAt The clusters a leaf holds before it is searched through its index (≥ 1, or Infinity).
   */
  constructor(all: Cluster[], st: number, indexAt: number) {
    this.#all = all;
    this.#st = st;
    this.#indexAt = indexAt;
  }

  /**
   * The cluster of the leaf a line joins: the most similar one, comparing messages (ties: more literal
   * tokens, then the earlier in the leaf), when its similarity is at least st; else -1. A leaf of
   * {@linkcode INDEX_AT} clusters or more is searched through its index (`#probe`),
   * which finds the same cluster; a smaller one, or a line the index cannot narrow, by trying each.
   */
  best(node: Node, masked: string[], lh: number, len: number): number {
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
   * {@linkcode LeafSearch.best} through a leaf's index, or {@linkcode UNNARROWED} for a line with no
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
}
