/**
 * A template miner's snapshot (`template_miner.ts` `TemplateMiner.snapshot` and `restore`): its shape
 * ({@linkcode MinerSnapshot}), and reading one back with every shape, size and index checked
 * ({@linkcode readClusters}, {@linkcode readTree}).
 *
 * @module
 */

import type { Cluster, SnapshotCluster } from "./template_cluster.ts";
import { addKid, MAX_CHILDREN, newNode, type Node } from "./template_tree.ts";

/**
 * A miner's whole state as plain JSON data (`TemplateMiner.snapshot` of `template_miner.ts`, read back
 * by `TemplateMiner.restore`). Its shape may change with `v`; treat it as opaque.
 */
export interface MinerSnapshot {
  /** The format's version: 2 (1, without `h`, was the first API's; its snapshots are refused). */
  v: 2;
  /** The options the miner ran with (`restore` uses them unless given others; `depth` must agree). */
  opts: { maxTemplates: number; similarity: number; depth: number; variants?: number | null };
  /** `TemplateMiner.totalLines`. */
  totalLines: number;
  /** `TemplateMiner.otherLines`. */
  otherLines: number;
  /** The clusters in creation order (index = cluster index). */
  clusters: SnapshotCluster[];
  /** The tree: [the message's token count, its root node] in the order the counts were first seen. */
  tree: [number, SnapshotNode][];
}

/** One tree node in a {@linkcode MinerSnapshot}: children in insertion order, and cluster indexes in leaf order. */
export interface SnapshotNode {
  /** [key, child] pairs in insertion order. */
  kids: [string, SnapshotNode][];
  /** Indexes into {@linkcode MinerSnapshot.clusters}, in the order the leaf holds them. */
  leaf: number[];
}

/**
 * Refuses a snapshot.
 *
 * @param what What is malformed.
 * @throws {TypeError} Always: `TemplateMiner.restore: malformed snapshot: <what>`.
 */
export function bad(what: string): never {
  throw new TypeError(`TemplateMiner.restore: malformed snapshot: ${what}`);
}

/** Whether x is a count: a safe integer ≥ 0. */
export function isCount(x: unknown): x is number {
  return typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
}

/**
 * x as an object of a snapshot.
 *
 * @param x The value.
 * @param where Its place in the snapshot, for the error.
 * @throws {TypeError} When x is not a plain object ({@linkcode bad}).
 */
export function rec(x: unknown, where: string): Record<string, unknown> {
  if (typeof x !== "object" || x === null || Array.isArray(x)) bad(`${where} is not an object`);
  return x as Record<string, unknown>;
}

/**
 * The clusters of a snapshot, checked: each one's tokens, separators, header count, counts, line numbers
 * and example, and their counts with `otherLines` summing to `totalLines`.
 *
 * @param o The snapshot (an object: {@linkcode rec}).
 * @param max The miner's maxTemplates: a snapshot with more clusters is refused.
 * @returns The clusters in creation order (copies: sharing nothing with `o`).
 * @throws {TypeError} When the line counts or a cluster are malformed ({@linkcode bad}).
 */
export function readClusters(o: Record<string, unknown>, max: number): Cluster[] {
  if (!isCount(o.totalLines) || !isCount(o.otherLines) || o.otherLines > o.totalLines) bad("line counts");
  if (!Array.isArray(o.clusters)) bad("clusters is not an array");
  if (o.clusters.length > max) bad(`${o.clusters.length} clusters over maxTemplates ${max}`);
  let sum = 0;
  const all: Cluster[] = [];
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
    all.push({
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
  return all;
}

/**
 * The tree of a snapshot, checked: every node's shape, no key twice, no node deeper than `prefix` keys
 * or with more than {@linkcode MAX_CHILDREN} + 1 children, each cluster in exactly one leaf, under its
 * message's token count.
 *
 * @param tree The snapshot's `tree`.
 * @param all The clusters ({@linkcode readClusters}).
 * @param prefix How many keys a path has (the miner's `depth − 2`).
 * @returns The message's token count → its root node, in the snapshot's order.
 * @throws {TypeError} When the tree is malformed ({@linkcode bad}).
 */
export function readTree(tree: unknown, all: Cluster[], prefix: number): Map<number, Node> {
  if (!Array.isArray(tree)) bad("tree is not an array");
  const placed = new Uint8Array(all.length);
  const node = (x: unknown, key: string, len: number, depth: number, where: string): Node => {
    const n = rec(x, where);
    if (!Array.isArray(n.kids) || !Array.isArray(n.leaf)) bad(`${where} kids/leaf`);
    if (depth > prefix && n.kids.length > 0) bad(`${where} deeper than depth`);
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
      if (!isCount(ci) || ci >= all.length) bad(`${where} leaf index ${ci}`);
      if (placed[ci]) bad(`cluster ${ci} in the tree twice`);
      const c = all[ci];
      if (c.tokens.length - Math.max(c.h, 0) !== len) bad(`cluster ${ci} under token count ${len}`);
      placed[ci] = 1;
    }
    out.leaf.push(...n.leaf);
    return out;
  };
  const roots = new Map<number, Node>();
  for (const [j, e] of tree.entries()) {
    if (!Array.isArray(e) || e.length !== 2 || !isCount(e[0])) bad(`tree[${j}]`);
    if (roots.has(e[0])) bad(`token count ${e[0]} twice`);
    roots.set(e[0], node(e[1], "", e[0], 1, `tree[${e[0]}]`));
  }
  if (!placed.every((p) => p === 1)) bad("a cluster is not in the tree");
  return roots;
}

/**
 * A tree node as a snapshot saves it, sharing nothing with the node.
 *
 * @param n The node.
 * @returns Its keys and children in insertion order, and its leaf.
 */
export function snapshotNode(n: Node): SnapshotNode {
  return { kids: [...n.kids].map(([k, v]) => [k, snapshotNode(v)]), leaf: [...n.leaf] };
}

/** A cluster as a snapshot holds it: its own copies of the tokens and separators. */
export function snapshotCluster(c: Cluster): SnapshotCluster {
  return {
    h: c.h,
    tokens: [...c.tokens],
    seps: [...c.seps],
    count: c.count,
    firstLine: c.firstLine,
    lastLine: c.lastLine,
    example: c.example,
  };
}

/**
 * The options a miner is restored with: those given, else the snapshot's (checked: `maxTemplates` a count,
 * `similarity` in [0, 1], `depth` at least 3 and equal to the given one, `variants` null for no bound).
 *
 * @param o The snapshot's object.
 * @param opts The options given to `TemplateMiner.restore`.
 * @returns The options to build the miner with.
 * @throws {TypeError} From {@linkcode bad}, naming the option.
 */
export function restoredOptions<
  T extends { maxTemplates?: number; similarity?: number; depth?: number; variants?: number },
>(o: Record<string, unknown>, opts: T): T {
  const so = rec(o.opts, "opts");
  if (!isCount(so.maxTemplates)) bad("opts.maxTemplates");
  if (typeof so.similarity !== "number" || !(so.similarity >= 0 && so.similarity <= 1)) {
    bad("opts.similarity");
  }
  if (!isCount(so.depth) || so.depth < 3) bad("opts.depth");
  if (opts.depth !== undefined && opts.depth !== so.depth) bad(`depth ${so.depth} differs from opts.depth`);
  return {
    ...opts,
    maxTemplates: opts.maxTemplates ?? so.maxTemplates,
    similarity: opts.similarity ?? so.similarity,
    depth: so.depth,
    variants: opts.variants ?? (so.variants === null ? Infinity : so.variants as number | undefined),
  };
}
