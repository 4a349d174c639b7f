/**
 * What the ClickHouse tests share to call the tools (issue #14): an answer's text, and every page of a
 * paged call.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { CallResult } from "./mcp_client.ts";

/** An answer's text, all its parts. */
export function text(r: CallResult): string {
  return r.content.map((c) => c.text).join("\n");
}

/**
 * Follows next_cursor to the end; returns every match and the pages' answers.
 *
 * @throws {Error} after `maxPages` pages without an end; an AssertionError on an `isError` page.
 */
export async function allPages(
  call: (args: Record<string, unknown>) => Promise<CallResult>,
  args: Record<string, unknown>,
  maxPages = 1000,
): Promise<
  { matches: { text: string; level: string; file?: string; line_no: null }[]; pages: CallResult[] }
> {
  const pages: CallResult[] = [];
  const matches = [];
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const r = await call(cursor ? { ...args, cursor } : args);
    assert.ok(!r.isError, text(r));
    pages.push(r);
    matches.push(...r.structuredContent.matches);
    cursor = r.structuredContent.next_cursor ?? undefined;
    if (!cursor) return { matches, pages };
  }
  throw new Error(`no end after ${maxPages} pages`);
}
