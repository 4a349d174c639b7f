/**
 * `docs/tool_schemas.md` is what `scripts/tool_docs.ts` makes from the tools' zod schemas (issue #24: the
 * full descriptions left `tools/list` for that page, which must not drift from the server).
 */
import assert from "node:assert/strict";
import { TOOL_SCHEMAS_MD, toolSchemasDoc } from "../scripts/tool_docs.ts";
import { DEFAULT_LIMITS } from "../src/core/config.ts";

Deno.test("docs/tool_schemas.md is current: run scripts/tool_docs.ts when this fails", () => {
  const page = toolSchemasDoc();
  const now = Deno.readTextFileSync(TOOL_SCHEMAS_MD);
  assert.equal(now, page, "docs/tool_schemas.md differs from what scripts/tool_docs.ts makes: run it");
});

Deno.test("docs/tool_schemas.md has every tool, argument and structuredContent field, described", () => {
  const page = toolSchemasDoc();
  const tools = [...page.matchAll(/^## (\w+): /gm)].map((m) => m[1]);
  assert.deepEqual(tools, [
    "log_files",
    "log_tail",
    "log_search",
    "log_levels",
    "log_patterns",
    "read_artifact",
  ]);
  // Fields the listing describes shortly or not at all are here in full (checked against their source).
  assert.match(
    page,
    /\| `since` \| string \(0\.\.64 characters\) \| {2}\| keep lines at or after this time \(inclusive\): an RFC 3339/,
  );
  assert.match(
    page,
    /\| `matches\[\]\.before\[\]\.line_no` \| integer \\\| null \| yes \| 1-based line number/,
  );
  assert.match(
    page,
    /\| `complete` \| boolean \| yes \| true only when every entry that could be a log is listed/,
  );
  assert.match(
    page,
    new RegExp(`at most the last ${DEFAULT_LIMITS.tailBytes} bytes \\(LOGPEEK_TAIL_BYTES\\)`),
  );
  // Every argument row has a meaning.
  for (const section of page.split("### Arguments").slice(1)) {
    const table = section.split("### structuredContent")[0];
    for (const row of table.split("\n").filter((l) => l.startsWith("| `"))) {
      assert.ok(!row.endsWith("|  |"), `an argument without a description: ${row}`);
    }
  }
});
