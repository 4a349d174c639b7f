/**
 * Drain's fixed-depth tree for template mining (`template_miner.ts`): a root per message token count,
 * then a child per key (the message's first `depth − 2` words free of digits and masks), at most
 * {@linkcode MAX_CHILDREN} before further keys share the `<*>` child; a leaf holds the clusters whose
 * keys end there ({@linkcode leafOf}).
 *
 * @module
 */

import type { Postings } from "./leaf_index.ts";
import { type Scan, WILD } from "./template_tokens.ts";

/** The most children a tree node keeps before further first tokens share its `<*>` branch (Drain's maxChild). */
export const MAX_CHILDREN = 100;

/**
 * A tree node: children by key (a first word, or `<*>`), the clusters (indexes) whose keys end here, and,
 * once they are `INDEX_AT` (`leaf_search.ts`) or more, their index.
 */
export interface Node {
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
   * null until the leaf holds `INDEX_AT` (`leaf_search.ts`) clusters (built from their tokens
   * then, or on a restored miner's first line here), never saved. A posting may hold more than the
   * clusters with that token there (two keys' hashes alike, or a token that later became `<*>`): a
   * superset is enough, each candidate being scored.
   */
  index: Postings | null;
  /**
   * The leaf's version: bumped whenever one of its clusters widens or a cluster is added to it (the
   * shape cache's entries of an older version are stale: `template_shape.ts`). Never saved.
   */
  ver: number;
}

/**
 * A 30-bit FNV-1a of a token's UTF-16 code units after a seed (a leaf index's key of the token at
 * message position i has seed i): a small integer, so a map keyed by it looks a new string up without
 * V8 hashing the string, which cost ~200 ns a token (new strings have no hash yet).
 */
export function tokenHash(t: string, i: number): number {
  let h = Math.imul(0x811c9dc5 ^ i, 0x01000193);
  for (let k = 0; k < t.length; k++) h = Math.imul(h ^ t.charCodeAt(k), 0x01000193);
  return (h ^ (h >>> 15)) & 0x3fffffff;
}

export function newNode(key: string): Node {
  return { key, kids: new Map(), hashed: new Map(), leaf: [], index: null, ver: 0 };
}

/** The child of a node by key (through {@linkcode Node.hashed}), or undefined. */
export function kidOf(node: Node, key: string): Node | undefined {
  const v = node.hashed.get(tokenHash(key, -1));
  if (v === undefined || !Array.isArray(v)) return v === undefined || v.key !== key ? undefined : v;
  for (const k of v) if (k.key === key) return k;
  return undefined;
}

/** Adds a child under its key (new to the node). */
export function addKid(node: Node, kid: Node): void {
  node.kids.set(kid.key, kid);
  const h = tokenHash(kid.key, -1), v = node.hashed.get(h);
  if (v === undefined) node.hashed.set(h, kid);
  else if (Array.isArray(v)) v.push(kid);
  else node.hashed.set(h, [v, kid]);
}

/**
 * The leaf a scanned line goes to: the root of its message's token count, then a child per key (the
 * message's first `prefix` tokens free of digits and masks), past {@linkcode MAX_CHILDREN} the `<*>`
 * child; nodes made as needed, unless the miner is full (then null when one is missing).
 *
 * @param roots The tree: the message's token count → its root node (grown in place).
 * @param sc The line, scanned and masked.
 * @param lh The header's field count (the message's first token is `sc.m[lh]`).
 * @param len The message's token count.
 * @param full The miner holds its most clusters: no node is made.
 * @param prefix How many keys a path has (Drain's `depth − 2`).
 * @returns The leaf, or null.
 */
export function leafOf(
  roots: Map<number, Node>,
  sc: Scan,
  lh: number,
  len: number,
  full: boolean,
  prefix: number,
): Node | null {
  const masked = sc.m;
  let node: Node;
  const root = roots.get(len);
  if (root !== undefined) node = root;
  else if (full) return null;
  else roots.set(len, node = newNode(""));
  for (let i = lh, k = 0; i < sc.n && k < prefix; i++) {
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
