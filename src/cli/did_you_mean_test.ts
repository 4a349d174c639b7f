import assert from "node:assert/strict";
import { editDistance, suggestOption, suggestWords } from "./did_you_mean.ts";
import { OPTIONS } from "./command_line.ts";

const KNOWN = Object.entries(OPTIONS).map(([long, o]) => ({
  long,
  short: "short" in o ? o.short : undefined,
}));

Deno.test("editDistance: the textbook values, and a swap of neighbours counts one", () => {
  // kitten → sitting is 3 (Levenshtein's own example); "" → "abc" is 3; a swap is 1 here, 2 for Levenshtein.
  assert.deepEqual(
    [
      editDistance("kitten", "sitting"),
      editDistance("", "abc"),
      editDistance("abc", ""),
      editDistance("same", "same"),
      editDistance("verison", "version"),
      editDistance("ca", "ac"),
    ],
    [3, 3, 3, 0, 1, 1],
  );
});

Deno.test("suggestOption: a close option is offered, a far one never", () => {
  const cases: [string, string | null][] = [
    ["-v", "-V (--version)"],
    ["-H", "-h (--help)"],
    ["--v", "-V (--version)"],
    ["-x", null],
    ["-j", null],
    ["--verison", "--version"],
    ["--VERSION", "--version"],
    ["--stat-dir", "--state-dir"],
    ["--state_dir=/x", "--state-dir"],
    ["--statedir", "--state-dir"],
    ["--trustgid", "--trust-gid"],
    ["--jsno", "--json"],
    ["--bundel", "--bundle"],
    ["--clint", "--client"],
    ["--no-tr", null],
    ["--frobnicate", null],
    ["--trace", null],
    ["--", null],
  ];
  for (const [given, want] of cases) assert.equal(suggestOption(given, KNOWN), want, given);
});

Deno.test("suggestWords: a client name begun or within two edits", () => {
  const known = ["claude-desktop", "claude-code", "vscode", "cursor"];
  assert.deepEqual(suggestWords("claude", known), ["claude-desktop", "claude-code"]);
  assert.deepEqual(suggestWords("vscod", known), ["vscode"]);
  assert.deepEqual(suggestWords("Cursr", known), ["cursor"]);
  assert.deepEqual(suggestWords("emacs", known), []);
  assert.deepEqual(suggestWords("", known), []);
});
