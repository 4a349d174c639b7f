/**
 * Issue #8, item 13 end to end: crafted cursors through the real MCP SDK client. A cursor re-sealed with
 * the old public checksum, or with any key but the server's, is refused; so is one sealed with the
 * server's own key (read here from its state directory, as only someone with the server's files could)
 * whose fields the server never writes: every such cursor is `invalid_cursor`, never `internal_error`
 * or an output-schema failure. A genuine cursor still resumes, after a restart and in the worker too.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { fnv1a } from "../src/read/cursor.ts";
import { tempDir } from "./fixtures.ts";
import { type CallResult, connect } from "./mcp_client.ts";

const enc = new TextEncoder();
const dir = tempDir("logpeek-cursor-attacks-");
Deno.writeFileSync(
  `${dir}/app.log`,
  enc.encode(Array.from({ length: 300 }, (_, i) => `2024-05-01 10:00:00 INFO seq=${i + 1} KEY\n`).join("")),
);

// deno-lint-ignore no-explicit-any
type Fields = Record<string, any>;

function b64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

function payloadOf(cursor: string): Fields {
  const bin = atob(cursor.split(".")[0].replaceAll("-", "+").replaceAll("_", "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
}

/** `PAYLOAD.MAC` with the MAC an HMAC-SHA-256 under `key`: what the server writes. */
function seal(fields: unknown, key: Uint8Array): string {
  const payload = b64url(enc.encode(JSON.stringify(fields)));
  return `${payload}.${createHmac("sha256", key).update(payload).digest("base64url")}`;
}

/** The cursor format before this fix: base64url of the fields plus `s`, their public FNV-1a checksum. */
function oldSeal(c: Fields): string {
  const s = fnv1a(
    enc.encode(
      JSON.stringify([c.k, c.f, c.q, c.dev, c.ino, c.off, c.ls, c.line, c.pending, c.skip, c.h0, c.h1]),
    ),
  );
  return b64url(enc.encode(JSON.stringify({ ...c, s })));
}

function assertInvalidCursor(r: CallResult, what: string): void {
  assert.equal(r.isError, true, `${what}: an error`);
  assert.match(r.content[0].text, /^invalid_cursor: /, `${what}: ${r.content[0].text.slice(0, 200)}`);
}

const search = (cursor?: string) => ({
  file: "app.log",
  text: "KEY",
  limit: 10,
  ...(cursor === undefined ? {} : { cursor }),
});

Deno.test("e2e: forged, re-sealed, malformed and out-of-range cursors are invalid_cursor; a genuine one resumes, after a restart and in the worker", async () => {
  const stateDir = tempDir("logpeek-cursor-state-");
  let genuine: string;
  let key: Uint8Array;
  let rawKey: Uint8Array;
  {
    await using s = await connect([dir], {}, [], { stateDir });
    const first = await s.call("log_search", search());
    assert.equal(first.isError, undefined);
    assert.deepEqual(first.structuredContent.matches.map((m: { line_no: number }) => m.line_no), [
      1,
      2,
      3,
      4,
      5,
      6,
      7,
      8,
      9,
      10,
    ]);
    genuine = first.structuredContent.next_cursor;
    assert.match(genuine, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);

    // The key: 32 bytes in <state>/cursor.key, owner-only; the cursor's MAC is HMAC-SHA-256 under a key
    // derived from it for the roots served (a server of other roots that shares the folder cannot use it).
    rawKey = Deno.readFileSync(`${stateDir}/cursor.key`);
    assert.equal(rawKey.length, 32);
    assert.equal(Deno.statSync(`${stateDir}/cursor.key`).mode! & 0o777, 0o600);
    key = createHmac("sha256", rawKey).update(`logpeek cursors: roots ${Deno.realPathSync(dir)}`).digest();
    const [payload, mac] = genuine.split(".");
    assert.equal(mac, createHmac("sha256", key).update(payload).digest("base64url"));
    const base = payloadOf(genuine);
    assert.equal(seal(base, key), genuine, "the test seals exactly as the server does");

    const next = await s.call("log_search", search(genuine));
    assert.equal(next.isError, undefined);
    assert.equal(next.structuredContent.matches[0].line_no, 11);

    // Forged without the key.
    const forged = { ...base, line: base.line + 100, off: base.off + 100, ls: base.ls + 100 };
    assertInvalidCursor(await s.call("log_search", search(oldSeal(base))), "the old format, unchanged");
    assertInvalidCursor(
      await s.call("log_search", search(oldSeal(forged))),
      "re-sealed with the old checksum",
    );
    assertInvalidCursor(
      await s.call("log_search", search(`${b64url(enc.encode(JSON.stringify(forged)))}.${mac}`)),
      "changed fields under the genuine MAC",
    );
    assertInvalidCursor(
      await s.call("log_search", search(seal(forged, crypto.getRandomValues(new Uint8Array(32))))),
      "sealed with another key",
    );
    // Damaged: cut, padded, an empty cursor, garbage.
    for (
      const [what, c] of [
        ["cut short", genuine.slice(0, genuine.length - 5)],
        ["payload cut", genuine.slice(10)],
        ["only the payload", payload],
        ["empty", ""],
        ["not base64", "%%%.@@@"],
        ["a JSON text", JSON.stringify(base)],
      ]
    ) assertInvalidCursor(await s.call("log_search", search(c)), what);

    // Sealed with the server's own key, but fields the server never writes.
    const { line: _dropped, ...noLine } = base;
    const bad: [string, unknown][] = [
      ["negative offset", { ...base, off: -100, ls: -100 }],
      ["negative line", { ...base, line: -1 }],
      ["fractional line", { ...base, line: base.line + 0.5 }],
      ["fractional offset", { ...base, off: base.off + 0.5 }],
      ["huge offset", { ...base, off: 2 ** 63, ls: 2 ** 63 }],
      ["huge line", { ...base, line: 1e308 }],
      ["offset as a string", { ...base, off: String(base.off) }],
      ["line as null", { ...base, line: null }],
      ["pending as a number", { ...base, pending: 1 }],
      ["a missing field", noLine],
      ["an extra field", { ...base, admin: true }],
      ["line start after the offset", { ...base, ls: base.off + 1 }],
      ["more lines than bytes", { ...base, line: base.ls + 1 }],
      ["another tool's name", { ...base, k: "read_artifact" }],
      ["a nested object", { ...base, f: { toString: "app.log" } }],
      ["an array", Object.values(base)],
      ["a string", "app.log"],
    ];
    for (const [what, fields] of bad) {
      assertInvalidCursor(await s.call("log_search", search(seal(fields, key))), what);
    }
    // log_levels refuses the same, and a search's cursor.
    assertInvalidCursor(
      await s.call("log_levels", {
        file: "app.log",
        cursor: seal({ ...base, k: "log_levels", q: "", line: 0.5 }, key),
      }),
      "log_levels: fractional line",
    );
    assertInvalidCursor(
      await s.call("log_levels", { file: "app.log", cursor: genuine }),
      "log_levels: a search cursor",
    );
    // Sealed and well-formed, but beyond the file's end: the log is shorter than the cursor says.
    const beyond = await s.call("log_search", search(seal({ ...base, off: 10 ** 9, ls: 10 ** 9 }, key)));
    assert.equal(beyond.isError, true);
    assert.match(beyond.content[0].text, /^file_changed: .*truncated/);
    assert.doesNotMatch(s.stderr(), /internal_error|Invalid argument/);
  }
  {
    // Restarted, with the tools in the narrowed worker: the same key from the state directory.
    await using w = await connect([dir], {}, [], { stateDir, broadRead: true });
    const again = await w.call("log_search", search(genuine));
    assert.equal(again.isError, undefined, again.content[0].text);
    assert.equal(again.structuredContent.matches[0].line_no, 11);
    assert.deepEqual(Deno.readFileSync(`${stateDir}/cursor.key`), rawKey);
    const base = payloadOf(genuine);
    assertInvalidCursor(
      await w.call("log_search", search(seal({ ...base, off: -1 }, key))),
      "worker: negative offset",
    );
    assertInvalidCursor(
      await w.call("log_search", search(oldSeal({ ...base, line: 3 }))),
      "worker: old checksum",
    );
    const own = (await w.call("log_search", search())).structuredContent.next_cursor;
    const [p, m] = own.split(".");
    assert.equal(
      m,
      createHmac("sha256", key).update(p).digest("base64url"),
      "the worker seals with the file's key",
    );
  }
  {
    // A state directory the server cannot write: a key for this process only; the old cursor is refused.
    const roState = tempDir("logpeek-cursor-ro-");
    await using r = await connect([dir], {}, [], { stateDir: roState, noWrite: true });
    assertInvalidCursor(await r.call("log_search", search(genuine)), "another server's cursor");
    const own = (await r.call("log_search", search())).structuredContent.next_cursor;
    const next = await r.call("log_search", search(own));
    assert.equal(next.isError, undefined);
    assert.equal(next.structuredContent.matches[0].line_no, 11);
    assert.throws(() => Deno.statSync(`${roState}/cursor.key`), Deno.errors.NotFound);
  }
});

Deno.test("e2e: a log with a 3000-character name gets a cursor short enough to send back, and it resumes", async () => {
  const root = tempDir("logpeek-cursor-long-");
  const parts = Array.from({ length: 13 }, (_, i) => `${i}`.padEnd(240, "d"));
  Deno.mkdirSync(`${root}/${parts.join("/")}`, { recursive: true });
  const name = `${parts.join("/")}/app.log`;
  assert.ok(name.length > 2900);
  Deno.copyFileSync(`${dir}/app.log`, `${root}/${name}`);
  Deno.copyFileSync(`${dir}/app.log`, `${root}/${parts.join("/")}/other.log`);
  await using s = await connect([root]);
  const first = await s.call("log_search", { ...search(), file: name });
  assert.equal(first.isError, undefined, first.content[0].text.slice(0, 300));
  const cursor = first.structuredContent.next_cursor;
  assert.ok(cursor.length < 400, `cursor of ${cursor.length} characters`);
  const next = await s.call("log_search", { ...search(cursor), file: name });
  assert.equal(next.isError, undefined, next.content[0].text.slice(0, 300));
  assert.equal(next.structuredContent.matches[0].line_no, 11);
  // The same cursor for another log is refused.
  const other = await s.call("log_search", { ...search(cursor), file: name.replace("app.log", "other.log") });
  assertInvalidCursor(other, "another log");
  assert.match(other.content[0].text, /belongs to another log/);
});
