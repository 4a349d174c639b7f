/**
 * `log_search`'s translation (issue #25): its arguments become one `SearchQuery`, and what a backend
 * lacks is refused in the backend's own words before it is asked. A backend that answers nothing stands
 * in for both: what is checked is the query the tool builds and the refusals.
 */
import assert from "node:assert/strict";
import { ToolError } from "../core/errors.ts";
import type { Capability, LogBackend } from "../source/backend.ts";
import { searchQuery, type ToolArgs } from "./log_search.ts";
import { inProcess } from "../../tests/in_process.ts";

/** A backend that lacks what `lacking` names (with its reason), and answers nothing. */
function backend(lacking: Partial<Record<Capability, string>>): LogBackend {
  const never = () => Promise.reject(new Error("not asked in these tests"));
  return {
    kind: "fake",
    shown: "fake",
    lacks: (what) => lacking[what] ?? null,
    list: never,
    tail: never,
    search: never,
    levels: never,
    patterns: never,
    explain: (e) => Promise.resolve(e),
  };
}

const ARGS: ToolArgs = { file: "app.log", ignore_case: false, regex: false, limit: 20, context: 0 };

/** The ToolError `f` throws: its kind and message. */
function refusal(f: () => unknown): { kind: string; message: string } {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ToolError, String(e));
    return { kind: e.kind, message: e.message };
  }
  assert.fail("nothing was thrown");
}

Deno.test("log_search builds one query: the text, level, window, context, limit and cursor as given", () => {
  const q = searchQuery(backend({}), {
    ...ARGS,
    file: "nginx/*",
    text: "GET /",
    regex: true,
    ignore_case: true,
    level: "ERROR",
    since: "-15m",
    until: "2026-11-01T10:00:00Z",
    context: 3,
    limit: 700,
    cursor: "abc",
  });
  assert.deepEqual(q, {
    file: "nginx/*",
    level: "ERROR",
    window: { since: "-15m", until: "2026-11-01T10:00:00Z" },
    context: 3,
    limit: 700,
    cursor: "abc",
    match: { kind: "text", text: "GET /", regex: true, ignore_case: true },
  });
  const t = searchQuery(backend({}), { ...ARGS, template_id: "0123456789abcdef" });
  assert.deepEqual(t.match, { kind: "template", template_id: "0123456789abcdef" });
});

Deno.test("log_search refuses what a backend lacks in the backend's words, and what a template cannot take", () => {
  const table = backend({ context: "no neighbours here", template_id: "no templates here" });
  assert.deepEqual(refusal(() => searchQuery(table, { ...ARGS, text: "x", context: 2 })), {
    kind: "invalid_argument",
    message: "no neighbours here",
  });
  assert.deepEqual(refusal(() => searchQuery(table, { ...ARGS, template_id: "0123456789abcdef" })), {
    kind: "invalid_argument",
    message: "no templates here",
  });
  // Context 0 is no context: asked of a backend without it.
  assert.equal(searchQuery(table, { ...ARGS, text: "x" }).context, 0);
  const files = backend({});
  const both = refusal(() =>
    searchQuery(files, { ...ARGS, template_id: "0123456789abcdef", text: "x", regex: true, context: 1 })
  );
  assert.equal(both.kind, "invalid_argument");
  assert.match(both.message, /: text, regex, context cannot be given with it/);
  // Neither text nor template_id: template_id is offered only where the backend answers it.
  assert.match(refusal(() => searchQuery(files, ARGS)).message, /or template_id \(from log_patterns\)$/);
  assert.doesNotMatch(refusal(() => searchQuery(table, ARGS)).message, /template_id/);
});

Deno.test("log_search's answer does not echo a secret typed into its text: the header masks it, as the lines are", async () => {
  using lp = inProcess({
    "app.log": "2026-12-03 10:00:00 INFO login ok\n2026-12-03 10:00:01 WARN retry password=hunter2 for bob\n",
  }, "logpeek-search-echo-");
  const dispatch = lp.dispatch;
  for (const args of [{ text: "password=hunter2" }, { text: "password=hunter[0-9]", regex: true }]) {
    const r = await dispatch("log_search", { file: "app.log", ...args });
    const text = (r.content as { text: string }[])[0].text;
    assert.ok(!text.includes("hunter"), text);
    assert.match(text, /for (text|pattern) "password=\*\*\*/);
  }
  // The literal still finds the line by its bytes (grep -c gives 1), shown masked.
  const r = await dispatch("log_search", { file: "app.log", text: "password=hunter2" });
  const sc = r.structuredContent as { matches: { line_no: number; text: string }[] };
  assert.deepEqual(sc.matches.map((m) => [m.line_no, m.text.includes("hunter2")]), [[2, false]]);
});
