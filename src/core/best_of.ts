/**
 * The best `n` of many items, kept in bounded memory: a binary heap of at most `n` items with the worst of
 * them on top, so an item better than it takes its place in O(log n) steps (for the `modified` order of
 * a listing: the newest `limit` entries of a walk over any number of files).
 *
 * @module
 */

/**
 * Keeps the `n` best items offered, best meaning first by `compare` (negative when `a` comes before
 * `b`, as for `Array.prototype.sort`).
 *
 * @example
 * ```ts
 * import { BestOf } from "./best_of.ts";
 * const best = new BestOf<number>(2, (a, b) => a - b);
 * for (const x of [5, 1, 4, 2]) best.offer(x);
 * console.assert(best.sorted().join() === "1,2");
 * ```
 */
export class BestOf<T> {
  readonly #n: number;
  readonly #compare: (a: T, b: T) => number;
  /** A heap: each item comes after (is worse than, or as good as) neither of its children. */
  readonly #heap: T[] = [];

  /**
   * @param n How many to keep: a whole number from 1.
   * @param compare The order: negative when `a` is better than `b`.
   * @throws {RangeError} when `n` is not a whole number from 1.
   */
  constructor(n: number, compare: (a: T, b: T) => number) {
    if (!Number.isSafeInteger(n) || n < 1) {
      throw new RangeError(`BestOf keeps a whole number from 1, not ${n}`);
    }
    this.#n = n;
    this.#compare = compare;
  }

  /** How many items are kept (at most `n`). */
  get size(): number {
    return this.#heap.length;
  }

  /** True when `n` items are kept: a new one is kept only if better than the worst. */
  get full(): boolean {
    return this.#heap.length >= this.#n;
  }

  /** The worst item kept, or undefined when none is. */
  worst(): T | undefined {
    return this.#heap[0];
  }

  /**
   * True when `item` would be kept: fewer than `n` are, or it is better than the worst kept.
   *
   * @param item The candidate.
   */
  wouldKeep(item: T): boolean {
    return !this.full || this.#compare(item, this.#heap[0]) < 0;
  }

  /**
   * Offers an item.
   *
   * @param item The candidate.
   * @returns What was let go: the item itself when it is not kept, the worst kept item when it took
   *   that one's place, undefined when nothing was let go.
   */
  offer(item: T): T | undefined {
    const h = this.#heap;
    if (!this.full) {
      h.push(item);
      this.#up(h.length - 1);
      return undefined;
    }
    if (this.#compare(item, h[0]) >= 0) return item;
    const out = h[0];
    h[0] = item;
    this.#down(0);
    return out;
  }

  /** The items kept, best first (a new array; the heap is unchanged). */
  sorted(): T[] {
    return [...this.#heap].sort(this.#compare);
  }

  /** Moves the item at `i` up while it is worse than its parent. */
  #up(i: number): void {
    const h = this.#heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.#compare(h[i], h[p]) <= 0) return;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  /** Moves the item at `i` down while a child is worse. */
  #down(i: number): void {
    const h = this.#heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && this.#compare(h[l], h[worst]) > 0) worst = l;
      if (r < h.length && this.#compare(h[r], h[worst]) > 0) worst = r;
      if (worst === i) return;
      [h[i], h[worst]] = [h[worst], h[i]];
      i = worst;
    }
  }
}
