import assert from "node:assert/strict";
import { globHash, makeListCursor, MAX_LIST_CURSOR, readListCursor } from "./list_cursor.ts";
import { seal } from "../core/seal.ts";
import { makeCursor } from "../read/cursor.ts";
import { openLog } from "../source/local/log_file.ts";
import { openRoots } from "../source/local/roots.ts";
import { ToolError } from "../core/errors.ts";

const KEY = crypto.getRandomValues(new Uint8Array(32));
const refused = (f: () => unknown, re: RegExp) =>
  assert.throws(f, (e) => e instanceof ToolError && e.kind === "invalid_cursor" && re.test(e.message));

Deno.test("list cursor: the key comes back for the same glob and sort; another glob or sort is refused", () => {
  const key = { file: "nginx/ä\nccess.log", modified_ms: 1_700_000_000_123 };
  const c = makeListCursor(key, { glob: "**/*.log", sort: "modified" }, KEY);
  assert.match(c, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(readListCursor(c, { glob: "**/*.log", sort: "modified" }, KEY), { after: key });
  refused(
    () => readListCursor(c, { glob: "*.log", sort: "modified" }, KEY),
    /another listing \(another glob\)/,
  );
  refused(() => readListCursor(c, { sort: "modified" }, KEY), /another glob/);
  // Another server's logs sharing the key (one state directory): refused, not resumed in the wrong list.
  const mine = makeListCursor(key, { glob: "**/*.log", sort: "modified", source: "/var/log" }, KEY);
  const back = readListCursor(mine, { glob: "**/*.log", sort: "modified", source: "/var/log" }, KEY);
  assert.deepEqual(back, { after: key });
  refused(
    () =>
      readListCursor(mine, { glob: "**/*.log", sort: "modified", source: "clickhouse://h:8123/db.t" }, KEY),
    /another server's logs/,
  );
  refused(
    () => readListCursor(c, { glob: "**/*.log", sort: "name" }, KEY),
    /another listing \(sort modified\)/,
  );
  const noGlob = makeListCursor({ file: "a", modified_ms: null }, { sort: "name" }, KEY);
  assert.deepEqual(readListCursor(noGlob, { sort: "name" }, KEY), {
    after: { file: "a", modified_ms: null },
  });
  // A stopped newest-first walk (issue #22): its saved state's id, with or without a key before it.
  const walk = makeListCursor(null, { sort: "modified" }, KEY, "a0123456789abcdef01234567");
  assert.deepEqual(readListCursor(walk, { sort: "modified" }, KEY), { walk: "a0123456789abcdef01234567" });
  const both = makeListCursor(key, { sort: "modified" }, KEY, "a0123456789abcdef01234567");
  assert.deepEqual(readListCursor(both, { sort: "modified" }, KEY), {
    after: key,
    walk: "a0123456789abcdef01234567",
  });
  // Neither a key nor a walk: not one this server made.
  refused(
    () => readListCursor(makeListCursor(null, { sort: "name" }, KEY), { sort: "name" }, KEY),
    /not one/,
  );
  assert.notEqual(globHash(undefined), globHash(""));
  // The longest name (4096 UTF-16 units), each a control character JSON writes as \u00XX, with the
  // longest glob: the cursor stays within what the input schema allows.
  const worst = makeListCursor({ file: "\u0001".repeat(4096), modified_ms: -8.64e15 }, {
    glob: "*".repeat(4096),
    sort: "modified",
  }, KEY);
  assert.ok(worst.length < MAX_LIST_CURSOR, `${worst.length}`);
});

Deno.test("list cursor: another key, a damaged one, a search cursor, a sealed payload of another shape: refused", async () => {
  const c = makeListCursor({ file: "a.log", modified_ms: null }, { sort: "name" }, KEY);
  const other = crypto.getRandomValues(new Uint8Array(32));
  refused(() => readListCursor(c, { sort: "name" }, other), /not one this server made/);
  refused(() => readListCursor(c.slice(0, -2), { sort: "name" }, KEY), /not one this server made/);
  refused(() => readListCursor("", { sort: "name" }, KEY), /not one this server made/);
  // Sealed with the key, but not what log_files writes.
  for (
    const p of [[1], { k: "log_files" }, {
      k: "log_files",
      g: globHash(undefined),
      s: "size",
      f: "a",
      m: null,
      w: "",
    }, { k: "log_files", g: globHash(undefined), s: "name", f: "a", m: null }]
  ) {
    refused(() => readListCursor(seal(p, KEY), { sort: "name" }, KEY), /not one this server made/);
  }
  // A log_search cursor (read/cursor.ts, same key): said to be log_search's.
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-lc-" });
  try {
    Deno.writeTextFileSync(`${dir}/a.log`, "x\n");
    using log = await openLog(openRoots([dir], "/"), "a.log");
    const search = makeCursor(log, {
      k: "log_search",
      f: "a.log",
      q: "",
      off: 0,
      ls: 0,
      line: 0,
      pending: false,
      skip: 0,
    }, KEY);
    refused(
      () => readListCursor(search, { sort: "name" }, KEY),
      /^the cursor belongs to log_search, not log_files$/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
