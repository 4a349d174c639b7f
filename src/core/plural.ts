/**
 * Counted words in answers and progress messages.
 *
 * @module
 */

/**
 * `1 line`, `2 lines`: a count and an English noun that takes `s` in the plural.
 *
 * @param n The count.
 * @param word The noun, singular.
 * @returns The count and the noun.
 * @example
 * ```ts
 * import { plural } from "./plural.ts";
 * console.assert(plural(1, "line") === "1 line" && plural(2, "line") === "2 lines");
 * ```
 */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
