import assert from "node:assert/strict";
import { sqlIdent, sqlInt, sqlString } from "./sql.ts";
import { NEEDS_CLICKHOUSE, startClickHouse } from "../../../tests/clickhouse_server.ts";
import { FUZZ } from "../../../tests/clickhouse_fuzz.ts";

/** Strings made of what can end a literal or start syntax, and random code points (controls, NUL, astral). */
function fuzzStrings(n: number, seed = 7): string[] {
  let x = seed;
  const rnd = (k: number) => ((x = (x * 1103515245 + 12345) >>> 0) % k);
  const parts = [
    "'",
    "''",
    "\\",
    "\\'",
    "\u0000",
    "--",
    "/*",
    "*/",
    ";",
    "{",
    "}",
    "{x:String}",
    "`",
    '"',
    "\n",
    "\r",
    "\t",
    "\x7f",
    "SELECT",
    " UNION ",
    "é",
    "😀",
    "\u2028",
    "%",
    "_",
    "$1",
    "?",
  ];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = "";
    const len = rnd(12);
    for (let k = 0; k < len; k++) {
      s += rnd(3) === 0
        ? String.fromCodePoint(rnd(0x80))
        : rnd(10) === 0
        ? String.fromCodePoint(0x80 + rnd(0x10000 - 0x880))
        : parts[rnd(parts.length)];
    }
    out.push(s.toWellFormed());
  }
  return out;
}

Deno.test("sqlString writes quotes, backslashes and controls escaped; identifiers and numbers are checked", () => {
  assert.equal(sqlString("it's"), "'it\\'s'");
  assert.equal(sqlString("a\\b"), "'a\\\\b'");
  assert.equal(sqlString("\u0000\n\x7f"), "'\\x00\\x0A\\x7F'");
  assert.equal(sqlString("-- /* */ {x} é"), "'-- /* */ {x} é'");
  assert.equal(sqlIdent("Body_2"), "`Body_2`");
  assert.throws(() => sqlIdent("a`b"), RangeError);
  assert.throws(() => sqlIdent("1a"), RangeError);
  assert.equal(sqlInt(42), "42");
  assert.equal(sqlInt("18446744073709551615"), "toUInt64('18446744073709551615')");
  assert.throws(() => sqlInt("1 OR 1"), RangeError);
  assert.throws(() => sqlInt(1.5), RangeError);
});

Deno.test(
  "every fuzzed string reaches ClickHouse as exactly itself, and no query is added",
  NEEDS_CLICKHOUSE,
  async () => {
    await using ch = await startClickHouse("the literal round trip (issue #14)");
    if (!ch) return;
    const all = [...FUZZ, ...fuzzStrings(400)];
    // Many literals in one query, each beside its index: a literal that ended early would shift or break them.
    for (let i = 0; i < all.length; i += 50) {
      const chunk = all.slice(i, i + 50);
      const sql = "SELECT " +
        chunk.map((s, k) => `${sqlString(s)} AS v${k}, hex(v${k}) AS h${k}`).join(", ") +
        " FORMAT JSON";
      const r: { status: number; body: string } = await ch.query(sql, { readonly: 1 });
      assert.equal(r.status, 200, r.body.slice(0, 300));
      const row = JSON.parse(r.body).data[0];
      chunk.forEach((s, k) => {
        const want = [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, "0")).join("")
          .toUpperCase();
        assert.equal(row[`h${k}`], want, JSON.stringify(s));
      });
    }
  },
);
