import assert from "node:assert/strict";
import { countLevels } from "./count_levels.ts";
import { checkCursor, makeCursor, queryHash } from "./cursor.ts";
import { openLog } from "../source/local/log_file.ts";
import type { ResumePoint } from "./readable_log.ts";
import { openRoots, type Root } from "../source/local/roots.ts";
import { searchLog } from "./search.ts";
import { DEFAULT_LIMITS } from "../core/config.ts";
import type { LogLine } from "./log_line.ts";
import { createHmac } from "node:crypto";

const dir = Deno.makeTempDirSync({ prefix: "logpeek-resume-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const roots: Root[] = openRoots([dir], "/");
/** The cursor key of these tests (a server keeps its own in its state directory). */
const KEY = crypto.getRandomValues(new Uint8Array(32));

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

/** A random log: CRLF and LF, empty lines, long lines, invalid UTF-8, levels, and the needle "KEY". */
function randomLog(rnd: () => number): Uint8Array {
  const out: number[] = [];
  const enc = new TextEncoder();
  const n = Math.floor(rnd() * 60);
  for (let i = 0; i < n; i++) {
    const lv = ["INFO", "WARN", "ERROR", "DEBUG"][Math.floor(rnd() * 4)];
    out.push(...enc.encode(`2024-05-01 10:00:${String(i % 60).padStart(2, "0")} ${lv} `));
    const kind = rnd();
    const len = kind < 0.1 ? 0 : kind < 0.2 ? 300 + Math.floor(rnd() * 3000) : Math.floor(rnd() * 40);
    for (let k = 0; k < len; k++) {
      const r = rnd();
      if (r < 0.01) out.push(...enc.encode("KEY"));
      else {out.push(
          r < 0.02 ? 0xff : r < 0.5 ? 97 + Math.floor(rnd() * 26) : 75 /* K */ + Math.floor(rnd() * 3),
        );}
    }
    if (i < n - 1 || rnd() < 0.5) out.push(...(rnd() < 0.3 ? [13, 10] : [10]));
  }
  return new Uint8Array(out);
}

const limits = { ...DEFAULT_LIMITS, searchMs: 1e9, levelsMs: 1e9 };

Deno.test("resume property: budgeted pages equal one unbudgeted search and count, over 200 random cases", async () => {
  const rnd = rng(2026);
  let pagesTotal = 0;
  for (let t = 0; t < 200; t++) {
    const bytes = randomLog(rnd);
    Deno.writeFileSync(`${dir}/r.log`, bytes);
    const pieceSize = [1, 3, 7, 64, 1000, 65536][t % 6];
    const budget = 1 + Math.floor(rnd() * 700);
    const text = rnd() < 0.7 ? "KEY" : "K";
    const level = rnd() < 0.3 ? "ERROR" as const : undefined;
    const base = { ...limits, pieceSize, text, level, limit: 5000, redact: false, maxLine: 50 };
    using log = await openLog(roots, "r.log");
    const full = await searchLog(log, { ...base, searchBytes: 1e12 });
    assert.equal(full.complete, true);
    // Pages, each under a small byte budget and a small limit, resumed through real cursors.
    const got: LogLine[] = [];
    let cursor: string | undefined;
    let pages = 0;
    const q = queryHash({ text, level });
    do {
      const resume: ResumePoint | undefined = cursor
        ? checkCursor(cursor, log, { k: "log_search", f: "r.log", q }, KEY)
        : undefined;
      const page = await searchLog(log, { ...base, searchBytes: budget, limit: 1 + (t % 5), resume });
      got.push(...page.matches);
      cursor = page.next ? makeCursor(log, { k: "log_search", f: "r.log", q, ...page.next }, KEY) : undefined;
      assert.ok(++pages < 100000, "pages make progress");
      if (!cursor) assert.equal(page.complete, true, `case ${t}: a page without cursor is the last`);
    } while (cursor);
    pagesTotal += pages;
    assert.deepEqual(
      got.map((m) => m.line_no),
      full.matches.map((m) => m.line_no),
      `case ${t}: line numbers`,
    );
    for (let i = 0; i < got.length; i++) {
      const a = got[i], b = full.matches[i];
      if (!a.cut) assert.deepEqual(a, b, `case ${t}: match ${i}`);
      else {assert.ok(
          b.text.startsWith(a.text.replace(/\uFFFD$/, "")),
          `case ${t}: a cut match is the line's start`,
        );}
    }
    // log_levels pages add up to the full counts.
    const all = await countLevels(log, { ...limits, pieceSize });
    const sum: Record<string, number> = {};
    let lc: string | undefined;
    let lines = 0;
    let lpages = 0;
    do {
      const resume = lc ? checkCursor(lc, log, { k: "log_levels", f: "r.log", q: "" }, KEY) : undefined;
      const page = await countLevels(log, {
        ...limits,
        pieceSize: Math.max(pieceSize, 64),
        levelsMs: 0.05,
        resume,
      });
      for (const [k, v] of Object.entries(page.counts)) sum[k] = (sum[k] ?? 0) + v;
      lines += page.total_lines;
      lc = page.next ? makeCursor(log, { k: "log_levels", f: "r.log", q: "", ...page.next }, KEY) : undefined;
      assert.ok(++lpages < 100000);
    } while (lc);
    assert.deepEqual(sum, all.counts, `case ${t}: level counts`);
    assert.equal(lines, all.total_lines);
  }
  console.error(`resume property: 200 cases, ${pagesTotal} search pages`);
});

Deno.test("a cursor refuses another query, another file, a rotated, truncated or rewritten log", async () => {
  const enc = new TextEncoder();
  Deno.writeFileSync(`${dir}/c.log`, enc.encode("line KEY one\nline two\nline KEY three\n".repeat(50)));
  Deno.writeFileSync(`${dir}/other.log`, enc.encode("x\n"));
  const q = queryHash({ text: "KEY" });
  const first = async () => {
    using log = await openLog(roots, "c.log");
    const p = await searchLog(log, { ...limits, text: "KEY", limit: 1, redact: false, searchBytes: 1e9 });
    return makeCursor(log, { k: "log_search", f: "c.log", q, ...p.next! }, KEY);
  };
  const cursor = await first();
  const check = async (name: string, expect: { k: "log_search" | "log_levels"; f: string; q: string }) => {
    using log = await openLog(roots, name);
    return checkCursor(cursor, log, expect, KEY);
  };
  await check("c.log", { k: "log_search", f: "c.log", q });
  await assert.rejects(
    () => check("c.log", { k: "log_search", f: "c.log", q: queryHash({ text: "x" }) }),
    /another query/,
  );
  await assert.rejects(() => check("c.log", { k: "log_levels", f: "c.log", q: "" }), /belongs to log_search/);
  await assert.rejects(() => check("other.log", { k: "log_search", f: "other.log", q }), /another log/);
  await assert.rejects(() => check("c.log", { k: "log_search", f: "c.log", q: "" }), /another query/);
  assert.throws(
    () => checkCursor("not a cursor", null as never, { k: "log_search", f: "c.log", q }, KEY),
    /not one this server made/,
  );
  // Rewritten in place (same inode): the part already read changed.
  const bytes = Deno.readFileSync(`${dir}/c.log`);
  bytes[2] = 0x58;
  Deno.writeFileSync(`${dir}/c.log`, bytes);
  await assert.rejects(() => check("c.log", { k: "log_search", f: "c.log", q }), /already read has changed/);
  // Truncated below the cursor.
  Deno.truncateSync(`${dir}/c.log`, 5);
  await assert.rejects(() => check("c.log", { k: "log_search", f: "c.log", q }), /truncated/);
  // Rotated: another file has the name now.
  Deno.renameSync(`${dir}/c.log`, `${dir}/c.log.1`);
  Deno.writeFileSync(`${dir}/c.log`, enc.encode("line KEY one\nline two\nline KEY three\n".repeat(50)));
  await assert.rejects(
    () => check("c.log", { k: "log_search", f: "c.log", q }),
    /another file now \(rotated\?\)/,
  );
});

Deno.test("resume on gzip logs: pages over the decompressed stream equal one search and one count", async () => {
  const { gzipSync } = await import("node:zlib");
  const rnd = rng(77);
  for (let t = 0; t < 30; t++) {
    const bytes = randomLog(rnd);
    Deno.writeFileSync(`${dir}/g.log.gz`, new Uint8Array(gzipSync(bytes)));
    const base = {
      ...limits,
      pieceSize: [7, 1000, 65536][t % 3],
      text: "KEY",
      limit: 5000,
      redact: false,
      maxLine: 50,
    };
    using log = await openLog(roots, "g.log.gz");
    const full = await searchLog(log, { ...base, searchBytes: 1e12 });
    const q = queryHash({ text: "KEY" });
    const got: number[] = [];
    let cursor: string | undefined;
    do {
      const resume = cursor
        ? checkCursor(cursor, log, { k: "log_search", f: "g.log.gz", q }, KEY)
        : undefined;
      const page = await searchLog(log, {
        ...base,
        searchBytes: 1 + Math.floor(rnd() * 500),
        limit: 2,
        resume,
      });
      got.push(...page.matches.map((m) => m.line_no!));
      cursor = page.next
        ? makeCursor(log, { k: "log_search", f: "g.log.gz", q, ...page.next }, KEY)
        : undefined;
    } while (cursor);
    assert.deepEqual(got, full.matches.map((m) => m.line_no), `gz case ${t}`);
  }
});

Deno.test("a cursor damaged in copying is refused, and an edit in the middle of the read part is seen", async () => {
  const enc = new TextEncoder();
  const body = Array.from({ length: 3000 }, (_, i) => `line seq=${i} KEY\n`).join("");
  Deno.writeFileSync(`${dir}/m.log`, enc.encode(body));
  const q = queryHash({ text: "KEY" });
  using log = await openLog(roots, "m.log");
  const p = await searchLog(log, { ...limits, text: "KEY", limit: 2500, redact: false, searchBytes: 1e9 });
  const cursor = makeCursor(log, { k: "log_search", f: "m.log", q, ...p.next! }, KEY);
  // Change one field of the JSON inside (the line number), keeping the rest and the seal.
  const [payload, mac] = cursor.split(".");
  const json = unb64(payload);
  json.line += 5;
  assert.throws(
    () => checkCursor(`${b64(json)}.${mac}`, log, { k: "log_search", f: "m.log", q }, KEY),
    /not one this server made/,
  );
  // The same cursor under another key is refused; under its own it passes.
  assert.throws(
    () =>
      checkCursor(
        cursor,
        log,
        { k: "log_search", f: "m.log", q },
        crypto.getRandomValues(new Uint8Array(32)),
      ),
    /not one this server made/,
  );
  assert.equal(checkCursor(cursor, log, { k: "log_search", f: "m.log", q }, KEY).line, json.line - 5);
  // An edit in place, same size, in the middle of what was read (where one of the 16 samples lies).
  const bytes = Deno.readFileSync(`${dir}/m.log`);
  const pos = Math.floor((json.off * 6) / 17) + 5;
  bytes[pos] = bytes[pos] === 0x58 ? 0x59 : 0x58;
  Deno.writeFileSync(`${dir}/m.log`, bytes);
  using again = await openLog(roots, "m.log");
  assert.throws(
    () => checkCursor(cursor, again, { k: "log_search", f: "m.log", q }, KEY),
    /already read has changed/,
  );
});

/** base64url of an object's JSON, as a cursor's payload is written. */
function b64(o: unknown): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(o))))
    .replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/** A cursor's payload, read back. */
// deno-lint-ignore no-explicit-any
function unb64(payload: string): any {
  const bin = atob(payload.replaceAll("-", "+").replaceAll("_", "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
}

Deno.test("a cursor sealed with the right key but holding fields this server never writes is invalid_cursor", async () => {
  const enc = new TextEncoder();
  Deno.writeFileSync(
    `${dir}/v.log`,
    enc.encode(Array.from({ length: 400 }, (_, i) => `l ${i} KEY\n`).join("")),
  );
  const q = queryHash({ text: "KEY" });
  using log = await openLog(roots, "v.log");
  const p = await searchLog(log, { ...limits, text: "KEY", limit: 100, redact: false, searchBytes: 1e9 });
  const genuine = makeCursor(log, { k: "log_search", f: "v.log", q, ...p.next! }, KEY);
  const base = unb64(genuine.split(".")[0]);
  // The format: PAYLOAD.MAC, the MAC an HMAC-SHA-256 of the payload under the key.
  assert.equal(
    genuine.split(".")[1],
    createHmac("sha256", KEY).update(genuine.split(".")[0]).digest("base64url"),
  );
  assert.deepEqual(Object.keys(base), [
    "k",
    "f",
    "q",
    "dev",
    "ino",
    "off",
    "ls",
    "line",
    "pending",
    "skip",
    "h0",
    "h1",
    "t0",
    "t1",
    "lt",
    "mx",
    "nk",
    "ob",
    "cs",
    "cl",
    "g",
    "dn",
  ]);
  const seal = (o: unknown) => {
    const payload = b64(o);
    return `${payload}.${createHmac("sha256", KEY).update(payload).digest("base64url")}`;
  };
  const expect = { k: "log_search" as const, f: "v.log", q };
  // Re-sealing the unchanged fields gives the same cursor, which resumes.
  assert.equal(seal(base), genuine);
  assert.equal(checkCursor(seal(base), log, expect, KEY).off, base.off);
  const { line: _line, ...noLine } = base;
  const bad: [string, unknown][] = [
    ["negative offset", { ...base, off: -1, ls: -1 }],
    ["negative line", { ...base, line: -3 }],
    ["fractional line", { ...base, line: base.line + 0.5 }],
    ["fractional offset", { ...base, off: base.off + 0.25, ls: base.off + 0.25 }],
    ["offset beyond 2^53", { ...base, off: 2 ** 60, ls: 2 ** 60 }],
    ["line beyond 2^53", { ...base, line: 1e300 }],
    ["ls after off", { ...base, ls: base.off + 1 }],
    ["more lines than bytes", { ...base, line: base.ls + 1 }],
    ["offset as a string", { ...base, off: String(base.off) }],
    ["pending as a string", { ...base, pending: "false" }],
    ["skip not the next line", { ...base, skip: base.line + 7 }],
    ["a missing field", noLine],
    ["an extra field", { ...base, extra: 1 }],
    ["a null tool", { ...base, k: null }],
    ["an unknown tool", { ...base, k: "log_tail" }],
    ["a fingerprint not hex", { ...base, h0: "zzzzzzzz" }],
    ["a query hash not hex", { ...base, q: "x" }],
    ["an array", Object.values(base)],
    ["null", null],
    ["a number", 7],
    ["a log_levels cursor with a pending line", { ...base, k: "log_levels", q: "", pending: true }],
    ["an instant not whole", { ...base, t0: 1.5 }],
    ["an instant past Date's range", { ...base, lt: 9e15 }],
    ["line numbers known as a string", { ...base, nk: "true" }],
    ["a done set without a glob", { ...base, dn: "AQ" }],
    ["a context start after the line start", { ...base, cs: base.ls + 1 }],
    ["a glob hash not hex", { ...base, g: "zz", dn: "AQ" }],
  ];
  for (const [what, o] of bad) {
    assert.throws(
      () => checkCursor(seal(o), log, expect, KEY),
      /^ToolError: .*not one this server made/,
      what,
    );
  }
  // Sealed, but not JSON, or not base64 of UTF-8.
  for (const payload of ["bm90IGpzb24", "_w", ""]) {
    const text = `${payload}.${createHmac("sha256", KEY).update(payload).digest("base64url")}`;
    assert.throws(() => checkCursor(text, log, expect, KEY), /not one this server made/, payload);
  }
  // Cut short, or with a character outside base64url.
  for (const text of [genuine.slice(0, 20), genuine.slice(0, -1), genuine.replace(".", "!"), genuine + "="]) {
    assert.throws(() => checkCursor(text, log, expect, KEY), /not one this server made/, text);
  }
});
