/**
 * GNU grep's `-n -C N` output, parsed, as the independent truth for context lines (issue #12), and a
 * plain line splitter to feed `read/context.ts` with, for the tests of `read/context.ts` and
 * `tools/context_render.ts`.
 *
 * @module
 */

/** One line of `grep -n -C N` output: a group separator `--`, or a line (`12:` a match, `11-` context). */
export type GrepEntry = "--" | { no: number; match: boolean; text: string };

/**
 * The Loghub needles (`../shared/corpus/loghub/X_2k.log`), chosen so that, over each file, some needle
 * matches the first line, some the last line (five of the files end without a final newline), some
 * rarely (at most 3 lines), some often with adjacent matches, Spark's `Exception` nowhere; the tests check
 * each claim with grep itself.
 */
export const NEEDLES: Record<string, string[]> = {
  Apache: ["04:47:44", "19:15:57", "error", "jk2_init", "Directory index forbidden"],
  HDFS: ["blk_38865049064139660", "blk_4343207286455274569", "WARN", "Verification", "INFO"],
  Hadoop: ["appattempt_1445144423722_0020_000001", "18:10:55,202", "ERROR", "WARN", "Created"],
  Linux: ["sshd(pam_unix)[19939]:", "agpgart", "kernel", "combo", "su(pam_unix)"],
  OpenSSH: ["ns.marryaldkfaczcz.com", "52683", "Accepted", "Failed password", "LabSZ"],
  Spark: ["Registered", "rdd_42_32", "INFO", "Exception", "TorrentBroadcast"],
  Zookeeper: ["17:41:44,747", "0x24f0557806a0010", "ERROR", "WARN", "Notification time out"],
};

/**
 * Runs `LC_ALL=C grep -a -n -F -C n [-m max] -- needle file` and parses its output; the `\r` of a CRLF
 * line is stripped (logpeek shows a line without its end of line).
 *
 * @param file The file to search.
 * @param needle A literal text.
 * @param n Context lines (`-C`).
 * @param max Stop after this many matches (`-m`), printing the trailing context as grep does.
 * @returns grep's lines and separators, in order (empty when nothing matched).
 * @throws {Error} When grep fails (exit status 2).
 */
export function grepContext(file: string, needle: string, n: number, max?: number): GrepEntry[] {
  const args = ["-a", "-n", "-F", "-C", String(n), ...(max === undefined ? [] : ["-m", String(max)])];
  const out = new Deno.Command("grep", {
    args: [...args, "--", needle, file],
    env: { LC_ALL: "C" },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (out.code > 1) throw new Error(`grep failed: ${new TextDecoder().decode(out.stderr)}`);
  // latin1: one character per byte, whatever the bytes (the Loghub logs are ASCII).
  const text = new TextDecoder("latin1").decode(out.stdout);
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((l): GrepEntry => {
    if (l === "--") return "--";
    const m = /^(\d+)([:-])(.*)$/s.exec(l);
    if (!m) throw new Error(`unexpected grep line: ${JSON.stringify(l)}`);
    return { no: Number(m[1]), match: m[2] === ":", text: m[3].replace(/\r$/, "") };
  });
}

/**
 * The lines of a file as logpeek reads them: split at LF, a CR just before the LF removed, a last line
 * without a final newline kept (and no empty line after a final newline).
 *
 * @param bytes The file's bytes.
 * @returns Each line's `[start, end)` in `bytes`, end of line excluded, in order.
 */
export function splitLines(bytes: Uint8Array): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let a = 0;
  while (a < bytes.length) {
    let nl = bytes.indexOf(10, a);
    const last = nl < 0;
    if (last) nl = bytes.length;
    out.push([a, !last && nl > a && bytes[nl - 1] === 13 ? nl - 1 : nl]);
    a = nl + 1;
  }
  return out;
}
