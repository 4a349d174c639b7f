/**
 * A leaf's index in the template tree (`template_tree.ts` `Node.index`): from a token's key to the places
 * in the leaf posted under it, so a line's candidate clusters are found without trying each
 * (`leaf_search.ts`).
 *
 * @module
 */

/** {@linkcode Postings.get}'s answer for a key with no posting. */
export const ABSENT = 0x7fffffff;

/**
 * A leaf's index (`template_tree.ts` `Node.index`): an open-addressing hash table (linear probing, at most 3/4
 * full) from a key (`template_tree.ts` `tokenHash`, 30 bits) to the places in the leaf posted under it, one place
 * kept in the table itself and more in a list: in two Int32Arrays, 11–22 bytes a key (a `Map` took
 * about 40).
 */
export class Postings {
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
