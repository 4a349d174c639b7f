/**
 * `patternSubject` (what a regex is tested on) is the line as shown: its text decoded and masked by a
 * `LineRedactor`, the reference here, whether it took the fast path on bytes (issue #26, item 2:
 * `mayHoldSecretBytes`) or decoded the line. Over every line of the Loghub and lnav corpora (SKIP when
 * absent) and generated lines holding secrets, look-alikes, letters outside ASCII and invalid bytes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { patternSubject } from "./pattern_subject.ts";
import { LineRedactor } from "../guard/redact.ts";
import { sharedDir } from "../../tests/shared_dir.ts";

const MAX_LINE = 1000;
const SHARED = sharedDir("the Loghub and lnav corpora's lines as pattern subjects");

/** The lines (bytes, no LF) of every file of both corpora. */
function corpusLines(shared: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const sub of ["corpus/loghub", "corpus/lnav/logs"]) {
    const dir = join(shared, sub);
    for (const e of Deno.readDirSync(dir)) {
      if (!e.isFile || (sub.endsWith("loghub") && !e.name.endsWith(".log"))) continue;
      const b = Deno.readFileSync(join(dir, e.name));
      let s = 0;
      for (let i = 0; i <= b.length; i++) {
        if (i === b.length || b[i] === 10) {
          if (i > s) out.push(b.subarray(s, i));
          s = i + 1;
        }
      }
    }
  }
  return out;
}

/** Lines holding secrets and their look-alikes, in mixed case, some outside ASCII or invalid UTF-8. */
function generatedLines(): Uint8Array[] {
  let seed = 26_02;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const b64 = (n: number) =>
    Array.from(
      { length: n },
      () => pick([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"]),
    )
      .join("");
  const pieces = [
    "2026-12-02 10:00:00 INFO ",
    "password=hunter2 ",
    "token=" + "ghp_" + b64(36).replace(/[+/]/g, "x") + " ",
    "Authorization: Bearer " + b64(30).replace(/[+/]/g, "y") + " ",
    "Cookie: sid=abc123; theme=dark ",
    "mysql -uroot -pS3cret db ",
    "-----BEGIN RSA PRIVATE KEY-----",
    "api_key=AbCdEf123456 ",
    "PacketResponder 1 for block blk_-123 terminating ",
    "user=bob ",
    "key ",
    "caf\u00e9 ",
    "\u212aey=v4lue9 ",
    "https://user:pa55@host/x ",
  ];
  const enc = new TextEncoder();
  const out: Uint8Array[] = [];
  for (let i = 0; i < 5000; i++) {
    const n = 1 + Math.floor(rnd() * 4);
    let s = Array.from({ length: n }, () => pick(pieces)).join("");
    if (rnd() < 0.3) s = [...s].map((c) => (rnd() < 0.5 ? c.toUpperCase() : c)).join("");
    if (rnd() < 0.1) s += " " + b64(56 + Math.floor(rnd() * 20));
    if (rnd() < 0.05) s = b64(64);
    const b = enc.encode(s);
    if (rnd() < 0.05) b[Math.floor(rnd() * b.length)] = 0xff; // invalid UTF-8
    out.push(b);
  }
  return out;
}

Deno.test("patternSubject is the line as shown (decoded, masked by LineRedactor), by its bytes or its text: corpus and generated lines", () => {
  const lines = [...(SHARED ? corpusLines(SHARED) : []), ...generatedLines()];
  const decoder = new TextDecoder();
  let asBytes = 0;
  let masked = 0;
  for (const b of lines) {
    const text = decoder.decode(b);
    if ([...text].length > MAX_LINE) continue; // shown cut: another path
    const shown = new LineRedactor(true, false).line(text);
    const got = patternSubject(b, false, true, MAX_LINE);
    if (typeof got === "string") {
      assert.equal(got, shown, text);
      masked++;
    } else {
      assert.equal(got, b, "the bytes themselves");
      assert.equal(decoder.decode(got), shown, text);
      assert.ok(!text.includes("\uFFFD"), `invalid bytes tested as read: ${text}`);
      asBytes++;
    }
  }
  console.error(`patternSubject: ${lines.length} lines, ${asBytes} tested as read, ${masked} as shown`);
  assert.ok(masked > 1000 && asBytes > 1000, `${masked} masked, ${asBytes} as read`);
});
