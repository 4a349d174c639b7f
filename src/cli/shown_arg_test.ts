import assert from "node:assert/strict";
import { shownArg } from "./shown_arg.ts";

Deno.test("shownArg: control characters and separators escaped; cut on a character boundary, then …", () => {
  assert.equal(shownArg("a\nb\r\u0000\u2028\u009f"), "a\\u000ab\\u000d\\u0000\\u2028\\u009f");
  assert.equal(shownArg("é".repeat(80)), "é".repeat(80));
  assert.equal(shownArg("é".repeat(81)), "é".repeat(80) + "…");
  // 79 units then an emoji (two units): its pair is not split, so 79 units are kept.
  const cut = shownArg("x".repeat(79) + "😀tail");
  assert.equal(cut, "x".repeat(79) + "…");
  assert.ok(cut.isWellFormed());
  assert.equal(shownArg("x".repeat(10), 3), "xxx…");
});
