/**
 * A cursor is refused by a server of other logs that shares its state directory (and so its cursor key):
 * a trial passed a ClickHouse server's `log_files` cursor to a files server with the default state
 * directory, and the files that sort before the cursor's last name were skipped with no error.
 */
import assert from "node:assert/strict";
import { connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

Deno.test("log_files: a cursor of another server's logs (one state directory) is invalid_cursor, not a skip", async () => {
  const state = tempDir("logpeek-cursor-state-");
  const one = tempDir("logpeek-cursor-one-"), two = tempDir("logpeek-cursor-two-");
  const names = ["a.log", "b.log", "m.log", "z.log"];
  for (const n of names) Deno.writeTextFileSync(`${one}/${n}`, "2024-05-01 INFO x\n");
  for (const n of ["c.log", "d.log", "e.log"]) Deno.writeTextFileSync(`${two}/${n}`, "2024-05-01 INFO y\n");
  await using a = await connect([one], {}, [], { stateDir: state });
  const first = (await a.call("log_files", { limit: 2 })).structuredContent;
  assert.deepEqual(first.files.map((f: { file: string }) => f.file), names.slice(0, 2));
  assert.ok(first.next_cursor);
  // The same server goes on from it.
  const more = (await a.call("log_files", { limit: 2, cursor: first.next_cursor })).structuredContent;
  assert.deepEqual(more.files.map((f: { file: string }) => f.file), names.slice(2));
  await using b = await connect([two], {}, [], { stateDir: state });
  const other = await b.call("log_files", { limit: 2, cursor: first.next_cursor });
  assert.equal(other.isError, true, JSON.stringify(other.structuredContent));
  assert.match(other.content[0].text, /^invalid_cursor: .*another server's logs/);
  // A log_files cursor given to a reading tool of the same server: said to be log_files' (it was said not
  // to be this server's).
  for (const tool of ["log_search", "log_levels"]) {
    const r = await a.call(tool, {
      file: "a.log",
      ...(tool === "log_search" ? { text: "x" } : {}),
      cursor: first.next_cursor,
    });
    assert.equal(r.isError, true);
    assert.equal(r.content[0].text, `invalid_cursor: the cursor belongs to log_files, not ${tool}`);
  }
});

Deno.test("log_search: a cursor of a server of other roots (one state directory, the same file name) is invalid_cursor, not file_changed", async () => {
  const state = tempDir("logpeek-cursor-state-");
  const one = tempDir("logpeek-cursor-one-"), two = tempDir("logpeek-cursor-two-");
  const text = Array.from(
    { length: 40 },
    (_, i) => `2024-05-01 10:00:${String(i).padStart(2, "0")} INFO x ${i}\n`,
  )
    .join("");
  Deno.writeTextFileSync(`${one}/app.log`, text);
  Deno.writeTextFileSync(`${two}/app.log`, text);
  await using a = await connect([one], { LOGPEEK_SEARCH_BYTES: "200" }, [], {
    stateDir: state,
  });
  await using b = await connect([two], {}, [], { stateDir: state });
  for (const [tool, args] of [["log_search", { text: "x" }]] as const) {
    const first = (await a.call(tool, { file: "app.log", ...args })).structuredContent;
    assert.equal(first.complete, false, tool);
    assert.ok(first.next_cursor, tool);
    // The server that made it goes on from it.
    const more = await a.call(tool, { file: "app.log", ...args, cursor: first.next_cursor });
    assert.equal(more.isError, undefined, more.content[0].text);
    // Before: "file_changed: app.log is another file now (rotated?)", about a file that never changed.
    const other = await b.call(tool, { file: "app.log", ...args, cursor: first.next_cursor });
    assert.equal(other.isError, true, tool);
    assert.match(
      other.content[0].text,
      /^invalid_cursor: the cursor is not one this server made .*other roots/,
    );
  }
});
