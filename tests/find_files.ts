/**
 * `find`'s view of a tree, the independent source the listing tests compare `log_files` with, and the
 * two orders a listing takes.
 *
 * @module
 */

/**
 * `find DIR -type f -printf '%T@ %P'`: every file's name (relative to `dir`) and modified time in ms.
 *
 * Permission: `--allow-run=find`.
 */
export function find(dir: string): { file: string; ms: number }[] {
  const out = new Deno.Command("find", { args: [dir, "-type", "f", "-printf", "%T@ %P\\n"], stdout: "piped" })
    .outputSync();
  return new TextDecoder().decode(out.stdout).trim().split("\n").filter(Boolean).map((l) => {
    const sp = l.indexOf(" ");
    return { file: l.slice(sp + 1), ms: Math.round(Number(l.slice(0, sp)) * 1000) };
  });
}

/** Name order, segment by segment in code-unit order (what each folder's sorted entries walk). */
export const bySegments = (a: string, b: string): number => {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return x.length - y.length;
};

/** Newest first, then by name in code-unit order. */
export const newest = (a: { file: string; ms: number }, b: { file: string; ms: number }): number =>
  b.ms - a.ms || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
