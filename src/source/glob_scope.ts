/**
 * Which folders a listing enters for a glob (`list_logs.ts`): only those that could hold a name the glob
 * matches. A folder's segments are matched against the glob's leading segments (`glob.ts`
 * `globSegments`), for every brace choice, `**` taking any number of them; the folder may hold a match
 * when some choice has a segment left over for what is below it. So `{app,java}.log` enters no folder,
 * `sub[0-9]/*.log` only `sub0` … `sub9`, and `**∕*.gz` every folder (`∕` stands for `/` here).
 *
 * @module
 */

import { type GlobSegment, globSegments } from "./glob.ts";

/**
 * Where a folder stands in each brace choice: the indexes of the segments still to match (with `**`
 * also the ones after it, which it may match none of).
 */
type States = number[][];

/**
 * Which folders may hold a name a glob matches. One per walk: it keeps the states of the folders on the
 * path last asked about (a walk goes depth first, so each entry costs one step from its folder's).
 */
export class GlobScope {
  readonly #choices: GlobSegment[][];
  /** The path last asked about: its segments and, for each, the states after it. */
  readonly #path: { name: string; states: States }[] = [];
  readonly #top: States;

  /**
   * @param glob A listing's glob (`glob.ts` syntax, `/`-separated).
   * @throws {TypeError} for a malformed glob; {@linkcode RangeError} for braces that expand too far.
   */
  constructor(glob: string) {
    this.#choices = globSegments(glob);
    this.#top = this.#choices.map((segs) => this.#closure(segs, [0]));
  }

  /** The states with those after a `**` added (it may match no folder). */
  #closure(segs: GlobSegment[], at: number[]): number[] {
    const out = new Set<number>();
    for (let j of at) {
      out.add(j);
      while (j < segs.length && segs[j] === "**") out.add(++j);
    }
    return [...out];
  }

  /** The states after one more folder segment `name`. */
  #step(states: States, name: string): States {
    return states.map((at, c) => {
      const segs = this.#choices[c];
      const next: number[] = [];
      for (const j of at) {
        if (j >= segs.length) continue;
        const seg = segs[j];
        if (seg === "**") next.push(j);
        else if (seg(name)) next.push(j + 1);
      }
      return this.#closure(segs, next);
    });
  }

  /** Some brace choice has a `**` still to match. */
  #starred(states: States): boolean {
    return states.some((at, c) => at.some((j) => this.#choices[c][j] === "**"));
  }

  /**
   * True when the folder `folder` may hold a name the glob matches.
   *
   * @param folder A listed folder's name (`/`-separated, "" for the top).
   */
  holds(folder: string): boolean {
    let states = this.#top;
    if (folder !== "") {
      const names = folder.split("/");
      let i = 0;
      while (i < names.length && i < this.#path.length && this.#path[i].name === names[i]) i++;
      this.#path.length = i;
      if (i > 0) states = this.#path[i - 1].states;
      // A `**` still to match holds whatever the last name is: no step (its states wait for a child).
      if (i === names.length - 1 && this.#starred(states)) return true;
      for (; i < names.length; i++) {
        states = this.#step(states, names[i]);
        this.#path.push({ name: names[i], states });
      }
    }
    return states.some((at, c) => at.some((j) => j < this.#choices[c].length));
  }
}
