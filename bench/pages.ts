/**
 * A search over the 1 GiB benchmark log done in budgeted pages (default budgets: 2 s, 5 MiB a page),
 * resumed with `next_cursor` until complete, through a real MCP client; the total must equal
 * `grep -c -F` (issue #5).
 *
 * @module
 */

import { connect } from "../tests/mcp_client.ts";

/** The needle: "task step 99999…" lines, about a thousand of them, spread over the file. */
export const PAGED_NEEDLE = "msg=task step 99999";

/**
 * Pages through a search of `file` in `dir`.
 *
 * @returns Pages, matches, the first and last line numbers, and the seconds it took.
 */
export async function pagedSearch(dir: string, file: string, text = PAGED_NEEDLE) {
  await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "1000000" });
  let cursor: string | undefined;
  let pages = 0;
  let matches = 0;
  let last = 0;
  let ordered = true;
  const t = performance.now();
  do {
    const r = await s.call("log_search", { file, text, limit: 5000, ...(cursor ? { cursor } : {}) });
    if (r.isError) throw new Error(r.content[0].text);
    for (const m of r.structuredContent.matches as { line_no: number }[]) {
      if (m.line_no <= last) ordered = false;
      last = m.line_no;
      matches++;
    }
    cursor = r.structuredContent.next_cursor ?? undefined;
    pages++;
  } while (cursor);
  return { pages, matches, ordered, seconds: (performance.now() - t) / 1000 };
}

if (import.meta.main) {
  const [dir, file] = Deno.args;
  const r = await pagedSearch(dir, file);
  const grep = await new Deno.Command("grep", { args: ["-c", "-F", PAGED_NEEDLE, `${dir}/${file}`] })
    .output();
  console.log({ ...r, grep_c: Number(new TextDecoder().decode(grep.stdout)) });
}
