/**
 * A cluster of template mining (`template_miner.ts`): the lines grouped under one template, as a snapshot
 * saves it ({@linkcode SnapshotCluster}) and as the miner holds it ({@linkcode Cluster}), and how a line
 * widens it ({@linkcode widen}).
 *
 * @module
 */

/** One cluster in a `MinerSnapshot` (`miner_snapshot.ts`). */
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

/**
 * A cluster: what a snapshot saves of it ({@linkcode SnapshotCluster}: its header's field count, tokens
 * — masked text, or null for `<*>` —, the spaces between them, its counts and example), and its rendered
 * text and id, kept until a line widens it.
 */
export interface Cluster extends SnapshotCluster {
  /** The rendered text, or null when it must be rendered again. */
  text: string | null;
  /** The id of the current text, or null when it must be computed again. */
  id: string | null;
}

/**
 * A line joins cluster c: each token and separator where they differ becomes `<*>` (null), a header
 * of another field count the one `<*>` of the header; the count goes up.
 *
 * @param c The cluster (changed in place; its text and id cleared when its tokens or spaces change).
 * @param masked The line's masked tokens (header fields, then the message's).
 * @param seps The whitespace before each of the line's tokens and after the last.
 * @param lh The line's header field count.
 * @returns Whether a token or a separator became `<*>` (the clusters' merge must be made again).
 */
export function widen(c: Cluster, masked: string[], seps: string[], lh: number): boolean {
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
