/**
 * "Did you mean …?" for an unknown command-line option (issue #10, item 11): a known option is offered only
 * when it is close — the same letters in another case (`-v` → `-V`), or a long name at most one or two edits
 * away (`--verison` → `--version`, `--stat-dir` → `--state-dir`), counting a swap of two neighbours as one
 * edit (the optimal string alignment distance). Nothing is offered for a guess that is far from every option.
 *
 * @module
 */

/** A known option: its long name (without `--`) and its one-letter short name, if any. */
export interface KnownOption {
  long: string;
  short?: string;
}

/**
 * The optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each count one (UTF-16 code units; meant for option names, which are ASCII).
 *
 * @param a One string.
 * @param b The other.
 * @returns The number of edits from `a` to `b`.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The known option closest to `given`, written as the user would type it, or null when none is close.
 *
 * A one-letter name (`-v`, or `--v`) matches a short name in another case only, since every other letter is one
 * edit from it. A longer name matches a long name in another case, or within one edit (two for names of six
 * letters or more); with several at the same distance, none is offered.
 *
 * @param given The option as typed (`-v`, `--verison`, `--stat-dir=x`; a value after `=` is ignored).
 * @param known The options there are.
 * @returns `-V (--version)` for a short option, `--version` for a long one, or null.
 * @example
 * ```ts
 * import { suggestOption } from "./did_you_mean.ts";
 * const known = [{ long: "version", short: "V" }, { long: "state-dir" }];
 * console.assert(suggestOption("-v", known) === "-V (--version)");
 * console.assert(suggestOption("--stat-dir", known) === "--state-dir");
 * console.assert(suggestOption("-x", known) === null);
 * ```
 */
export function suggestOption(given: string, known: readonly KnownOption[]): string | null {
  const name = given.replace(/^-{1,2}/, "").split("=")[0];
  const show = (o: KnownOption) => (o.short ? `-${o.short} (--${o.long})` : `--${o.long}`);
  if (name.length === 1) {
    const hit = known.find((o) => o.short !== undefined && o.short.toLowerCase() === name.toLowerCase());
    return hit ? show(hit) : null;
  }
  const lower = name.toLowerCase();
  const sameCase = known.find((o) => o.long === lower);
  if (sameCase) return `--${sameCase.long}`;
  const limit = lower.length >= 6 ? 2 : 1;
  let best: KnownOption[] = [];
  let bestD = limit + 1;
  for (const o of known) {
    const d = editDistance(lower, o.long);
    if (d < bestD) [best, bestD] = [[o], d];
    else if (d === bestD) best.push(o);
  }
  return best.length === 1 ? `--${best[0].long}` : null;
}

/**
 * The known words `given` may have meant (a `--client` name): those it begins (`claude` → `claude-desktop`,
 * `claude-code`), else those within two edits in any case (`vscod` → `vscode`), in `known`'s order.
 *
 * @param given The word as typed.
 * @param known The words there are.
 * @returns The words offered (empty when none is close).
 * @example
 * ```ts
 * import { suggestWords } from "./did_you_mean.ts";
 * const known = ["claude-desktop", "claude-code", "vscode", "cursor"];
 * console.assert(suggestWords("claude", known).join() === "claude-desktop,claude-code");
 * console.assert(suggestWords("Cursr", known).join() === "cursor");
 * ```
 */
export function suggestWords(given: string, known: readonly string[]): string[] {
  const lower = given.toLowerCase();
  if (lower === "") return [];
  const begun = known.filter((w) => w.startsWith(lower) && w !== lower);
  if (begun.length) return begun;
  return known.filter((w) => editDistance(lower, w) <= 2);
}
